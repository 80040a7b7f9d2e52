; #include "local.h" and <system.h>.
(preproc_include path: (string_literal) @import)
(preproc_include path: (system_lib_string) @import.system)
