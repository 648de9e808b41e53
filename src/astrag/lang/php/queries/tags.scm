; PHP at name level (see astrag/lang/tags.py for the captures)

(class_declaration name: (name) @name (base_clause [(name) (qualified_name)] @base)? ) @definition.class
(class_declaration name: (name) @name (class_interface_clause [(name) (qualified_name)] @base)) @definition.class
(interface_declaration name: (name) @name (base_clause [(name) (qualified_name)] @base)?) @definition.interface
(trait_declaration name: (name) @name) @definition.class
(enum_declaration name: (name) @name) @definition.enum
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
(property_declaration (property_element name: (variable_name (name) @name))) @definition.field
(const_declaration (const_element (name) @name)) @definition.variable
(enum_case name: (name) @name) @definition.field

(function_call_expression function: [(name) (qualified_name)] @name) @reference.call
(member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @receiver name: (name) @name) @reference.call
(object_creation_expression [(name) (qualified_name)] @name) @reference.new

(namespace_use_declaration (namespace_use_clause (qualified_name prefix: (namespace_name) @import.path (name) @import.name) alias: (name)? @import.alias)) @import
(namespace_use_declaration (namespace_use_clause . (name) @import.name alias: (name)? @import.alias)) @import
(require_once_expression (_ (string_content) @import.file)) @import
(require_expression (_ (string_content) @import.file)) @import
(include_once_expression (_ (string_content) @import.file)) @import
(include_expression (_ (string_content) @import.file)) @import
