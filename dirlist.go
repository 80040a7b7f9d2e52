package lore

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
)

// dirFile is what sync needs to know of one entry of the learnings
// directory before reading it.
type dirFile struct {
	name    string
	size    int64
	mtime   int64 // nanoseconds since the epoch
	regular bool
}

// listing is a read of the learnings directory in name order, possibly still under way:
// useStore starts it before opening the store so that the two overlap.
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
			l.files, l.err = nil, nil
		}
		slices.SortFunc(l.files, func(a, b dirFile) int { return strings.Compare(a.name, b.name) })
	}()
	return l
}

func (l *listing) wait() ([]dirFile, error) {
	<-l.done
	return l.files, l.err
}

// wantedEntry says whether sync looks at a directory entry: learning files
// and the temporary files of interrupted writes (removed when stale).
func wantedEntry(name string) bool {
	return isTmp(name) || strings.HasSuffix(name, ".md") && !strings.HasPrefix(name, ".")
}
