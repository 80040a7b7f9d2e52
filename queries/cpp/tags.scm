; C++ declarations, in the style of tree-sitter-cpp's tags.scm.
; Prototypes are not symbols (as in C); pure virtual methods are.

(namespace_definition name: (_) @name) @scope

(class_specifier name: (_) @name body: (_) @body) @definition.class
(struct_specifier name: (_) @name body: (_) @body) @definition.struct
(union_specifier name: (_) @name body: (_) @body) @definition.struct
(enum_specifier name: (_) @name body: (_) @body) @definition.enum

(function_definition
  declarator: [
    (function_declarator declarator: (_) @name)
    (pointer_declarator declarator: (function_declarator declarator: (_) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name)))
    (reference_declarator (function_declarator declarator: (_) @name))
    (reference_declarator (pointer_declarator declarator: (function_declarator declarator: (_) @name)))
  ]) @definition.function

; conversion operators: operator bool, A::operator bool
(function_definition declarator: (operator_cast "operator" @name type: (_) @name)) @definition.function
(function_definition
  declarator: (qualified_identifier scope: (_) @name name: (operator_cast type: (_) @name))) @definition.function

(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type

(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name value: (_)? @body) @definition.function
