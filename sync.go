package lore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
)

// nsFiles holds one record per learning file: its stat and content hash
// (the cheap change check) and the learning parsed from it.
const nsFiles = "lf"

// fileRecord is what sync remembers of one learning file.
type fileRecord struct {
	Size     int64
	MTime    int64
	Sum      string
	Learning *Learning
	Err      string
}

// SyncReport says what a sync changed and what it could not read.
type SyncReport struct {
	Added, Changed, Removed []string // learning file names
	Problems                []error  // malformed or conflicting files
}

// Sync brings the store up to date with the learning files. Every
// operation of a Workspace syncs first; Sync is for callers that only want
// that.
func (w *Workspace) Sync(ctx context.Context) (*SyncReport, error) {
	var rep *SyncReport
	err := w.withStore(ctx, func(*graph.Store) error {
		rep = w.lastSync
		return nil
	})
	return rep, err
}

// sync compares the learning files with the records of the last sync
// (size and mtime first, content hash when they differ) and stores what
// changed. Malformed files are reported as problems, not errors.
func (w *Workspace) sync(ctx context.Context, st *graph.Store) error {
	return w.syncListed(ctx, st, startListing(w.learningsDir()))
}

// syncListed is sync with the directory read already started.
func (w *Workspace) syncListed(ctx context.Context, st *graph.Store, ls *listing) error {
	dir := w.learningsDir()
	old := map[string]fileRecord{}
	err := st.View(func(tx *graph.Tx) error {
		return tx.Scan(nsFiles, "", func(k string, v []byte) error {
			if r, err := decodeRecord(v); err == nil {
				old[k] = r
			}
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	entries, err := ls.wait()
	if err != nil {
		return fmt.Errorf("read learnings: %w", err)
	}
	rep := &SyncReport{}
	changed := map[string]fileRecord{}
	present := make(map[string]bool, len(entries))
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := e.name
		if isTmp(name) {
			if time.Since(time.Unix(0, e.mtime)) > staleTmp {
				os.Remove(filepath.Join(dir, name))
			}
			continue
		}
		if !e.regular {
			continue
		}
		present[name] = true
		r, had := old[name]
		if had && r.Size == e.size && r.MTime == e.mtime {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		sum := sha256.Sum256(data)
		nr := fileRecord{Size: e.size, MTime: e.mtime, Sum: hex.EncodeToString(sum[:16])}
		if had && r.Sum == nr.Sum {
			nr.Learning, nr.Err = r.Learning, r.Err
			changed[name] = nr
			continue
		}
		rel := filepath.ToSlash(filepath.Join(Dir, "learnings", name))
		l, err := ParseLearning(rel, data)
		if err != nil {
			nr.Err = err.Error()
		} else {
			l.Path = rel
			l.doc = nil
			nr.Learning = l
		}
		changed[name] = nr
		if had {
			rep.Changed = append(rep.Changed, name)
		} else {
			rep.Added = append(rep.Added, name)
		}
	}
	for name := range old {
		if !present[name] {
			rep.Removed = append(rep.Removed, name)
		}
	}
	sort.Strings(rep.Removed)

	var fresh []*Learning // added or changed learnings
	if len(changed) > 0 || len(rep.Removed) > 0 {
		var gone []*Learning
		for _, name := range rep.Removed {
			if l := old[name].Learning; l != nil {
				gone = append(gone, l)
			}
			delete(old, name)
		}
		for name, r := range changed {
			old[name] = r
			if r.Learning != nil && (slices.Contains(rep.Added, name) || slices.Contains(rep.Changed, name)) {
				fresh = append(fresh, r.Learning)
			}
		}
		live := map[string]bool{}
		for _, r := range old {
			if r.Learning != nil {
				live[r.Learning.ID] = true
			}
		}
		write := func(g graphWriter) error {
			for name, r := range changed {
				if err := g.Set(nsFiles, name, encodeRecord(r)); err != nil {
					return err
				}
			}
			for _, name := range rep.Removed {
				if err := g.Delete(nsFiles, name); err != nil {
					return err
				}
			}
			for _, l := range gone {
				if !live[l.ID] {
					if err := g.RemoveNode(learningNode(l.ID)); err != nil && !errors.Is(err, graph.ErrNotFound) {
						return err
					}
				}
			}
			for _, l := range fresh {
				if err := putLearning(g, l); err != nil {
					return err
				}
			}
			return nil
		}
		if len(changed)+len(rep.Removed) > 100 {
			err = st.Batch(func(b *graph.Batch) error { return write(b) })
		} else {
			err = st.Update(func(tx *graph.Tx) error { return write(tx) })
		}
		if err != nil {
			return fmt.Errorf("sync: %w", err)
		}
	}
	w.learnings = buildIndex(old)
	if err := w.similarAfterSync(ctx, st, fresh); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	rep.Problems = w.learnings.problems
	for _, p := range rep.Problems {
		w.notify("%v", p)
	}
	w.lastSync = rep
	return nil
}

// learningIndex is the workspace's learnings after a sync.
type learningIndex struct {
	byID     map[string]*Learning
	ids      []string // sorted
	problems []error
}

func buildIndex(recs map[string]fileRecord) *learningIndex {
	idx := &learningIndex{byID: make(map[string]*Learning, len(recs)), ids: make([]string, 0, len(recs))}
	names := make([]string, 0, len(recs))
	for n := range recs {
		names = append(names, n)
	}
	sort.Strings(names)
	file := make(map[string]string, len(recs)) // id -> the file it is read from
	var dups map[string][]string               // id -> all its files, when more than one
	for _, n := range names {
		r := recs[n]
		if r.Err != "" {
			idx.problems = append(idx.problems, errors.New(r.Err))
			continue
		}
		if r.Learning == nil {
			continue
		}
		id := r.Learning.ID
		first, seen := file[id]
		if !seen {
			file[id] = n
			idx.ids = append(idx.ids, id)
			continue
		}
		if dups == nil {
			dups = map[string][]string{}
		}
		if dups[id] == nil {
			dups[id] = []string{first}
		}
		dups[id] = append(dups[id], n)
		if n == id+".md" { // the file named after the id wins
			file[id] = n
		}
	}
	for id, fs := range dups {
		idx.problems = append(idx.problems, fmt.Errorf("duplicate learning id %s in %s: keep one file and give the others new ids (lore learn add)", id, strings.Join(prefixAll(fs), " and ")))
	}
	for id, n := range file {
		idx.byID[id] = recs[n].Learning
	}
	sort.Strings(idx.ids)
	sort.Slice(idx.problems, func(i, j int) bool { return idx.problems[i].Error() < idx.problems[j].Error() })
	return idx
}

func prefixAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Dir + "/learnings/" + n
	}
	return out
}

// graphWriter is what sync needs of a transaction or a batch.
type graphWriter interface {
	Set(ns, key string, val []byte) error
	Delete(ns, key string) error
	UpsertNode(n graph.Node) error
	RemoveNode(id string) error
	SetOutEdges(from string, typ graph.EdgeType, edges []graph.Edge) error
}

func learningNode(id string) string { return "learning:" + id }

// putLearning writes a learning's node and its authored edges: anchors,
// links and provenance.
func putLearning(g graphWriter, l *Learning) error {
	from := learningNode(l.ID)
	if err := g.UpsertNode(graph.Node{ID: from, Attrs: map[string]string{"title": l.Title}}); err != nil {
		return err
	}
	var anchored []graph.Edge
	for i, a := range l.Anchors {
		to := anchorNode(a)
		if to == "" {
			continue
		}
		anchored = append(anchored, graph.Edge{Type: graph.AnchoredTo, From: from, To: to, Weight: 1,
			Metadata: map[string]any{"anchor": i + 1, "spec": a.Spec()}})
	}
	var links []graph.Edge
	for _, lk := range l.Links {
		e := graph.Edge{Type: graph.LinksTo, From: from, To: learningNode(lk.To), Relation: lk.Type, Weight: lk.Weight}
		if lk.Note != "" {
			e.Metadata = map[string]any{"note": lk.Note}
		}
		links = append(links, e)
	}
	var derived []graph.Edge
	for _, d := range l.DerivedFrom {
		derived = append(derived, graph.Edge{Type: graph.DerivedFrom, From: from, To: d, Weight: 1})
	}
	for _, set := range []struct {
		typ   graph.EdgeType
		edges []graph.Edge
	}{{graph.AnchoredTo, anchored}, {graph.LinksTo, links}, {graph.DerivedFrom, derived}} {
		if err := g.SetOutEdges(from, set.typ, set.edges); err != nil {
			return fmt.Errorf("learning %s: %w", l.ID, err)
		}
	}
	return nil
}

// anchorNode is the graph node an anchor points at: the symbol for symbol
// anchors, the file for line and file anchors; globs have none.
func anchorNode(a anchors.Anchor) string {
	switch a.Type() {
	case anchors.TypeSymbol:
		return "symbol:" + a.Symbol
	case anchors.TypeLines, anchors.TypeFile:
		return "file:" + a.Path()
	}
	return ""
}
