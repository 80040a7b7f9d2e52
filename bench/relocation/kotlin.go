package main

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
)

// RefactoringMiner's Kotlin names, read as lore names Kotlin symbols:
//
//   - a class a.b.C is in a .kt file of a/b: C.kt, or another file of
//     the package's directory that declares it; a.b.C.D is C's nested D;
//     a Java class (the oracle's commits mix Java and Kotlin, and convert
//     one into the other) is in C.java, its parameters named "name Type"
//     as in the Java oracle;
//   - a.b.File.module (or a.b.FileKt) is the top level of a/b/File.kt:
//     as a class, the whole file; as a method's class, its top-level
//     functions;
//   - an unnamed companion object (a.b.C.Companion) has no symbol of its
//     own in lore: its functions are named under C;
//   - an extension function Recv<T>.f is Recv::f, under the class it is
//     declared in, if any.

// resolveKotlin finds e among the Kotlin files of paths (see resolve).
func resolveKotlin(ctx context.Context, files *anchors.Source, paths []string, e entity, changed map[string]bool) (target, error) {
	segs := strings.Split(e.Class, ".")
	n := len(segs)
	if e.Method == "" && segs[n-1] == "Companion" {
		return target{}, fmt.Errorf("%s: lore has no symbol for an unnamed companion object", e)
	}
	var kept []string
	for _, s := range segs {
		if s != "Companion" {
			kept = append(kept, s)
		}
	}
	segs, n = kept, len(kept)
	if n == 0 {
		return target{}, fmt.Errorf("%s: no file for the class", e)
	}
	var found []target
	var why error
	try := func(ps []string, fq []string) {
		for _, p := range ps {
			x := e
			if strings.HasSuffix(p, ".java") {
				x = javaEntity(e)
			}
			t, err := lookup(ctx, files, p, fq, x)
			if err != nil {
				why = err
				continue
			}
			found = append(found, t)
		}
	}
	// A file's top level: File.module (FileKt below, when no class has
	// that name).
	if n > 1 && segs[n-1] == "module" {
		try(pathsNamed(paths, strings.Join(segs[:n-1], "/"), []string{".kt"}, false), nil)
		return pick(found, why, e, changed)
	}
	// The Kotlin oracle spells packages as the directories are: paths
	// are matched with their case (unlike pathsEnding's second try).
	for k := n; k >= 1 && len(found) == 0; k-- {
		fq := segs[k-1:]
		named := pathsNamed(paths, strings.Join(segs[:k], "/"), exts["kotlin"], false)
		try(named, fq)
		if len(found) > 0 || k == 1 {
			continue
		}
		// Another file of the package's directory that declares the
		// outermost class.
		for _, p := range filesIn(paths, strings.Join(segs[:k-1], "/"), ".kt") {
			if slices.Contains(named, p) || !declares(ctx, files, p, fq[0]) {
				continue
			}
			try([]string{p}, fq)
		}
	}
	if len(found) == 0 && n > 1 && strings.HasSuffix(segs[n-1], "Kt") {
		stem := strings.Join(segs[:n-1], "/") + "/" + strings.TrimSuffix(segs[n-1], "Kt")
		try(pathsNamed(paths, stem, []string{".kt"}, false), nil)
	}
	return pick(found, why, e, changed)
}

// kotlinMethod returns the segments of lore's name for a Kotlin function
// RefactoringMiner names name: "f", or for an extension function
// "Recv<T>.f" (also "a.b.Recv?.f"), "Recv" and "f": lore names an extension
// under the simple name of its receiver's type.
func kotlinMethod(name string) []string {
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '<':
			depth++
		case r == '>':
			depth--
		case depth == 0 && r != ' ':
			b.WriteRune(r)
		}
	}
	s := b.String()
	i := strings.LastIndex(s, ".")
	if i < 0 {
		return []string{name}
	}
	recv := strings.TrimSuffix(s[:i], "?")
	if j := strings.LastIndex(recv, "."); j >= 0 {
		recv = recv[j+1:]
	}
	return []string{recv, s[i+1:]}
}

// filesIn returns the paths with extension ext directly in a directory
// whose path ends with dir.
func filesIn(paths []string, dir, ext string) []string {
	var out []string
	for _, p := range paths {
		if d := path.Dir(p); (d == dir || strings.HasSuffix(d, "/"+dir)) && strings.HasSuffix(p, ext) {
			out = append(out, p)
		}
	}
	return out
}

// javaEntity is e as the Java oracle writes it: its parameters' types
// erased.
func javaEntity(e entity) entity {
	x := e
	x.Params = nil
	for _, p := range e.Params {
		_, t, _ := strings.Cut(p, " ")
		x.Params = append(x.Params, javaErasure(t))
	}
	return x
}

