; Python facts query, read by astrag.lang.python in ONE pass over the tree.
;
; Follows the tree-sitter tags convention (@definition.*, @reference.call, @name; python.py
; switches @name off, as it reads names from the captured nodes) and adds
; astrag's own captures. Capture names are the contract with python.py:
;   @definition.class / @definition.function   class_definition / function_definition nodes
;   @definition.decorated                      decorated_definition (decorators -> definition)
;   @definition.generator                      a yield, marking its function as a generator
;   @reference.call                            call nodes whose callee is a name or attribute
;   @reference.type                            the `type` node of an annotation
;   @reference.read                            a name/attribute chain in a value position
;   @import.statement / .from / .future        the three import statement kinds
;   @binding.assignment / .augmented           outermost assignment of a statement
;   @binding.target                            for/comprehension/with/except/walrus targets
;   @binding.lambda                            lambda parameter lists
;   @binding.global                            global/nonlocal statements (not bindings)

; ------------------------------------------------------------------------ definitions

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

(decorated_definition) @definition.decorated

(yield) @definition.generator

; ------------------------------------------------------------------------ calls

(call
  function: [
    (identifier) @name
    (attribute
      attribute: (identifier) @name)
  ]) @reference.call

; ------------------------------------------------------------------------ annotations

(typed_parameter type: (type) @reference.type)
(typed_default_parameter type: (type) @reference.type)
(function_definition return_type: (type) @reference.type)
(assignment type: (type) @reference.type)

; ------------------------------------------------------------------------ value reads
; Only the outermost chain is captured: an inner `a.b` of `a.b.c` sits in an attribute's
; `object` field, which no pattern below names. Reads inside annotations are dropped in
; python.py (they are TYPE references).

(call
  arguments: (argument_list [(identifier) (attribute)] @reference.read))
(keyword_argument value: [(identifier) (attribute)] @reference.read)
(assignment right: [(identifier) (attribute)] @reference.read)
(augmented_assignment right: [(identifier) (attribute)] @reference.read)
(named_expression value: [(identifier) (attribute)] @reference.read)
(default_parameter value: [(identifier) (attribute)] @reference.read)
(typed_default_parameter value: [(identifier) (attribute)] @reference.read)
(expression_statement [(identifier) (attribute)] @reference.read)
(expression_list [(identifier) (attribute)] @reference.read)
(return_statement [(identifier) (attribute)] @reference.read)
(raise_statement [(identifier) (attribute)] @reference.read)
(assert_statement [(identifier) (attribute)] @reference.read)
(if_statement condition: [(identifier) (attribute)] @reference.read)
(elif_clause condition: [(identifier) (attribute)] @reference.read)
(while_statement condition: [(identifier) (attribute)] @reference.read)
(for_statement right: [(identifier) (attribute)] @reference.read)
(for_in_clause right: [(identifier) (attribute)] @reference.read)
(if_clause [(identifier) (attribute)] @reference.read)
(match_statement subject: [(identifier) (attribute)] @reference.read)
(except_clause [(identifier) (attribute)] @reference.read)
(as_pattern . [(identifier) (attribute)] @reference.read)
(with_item value: [(identifier) (attribute)] @reference.read)
(binary_operator [(identifier) (attribute)] @reference.read)
(boolean_operator [(identifier) (attribute)] @reference.read)
(comparison_operator [(identifier) (attribute)] @reference.read)
(not_operator [(identifier) (attribute)] @reference.read)
(unary_operator [(identifier) (attribute)] @reference.read)
(conditional_expression [(identifier) (attribute)] @reference.read)
(parenthesized_expression [(identifier) (attribute)] @reference.read)
(await [(identifier) (attribute)] @reference.read)
(yield [(identifier) (attribute)] @reference.read)
(lambda body: [(identifier) (attribute)] @reference.read)
(list [(identifier) (attribute)] @reference.read)
(tuple [(identifier) (attribute)] @reference.read)
(set [(identifier) (attribute)] @reference.read)
(pair [(identifier) (attribute)] @reference.read)
(list_splat [(identifier) (attribute)] @reference.read)
(dictionary_splat [(identifier) (attribute)] @reference.read)
(subscript [(identifier) (attribute)] @reference.read)
(slice [(identifier) (attribute)] @reference.read)
(list_comprehension body: [(identifier) (attribute)] @reference.read)
(set_comprehension body: [(identifier) (attribute)] @reference.read)
(generator_expression body: [(identifier) (attribute)] @reference.read)
(interpolation expression: [(identifier) (attribute)] @reference.read)
(format_expression expression: [(identifier) (attribute)] @reference.read)

; ------------------------------------------------------------------------ imports

(import_statement) @import.statement
(import_from_statement) @import.from
(future_import_statement) @import.future

; ------------------------------------------------------------------------ bindings

(expression_statement (assignment) @binding.assignment)
(expression_statement (augmented_assignment) @binding.augmented)
(for_statement left: (_) @binding.target)
(for_in_clause left: (_) @binding.target)
(as_pattern_target) @binding.target
(named_expression name: (identifier) @binding.target)
(lambda parameters: (lambda_parameters) @binding.lambda)
(global_statement) @binding.global
(return_statement (_) @binding.return)
(nonlocal_statement) @binding.global
