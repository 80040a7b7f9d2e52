package roundtrip

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

// anchorsPerRun is how many symbols each formatter run anchors.
const anchorsPerRun = 400

// corpus is a sample of a tree of real code.
type corpus struct {
	root  string
	files []string // slash paths under root
	under string   // the directory of the copy it goes to ("": the root)
	parts []corpus // a joined corpus's parts
}

// join puts the files of cs under their own directories of one corpus.
func join(cs ...corpus) corpus {
	var out corpus
	for _, c := range cs {
		for _, f := range c.files {
			out.files = append(out.files, path.Join(c.under, f))
		}
	}
	out.root = "(joined)"
	out.parts = cs
	return out
}

// sampleCorpus lists the files of root that match ext (tests, test data,
// vendored and declaration files left out), keeps those at even (sample
// 0) or odd (sample 1) positions and, of those, about n spread evenly.
func sampleCorpus(root string, exts []string, sample, n int) corpus {
	c := corpus{root: root}
	c.files = halve(listCorpus(root, exts), sample, n)
	return c
}

// halve keeps the files at even (sample 0) or odd (sample 1) positions
// of all, sorted, and of those about n spread evenly.
func halve(all []string, sample, n int) []string {
	sort.Strings(all)
	var half []string
	for i := sample; i < len(all); i += 2 {
		half = append(half, all[i])
	}
	var out []string
	step := max(1, (len(half)+n-1)/n)
	for i := 0; i < len(half); i += step {
		out = append(out, half[i])
	}
	return out
}