// renamedClass returns class as the commit's class relocations name it on
// the other side (before: true, its name before them), and whether one
// did: RefactoringMiner names a renamed method's class as it is after the
// commit, also when the class itself was renamed or moved
// (leakcanary.internal.LeakStatusTest was ReachabilityTest). A nested
// class follows its outer one.
func renamedClass(c *commit, class string, before bool) (string, bool) {
	for _, r := range c.Refs {
		if !r.Valid || !strings.HasSuffix(r.Type, "Class") || r.Before.Class == "" {
			continue
		}
		from, to := r.After.Class, r.Before.Class
		if !before {
			from, to = to, from
		}
		if class == from {
			return to, true
		}
		if rest, ok := strings.CutPrefix(class, from+"."); ok && !strings.HasSuffix(from, ".module") {
			return to + "." + rest, true
		}
	}
	return "", false
}

// declares reports whether file p has a symbol named name at its top
// level.
func declares(ctx context.Context, files *anchors.Source, p, name string) bool {
	f, err := files.File(ctx, p)
	if err != nil {
		return false
	}
	for _, s := range f.Symbols {
		if s.FQName == p+"::"+name {
			return true
		}
	}
	return false
}

// kotlinParam reads one Kotlin parameter, as declared ("@A vararg x:
// Map<K, V>? = null", source) or as RefactoringMiner writes it ("x
// Map<K, V>"), into its name and its type reduced to what tells
// overloads apart (Map).
func kotlinParam(p string, source bool) (name, typ string) {
	p = strings.TrimSpace(p)
	if source {
		p = strings.TrimSpace(reAnnotation.ReplaceAllString(p, ""))
		n, t, ok := cutTop(p, ':')
		if !ok {
			return "", ""
		}
		f := strings.Fields(n)
		if len(f) > 0 {
			name = f[len(f)-1]
		}
		typ = t
	} else {
		name, typ, _ = strings.Cut(p, " ")
	}
	typ = strings.TrimSpace(typ)
	if typ == "Inferred" { // RefactoringMiner could not read it
		return name, ""
	}
	return name, strings.TrimRight(javaErasure(strings.ReplaceAll(typ, "->", "=")), "?")
}

// cutTop cuts s at the first sep outside brackets.
func cutTop(s string, sep byte) (before, after string, found bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<' || c == '(' || c == '[' || c == '{':
			depth++
		case c == '>' && i > 0 && s[i-1] == '-':
		case c == '>' || c == ')' || c == ']' || c == '}':
			depth--
		case c == sep && depth == 0:
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// resolveRenamed resolves e, a side of a refactoring of c (the before
// side, or the after one), with its class named as the commit's class
// relocations name it on that side (see renamedClass); ok is false when
// none names it.
func resolveRenamed(ctx context.Context, c *commit, e entity, before bool, files *anchors.Source, paths []string, changed map[string]bool) (t target, err error, ok bool) {
	class, ok := renamedClass(c, e.Class, before)
	if !ok {
		return target{}, nil, false
	}
	e.Class = class
	t, err = resolve(ctx, files, paths, c.Lang, e, changed)
	return t, err, true
}

// kotlinAccessed returns the property of f (at path p) that the accessor
// segs names (lore's name of a function, segments), and its name: the
// oracle names a property's getter getFoo (isFoo for isFoo) and its
// setter setFoo, where lore has the property foo, getter and setter
// included. None when there is no such property.
func kotlinAccessed(f *anchors.File, p string, segs []string) ([]analyzer.Symbol, string) {
	n := len(segs)
	m := segs[n-1]
	var names []string
	switch {
	case strings.HasPrefix(m, "is") && len(m) > 2:
		names = []string{m}
	case (strings.HasPrefix(m, "get") || strings.HasPrefix(m, "set")) && len(m) > 3:
		rest := m[3:]
		names = []string{strings.ToLower(rest[:1]) + rest[1:]}
		if strings.HasPrefix(m, "set") {
			names = append(names, "is"+rest)
		}
	}
	for _, name := range names {
		full := p + "::" + strings.Join(append(slices.Clone(segs[:n-1]), name), "::")
		var same []analyzer.Symbol
		for _, s := range f.Symbols {
			if s.FQName == full && (s.Kind == analyzer.KindField || s.Kind == analyzer.KindVariable) {
				same = append(same, s)
			}
		}
		if len(same) > 0 {
			return same, full
		}
	}
	return nil, p + "::" + strings.Join(segs, "::")
}
