package analyzer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"golang.org/x/tools/txtar"
)

// TestNodeMatchesSitter compares every node of the fixtures' trees as
// node reads it (one C call per child list, a cursor, the alias of extras
// cleared) with go-tree-sitter's Node, one call per question: type,
// extent, flags, children, fields, parents and previous siblings.
func TestNodeMatchesSitter(t *testing.T) {
	table := NewTable()
	n := 0
	eachFixtureFile(t, func(_ string, f txtar.File) {
		if l := table.ForPath(f.Name); l != nil && l.grammar != nil {
			n += compareTrees(t, l, f.Name, f.Data)
		}
	})
	t.Logf("%d nodes compared", n)
}

// TestNodeMatchesSitterCorpus is TestNodeMatchesSitter over the npm corpus
// of TestOracleTypeScript (rxjs and @types/node) and three packages of the
// Python standard library.
func TestNodeMatchesSitterCorpus(t *testing.T) {
	corpusTest(t)
	dir := tsOracleDir()
	roots := []string{filepath.Join(dir, "node_modules", "rxjs", "src"), filepath.Join(dir, "node_modules", "@types", "node")}
	if lib, err := pythonStdlib(); err == nil {
		roots = append(roots, filepath.Join(lib, "asyncio"), filepath.Join(lib, "email"), filepath.Join(lib, "json"))
	}
	table := NewTable()
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			t.Logf("%s: not there, left out", root)
			continue
		}
		n := 0
		err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			l := table.ForPath(p)
			if l == nil || l.grammar == nil {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			n += compareTrees(t, l, p, src)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d nodes compared", root, n)
	}
}

func compareTrees(t *testing.T, l *Language, name string, src []byte) int {
	t.Helper()
	tsl, _, err := l.compiled()
	if err != nil {
		t.Fatal(err)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(tsl)
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	var f forest
	f.reset(l)
	sroot := tree.RootNode()
	count := 0
	var walk func(s *sitter.Node, n *node, path string)
	walk = func(s *sitter.Node, n *node, path string) {
		count++
		if got, want := describe(n), describeSitter(s); got != want {
			t.Errorf("%s %s:\n got %s\nwant %s", name, path, got, want)
			return
		}
		for i := 0; i < int(s.ChildCount()); i++ {
			sc, nc := s.Child(i), n.Child(i)
			if got, want := n.FieldNameForChild(i), s.FieldNameForChild(i); got != want {
				t.Errorf("%s %s/%d: field %q, want %q", name, path, i, got, want)
			}
			if i > 0 {
				if got, want := describe(nc.PrevSibling()), describeSitter(sc.PrevSibling()); got != want {
					t.Errorf("%s %s/%d: previous sibling %s, want %s", name, path, i, got, want)
				}
			}
			walk(sc, nc, fmt.Sprintf("%s/%d", path, i))
		}
		for field := range l.fields {
			if got, want := describe(n.ChildByFieldName(field)), describeSitter(s.ChildByFieldName(field)); got != want {
				t.Errorf("%s %s: field %s is %s, want %s", name, path, field, got, want)
			}
		}
	}
	walk(sroot, f.adopt(sroot), "")
	// Nodes reached from the C side: parents and descendants.
	for o := 0; o+1 < len(src); o += 97 {
		at := pointAt(src, o)
		s := sroot.NamedDescendantForPointRange(at, at)
		n := f.adopt(sroot).NamedDescendantForPointRange(at, at)
		if got, want := describe(n), describeSitter(s); got != want {
			t.Errorf("%s: descendant at %d %s, want %s", name, o, got, want)
		}
		if s != nil && n != nil {
			if got, want := describe(n.Parent()), describeSitter(s.Parent()); got != want {
				t.Errorf("%s: parent of descendant at %d %s, want %s", name, o, got, want)
			}
		}
	}
	return count
}

func pointAt(src []byte, o int) sitter.Point {
	row, col := 0, 0
	for _, c := range src[:o] {
		if c == '\n' {
			row, col = row+1, 0
		} else {
			col++
		}
	}
	return sitter.Point{Row: uint32(row), Column: uint32(col)}
}

func describe(n *node) string {
	if n == nil {
		return "nil"
	}
	return fmt.Sprintf("%s %d-%d %v-%v named=%v missing=%v error=%v haserror=%v kids=%d named=%d",
		n.Type(), n.StartByte(), n.EndByte(), n.StartPoint(), n.EndPoint(), n.IsNamed(), n.IsMissing(), n.IsError(), n.HasError(),
		n.ChildCount(), n.NamedChildCount())
}

func describeSitter(n *sitter.Node) string {
	if n == nil {
		return "nil"
	}
	return fmt.Sprintf("%s %d-%d %v-%v named=%v missing=%v error=%v haserror=%v kids=%d named=%d",
		n.Type(), n.StartByte(), n.EndByte(), n.StartPoint(), n.EndPoint(), n.IsNamed(), n.IsMissing(), n.IsError(), n.HasError(),
		n.ChildCount(), n.NamedChildCount())
}

// TestForestTrim parses a file of more nodes than the forest keeps slabs
// for, then a small one: both read right, and the large one's memory is
// let go.
func TestForestTrim(t *testing.T) {
	var big strings.Builder
	for i := range 15000 {
		fmt.Fprintf(&big, "export const a%d = f(%d, [%d]);\n", i, i, i)
	}
	p := NewParser(nil)
	defer p.Close()
	f, err := p.Parse("big.ts", []byte(big.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Symbols) != 15000 || f.Symbols[14999].Name != "a14999" || f.Symbols[14999].StartLine != 15000 {
		t.Fatalf("big file: %d symbols, last %+v", len(f.Symbols), f.Symbols[len(f.Symbols)-1])
	}
	if n := len(p.forest.slabs); n > 64 {
		t.Errorf("%d slabs kept after a large file", n)
	}
	f, err = p.Parse("small.ts", []byte("export class A {\n  m() { return 1 }\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(len(f.Symbols), " ", f.Symbols[1].FQName); got != "2 small.ts::A::m" {
		t.Errorf("small file after a large one: %s", got)
	}
}
