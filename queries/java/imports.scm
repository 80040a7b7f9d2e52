; Java imports (single-type, on-demand and static).
(import_declaration) @java.import
