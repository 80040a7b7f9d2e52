; using A.B; using static A.B.C; using X = A.B (the namespace, not the alias).
(using_directive !name [(qualified_name) (identifier)] @import)
(using_directive name: (_) "=" [(qualified_name) (identifier)] @import)
