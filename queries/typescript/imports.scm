; Imports inside expressions: require("x") and import("x"). Import,
; import-require and export-from statements are collected by the
; analyzer's statement walk (which tells `import type` apart); this query
; only runs on files that mention require or import(.
(call_expression
  function: (import)
  arguments: (arguments . (string) @spec.dynamic))
(call_expression
  function: (identifier) @_f
  arguments: (arguments . (string) @spec.static)
  (#eq? @_f "require"))
