; Dynamic imports of a Python module: importlib.import_module("x") and
; __import__("x"). Import statements are collected by the analyzer's
; statement walk, which visits every statement anyway; this query only
; runs on files that mention import_module or __import__.
(call
  function: (identifier) @_f
  arguments: (argument_list . (string) @spec.dynamic)
  (#eq? @_f "__import__"))
(call
  function: (attribute
    object: (identifier) @_m
    attribute: (identifier) @_a)
  arguments: (argument_list . (string) @spec.dynamic)
  (#eq? @_m "importlib")
  (#eq? @_a "import_module"))
