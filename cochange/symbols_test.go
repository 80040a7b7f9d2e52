package cochange_test

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/cochange"
)

// TestSymbolsAgainstGitDiffHunks grows a merge-based history of Go files
// (functions and methods edited inside their bodies and added, on topic
// branches merged with --no-ff) and compares Analyze's symbol pairs with
// a reference computed without lore's walk, diff or parser: the commits of
// git log --no-merges, each file's hunks from git diff -U0 against the
// first parent, and go/parser's function ranges (doc comment to closing
// brace) of both versions; a function changed when a hunk overlaps it.
func TestSymbolsAgainstGitDiffHunks(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs the git command")
	}
	dir := t.TempDir()
	clock := time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		d := clock.Format(time.RFC3339)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada",
			"GIT_COMMITTER_EMAIL=ada@example.com", "GIT_AUTHOR_DATE="+d, "GIT_COMMITTER_DATE="+d)
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("git %v: %v\n%s", args, err, stderr.String())
		}
		return out.String(), nil
	}
	must := func(s string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	rng := rand.New(rand.NewPCG(3, 11))
	files := []string{"a.go", "b.go", "c/d.go"}
	nfunc := 0
	funcText := func(file string, method bool) string {
		nfunc++
		name := fmt.Sprintf("F%d", nfunc)
		recv := ""
		if method {
			recv = "(t *T) "
		}
		return fmt.Sprintf("\n// %s does things.\nfunc %s%s() string {\n\tv := %q\n\treturn v\n}\n", name, recv, name, file+" "+name+" 0")
	}
	write := func(file, text string) {
		p := filepath.Join(dir, file)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must(git("init", "-q", "-b", "main"))
	for i, f := range files {
		text := "package x\n"
		if i == 0 {
			text += "\ntype T struct{}\n"
		}
		for k := range 4 {
			text += funcText(f, i == 0 && k%2 == 1)
		}
		write(f, text)
	}
	must(git("add", "-A"))
	must(git("commit", "-qm", "start"))
	revLine := regexp.MustCompile(`v := "([^"]*) (\d+)"`)
	edit := func() {
		n := 1 + rng.IntN(3)
		for range n {
			f := files[rng.IntN(len(files))]
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			if rng.IntN(6) == 0 {
				text += funcText(f, f == "a.go" && rng.IntN(2) == 0)
			} else {
				locs := revLine.FindAllStringSubmatchIndex(text, -1)
				l := locs[rng.IntN(len(locs))]
				rev, _ := strconv.Atoi(text[l[4]:l[5]])
				text = text[:l[4]] + strconv.Itoa(rev+1) + text[l[5]:]
			}
			write(f, text)
		}
		clock = clock.Add(time.Hour)
		must(git("add", "-A"))
		must(git("commit", "-qm", "edit"))
	}
	branches := []string{"main"}
	cur := "main"
	merges := 0
	for step := range 150 {
		switch op := rng.IntN(10); {
		case op < 6:
			b := branches[rng.IntN(len(branches))]
			if b != cur {
				must(git("checkout", "-q", b))
				cur = b
			}
			edit()
		case op < 8:
			b := fmt.Sprintf("topic%d", step)
			must(git("branch", b, branches[rng.IntN(len(branches))]))
			branches = append(branches, b)
		default:
			from := branches[rng.IntN(len(branches))]
			if from == "main" {
				continue
			}
			if cur != "main" {
				must(git("checkout", "-q", "main"))
				cur = "main"
			}
			clock = clock.Add(time.Hour)
			if _, err := git("merge", "-q", "--no-ff", "-m", "merge "+from, from); err != nil {
				must(git("merge", "--abort"))
				continue
			}
			merges++
		}
	}
	if cur != "main" {
		must(git("checkout", "-q", "main"))
	}

	parse, done := lore.NewSymbolParser()
	defer done()
	o := cochange.Options{FullHistory: true, NoRenames: true, MinRevs: 2, MinShared: 2, MinCoupling: 0.1, Symbols: parse}
	res, err := cochange.Analyze(context.Background(), nil, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	focus := map[string]bool{}
	for _, p := range res.Pairs {
		focus[p.A], focus[p.B] = true, true
	}

	// The reference.
	type key struct{ a, b string }
	revs, shared := map[string]int{}, map[key]int{}
	log := must(git("log", "--no-merges", "--no-renames", "--name-only", "--format=%x01%H"))
	commits := 0
	for _, block := range strings.Split(log, "\x01")[1:] {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		c, changed := lines[0], lines[1:]
		if len(changed) > cochange.DefaultMaxChangeset {
			continue
		}
		var syms []string
		for _, f := range changed {
			if f == "" || !focus[f] {
				continue
			}
			oldText, _ := git("show", c+"^:"+f) // missing in a root commit or when added
			newText, _ := git("show", c+":"+f)
			oldFuncs, newFuncs := goFuncs(t, oldText), goFuncs(t, newText)
			diff := ""
			if oldText == "" {
				diff = must(git("show", "-U0", "--format=", c, "--", f))
			} else {
				diff = must(git("diff", "-U0", c+"^", c, "--", f))
			}
			hit := map[string]bool{}
			for _, h := range hunkRE.FindAllStringSubmatch(diff, -1) {
				os0, oc, ns, nc := atoi(h[1]), countOf(h[2]), atoi(h[3]), countOf(h[4])
				for name, r := range oldFuncs {
					if oc > 0 && os0 <= r[1] && os0+oc-1 >= r[0] {
						hit[name] = true
					}
				}
				for name, r := range newFuncs {
					if nc > 0 && ns <= r[1] && ns+nc-1 >= r[0] {
						hit[name] = true
					}
				}
			}
			for name := range oldFuncs {
				if _, ok := newFuncs[name]; !ok {
					hit[name] = true
				}
			}
			for name := range newFuncs {
				if _, ok := oldFuncs[name]; !ok {
					hit[name] = true
				}
			}
			for name := range hit {
				syms = append(syms, f+"::"+name)
			}
		}
		if len(syms) == 0 || len(syms) > cochange.DefaultMaxChangeset {
			continue
		}
		commits++
		slices.Sort(syms)
		for i, a := range syms {
			revs[a]++
			for _, b := range syms[i+1:] {
				shared[key{a, b}]++
			}
		}
	}
	var want []string
	for k, n := range shared {
		ra, rb := revs[k.a], revs[k.b]
		score := float64(n) / (float64(ra+rb) / 2)
		if n >= o.MinShared && ra >= o.MinRevs && rb >= o.MinRevs && score >= o.MinCoupling {
			want = append(want, fmt.Sprintf("%s %s shared=%d revs=%d/%d", k.a, k.b, n, ra, rb))
		}
	}
	slices.Sort(want)
	var got []string
	for _, p := range res.SymbolPairs {
		got = append(got, fmt.Sprintf("%s %s shared=%d revs=%d/%d", p.A, p.B, p.Shared, p.RevsA, p.RevsB))
	}
	slices.Sort(got)
	t.Logf("%d branches, %d merges, %d non-merge commits; %d files in kept pairs; symbols changed in %d commits (reference %d); %d symbol pairs from the reference, %d from Analyze",
		len(branches), merges, res.Commits, len(focus), res.SymbolCommits, commits, len(want), len(got))
	if merges < 3 || len(want) == 0 {
		t.Errorf("the history needs merges and symbol pairs: %d merges, %d pairs", merges, len(want))
	}
	if res.SymbolCommits != commits || !slices.Equal(got, want) {
		t.Errorf("symbol pairs differ:\n--- reference\n%s\n--- Analyze\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

var hunkRE = regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// countOf reads a hunk's line count: absent means one.
func countOf(s string) int {
	if s == "" {
		return 1
	}
	return atoi(s)
}

// goFuncs returns the line ranges of the functions of a Go file, by name
// (Type::Method for methods), from its doc comment to its closing brace.
func goFuncs(t *testing.T, src string) map[string][2]int {
	t.Helper()
	out := map[string][2]int{}
	if src == "" {
		return out
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			typ := fd.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				name = id.Name + "::" + name
			}
		}
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		out[name] = [2]int{fset.Position(start).Line, fset.Position(fd.End()).Line}
	}
	return out
}
