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
; ... also in parentheses (`const f = (function () { ... })`): the frontend unwraps
(variable_declarator name: (identifier) @name value: (parenthesized_expression)) @definition.function
(method_definition name: (_) @name) @definition.method
; members of object literals (named definitions when the literal is bound to a module-level name)
(pair
  key: (_) @name
  value: [(arrow_function) (function_expression) (generator_function) (object)]) @definition.object_member
; ... also in parentheses (`get: (function () { ... })`): the frontend unwraps
(pair key: (_) @name value: (parenthesized_expression)) @definition.object_member
; a named function expression anywhere else (``forwardRef(function Inner() {})``)
(function_expression name: (identifier) @name) @definition.named_function
(field_definition property: (_) @name) @definition.field

; ------------------------------------------------ statements read as a whole
(export_statement) @export.statement
(import_statement) @import.statement
(expression_statement (assignment_expression left: (member_expression)) @assignment.member)
; ``exports = module.exports = internals.Auth = class {}``: a chain that opens with a name
(expression_statement (assignment_expression left: (identifier) right: (assignment_expression)) @assignment.member)
(expression_statement (assignment_expression left: (subscript_expression)) @assignment.member)

; --------------------------------------------------------------- local names
(variable_declarator) @binding.declarator
(return_statement (_) @binding.return)
; an arrow function's expression body is what it returns (a block body is not a value)
(arrow_function body: (_) @binding.return)
(assignment_expression left: (identifier)) @assignment.local
; parameter lists of things with a body (signatures and function types bind nothing)
([
  (function_declaration parameters: (_) @binding.parameters)
  (generator_function_declaration parameters: (_) @binding.parameters)
  (function_expression parameters: (_) @binding.parameters)
  (generator_function parameters: (_) @binding.parameters)
  (arrow_function parameters: (_) @binding.parameters)
  (method_definition parameters: (_) @binding.parameters)
])
(arrow_function parameter: (identifier) @binding.parameter)
(for_in_statement left: (_) @binding.loop)
(catch_clause parameter: (_) @binding.catch)
(function_expression name: (identifier) @binding.function_name)
; the tests that narrow (narrowing.py; guard calls are @reference.call)
(binary_expression operator: "instanceof") @narrowing.instanceof
(binary_expression left: (string) operator: "in") @narrowing.in
; a discriminant test: `x.kind === 'a'` (and `!==`, `==`, `!=`)
(binary_expression
  left: (member_expression)
  operator: ["===" "==" "!==" "!="]
  right: [(string) (number) (true) (false)]) @narrowing.eq
; ... and each `case 'a':` of a `switch (x.kind)`
(switch_statement value: (parenthesized_expression (member_expression))) @narrowing.switch

; ---------------------------------------------------------------- references
(call_expression) @reference.call
(new_expression) @reference.new
(decorator [(identifier) (member_expression)] @reference.decorator)

; Reads: names and member chains in value positions only, so that callees, chain parts,
; assignment targets and declared names are never captured at all.
(shorthand_property_identifier) @reference.read
(arguments [(identifier) (member_expression)] @reference.read)
(array [(identifier) (member_expression)] @reference.read)
(binary_expression [(identifier) (member_expression)] @reference.read)
(unary_expression argument: [(identifier) (member_expression)] @reference.read)
(ternary_expression [(identifier) (member_expression)] @reference.read)
(parenthesized_expression [(identifier) (member_expression)] @reference.read)
(sequence_expression [(identifier) (member_expression)] @reference.read)
(spread_element [(identifier) (member_expression)] @reference.read)
(await_expression [(identifier) (member_expression)] @reference.read)
(yield_expression [(identifier) (member_expression)] @reference.read)
(return_statement [(identifier) (member_expression)] @reference.read)
(throw_statement [(identifier) (member_expression)] @reference.read)
(expression_statement [(identifier) (member_expression)] @reference.read)
(subscript_expression [(identifier) (member_expression)] @reference.read)
(template_substitution [(identifier) (member_expression)] @reference.read)
(computed_property_name [(identifier) (member_expression)] @reference.read)
(variable_declarator value: [(identifier) (member_expression)] @reference.read)
(assignment_expression right: [(identifier) (member_expression)] @reference.read)
(augmented_assignment_expression right: [(identifier) (member_expression)] @reference.read)
(assignment_pattern right: [(identifier) (member_expression)] @reference.read)
(object_assignment_pattern right: [(identifier) (member_expression)] @reference.read)
(pair value: [(identifier) (member_expression)] @reference.read)
(arrow_function body: [(identifier) (member_expression)] @reference.read)
(for_in_statement right: [(identifier) (member_expression)] @reference.read)
(switch_case value: [(identifier) (member_expression)] @reference.read)
(field_definition value: [(identifier) (member_expression)] @reference.read)
(jsx_expression [(identifier) (member_expression)] @reference.read)


; JSX: a Capitalized or dotted tag names a component (the frontend drops intrinsic tags).
(jsx_opening_element name: [(identifier) (member_expression)] @reference.jsx)
(jsx_self_closing_element name: [(identifier) (member_expression)] @reference.jsx)
