package source_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/lorehq/lore/source"
)

// ChangedLines reads C git's diff: every hunk of every file, whatever the
// removed lines say. A removed Lua or SQL comment ("-- x") reads "--- x"
// in the diff and once ended the file's hunks there.
// A deleted file has no hunks.
func TestChangedLines(t *testing.T) {
	dir := repo(t)
	git(t, dir, "reset", "-q", "--hard")
	write(t, dir, "m.lua", "-- one\nlocal a = 1\n-- a/two\nlocal b = 2\n++ c\nlocal c = 3\n")
	write(t, dir, "q.sql", "-- keep\nselect 1;\n")
	write(t, dir, "old name.txt", "x\ny\nz\nw\nv\n")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "third")
	write(t, dir, "m.lua", "local a = 1\nlocal b = 2\nlocal c = 33\n")
	write(t, dir, "q.sql", "-- keep\nselect 2;\n")
	git(t, dir, "rm", "-q", "d/b.txt")
	git(t, dir, "mv", "old name.txt", "new name.txt")
	write(t, dir, "new name.txt", "x\ny\nz\nw\nV\n")
	git(t, dir, "add", ".")
	r, err := source.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.ChangedLines(context.Background(), source.DiffOptions{From: "HEAD", Staged: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]source.Hunk{
		"m.lua":        {{1, 1}, {1, 1}, {3, 3}}, // a deletion: the line after which lines went
		"q.sql":        {{2, 2}},
		"d/b.txt":      nil,
		"old name.txt": nil,
		"new name.txt": {{5, 5}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ChangedLines:\n got %v\nwant %v", got, want)
	}
}
