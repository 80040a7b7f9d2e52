; source FILE and . FILE, with a path known before the script runs.
(command
  name: (command_name (word) @_cmd)
  .
  argument: (_) @import
  (#match? @_cmd "^(source|\\.)$"))
