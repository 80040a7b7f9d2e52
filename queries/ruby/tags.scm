; Ruby declarations, in the style of tree-sitter-ruby's tags.scm.
; class << self adds no name: its methods belong to the class.

(module name: (_) @name) @definition.module
(class name: (_) @name) @definition.class
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method

(assignment left: (constant) @name) @definition.constant
