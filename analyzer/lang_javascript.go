package analyzer

import (
	"strings"
)

// walkJS extracts declarations of JavaScript, TypeScript and TSX:
// module-level and namespace-level declarations, class and interface
// members, and the methods that object literals and assignments define
// (jsAssign). Functions declared inside function bodies are not symbols,
// except in a function that wraps a whole module (jsWrapped).
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
			if jsHasMembers(w, v, MaxNesting-len(scope)-1) {
				w.emit(scope, "default", KindVariable, rng, v)
				if inner, ok := w.nest(scope, "default"); ok {
					jsMembers(w, v, inner)
				}
				return
			}
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
		c := n.NamedChild(0)
		if c == nil {
			break
		}
		switch w.typ(c) {
		case "internal_module":
			jsDecl(w, c, rng, scope)
		case "assignment_expression":
			jsAssign(w, c, rng, scope)
		default:
			jsCall(w, c, rng, scope)
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
		// A declaration of several names, each after the first on a line
		// of its own ("var\n\ta = …,\n\tb = …;"), gives each its own
		// lines: an edit of one is not an edit of the others. Otherwise
		// each has the declaration's.
		var ds []*node
		split := true
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if d := n.NamedChild(i); w.typ(d) == "variable_declarator" {
				split = split && (len(ds) == 0 || w.startsLine(d))
				ds = append(ds, d)
			}
		}
		split = split && len(ds) > 1
		w.eachNamed(n, func(d *node) {
			if w.typ(d) != "variable_declarator" {
				return
			}
			name := d.ChildByFieldName("name")
			if name == nil || w.typ(name) != "identifier" {
				return // destructuring
			}
			v := jsValue(w, d.ChildByFieldName("value"))
			k, body := kind, v
			if v != nil {
				switch w.typ(v) {
				case "arrow_function", "function_expression", "function", "generator_function":
					k, body = KindFunction, v.ChildByFieldName("body")
				case "class":
					k, body = KindClass, v.ChildByFieldName("body")
				}
			}
			if split {
				start, end := w.startOf(d), endLine(d)
				if d.Equal(ds[0]) {
					start = w.startOf(rng)
				}
				if d.Equal(ds[len(ds)-1]) {
					end = endLine(rng)
				}
				w.emitAt(scope, w.text(name), k, start, end, body)
			} else {
				w.emit(scope, w.text(name), k, rng, body)
			}
			if inner, ok := w.nest(scope, w.text(name)); ok {
				jsMembers(w, v, inner)
			}
		})
	}
}

// jsAssign reads a module-level assignment the way CommonJS and
// pre-class code declares things: `a.b.f = function…` is the method f of
// a::b, `Foo.prototype.m = function…` the method m of Foo (the prototype is
// the class), `x.y = {…}` or `x.y = Base.extend({…})` the object x::y with
// the methods its literal defines. `module.exports` and `exports` are the
// module itself: their members are module-level names, and the body of
// `module.exports = function(…) {…}` (a module factory, as Chart.js and
// many plugins wrap a whole file) is read as the module's top level.
// Assignments of other values, and to targets that are not a plain path
// (this.x, a[i]), declare nothing.
func jsAssign(w *walker, a, rng *node, scope []string) {
	path, ok := jsPath(w, a.ChildByFieldName("left"))
	v := jsValue(w, a.ChildByFieldName("right"))
	if !ok || v == nil {
		return
	}
	if len(path) == 0 { // module.exports = …
		switch w.typ(v) {
		case "function_expression", "function", "arrow_function":
			jsWrapped(w, v.ChildByFieldName("body"), scope)
		default:
			jsMembersAt(w, v, scope, KindFunction)
		}
		return
	}
	outer, name := path[:len(path)-1], path[len(path)-1]
	if len(scope)+len(outer) > MaxNesting {
		w.tooDeep = true
		return
	}
	at := append(append([]string{}, scope...), outer...)
	switch {
	case jsFunction(w, v):
		kind := KindMethod
		if len(outer) == 0 {
			kind = KindFunction
		}
		w.emit(at, name, kind, rng, v.ChildByFieldName("body"))
	case w.typ(v) == "class":
		jsClass(w, v, rng, at, name, KindClass)
	default:
		if !jsHasMembers(w, v, MaxNesting-len(at)-1) {
			return
		}
		if !jsPrototype(w, a.ChildByFieldName("left")) {
			w.emit(at, name, KindVariable, rng, v)
		}
		if inner, ok := w.nest(at, name); ok {
			jsMembers(w, v, inner)
		}
	}
}

