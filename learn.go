package lore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
)

// AddOptions describe a new learning.
type AddOptions struct {
	Title       string
	Body        string
	Tags        []string
	Anchors     []string // anchor specs: path, path::Symbol, path#L1-L9, glob:pattern
	Links       []Link
	DerivedFrom []string // task:ID or run:ID
}

// Add creates a learning file and returns the learning.
func (w *Workspace) Add(ctx context.Context, opts AddOptions) (*Learning, error) {
	now := time.Now().UTC().Truncate(time.Second)
	l := &Learning{
		Title:       strings.TrimSpace(opts.Title),
		Tags:        normTags(opts.Tags),
		Links:       opts.Links,
		DerivedFrom: opts.DerivedFrom,
		Created:     now,
		Updated:     now,
		Body:        opts.Body,
	}
	if l.Title == "" {
		return nil, errors.New("a learning needs a title: pass --title")
	}
	if l.Body != "" && !strings.HasSuffix(l.Body, "\n") {
		l.Body += "\n"
	}
	for _, d := range l.DerivedFrom {
		if err := validProvenance(d); err != nil {
			return nil, err
		}
	}
	err := w.withWriter(ctx, func(st *graph.Store) error {
		for _, lk := range l.Links {
			if !w.learnings.has(lk.To) {
				return fmt.Errorf("link target %s: no such learning: %w", lk.To, ErrNotFound)
			}
		}
		for _, spec := range opts.Anchors {
			a, err := w.newAnchor(ctx, st, spec)
			if err != nil {
				return err
			}
			l.Anchors = append(l.Anchors, a)
		}
		// Interrupted before the write, nothing is written.
		if err := ctx.Err(); err != nil {
			return err
		}
		for range 5 {
			id, err := newID()
			if err != nil {
				return err
			}
			l.ID = id
			data, err := l.Marshal()
			if err != nil {
				return err
			}
			p := filepath.Join(w.learningsDir(), id+".md")
			if err := os.MkdirAll(w.learningsDir(), 0o755); err != nil {
				return err
			}
			err = createFileExclusive(p, data)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return err
			}
			l.Path = filepath.ToSlash(filepath.Join(Dir, "learnings", id+".md"))
			w.wrote("learning " + id + " saved")
			return w.sync(ctx, st)
		}
		return errors.New("could not mint a fresh learning id; try again")
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// newAnchor parses spec, checks that it points at something inside the
// repository and records its baseline.
func (w *Workspace) newAnchor(ctx context.Context, st *graph.Store, spec string) (anchors.Anchor, error) {
	a, err := anchors.ParseSpec(spec)
	if err != nil {
		return a, err
	}
	return w.baseline(ctx, st, a)
}

func validProvenance(d string) error {
	kind, id, ok := strings.Cut(d, ":")
	if !ok || (kind != "task" && kind != "run") || id == "" || strings.ContainsAny(id, " \t\n") {
		return fmt.Errorf("provenance %q: write task:ID or run:ID", d)
	}
	return nil
}

func normTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		for _, p := range strings.Split(t, ",") {
			if p = strings.TrimSpace(p); p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// ListOptions filter List.
type ListOptions struct {
	Tag string // only learnings with this tag
}

// List returns the workspace's learnings, oldest first.
func (w *Workspace) List(ctx context.Context, opts ListOptions) ([]*Learning, error) {
	var out []*Learning
	err := w.withStore(ctx, func(*graph.Store) error {
		for _, sm := range listed(w.learnings, opts) {
			out = append(out, w.learnings.get(sm.ID))
		}
		return nil
	})
	return out, err
}

// Summary is what a list of learnings shows of each.
type Summary struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Tags    []string  `json:"tags"`
	Created time.Time `json:"created"`
}

// ListSummaries is List for callers that show ids, titles and tags: it
// leaves the rest of each learning undecoded, which on a large workspace
// is most of the work of a list.
func (w *Workspace) ListSummaries(ctx context.Context, opts ListOptions) ([]Summary, error) {
	var out []Summary
	err := w.withStore(ctx, func(*graph.Store) error {
		out = listed(w.learnings, opts)
		return nil
	})
	return out, err
}

// listed selects learnings of idx as opts says, oldest first (ties by id).
func listed(idx *learningIndex, opts ListOptions) []Summary {
	out := make([]Summary, 0, len(idx.ids))
	for _, id := range idx.ids {
		sm := idx.byID[id].summary()
		if opts.Tag != "" && !slices.Contains(sm.Tags, opts.Tag) {
			continue
		}
		out = append(out, sm)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Get returns the learning with the given id or unique id prefix.
func (w *Workspace) Get(ctx context.Context, id string) (*Learning, error) {
	var l *Learning
	err := w.withStore(ctx, func(*graph.Store) error {
		var err error
		l, err = w.lookup(id)
		return err
	})
	return l, err
}

func (w *Workspace) lookup(id string) (*Learning, error) {
	full, err := resolveID(w.learnings.ids, id)
	if err != nil {
		return nil, err
	}
	return w.learnings.get(full), nil
}

// readLearning parses a learning's file afresh, keeping what a minimal
// rewrite needs.
func (w *Workspace) readLearning(l *Learning) (*Learning, error) {
	p := filepath.Join(w.root, filepath.FromSlash(l.Path))
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	fresh, err := ParseLearning(l.Path, data)
	if err != nil {
		return nil, err
	}
	fresh.Path = l.Path
	return fresh, nil
}

// writeLearning rewrites a learning's file atomically. The operation under
// way has then written what it had to (see wrote), unless it says
// otherwise.
func (w *Workspace) writeLearning(l *Learning) error {
	data, err := l.Marshal()
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(w.root, filepath.FromSlash(l.Path)), data); err != nil {
		return err
	}
	w.wrote("learning " + l.ID + " saved")
	return nil
}

// Remove deletes a learning and the links of other learnings that point at
// it. It returns the removed learning.
func (w *Workspace) Remove(ctx context.Context, id string) (*Learning, error) {
	var l *Learning
	err := w.withWriter(ctx, func(st *graph.Store) error {
		var err error
		if l, err = w.lookup(id); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		// Drop links to it first: if we die in between, the learning is
		// still there and a rerun finishes the job.
		for _, oid := range w.learnings.ids {
			o := w.learnings.get(oid)
			if !slices.ContainsFunc(o.Links, func(lk Link) bool { return lk.To == l.ID }) {
				continue
			}
			fresh, err := w.readLearning(o)
			if err != nil {
				return err
			}
			fresh.Links = slices.DeleteFunc(fresh.Links, func(lk Link) bool { return lk.To == l.ID })
			if err := w.writeLearning(fresh); err != nil {
				return err
			}
		}
		w.saved = "" // not done before the file goes
		if err := os.Remove(filepath.Join(w.root, filepath.FromSlash(l.Path))); err != nil {
			return fmt.Errorf("remove %s: %w", l.ID, err)
		}
		w.wrote("learning " + l.ID + " removed")
		return w.sync(ctx, st)
	})
	return l, err
}

// EditFunc lets a person edit the file at path (a copy of the learning).
type EditFunc func(path string) error

// Edit lets edit change a copy of the learning's file, checks the result
// and puts it in place. A copy that does not parse is left where it is and
// the error says where, so no edit is lost.
func (w *Workspace) Edit(ctx context.Context, id string, edit EditFunc) (*Learning, error) {
	l, err := w.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	src := filepath.Join(w.root, filepath.FromSlash(l.Path))
	orig, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp("", "lore-"+l.ID+"-*.md")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	if err := os.WriteFile(tmp.Name(), orig, 0o600); err != nil {
		return nil, err
	}
	if err := edit(tmp.Name()); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("editor: %w", err)
	}
	data, err := os.ReadFile(tmp.Name())
	if err != nil {
		return nil, err
	}
	if string(data) == string(orig) {
		os.Remove(tmp.Name())
		return l, nil
	}
	kept := func(err error) error {
		return fmt.Errorf("%v; your edit is kept in %s", err, tmp.Name())
	}
	nl, err := ParseLearning(l.Path, data)
	if err != nil {
		return nil, kept(err)
	}
	if nl.ID != l.ID {
		return nil, kept(fmt.Errorf("the id cannot change (was %s, now %s)", l.ID, nl.ID))
	}
	nl.Path = l.Path
	err = w.withWriter(ctx, func(st *graph.Store) error {
		// The file may have changed while the editor was open (another
		// lore command, a person, a checkout): both changes are kept.
		cur, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if !bytes.Equal(cur, orig) {
			if nl, err = mergeEdit(l.Path, orig, cur, nl); err != nil {
				return err
			}
			w.notify("learning %s changed while you edited it: merged the changes", l.ID)
		}
		for _, lk := range nl.Links {
			if !w.learnings.has(lk.To) {
				return fmt.Errorf("link target %s: no such learning: %w", lk.To, ErrNotFound)
			}
		}
		nl.Updated = time.Now().UTC().Truncate(time.Second)
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.writeLearning(nl); err != nil {
			return err
		}
		return w.sync(ctx, st)
	})
	if err != nil {
		return nil, kept(err)
	}
	os.Remove(tmp.Name())
	return nl, nil
}

// editFields are the parts of a learning an edit can change, besides its
// updated time (set on every write).
var editFields = []string{"title", "tags", "anchors", "links", "derived_from", "created", "body"}

// mergeEdit merges an edit (ours, made from orig) with the file as it is
// now (cur), three-way: each part of the learning changed on one side only
// takes that side's value. A part changed differently on both sides, or
// front matter that lore does not own (comments, other keys) changed on
// both, is a conflict.
func mergeEdit(path string, orig, cur []byte, ours *Learning) (*Learning, error) {
	base, err := ParseLearning(path, orig)
	if err != nil {
		return nil, err
	}
	theirs, err := ParseLearning(path, cur)
	if err != nil {
		return nil, fmt.Errorf("the file changed while you edited it and no longer parses (%v): merge by hand", err)
	}
	if theirs.ID != ours.ID {
		return nil, fmt.Errorf("the file changed while you edited it and now holds learning %s: merge by hand", theirs.ID)
	}
	into, from := ours, theirs
	if otherText(theirs) != otherText(base) {
		if otherText(ours) != otherText(base) {
			return nil, errors.New("the file changed while you edited it, and both changed its front matter beyond lore's keys: merge by hand")
		}
		into, from = theirs, ours
	}
	var both []string
	for _, k := range editFields {
		changedInto := !reflect.DeepEqual(editField(into, k), editField(base, k))
		changedFrom := !reflect.DeepEqual(editField(from, k), editField(base, k))
		switch {
		case !changedFrom:
		case !changedInto:
			setEditField(into, k, from)
		case !reflect.DeepEqual(editField(into, k), editField(from, k)):
			both = append(both, k)
		}
	}
	if len(both) > 0 {
		return nil, fmt.Errorf("the file changed while you edited it, and both changed %s: merge by hand", strings.Join(both, ", "))
	}
	into.Path = path
	return into, nil
}

// otherText is the front matter of a parsed learning that lore does not
// own: comments and keys other than its own.
func otherText(l *Learning) string {
	var b strings.Builder
	for _, s := range l.doc.segments {
		if !slices.Contains(knownKeys, s.key) {
			b.WriteString(s.key + "\x00" + s.text + "\x00")
		}
	}
	return b.String()
}

func editField(l *Learning, k string) any {
	if k == "body" {
		return l.Body
	}
	return fieldOf(l, k)
}

func setEditField(l *Learning, k string, from *Learning) {
	switch k {
	case "title":
		l.Title = from.Title
	case "tags":
		l.Tags = from.Tags
	case "anchors":
		l.Anchors = from.Anchors
	case "links":
		l.Links = from.Links
	case "derived_from":
		l.DerivedFrom = from.DerivedFrom
	case "created":
		l.Created = from.Created
	case "body":
		l.Body = from.Body
	}
}
