package analyzer

import (
	"strings"
)

// walkJava extracts types (classes, interfaces, enums, records,
// annotations; inner types qualified by their outer types), methods,
// constructors, fields (a record's components among them) and enum
// constants (the methods of a constant's own body qualified by it).
func walkJava(w *walker, root *node) {
	javaBody(w, root, nil, false)
}

func javaBody(w *walker, n *node, scope []string, inInterface bool) {
	w.eachNamed(n, func(c *node) {
		switch w.typ(c) {
		case "class_declaration", "record_declaration":
			javaType(w, c, scope, KindClass, false)
		case "interface_declaration", "annotation_type_declaration":
			javaType(w, c, scope, KindInterface, true)
		case "enum_declaration":
			javaType(w, c, scope, KindEnum, false)
		case "enum_body_declarations", "ERROR":
			javaBody(w, c, scope, inInterface)
		case "enum_constant":
			// A constant of an enum; one with a body of its own (an
			// anonymous subclass) names the scope of its methods.
			name := w.text(c.ChildByFieldName("name"))
			body := c.ChildByFieldName("body")
			w.emit(scope, name, KindConstant, c, body)
			if inner, ok := w.nest(scope, name); ok && body != nil {
				javaBody(w, body, inner, false)
			}
		case "method_declaration", "annotation_type_element_declaration":
			w.emit(scope, w.text(c.ChildByFieldName("name")), KindMethod, c, c.ChildByFieldName("body"))
		case "constructor_declaration", "compact_constructor_declaration":
			w.emit(scope, w.text(c.ChildByFieldName("name")), KindConstructor, c, c.ChildByFieldName("body"))
		case "field_declaration", "constant_declaration":
			kind := KindField
			if inInterface || w.typ(c) == "constant_declaration" {
				kind = KindConstant
			}
			w.eachNamed(c, func(d *node) {
				if w.typ(d) == "variable_declarator" {
					w.emit(scope, w.text(d.ChildByFieldName("name")), kind, c, d.ChildByFieldName("value"))
				}
			})
		}
	})
}

func javaType(w *walker, c *node, scope []string, kind string, iface bool) {
	name := w.text(c.ChildByFieldName("name"))
	body := c.ChildByFieldName("body")
	w.emit(scope, name, kind, c, body)
	if body == nil {
		return
	}
	if inner, ok := w.nest(scope, name); ok {
		if w.typ(c) == "record_declaration" {
			javaComponents(w, c.ChildByFieldName("parameters"), inner)
		}
		javaBody(w, body, inner, iface)
	}
}

// javaComponents emits a record's components as its fields, each on a
// line of its own (see Language.ownLine).
func javaComponents(w *walker, params *node, scope []string) {
	if params == nil {
		return
	}
	w.eachNamed(params, func(p *node) {
		if w.typ(p) == "formal_parameter" && w.startsLine(p) {
			w.emit(scope, w.text(p.ChildByFieldName("name")), KindField, p, nil)
		}
	})
}

func importsJava(w *walker, capture string, n *node) {
	var spec string
	static := false
	w.eachNamed(n, func(c *node) {
		switch w.typ(c) {
		case "scoped_identifier", "identifier":
			spec = strings.Join(strings.Fields(w.text(c)), "")
		case "asterisk":
			spec += ".*"
		}
	})
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); !c.IsNamed() && w.typ(c) == "static" {
			static = true
		}
	}
	if static {
		spec = "static " + spec
	}
	w.addImport(spec, ImportStatic, n)
}

// keywordImportsJava adds the file's import declarations, looking only
// where the source spells import (see walker.eachWord), instead of running
// a query over the whole tree.
func keywordImportsJava(w *walker, root *node) {
	w.eachWord(root, []string{"import"}, nameDollarByte, func(_, o int, n *node) {
		if w.typ(n) == "import_declaration" && keywordAt(w, n, o, "import") {
			importsJava(w, "java.import", n)
		}
	})
}