// jsCall reads a module-level call statement: an immediately invoked
// function, `(function(){…})()`, `!function(){…}()` or
// `(function(){…}).call(this)`, and AMD's `define([…], function(…){…})`,
// wrap a whole file: their body is read as the module's top level.
// `Object.assign(Foo.prototype, {…})`, `_.extend(Foo.prototype, {…})` and
// mixin(…) calls of that shape add the literal's methods to Foo.
func jsCall(w *walker, c, rng *node, scope []string) {
	for w.typ(c) == "unary_expression" || w.typ(c) == "parenthesized_expression" {
		if c = c.NamedChild(int(c.NamedChildCount()) - 1); c == nil {
			return
		}
	}
	if w.typ(c) != "call_expression" {
		return
	}
	fn, args := c.ChildByFieldName("function"), c.ChildByFieldName("arguments")
	if fn == nil || args == nil || w.typ(args) != "arguments" {
		return
	}
	callee := fn
	for w.typ(callee) == "parenthesized_expression" {
		callee = callee.NamedChild(0)
	}
	if w.typ(callee) == "member_expression" { // (function(){…}).call(this)
		if p := w.text(callee.ChildByFieldName("property")); p == "call" || p == "apply" {
			if o := callee.ChildByFieldName("object"); o != nil && w.typ(o) == "parenthesized_expression" {
				callee = o.NamedChild(0)
			}
		}
	}
	var body *node
	switch {
	case callee != nil && (w.typ(callee) == "function_expression" || w.typ(callee) == "function" || w.typ(callee) == "arrow_function"):
		body = callee.ChildByFieldName("body")
	case w.typ(fn) == "identifier" && w.text(fn) == "define":
		if last := args.NamedChild(int(args.NamedChildCount()) - 1); last != nil {
			if t := w.typ(last); t == "function_expression" || t == "function" || t == "arrow_function" {
				body = last.ChildByFieldName("body")
			}
		}
	case w.typ(fn) == "member_expression":
		switch w.text(fn.ChildByFieldName("property")) {
		case "assign", "extend", "mixin":
		default:
			return
		}
		target := args.NamedChild(0)
		path, ok := jsPath(w, target)
		if !ok || len(path) == 0 || args.NamedChildCount() < 2 {
			return
		}
		if len(scope)+len(path) > MaxNesting {
			w.tooDeep = true
			return
		}
		at := append(append([]string{}, scope...), path...)
		w.eachNamed(args, func(o *node) {
			if o != target && w.typ(o) == "object" {
				jsMembers(w, o, at)
			}
		})
		return
	}
	jsWrapped(w, body, scope)
}

// jsWrapped reads the body of a function that wraps a whole module as
// the module's top level. A body on one line is minified code: its
// declarations are no one's to anchor to.
func jsWrapped(w *walker, body *node, scope []string) {
	if body != nil && w.typ(body) == "statement_block" && body.StartPoint().Row != body.EndPoint().Row {
		w.eachNamed(body, func(c *node) { jsDecl(w, c, c, scope) })
	}
}

// jsPath reads an assignment target as a path of names: a.b.c → [a b c],
// Foo.prototype.m → [Foo m]; module.exports and exports are the module
// (an empty path). ok is false for anything else (this.x, a[i], calls).
func jsPath(w *walker, n *node) (path []string, ok bool) {
	if n == nil {
		return nil, false
	}
	switch w.typ(n) {
	case "identifier":
		if w.text(n) == "exports" {
			return nil, true
		}
		return []string{w.text(n)}, true
	case "member_expression":
		o, p := n.ChildByFieldName("object"), n.ChildByFieldName("property")
		if p == nil || w.typ(p) != "property_identifier" {
			return nil, false
		}
		if o != nil && w.typ(o) == "identifier" && w.text(o) == "module" && w.text(p) == "exports" {
			return nil, true
		}
		path, ok := jsPath(w, o)
		if !ok {
			return nil, false
		}
		if w.text(p) == "prototype" {
			return path, len(path) > 0
		}
		return append(path, w.text(p)), true
	}
	return nil, false
}

// jsValue is the value a chain of assignments assigns: `var h = C.h = {…}`
// declares h as the literal.
func jsValue(w *walker, v *node) *node {
	for v != nil && w.typ(v) == "assignment_expression" {
		v = v.ChildByFieldName("right")
	}
	return v
}

// jsPrototype tells whether an assignment target ends in .prototype: the
// literal assigned holds the methods of a class declared elsewhere.
func jsPrototype(w *walker, n *node) bool {
	return n != nil && w.typ(n) == "member_expression" && w.text(n.ChildByFieldName("property")) == "prototype"
}

