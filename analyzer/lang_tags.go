package analyzer

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"sort"
	"strings"
)

// Imports and their resolution for the languages added as table entries
// (tags.go). Each resolves only what the repository determines: a path
// written in the file, or a convention its configuration names.

// importsPHP reads require/include paths (__DIR__ . '/x.php' is beside
// the file) and use declarations (namespaces, resolved through
// composer.json's PSR-4 map).
func importsPHP(w *walker, role string, n *node) {
	if p := n.Parent(); p != nil && w.typ(p) == "namespace_use_clause" {
		w.addImport(strings.TrimPrefix(strings.Join(strings.Fields(w.text(n)), ""), `\`), ImportStatic, n)
		return
	}
	text := strings.Join(strings.Fields(w.text(n)), "")
	text = strings.Trim(text, "()")
	dir := ""
	for _, pre := range []struct{ code, dir string }{
		{"__DIR__.", "./"}, {"dirname(__FILE__).", "./"}, {"dirname(__DIR__).", "../"},
	} {
		if rest, ok := strings.CutPrefix(text, pre.code); ok {
			text, dir = rest, pre.dir
			break
		}
	}
	if len(text) < 2 || (text[0] != '\'' && text[0] != '"') || text[len(text)-1] != text[0] || strings.ContainsAny(text[1:len(text)-1], `$'"`) {
		if dir == "" {
			w.addImport(w.text(n), ImportDynamic, n)
		}
		return
	}
	spec := unquote(text)
	if dir != "" {
		spec = path.Clean(dir + strings.TrimPrefix(spec, "/"))
		if !strings.HasPrefix(spec, ".") {
			spec = "./" + spec
		}
	}
	w.addImport(spec, ImportStatic, n)
}

// resolvePHP resolves a path beside the importing file (or, for a bare
// path, from the repository's root) and a class named by use through the
// PSR-4 autoload map of the nearest composer.json above the file.
func resolvePHP(r *resolver, imp *Import) []string {
	spec := imp.Spec
	if strings.HasSuffix(spec, ".php") || strings.HasSuffix(spec, ".inc") || strings.HasPrefix(spec, ".") {
		if p := path.Join(path.Dir(imp.Path), spec); r.files[p] {
			return []string{p}
		}
		if !strings.HasPrefix(spec, ".") && r.files[path.Clean(spec)] {
			return []string{path.Clean(spec)}
		}
		return nil
	}
	if strings.ContainsAny(spec, " $") {
		return nil
	}
	for dir := path.Dir(imp.Path); ; dir = path.Dir(dir) {
		cj := path.Join(dir, "composer.json")
		if r.files[cj] {
			if out := r.psr4(cj, spec); len(out) > 0 {
				return out
			}
		}
		if dir == "." || dir == "/" {
			return nil
		}
	}
}

// psr4 maps a class name through the autoload (and autoload-dev) PSR-4
// prefixes of composer.json at cj: the longest prefix that holds a file.
func (r *resolver) psr4(cj, class string) []string {
	var c struct {
		Autoload struct {
			PSR4 map[string]any `json:"psr-4"`
		} `json:"autoload"`
		AutoloadDev struct {
			PSR4 map[string]any `json:"psr-4"`
		} `json:"autoload-dev"`
	}
	if json.Unmarshal(r.read(cj), &c) != nil {
		return nil
	}
	type entry struct{ prefix, dir string }
	var es []entry
	for _, m := range []map[string]any{c.Autoload.PSR4, c.AutoloadDev.PSR4} {
		for pre, v := range m {
			switch d := v.(type) {
			case string:
				es = append(es, entry{pre, d})
			case []any:
				for _, x := range d {
					if s, ok := x.(string); ok {
						es = append(es, entry{pre, s})
					}
				}
			}
		}
	}
	sort.SliceStable(es, func(i, j int) bool { return len(es[i].prefix) > len(es[j].prefix) })
	root := path.Dir(cj)
	for _, e := range es {
		rest, ok := strings.CutPrefix(class, e.prefix)
		if !ok || rest == "" {
			continue
		}
		p := path.Join(root, e.dir, strings.ReplaceAll(rest, `\`, "/")+".php")
		if r.files[p] {
			return []string{p}
		}
	}
	return nil
}

// resolveRuby resolves require_relative beside the file, and require
// through the lib/ directory of the nearest enclosing project that holds
// the file (the load path a gem or an application puts first).
func resolveRuby(r *resolver, imp *Import) []string {
	spec := imp.Spec
	if !strings.HasSuffix(spec, ".rb") {
		spec += ".rb"
	}
	if strings.HasPrefix(spec, ".") {
		return []string{path.Join(path.Dir(imp.Path), spec)}
	}
	for dir := path.Dir(imp.Path); ; dir = path.Dir(dir) {
		for _, lib := range []string{"lib", "app", ""} {
			if lib == "" && dir == path.Dir(imp.Path) {
				continue
			}
			if p := path.Join(dir, lib, spec); r.files[p] {
				return []string{p}
			}
		}
		if dir == "." {
			return nil
		}
	}
}

// importsLua reads require's module name: require "a.b", require("a.b").
func importsLua(w *walker, role string, n *node) {
	t := strings.Trim(strings.TrimSpace(w.text(n)), "()")
	t = strings.TrimSpace(t)
	if len(t) < 2 || (t[0] != '"' && t[0] != '\'') || t[len(t)-1] != t[0] {
		return
	}
	w.addImport(unquote(t), ImportStatic, n)
}

// resolveLua resolves a module name a.b to a/b.lua or a/b/init.lua below
// the file's directory or any above it, or below a lua/ or src/ there
// (package.path as projects set it).
func resolveLua(r *resolver, imp *Import) []string {
	rel := strings.ReplaceAll(imp.Spec, ".", "/")
	for dir := path.Dir(imp.Path); ; dir = path.Dir(dir) {
		for _, sub := range []string{"", "lua", "src"} {
			for _, f := range []string{rel + ".lua", rel + "/init.lua"} {
				if p := path.Join(dir, sub, f); r.files[p] {
					return []string{p}
				}
			}
		}
		if dir == "." {
			return nil
		}
	}
}

// shellDirs are the spellings of "the directory of this script".
var shellDirs = regexp.MustCompile(`^(\$\(dirname "?\$(0|\{0\}|\{BASH_SOURCE(\[0\])?\}|BASH_SOURCE)"?\)|\$\{BASH_SOURCE(\[0\])?%/\*\}|\$\{0%/\*\})/`)

// importsBash reads the path given to source or ".": a literal path, or
// one under the script's own directory ("$(dirname "$0")/x"); anything
// else (a variable) is recorded as dynamic.
func importsBash(w *walker, role string, n *node) {
	t := strings.TrimSpace(w.text(n))
	if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] {
		t = t[1 : len(t)-1]
	}
	rest := strings.ReplaceAll(t, `"`, "")
	if m := shellDirs.FindString(rest); m != "" {
		rest = rest[len(m):]
	}
	if strings.ContainsAny(rest, "$`*?") {
		w.addImport(t, ImportDynamic, n)
		return
	}
	w.addImport(t, ImportStatic, n)
}

// resolveShell resolves a path under the script's own directory there,
// and any other relative path from the repository's root (where scripts
// are run from, as a rule), then beside the script (source's search of
// the working directory, when that is the script's).
func resolveShell(r *resolver, imp *Import) []string {
	spec := strings.ReplaceAll(imp.Spec, `"`, "")
	if imp.Kind != ImportStatic || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "~") {
		return nil
	}
	if m := shellDirs.FindString(spec); m != "" {
		return []string{path.Join(path.Dir(imp.Path), spec[len(m):])}
	}
	if p := path.Clean(spec); r.files[p] {
		return []string{p}
	}
	return []string{path.Join(path.Dir(imp.Path), spec)}
}

// importsDotted reads a Kotlin or Scala import clause: import a.b.C,
// import a.b.C as D, import a.b.*, import a.b.{C, D => E}.
func importsDotted(w *walker, role string, n *node) {
	t := strings.TrimSpace(w.text(n))
	t = strings.TrimSpace(strings.TrimPrefix(t, "import"))
	if i := strings.IndexByte(t, '/'); i >= 0 {
		t = t[:i] // a comment the grammar put inside the clause
	}
	if i := strings.IndexByte(t, '\n'); i >= 0 && !strings.Contains(t, "{") {
		t = t[:i]
	}
	if i := strings.Index(t, " as "); i >= 0 && !strings.Contains(t, "{") {
		t = t[:i]
	}
	t = strings.Join(strings.Fields(t), "")
	for _, clause := range splitTop(t) {
		base, sel, ok := strings.Cut(clause, "{")
		if !ok {
			w.addImport(clause, ImportStatic, n)
			continue
		}
		for _, s := range strings.Split(strings.TrimSuffix(sel, "}"), ",") {
			s, _, _ = strings.Cut(s, "=>")
			s, _, _ = strings.Cut(s, " as ")
			if s == "_" || s == "*" {
				s = "*"
			}
			if s != "" {
				w.addImport(base+s, ImportStatic, n)
			}
		}
	}
}

// splitTop splits s at the commas outside braces.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// resolveJVM resolves a Kotlin or Scala import as Java's are, to the
// file of the class (a/b/C.kt), or every file of the package for a.b.*.
func resolveJVM(exts ...string) func(*resolver, *Import) []string {
	return func(r *resolver, imp *Import) []string {
		segs := strings.Split(imp.Spec, ".")
		if segs[len(segs)-1] == "*" || segs[len(segs)-1] == "_" {
			pkg := strings.Join(segs[:len(segs)-1], "/")
			var out []string
			for _, d := range r.dirsNamed(path.Base(pkg)) {
				if d != pkg && !strings.HasSuffix(d, "/"+pkg) {
					continue
				}
				for _, f := range r.dirs[d] {
					for _, e := range exts {
						if strings.HasSuffix(f, e) {
							out = append(out, f)
						}
					}
				}
			}
			return out
		}
		for n := len(segs); n >= 1; n-- {
			for _, e := range exts {
				rel := strings.Join(segs[:n], "/") + e
				for _, f := range r.base(path.Base(rel)) {
					if f == rel || strings.HasSuffix(f, "/"+rel) {
						return []string{f}
					}
				}
			}
		}
		return nil
	}
}

// resolveCSharp resolves using A.B.C only where the repository lays out
// namespaces as directories: the .cs files of a directory whose path
// ends in A/B/C, or in B/C below a project (a .csproj) named A.
func resolveCSharp(r *resolver, imp *Import) []string {
	spec := strings.TrimPrefix(imp.Spec, "static")
	if i := strings.IndexByte(spec, '='); i >= 0 {
		spec = spec[i+1:]
	}
	segs := strings.Split(spec, ".")
	var out []string
	for _, d := range r.dirsNamed(segs[len(segs)-1]) {
		if !csNamespaceDir(r, d, segs) {
			continue
		}
		for _, f := range r.dirs[d] {
			if strings.HasSuffix(f, ".cs") {
				out = append(out, f)
			}
		}
	}
	return out
}

func csNamespaceDir(r *resolver, d string, segs []string) bool {
	ds := strings.Split(d, "/")
	for k := 0; k < len(segs); k++ {
		// segs[:k] is the project's root namespace, segs[k:] directories below it
		rest := segs[k:]
		if len(rest) > len(ds) {
			continue
		}
		tail := ds[len(ds)-len(rest):]
		if strings.Join(tail, "/") != strings.Join(rest, "/") {
			continue
		}
		root := strings.Join(ds[:len(ds)-len(rest)], "/")
		if root == "" {
			root = "."
		}
		if k == 0 {
			return true
		}
		if r.files[path.Join(root, strings.Join(segs[:k], ".")+".csproj")] {
			return true
		}
	}
	return false
}

// dirsNamed returns the directories whose last element is name, sorted.
func (r *resolver) dirsNamed(name string) []string {
	if r.byDirBase == nil {
		r.byDirBase = map[string][]string{}
		for d := range r.dirs {
			r.byDirBase[path.Base(d)] = append(r.byDirBase[path.Base(d)], d)
		}
		for _, ds := range r.byDirBase {
			sort.Strings(ds)
		}
	}
	return r.byDirBase[name]
}

// maskBash writes over what the shell grammar tree-sitter bundles cannot
// parse, keeping every offset and line: the regular expression after =~
// and extended glob groups (@(a|b), !(x), *(x)…) become runs of x, an
// empty array (a=()) an empty string. The
// symbols' text and fingerprints are still read from the file itself.
func maskBash(src, buf []byte) ([]byte, bool) {
	buf = append(buf[:0], src...)
	masked := false
	fill := func(a, b int) {
		for k := a; k < b && k < len(buf); k++ {
			if buf[k] != '\n' {
				buf[k] = 'x'
			}
		}
		masked = true
	}
	n := len(src)
	for i := 0; i < n; i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case c == '#' && (i == 0 || isBlank(src[i-1])):
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '\'':
			if k := bytes.IndexByte(src[i+1:], '\''); k >= 0 {
				i += k + 1
			}
		case c == '=' && i+2 < n && src[i+1] == '(' && src[i+2] == ')':
			// an empty array (local a=()): the grammar reads a=""
			buf[i+1], buf[i+2] = '"', '"'
			masked = true
			i += 2
		case c == '=' && i+1 < n && src[i+1] == '~' && i > 0 && isBlank(src[i-1]):
			j := i + 2
			for j < n && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			depth := 0
			for j < n && src[j] != '\n' {
				if src[j] == '\\' {
					fill(j, j+2)
					j += 2
					continue
				}
				if q := src[j]; q == '"' || q == '\'' {
					// a quoted part matches as written: the grammar reads it
					k := j + 1
					for k < n && src[k] != q && src[k] != '\n' {
						if src[k] == '\\' && q == '"' {
							k++
						}
						k++
					}
					j = k + 1
					continue
				}
				if depth == 0 && (isBlank(src[j]) || bytes.HasPrefix(src[j:], []byte("]]"))) {
					break
				}
				switch src[j] {
				case '(':
					depth++
				case '[':
					// a bracket expression, to its close: a ] first (after
					// ^) is literal, [:class:] nests
					k := j + 1
					if k < n && src[k] == '^' {
						k++
					}
					if k < n && src[k] == ']' {
						k++
					}
					for k < n && src[k] != ']' && src[k] != '\n' {
						if src[k] == '[' && k+1 < n && src[k+1] == ':' {
							if e := bytes.Index(src[k:], []byte(":]")); e >= 0 {
								k += e + 2
								continue
							}
						}
						k++
					}
					fill(j, k+1)
					j = k + 1
					continue
				case ')':
					depth--
				}
				fill(j, j+1)
				j++
			}
			i = j - 1
		case c == '(' && i+1 < n && src[i+1] == '(':
			// arithmetic: a * ( is a product there
			depth := 0
			for i < n && src[i] != '\n' {
				if src[i] == '(' {
					depth++
				} else if src[i] == ')' {
					if depth--; depth == 0 {
						break
					}
				}
				i++
			}
		case (c == '@' || c == '+' || c == '!' || c == '*' || c == '?') && i+1 < n && src[i+1] == '(' && (i == 0 || src[i-1] != '$'):
			j, depth := i+1, 0
			for ; j < n; j++ {
				if src[j] == '(' {
					depth++
				} else if src[j] == ')' {
					if depth--; depth == 0 {
						break
					}
				} else if src[j] == '\n' {
					break
				}
			}
			if j < n && src[j] == ')' {
				fill(i, j+1)
				i = j
			}
		}
	}
	return buf, masked
}

// cppMacroStatement is a line that is only a call of an upper-case macro
// (GTEST_DISALLOW_COPY_AND_ASSIGN_(Foo);) and cppMacroWord an upper-case
// macro word before a declaration (GTEST_API_ int f(), class
// GTEST_API_ Foo): what the C++ grammar, which does not expand macros,
// misreads as declarations that swallow what follows.
var (
	cppMacroStatement = regexp.MustCompile(`^[ \t]*[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]*\(`)
	// cppMacroAfter is an upper-case macro called after a declarator's
	// parameters (void f() const GTEST_LOCK_EXCLUDED_(mu);)
	cppMacroAfter = regexp.MustCompile(`\)[ \t\n]*(?:(?:const|override|final|noexcept)[ \t\n]*)*([A-Z][A-Z0-9]*_[A-Z0-9_]*)[ \t]*[(;{]`)
	cppMacroWord  = regexp.MustCompile(`^[ \t]*(?:(?:template[ \t]*<[^>]*>[ \t]*)?(?:class|struct|union)[ \t]+)?(_?[A-Z][A-Z0-9]*_[A-Z0-9_]*)[ \t]+[A-Za-z_~]`)
	// cppMacroLine is a line that is only an upper-case macro word
	// (libstdc++'s _GLIBCXX_BEGIN_NAMESPACE_VERSION, or
	// _GLIBCXX20_CONSTEXPR before a declaration), and cppMacroNamespace
	// one called after a namespace's name (namespace std
	// _GLIBCXX_VISIBILITY(default)).
	cppMacroLine      = regexp.MustCompile(`^[ \t]*(_?[A-Z][A-Z0-9]*_[A-Z0-9_]*)[ \t]*(?://.*)?\r?$`)
	cppMacroNamespace = regexp.MustCompile(`^[ \t]*(?:inline[ \t]+)?namespace[ \t]+[A-Za-z_][A-Za-z_0-9:]*[ \t]+(_?[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]*\([^()\n]*\))`)
)

// maskCpp writes spaces over those macros, keeping every offset and line:
// a macro statement to its closing parenthesis and semicolon (not one
// followed by a block, which defines something: TEST(a, b) { … }), a
// macro line where a declaration may start (loneMacro) and a namespace's
// macro; never inside a directive, which the grammar reads as one token.
func maskCpp(src, buf []byte) ([]byte, bool) {
	buf = append(buf[:0], src...)
	masked := false
	for i := 0; i < len(src); {
		e := lineEnd(src, i)
		line := buf[i:e]
		for n := 0; n < 4; n++ {
			m := cppMacroWord.FindSubmatchIndex(line)
			if m == nil {
				break
			}
			for k := i + m[2]; k < i+m[3]; k++ {
				buf[k] = ' '
			}
			masked = true
		}
		for _, re := range []*regexp.Regexp{cppMacroNamespace, cppMacroLine} {
			if m := re.FindSubmatchIndex(line); m != nil && (re == cppMacroNamespace || loneMacro(src, i)) && !inDirective(src, i) {
				for k := i + m[2]; k < i+m[3]; k++ {
					buf[k] = ' '
				}
				masked = true
			}
		}
		if m := cppMacroStatement.FindIndex(line); m != nil && (line[0] != ' ' && line[0] != '\t' || statementStart(src, i)) && !inDirective(src, i) {
			// to the matching parenthesis, across lines
			depth, k := 0, i+m[1]-1
			for ; k < len(src); k++ {
				if src[k] == '(' {
					depth++
				} else if src[k] == ')' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			j := k + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			if k < len(src) && (j == len(src) || src[j] == ';' || src[j] == '\n' || src[j] == '/') {
				if j < len(src) && src[j] == ';' {
					j++
				}
				for x := i; x < j; x++ {
					if buf[x] != '\n' {
						buf[x] = ' '
					}
				}
				masked = true
				if j > e {
					e = bytes.IndexByte(src[j:], '\n')
					if e < 0 {
						e = len(src)
					} else {
						e += j
					}
				}
			}
		}
		i = e + 1
	}
	if a, b, ok := includeGuard(src); ok {
		// the guard's #ifndef and #endif: the grammar wraps the whole
		// file in them, and one error inside then loses the file's nesting
		for _, r := range [][2]int{a, b} {
			for x := r[0]; x < r[1]; x++ {
				buf[x] = ' '
			}
		}
		masked = true
	}
	if maskCppBranches(src, buf, false) {
		masked = true
	}
	for _, m := range cppMacroAfter.FindAllSubmatchIndex(src, -1) {
		if inDirective(src, m[2]) {
			// a macro's body (#define M(a) GMOCK_X(a)): the directive is
			// one token to the grammar, and blanking its end leaves a
			// line the grammar reads on into the next directive
			continue
		}
		if src[m[1]-1] != '(' {
			for x := m[2]; x < m[3]; x++ {
				buf[x] = ' ' // a macro word: int Run() GTEST_MUST_USE_RESULT_;
			}
			masked = true
			continue
		}
		depth, k := 0, m[1]-1
		for ; k < len(src); k++ {
			if src[k] == '(' {
				depth++
			} else if src[k] == ')' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		for x := m[2]; x <= k && x < len(src); x++ {
			if buf[x] != '\n' {
				buf[x] = ' '
			}
		}
		masked = true
	}
	return buf, masked
}

// maskCppBranches keeps one branch of a conditional whose first branch
// leaves braces or parentheses open (#if A / f() { / #else / g() { /
// #endif; zlib's #ifdef GUNZIP / if (a || / #else / if ( / #endif): the
// branch a compiler reads with no macro defined (the #else branch, the
// first of #ifndef X or #if !…; the first when no branch would be
// read), writing blanks over the group's directive lines and its other
// branches. The grammar reads each branch as a whole, and two branches
// that each open a block leave it unclosed, so that the rest of the file
// nests inside. A group whose branches balance is left as written, and
// a group inside braces of one branch read only with its macro defined,
// unbalanced, is blanked whole. With exprs, a group is also masked that
// starts inside an expression, each branch a part of it (libuv's `use =
// version() >=` / #if defined(__hppa__) / 0x060133 / #else / 0x050ABA /
// #endif), or whose first branch leaves a statement open (jq's #ifdef
// _WIN32 / if (localtime_s(tm, &sse)) / #else / if (localtime_r(&sse,
// tm) == NULL) / #endif / bp = NULL;): the grammar reads both parts in a
// row.
func maskCppBranches(src, buf []byte, exprs bool) bool {
	type group struct {
		start, other, els int // offsets of the #if line, the first #elif or #else, the #else
		negated, first    bool
		depth             int  // braces and parentheses the first branch leaves open
		mid               bool // it starts inside an expression, or its first branch ends in one (endsOpen)
		inner             bool // it starts inside braces
	}
	var open []*group
	masked := false
	var prev []byte // the code of the last line before that holds any; nil after a directive
	prevIndented, comment := false, false
	level := 0 // braces and parentheses open, every branch read
	for i := 0; i < len(src); {
		e := lineEnd(src, i)
		for e < len(src) && continued(src[i:e]) {
			e = lineEnd(src, e+1) // a directive continued on the next line
		}
		t := bytes.TrimLeft(src[i:e], " \t")
		if comment || len(t) == 0 || t[0] != '#' {
			if code, d := codeLine(src[i:e], &comment); len(code) > 0 {
				prev, prevIndented = code, src[i] == ' ' || src[i] == '\t'
				level += d
				for k := len(open) - 1; k >= 0 && open[k].first; k-- {
					open[k].depth += d
				}
			}
			i = e + 1
			continue
		}
		word := bytes.TrimLeft(t[1:], " \t")
		switch {
		case bytes.HasPrefix(word, []byte("if")):
			cond := bytes.TrimLeft(word[min(len(word), 2):], " \t")
			negated := bytes.HasPrefix(word, []byte("ifndef")) || bytes.HasPrefix(cond, []byte("!"))
			open = append(open, &group{start: i, first: true, negated: negated, mid: exprs && endsOpen(prev, false), inner: level > 0})
		case bytes.HasPrefix(word, []byte("elif")), bytes.HasPrefix(word, []byte("else")):
			if n := len(open); n > 0 {
				g := open[n-1]
				if g.first {
					g.first, g.other = false, i
					g.mid = g.mid || exprs && prevIndented && endsOpen(prev, true)
				}
				if bytes.HasPrefix(word, []byte("else")) {
					g.els = i
				}
			}
		case bytes.HasPrefix(word, []byte("endif")) && len(open) > 0:
			g := open[len(open)-1]
			open = open[:len(open)-1]
			if g.other == 0 && g.depth != 0 && !g.negated && g.inner {
				// One branch inside a body, read with its macro defined
				// only, that opens what a later one closes (jq's #ifdef
				// USE_DECNUM around an else's brace, and again around its
				// close): a compiler with no macro defined reads neither.
				// At the top level such a group may hold definitions.
				blank(buf, g.start, e)
				masked = true
				break
			}
			if g.other == 0 || g.depth == 0 && !g.mid {
				break
			}
			if g.els > 0 && !g.negated {
				blank(buf, g.start, lineEnd(src, g.els))
				blank(buf, i, e)
			} else {
				blank(buf, g.start, lineEnd(src, g.start))
				blank(buf, g.other, e)
			}
			masked = true
		}
		prev = nil
		i = e + 1
	}
	return masked
}

// exprOperators are the last characters of a line an expression goes on
// from.
const exprOperators = "=+-*/%&|^<>?,(!"

// endsOpen reports whether code, a line's code, ends inside an
// expression: with an operator, an open parenthesis or a comma, or, with
// paren, a closing parenthesis (an if's condition, its statement to
// come). A comment's close is no operator.
func endsOpen(code []byte, paren bool) bool {
	if len(code) == 0 || bytes.HasSuffix(code, []byte("*/")) {
		return false
	}
	last := code[len(code)-1]
	return bytes.IndexByte([]byte(exprOperators), last) >= 0 || paren && last == ')'
}

// codeLine returns the code of line, trimmed (from its first byte
// outside a comment to its last; empty when it holds none), and the
// number of braces and parentheses it opens less those it closes outside
// literals. comment says whether a block comment is open at its start,
// and is left saying whether one is at its end.
func codeLine(line []byte, comment *bool) (code []byte, depth int) {
	first, last := -1, -1
	scanCode(line, comment, func(k int, literal bool) bool {
		switch c := line[k]; {
		case c == ' ' || c == '\t' || c == '\r':
			return true
		case literal:
		case c == '{' || c == '(':
			depth++
		case c == '}' || c == ')':
			depth--
		}
		if first < 0 {
			first = k
		}
		last = k
		return true
	})
	if first < 0 {
		return nil, depth
	}
	return line[first : last+1], depth
}

// scanCode calls fn with the offset of each byte of b outside comments,
// saying whether it belongs to a string or character literal (quotes
// included), until fn returns false. comment says whether a block
// comment is open at b's start, and is left saying whether one is at its
// end; a line comment, and a literal, end with their line.
func scanCode(b []byte, comment *bool, fn func(k int, literal bool) bool) {
	var quote byte
	for k := 0; k < len(b); k++ {
		c := b[k]
		switch {
		case *comment:
			if c == '*' && k+1 < len(b) && b[k+1] == '/' {
				*comment, k = false, k+1
			}
			continue
		case quote != 0:
			if c == quote || c == '\n' {
				quote = 0
			}
			if !fn(k, c != '\n') {
				return
			}
			if c == '\\' && k+1 < len(b) && b[k+1] != '\n' {
				if k++; !fn(k, true) {
					return
				}
			}
			continue
		case c == '"' || c == '\'':
			quote = c
			if !fn(k, true) {
				return
			}
			continue
		case c == '/' && k+1 < len(b) && b[k+1] == '/':
			for k+1 < len(b) && b[k+1] != '\n' {
				k++
			}
			continue
		case c == '/' && k+1 < len(b) && b[k+1] == '*':
			*comment, k = true, k+1
			continue
		}
		if !fn(k, false) {
			return
		}
	}
}

// continued reports whether line (without its line feed) ends with the
// backslash that continues it on the next, before a carriage return
// (a file with CRLF line ends: jq's decNumber) or not.
func continued(line []byte) bool {
	line = bytes.TrimSuffix(line, []byte("\r"))
	return len(line) > 0 && line[len(line)-1] == '\\'
}

// blank writes spaces over buf[a:b], keeping its newlines.
func blank(buf []byte, a, b int) {
	for x := a; x < b && x < len(buf); x++ {
		if buf[x] != '\n' {
			buf[x] = ' '
		}
	}
}

// maskCSharp reads C#'s conditional compilation as its compiler would
// with no symbol defined but the first branch: directive lines (#if,
// #region, #pragma, …) and the lines of every #elif and #else branch
// become blanks, keeping every offset and line. The grammar tree-sitter
// bundles misreads a directive between an attribute and its declaration,
// or two branches that each open a declaration.
func maskCSharp(src, buf []byte) ([]byte, bool) {
	buf = append(buf[:0], src...)
	masked := false
	var skip []bool // per open #if: whether the current branch is left out
	off := func() bool {
		for _, s := range skip {
			if s {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(src); {
		e := lineEnd(src, i)
		t := bytes.TrimLeft(bytes.TrimPrefix(src[i:e], []byte("\xef\xbb\xbf")), " \t")
		blank := off()
		if len(t) > 0 && t[0] == '#' {
			word := bytes.TrimLeft(t[1:], " \t")
			switch {
			case bytes.HasPrefix(word, []byte("if")):
				skip = append(skip, false)
			case bytes.HasPrefix(word, []byte("elif")), bytes.HasPrefix(word, []byte("else")):
				if len(skip) > 0 {
					skip[len(skip)-1] = true
				}
			case bytes.HasPrefix(word, []byte("endif")):
				if len(skip) > 0 {
					skip = skip[:len(skip)-1]
				}
			}
			blank = true
		}
		if blank {
			for k := e - len(t); k < e; k++ {
				buf[k] = ' '
			}
			for k := i; k < e-len(t); k++ {
				if buf[k] == '\t' {
					buf[k] = ' '
				}
			}
			masked = true
		}
		i = e + 1
	}
	return buf, masked
}

// statementStart reports whether the line at i starts a statement: the
// code line before it (comment lines and directives skipped) ends one
// (;), opens or closes a block, or is an access label.
func statementStart(src []byte, i int) bool {
	t := codeLineBefore(src, i)
	if t == nil {
		return true
	}
	switch t[len(t)-1] {
	case ';', '{', '}', ':':
		return true
	}
	return false
}

// codeLineBefore returns the code of the line before the one at i that
// holds code (see codeText; a line a directive continues on holds none),
// trimmed, less a trailing // comment. Nil when there is none.
func codeLineBefore(src []byte, i int) []byte {
	for i > 0 {
		e := i - 1 // the line end before
		b := bytes.LastIndexByte(src[:e], '\n') + 1
		t := bytes.TrimSpace(src[b:e])
		i = b
		if !codeText(t) || inDirective(src, b) {
			continue
		}
		if k := bytes.Index(t, []byte("//")); k > 0 {
			t = bytes.TrimSpace(t[:k])
		}
		return t
	}
	return nil
}

// codeText reports whether t, a trimmed line, holds code: it is not
// blank, a directive or a comment's line.
func codeText(t []byte) bool {
	return len(t) > 0 && t[0] != '#' && t[0] != '*' && !bytes.HasPrefix(t, []byte("//")) && !bytes.HasPrefix(t, []byte("/*"))
}

// loneMacro reports whether the line at i, a lone upper-case word, stands
// where a declaration or statement may start (statementStart, or after a
// template header or a declarator's parameters) and is no enumerator or
// list element: not after a comma, nor alone in braces.
func loneMacro(src []byte, i int) bool {
	prev := bytes.TrimRight(src[:i], " \t\r\n")
	for len(prev) > 0 {
		b := bytes.LastIndexByte(prev, '\n') + 1
		t := bytes.TrimSpace(prev[b:])
		if !codeText(t) {
			prev = bytes.TrimRight(prev[:b], " \t\r\n")
			continue
		}
		if k := bytes.Index(t, []byte("//")); k > 0 {
			t = bytes.TrimSpace(t[:k])
		}
		prev = t
		break
	}
	last := byte(';')
	if len(prev) > 0 {
		last = prev[len(prev)-1]
	}
	if bytes.IndexByte([]byte(";{}:>)"), last) < 0 {
		return false
	}
	next := bytes.TrimLeft(src[lineEnd(src, i):], " \t\r\n")
	return !(last == '{' && len(next) > 0 && next[0] == '}')
}

// inDirective reports whether src[i] lies in a preprocessor directive: the
// first of the lines it continues (each before ending with a backslash)
// starts with a #.
func inDirective(src []byte, i int) bool {
	b := bytes.LastIndexByte(src[:i], '\n') + 1
	for b > 0 {
		e := bytes.TrimRight(src[:b-1], "\r")
		if len(e) == 0 || e[len(e)-1] != '\\' {
			break
		}
		b = bytes.LastIndexByte(e, '\n') + 1
	}
	t := bytes.TrimLeft(src[b:], " \t")
	return len(t) > 0 && t[0] == '#'
}

// includeGuard finds a header's include guard: the first directive is
// #ifndef X, the next #define X, and the last #endif. It returns the
// extents of the #ifndef and #endif lines.
func includeGuard(src []byte) (ifndef, endif [2]int, ok bool) {
	var dirs [][2]int // the directive lines, in order
	for i := 0; i < len(src); {
		e := lineEnd(src, i)
		if t := bytes.TrimSpace(src[i:e]); len(t) > 0 && t[0] == '#' {
			dirs = append(dirs, [2]int{i, e})
		}
		i = e + 1
	}
	if len(dirs) < 3 {
		return ifndef, endif, false
	}
	first := bytes.Fields(src[dirs[0][0]:dirs[0][1]])
	second := bytes.Fields(src[dirs[1][0]:dirs[1][1]])
	last := bytes.Fields(src[dirs[len(dirs)-1][0]:dirs[len(dirs)-1][1]])
	if len(first) != 2 || string(first[0]) != "#ifndef" || len(second) < 2 || string(second[0]) != "#define" ||
		string(second[1]) != string(first[1]) || len(last) == 0 || string(last[0]) != "#endif" {
		return ifndef, endif, false
	}
	return dirs[0], dirs[len(dirs)-1], true
}

// lineEnd is the offset of the end of the line that starts at i: its
// newline, or the end of src.
func lineEnd(src []byte, i int) int {
	if e := bytes.IndexByte(src[i:], '\n'); e >= 0 {
		return i + e
	}
	return len(src)
}
