package analyzer

import (
	"bytes"
	"slices"
	"strings"
)

// walkPython extracts classes, functions (methods inside classes, nested
// functions qualified by their enclosing definitions) and module- and
// class-level assignments, descending through compound statements.
func walkPython(w *walker, root *node) {
	pyBlock(w, root, nil, false, false)
}

func pyBlock(w *walker, n *node, scope []string, inClass, inFunc bool) {
	w.eachNamed(n, func(c *node) { pyStmt(w, c, scope, inClass, inFunc) })
}

func pyStmt(w *walker, c *node, scope []string, inClass, inFunc bool) {
	switch t := w.typ(c); t {
	case "function_definition", "class_definition":
		pyDef(w, c, c, scope, inClass)
	case "decorated_definition":
		if d := c.ChildByFieldName("definition"); d != nil {
			pyDef(w, d, c, scope, inClass)
		}
	case "expression_statement":
		if inFunc {
			return
		}
		a, left := pyAssignment(w, c)
		if left == nil || w.typ(left) != "identifier" {
			return
		}
		name := w.text(left)
		kind := KindVariable
		if inClass {
			kind = KindField
		} else if isUpperName(name) {
			kind = KindConstant
		}
		w.emit(scope, name, kind, c, a.ChildByFieldName("right"))
	case "import_statement":
		importsPython(w, "py.import", c)
	case "import_from_statement":
		importsPython(w, "py.from", c)
	case "future_import_statement":
		importsPython(w, "py.future", c)
	default:
		if pyCompound(t) {
			pyBlock(w, c, scope, inClass, inFunc)
		}
	}
}

// pyAssignment returns the assignment statement c is and its target, nil
// when c is none.
func pyAssignment(w *walker, c *node) (a, left *node) {
	if a = c.NamedChild(0); a == nil || w.typ(a) != "assignment" {
		return nil, nil
	}
	return a, a.ChildByFieldName("left")
}

// pyCompound reports the node types whose statements are in the scope
// that holds them: blocks, compound statements and their clauses, and
// error recovery nodes (for what survived).
func pyCompound(t string) bool {
	switch t {
	case "block", "ERROR", "if_statement", "for_statement", "while_statement", "try_statement", "with_statement", "match_statement":
		return true
	}
	return strings.HasSuffix(t, "_clause")
}

func pyDef(w *walker, d, rng *node, scope []string, inClass bool) {
	name := w.text(d.ChildByFieldName("name"))
	body := d.ChildByFieldName("body")
	if w.typ(d) == "class_definition" {
		w.emit(scope, name, KindClass, rng, body)
		if body == nil {
			return
		}
		if inner, ok := w.nest(scope, name); ok {
			from := len(w.file.Symbols)
			pyBlock(w, body, inner, true, false)
			pyInstanceFields(w, body, inner, from)
		}
		return
	}
	kind := KindFunction
	if inClass {
		kind = KindMethod
	}
	w.emit(scope, name, kind, rng, body)
	// Inside a function only nested definitions and imports matter; most
	// bodies have neither, and a byte scan is far cheaper than visiting
	// their statements through cgo. The scan reads the skeleton, where
	// only statements that define or import are left.
	if body == nil || !pyMayDeclare(w.parsed[body.StartByte():body.EndByte()]) {
		return
	}
	if inner, ok := w.nest(scope, name); ok {
		pyBlock(w, body, inner, false, true)
	}
}

// pyInstanceFields emits as fields of the class whose body is body (its
// symbols emitted from index from on) the attributes its __init__ assigns
// to the instance: "self.x = …" and "self.x: T = …" statements, in the
// method's body or its compound statements, each at its first assignment
// and unless the class declares the name itself. Plain classes declare
// their attributes this way, not at class level.
func pyInstanceFields(w *walker, body *node, scope []string, from int) {
	prefix := w.file.Path + "::" + strings.Join(scope, "::") + "::"
	seen := map[string]bool{}
	for _, s := range w.file.Symbols[from:] {
		if rest, ok := strings.CutPrefix(s.FQName, prefix); ok && !strings.Contains(rest, "::") {
			seen[rest] = true
		}
	}
	var assigned func(n *node, self string)
	assigned = func(n *node, self string) {
		w.eachNamed(n, func(c *node) {
			switch t := w.typ(c); t {
			case "expression_statement":
				a, left := pyAssignment(w, c)
				if left == nil || w.typ(left) != "attribute" {
					return
				}
				obj, attr := left.ChildByFieldName("object"), left.ChildByFieldName("attribute")
				if obj == nil || attr == nil || w.typ(obj) != "identifier" || w.text(obj) != self {
					return
				}
				if name := w.text(attr); !seen[name] {
					seen[name] = true
					w.emit(scope, name, KindField, c, a.ChildByFieldName("right"))
				}
			default:
				if pyCompound(t) {
					assigned(c, self)
				}
			}
		})
	}
	n := len(w.file.Symbols)
	defer func() {
		if len(w.file.Symbols) > n {
			inLineOrder(w, from)
		}
	}()
	w.eachNamed(body, func(c *node) {
		d := c
		if w.typ(c) == "decorated_definition" {
			d = c.ChildByFieldName("definition")
		}
		if d == nil || w.typ(d) != "function_definition" || w.text(d.ChildByFieldName("name")) != "__init__" {
			return
		}
		if self := pySelf(w, d); self != "" {
			assigned(d.ChildByFieldName("body"), self)
		}
	})
}

