; Module edges of a Rust file: use trees, out-of-line modules (`mod x;`)
; and extern crates. The analyzer expands use trees.
(use_declaration) @rs.use
(mod_item !body) @rs.mod
(extern_crate_declaration) @rs.extern
