package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/source"
)

// dirFile is what sync needs to know of one entry of the learnings
// directory before reading it.
type dirFile struct {
	name    string
	size    int64
	mtime   int64 // nanoseconds since the epoch
	regular bool
}

// listing is a read of the learnings directory in name order, possibly
// still under way: useStore starts it before opening the store so that
// the two overlap.
type listing struct {
	done  chan struct{}
	files []dirFile
	err   error
}

func startListing(dir string) *listing {
	l := &listing{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		l.files, l.err = readLearningDir(dir)
		if errors.Is(l.err, fs.ErrNotExist) {
			// Verifying no learning would pass without checking
			// anything: a missing directory is an error.
			what := "is missing"
			if _, err := os.Lstat(dir); err == nil {
				what = "is a link to nothing"
			}
			l.err = fmt.Errorf("%s %s: run lore init to create it, or restore it from git", filepath.FromSlash(learnfile.Dir), what)
		}
	}()
	return l
}

func (l *listing) wait() ([]dirFile, error) {
	<-l.done
	return l.files, l.err
}

// readLearningDir lists the entries sync looks at, with their stat.
func readLearningDir(dir string) ([]dirFile, error) {
	entries, err := source.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]dirFile, 0, len(entries))
	for _, e := range entries {
		if !wantedEntry(e.Name()) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, dirFile{name: e.Name(), size: fi.Size(), mtime: fi.ModTime().UnixNano(), regular: fi.Mode().IsRegular()})
	}
	return out, nil
}

// wantedEntry says whether sync looks at a directory entry: learning files
// and the temporary files of interrupted writes (removed when stale).
func wantedEntry(name string) bool {
	return IsTemp(name) || strings.HasSuffix(name, ".md") && !strings.HasPrefix(name, ".")
}
