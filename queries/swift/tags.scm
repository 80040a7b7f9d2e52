; Swift declarations, in the style of tree-sitter-swift's tags.scm.
; An extension names its type's scope: its functions are methods.

(class_declaration declaration_kind: "extension" name: (_) @name) @scope.type
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum
(class_declaration name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface

; A function's or a protocol's method's name, an identifier or an
; operator (static func ==(lhs: T, rhs: T) -> Bool): any node, where
; listing the operators' tokens made the query take ten times as long to
; compile.
(function_declaration name: _ @name) @definition.function
(protocol_function_declaration name: _ @name) @definition.method
; A property: a field, at the top of a file a variable, in a function
; no symbol; a computed one's accessors and observers are its body.
(property_declaration name: (pattern) @name computed_value: (_) @body) @definition.field
(property_declaration name: (pattern) @name) @definition.field
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field
(init_declaration "init" @name) @definition.constructor
(deinit_declaration "deinit" @name) @definition.method
(subscript_declaration "subscript" @name) @definition.method
(typealias_declaration name: (type_identifier) @name) @definition.type
