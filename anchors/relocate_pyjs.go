package anchors

import (
	"bytes"
	"context"
	"path"
	"strings"

	"github.com/lorehq/lore/analyzer"
)

// Rules of relocation that read idioms of Python and JavaScript.

// pyjsLang reports a language whose idioms the rules of this file read.
func pyjsLang(lang string) bool {
	return lang == "python" || jsLang(lang)
}

// madeFunction reports a method of o's type that became a function of
// its module under its name (or a function that became a method), in
// its own file or the one that file was renamed to: a helper taken out
// of the type, its receiver now a parameter (TimeScale's
// parseTime(label) became parseTime(axis, label)). In JavaScript also
// in another file when the old outer is an object of functions, not a
// class (helpers.addResizeListener of core.helpers.js became
// addResizeListener of platform.dom.js): a member of a namespace is a
// function by another spelling. As telling as a move that kept the
// kind.
func madeFunction(o origin, s analyzer.Symbol) bool {
	if o.file == nil || !pyjsLang(o.file.Lang) {
		return false
	}
	k := o.a.Kind
	if k == s.Kind || k != analyzer.KindMethod && k != analyzer.KindFunction || s.Kind != analyzer.KindMethod && s.Kind != analyzer.KindFunction {
		return false
	}
	// A function nested in another is no function of its module.
	_, sfq, _ := cutFQ(s.FQName)
	if k == analyzer.KindMethod && outerName(sfq) != "" || k == analyzer.KindFunction && o.outer != "" {
		return false
	}
	if s.Path == o.a.Path() || s.Path == o.renamedTo {
		return true
	}
	return jsLang(o.file.Lang) && k == analyzer.KindMethod && o.outer != "" && !declaresClass(o.file, o.outer)
}

// declaresClass reports whether f declares outer (a qualified name
// inside f) as a class or an interface.
func declaresClass(f *File, outer string) bool {
	for _, s := range sameNamed(f, f.Path+"::"+outer) {
		if s.Kind == analyzer.KindClass || s.Kind == analyzer.KindInterface {
			return true
		}
	}
	return false
}

// markRedirects marks the leading candidates whose name took the place
// of o's in the code around it (see redirected), with history only.
func (v *Verifier) markRedirects(ctx context.Context, o origin, cands []candidate) {
	if !o.known() || v.opts.Base == nil || !pyjsLang(o.file.Lang) {
		return
	}
	var before []string // o's file without o's symbol, read once
	for i := range cands {
		if i == 3 {
			break
		}
		cands[i].redirected = v.redirected(ctx, o, cands[i], &before)
	}
}

// redirected reports whether the file o's symbol left now names candidate
// c where it named o's symbol: o's name is gone from it (it was used
// there beside the declaration), c's name is used there more than before,
// and, when c is in another module, that file now imports c's name from
// c's module (Python). A reviewer reads the uses of the old name turned
// into uses of the new one as the symbol renamed (ProbeException raised
// by probe became Error, imported from _run). c must be new: uses turned
// to a symbol that was already there read as the old one replaced.
//
// *before caches the tokens of o's old file outside o's symbol.
//
// A candidate of o's own name in another module is redirected to when
// the file o's symbol left imports the name from that module: it kept
// using the symbol, from where it went (vuejs/core's effect.ts imports
// Link from dep.ts, where the interface became a class).
func (v *Verifier) redirected(ctx context.Context, o origin, c candidate, before *[]string) bool {
	if c.sym.Name == "" || v.hadName(ctx, c.file, c.sym) {
		return false
	}
	f := v.fileOrNil(ctx, o.a.Path())
	if f == nil || f.Lang != o.file.Lang {
		return false
	}
	if c.sameName {
		return c.sym.Path != f.Path && importsFrom(f, analyzer.Tokens(f.Lang, f.Src), c.sym.Name, c.sym.Path)
	}
	if *before == nil {
		*before = outsideTokens(o.file, o.sym.StartLine, o.sym.EndLine)
	}
	skipStart, skipEnd := 0, -1
	if c.sym.Path == f.Path {
		skipStart, skipEnd = c.sym.StartLine, c.sym.EndLine
	}
	now := outsideTokens(f, skipStart, skipEnd)
	if countOf(*before, o.name) == 0 || countOf(now, o.name) > 0 || countOf(now, c.sym.Name) <= countOf(*before, c.sym.Name) {
		return false
	}
	return c.sym.Path == f.Path || importsFrom(f, now, c.sym.Name, c.sym.Path)
}

