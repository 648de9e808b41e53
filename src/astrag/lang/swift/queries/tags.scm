; Swift at name level (see astrag/lang/tags.py for the captures)

(class_declaration declaration_kind: "enum" name: (type_identifier) @name
  (inheritance_specifier inherits_from: (user_type (type_identifier) @base))?) @definition.enum
(class_declaration declaration_kind: ["class" "struct" "actor"] name: (type_identifier) @name
  (inheritance_specifier inherits_from: (user_type (type_identifier) @base))?) @definition.class
(protocol_declaration name: (type_identifier) @name
  (inheritance_specifier inherits_from: (user_type (type_identifier) @base))?) @definition.interface
; an extension's members are the extended type's
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) @name)) @scope.impl
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration "init" @name) @definition.method
(typealias_declaration name: (type_identifier) @name) @definition.type
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable)
(enum_entry name: (simple_identifier) @name) @definition.field

(call_expression (simple_identifier) @name) @reference.call
(call_expression (navigation_expression target: (_) @receiver suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call

(import_declaration (identifier) @import.module) @import
