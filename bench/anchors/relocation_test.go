package anchorsbench

import (
	"bytes"
	"context"
	"fmt"
	"go/format"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"io/fs"
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
)

// TestRelocation is the relocation benchmark. From real code (the Go
// source tree, the Python standard library, an npm TypeScript package) it
// anchors every function and method, applies scripted edits — rename
// (with every reference in the corpus), move to another file, both,
// delete, change of body — verifies every anchor and prints precision and
// recall of relocation and the accuracy of statuses; then it reformats
// every file (re-indentation, comments, gofmt) and counts the anchors
// reported as anything but valid.
//
//	LORE_BENCH=1 go test ./bench/anchors -run Relocation -v
//
// LORE_BENCH_TS names a directory of TypeScript sources (default: the
// src/ of rxjs unpacked by `npm pack rxjs@7.8.2` into npmts under the
// OS temp dir), LORE_BENCH_JS one of JavaScript sources, whose methods
// are mostly properties of object literals (default: the src/ of jQuery
// unpacked by `npm pack jquery@3.7.1` into npmjs under the OS temp dir).
func TestRelocation(t *testing.T) {
	if os.Getenv("LORE_BENCH") == "" {
		t.Skip("set LORE_BENCH=1")
	}
	ts := os.Getenv("LORE_BENCH_TS")
	if ts == "" {
		ts = filepath.Join(os.TempDir(), "npmts", "package", "src")
	}
	js := os.Getenv("LORE_BENCH_JS")
	if js == "" {
		js = filepath.Join(os.TempDir(), "npmjs", "package", "src")
	}
	corpora := []struct {
		name, root, ext string
		files           int
	}{
		{"go", filepath.Join(goroot(t), "src"), ".go", 400},
		{"python", pythonLib(), ".py", 250},
		{"typescript", ts, ".ts", 250},
		{"javascript", js, ".js", 250},
	}
	var rows []string
	for _, c := range corpora {
		files := loadCorpus(t, c.root, c.ext, c.files)
		if len(files) == 0 {
			t.Logf("%s: no files under %s, skipped", c.name, c.root)
			continue
		}
		for _, editedOnly := range []bool{false, true} {
			for _, mode := range []runMode{withBase, noHistory, noHistoryNoSketch} {
				m := mutationRun(t, c.name, files, mode, editedOnly)
				rows = append(rows, m.row())
			}
		}
		f := formatRun(t, c.name, files)
		rows = append(rows, f...)
	}
	fmt.Println()
	fmt.Printf("%-46s %8s %8s %9s %9s %9s %10s %8s\n", "corpus / run", "anchors", "relocs", "precision", "recall", "status", "fmt-drift", "time")
	for _, r := range rows {
		fmt.Println(r)
	}
}

func pythonLib() string {
	m, _ := filepath.Glob("/usr/lib/python3*")
	sort.Strings(m)
	for i := len(m) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(m[i], "argparse.py")); err == nil {
			return m[i]
		}
	}
	return ""
}

// loadCorpus reads up to n files with extension ext under root, spread
// evenly over the sorted list, skipping tests, vendored code, testdata,
// generated and very large files.
func loadCorpus(t *testing.T, root, ext string, n int) map[string][]byte {
	if root == "" {
		return nil
	}
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if name == "testdata" || name == "vendor" || name == "test" || name == "tests" || name == "node_modules" ||
				name == "site-packages" || name == "dist-packages" || (strings.HasPrefix(name, ".") && p != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ext) && !strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, "test_") &&
			!strings.HasSuffix(name, ".d.ts") && !strings.HasPrefix(name, "z") {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	out := map[string][]byte{}
	step := max(1, len(paths)/n)
	for i := 0; i < len(paths) && len(out) < n; i += step {
		b, err := os.ReadFile(paths[i])
		if err != nil || len(b) > 200_000 || bytes.Contains(b, []byte("Code generated")) {
			continue
		}
		rel, _ := filepath.Rel(root, paths[i])
		out[filepath.ToSlash(rel)] = b
	}
	return out
}

type expectation struct {
	status anchors.Status
	change anchors.Change // for relocations
	to     string         // path::FQ for relocations
}

