; Kotlin at name level (see astrag/lang/tags.py for the captures)
;
; tree-sitter-kotlin marks class, interface and enum class all as class_declaration; the
; keyword and the body type tell them apart, and each pattern below matches only its own.

(class_declaration "interface" name: (identifier) @name
  (delegation_specifiers (delegation_specifier [(user_type) @base (constructor_invocation (user_type) @base)]))?) @definition.interface
(class_declaration "class" name: (identifier) @name
  (delegation_specifiers (delegation_specifier [(user_type) @base (constructor_invocation (user_type) @base)]))?
  (class_body)) @definition.class
; a class without a body (a data class, `class Empty`): its last named child is no body
(class_declaration "class" name: (identifier) @name
  (delegation_specifiers (delegation_specifier [(user_type) @base (constructor_invocation (user_type) @base)]))?
  [(identifier) (type_parameters) (primary_constructor) (delegation_specifiers) (type_constraints)] .) @definition.class
(class_declaration "class" name: (identifier) @name (enum_class_body)) @definition.enum
(object_declaration name: (identifier) @name
  (delegation_specifiers (delegation_specifier [(user_type) @base (constructor_invocation (user_type) @base)]))?) @definition.class
(type_alias type: (identifier) @name) @definition.type

; a companion object is not captured: its members are its class's (`Cart.empty`), as in
; Scala. An extension function (`fun Cart.total()`) stays a function of its file and package.
(function_declaration name: (identifier) @name) @definition.function

(class_parameter ["val" "var"] (identifier) @name) @definition.field
(class_body (property_declaration (variable_declaration (identifier) @name)) @definition.field)
(source_file (property_declaration (variable_declaration (identifier) @name)) @definition.variable)
(enum_entry (identifier) @name) @definition.field

(call_expression . (identifier) @name) @reference.call
(call_expression . (navigation_expression (_) @receiver . (identifier) @name .)) @reference.call

; (`(identifier)* @path . (identifier) @name .` inside qualified_identifier matches nothing in
; this grammar, hence the whole path as one capture)
((import (qualified_identifier) @import.dotted .) @import (#not-match? @import "[*]"))
(import (qualified_identifier) @import.dotted (identifier) @import.alias) @import
(import (qualified_identifier) @import.module "*") @import
