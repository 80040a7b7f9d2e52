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
; A property of a class or object, or of the file; an extension
; property is named under its receiver type; a local variable is none.
; Its body is its initializer or delegate, or else its getter or setter,
; which the grammar reads as the next siblings and which are the
; property's own (Language.trailers).
(class_body (property_declaration (user_type)? @receiver (variable_declaration (simple_identifier) @name) [("=" . (_) @body) (property_delegate) @body]?) @definition.field)
(source_file (property_declaration (user_type)? @receiver (variable_declaration (simple_identifier) @name) [("=" . (_) @body) (property_delegate) @body]?) @definition.variable)
(secondary_constructor "constructor" @name (statements)? @body) @definition.constructor
(type_alias (type_identifier) @name) @definition.type
