; C++ at name level (see astrag/lang/tags.py for the captures). Prototypes of free functions
; are not definitions (a call links to the body); declarations of members in a class are.

(namespace_definition name: (_) @name body: (_)) @definition.module
(class_specifier name: (type_identifier) @name
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)?
  body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)?
  body: (_)) @definition.class
(union_specifier name: (type_identifier) @name body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type

(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name) (destructor_name)] @name)) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
; ``Shape::area() {...}`` outside the class: a method of Shape
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (_) @receiver name: [(identifier) (destructor_name) (operator_name)] @name))) @definition.method
(function_definition declarator: (reference_declarator (function_declarator declarator: (qualified_identifier scope: (_) @receiver name: (identifier) @name)))) @definition.method
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: (_) @receiver name: (identifier) @name)))) @definition.method
(field_declaration_list (field_declaration declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method)
(field_declaration_list (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.method)
(field_declaration declarator: (field_identifier) @name) @definition.field
(preproc_function_def name: (identifier) @name) @definition.function
(preproc_def name: (identifier) @name value: (_)) @definition.variable

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (qualified_identifier scope: (_) @receiver name: (identifier) @name)) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(new_expression type: (type_identifier) @name) @reference.new

(preproc_include path: (string_literal (string_content) @import.file)) @import
(preproc_include path: (system_lib_string) @import.module) @import
(using_declaration "namespace" (_) @import.module) @import
(new_expression type: (qualified_identifier name: (type_identifier) @name)) @reference.new
