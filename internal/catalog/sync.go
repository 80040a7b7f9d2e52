package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/rank"
)

// nsFiles holds one record per learning file: its stat and content hash
// (the cheap change check) and the learning parsed from it.
const nsFiles = "lf"

// namedRecord is the record of one learning file.
type namedRecord struct {
	name string
	rec  fileRecord
}

// Sync compares the learning files with the records of the last sync
// (size and mtime first, content hash when they differ) and stores what
// changed. Malformed files are reported as problems, not errors. The
// directory is read only now that the store is open: a listing from
// before would miss files another process added while this one waited
// for the store, and take their learnings for gone.
func (c *Learnings) Sync(ctx context.Context) error {
	return c.syncListed(ctx, startListing(c.dir))
}

// syncListed is Sync with the directory read already started. The store
// keeps records in name order and the listing is sorted, so the two are
// merged in one pass.
func (c *Learnings) syncListed(ctx context.Context, ls *listing) error {
	st, dir := c.st, c.dir
	// Learnings are read lazily from the operation's store, else from
	// their files.
	src := &learningSource{dir: c.root, store: c.ref}
	writer := !st.ReadOnly() // held for writing throughout: see Learnings.synced
	var old []namedRecord
	if writer && c.synced != nil {
		old = *c.synced
	} else {
		err := st.View(func(tx *graph.Tx) error {
			return tx.Scan(nsFiles, "", func(k string, v []byte) error {
				if r, err := decodeRecord(k, v, src); err == nil {
					old = append(old, namedRecord{k, r})
				}
				return nil
			})
		})
		if err != nil {
			return fmt.Errorf("sync: %w", err)
		}
	}
	c.synced = nil
	entries, err := ls.wait()
	if err != nil {
		return fmt.Errorf("read learnings: %w", err)
	}
	// Renames a crash interrupted (see renameAll) are completed first, by
	// a writer: no other lore process writes learning files meanwhile.
	if i := slices.IndexFunc(entries, func(e dirFile) bool { return isJournal(e.name) }); i >= 0 {
		if !writer {
			return c.resyncAsWriter(ctx)
		}
		for _, e := range entries[i:] {
			if isJournal(e.name) {
				if err := finishRenames(dir, e.name); err != nil {
					return fmt.Errorf("complete an interrupted write of learnings: %w", err)
				}
			}
		}
		return c.syncListed(ctx, startListing(dir))
	}
	rep := &Report{}
	cur := make([]namedRecord, 0, max(len(entries), len(old))) // the records after this sync
	var (
		store []namedRecord         // records to write
		fresh []*learnfile.Learning // learnings added or changed
		gone  []string              // ids of learnings whose file went or now holds another id
		// learnings whose words changed: links, baselines and dates
		// leave similarity as it was
		reworded []*learnfile.Learning
		unparsed []string // files that no longer parse: their terms go
	)
	// unanchored are the symbols the old versions of changed and removed
	// learnings were anchored to: the nodes that may be left orphaned.
	var unanchored []string
	was := func(z *lazyLearning) {
		z.eachAnchor(func(a anchors.Anchor) bool {
			if a.Type() == anchors.TypeSymbol {
				unanchored = append(unanchored, anchorNode(a))
			}
			return true
		})
	}
	removed := func(r namedRecord) {
		rep.Removed = append(rep.Removed, r.name)
		if r.rec.Learning != nil {
			gone = append(gone, r.rec.Learning.ID)
			was(r.rec.Learning)
		}
	}
	i := 0
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := e.name
		if IsTemp(name) {
			// A writer's are left by a crash: no lore process writes
			// meanwhile.
			if writer || time.Since(time.Unix(0, e.mtime)) > staleTmp {
				_ = os.Remove(filepath.Join(dir, name)) // else the next sync tries again
			}
			continue
		}
		if !e.regular {
			continue
		}
		for i < len(old) && old[i].name < name {
			removed(old[i])
			i++
		}
		var r fileRecord
		had := i < len(old) && old[i].name == name
		if had {
			r = old[i].rec
			i++
		}
		if had && r.Size == e.size && r.MTime == e.mtime {
			cur = append(cur, namedRecord{name, r})
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil { // removed meanwhile: the next sync sees it gone
			if had {
				cur = append(cur, namedRecord{name, r})
			}
			continue
		}
		sum := sha256.Sum256(data)
		nr := fileRecord{Size: e.size, MTime: e.mtime, Sum: hex.EncodeToString(sum[:16])}
		if had && r.Sum == nr.Sum { // touched, not changed
			nr.Learning, nr.Err = r.Learning, r.Err
			store = append(store, namedRecord{name, nr})
			cur = append(cur, namedRecord{name, nr})
			continue
		}
		rel := learnfile.Dir + "/" + name
		l, err := learnfile.Parse(rel, data)
		if err != nil {
			nr.Err = err.Error()
			unparsed = append(unparsed, name)
		} else {
			l.Path = rel
			l.DropSource()
			nr.Learning = known(l)
			fresh = append(fresh, l)
			if !had || r.Learning == nil || r.Learning.ID != l.ID || rank.SimilarityText(r.Learning.get()) != rank.SimilarityText(l) {
				reworded = append(reworded, l)
			}
		}
		if had {
			rep.Changed = append(rep.Changed, name)
			if r.Learning != nil {
				was(r.Learning)
			}
			if old := r.Learning; old != nil && (l == nil || old.ID != l.ID) {
				gone = append(gone, old.ID)
			}
		} else {
			rep.Added = append(rep.Added, name)
		}
		store = append(store, namedRecord{name, nr})
		cur = append(cur, namedRecord{name, nr})
	}
	for ; i < len(old); i++ {
		removed(old[i])
	}

	if len(store) > 0 || len(rep.Removed) > 0 {
		if !writer {
			return c.resyncAsWriter(ctx)
		}
		if err := storeSync(st, rep, store, cur, fresh, gone, unparsed, unanchored); err != nil {
			return fmt.Errorf("sync: %w", err)
		}
	}
	if writer {
		c.synced = &cur
	}
	c.index(cur)
	if err := c.similarAfterSync(ctx, reworded); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	rep.Problems = c.problems
	if c.notify != nil {
		for _, p := range rep.Problems {
			c.notify(p.Error())
		}
	}
	c.report = rep
	return nil
}

