; Ruby at name level (see astrag/lang/tags.py for the captures)

(class name: [(constant) (scope_resolution)] @name superclass: (superclass [(constant) (scope_resolution)] @base)?) @definition.class
; a module is a mixin: its methods call each other on self, as a class's do
(module name: [(constant) (scope_resolution)] @name) @definition.class
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method
(assignment left: (constant) @name) @definition.variable

(call receiver: (constant) @name method: (identifier) @_new (#eq? @_new "new")) @reference.new
(call receiver: (_) @receiver method: (identifier) @name (#not-eq? @name "new")) @reference.call
(call !receiver method: (identifier) @name (#not-match? @name "^(require|require_relative|include|extend|attr_reader|attr_writer|attr_accessor|private|protected|public)$")) @reference.call

(call !receiver method: (identifier) @_req (#match? @_req "^require(_relative)?$") arguments: (argument_list (string (string_content) @import.file))) @import
