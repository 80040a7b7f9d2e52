; Kotlin declarations, in the style of tree-sitter-kotlin's tags.scm.
; An extension function is named under its receiver type (String::ext).

(class_declaration "interface" (type_identifier) @name (class_body)? @body) @definition.interface
(class_declaration "enum" (type_identifier) @name (enum_class_body)? @body) @definition.enum
(class_declaration (type_identifier) @name [(class_body) (enum_class_body)]? @body) @definition.class
(object_declaration (type_identifier) @name (class_body)? @body) @definition.class
(companion_object (type_identifier) @name (class_body)? @body) @definition.class
; An enum entry with a body of its own names the scope of its members.
(enum_entry (simple_identifier) @name (class_body)) @scope.type

(function_declaration (user_type) @receiver . (simple_identifier) @name (function_body)? @body) @definition.function
(function_declaration (simple_identifier) @name (function_body)? @body) @definition.function
; A property: a field, at the top of a file a variable, in a function
; no symbol; an extension property is named under its receiver type. Its
; getter and setter, which the grammar reads as its next siblings, are
; its own (Language.trailers).
(property_declaration (user_type) @receiver . (variable_declaration (simple_identifier) @name)) @definition.field
(property_declaration (variable_declaration (simple_identifier) @name)) @definition.field
(secondary_constructor "constructor" @name (statements)? @body) @definition.constructor
(type_alias (type_identifier) @name) @definition.type
; A primary constructor's val and var parameters are properties too.
(class_parameter (binding_pattern_kind) (simple_identifier) @name) @definition.field