// listCorpus lists the files of root that match ext, as sampleCorpus
// reads them.
func listCorpus(root string, exts []string) []string {
	var all []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			switch {
			case p == root:
			case strings.HasPrefix(name, "test"), name == "tests", name == "testdata", name == "vendor",
				name == "node_modules", name == "site-packages", name == "lib2to3", name == "idle_test", strings.HasPrefix(name, "."):
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".d.ts") || strings.HasSuffix(name, "_test.go") || strings.Contains(name, ".test.") || strings.Contains(name, ".spec.") {
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(name, e) {
				rel, _ := filepath.Rel(root, p)
				all = append(all, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return all
}

// copyTo copies the corpus files into dir.
func (c corpus) copyTo(t *testing.T, dir string) {
	t.Helper()
	for _, p := range c.parts {
		p.copyTo(t, dir)
	}
	if c.parts != nil {
		return
	}
	for _, f := range c.files {
		b, err := os.ReadFile(filepath.Join(c.root, f))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(c.under), filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// run is one formatter run over a corpus copy.
type run struct {
	name   string
	corpus corpus
	// format rewrites the files (slash paths) under dir.
	format func(t *testing.T, dir string, files []string)
	// extra files copied beside the sample (a crate's other modules).
	extra corpus
	// prepare, when not nil, rewrites the files before they are anchored.
	prepare func(t *testing.T, dir string, files []string)
	// values: anchor the variables and constants too, not only the
	// fields. Not for prettier's runs: tree-sitter's TypeScript cannot
	// read a type parameter's default in a call signature (effect's
	// Ordering.match), which cuts that constant's lines short where
	// prettier's line breaks then move its end.
	values bool
	// drifts are the anchors (by symbol) the formatter may make drift,
	// each with why: a rewrite lore cannot tell from a change.
	drifts map[string]string
}

// roundTrip anchors functions, methods, classes and fields of the corpus,
// and each of its files whole, runs the formatter, and requires every
// anchor valid, unchanged or reformatted.
func roundTrip(t *testing.T, r run) {
	t.Helper()
	if len(r.corpus.files) == 0 {
		t.Skipf("%s: no corpus files under %s", r.name, r.corpus.root)
	}
	ctx := context.Background()
	dir := t.TempDir()
	r.extra.copyTo(t, dir)
	r.corpus.copyTo(t, dir)
	if r.prepare != nil {
		r.prepare(t, dir, r.corpus.files)
	}
	before := map[string][]byte{}
	for _, f := range r.corpus.files {
		before[f], _ = os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
	}

	src, err := anchors.NewSource(source.Dir(dir), anchors.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names, values []string
	hadErrors := map[string]bool{}
	for _, p := range r.corpus.files {
		f, err := src.File(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		hadErrors[p] = len(f.Errors) > 0
		count := map[string]int{}
		for _, s := range f.Symbols {
			count[s.FQName]++
		}
		for _, s := range f.Symbols {
			switch s.Kind {
			case analyzer.KindFunction, analyzer.KindMethod, analyzer.KindConstructor, analyzer.KindClass:
				if count[s.FQName] == 1 {
					names = append(names, s.FQName)
				}
			case analyzer.KindField, analyzer.KindVariable, analyzer.KindConstant:
				if count[s.FQName] == 1 && (s.Kind == analyzer.KindField || r.values) {
					values = append(values, s.FQName)
				}
			}
		}
	}
	src.Close()
	// Evenly spread: anchorsPerRun callables and classes, and half as
	// many fields (the columns gofmt aligns, the parameters prettier
	// breaks onto lines of their own).
	var as []anchors.Anchor
	src, _ = anchors.NewSource(source.Dir(dir), anchors.SourceOptions{})
	for _, sample := range []struct {
		names []string
		n     int
	}{{names, anchorsPerRun}, {values, anchorsPerRun / 2}} {
		step := max(1.0, float64(len(sample.names))/float64(sample.n))
		for i := 0; i < sample.n && int(float64(i)*step) < len(sample.names); i++ {
			a, err := anchors.Baseline(ctx, src, anchors.Anchor{Symbol: sample.names[int(float64(i)*step)]})
			if err != nil {
				t.Fatal(err)
			}
			as = append(as, a)
		}
	}
	symbols := len(as)
	// Each file whole, too: a formatter rewrites files, not symbols
	// (clang-format sorts includes, rustfmt its use declarations).
	for _, p := range r.corpus.files {
		a, err := anchors.Baseline(ctx, src, anchors.Anchor{File: p})
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	src.Close()
	// The same baselines through the index, which keeps no shapes: the
	// symbol's file is parsed for them.
	src = indexedSource(t, dir)
	for _, want := range as {
		if want.Symbol == "" {
			continue
		}
		got, err := anchors.Baseline(ctx, src, anchors.Anchor{Symbol: want.Symbol})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: baseline through the index %+v, parsed %+v", r.name, got, want)
		}
	}
	src.Close()
	if symbols < anchorsPerRun/2 {
		t.Logf("%s: only %d symbols to anchor", r.name, symbols)
	}

	r.format(t, dir, r.corpus.files)
	changed := 0
	for f, b := range before {
		now, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if !bytes.Equal(now, b) {
			changed++
		}
	}

	src, err = anchors.NewSource(source.Dir(dir), anchors.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	v, err := anchors.NewVerifier(src, anchors.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs := v.VerifyAll(ctx, as)
	changes := map[anchors.Change]int{}
	bad, unparsed, expected := 0, 0, 0
	for i, res := range rs {
		changes[res.Change]++
		if res.Status == anchors.Valid && (res.Change == anchors.ChangeNone || res.Change == anchors.ChangeReformatted) {
			continue
		}
		// A parser that cannot read the formatted file loses its symbols:
		// a finding about the parser, not about fingerprints.
		// So does one that could not read the original cleanly: where
		// its recovery puts a symbol's lines moves with the formatting
		// (a macro tree-sitter's C grammar misreads).
		if f, err := src.File(ctx, as[i].Path()); err == nil && len(f.Errors) > 0 && !hadErrors[as[i].Path()] {
			unparsed++
			t.Logf("%s: %s: %s %s: the formatted file has syntax errors (%s:%d: %s), the original none",
				r.name, as[i].Spec(), res.Status, res.Change, f.Path, f.Errors[0].Line, f.Errors[0].Message)
			continue
		} else if hadErrors[as[i].Path()] {
			unparsed++
			t.Logf("%s: %s: %s %s: the original file has syntax errors already", r.name, as[i].Spec(), res.Status, res.Change)
			continue
		}
		if why, ok := r.drifts[cmp.Or(as[i].Symbol, as[i].File)]; ok {
			t.Logf("%s: %s: %s %s, as expected: %s", r.name, as[i].Spec(), res.Status, res.Change, why)
			expected++
			continue
		}
		bad++
		if bad <= 8 {
			t.Errorf("%s: %s: %s %s: %s%s", r.name, as[i].Spec(), res.Status, res.Change, res.Reason, tokenDiff(dir, before, as[i]))
		}
	}
	t.Logf("%s: %d anchors over %d files (%d reformatted): %d not valid, %d more lost to the parser; changes %v",
		r.name, len(as), len(r.corpus.files), changed, bad, unparsed, changes)
	if expected > 0 {
		t.Logf("%s: %d more not valid as expected (run.drifts)", r.name, expected)
	}
	// Verification through the index gives the same results.
	isrc := indexedSource(t, dir)
	defer isrc.Close()
	iv, err := anchors.NewVerifier(isrc, anchors.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, res := range iv.VerifyAll(ctx, as) {
		if res.Status != rs[i].Status || res.Change != rs[i].Change {
			t.Errorf("%s: %s: through the index %s %s, parsed %s %s", r.name, as[i].Spec(), res.Status, res.Change, rs[i].Status, rs[i].Change)
		}
	}
	if changed == 0 {
		t.Errorf("%s: the formatter changed no file", r.name)
	}
}

// tokenDiff shows where the canonical tokens of a's symbol (or file)
// before and after formatting part.
func tokenDiff(dir string, before map[string][]byte, a anchors.Anchor) string {
	path := a.Path()
	now, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	if err != nil {
		return ""
	}
	p := analyzer.NewParser(nil)
	defer p.Close()
	// By the text as well: a C header may be read as C++.
	lang := p.Table().ForFile(path, before[path])
	if lang == nil {
		return ""
	}
	toks := func(src []byte) []string {
		if a.Symbol == "" {
			return analyzer.ShapeCanonical.Stream(lang.Name, src).Tokens(0, 0)
		}
		f, err := p.Parse(path, src)
		if err != nil {
			return nil
		}
		for _, s := range f.Symbols {
			if s.FQName == a.Symbol {
				return analyzer.ShapeCanonical.Stream(lang.Name, src).Tokens(s.StartLine, s.EndLine)
			}
		}
		return nil
	}
	x, y := toks(before[path]), toks(now)
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	ctx := func(ts []string) string {
		lo, hi := max(0, i-6), min(len(ts), i+6)
		return strings.Join(ts[lo:hi], " ")
	}
	return fmt.Sprintf("\n\tbefore …%s…\n\tafter  …%s…", ctx(x), ctx(y))
}

// tool finds a formatter: the named variable, then PATH, then the
// round-trip cache (.ci/run installs there).
func tool(t *testing.T, env, name string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	dirs := []string{filepath.Join(cacheDir(), "bin"), filepath.Join(cacheDir(), "node_modules", ".bin")}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".cargo", "bin")) // rustup's rustfmt
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("%s not found (set %s, or run .ci/run once to install it)", name, env)
	return ""
}

// cacheDir is where .ci/run installs formatters and npm corpora.
func cacheDir() string {
	if d := os.Getenv("LORE_ROUNDTRIP_CACHE"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "lore-roundtrip")
}

// formatEach runs cmd with args and the files appended, in dir.
func formatEach(cmd string, args ...string) func(t *testing.T, dir string, files []string) {
	return func(t *testing.T, dir string, files []string) {
		t.Helper()
		c := exec.Command(cmd, append(append([]string{}, args...), files...)...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Logf("%s: %v\n%s", filepath.Base(cmd), err, tail(out, 10))
		}
	}
}

func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// goModuleDir returns the module cache directory of a module lore depends
// on.
func goModuleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("module %s is not in the module cache (go mod download)", mod)
	}
	return dir
}

func TestGofumpt(t *testing.T) {
	gofumpt := tool(t, "LORE_ROUNDTRIP_GOFUMPT", "gofumpt")
	c := sampleCorpus(goModuleDir(t, "golang.org/x/tools"), []string{".go"}, 0, 80)
	roundTrip(t, run{name: "gofumpt -extra", corpus: c, format: formatEach(gofumpt, "-extra", "-w"), values: true, drifts: map[string]string{
		"internal/typesinternal/isnamed.go": "parameters grouped before a variadic one, which the stream leaves as written (goTypeStart)",
	}})
}

func TestGofmt(t *testing.T) {
	gofmt := tool(t, "LORE_ROUNDTRIP_GOFMT", "gofmt")
	c := sampleCorpus(goModuleDir(t, "golang.org/x/tools"), []string{".go"}, 0, 80)
	// The corpus is gofmt's already: anchor it printed with other settings
	// of go/printer's (spaces for tabs), then gofmt -s it.
	roundTrip(t, run{name: "gofmt -s", corpus: c, format: formatEach(gofmt, "-s", "-w"), values: true, prepare: func(t *testing.T, dir string, files []string) {
		for _, f := range files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			fset := token.NewFileSet()
			af, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
			if err != nil {
				continue
			}
			var b bytes.Buffer
			cfg := printer.Config{Mode: printer.UseSpaces, Tabwidth: 3}
			if cfg.Fprint(&b, fset, af) == nil {
				os.WriteFile(p, b.Bytes(), 0o644)
			}
		}
	}})
}

// npmPackage returns the directory of an npm package installed in the
// round-trip cache.
func npmPackage(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(cacheDir(), "node_modules", filepath.FromSlash(name))
	if _, err := os.Stat(filepath.Join(d, "package.json")); err != nil {
		t.Skipf("npm package %s is not installed in %s (run .ci/run once)", name, cacheDir())
	}
	return d
}

func TestPrettier(t *testing.T) {
	prettier := tool(t, "LORE_ROUNDTRIP_PRETTIER", "prettier")
	rxjs := sampleCorpus(filepath.Join(npmPackage(t, "rxjs"), "src"), []string{".ts"}, 0, 1000)
	rxjs.under = "rxjs"
	effect := sampleCorpus(filepath.Join(npmPackage(t, "effect"), "src"), []string{".ts"}, 0, 40)
	effect.under = "effect"
	c := join(rxjs, effect)
	for _, r := range []struct {
		name string
		args []string
	}{
		{"prettier --print-width 60 --trailing-comma all --no-semi --single-quote",
			[]string{"--print-width", "60", "--trailing-comma", "all", "--no-semi", "--single-quote"}},
		{"prettier --print-width 140 --trailing-comma none --semi --no-single-quote",
			[]string{"--print-width", "140", "--trailing-comma", "none", "--semi", "--no-single-quote"}},
	} {
		t.Run(r.args[1]+"-"+r.args[3], func(t *testing.T) {
			args := append([]string{"--no-config", "--log-level", "warn", "--write"}, r.args...)
			roundTrip(t, run{name: r.name, corpus: c, format: formatEach(prettier, args...), drifts: map[string]string{
				"effect/Types.ts": "parentheses prettier adds and removes in conditional types, which the stream keeps",
			}})
		})
	}
}

// TestPrettierJQuery formats jQuery's sources, which prettier never
// formatted (its own style: tabs, spaces inside parentheses, a name a line
// in long declarations), with prettier's defaults.
func TestPrettierJQuery(t *testing.T) {
	prettier := tool(t, "LORE_ROUNDTRIP_PRETTIER", "prettier")
	c := sampleCorpus(filepath.Join(npmPackage(t, "jquery"), "src"), []string{".js"}, 0, 200)
	args := []string{"--no-config", "--log-level", "warn", "--write"}
	roundTrip(t, run{name: "prettier (jQuery)", corpus: c, format: formatEach(prettier, args...), values: true})
}

// TestPrettierSemicolons formats TypeScript written without semicolons
// (mobx, Redux Toolkit, immer) with prettier's defaults, which write them
// and break long class headers.
func TestPrettierSemicolons(t *testing.T) {
	prettier := tool(t, "LORE_ROUNDTRIP_PRETTIER", "prettier")
	// The packages' sources are sampled as one tree of them.
	var cs []corpus
	var all []string
	for _, name := range []string{"@reduxjs/toolkit", "immer", "mobx"} {
		c := corpus{root: filepath.Join(npmPackage(t, name), "src"), under: name}
		for _, f := range listCorpus(c.root, []string{".ts", ".tsx"}) {
			all = append(all, path.Join(name, f))
		}
		cs = append(cs, c)
	}
	keep := map[string]bool{}
	for _, f := range halve(all, 0, 400) {
		keep[f] = true
	}
	for i, c := range cs {
		for _, f := range listCorpus(c.root, []string{".ts", ".tsx"}) {
			if keep[path.Join(c.under, f)] {
				cs[i].files = append(cs[i].files, f)
			}
		}
	}
	args := []string{"--no-config", "--log-level", "warn", "--write"}
	roundTrip(t, run{name: "prettier (no semicolons before)", corpus: join(cs...), format: formatEach(prettier, args...), values: true})
}

// TestPHPCodeSniffer fixes the PHP of Symfony's Console and String
// components (Debian's php-symfony-console) to the PSR-12 and PEAR
// standards with PHP_CodeSniffer's phpcbf.
func TestPHPCodeSniffer(t *testing.T) {
	phpcbf := tool(t, "LORE_ROUNDTRIP_PHPCBF", "phpcbf")
	c := phpCorpus(t)
	for _, std := range []string{"PSR12", "PEAR"} {
		t.Run(std, func(t *testing.T) {
			roundTrip(t, run{name: "phpcbf --standard=" + std, corpus: c, values: true,
				format: formatEach(phpcbf, "-q", "--no-cache", "--standard="+std)})
		})
	}
}

// phpCorpus is Symfony's Console and String components (Debian's
// php-symfony-console), or the PHP below $LORE_ROUNDTRIP_PHP: code the
// rules were not developed on.
func phpCorpus(t *testing.T) corpus {
	t.Helper()
	if root := os.Getenv("LORE_ROUNDTRIP_PHP"); root != "" {
		return sampleCorpus(root, []string{".php"}, 0, 400)
	}
	root := "/usr/share/php/Symfony/Component"
	if _, err := os.Stat(filepath.Join(root, "Console")); err != nil {
		t.Skipf("no PHP corpus: %v (Debian's php-symfony-console, installed by .ci/run)", err)
	}
	return sampleCorpus(root, []string{".php"}, 0, 200)
}

// TestPrettierPHP formats the same PHP with prettier's PHP plugin, which
// also writes array() as [], quotes as it prefers and long lists one
// element a line with a trailing comma.
func TestPrettierPHP(t *testing.T) {
	prettier := tool(t, "LORE_ROUNDTRIP_PRETTIER", "prettier")
	plugin := filepath.Join(npmPackage(t, "@prettier/plugin-php"), "src", "index.mjs")
	c := phpCorpus(t)
	roundTrip(t, run{name: "prettier (PHP)", corpus: c, values: true,
		format: formatEach(prettier, "--plugin", plugin, "--log-level", "warn", "--write")})
}

// TestPrettierJava formats a sample of the JDK's own sources (java.base,
// from the src.zip of a JDK: $LORE_ROUNDTRIP_JDK_SRC or the first JDK
// under /usr/lib/jvm that has one) with prettier's Java plugin.
func TestPrettierJava(t *testing.T) {
	prettier := tool(t, "LORE_ROUNDTRIP_PRETTIER", "prettier")
	plugin := filepath.Join(npmPackage(t, "prettier-plugin-java"), "dist", "index.mjs")
	root := jdkSources(t)
	c := sampleCorpus(root, []string{".java"}, 0, 80)
	for _, r := range []struct {
		name string
		args []string
	}{
		{"prettier-plugin-java --print-width 60", []string{"--print-width", "60"}},
		{"prettier-plugin-java --print-width 140", []string{"--print-width", "140"}},
	} {
		t.Run(r.args[1], func(t *testing.T) {
			args := append([]string{"--no-config", "--log-level", "warn", "--plugin", plugin, "--write"}, r.args...)
			roundTrip(t, run{name: r.name, corpus: c, format: formatEach(prettier, args...), values: true})
		})
	}
}

// TestGoogleJavaFormat formats the same sample with google-java-format
// (the jar npm's google-java-format package carries), which needs a JDK
// of version 21 or later: $LORE_ROUNDTRIP_JAVA, else the newest under
// /usr/lib/jvm.
func TestGoogleJavaFormat(t *testing.T) {
	jars, _ := filepath.Glob(filepath.Join(npmPackage(t, "google-java-format"), "lib", "google-java-format-*-all-deps.jar"))
	if len(jars) == 0 {
		t.Skip("no google-java-format jar in its npm package")
	}
	java := newJava(t, 21)
	c := sampleCorpus(jdkSources(t), []string{".java"}, 0, 80)
	args := []string{"-jar", jars[0], "--replace"}
	for _, m := range []string{"api", "code", "file", "parser", "tree", "util"} {
		args = append([]string{"--add-exports=jdk.compiler/com.sun.tools.javac." + m + "=ALL-UNNAMED"}, args...)
	}
	for _, r := range []struct {
		name string
		args []string
	}{
		{"google-java-format", nil},
		{"google-java-format --aosp", []string{"--aosp"}},
	} {
		t.Run(strings.TrimPrefix(r.name, "google-java-format"), func(t *testing.T) {
			roundTrip(t, run{name: r.name, corpus: c, format: formatEach(java, append(append([]string{}, args...), r.args...)...), values: true})
		})
	}
}

// newJava returns a java command of at least version min.
func newJava(t *testing.T, min int) string {
	t.Helper()
	cands := []string{os.Getenv("LORE_ROUNDTRIP_JAVA")}
	found, _ := filepath.Glob("/usr/lib/jvm/*/bin/java")
	cands = append(cands, found...)
	if p, err := exec.LookPath("java"); err == nil {
		cands = append(cands, p)
	}
	best, bestV := "", 0
	version := regexp.MustCompile(`version "(\d+)`)
	for _, c := range cands {
		if c == "" {
			continue
		}
		out, err := exec.Command(c, "-version").CombinedOutput()
		if err != nil {
			continue
		}
		m := version.FindSubmatch(out)
		if m == nil {
			continue
		}
		v := 0
		fmt.Sscan(string(m[1]), &v)
		if v > bestV {
			best, bestV = c, v
		}
	}
	if bestV < min {
		t.Skipf("no JDK %d or later found (set LORE_ROUNDTRIP_JAVA)", min)
	}
	return best
}

// jdkSources unpacks java.base's java/util and java/time from a JDK's
// src.zip into a directory kept in the round-trip cache.
func jdkSources(t *testing.T) string {
	t.Helper()
	zip := os.Getenv("LORE_ROUNDTRIP_JDK_SRC")
	if zip == "" {
		found, _ := filepath.Glob("/usr/lib/jvm/*/lib/src.zip")
		for _, f := range found {
			if _, err := os.Stat(f); err == nil {
				zip = f
				break
			}
		}
	}
	if zip == "" {
		t.Skip("no JDK src.zip under /usr/lib/jvm (apt-get install openjdk-17-source, or set LORE_ROUNDTRIP_JDK_SRC)")
	}
	dir := filepath.Join(cacheDir(), "jdk-src")
	if _, err := os.Stat(filepath.Join(dir, "java.base")); err != nil {
		tmp, err := os.MkdirTemp(cacheDir(), "jdk-src-")
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("unzip", "-q", "-o", zip, "java.base/java/util/*", "java.base/java/time/*", "-d", tmp).CombinedOutput()
		if err != nil {
			os.RemoveAll(tmp)
			t.Skipf("unzip %s: %v %s", zip, err, tail(out, 3))
		}
		if err := os.Rename(tmp, dir); err != nil {
			os.RemoveAll(tmp)
			if _, serr := os.Stat(filepath.Join(dir, "java.base")); serr != nil {
				t.Fatal(err) // not another run's unpacking, done first
			}
		}
	}
	return filepath.Join(dir, "java.base")
}

// pythonStdlib returns the standard library of the Python that runs
// black.
func pythonStdlib(t *testing.T, black string) string {
	t.Helper()
	py := pythonOf(black)
	out, err := exec.Command(py, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		t.Skipf("cannot find the standard library of %s: %v", py, err)
	}
	return strings.TrimSpace(string(out))
}

func TestBlack(t *testing.T) {
	black := tool(t, "LORE_ROUNDTRIP_BLACK", "black")
	c := sampleCorpus(pythonStdlib(t, black), []string{".py"}, 0, 80)
	for _, r := range []struct {
		name string
		args []string
	}{
		{"black -l 60", []string{"-l", "60"}},
		{"black -l 120 --skip-magic-trailing-comma", []string{"-l", "120", "--skip-magic-trailing-comma"}},
		// --preview splits long strings into adjacent pieces and joins
		// short ones, among its other rewrites.
		{"black -l 60 --preview", []string{"-l", "60", "--preview"}},
	} {
		t.Run(strings.Join(r.args, ""), func(t *testing.T) {
			roundTrip(t, run{name: r.name, corpus: c, format: formatEach(black, append([]string{"-q"}, r.args...)...), values: true})
		})
	}
	// Docstrings are documentation: rewording one changes no learning.
	t.Run("docstrings", func(t *testing.T) {
		edit, err := filepath.Abs(filepath.Join("testdata", "docedit.py"))
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, run{name: "docstrings reworded", corpus: c, format: formatEach(pythonOf(black), edit), values: true})
	})
}

// TestRuff formats the sample of TestBlack with ruff's formatter, which
// writes black's style with rules of its own (the expressions in an
// f-string's fields, the parentheses around a yield's tuple), from the
// WebAssembly build .ci/run installs with npm.
func TestRuff(t *testing.T) {
	node := tool(t, "LORE_ROUNDTRIP_NODE", "node")
	wasm := npmPackage(t, "@astral-sh/ruff-wasm-nodejs")
	script, err := filepath.Abs(filepath.Join("testdata", "ruff-format.js"))
	if err != nil {
		t.Fatal(err)
	}
	c := sampleCorpus(pythonStdlib(t, "python3"), []string{".py"}, 0, 80)
	for _, r := range []struct{ width, quotes string }{{"60", "double"}, {"120", "single"}} {
		t.Run(r.width+r.quotes, func(t *testing.T) {
			roundTrip(t, run{name: "ruff format, line length " + r.width + ", " + r.quotes + " quotes", corpus: c, format: formatEach(node, script, wasm, r.width, r.quotes), values: true})
		})
	}
}

// pythonOf returns the interpreter of a Python script (its #! line), or
// python3.
func pythonOf(script string) string {
	if b, err := os.ReadFile(script); err == nil && bytes.HasPrefix(b, []byte("#!")) {
		if line, _, _ := bytes.Cut(b[2:], []byte("\n")); len(bytes.Fields(line)) > 0 {
			return string(bytes.Fields(line)[0])
		}
	}
	return "python3"
}

func TestRustfmt(t *testing.T) {
	rustfmt := tool(t, "LORE_ROUNDTRIP_RUSTFMT", "rustfmt")
	root := "/usr/share/cargo/registry" // Debian's librust-*-dev sources
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no crate sources in %s (apt-get install librust-regex-dev …)", root)
	}
	c := sampleCorpus(root, []string{".rs"}, 0, 80)
	all := sampleCorpus(root, []string{".rs"}, 0, 1<<30)
	all.files = append(all.files, sampleCorpus(root, []string{".rs"}, 1, 1<<30).files...)
	for _, width := range []string{"60", "140"} {
		t.Run(width, func(t *testing.T) {
			roundTrip(t, run{name: "rustfmt max_width=" + width, corpus: c, extra: all, values: true,
				format: func(t *testing.T, dir string, files []string) {
					for _, f := range files {
						c := exec.Command(rustfmt, "--edition", crateEdition(root, f), "--config", "max_width="+width, f)
						c.Dir = dir
						if out, err := c.CombinedOutput(); err != nil {
							t.Logf("rustfmt %s: %v\n%s", f, err, tail(out, 4))
						}
					}
				}})
		})
	}
}

// crateEdition reads the edition of the crate that holds file (a path
// under root) from its Cargo.toml; 2015 when it names none.
func crateEdition(root, file string) string {
	crate, _, _ := strings.Cut(file, "/")
	b, err := os.ReadFile(filepath.Join(root, crate, "Cargo.toml"))
	if err != nil {
		return "2015"
	}
	if m := regexp.MustCompile(`(?m)^edition\s*=\s*"(\d+)"`).FindSubmatch(b); m != nil {
		return string(m[1])
	}
	return "2015"
}

// indexedSource indexes dir into a store on disk and returns its files
// read through that index.
func indexedSource(t *testing.T, dir string) *anchors.Source {
	t.Helper()
	st, err := graph.Open(t.TempDir(), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := analyzer.Update(context.Background(), st, source.Dir(dir), analyzer.Options{}); err != nil {
		t.Fatal(err)
	}
	src, err := anchors.NewSource(source.Dir(dir), anchors.SourceOptions{Index: st})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestClangFormat formats C with clang-format in styles other than the
// code's own: tree-sitter's runtime and the external scanners of the
// grammars go-tree-sitter vendors (lore's own parser dependency), without
// the generated parse tables, each text once (the module holds many
// copies of tree_sitter/parser.h).
func TestClangFormat(t *testing.T) {
	clangFormat := tool(t, "LORE_ROUNDTRIP_CLANG_FORMAT", "clang-format")
	clangFormatRuns(t, clangFormat, treeSitterC(t, 0), "LLVM", "{BasedOnStyle: Google, ColumnLimit: 60}", "GNU")
}

// clangFormatRuns runs clang-format over c once per style, each a subtest.
func clangFormatRuns(t *testing.T, clangFormat string, c corpus, styles ...string) {
	for _, style := range styles {
		name := strings.NewReplacer(" ", "", "{", "", "}", "", "BasedOnStyle:", "", ",", "-").Replace(style)
		t.Run(name, func(t *testing.T) {
			roundTrip(t, run{name: "clang-format -style=" + style, corpus: c, values: true,
				format: formatEach(clangFormat, "-i", "-style="+style)})
		})
	}
}

// heldOut returns the sample a test's environment variable asks for: 1,
// the held-out half, when it is "1", else 0, the development half.
func heldOut(env string) int {
	if os.Getenv(env) == "1" {
		return 1
	}
	return 0
}

// treeSitterC samples the C of go-tree-sitter's module: the runtime and
// the grammars' scanners, each text once. Generated parse tables
// (parser.c, and anything over 200 KB) are left out: no one anchors a
// learning to them.
func treeSitterC(t *testing.T, sample int) corpus {
	t.Helper()
	c := sampleCorpus(goModuleDir(t, "github.com/smacker/go-tree-sitter"), []string{".c", ".h"}, sample, 80)
	p := analyzer.NewParser(nil)
	defer p.Close()
	seen := map[string]bool{}
	return c.keep(func(f string, src []byte) bool {
		if seen[string(src)] || path.Base(f) == "parser.c" || len(src) > 200<<10 || p.Table().ForFile(f, src).Name != "c" {
			return false
		}
		seen[string(src)] = true
		return true
	})
}

// keep returns the corpus with only the files ok accepts.
func (c corpus) keep(ok func(file string, src []byte) bool) corpus {
	out := c
	out.files = nil
	for _, f := range c.files {
		if src, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(f))); err == nil && ok(f, src) {
			out.files = append(out.files, f)
		}
	}
	return out
}
