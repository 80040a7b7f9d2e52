package analyzer

import (
	"bytes"
	"errors"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/lorehq/lore/queries"
)

// TestQueriesCompile compiles every embedded query file against its
// language's grammar and reports failures as queries/<lang>/<file>:row:col.
func TestQueriesCompile(t *testing.T) {
	table := NewTable()
	for _, lang := range queries.Languages() {
		l := table.Lookup(lang)
		if l == nil || l.grammar == nil {
			t.Errorf("queries/%s: no tree-sitter language of that name in the table", lang)
			continue
		}
		for _, name := range queries.Files(lang) {
			src, err := queries.Read(lang, name)
			if err != nil {
				t.Fatal(err)
			}
			q, err := sitter.NewQuery(src, l.grammar())
			if err != nil {
				var qe *sitter.QueryError
				row, col := 1, 1
				if errors.As(err, &qe) {
					row, col = position(src, int(qe.Offset))
				}
				t.Errorf("queries/%s/%s:%d:%d: %v", lang, name, row, col, err)
				continue
			}
			q.Close()
		}
	}
	for _, l := range table.Languages() {
		if l.grammar != nil && len(queries.Files(l.Name)) == 0 && l.calls == nil {
			t.Errorf("language %s has no query files", l.Name)
		}
	}
}

func position(src []byte, off int) (row, col int) {
	if off > len(src) {
		off = len(src)
	}
	row = bytes.Count(src[:off], []byte{'\n'}) + 1
	col = off - bytes.LastIndexByte(src[:off], '\n')
	return row, col
}

func TestTriggered(t *testing.T) {
	py := [][]byte{[]byte("import_module"), []byte("__import__")}
	for _, c := range []struct {
		src         string
		trig        [][]byte
		first, last uint32
		ok          bool
	}{
		{"x = 1\n", py, 0, 0, false},
		{"a\nb = __import__('x')\n", py, 1, 1, true},
		{"# import_module\n\n\nm = __import__(\n 'x')\n", py, 0, 3, true},
		{"__import__\nimport_module\n__import__\n", py, 0, 2, true},
		{"anything\n", nil, 0, ^uint32(0) - 1, true},
	} {
		first, last, ok := triggered(c.trig, []byte(c.src))
		if first != c.first || last != c.last || ok != c.ok {
			t.Errorf("triggered(%q) = %d, %d, %v; want %d, %d, %v", c.src, first, last, ok, c.first, c.last, c.ok)
		}
	}
}
