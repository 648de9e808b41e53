; C# at name level (see astrag/lang/tags.py for the captures)

(namespace_declaration name: (_) @name body: (_)) @definition.module
(class_declaration name: (identifier) @name (base_list [(identifier) (qualified_name) (generic_name)] @base)?) @definition.class
(struct_declaration name: (identifier) @name (base_list [(identifier) (qualified_name) (generic_name)] @base)?) @definition.class
(record_declaration name: (identifier) @name (base_list [(identifier) (qualified_name) (generic_name)] @base)?) @definition.class
(interface_declaration name: (identifier) @name (base_list [(identifier) (qualified_name) (generic_name)] @base)?) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(property_declaration name: (identifier) @name) @definition.field
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(enum_member_declaration name: (identifier) @name) @definition.field

(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (member_access_expression expression: _ @receiver name: (identifier) @name)) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(object_creation_expression type: [(identifier) (qualified_name)] @name) @reference.new

(using_directive . (qualified_name) @import.module) @import
(using_directive . (identifier) @import.module .) @import
