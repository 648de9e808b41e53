; Scala at name level (see astrag/lang/tags.py for the captures)

(class_definition name: (identifier) @name
  extend: (extends_clause type: [(type_identifier) (generic_type (type_identifier)) (stable_type_identifier)] @base)?) @definition.class
(trait_definition name: (identifier) @name
  extend: (extends_clause type: [(type_identifier) (generic_type (type_identifier)) (stable_type_identifier)] @base)?) @definition.interface
(object_definition name: (identifier) @name) @definition.class
(enum_definition name: (identifier) @name) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.method
(template_body (val_definition pattern: (identifier) @name) @definition.field)
(template_body (var_definition pattern: (identifier) @name) @definition.field)
(compilation_unit (val_definition pattern: (identifier) @name) @definition.variable)
(package_clause name: (_) @name body: (_)) @definition.module

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @name)) @reference.call
(instance_expression [(type_identifier) (generic_type (type_identifier))] @name) @reference.new

; a query captures one part of a dotted path, the first: enough to tell external from ours
(import_declaration path: (identifier) @import.path (namespace_selectors (identifier) @import.name)) @import
(import_declaration path: (_) @import.module (namespace_wildcard)) @import
(import_declaration (identifier)* @import.path . (identifier) @import.name .) @import