// resyncAsWriter reopens the store for writing and syncs again: another
// process may write between the close of the read-only handle and the
// open of the writer, so what a sync read through the first is read again.
func (c *Learnings) resyncAsWriter(ctx context.Context) error {
	if err := c.st.Upgrade(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	return c.syncListed(ctx, startListing(c.dir))
}

// storeSync writes what a sync found: the learnings added, changed (fresh)
// and gone, the terms of files that no longer parse, then the records of
// the files in store and rep.Removed. The records go last, so that a crash
// before them leaves records that the next sync finds stale and redoes.
// A learning too big for one transaction (despite the limits of the
// format) becomes a problem of its file in store and cur.
func storeSync(st *graph.Store, rep *Report, store, cur []namedRecord, fresh []*learnfile.Learning, gone, unparsed, unanchored []string) error {
	live := map[string]bool{}
	if len(gone) > 0 {
		for _, r := range cur {
			if r.rec.Learning != nil {
				live[r.rec.Learning.ID] = true
			}
		}
	}
	tooBig := map[string]error{} // file name -> why its learning was not stored
	learnings := func(g graphWriter, each bool) error {
		for _, name := range unparsed {
			if err := g.Delete(nsTerms, name); err != nil {
				return err
			}
		}
		for _, id := range gone {
			if !live[id] {
				if err := g.RemoveNode(learningNode(id)); err != nil && !errors.Is(err, graph.ErrNotFound) {
					return err
				}
			}
		}
		for _, l := range fresh {
			err := putLearning(g, l)
			if each && errors.Is(err, graph.ErrTooBig) {
				tooBig[path.Base(l.Path)] = &learnfile.ParseError{Path: l.Path, Msg: "too big to store: split it in two"}
				if err := g.RemoveNode(learningNode(l.ID)); err != nil && !errors.Is(err, graph.ErrNotFound) {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
			if err := g.Set(nsTerms, path.Base(l.Path), encodeTerms(rank.TermFreqs(l))); err != nil {
				return err
			}
		}
		// Symbols no learning is anchored to any more (moved, renamed, or
		// their learnings removed) leave the graph.
		if _, err := g.PruneNodes(unanchored); err != nil {
			return err
		}
		return nil
	}
	records := func(g graphWriter) error {
		for _, r := range store {
			header, learning := encodeRecord(r.rec)
			if err := g.Set(nsFiles, r.name, header); err != nil {
				return err
			}
			var err error
			if learning == nil {
				err = g.Delete(nsLearnings, r.name)
			} else {
				err = g.Set(nsLearnings, r.name, learning)
			}
			if err != nil {
				return err
			}
		}
		for _, name := range rep.Removed {
			for _, ns := range []string{nsFiles, nsLearnings, nsTerms} {
				if err := g.Delete(ns, name); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var err error
	if len(store)+len(rep.Removed) <= 100 {
		err = st.Update(func(tx *graph.Tx) error {
			if err := learnings(tx, false); err != nil {
				return err
			}
			return records(tx)
		})
		if !errors.Is(err, graph.ErrTooBig) {
			return err
		}
	}
	// Too many files for one transaction: a batch, in two steps.
	if err := st.Batch(func(b *graph.Batch) error { return learnings(b, true) }); err != nil {
		return err
	}
	for _, rs := range [][]namedRecord{store, cur} {
		for i := range rs {
			if why := tooBig[rs[i].name]; why != nil {
				rs[i].rec.Learning, rs[i].rec.Err = nil, why.Error()
			}
		}
	}
	return st.Batch(func(b *graph.Batch) error { return records(b) })
}

// index indexes records given in name order. When files share an id, the
// one named after it wins, else the first; each clash is a problem.
func (idx *Learnings) index(recs []namedRecord) {
	idx.byID, idx.ids, idx.problems, idx.broken = make(map[string]*lazyLearning, len(recs)), make([]string, 0, len(recs)), nil, nil
	idx.anchored = nil
	var dups map[string][]string // id -> all its files, when more than one
	for _, nr := range recs {
		r := nr.rec
		if r.Err != "" {
			idx.problems = append(idx.problems, errors.New(r.Err))
			idx.broken = append(idx.broken, nr.name)
			continue
		}
		if r.Learning == nil {
			continue
		}
		id := r.Learning.ID
		first, seen := idx.byID[id]
		if !seen {
			idx.byID[id] = r.Learning
			idx.ids = append(idx.ids, id)
			continue
		}
		if dups == nil {
			dups = map[string][]string{}
		}
		if dups[id] == nil {
			dups[id] = []string{path.Base(first.Path)}
		}
		dups[id] = append(dups[id], nr.name)
		if nr.name == id+".md" {
			idx.byID[id] = r.Learning
		}
	}
	for id, fs := range dups {
		idx.problems = append(idx.problems, fmt.Errorf("duplicate learning id %s in %s: keep one file and give the others new ids (lore learn add)", id, strings.Join(prefixAll(fs), " and ")))
	}
	slices.Sort(idx.ids)
	sort.Slice(idx.problems, func(i, j int) bool { return idx.problems[i].Error() < idx.problems[j].Error() })
}

func prefixAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = learnfile.Dir + "/" + n
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
	PruneNodes(ids []string) (int, error)
}

func learningNode(id string) string { return graph.NodeID(graph.TypeLearning, id) }

// putLearning writes a learning's node and its authored edges: anchors,
// links and provenance.
func putLearning(g graphWriter, l *learnfile.Learning) error {
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
		if a.Type() == anchors.TypeSymbol {
			// The symbol's file: learnings, symbols and files are one graph.
			in := []graph.Edge{{Type: graph.DefinedIn, From: to, To: graph.NodeID(graph.TypeFile, a.Path()), Weight: 1}}
			if err := g.SetOutEdges(to, graph.DefinedIn, in); err != nil {
				return fmt.Errorf("learning %s: %w", l.ID, err)
			}
		}
	}
	var links []graph.Edge
	for _, lk := range l.Links {
		links = append(links, LinkEdge(l.ID, lk))
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

// LinkEdge is the LINKS_TO edge of a link of learning id, as sync stores
// it.
func LinkEdge(id string, lk learnfile.Link) graph.Edge {
	e := graph.Edge{Type: graph.LinksTo, From: learningNode(id), To: learningNode(lk.To), Relation: lk.Type, Weight: lk.Weight}
	if lk.Note != "" {
		e.Metadata = map[string]any{"note": lk.Note}
	}
	return e
}
