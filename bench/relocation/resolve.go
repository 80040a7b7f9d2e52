package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
)

// target is an oracle entity found among lore's symbols: the symbol's
// full name (path::Outer::inner), its lines, and whether its name is
// shared by other symbols of its file (an overload). A whole module
// (Python's and JavaScript's __module__) is its file: FQName "", Kind
// "file".
type target struct {
	Path, FQName string // FQName: path::Outer::inner
	Kind         string
	Start, End   int
	Overloaded   bool
	Params       []string // for overloads, as lore's selector takes them (Java: erased types; Kotlin: "x: Int")
	// Outer are the names the symbol is under in its file (a Kotlin
	// extension's receiver, which FQName holds, is not one of them).
	Outer []string
}

func (t target) lines() string { return anchors.FormatRange(t.Start, t.End) }

// spec is the anchor spec that names t.
func (t target) spec() string {
	if t.FQName == "" {
		return t.Path
	}
	return t.FQName
}

var exts = map[string][]string{"java": {".java"}, "python": {".py"}, "javascript": {".js", ".mjs", ".cjs"}, "kotlin": {".kt", ".java"}}

// resolve finds e in files: the file whose path matches a prefix of the
// class's qualified name, the class (or module level) in it, the method
// with the same parameters. changed names the files the commit touched,
// preferred when a name matches in several files. The error says why the
// entity has no lore symbol.
func resolve(ctx context.Context, files *anchors.Source, paths []string, lang string, e entity, changed map[string]bool) (target, error) {
	if lang == "kotlin" {
		return resolveKotlin(ctx, files, paths, e, changed)
	}
	segs := strings.Split(e.Class, ".")
	var found []target
	var why error
	for k := len(segs); k >= 1; k-- {
		for _, stem := range stems(segs[:k], lang) {
			for _, p := range pathsEnding(paths, stem, exts[lang]) {
				var fq []string
				if lang == "java" {
					fq = segs[k-1:]
				} else {
					fq = segs[k:]
				}
				if n := len(fq); n > 0 && fq[n-1] == "__module__" {
					fq = fq[:n-1]
				}
				t, err := lookup(ctx, files, p, fq, e)
				if err != nil {
					why = err
					continue
				}
				found = append(found, t)
			}
		}
		if len(found) > 0 {
			break
		}
	}
	return pick(found, why, e, changed)
}

