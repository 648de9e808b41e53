; Rust at name level (see astrag/lang/tags.py for the captures)

(struct_item name: (type_identifier) @name) @definition.class
(union_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier)] @base)?) @definition.interface
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name body: (_)) @definition.module
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.method
(const_item name: (identifier) @name) @definition.variable
(static_item name: (identifier) @name) @definition.variable
(macro_definition name: (identifier) @name) @definition.function
(field_declaration name: (field_identifier) @name) @definition.field
(enum_variant name: (identifier) @name) @definition.field

; an impl block's functions are the type's methods
(impl_item type: [(type_identifier) (generic_type) (scoped_type_identifier)] @name) @scope.impl

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (scoped_identifier path: (_) @receiver name: (identifier) @name))) @reference.call
(call_expression function: (generic_function function: (field_expression value: (_) @receiver field: (field_identifier) @name))) @reference.call
(macro_invocation macro: (identifier) @name) @reference.call
(struct_expression name: (type_identifier) @name) @reference.type

(use_declaration argument: (scoped_identifier path: (_) @import.path name: (identifier) @import.name)) @import
(use_declaration argument: (use_as_clause path: (scoped_identifier path: (_) @import.path name: (identifier) @import.name) alias: (identifier) @import.alias)) @import
(use_declaration argument: (scoped_use_list path: (_) @import.path list: (use_list (identifier) @import.name))) @import
(use_declaration argument: (use_wildcard (_) @import.module)) @import
