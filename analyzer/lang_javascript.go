package analyzer

import (
	"strings"
)

// walkJS extracts declarations of JavaScript, TypeScript and TSX:
// module-level and namespace-level declarations, class and interface
// members. Functions declared inside function bodies are not symbols.
func walkJS(w *walker, root *node) {
	w.eachNamed(root, func(c *node) { jsDecl(w, c, c, nil) })
}

func jsDecl(w *walker, n, rng *node, scope []string) {
	switch w.typ(n) {
	case "import_statement":
		if src := n.ChildByFieldName("source"); src != nil {
			importsJS(w, "js.import", src)
		} else if c := n.NamedChild(0); c != nil && w.typ(c) == "import_require_clause" {
			if src := c.ChildByFieldName("source"); src != nil {
				w.addImport(unquote(w.text(src)), ImportStatic, src)
			}
		}
	case "export_statement":
		if src := n.ChildByFieldName("source"); src != nil {
			importsJS(w, "js.export", src)
			return
		}
		if d := n.ChildByFieldName("declaration"); d != nil {
			jsDecl(w, d, rng, scope)
			return
		}
		if v := n.ChildByFieldName("value"); v != nil {
			switch w.typ(v) {
			case "function_expression", "function", "generator_function", "arrow_function":
				name := w.text(v.ChildByFieldName("name"))
				if name == "" {
					name = "default"
				}
				w.emit(scope, name, KindFunction, rng, v.ChildByFieldName("body"))
			case "class":
				name := w.text(v.ChildByFieldName("name"))
				if name == "" {
					name = "default"
				}
				jsClass(w, v, rng, scope, name, KindClass)
			}
		}
	case "function_declaration", "generator_function_declaration", "function_signature", "function":
		w.emit(scope, w.text(n.ChildByFieldName("name")), KindFunction, rng, n.ChildByFieldName("body"))
	case "class_declaration", "abstract_class_declaration", "class":
		jsClass(w, n, rng, scope, w.text(n.ChildByFieldName("name")), KindClass)
	case "interface_declaration":
		jsClass(w, n, rng, scope, w.text(n.ChildByFieldName("name")), KindInterface)
	case "type_alias_declaration":
		w.emit(scope, w.text(n.ChildByFieldName("name")), KindType, rng, n.ChildByFieldName("value"))
	case "enum_declaration":
		w.emit(scope, w.text(n.ChildByFieldName("name")), KindEnum, rng, n.ChildByFieldName("body"))
	case "internal_module", "module":
		name := unquote(w.text(n.ChildByFieldName("name")))
		body := n.ChildByFieldName("body")
		w.emit(scope, name, KindNamespace, rng, body)
		if body == nil {
			break
		}
		if inner, ok := w.nest(scope, name); ok {
			w.eachNamed(body, func(c *node) { jsDecl(w, c, c, inner) })
		}
	case "expression_statement":
		if c := n.NamedChild(0); c != nil && w.typ(c) == "internal_module" {
			jsDecl(w, c, rng, scope)
		}
	case "ERROR", "statement_block": // error recovery; `global { … }` inside a module
		w.eachNamed(n, func(c *node) { jsDecl(w, c, c, scope) })
	case "ambient_declaration":
		w.eachNamed(n, func(c *node) {
			if w.typ(c) == "statement_block" { // declare global { … }
				w.eachNamed(c, func(d *node) { jsDecl(w, d, d, scope) })
				return
			}
			jsDecl(w, c, rng, scope)
		})
	case "lexical_declaration", "variable_declaration":
		kind := KindVariable
		if n.Child(0) != nil && w.typ(n.Child(0)) == "const" {
			kind = KindConstant
		}
		w.eachNamed(n, func(d *node) {
			if w.typ(d) != "variable_declarator" {
				return
			}
			name := d.ChildByFieldName("name")
			if name == nil || w.typ(name) != "identifier" {
				return // destructuring
			}
			v := d.ChildByFieldName("value")
			k, body := kind, v
			if v != nil {
				switch w.typ(v) {
				case "arrow_function", "function_expression", "function", "generator_function":
					k, body = KindFunction, v.ChildByFieldName("body")
				case "class":
					k, body = KindClass, v.ChildByFieldName("body")
				}
			}
			w.emit(scope, w.text(name), k, rng, body)
		})
	}
}

func jsClass(w *walker, n, rng *node, scope []string, name, kind string) {
	body := n.ChildByFieldName("body")
	w.emit(scope, name, kind, rng, body)
	if body == nil {
		return
	}
	inner, ok := w.nest(scope, name)
	if !ok {
		return
	}
	w.eachNamed(body, func(m *node) {
		switch w.typ(m) {
		case "method_definition", "method_signature", "abstract_method_signature":
			mname := jsMemberName(w, m.ChildByFieldName("name"))
			k := KindMethod
			if mname == "constructor" && kind == KindClass {
				k = KindConstructor
			}
			w.emit(inner, mname, k, m, m.ChildByFieldName("body"))
		case "public_field_definition", "field_definition":
			if kind != KindClass {
				return
			}
			nm := m.ChildByFieldName("name")
			if nm == nil {
				nm = m.ChildByFieldName("property")
			}
			v := m.ChildByFieldName("value")
			k, b := KindField, v
			if v != nil && (w.typ(v) == "arrow_function" || w.typ(v) == "function_expression") {
				k, b = KindMethod, v.ChildByFieldName("body")
			}
			w.emit(inner, jsMemberName(w, nm), k, m, b)
		}
	})
}

func jsMemberName(w *walker, n *node) string {
	if n == nil {
		return ""
	}
	switch w.typ(n) {
	case "string":
		return unquote(w.text(n))
	case "computed_property_name":
		return strings.Join(strings.Fields(w.text(n)), " ")
	}
	return w.text(n)
}

func importsJS(w *walker, capture string, n *node) {
	spec := unquote(w.text(n))
	switch capture {
	case "js.import":
		kind := ImportStatic
		if st := n.Parent(); st != nil && st.ChildCount() > 1 {
			if k := st.Child(1); !k.IsNamed() && w.typ(k) == "type" {
				kind = ImportTypeOnly
			}
		}
		w.addImport(spec, kind, n)
	case "js.export":
		w.addImport(spec, ImportReExport, n)
	}
}

// callImportsJS adds the imports that calls make, wherever they sit:
// require("x") (static) and import("x") (dynamic), the string being the
// call's first argument. It looks only where the source spells one of the
// two words (see walker.eachWord) rather than compiling a query;
// TestWordImportsQuery holds the query these checks replace and compares
// the two.
func callImportsJS(w *walker, root *node) {
	words := []string{"require", "import"}
	w.eachWord(root, words, nameDollarByte, func(k, o int, n *node) {
		callee, kind := "identifier", ImportStatic
		if k == 1 {
			callee, kind = "import", ImportDynamic
		}
		if !spans(n, o, len(words[k])) || w.typ(n) != callee {
			return
		}
		if s := callStringArg(w, n, "call_expression", "arguments"); s != nil {
			w.addImport(unquote(w.text(s)), kind, s)
		}
	})
}
