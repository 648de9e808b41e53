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
; members of object literals (named definitions when the literal is bound to a module-level name)
(pair
  key: (_) @name
  value: [(arrow_function) (function_expression) (generator_function) (object)]) @definition.object_member
; ... also in parentheses or a cast (`string: ((arg) => ...) as Create`): the frontend unwraps
(pair
  key: (_) @name
  value: [(parenthesized_expression) (as_expression) (satisfies_expression)]) @definition.object_member
; a named function expression anywhere else (``forwardRef(function Inner() {})``)
(function_expression name: (identifier) @name) @definition.named_function
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(public_field_definition name: (_) @name) @definition.field
(property_signature name: (_) @name) @definition.field
(internal_module name: (_) @name) @definition.namespace
(module name: (_) @name) @definition.namespace

; ------------------------------------------------ statements read as a whole
(export_statement) @export.statement
(import_statement) @import.statement
(expression_statement (assignment_expression left: (member_expression)) @assignment.member)
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
; parameter lists of body-less signatures: they bind nothing, but a function-typed parameter's
; own parameter types type the callbacks passed there (interfaces, overloads, declarations)
([
  (method_signature parameters: (_) @binding.signature_parameters)
  (abstract_method_signature parameters: (_) @binding.signature_parameters)
  (function_signature parameters: (_) @binding.signature_parameters)
])
(for_in_statement left: (_) @binding.loop)
(catch_clause parameter: (_) @binding.catch)
(function_expression name: (identifier) @binding.function_name)
(type_parameter name: (_) @binding.type_parameter)
; a type guard's `x is T`, and the tests that narrow (narrowing.py; guard calls are @reference.call)
(type_predicate_annotation) @binding.predicate
; a return type written as an object type (`(): { status: ParseStatus; ctx: Context }`)
(function_declaration return_type: (type_annotation (object_type))) @binding.shape
(method_definition return_type: (type_annotation (object_type))) @binding.shape
(method_signature return_type: (type_annotation (object_type))) @binding.shape
(arrow_function return_type: (type_annotation (object_type))) @binding.shape
(function_expression return_type: (type_annotation (object_type))) @binding.shape
(binary_expression operator: "instanceof") @narrowing.instanceof
(binary_expression left: (string) operator: "in") @narrowing.in
; a discriminant test: `x.kind === 'a'` (and `!==`, `==`, `!=`)
(binary_expression
  left: (member_expression)
  operator: ["===" "==" "!==" "!="]
  right: [(string) (number) (true) (false)]) @narrowing.eq
; ... and each `case 'a':` of a `switch (x.kind)`
(switch_statement value: (parenthesized_expression (member_expression))) @narrowing.switch
(infer_type (type_identifier) @binding.type_parameter)
(mapped_type_clause name: (type_identifier) @binding.type_parameter)

; ---------------------------------------------------------------- references
(call_expression) @reference.call
(new_expression) @reference.new
(decorator [(identifier) (member_expression)] @reference.decorator)
(type_identifier) @reference.type
(nested_type_identifier) @reference.type

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
(public_field_definition value: [(identifier) (member_expression)] @reference.read)
(required_parameter value: [(identifier) (member_expression)] @reference.read)
(optional_parameter value: [(identifier) (member_expression)] @reference.read)
(enum_assignment value: [(identifier) (member_expression)] @reference.read)
(as_expression [(identifier) (member_expression)] @reference.read)
(satisfies_expression [(identifier) (member_expression)] @reference.read)
(type_query [(identifier) (member_expression)] @reference.read)

; `x!` is transparent: the frontend looks at what the non-null expression sits in.
(non_null_expression [(identifier) (member_expression)] @reference.non_null)
