; astrag facts query for the `javascript` grammar (tags convention). It mirrors
; typescript.scm without the type-level nodes the JavaScript grammar does not have.

; ------------------------------------------------------------------ definitions
(class_declaration name: (_) @name) @definition.class
(variable_declarator name: (identifier) @name value: (class)) @definition.class
(function_declaration name: (_) @name) @definition.function
(generator_function_declaration name: (_) @name) @definition.function
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(method_definition name: (_) @name) @definition.method
(field_definition property: (_) @name) @definition.field

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

; ---------------------------------------------------------------- references
(call_expression) @reference.call
(new_expression) @reference.new
(decorator [(identifier) (member_expression)] @reference.decorator)
(identifier) @reference.read
(shorthand_property_identifier) @reference.read
(member_expression) @reference.member
