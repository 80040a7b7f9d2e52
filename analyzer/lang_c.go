package analyzer

import (
	"bytes"
	"regexp"
)

// walkC extracts function definitions, structs, unions, enums, typedefs,
// macros and file-level variables, looking through preprocessor
// conditionals. Prototypes are not symbols.
func walkC(w *walker, root *node) {
	cItems(w, root)
}

func cItems(w *walker, n *node) {
	var head *node // a function's header that tree-sitter read as a declaration (see cSplit)
	var tail *node // the rest of a prototype split the same way
	w.eachNamed(n, func(c *node) {
		switch w.typ(c) {
		case "function_definition":
			name := cDeclName(w, c.ChildByFieldName("declarator"))
			if head != nil {
				if t := c.ChildByFieldName("type"); cParenDeclarator(c) && t != nil && w.typ(t) == "type_identifier" {
					name = w.text(t) // `main` of `int CJSON_CDECL main(void)`; `(void)` read as its declarator
				}
				w.emitAt(nil, name, KindFunction, w.startOf(head), endLine(c), c.ChildByFieldName("body"))
				head = nil
				return
			}
			w.emit(nil, name, KindFunction, c, c.ChildByFieldName("body"))
		case "declaration":
			if tail != nil && tail.Equal(c) && cMacroArgs(c) {
				return // `OF((void));` after `void makefixed`: no variable void
			}
			if next := cSplit(w, c); next != nil {
				if w.typ(next) == "function_definition" {
					head = c
				} else {
					tail = next
				}
				return // the start of what follows, not a declaration of its own
			}
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

// maskC writes blanks over what tree-sitter's C grammar misreads where a
// C compiler would not, keeping every offset and line; the symbols' code
// is read from the file itself. Each pass was met in real histories:
//
//   - the branch of #ifdef __cplusplus (or #if defined(__cplusplus)): a C
//     compiler never reads it, and its `extern "C"` without braces lost
//     the rest of jq's builtin.c;
//   - one branch of a conditional that leaves braces or parentheses open
//     or that continues an expression (see maskCppBranches): zlib's
//     inflate() split an if's condition over #ifdef GUNZIP and #else, and
//     the grammar, reading both, lost the function and every one after
//     it;
//   - a macro call a statement's block follows (libuv's
//     `uv__queue_foreach(q, &h) {`, the kernel's `list_for_each(p, l) {`):
//     a loop to the compiler once expanded, read as one (`while`, or
//     `if` for a name of under five letters, written over the name);
//   - a top-level upper-case macro call without its semicolon (libuv's
//     `RB_GENERATE_STATIC(watcher_root, ...)`), which joined the next
//     definition, and an upper-case word alone on its line (jq's
//     BINOPS; not an attribute on the line above code);
//   - a directive other than a conditional inside braces (see
//     maskInnerDirectives).
func maskC(src, buf []byte) ([]byte, bool) {
	buf = append(buf[:0], src...)
	masked := maskCplusplus(buf)
	if maskCppBranches(buf, buf, true) {
		masked = true
	}
	if maskBlockMacros(buf) {
		masked = true
	}
	if maskTopMacros(buf) {
		masked = true
	}
	if maskInnerDirectives(buf) {
		masked = true
	}
	return buf, masked
}

// innerDirectives are the directives blanked inside braces.
var innerDirectives = regexp.MustCompile(`^[ \t]*#[ \t]*(?:include|import|define|undef|pragma|line|error|warning)\b`)

// maskInnerDirectives blanks, in place, every directive but a
// conditional inside braces (a function's body, a struct's, a table's
// initializer): no symbol is declared there, and the grammar takes a
// directive inside a list of values for an error that may swallow the
// rest of the file (jq's table of builtins #includes its libm entries and
// #defines a macro between two of them).
func maskInnerDirectives(buf []byte) bool {
	masked, depth, comment := false, 0, false
	for i := 0; i < len(buf); {
		e := lineEnd(buf, i)
		if t := bytes.TrimLeft(buf[i:e], " \t"); !comment && len(t) > 0 && t[0] == '#' {
			for e < len(buf) && continued(buf[i:e]) {
				e = lineEnd(buf, e+1) // a directive continued on the next line
			}
			if depth > 0 && innerDirectives.Match(buf[i:e]) {
				blank(buf, i, e)
				masked = true
			}
			i = e + 1
			continue
		}
		line := buf[i:e]
		scanCode(line, &comment, func(k int, literal bool) bool {
			switch {
			case literal:
			case line[k] == '{':
				depth++
			case line[k] == '}' && depth > 0:
				depth--
			}
			return true
		})
		i = e + 1
	}
	return masked
}

// cplusplusTest is a directive whose branch only C++ reads.
var cplusplusTest = regexp.MustCompile(`^[ \t]*#[ \t]*(?:ifdef[ \t]+__cplusplus\b|if[ \t]+(?:defined[ \t]*\(?[ \t]*)?__cplusplus\b)`)

// maskCplusplus blanks, in place, the lines of each branch that only C++
// reads (see cplusplusTest) up to its #else, #elif or #endif.
func maskCplusplus(buf []byte) bool {
	if !bytes.Contains(buf, []byte("__cplusplus")) {
		return false
	}
	masked := false
	for i := 0; i < len(buf); {
		e := lineEnd(buf, i)
		if !cplusplusTest.Match(buf[i:e]) {
			i = e + 1
			continue
		}
		j := e + 1 // the branch runs from here to its #else, #elif or #endif
	branch:
		for depth := 0; j < len(buf); j = lineEnd(buf, j) + 1 {
			t := bytes.TrimLeft(buf[j:lineEnd(buf, j)], " \t")
			if len(t) == 0 || t[0] != '#' {
				continue
			}
			switch w := bytes.TrimLeft(t[1:], " \t"); {
			case bytes.HasPrefix(w, []byte("if")):
				depth++
			case depth > 0 && bytes.HasPrefix(w, []byte("endif")):
				depth--
			case depth == 0 && (bytes.HasPrefix(w, []byte("el")) || bytes.HasPrefix(w, []byte("endif"))):
				break branch
			}
		}
		if j > e+1 {
			blank(buf, e+1, j-1)
			masked = true
		}
		i = max(j, e+1)
	}
	return masked
}

// cStatementWords are C's words a parenthesis follows at a statement's
// start: a call of none of them is a macro's.
var cStatementWords = map[string]bool{"if": true, "while": true, "for": true, "switch": true, "return": true, "sizeof": true, "do": true, "else": true, "case": true, "_Generic": true, "_Static_assert": true, "static_assert": true, "__attribute__": true, "__asm__": true, "asm": true, "__typeof__": true, "typeof": true, "defined": true}

// maskBlockMacros writes `while` (or `if`) over the name of each call
// at a statement's start that a block follows, in place. The cheap tests
// come first: most indented calls end with their semicolon.
func maskBlockMacros(buf []byte) bool {
	masked := false
	for i := 0; i < len(buf); i = lineEnd(buf, i) + 1 {
		if buf[i] != ' ' && buf[i] != '\t' {
			continue
		}
		s := i
		for s < len(buf) && (buf[s] == ' ' || buf[s] == '\t') {
			s++
		}
		e := identEnd(buf, s)
		k := e
		for k < len(buf) && (buf[k] == ' ' || buf[k] == '\t') {
			k++
		}
		if e-s < 2 || k == len(buf) || buf[k] != '(' {
			continue
		}
		end := closeParen(buf, k)
		if end < 0 || !blockNext(buf, end+1) || cStatementWords[string(buf[s:e])] || inDirective(buf, s) || !statementStart(buf, i) {
			continue // not a statement: a declarator after its return type (GNU style, indented in extern "C" {)
		}
		word := "while"
		if e-s < len(word) {
			word = "if"
		}
		copy(buf[s:e], word)
		for x := s + len(word); x < e; x++ {
			buf[x] = ' '
		}
		masked = true
	}
	return masked
}

// identEnd returns the end of the identifier that starts at i (i when
// none does).
func identEnd(buf []byte, i int) int {
	j := i
	for j < len(buf) {
		c := buf[j]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > i && '0' <= c && c <= '9' {
			j++
			continue
		}
		break
	}
	return j
}

// maskTopMacros blanks, in place, each top-level upper-case macro call
// (a word with an underscore) that nothing follows on its line but a
// semicolon or a comment: it defines what the grammar cannot see, and
// without its semicolon the grammar reads it into the next definition.
// So is an upper-case word alone on its line where a declaration may
// start or between two items of a list (jq's BINOPS, an X-macro that
// defines a function, or a table entry, for each operator), but for one
// on the line right above code: an attribute of it.
func maskTopMacros(buf []byte) bool {
	masked := false
	for i := 0; i < len(buf); i = lineEnd(buf, i) + 1 {
		if buf[i] < 'A' || buf[i] > 'Z' {
			continue
		}
		e := identEnd(buf, i)
		if bytes.ContainsFunc(buf[i:e], func(r rune) bool { return 'a' <= r && r <= 'z' }) {
			continue
		}
		k := e
		for k < len(buf) && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r') {
			k++
		}
		switch {
		case k < len(buf) && buf[k] == '(' && bytes.IndexByte(buf[i:e], '_') >= 0:
			end := closeParen(buf, k)
			if end < 0 || blockNext(buf, end+1) || inDirective(buf, i) {
				continue // not one a block follows, which defines something: unity's TEST_SETUP(group) { … }
			}
			rest := bytes.TrimLeft(buf[end+1:lineEnd(buf, end)], " \t\r")
			rest = bytes.TrimPrefix(rest, []byte(";"))
			rest = bytes.TrimLeft(rest, " \t\r")
			if len(rest) > 0 && !bytes.HasPrefix(rest, []byte("//")) && !bytes.HasPrefix(rest, []byte("/*")) {
				continue
			}
			blank(buf, i, lineEnd(buf, end)-len(rest))
			masked = true
		case (k == len(buf) || buf[k] == '\n') && e-i >= 2:
			if gluedNext(buf, e) || inDirective(buf, i) {
				continue // an attribute of what follows (htop's ATTR_NONNULL above a function): its first line
			}
			before := codeLineBefore(buf, i)
			next := nextCodeLine(buf, e)
			// Where a declaration may start, but for a return type on its
			// own line; or in a list, between two items with no comma: a
			// macro that writes items, each with its comma (BINOPS in jq's
			// table of builtins). An enumerator is followed by a comma or
			// the close.
			if statementStart(buf, i) && !declaratorStart.Match(next) ||
				before != nil && before[len(before)-1] == ',' && len(next) > 0 && !bytes.ContainsAny(next[:1], "}),") {
				blank(buf, i, e)
				masked = true
			}
		}
	}
	return masked
}

// declaratorStart is a line that starts with a function's declarator:
// a word before it alone on its line is its return type (GNU style:
// `BOOL` / `is_ready(void)`).
var declaratorStart = regexp.MustCompile(`^\**[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\(`)

// gluedNext reports whether the line after the one that ends at offset
// i holds code (see codeText).
func gluedNext(buf []byte, i int) bool {
	if i >= len(buf) {
		return false
	}
	i = lineEnd(buf, i) + 1
	return i < len(buf) && codeText(bytes.TrimSpace(buf[i:lineEnd(buf, i)]))
}

// nextCodeLine returns the next line after offset i that holds code (see
// codeText), trimmed; nil at the end.
func nextCodeLine(buf []byte, i int) []byte {
	for i < len(buf) {
		e := lineEnd(buf, i)
		if t := bytes.TrimSpace(buf[i:e]); codeText(t) {
			return t
		}
		i = e + 1
	}
	return nil
}

// blockNext reports whether a block opens at offset i, past blanks and
// line ends.
func blockNext(buf []byte, i int) bool {
	for i < len(buf) && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r') {
		i++
	}
	return i < len(buf) && buf[i] == '{'
}

// closeParen returns the offset of the parenthesis that closes the one
// at open, past comments and literals; -1 when there is
// none, or when a block opens or a directive starts before it (not a
// call's arguments, then).
func closeParen(buf []byte, open int) int {
	depth, end, comment := 0, -1, false
	scanCode(buf[open:], &comment, func(k int, literal bool) bool {
		if literal {
			return true
		}
		switch c := buf[open+k]; {
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				end = open + k
				return false
			}
		case c == '{' || c == '}' || c == ';':
			return false
		case c == '\n' && bytes.HasPrefix(bytes.TrimLeft(buf[open+k+1:min(len(buf), open+k+64)], " \t"), []byte("#")):
			return false
		}
		return true
	})
	return end
}

// cMacroArgs reports whether every declarator of declaration d is in
// parentheses: a macro's arguments (`OF((void))`) read as declarators,
// not a variable (zlib's `local const z_word_t FAR crc_table[] = …`,
// split at FAR, declares crc_table).
func cMacroArgs(d *node) bool {
	args := true
	eachField(d, "declarator", func(x *node) {
		args = args && x.Type() == "parenthesized_declarator"
	})
	return args
}

// cSplit returns what follows declaration d when d is only its start,
// split off by a macro tree-sitter cannot expand: d's ";" is missing and
// the next item starts no later than the line after. In `int CJSON_CDECL
// main(void)` (cJSON) or `int API EXPORT f(int a)`, the grammar reads
// `int CJSON_CDECL` as a declaration of a variable and the rest as a
// definition of its own: the macro is no variable, and the function
// starts with the declaration. In zlib's prototypes, `local unsigned
// syncsearch OF((unsigned *have));` or `local void fixedtables
// OF((...));`, neither `syncsearch` nor `void` is a variable. Nil when
// d stands alone.
func cSplit(w *walker, d *node) *node {
	k := int(d.ChildCount())
	if k == 0 || !d.Child(k-1).IsMissing() {
		return nil
	}
	next := d.NextNamedSibling()
	if next == nil || w.typ(next) == "comment" || int(next.StartPoint().Row) > endLine(d) {
		return nil
	}
	return next
}

// cParenDeclarator reports whether function definition fd has a
// parenthesized declarator where its parameters should be: `main(void)`
// after a macro, read as a type `main` and a declarator `(void)`.
func cParenDeclarator(fd *node) bool {
	d := fd.ChildByFieldName("declarator")
	return d != nil && d.Type() == "parenthesized_declarator"
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
