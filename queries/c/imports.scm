; C #include directives: "local.h" and <system.h>.
(preproc_include path: (string_literal) @c.local)
(preproc_include path: (system_lib_string) @c.system)