// pick returns the one target found, preferring those in the files the
// commit changed, or says why there is none.
func pick(found []target, why error, e entity, changed map[string]bool) (target, error) {
	if len(found) > 1 {
		var in []target
		for _, t := range found {
			if changed[t.Path] {
				in = append(in, t)
			}
		}
		if len(in) > 0 {
			found = in
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return target{}, fmt.Errorf("%s: in %d files (%s, %s, …)", e, len(found), found[0].Path, found[1].Path)
	case why != nil:
		return target{}, why
	}
	return target{}, fmt.Errorf("%s: no file for the class", e)
}

// stems are the file paths (without extension) that a class name's
// leading segments may name: a/b/C for Java and Python, also a.b.c for
// JavaScript projects that name files with dots (core.helpers.js).
func stems(segs []string, lang string) []string {
	out := []string{strings.Join(segs, "/")}
	if lang == "javascript" && len(segs) > 1 {
		for i := 1; i < len(segs); i++ {
			out = append(out, strings.Join(segs[:i], "/")+"/"+strings.Join(segs[i:], "."))
		}
		out = append(out, strings.Join(segs, "."))
	}
	return out
}

// pathsEnding returns the paths that end with stem and one of exts,
// compared without case when nothing matches with it (RefactoringMiner
// sometimes spells a package in capitals).
func pathsEnding(paths []string, stem string, exts []string) []string {
	if out := pathsNamed(paths, stem, exts, false); len(out) > 0 {
		return out
	}
	return pathsNamed(paths, stem, exts, true)
}

// pathsNamed returns the paths that are stem with one of exts, or end
// with /stem and one of them, compared without case when fold is set.
func pathsNamed(paths []string, stem string, exts []string, fold bool) []string {
	var out []string
	for _, ext := range exts {
		want := stem + ext
		if fold {
			want = strings.ToLower(want)
		}
		for _, p := range paths {
			q := p
			if fold {
				q = strings.ToLower(p)
			}
			if q == want || strings.HasSuffix(q, "/"+want) {
				out = append(out, p)
			}
		}
	}
	return out
}

// lookup finds the class (outer names fq) or its method e.Method in
// file p.
func lookup(ctx context.Context, files *anchors.Source, p string, fq []string, e entity) (target, error) {
	f, err := files.File(ctx, p)
	if err != nil {
		return target{}, err
	}
	segs := append([]string{}, fq...)
	if e.Method != "" {
		switch f.Lang {
		case "javascript": // helpers.x: the object helpers' method x
			segs = append(segs, strings.Split(e.Method, ".")...)
		case "kotlin": // Recv<T>.f: lore names it Recv::f
			segs = append(segs, kotlinMethod(e.Method)...)
		default:
			segs = append(segs, e.Method)
		}
	}
	if f.Lang == "javascript" {
		segs = jsSegments(segs)
	}
	name := strings.Join(segs, "::")
	if name == "" { // a whole module: the file
		return target{Path: p, Kind: "file"}, nil
	}
	full := p + "::" + name
	var same []analyzer.Symbol
	for _, s := range f.Symbols {
		if s.FQName == full {
			same = append(same, s)
		}
	}
	if f.Lang == "javascript" {
		same = jsSameParams(f, same, e)
		if len(same) == 0 {
			same, full = jsSuffix(f, p, segs, e)
		}
	}
	if len(same) == 0 && f.Lang == "kotlin" && e.Method != "" {
		same, full = kotlinAccessed(f, p, segs)
	}
	if len(same) == 0 {
		return target{}, fmt.Errorf("%s: lore has no symbol %s", e, full)
	}
	t := target{Path: p, FQName: full, Outer: fq}
	if len(same) == 1 {
		s := same[0]
		t.Kind, t.Start, t.End = s.Kind, s.StartLine, s.EndLine
		return t, nil
	}
	// An overload: the one whose parameters are the oracle's.
	var match []analyzer.Symbol
	var params [][]string
	for _, s := range same {
		ps, ok := symbolParams(f, s, f.Lang)
		if ok && sameParams(ps, e.Params, f.Lang) {
			match = append(match, s)
			params = append(params, ps)
		}
	}
	if e.Method == "" || len(match) != 1 {
		return target{}, fmt.Errorf("%s: %d symbols named %s, %d with these parameters", e, len(same), full, len(match))
	}
	s := match[0]
	t.Kind, t.Start, t.End, t.Overloaded, t.Params = s.Kind, s.StartLine, s.EndLine, true, params[0]
	return t, nil
}

// jsSegments drops from a JavaScript name what lore's names leave out:
// module.exports and exports (the module itself) and prototype (the class).
func jsSegments(segs []string) []string {
	var out []string
	for i := 0; i < len(segs); i++ {
		switch {
		case segs[i] == "module" && i+1 < len(segs) && segs[i+1] == "exports":
			i++
		case segs[i] == "exports", segs[i] == "prototype":
		default:
			out = append(out, segs[i])
		}
	}
	return out
}

// jsSuffix finds the symbols of file p that RefactoringMiner's name for a
// JavaScript function designates when lore names it otherwise: lore names
// a method after the object that holds it (helpers::extend for a property
// of `var helpers = {…}`, Chart::elements::Point::draw for one of
// `Chart.elements.Point = Element.extend({…})`) where RefactoringMiner
// often names only the function, or names the object by an alias. The
// longest tail of segs that ends exactly one symbol's name wins; a tail
// several symbols end with is no answer.
func jsSuffix(f *anchors.File, p string, segs []string, e entity) ([]analyzer.Symbol, string) {
	for k := 0; k < len(segs); k++ {
		tail := "::" + strings.Join(segs[k:], "::")
		var same []analyzer.Symbol
		for _, s := range f.Symbols {
			if strings.HasSuffix(s.FQName, tail) {
				same = append(same, s)
			}
		}
		same = jsSameParams(f, same, e)
		names := map[string]bool{}
		for _, s := range same {
			names[s.FQName] = true
		}
		if len(names) == 1 {
			return same, same[0].FQName
		}
		if len(names) > 1 {
			return nil, p + "::…" + tail + " (several)"
		}
	}
	return nil, p + "::" + strings.Join(segs, "::")
}

// jsSameParams keeps the symbols whose parameters are the method's, when
// the oracle names a method and the symbol's parameters can be read: a
// function fit(scale) of the module is not the method fit() of an object.
func jsSameParams(f *anchors.File, syms []analyzer.Symbol, e entity) []analyzer.Symbol {
	if e.Method == "" {
		return syms
	}
	var out []analyzer.Symbol
	for _, s := range syms {
		if ps, ok := symbolParams(f, s, "javascript"); !ok || sameParams(ps, e.Params, "javascript") {
			out = append(out, s)
		}
	}
	return out
}

// sameParams compares the parameters read from a symbol (symbolParams)
// with the oracle's; Kotlin's by name and type (see kotlinParam), a type
// RefactoringMiner could not read matching any.
func sameParams(got, want []string, lang string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if lang == "kotlin" {
			gn, gt := kotlinParam(got[i], true)
			wn, wt := kotlinParam(want[i], false)
			if gn != wn || gt != wt && wt != "" {
				return false
			}
			continue
		}
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

var reAnnotation = regexp.MustCompile(`@[\w.]+(\([^()]*\))?\s*`)

// symbolParams reads the parameters of a callable symbol from its text,
// independently of lore's own reading: Java types (erased), Python and
// JavaScript names (Python without self and cls), Kotlin declarations
// without their default values ("x: Int", lore's selector for them).
func symbolParams(f *anchors.File, s analyzer.Symbol, lang string) ([]string, bool) {
	text, ok := analyzer.Lines(f.Src, s.StartLine, s.EndLine)
	if !ok {
		return nil, false
	}
	src := stripComments(string(text), lang)
	re := regexp.MustCompile(`(^|[^\w.@])` + regexp.QuoteMeta(s.Name) + `\s*(<[^()]*>\s*)?\(`)
	switch lang {
	case "javascript": // also name: function(…), a.name = function(…), name: (…) =>
		re = regexp.MustCompile(`(^|[^\w@])` + regexp.QuoteMeta(s.Name) + `\s*(<[^()]*>\s*)?(\(|[:=]\s*(async\s+)?(function\s*\*?\s*[\w$]*\s*)?\()`)
	case "kotlin": // also Recv.name(
		re = regexp.MustCompile(`(^|[^\w@])` + regexp.QuoteMeta(s.Name) + `\s*\(`)
	}
	loc := re.FindStringIndex(src)
	if loc == nil {
		return nil, false
	}
	open := loc[1] - 1
	end := closing(src, open)
	if end < 0 {
		return nil, false
	}
	var out []string
	split := splitTop
	if lang == "kotlin" {
		split = splitKotlin
	}
	for _, p := range split(src[open+1 : end]) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		switch lang {
		case "kotlin":
			p, _, _ = cutTop(p, '=')
			out = append(out, strings.Join(strings.Fields(p), " "))
		case "java":
			p = strings.TrimSpace(reAnnotation.ReplaceAllString(p, ""))
			p = strings.TrimSpace(strings.TrimPrefix(p, "final "))
			// The name is the last word; array brackets after it belong to
			// the type.
			brackets := ""
			for strings.HasSuffix(p, "[]") {
				brackets += "[]"
				p = strings.TrimSpace(strings.TrimSuffix(p, "[]"))
			}
			i := strings.LastIndexAny(p, " \t\n>")
			if i < 0 {
				return nil, false
			}
			out = append(out, javaErasure(p[:i+1])+brackets)
		case "python":
			name := strings.TrimSpace(strings.FieldsFunc(p, func(r rune) bool { return r == ':' || r == '=' })[0])
			if len(out) == 0 && (name == "self" || name == "cls") {
				out = []string{}
				continue
			}
			out = append(out, strings.TrimLeft(name, "*"))
		default:
			name := strings.TrimSpace(strings.Split(p, "=")[0])
			out = append(out, name)
		}
	}
	return out, true
}

var (
	reLineComment  = regexp.MustCompile(`//[^\n]*`)
	reBlockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	reHashComment  = regexp.MustCompile(`#[^\n]*`)
)

func stripComments(s, lang string) string {
	if lang == "python" {
		return reHashComment.ReplaceAllString(s, "")
	}
	return reLineComment.ReplaceAllString(reBlockComment.ReplaceAllString(s, ""), "")
}

// closing returns the index of the parenthesis that closes the one at
// open in s, or -1.
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
