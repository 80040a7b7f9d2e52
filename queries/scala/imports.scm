; import a.b.C, import a.b.{C, D}
(import_declaration) @import
