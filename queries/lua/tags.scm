; Lua functions, in the style of tree-sitter-lua's tags.scm: function
; statements (M.f and M:m are named under M) and names assigned a
; function.

(function_statement name: (_) @name (function_body)? @body) @definition.function
(variable_declaration
  name: (variable_declarator) @name
  value: (function (function_body)? @body)) @definition.function
(field name: (identifier) @name value: (function (function_body)? @body)) @definition.function
