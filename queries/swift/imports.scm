; import Foundation
(import_declaration (identifier) @import)
