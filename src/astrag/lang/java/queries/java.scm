; astrag facts query for the `java` grammar (tags convention).
; astrag.lang.java reads names through node fields; @name is kept for tags-based tools.

; ------------------------------------------------------------------ definitions
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(annotation_type_declaration name: (identifier) @name) @definition.annotation
(method_declaration name: (identifier) @name) @definition.method
(annotation_type_element_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor
(field_declaration declarator: (variable_declarator name: (identifier) @name) @definition.field)
(constant_declaration declarator: (variable_declarator name: (identifier) @name) @definition.field)
(enum_constant name: (identifier) @name) @definition.constant
(record_declaration
  parameters: (formal_parameters (formal_parameter name: (identifier) @name) @definition.component))
(object_creation_expression (class_body) @definition.anonymous)
(enum_constant body: (class_body) @definition.anonymous)

; --------------------------------------------------------------- local names
(formal_parameter) @binding.parameter
(spread_parameter) @binding.parameter
(lambda_expression parameters: (identifier) @binding.untyped)
(inferred_parameters (identifier) @binding.untyped)
(local_variable_declaration) @binding.local
(enhanced_for_statement) @binding.loop
(catch_formal_parameter) @binding.catch
(resource name: (_)) @binding.resource
(instanceof_expression name: (_)) @binding.pattern
(type_pattern) @binding.type_pattern
(type_parameter) @binding.type_parameter

; ---------------------------------------------------------------- references
(method_invocation) @reference.call
(object_creation_expression) @reference.new
(explicit_constructor_invocation) @reference.constructor
(method_reference) @reference.methodref
(enum_constant) @reference.enum
(type_identifier) @reference.type
(scoped_type_identifier) @reference.type
(marker_annotation name: (_) @reference.annotation)
(annotation name: (_) @reference.annotation)

; ------------------------------------------- what the captures above include but are not
; (found here rather than by asking each node for its parent, which tree-sitter answers by a
; walk down from the root)
(scoped_type_identifier [(type_identifier) (scoped_type_identifier)] @skip.type)  ; a part
(type_parameter . (type_identifier) @skip.type)  ; a type parameter's declaration
(record_declaration
  (formal_parameters [(formal_parameter) (spread_parameter)] @skip.parameter))  ; a component