// importsFrom reports whether the tokens toks of f import name from the
// module of file target (see pyImports and jsImports).
func importsFrom(f *File, toks []string, name, target string) bool {
	if f.Lang == "python" {
		return pyImports(f.Path, toks, name, target)
	}
	return jsLang(f.Lang) && jsImports(f.Path, toks, name, target)
}

// jsImports reports whether the JavaScript tokens toks of file p import
// (or re-export) name from the module of file target by a relative path:
// `import { name } from './mod'`, `import { type name } from '../mod'`,
// `export { name } from './mod/index'`. A name imported under another
// binds that one; a default import names no declaration, and a package's
// name is no file.
func jsImports(p string, toks []string, name, target string) bool {
	for i := 0; i < len(toks); i++ {
		if toks[i] != "import" && toks[i] != "export" {
			continue
		}
		j, named := i+1, false
		for ; j < len(toks) && toks[j] != "from" && toks[j] != ";" && toks[j] != "import" && toks[j] != "export"; j++ {
			if toks[j] == name && (toks[j-1] == "{" || toks[j-1] == "," || toks[j-1] == "type") && (j+1 == len(toks) || toks[j+1] != "as") {
				named = true
			}
		}
		if !named || j+1 >= len(toks) || toks[j] != "from" {
			continue
		}
		spec, ok := unquoteJS(toks[j+1])
		if !ok || !strings.HasPrefix(spec, ".") {
			continue
		}
		mod := path.Join(path.Dir(p), spec)
		if t := jsModule(target); t == jsModule(mod) || t == mod+"/index" {
			return true
		}
	}
	return false
}

// jsModule is a JavaScript file's path without its extension, as an
// import names it.
func jsModule(p string) string {
	for _, ext := range []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"} {
		if strings.HasSuffix(p, ext) && !strings.HasSuffix(p, ".d"+ext) {
			return strings.TrimSuffix(p, ext)
		}
	}
	return p
}

// unquoteJS returns the text of a string token without escapes.
func unquoteJS(t string) (string, bool) {
	if len(t) < 2 || t[0] != t[len(t)-1] || t[0] != '\'' && t[0] != '"' || strings.Contains(t, "\\") {
		return "", false
	}
	return t[1 : len(t)-1], true
}

// outsideTokens returns the tokens of f outside lines start..end (none
// skipped when end < start).
func outsideTokens(f *File, start, end int) []string {
	if end < start {
		return analyzer.Tokens(f.Lang, f.Src)
	}
	out := analyzer.RangeTokens(f.Lang, f.Src, 1, start-1)
	if n := bytes.Count(f.Src, []byte("\n")) + 1; end < n {
		out = append(out, analyzer.RangeTokens(f.Lang, f.Src, end+1, n)...)
	}
	return out
}

func countOf(toks []string, x string) int {
	n := 0
	for _, t := range toks {
		if t == x {
			n++
		}
	}
	return n
}

