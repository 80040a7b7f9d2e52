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
		if l.grammar != nil && len(queries.Files(l.Name)) == 0 && l.wordImports == nil {
			t.Errorf("language %s has no query files", l.Name)
		}
		if l.tags {
			// all of the language's files as one query, and only the
			// captures tags.go knows
			if _, _, err := l.compiled(); err != nil {
				t.Errorf("language %s: %v", l.Name, err)
			}
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

// TestQueriesCompileOnce shows that a table compiles a language's queries
// only when a file of the language is parsed, and once for every parser
// that shares the table (a long-running server keeps one table).
func TestQueriesCompileOnce(t *testing.T) {
	table := NewTable()
	for _, l := range table.Languages() {
		if l.query != nil {
			t.Fatalf("%s: compiled before any file of it was parsed", l.Name)
		}
	}
	var first *sitter.Query
	for range 3 {
		p := NewParser(table)
		if _, err := p.Parse("a.rb", []byte("class A\n  def f; end\nend\n")); err != nil {
			t.Fatal(err)
		}
		p.Close()
		q := table.Lookup("ruby").query
		if q == nil || (first != nil && q != first) {
			t.Fatalf("ruby's query: %p, first %p: compiled again", q, first)
		}
		first = q
	}
	for _, l := range table.Languages() {
		if l.Name != "ruby" && l.query != nil {
			t.Errorf("%s: compiled though no file of it was parsed", l.Name)
		}
	}
}
