; Go facts query, read by astrag.lang.go.extract over the top level of a file.
;
; Follows the tree-sitter tags convention (@definition.*, @name) for what a Go file declares
; at package level; function and method bodies are then walked with their lexical scopes (a
; query cannot tell which of two `r`s a name means). Capture names are the contract with
; extract.py:
;   @definition.function / .method     function_declaration / method_declaration
;   @definition.type                   type_spec (struct, interface, any other named type)
;   @definition.alias                  type_alias (`type A = B`)
;   @definition.variable               var_spec / const_spec at package level
;   @import.spec                       one import_spec
;
; Every pattern starts at the root, so extract.py runs the query with a maximum start depth of
; 0: the cursor then never descends into function bodies looking for a match (most of a file's
; nodes; searching them cost several times what this query finds).

(source_file
  (function_declaration
    name: (identifier) @name) @definition.function)

(source_file
  (method_declaration
    name: (field_identifier) @name) @definition.method)

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name) @definition.type))

(source_file
  (type_declaration
    (type_alias
      name: (type_identifier) @name) @definition.alias))

(source_file
  (var_declaration
    [(var_spec) @definition.variable
     (var_spec_list (var_spec) @definition.variable)]))

(source_file
  (const_declaration
    (const_spec) @definition.variable))

(source_file
  (import_declaration
    [(import_spec) @import.spec
     (import_spec_list (import_spec) @import.spec)]))
