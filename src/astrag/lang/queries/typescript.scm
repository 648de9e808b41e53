; astrag facts query for the `typescript` and `tsx` grammars (tags convention).
; astrag.lang.typescript reads names through node fields; @name is kept for tags-based tools.

; ------------------------------------------------------------------ definitions
(class_declaration name: (_) @name) @definition.class
(abstract_class_declaration name: (_) @name) @definition.class
(variable_declarator name: (identifier) @name value: (class)) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(enum_declaration name: (_) @name) @definition.enum
(type_alias_declaration name: (_) @name) @definition.type_alias
(function_declaration name: (_) @name) @definition.function
(generator_function_declaration name: (_) @name) @definition.function
(function_signature name: (_) @name) @definition.function
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(method_definition name: (_) @name) @definition.method
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(public_field_definition name: (_) @name) @definition.field
(property_signature name: (_) @name) @definition.field
(internal_module name: (_) @name) @definition.namespace
(module name: (_) @name) @definition.namespace

; ------------------------------------------------ statements read as a whole
(export_statement) @export.statement
(import_statement) @import.statement
(assignment_expression left: (member_expression)) @assignment.member

; --------------------------------------------------------------- local names
(variable_declarator) @binding.declarator
(formal_parameters) @binding.parameters
(arrow_function parameter: (identifier) @binding.parameter)
(for_in_statement left: (_) @binding.loop)
(catch_clause parameter: (_) @binding.catch)
(type_parameter name: (_) @binding.type_parameter)

; ---------------------------------------------------------------- references
(call_expression) @reference.call
(new_expression) @reference.new
(decorator [(identifier) (member_expression)] @reference.decorator)
(type_identifier) @reference.type
(nested_type_identifier) @reference.type
(identifier) @reference.read
(shorthand_property_identifier) @reference.read
(member_expression) @reference.member