// pyImports reports whether the Python tokens toks of file p import name
// from the module of file target: `from .mod import name` (relative to
// p's package) or `from pkg.mod import name`.
func pyImports(p string, toks []string, name, target string) bool {
	for i := 0; i < len(toks); i++ {
		if toks[i] != "from" {
			continue
		}
		dots, j := 0, i+1
		for ; j < len(toks) && (toks[j] == "." || toks[j] == ".."); j++ {
			dots += len(toks[j])
		}
		var mod []string
		for ; j < len(toks) && toks[j] != "import"; j++ {
			if toks[j] != "." {
				mod = append(mod, toks[j])
			}
		}
		if j == len(toks) || len(mod) == 0 {
			continue
		}
		named := false
		for k := j + 1; k < len(toks); k++ {
			t := toks[k]
			if t == "(" || t == ")" || t == "," {
				continue
			}
			if !isIdent(t) || t == "from" || t == "import" {
				break
			}
			if t == "as" {
				k++ // the local name is another
				continue
			}
			if t == name && (k+1 == len(toks) || toks[k+1] != "as") {
				named = true
			}
		}
		if !named {
			continue
		}
		rel := strings.Join(mod, "/")
		if dots > 0 {
			dir := path.Dir(p)
			for d := 1; d < dots; d++ {
				dir = path.Dir(dir)
			}
			rel = path.Join(dir, rel)
			if target == rel+".py" || target == rel+"/__init__.py" {
				return true
			}
			continue
		}
		if strings.HasSuffix("/"+target, "/"+rel+".py") || strings.HasSuffix("/"+target, "/"+rel+"/__init__.py") {
			return true
		}
	}
	return false
}

// markWrappers marks the candidates that wrap the anchored code afresh
// (with history, in Python and JavaScript): new, named with the old name
// whole and more (set_add for add), and holding a function of the old
// name nested in them, which is a candidate itself. A method turned
// into a function that defines it anew and binds it to the instance
// reads this way.
func (v *Verifier) markWrappers(ctx context.Context, o origin, cands []candidate) {
	if !o.known() || v.opts.Base == nil || !pyjsLang(o.file.Lang) || !distinctive(o.name) && len(o.name) < 3 {
		return
	}
	for i := range cands {
		c := &cands[i]
		if c.sameName || !callableKind(c.sym.Kind) || !holdsWords(o.name, c.sym.Name) || len(nestedIn(cands, *c)) == 0 {
			continue
		}
		c.wraps = !v.hadName(ctx, c.file, c.sym)
	}
}

// nestedIn lists the candidates of the old name nested in w.
func nestedIn(cands []candidate, w candidate) []int {
	var out []int
	for i, c := range cands {
		if c.sameName && c.sym.Path == w.sym.Path && strings.HasPrefix(c.sym.FQName, w.sym.FQName+"::") {
			out = append(out, i)
		}
	}
	return out
}

// wrapper picks the candidate to follow when one wraps the anchored
// code (see markWrappers), and how sure that is: the functions of the
// old name nested in it are its parts, not its rivals; its evidence is
// the best of its body's and theirs; a rival outside it that is about
// as good, or a second wrapper, leaves the choice to the person.
func wrapper(o origin, cands []candidate) (int, float64, bool) {
	w := -1
	for i, c := range cands {
		if !c.wraps || c.claimedBy != "" {
			continue
		}
		if w >= 0 {
			return -1, 0, false
		}
		w = i
	}
	if w < 0 {
		return -1, 0, false
	}
	parts := map[int]bool{w: true}
	like, top := cands[w].likeness(), cands[w].score
	for _, i := range nestedIn(cands, cands[w]) {
		parts[i] = true
		like, top = max(like, cands[i].likeness()), max(top, cands[i].score)
	}
	if like < 0.6 {
		return -1, 0, false
	}
	for i, c := range cands {
		if !parts[i] && c.claimedBy == "" && c.score >= top-closeGap {
			return -1, 0, false
		}
	}
	return w, round(min(0.99, max(top, toldConfidence(like, 0.6)))), true
}

// tinyValueElsewhere reports a Python or JavaScript variable or constant
// of a few tokens followed under another name into another file (not the
// one its file was renamed to): such one-liners look alike everywhere
// (var helpers = require('../helpers/index') is
// var LinearScaleBase = require('./scale.linearbase') once the names are
// set aside), whatever else points there; a candidate at most, unless
// the new name says the same words (infinity became INFINITY).
func tinyValueElsewhere(a Anchor, o origin, b candidate, toks []string) bool {
	k := b.sym.Kind
	if !pyjsLang(b.file.Lang) || b.sameName || k != analyzer.KindVariable && k != analyzer.KindConstant || nameSimilarity(o.name, b.sym.Name) >= 0.5 {
		return false
	}
	if b.sym.Path == a.Path() || b.sym.Path == o.renamedTo {
		return false
	}
	return tinyPair(o, toks)
}
