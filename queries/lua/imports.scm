; require "a.b", require("a.b")
(function_call
  prefix: (identifier) @_r
  args: [(string_argument) (function_arguments . (string))] @import
  (#eq? @_r "require"))
