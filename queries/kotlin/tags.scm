; Kotlin declarations, in the style of tree-sitter-kotlin's tags.scm.
; An extension function is named under its receiver type (String::ext).

(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration "enum" (type_identifier) @name) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class
(companion_object (type_identifier) @name) @definition.class

(function_declaration (user_type) @receiver . (simple_identifier) @name) @definition.function
(function_declaration (simple_identifier) @name) @definition.function
(secondary_constructor "constructor" @name) @definition.constructor
(type_alias (type_identifier) @name) @definition.type