// inLineOrder sorts the symbols emitted from index from on by their first
// line, stably (a member after its class).
func inLineOrder(w *walker, from int) {
	syms, header := w.file.Symbols[from:], w.header[from:]
	order := make([]int, len(syms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return syms[a].StartLine - syms[b].StartLine })
	s2, h2 := slices.Clone(syms), slices.Clone(header)
	for i, j := range order {
		syms[i], header[i] = s2[j], h2[j]
	}
}

// pySelf is the name of a method's first parameter, "" when it has none
// or it is not a plain name.
func pySelf(w *walker, d *node) string {
	params := d.ChildByFieldName("parameters")
	if params == nil {
		return ""
	}
	p := params.NamedChild(0)
	if p != nil && w.typ(p) == "typed_parameter" {
		p = p.NamedChild(0)
	}
	if p == nil || w.typ(p) != "identifier" {
		return ""
	}
	return w.text(p)
}

func pyMayDeclare(b []byte) bool {
	return bytes.Contains(b, []byte("def")) || bytes.Contains(b, []byte("class")) || bytes.Contains(b, []byte("import"))
}

func isUpperName(s string) bool {
	hasLetter := false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			hasLetter = true
		case r == '_' || (r >= '0' && r <= '9'):
		default:
			return false
		}
	}
	return hasLetter
}

func importsPython(w *walker, capture string, n *node) {
	kind := ImportStatic
	if pyTypeChecking(w, n) {
		kind = ImportTypeOnly
	}
	switch capture {
	case "py.import":
		w.eachNamed(n, func(c *node) {
			switch w.typ(c) {
			case "dotted_name":
				w.addImport(w.text(c), kind, c)
			case "aliased_import":
				w.addImport(w.text(c.ChildByFieldName("name")), kind, c)
			}
		})
	case "py.from":
		mod := n.ChildByFieldName("module_name")
		if mod == nil {
			return
		}
		var names []string
		w.eachNamed(n, func(c *node) {
			if c.Equal(mod) {
				return
			}
			switch w.typ(c) {
			case "dotted_name":
				names = append(names, w.text(c))
			case "aliased_import":
				names = append(names, w.text(c.ChildByFieldName("name")))
			case "wildcard_import":
				names = append(names, "*")
			}
		})
		w.addImport(strings.Join(strings.Fields(w.text(mod)), ""), kind, n)
		w.file.Imports[len(w.file.Imports)-1].Names = names
	case "py.future":
		w.addImport("__future__", ImportStatic, n)
	}
}

// pyTypeChecking tells whether n sits under `if TYPE_CHECKING:`.
func pyTypeChecking(w *walker, n *node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch w.typ(p) {
		case "if_statement":
			if strings.Contains(w.text(p.ChildByFieldName("condition")), "TYPE_CHECKING") {
				return true
			}
		case "function_definition", "class_definition", "module":
			return false
		}
	}
	return false
}

// callImportsPython adds the modules that calls import by name:
// __import__("x") and importlib.import_module("x"), the string being the
// call's first argument. Like callImportsJS it looks only where the
// parsed text spells those names instead of compiling a query. Statements
// that mention them are never blanked from a skeleton.
func callImportsPython(w *walker, root *node) {
	words := []string{"__import__", "import_module"}
	w.eachWord(root, words, nameByte, func(k, o int, n *node) {
		if !spans(n, o, len(words[k])) || w.typ(n) != "identifier" {
			return
		}
		callee := n
		if k == 1 { // importlib.import_module
			attr := n.Parent()
			if attr == nil || w.typ(attr) != "attribute" {
				return
			}
			if a := attr.ChildByFieldName("attribute"); a == nil || !a.Equal(n) {
				return
			}
			if m := attr.ChildByFieldName("object"); m == nil || w.typ(m) != "identifier" || w.text(m) != "importlib" {
				return
			}
			callee = attr
		}
		if s := callStringArg(w, callee, "call", "argument_list"); s != nil {
			w.addImport(unquote(w.text(s)), ImportDynamic, s)
		}
	})
}
