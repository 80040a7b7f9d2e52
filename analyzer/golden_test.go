package analyzer

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/lorehq/lore/graph"
)

var update = flag.Bool("update", false, "rewrite golden sections of testdata/analyzer/*.txtar")

const goldenName = "want"

// TestGolden indexes each fixture repository in testdata/analyzer and
// compares its symbols, imports (with resolved targets) and diagnostics
// with the archive's "want" section.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/analyzer/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := renderFixture(t, ar)
			var want string
			idx := -1
			for i, f := range ar.Files {
				if f.Name == goldenName {
					want, idx = string(f.Data), i
				}
			}
			if *update {
				if idx < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: goldenName})
					idx = len(ar.Files) - 1
				}
				ar.Files[idx].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if d := lineDiff(want, got); d != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", file, d)
			}
		})
	}
}

// renderFixture runs Update over the archive (minus its golden section)
// with a real in-memory store and renders what the index holds.
func renderFixture(t *testing.T, ar *txtar.Archive) string {
	t.Helper()
	src := &txtar.Archive{}
	for _, f := range ar.Files {
		if f.Name != goldenName {
			src.Files = append(src.Files, f)
		}
	}
	fsys, err := txtar.FS(src)
	if err != nil {
		t.Fatal(err)
	}
	store, err := graph.Open("", graph.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sum, err := Update(context.Background(), store, fsys, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	err = Files(store, func(f IndexedFile) error {
		if f.Lang == "" {
			return nil
		}
		fmt.Fprintf(&b, "file %s %s\n", f.Path, f.Lang)
		syms, err := Symbols(store, f.Path)
		if err != nil {
			return err
		}
		for _, s := range syms {
			fmt.Fprintf(&b, "  sym %s %s %d-%d\n", strings.TrimPrefix(s.FQName, f.Path), s.Kind, s.StartLine, s.EndLine)
		}
		imps, err := Imports(store, f.Path)
		if err != nil {
			return err
		}
		for _, im := range imps {
			fmt.Fprintf(&b, "  imp %d %s %q", im.Line, im.Kind, im.Spec)
			if len(im.Names) > 0 {
				fmt.Fprintf(&b, " names=%s", strings.Join(im.Names, ","))
			}
			fmt.Fprintf(&b, " -> [%s]\n", strings.Join(im.Targets, " "))
		}
		var edges []graph.Edge
		err = store.View(func(tx *graph.Tx) error {
			var err error
			edges, err = tx.Edges("file:"+f.Path, graph.Out, graph.Filter{Types: []graph.EdgeType{graph.Imports}})
			return err
		})
		if err != nil && !errors.Is(err, graph.ErrNotFound) {
			return err
		}
		for _, e := range edges {
			fmt.Fprintf(&b, "  edge %s %s\n", e.Type, e.To)
		}
		diags, err := Diagnostics(store, f.Path)
		if err != nil {
			return err
		}
		for _, d := range diags {
			fmt.Fprintf(&b, "  err %d:%d %s\n", d.Line, d.Col, d.Message)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "summary files=%d parsed=%d symbols=%d error_files=%d skipped=%d\n",
		sum.Files, sum.Parsed, sum.Symbols, sum.ErrorFiles, len(sum.Skipped))
	return b.String()
}

// lineDiff is a small line diff in (-want +got) form; "" when equal.
func lineDiff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// longest common subsequence table
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out.WriteString("  " + a[i] + "\n")
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			out.WriteString("+ " + b[j] + "\n")
			j++
		default:
			out.WriteString("- " + a[i] + "\n")
			i++
		}
	}
	return out.String()
}