type metrics struct {
	name                    string
	anchors, expectedRelocs int
	reported, correct       int
	statusOK                int
	secs                    float64
	wrong                   []string
}

func (m metrics) row() string {
	p, r := 1.0, 1.0
	if m.reported > 0 {
		p = float64(m.correct) / float64(m.reported)
	}
	if m.expectedRelocs > 0 {
		r = float64(m.correct) / float64(m.expectedRelocs)
	}
	return fmt.Sprintf("%-46s %8d %8d %9.3f %9.3f %9.3f %10s %7.1fs", m.name, m.anchors, m.expectedRelocs, p, r,
		float64(m.statusOK)/float64(max(1, m.anchors)), "-", m.secs)
}

// changedFiles lists, in order, the paths whose content differs between
// before and after, or that only one of them has.
func changedFiles(before, after map[string][]byte) []string {
	var out []string
	for p, b := range before {
		if a, ok := after[p]; !ok || !bytes.Equal(a, b) {
			out = append(out, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func newSrc(t *testing.T, files map[string][]byte) *anchors.Source {
	fsys := fstest.MapFS{}
	for p, b := range files {
		fsys[p] = &fstest.MapFile{Data: b}
	}
	s, err := anchors.NewSource(fsys, anchors.SourceOptions{MaxFileSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func callable(k string) bool {
	return k == analyzer.KindFunction || k == analyzer.KindMethod || k == analyzer.KindConstructor
}

// anchorable lists the function and method symbols of every file whose
// FQName is unique in its file.
func anchorable(t *testing.T, src *anchors.Source, files map[string][]byte) map[string][]analyzer.Symbol {
	ctx := context.Background()
	out := map[string][]analyzer.Symbol{}
	for p := range files {
		f, err := src.File(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for _, s := range f.Symbols {
			count[s.FQName]++
		}
		for _, s := range f.Symbols {
			if callable(s.Kind) && count[s.FQName] == 1 {
				out[p] = append(out[p], s)
			}
		}
	}
	return out
}

type mutation struct {
	kind string // rename, move, move+rename, delete, body
	sym  analyzer.Symbol
	name string // new name
	dest string // new path
}

// runMode says what the verifier has besides the edited files.
type runMode int

const (
	withBase          runMode = iota // Options.Base holds the original files
	noHistory                        // no Base: only the anchors' baselines
	noHistoryNoSketch                // no Base, anchors without a sketch (recorded by older versions)
)

// mutationRun edits the corpus and verifies its anchors. editedOnly
// anchors only the edited symbols, so that no anchor left in place holds
// a look-alike of a deleted or relocated symbol.
func mutationRun(t *testing.T, corpus string, files map[string][]byte, mode runMode, editedOnly bool) metrics {
	ctx := context.Background()
	start := nowSecs()
	before := newSrc(t, files)
	syms := anchorable(t, before, files)
	lang := ""
	for p := range files {
		if f, _ := before.File(ctx, p); f != nil && f.Lang != "" {
			lang = f.Lang
			break
		}
	}
	// Names used by exactly one symbol in the corpus can be renamed with
	// every reference.
	nameCount := map[string]int{}
	for p := range files {
		f, _ := before.File(ctx, p)
		for _, s := range f.Symbols {
			nameCount[s.Name]++
		}
	}
	rng := rand.New(rand.NewSource(1))
	kinds := []string{"rename", "move", "move+rename", "delete", "body"}
	var muts []mutation
	paths := sortedKeys(files)
	k := 0
	for _, p := range paths {
		f, _ := before.File(ctx, p)
		leaves := leafCallables(f.Symbols, syms[p])
		rng.Shuffle(len(leaves), func(i, j int) { leaves[i], leaves[j] = leaves[j], leaves[i] })
		taken := 0
		var used [][2]int
		for _, s := range leaves {
			if taken == 2 {
				break
			}
			if overlaps(used, s.StartLine, s.EndLine) || len(s.Name) < 3 || nameCount[s.Name] != 1 {
				continue
			}
			kind := kinds[k%len(kinds)]
			_, fq, _ := strings.Cut(s.FQName, "::")
			nested := strings.Contains(fq, "::")
			if strings.HasPrefix(kind, "move") && nested && lang != "go" {
				kind = "rename" // a method cannot leave its class
			}
			if kind == "body" && !bodyEditable(f.Src, s, lang) {
				kind = "delete"
			}
			k++
			m := mutation{kind: kind, sym: s}
			if strings.Contains(kind, "rename") {
				m.name = newName(s.Name, lang)
			}
			if strings.HasPrefix(kind, "move") {
				m.dest = movedPath(p)
			}
			muts = append(muts, m)
			used = append(used, [2]int{s.StartLine - 1, s.EndLine + 1})
			taken++
		}
	}
	after := applyMutations(files, muts, lang)
	afterSrc := newSrc(t, after)

	// Expectations.
	exp := map[string]expectation{}
	spoiled := map[string]bool{}
	shapes := map[string]string{}
	for _, m := range muts {
		shapes[m.sym.FQName] = m.sym.Shape
	}
	for _, m := range muts {
		s := m.sym
		_, fq, _ := strings.Cut(s.FQName, "::")
		switch m.kind {
		case "rename":
			exp[s.FQName] = expectation{anchors.Valid, anchors.ChangeRenamed, s.Path + "::" + replaceLast(fq, m.name)}
		case "move":
			exp[s.FQName] = expectation{anchors.Valid, anchors.ChangeMoved, m.dest + "::" + fq}
		case "move+rename":
			exp[s.FQName] = expectation{anchors.Valid, anchors.ChangeMovedRenamed, m.dest + "::" + replaceLast(fq, m.name)}
		case "delete":
			exp[s.FQName] = expectation{status: anchors.Invalid}
		case "body":
			exp[s.FQName] = expectation{status: anchors.Drifted}
		}
	}
	// Drop expectations that the script itself spoiled (a rename that also
	// hit the name of the target's type, say).
	for k, e := range exp {
		if e.to == "" {
			continue
		}
		p, _, _ := strings.Cut(e.to, "::")
		f, err := afterSrc.File(ctx, p)
		n := 0
		if err == nil {
			for _, s := range f.Symbols {
				if s.FQName == e.to {
					n++
				}
			}
		}
		if n != 1 {
			delete(exp, k)
			spoiled[k] = true
			continue
		}
		// A relocated body that also changed (it called a renamed
		// function) is drift.
		for _, s := range f.Symbols {
			if s.FQName != e.to {
				continue
			}
			toks := analyzer.ShapeCanonical.Stream(f.Lang, f.Src).Tokens(s.StartLine, s.EndLine)
			old := lastSeg(k)
			for i, tk := range toks {
				if tk == s.Name {
					toks[i] = old
				}
			}
			if analyzer.ShapeCanonical.Shape(toks) != shapes[k] {
				e.status = anchors.Drifted
				exp[k] = e
			}
		}
	}
	var as []anchors.Anchor
	var truth []expectation
	for _, p := range paths {
		af, _ := afterSrc.File(ctx, p)
		for _, s := range syms[p] {
			a, err := anchors.Baseline(ctx, before, anchors.Anchor{Symbol: s.FQName})
			if err != nil {
				t.Fatalf("baseline %s: %v", s.FQName, err)
			}
			if spoiled[s.FQName] {
				continue
			}
			if mode == noHistoryNoSketch {
				a.Sketch = ""
			}
			e, ok := exp[s.FQName]
			if !ok && editedOnly {
				continue
			}
			if !ok { // untouched by the script: its text may still change (a renamed callee)
				var now []analyzer.Symbol
				for _, x := range af.Symbols {
					if x.FQName == s.FQName {
						now = append(now, x)
					}
				}
				if len(now) != 1 {
					continue
				}
				e = expectation{status: anchors.Valid}
				if now[0].Shape != a.Shape {
					e.status = anchors.Drifted
				}
			}
			as = append(as, a)
			truth = append(truth, e)
		}
	}
	opts := anchors.Options{}
	name := corpus + " edits, no history"
	switch mode {
	case withBase:
		opts.Base = before
		changed := changedFiles(files, after) // as the hook and CI know them
		opts.Changed = func(context.Context) []string { return changed }
		name = corpus + " edits, Base=before"
	case noHistoryNoSketch:
		name = corpus + " edits, no history, no sketch"
	}
	if editedOnly {
		name = strings.Replace(name, "edits", "edited only", 1)
	}
	v, err := anchors.NewVerifier(afterSrc, opts)
	if err != nil {
		t.Fatal(err)
	}
	rs := v.VerifyAll(ctx, as)
	m := metrics{name: name, anchors: len(as)}
	for i, r := range rs {
		e := truth[i]
		if e.change != "" {
			m.expectedRelocs++
		}
		if r.Status == e.status {
			m.statusOK++
		}
		relocated := r.To != nil && (r.Change == anchors.ChangeMoved || r.Change == anchors.ChangeRenamed || r.Change == anchors.ChangeMovedRenamed)
		if relocated {
			m.reported++
			got := r.To.FQName
			if e.change != "" && got == e.to && r.Change == e.change {
				m.correct++
			} else {
				m.wrong = append(m.wrong, fmt.Sprintf("false relocation %s → %s (%s, want %s %s): %s", as[i].Symbol, got, r.Change, e.status, e.to, r.Reason))
			}
		} else if e.change != "" {
			m.wrong = append(m.wrong, fmt.Sprintf("missed %s %s → %s: got %s/%s %.2f: %s %v", e.change, as[i].Symbol, e.to, r.Status, r.Change, r.Confidence, r.Reason, r.Candidates))
		} else if r.Status != e.status {
			m.wrong = append(m.wrong, fmt.Sprintf("status %s: got %s/%s, want %s: %s", as[i].Symbol, r.Status, r.Change, e.status, r.Reason))
		}
	}
	m.secs = nowSecs() - start
	for i, w := range m.wrong {
		if i == 25 {
			t.Logf("%s: … %d more", name, len(m.wrong)-25)
			break
		}
		t.Logf("%s: %s", name, w)
	}
	return m
}

// bodyEditable reports whether a statement can be added at the end of
// s's body: a block closed by a brace on its own line, or an indented
// Python body.
func bodyEditable(src []byte, s analyzer.Symbol, lang string) bool {
	lines := strings.Split(string(src), "\n")
	if s.EndLine > len(lines) || s.EndLine-s.StartLine < 2 {
		return false
	}
	last := lines[s.EndLine-1]
	if lang == "python" {
		first := lines[s.StartLine-1]
		ind := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
		return ind(last) > ind(first) && !strings.HasSuffix(strings.TrimSpace(last), "\\")
	}
	return strings.TrimSpace(last) == "}"
}

func lastSeg(fq string) string {
	if i := strings.LastIndex(fq, "::"); i >= 0 {
		return fq[i+2:]
	}
	return fq
}

func sortedKeys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// leafCallables are the candidates for editing: anchorable callables
// with no other symbol inside them.
func leafCallables(all, anchorable []analyzer.Symbol) []analyzer.Symbol {
	var out []analyzer.Symbol
	for _, s := range anchorable {
		leaf := true
		for _, o := range all {
			if o.FQName != s.FQName && o.StartLine >= s.StartLine && o.EndLine <= s.EndLine &&
				!(o.StartLine == s.StartLine && o.EndLine == s.EndLine) {
				leaf = false
				break
			}
		}
		if leaf {
			out = append(out, s)
		}
	}
	return out
}

func overlaps(used [][2]int, s, e int) bool {
	for _, u := range used {
		if s <= u[1] && e >= u[0] {
			return true
		}
	}
	return false
}

func newName(old, lang string) string {
	if lang == "python" {
		return old + "_renamed"
	}
	return old + "Renamed"
}

func movedPath(p string) string {
	ext := path.Ext(p)
	return strings.TrimSuffix(p, ext) + "_moved" + ext
}

func replaceLast(fq, name string) string {
	if i := strings.LastIndex(fq, "::"); i >= 0 {
		return fq[:i+2] + name
	}
	return name
}

// applyMutations edits a copy of files: symbols are cut, changed or moved
// bottom-up within each file; renames then replace the name as a word in
// every file.
func applyMutations(files map[string][]byte, muts []mutation, lang string) map[string][]byte {
	out := map[string][]byte{}
	for p, b := range files {
		out[p] = b
	}
	byFile := map[string][]mutation{}
	for _, m := range muts {
		byFile[m.sym.Path] = append(byFile[m.sym.Path], m)
	}
	moved := map[string][]string{}
	for p, ms := range byFile {
		sort.Slice(ms, func(i, j int) bool { return ms[i].sym.StartLine > ms[j].sym.StartLine })
		lines := strings.SplitAfter(string(out[p]), "\n")
		for _, m := range ms {
			s, e := m.sym.StartLine-1, m.sym.EndLine
			text := strings.Join(lines[s:e], "")
			switch m.kind {
			case "move", "move+rename":
				moved[m.dest] = append([]string{text}, moved[m.dest]...)
				lines = append(lines[:s:s], lines[e:]...)
			case "delete":
				lines = append(lines[:s:s], lines[e:]...)
			case "body":
				last := lines[e-1]
				indent := last[:len(last)-len(strings.TrimLeft(last, " \t"))]
				var stmt string
				switch lang {
				case "go":
					stmt = indent + "\t_ = 12345\n"
				case "python":
					stmt = indent + "_lore_bench = 12345\n"
					// Python: the last line is a statement; add after it.
					lines = append(lines[:e:e], append([]string{stmt}, lines[e:]...)...)
					continue
				default:
					stmt = indent + "  void 12345;\n"
				}
				lines = append(lines[:e-1:e-1], append([]string{stmt}, lines[e-1:]...)...)
			}
		}
		out[p] = []byte(strings.Join(lines, ""))
	}
	for dest, texts := range moved {
		var b strings.Builder
		if lang == "go" {
			src := string(files[goSourceOf(dest)])
			if m := regexp.MustCompile(`(?m)^package \w+`).FindString(src); m != "" {
				b.WriteString(m + "\n\n")
			}
		}
		for _, t := range texts {
			b.WriteString(t)
			b.WriteString("\n")
		}
		out[dest] = []byte(b.String())
	}
	for _, m := range muts {
		if m.name == "" {
			continue
		}
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(m.sym.Name) + `\b`)
		for p, b := range out {
			if bytes.Contains(b, []byte(m.sym.Name)) {
				out[p] = re.ReplaceAll(b, []byte(m.name))
			}
		}
	}
	return out
}

func goSourceOf(moved string) string {
	return strings.TrimSuffix(moved, "_moved.go") + ".go"
}

// --- formatting-only changes -------------------------------------------

func formatRun(t *testing.T, corpus string, files map[string][]byte) []string {
	ctx := context.Background()
	var variants []struct {
		name  string
		files map[string][]byte
	}
	switch {
	case strings.HasPrefix(corpus, "go"):
		reindented, commented := map[string][]byte{}, map[string][]byte{}
		gofmted := map[string][]byte{}
		for p, b := range files {
			ri := goReindent(b)
			reindented[p] = ri
			commented[p] = goComment(ri)
			if g, err := format.Source(commented[p]); err == nil {
				gofmted[p] = g
			} else {
				gofmted[p] = commented[p]
			}
		}
		variants = append(variants, struct {
			name  string
			files map[string][]byte
		}{"re-indented", reindented}, struct {
			name  string
			files map[string][]byte
		}{"re-indented+comments", commented}, struct {
			name  string
			files map[string][]byte
		}{"gofmt of that", gofmted})
	case corpus == "python":
		variants = append(variants, struct {
			name  string
			files map[string][]byte
		}{"half indent+comments", pyReformat(t, files)})
	default:
		variants = append(variants, struct {
			name  string
			files map[string][]byte
		}{"double indent+comments", jsReformat(files)})
	}
	before := newSrc(t, files)
	syms := anchorable(t, before, files)
	var as []anchors.Anchor
	for _, p := range sortedKeys(files) {
		for _, s := range syms[p] {
			a, err := anchors.Baseline(ctx, before, anchors.Anchor{Symbol: s.FQName})
			if err == nil {
				as = append(as, a)
			}
		}
		if a, err := anchors.Baseline(ctx, before, anchors.Anchor{File: p}); err == nil {
			as = append(as, a)
		}
	}
	var rows []string
	for _, vr := range variants {
		start := nowSecs()
		changed := 0
		for p := range files {
			if !bytes.Equal(files[p], vr.files[p]) {
				changed++
			}
		}
		src := newSrc(t, vr.files)
		v, err := anchors.NewVerifier(src, anchors.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rs := v.VerifyAll(ctx, as)
		drift := 0
		for i, r := range rs {
			if r.Status != anchors.Valid {
				drift++
				if drift <= 10 {
					t.Logf("%s %s: %s drift on %s: %s/%s %s", corpus, vr.name, as[i].Spec(), as[i].Spec(), r.Status, r.Change, r.Reason)
				}
			}
		}
		rows = append(rows, fmt.Sprintf("%-46s %8d %8s %9s %9s %9s %10d %7.1fs", corpus+" "+vr.name+fmt.Sprintf(" (%d files)", changed),
			len(as), "-", "-", "-", "-", drift, nowSecs()-start))
	}
	return rows
}

// goReindent prints a Go file with spaces instead of tabs (width 3): a
// formatting-only change that keeps raw strings intact.
func goReindent(src []byte) []byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		return src
	}
	var b bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces, Tabwidth: 3}
	if err := cfg.Fprint(&b, fset, f); err != nil {
		return src
	}
	return b.Bytes()
}

// goComment appends a comment to every line that ends with an opening
// brace.
func goComment(src []byte) []byte {
	fset := token.NewFileSet()
	file := fset.AddFile("x.go", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	var at []int // offsets after "{" tokens that end their line
	for {
		pos, tok, _ := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.LBRACE {
			off := file.Offset(pos) + 1
			if off < len(src) && src[off] == '\n' {
				at = append(at, off)
			}
		}
	}
	var b bytes.Buffer
	prev := 0
	for _, off := range at {
		b.Write(src[prev:off])
		b.WriteString(" // lore-bench: reformatted")
		prev = off
	}
	b.Write(src[prev:])
	return b.Bytes()
}

func pyReformat(t *testing.T, files map[string][]byte) map[string][]byte {
	in, out := t.TempDir(), t.TempDir()
	var names []string
	for p, b := range files {
		dst := filepath.Join(in, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(dst), 0o755)
		os.WriteFile(dst, b, 0o644)
		names = append(names, p)
	}
	sort.Strings(names)
	if _, err := run("python3", append([]string{"pyfmt.py", in, out}, names...)...); err != nil {
		t.Fatalf("pyfmt: %v", err)
	}
	res := map[string][]byte{}
	for _, p := range names {
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		res[p] = b
	}
	return res
}

// jsReformat doubles the indentation of every line and comments every
// line ending in "{", outside template literals and block comments;
// files whose tokens change are left as they were.
func jsReformat(files map[string][]byte) map[string][]byte {
	out := map[string][]byte{}
	for p, b := range files {
		var sb strings.Builder
		inTemplate, inBlock := false, false
		for _, line := range strings.SplitAfter(string(b), "\n") {
			safe := !inTemplate && !inBlock
			body := strings.TrimLeft(line, " ")
			if safe {
				line = strings.Repeat(" ", 2*(len(line)-len(body))) + body
				if t := strings.TrimRight(line, "\r\n"); strings.HasSuffix(t, "{") && !strings.Contains(t, "//") {
					line = t + " /* lore-bench */" + line[len(t):]
				}
			}
			sb.WriteString(line)
			if strings.Count(body, "`")%2 == 1 {
				inTemplate = !inTemplate
			}
			if strings.Contains(body, "/*") && !strings.Contains(body[strings.LastIndex(body, "/*"):], "*/") {
				inBlock = true
			} else if inBlock && strings.Contains(body, "*/") {
				inBlock = false
			}
		}
		nb := []byte(sb.String())
		if analyzer.ShapeOf("typescript", nb) != analyzer.ShapeOf("typescript", b) {
			nb = b
		}
		out[p] = nb
	}
	return out
}