// jsLiterals returns the object literals that define v's members: v
// itself, or the object arguments of a call or a new (Base.extend({…}),
// defineComponent({…}), new Vue({…})); only those that span lines.
func jsLiterals(w *walker, v *node) []*node {
	if v == nil {
		return nil
	}
	// A literal on one line is minified code, or too small to anchor to
	// apart from what holds it.
	multiline := func(o *node) bool { return o.StartPoint().Row != o.EndPoint().Row }
	switch w.typ(v) {
	case "object":
		if multiline(v) {
			return []*node{v}
		}
	case "call_expression", "new_expression":
		var out []*node
		if args := v.ChildByFieldName("arguments"); args != nil && w.typ(args) == "arguments" {
			for i := 0; i < int(args.NamedChildCount()); i++ {
				if a := args.NamedChild(i); w.typ(a) == "object" && multiline(a) {
					out = append(out, a)
				}
			}
		}
		return out
	}
	return nil
}

// jsHasMembers tells whether v's literals define a method, directly or in
// a nested literal: only such objects are symbols (a configuration
// object of plain values is not). It looks depth literals deep at most:
// below, no symbol could be declared (MaxNesting), and a deep nest is not
// read once per level.
func jsHasMembers(w *walker, v *node, depth int) bool {
	if depth <= 0 {
		return false
	}
	for _, o := range jsLiterals(w, v) {
		for i := 0; i < int(o.NamedChildCount()); i++ {
			switch m := o.NamedChild(i); w.typ(m) {
			case "method_definition":
				return true
			case "pair":
				val := m.ChildByFieldName("value")
				if jsFunction(w, val) || val != nil && w.typ(val) == "object" && jsHasMembers(w, val, depth-1) {
					return true
				}
			}
		}
	}
	return false
}

func jsFunction(w *walker, v *node) bool {
	if v == nil {
		return false
	}
	switch w.typ(v) {
	case "function_expression", "function", "generator_function", "arrow_function":
		return true
	}
	return false
}

// jsMembers emits the methods that v's object literals define, in scope:
// `m() {…}`, `m: function() {…}`, `m: () => …`, getters and setters, and
// nested literals that define methods (`generators: { time() {…} }`).
func jsMembers(w *walker, v *node, scope []string) { jsMembersAt(w, v, scope, KindMethod) }

func jsMembersAt(w *walker, v *node, scope []string, kind string) {
	for _, o := range jsLiterals(w, v) {
		w.eachNamed(o, func(m *node) {
			switch w.typ(m) {
			case "method_definition":
				w.emit(scope, jsMemberName(w, m.ChildByFieldName("name")), kind, m, m.ChildByFieldName("body"))
			case "pair":
				name := jsMemberName(w, m.ChildByFieldName("key"))
				val := m.ChildByFieldName("value")
				switch {
				case jsFunction(w, val):
					w.emit(scope, name, kind, m, val.ChildByFieldName("body"))
				case val != nil && w.typ(val) == "object" && jsHasMembers(w, val, MaxNesting-len(scope)-1):
					w.emit(scope, name, KindField, m, val)
					if inner, ok := w.nest(scope, name); ok {
						jsMembers(w, val, inner)
					}
				}
			}
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
			if k == KindConstructor {
				tsParameterProperties(w, inner, m.ChildByFieldName("parameters"))
			}
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

// tsParameterProperties emits the fields a TypeScript constructor
// declares among its parameters (constructor(private readonly http:
// HttpClient) declares http): those with an accessibility modifier,
// override or readonly, each on a line of its own (as prettier writes
// them as soon as there are two).
func tsParameterProperties(w *walker, scope []string, params *node) {
	if params == nil {
		return
	}
	w.eachNamed(params, func(p *node) {
		if t := w.typ(p); t != "required_parameter" && t != "optional_parameter" {
			return
		}
		name := p.ChildByFieldName("pattern")
		if name == nil || w.typ(name) != "identifier" || !w.startsLine(p) {
			return // beside others on one line: see Language.ownLine
		}
		for i := 0; i < int(p.ChildCount()); i++ {
			switch w.typ(p.Child(i)) {
			case "accessibility_modifier", "override_modifier", "readonly":
				w.emit(scope, w.text(name), KindField, p, p.ChildByFieldName("value"))
				return
			}
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
		return computedName(w.text(n))
	}
	return w.text(n)
}

// computedName spells a computed property name as its tokens, with a
// space only between two words: "[ Symbol.iterator ]", as some write it,
// is "[Symbol.iterator]", as formatters do.
func computedName(text string) string {
	var b strings.Builder
	prevWord := false
	for _, t := range Tokens("javascript", []byte(text)) {
		word := isIdentByte(t[0]) && isIdentByte(t[len(t)-1])
		if word && prevWord {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		prevWord = word
	}
	return b.String()
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
