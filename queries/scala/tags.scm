; Scala declarations, in the style of tree-sitter-scala's tags.scm.

(class_definition name: (_) @name) @definition.class
(object_definition name: (_) @name) @definition.class
(trait_definition name: (_) @name) @definition.trait
(enum_definition name: (_) @name) @definition.enum
; def this(…) = this(…): an auxiliary constructor
(function_definition name: (_) @name (#eq? @name "this")) @definition.constructor
(function_definition name: (_) @name) @definition.function
(function_declaration name: (_) @name) @definition.function
(type_definition name: (_) @name) @definition.type
(given_definition name: (_) @name) @definition.variable
; A val or var: a field, at the top of a file a variable, in a function
; no symbol.
(val_definition pattern: (identifier) @name) @definition.field
(var_definition pattern: (identifier) @name) @definition.field
(val_declaration name: (identifier) @name) @definition.field
(var_declaration name: (identifier) @name) @definition.field
; A class's val and var parameters are its fields, and a case class's
; parameters all are, but implicit and using ones.
(class_parameter ["val" "var"] name: (identifier) @name) @definition.field
(class_definition "case" (class_parameters (class_parameter name: (identifier) @name) @definition.field) @_params
  (#not-match? @_params "^[(][[:space:]]*(implicit|using)[[:space:]]"))
