; require, require_once, include, include_once of a path; use of a class.
(require_expression (_) @import)
(require_once_expression (_) @import)
(include_expression (_) @import)
(include_once_expression (_) @import)
(namespace_use_declaration (namespace_use_clause [(qualified_name) (name)] @import))
