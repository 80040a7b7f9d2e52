; import a.b.C, import a.b.*, import a.b.C as D
(import_header) @import
