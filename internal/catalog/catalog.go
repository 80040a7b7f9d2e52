package catalog

import (
	"path/filepath"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
)

// Learnings are a workspace's learnings as one operation's store knows
// them: Sync brings the store in step with the learning files, and the
// learnings of the last sync are read through the store until Close, then
// from their files. A Learnings serves one operation: make one with Open
// once the store is open, and Close it before the store closes.
type Learnings struct {
	root   string // the repository root
	dir    string // the learnings directory
	notify func(msg string)
	st     *graph.Store
	ref    *storeRef
	// synced holds the records as the last sync left them, when that sync
	// began with the store held for writing: no other process could change
	// them since, so a second sync (after the operation wrote learning
	// files) merges with them instead of reading and decoding every record
	// again.
	synced *[]namedRecord
	report *Report

	byID     map[string]*lazyLearning
	ids      []string // sorted
	problems []error
	broken   []string // names of the files that do not parse
	// anchored holds, by the file they point into, the ids of the
	// learnings with an anchor there (glob anchors under ""); made at the
	// first need after each sync.
	anchored map[string][]string
}

// Report says what a sync changed and what it could not read.
type Report struct {
	Added, Changed, Removed []string // learning file names
	Problems                []error  // malformed or conflicting files
}

// Open returns the learnings of the workspace at root as st knows them,
// before any sync: none. notify, when not nil, receives the problems each
// sync finds (files that do not parse, ids that clash).
func Open(root string, st *graph.Store, notify func(msg string)) *Learnings {
	return &Learnings{root: root, dir: filepath.Join(root, filepath.FromSlash(learnfile.Dir)), notify: notify, st: st, ref: &storeRef{st: st}}
}

// Close stops reading learnings through the store, which may close next:
// learnings not read by now come from their files.
func (c *Learnings) Close() {
	c.ref.clear()
	c.synced = nil
}

// Report returns what the last sync did; nil before the first.
func (c *Learnings) Report() *Report { return c.report }

// IDs returns the id of every learning, sorted.
func (c *Learnings) IDs() []string { return c.ids }

// Has reports whether there is a learning with this full id.
func (c *Learnings) Has(id string) bool { return c.byID[id] != nil }

// Learning returns the learning with this full id, nil when there is
// none. It is decoded on first use.
func (c *Learnings) Learning(id string) *learnfile.Learning {
	if z := c.byID[id]; z != nil {
		return z.get()
	}
	return nil
}

// Summary returns what lists show of a learning, without decoding it.
func (c *Learnings) Summary(id string) learnfile.Summary { return c.byID[id].summary() }

// Path returns a learning's file, relative to the repository root.
func (c *Learnings) Path(id string) string { return c.byID[id].Path }

// EachAnchor calls fn with each anchor of a learning until fn returns
// false, decoding nothing beyond them.
func (c *Learnings) EachAnchor(id string, fn func(anchors.Anchor) bool) {
	if z := c.byID[id]; z != nil {
		z.eachAnchor(fn)
	}
}

// AnyAnchor reports whether pred holds for one of a learning's anchors.
func (c *Learnings) AnyAnchor(id string, pred func(anchors.Anchor) bool) bool {
	found := false
	c.EachAnchor(id, func(a anchors.Anchor) bool {
		found = pred(a)
		return !found
	})
	return found
}

// AnchoredIn returns, in id order, the learnings with an anchor into the
// file at path (repository-relative, slash-separated); "" gives those with
// a glob anchor. The first call after a sync looks at every learning's
// anchors; later ones, as a long-lived server's, look up the answer.
func (c *Learnings) AnchoredIn(path string) []string {
	if c.anchored == nil {
		m := map[string][]string{}
		for _, id := range c.ids {
			c.EachAnchor(id, func(a anchors.Anchor) bool {
				p := a.Path()
				if n := len(m[p]); n == 0 || m[p][n-1] != id {
					m[p] = append(m[p], id)
				}
				return true
			})
		}
		c.anchored = m
	}
	return c.anchored[path]
}

// Problems returns the malformed and conflicting learning files the last
// sync found.
func (c *Learnings) Problems() []error { return c.problems }

// Broken returns the names of the learning files that do not parse.
func (c *Learnings) Broken() []string { return c.broken }
