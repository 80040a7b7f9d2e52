package analyzer

import ()

// walkC extracts function definitions, structs, unions, enums, typedefs,
// macros and file-level variables, looking through preprocessor
// conditionals. Prototypes are not symbols.
func walkC(w *walker, root *node) {
	cItems(w, root)
}

func cItems(w *walker, n *node) {
	w.eachNamed(n, func(c *node) {
		switch w.typ(c) {
		case "function_definition":
			w.emit(nil, cDeclName(w, c.ChildByFieldName("declarator")), KindFunction, c, c.ChildByFieldName("body"))
		case "declaration":
			cTagged(w, c.ChildByFieldName("type"), c)
			eachField(c, "declarator", func(d *node) {
				if !cIsFunc(d) {
					w.emit(nil, cDeclName(w, d), KindVariable, c, d.ChildByFieldName("value"))
				}
			})
		case "type_definition":
			cTagged(w, c.ChildByFieldName("type"), c)
			eachField(c, "declarator", func(d *node) {
				w.emit(nil, cDeclName(w, d), KindType, c, nil)
			})
		case "struct_specifier", "union_specifier", "enum_specifier":
			cTagged(w, c, c)
		case "preproc_def":
			w.emit(nil, w.text(c.ChildByFieldName("name")), KindConstant, c, c.ChildByFieldName("value"))
		case "preproc_function_def":
			w.emit(nil, w.text(c.ChildByFieldName("name")), KindFunction, c, c.ChildByFieldName("value"))
		case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef", "linkage_specification", "declaration_list", "ERROR":
			cItems(w, c)
		}
	})
}

// cTagged emits a struct/union/enum that has a name and a body.
func cTagged(w *walker, t, rng *node) {
	if t == nil {
		return
	}
	kind := KindStruct
	switch w.typ(t) {
	case "struct_specifier", "union_specifier":
	case "enum_specifier":
		kind = KindEnum
	default:
		return
	}
	body := t.ChildByFieldName("body")
	if body == nil {
		return
	}
	w.emit(nil, w.text(t.ChildByFieldName("name")), kind, rng, body)
}

func cIsFunc(d *node) bool {
	for d != nil {
		switch d.Type() {
		case "function_declarator":
			return true
		case "init_declarator", "pointer_declarator", "parenthesized_declarator", "attributed_declarator":
			d = d.ChildByFieldName("declarator")
		default:
			return false
		}
	}
	return false
}

// cDeclName digs the declared identifier out of a declarator.
func cDeclName(w *walker, d *node) string {
	for d != nil {
		switch w.typ(d) {
		case "identifier", "type_identifier", "field_identifier":
			return w.text(d)
		case "parenthesized_declarator":
			d = d.NamedChild(0)
		default:
			d = d.ChildByFieldName("declarator")
		}
	}
	return ""
}

func importsC(w *walker, capture string, n *node) {
	switch capture {
	case "c.local":
		w.addImport(unquote(w.text(n)), ImportStatic, n)
	case "c.system":
		w.addImport("<"+unquote(w.text(n))+">", ImportStatic, n)
	}
}

// eachField calls fn for every child of n in the named field.
func eachField(n *node, field string, fn func(*node)) {
	cnt := int(n.ChildCount())
	for i := 0; i < cnt; i++ {
		if n.FieldNameForChild(i) == field {
			fn(n.Child(i))
		}
	}
}
