package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A snapshot directory is shared by every commit that names its commit:
// PROJECT-PARENT also holds what another commit (whose own commit PARENT
// is) changed, and PROJECT-SHA what a commit after it changed. Those
// files are not the commit's: they must not read as deleted or added,
// or lore would see symbols vanish and appear that the commit never
// touched.
func TestSnapshotSharedDirectories(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	meta := `{"parentCommitId": "p1", "currentCommitId": "c1", "filesBefore": ["src/A.java"], "filesCurrent": ["src/A.java", "src/B.java"]}`
	writeFiles(t, dir, map[string]string{
		"proj-c1.json":           meta,
		"proj-p1/src/A.java":     "class A { void f() { int x = 1; } }\n",
		"proj-p1/src/Other.java": "class Other { void g() { int y = 2; } }\n", // another commit's
		"proj-c1/src/A.java":     "class A { void f() { int x = 3; } }\n",
		"proj-c1/src/B.java":     "class B { }\n",
		"proj-c1/src/Later.java": "class Later { }\n", // a later commit's parent side
	})
	tr, err := snapshotTrees(t.Context(), dir, &commit{Project: "proj", SHA: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	changed := slicesSorted(tr.changed)
	if want := []string{"src/A.java", "src/B.java"}; !slices.Equal(changed, want) {
		t.Errorf("changed %v, want %v", changed, want)
	}
	for _, side := range []struct {
		name string
		fsys fs.FS
		want []string
	}{{"parent", tr.parent, []string{"src/A.java", "src/Later.java", "src/Other.java"}}, {"child", tr.child, []string{"src/A.java", "src/B.java", "src/Later.java", "src/Other.java"}}} {
		var got []string
		_ = fs.WalkDir(side.fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				got = append(got, p)
			}
			return err
		})
		if !slices.Equal(got, side.want) {
			t.Errorf("%s holds %v, want %v", side.name, got, side.want)
		}
	}
	if b, err := fs.ReadFile(tr.child, "src/A.java"); err != nil || !strings.Contains(string(b), "x = 3") {
		t.Errorf("the child's A.java is %q (%v), want the commit's", b, err)
	}
	tr.close()
	if _, err := fs.Stat(tr.parent, "src/A.java"); err == nil {
		t.Error("close left the scratch copies")
	}
}

func slicesSorted(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Symbols the commit deleted that no refactoring of it names are
// verified too: lore must not follow them. One the oracle names (a
// method renamed) is an instance, not such a probe; one whose code went
// to a new method the oracle does not name is followed, and the report
// lists it to be read.
func TestDeletedSymbolsProbed(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	before := `package p;

class Store {
    int size() {
        return items.size();
    }

    String describeTheWholeStoreForTheLog(StringBuilder out) {
        for (Item item : items) {
            out.append(item.name()).append(':').append(item.count()).append('\n');
        }
        return out.toString();
    }

    void dropEverythingStale(long now) {
        items.removeIf(item -> item.expires() < now);
        log.info("dropped stale items at " + now);
    }

    void get(String key) {
        lookup(key);
    }
}
`
	after := `package p;

class Store {
    int size() {
        return items.size();
    }

    String dumpForLog(StringBuilder out) {
        for (Item item : items) {
            out.append(item.name()).append(':').append(item.count()).append('\n');
        }
        return out.toString();
    }

    void fetch(String key) {
        lookup(key);
    }
}
`
	meta := `{"parentCommitId": "p1", "currentCommitId": "c1", "filesBefore": ["src/p/Store.java"], "filesCurrent": ["src/p/Store.java"]}`
	writeFiles(t, dir, map[string]string{
		"proj-c1.json":             meta,
		"proj-p1/src/p/Store.java": before,
		"proj-c1/src/p/Store.java": after,
	})
	c := &commit{Dataset: "tse", Project: "proj", SHA: "c1", Lang: "java"}
	c.add("Rename Method", "public get(key String) : void renamed to public fetch(key String) : void in class p.Store", true)
	tr, err := snapshotTrees(t.Context(), dir, c)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	run, err := replay(t.Context(), c, tr, mode{name: "base", base: true, renames: true}, 20)
	if err != nil {
		t.Fatal(err)
	}
	var gone []string
	for _, g := range run.gone {
		gone = append(gone, g.spec)
	}
	want := []string{"src/p/Store.java::Store::describeTheWholeStoreForTheLog", "src/p/Store.java::Store::dropEverythingStale"}
	if !slices.Equal(gone, want) {
		t.Fatalf("probed %v, want %v", gone, want)
	}
	if len(run.followed) != 1 || !strings.Contains(run.followed[0], "describeTheWholeStoreForTheLog → src/p/Store.java::Store::dumpForLog") {
		t.Errorf("followed %q, want describeTheWholeStoreForTheLog to dumpForLog only", run.followed)
	}
	var out strings.Builder
	report(&out, "base", "dev", []*commitRun{run}, true, 0)
	for _, line := range []string{"deleted symbols no refactoring names, followed somewhere: 1 of 2", "FOLLOWED-DELETED proj c1 src/p/Store.java::Store::describeTheWholeStoreForTheLog"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("the report lacks %q:\n%s", line, out.String())
		}
	}
}
