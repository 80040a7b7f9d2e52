package analyzer

import (
	"strings"
)

// walkRust extracts items; functions in impl blocks are methods of the
// implementing type (path::Type::method), in traits of the trait.
func walkRust(w *walker, root *node) {
	rsItems(w, root, nil, false)
}

func rsItems(w *walker, n *node, scope []string, inType bool) {
	w.eachNamed(n, func(c *node) {
		name := func() string { return w.text(c.ChildByFieldName("name")) }
		switch w.typ(c) {
		case "function_item", "function_signature_item":
			k := KindFunction
			if inType {
				k = KindMethod
			}
			w.emit(scope, name(), k, c, c.ChildByFieldName("body"))
		case "struct_item", "union_item":
			nm := name()
			body := c.ChildByFieldName("body")
			w.emit(scope, nm, KindStruct, c, body)
			if body != nil && w.typ(body) == "field_declaration_list" {
				rsFields(w, body, scope, nm)
			}
		case "enum_item":
			w.emit(scope, name(), KindEnum, c, c.ChildByFieldName("body"))
		case "trait_item":
			nm := name()
			body := c.ChildByFieldName("body")
			w.emit(scope, nm, KindTrait, c, body)
			if body == nil {
				break
			}
			if inner, ok := w.nest(scope, nm); ok {
				rsItems(w, body, inner, true)
			}
		case "impl_item":
			nm := rsTypeName(w, c.ChildByFieldName("type"))
			if body := c.ChildByFieldName("body"); body != nil {
				if inner, ok := w.nest(scope, nm); ok {
					rsItems(w, body, inner, true)
				}
			}
		case "mod_item":
			body := c.ChildByFieldName("body")
			if body == nil {
				return
			}
			nm := name()
			w.emit(scope, nm, KindModule, c, body)
			if inner, ok := w.nest(scope, nm); ok {
				rsItems(w, body, inner, false)
			}
		case "type_item", "associated_type":
			w.emit(scope, name(), KindType, c, c.ChildByFieldName("type"))
		case "const_item":
			w.emit(scope, name(), KindConstant, c, c.ChildByFieldName("value"))
		case "static_item":
			w.emit(scope, name(), KindVariable, c, c.ChildByFieldName("value"))
		case "ERROR":
			rsItems(w, c, scope, inType)
		case "macro_definition":
			w.emit(scope, name(), KindFunction, c, nil)
		}
	})
}

// rsFields emits the named fields of struct nm, each on a line of its own
// (see Language.ownLine).
func rsFields(w *walker, body *node, scope []string, nm string) {
	inner, ok := w.nest(scope, nm)
	if !ok {
		return
	}
	w.eachNamed(body, func(f *node) {
		if w.typ(f) == "field_declaration" && w.startsLine(f) {
			w.emit(inner, w.text(f.ChildByFieldName("name")), KindField, f, nil)
		}
	})
}

// rsTypeName is the bare name of an impl's self type: Foo for Foo<T>,
// &Foo, a::b::Foo.
func rsTypeName(w *walker, t *node) string {
	for t != nil {
		switch w.typ(t) {
		case "type_identifier", "primitive_type":
			return w.text(t)
		case "generic_type", "reference_type", "pointer_type":
			t = t.ChildByFieldName("type")
		case "scoped_type_identifier":
			t = t.ChildByFieldName("name")
		default:
			return strings.Join(strings.Fields(w.text(t)), "")
		}
	}
	return ""
}

func importsRust(w *walker, capture string, n *node) {
	switch capture {
	case "rs.use":
		kind := ImportStatic
		if c := n.NamedChild(0); c != nil && w.typ(c) == "visibility_modifier" {
			kind = ImportReExport
		}
		var specs []string
		rsUseTree(w, n.ChildByFieldName("argument"), "", &specs)
		for _, s := range specs {
			w.addImport(s, kind, n)
		}
	case "rs.mod":
		w.addImport("mod "+w.text(n.ChildByFieldName("name")), ImportStatic, n)
	case "rs.extern":
		w.addImport(w.text(n.ChildByFieldName("name")), ImportStatic, n)
	}
}

func rsUseTree(w *walker, n *node, prefix string, out *[]string) {
	if n == nil {
		return
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		if b == "" {
			return a
		}
		return a + "::" + b
	}
	switch w.typ(n) {
	case "use_as_clause":
		rsUseTree(w, n.ChildByFieldName("path"), prefix, out)
	case "scoped_use_list":
		p := join(prefix, strings.Join(strings.Fields(w.text(n.ChildByFieldName("path"))), ""))
		rsUseTree(w, n.ChildByFieldName("list"), p, out)
	case "use_list":
		w.eachNamed(n, func(c *node) { rsUseTree(w, c, prefix, out) })
	case "use_wildcard":
		p := ""
		if c := n.NamedChild(0); c != nil {
			p = strings.Join(strings.Fields(w.text(c)), "")
		}
		*out = append(*out, join(join(prefix, p), "*"))
	default:
		*out = append(*out, join(prefix, strings.Join(strings.Fields(w.text(n)), "")))
	}
}

// keywordImportsRust adds the module edges of a Rust file wherever they
// sit: use declarations, out-of-line modules (mod x;) and extern crates.
// It looks only where the source spells use, mod or extern, taking the
// declaration whose keyword that is, instead of compiling a query (see
// walker.eachWord).
func keywordImportsRust(w *walker, root *node) {
	words := []string{"use", "mod", "extern"}
	decls := []string{"use_declaration", "mod_item", "extern_crate_declaration"}
	captures := []string{"rs.use", "rs.mod", "rs.extern"}
	w.eachWord(root, words, nameByte, func(k, o int, n *node) {
		if w.typ(n) != decls[k] || !keywordAt(w, n, o, words[k]) {
			return
		}
		if k == 1 && n.ChildByFieldName("body") != nil {
			return // an inline module: its items are in this file
		}
		importsRust(w, captures[k], n)
	})
}
