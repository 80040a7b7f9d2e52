; require_relative "x" (a file beside this one), require "x", load "x".
(call
  method: (identifier) @_m
  arguments: (argument_list . (string . (string_content) @import.relative .))
  (#eq? @_m "require_relative"))
(call
  method: (identifier) @_m
  arguments: (argument_list . (string . (string_content) @import .))
  (#match? @_m "^(require|load)$"))
