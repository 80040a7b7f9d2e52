package source_test

import (
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lorehq/lore/source"
)

// The file systems of a Repo are read by many verify workers at once.
// Blobs in packs (after git gc, or staged by a revert or a checkout of an
// old revision) were read through one go-git storage by every goroutine
// and came back as "object not found" or wrong content (issue 26); loose
// blobs must stay right too. Run with -race.
func TestConcurrentReads(t *testing.T) {
	for _, packed := range []bool{false, true} {
		t.Run(fmt.Sprintf("packed=%v", packed), func(t *testing.T) {
			if _, err := exec.LookPath("git"); err != nil {
				t.Skip("git not installed")
			}
			dir := t.TempDir()
			git(t, dir, "init", "-q", "-b", "main")
			want := map[string]string{}
			for i := range 200 {
				name := fmt.Sprintf("d%d/f%d.txt", i%7, i)
				body := strings.Repeat(fmt.Sprintf("line %d of file %d\n", i%13, i), 40+i%17)
				write(t, dir, name, body)
				want[name] = body
			}
			git(t, dir, "add", ".")
			git(t, dir, "commit", "-q", "-m", "files")
			if packed {
				git(t, dir, "gc", "-q")
				if m, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack")); len(m) == 0 {
					t.Fatal("git gc left no pack")
				}
			}
			// Each file system comes from a repository of its own, so that
			// the first object reads happen in the goroutines.
			open := func() *source.Repo {
				r, err := source.OpenRepo(dir)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			repo := open()
			head, err := repo.Head()
			if err != nil {
				t.Fatal(err)
			}
			idx, err := open().Index()
			if err != nil {
				t.Fatal(err)
			}
			tree, err := open().Tree(head)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 16)
			for w := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					fsys := tree
					if w%2 == 1 {
						fsys = idx
					}
					for name, body := range want {
						if fi, err := fs.Stat(fsys, name); err != nil || fi.Size() != int64(len(body)) {
							errs <- fmt.Errorf("stat %s: %v, %v", name, fi, err)
							return
						}
						b, err := fs.ReadFile(fsys, name)
						if err != nil || string(b) != body {
							errs <- fmt.Errorf("read %s: %d bytes, %v", name, len(b), err)
							return
						}
					}
					if _, err := repo.Tree(head); err != nil {
						errs <- err
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}
