package lore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/learnfile"
)

// AddOptions describe a new learning.
type AddOptions struct {
	Title       string
	Body        string
	Tags        []string
	Anchors     []string // anchor specs: path, path::Symbol, path#L1-L9, glob:pattern
	Links       []learnfile.Link
	DerivedFrom []string // task:ID or run:ID
}

// Add creates a learning file and returns the learning.
func (w *Workspace) Add(ctx context.Context, opts AddOptions) (*learnfile.Learning, error) {
	now := time.Now().UTC().Truncate(time.Second)
	l := &learnfile.Learning{
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
			if !w.learnings.Has(lk.To) {
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
			id, err := learnfile.NewID()
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
			err = catalog.CreateFile(p, data)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return err
			}
			l.Path = learnfile.Dir + "/" + id + ".md"
			w.wrote("learning " + id + " saved")
			return w.learnings.Sync(ctx)
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
func (w *Workspace) List(ctx context.Context, opts ListOptions) ([]*learnfile.Learning, error) {
	var out []*learnfile.Learning
	err := w.withStore(ctx, func(*graph.Store) error {
		for _, sm := range w.listed(opts) {
			out = append(out, w.learnings.Learning(sm.ID))
		}
		return nil
	})
	return out, err
}

// ListSummaries is List for callers that show ids, titles and tags: it
// leaves the rest of each learning undecoded, which on a large workspace
// is most of the work of a list.
func (w *Workspace) ListSummaries(ctx context.Context, opts ListOptions) ([]learnfile.Summary, error) {
	var out []learnfile.Summary
	err := w.withStore(ctx, func(*graph.Store) error {
		out = w.listed(opts)
		return nil
	})
	return out, err
}

// listed selects learnings as opts says, oldest first (ties by id).
func (w *Workspace) listed(opts ListOptions) []learnfile.Summary {
	ids := w.learnings.IDs()
	out := make([]learnfile.Summary, 0, len(ids))
	for _, id := range ids {
		sm := w.learnings.Summary(id)
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
func (w *Workspace) Get(ctx context.Context, id string) (*learnfile.Learning, error) {
	var l *learnfile.Learning
	err := w.withStore(ctx, func(*graph.Store) error {
		var err error
		l, err = w.lookup(id)
		return err
	})
	return l, err
}

func (w *Workspace) lookup(id string) (*learnfile.Learning, error) {
	full, err := resolveID(w.learnings.IDs(), id)
	if err != nil {
		return nil, err
	}
	return w.learnings.Learning(full), nil
}

// readLearning parses a learning's file afresh, keeping what a minimal
// rewrite needs.
func (w *Workspace) readLearning(l *learnfile.Learning) (*learnfile.Learning, error) {
	p := filepath.Join(w.root, filepath.FromSlash(l.Path))
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	fresh, err := learnfile.Parse(l.Path, data)
	if err != nil {
		return nil, err
	}
	fresh.Path = l.Path
	return fresh, nil
}

// writeLearning rewrites a learning's file atomically. The operation under
// way has then written what it had to (see wrote), unless it says
// otherwise.
func (w *Workspace) writeLearning(l *learnfile.Learning) error {
	data, err := l.Marshal()
	if err != nil {
		return err
	}
	if err := catalog.WriteFile(filepath.Join(w.root, filepath.FromSlash(l.Path)), data); err != nil {
		return err
	}
	w.wrote("learning " + l.ID + " saved")
	return nil
}

// Remove deletes a learning and the links of other learnings that point at
// it. It returns the removed learning.
func (w *Workspace) Remove(ctx context.Context, id string) (*learnfile.Learning, error) {
	var l *learnfile.Learning
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
		for _, oid := range w.learnings.IDs() {
			o := w.learnings.Learning(oid)
			if !slices.ContainsFunc(o.Links, func(lk learnfile.Link) bool { return lk.To == l.ID }) {
				continue
			}
			fresh, err := w.readLearning(o)
			if err != nil {
				return err
			}
			fresh.Links = slices.DeleteFunc(fresh.Links, func(lk learnfile.Link) bool { return lk.To == l.ID })
			if err := w.writeLearning(fresh); err != nil {
				return err
			}
		}
		w.saved = "" // not done before the file goes
		if err := os.Remove(filepath.Join(w.root, filepath.FromSlash(l.Path))); err != nil {
			return fmt.Errorf("remove %s: %w", l.ID, err)
		}
		w.wrote("learning " + l.ID + " removed")
		return w.learnings.Sync(ctx)
	})
	return l, err
}

// EditFunc lets a person edit the file at path (a copy of the learning).
type EditFunc func(path string) error

// Edit lets edit change a copy of the learning's file, checks the result
// and puts it in place. A copy that does not parse is left where it is and
// the error says where, so no edit is lost.
func (w *Workspace) Edit(ctx context.Context, id string, edit EditFunc) (*learnfile.Learning, error) {
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
	nl, err := learnfile.Parse(l.Path, data)
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
			if nl, err = learnfile.Merge(l.Path, orig, cur, nl); err != nil {
				return err
			}
			w.notify("learning %s changed while you edited it: merged the changes", l.ID)
		}
		for _, lk := range nl.Links {
			if !w.learnings.Has(lk.To) {
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
		return w.learnings.Sync(ctx)
	})
	if err != nil {
		return nil, kept(err)
	}
	os.Remove(tmp.Name())
	return nl, nil
}

// AmbiguousError reports an id prefix that matches several learnings.
type AmbiguousError struct {
	Prefix     string
	Candidates []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("id prefix %q is ambiguous: it matches %s; type more characters", e.Prefix, strings.Join(e.Candidates, ", "))
}

// resolveID finds the one id in ids (sorted) that equals or starts with
// prefix.
func resolveID(ids []string, prefix string) (string, error) {
	prefix = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(prefix, "learning:")))
	if prefix == "" {
		return "", fmt.Errorf("empty learning id: give an id or a unique prefix (see lore learn list)")
	}
	i, found := slices.BinarySearch(ids, prefix)
	if found {
		return prefix, nil
	}
	var cands []string
	for ; i < len(ids) && strings.HasPrefix(ids[i], prefix); i++ {
		cands = append(cands, ids[i])
	}
	switch len(cands) {
	case 0:
		return "", fmt.Errorf("no learning with id %q: see lore learn list: %w", prefix, ErrNotFound)
	case 1:
		return cands[0], nil
	}
	if len(cands) > 10 {
		cands = append(cands[:10], "…")
	}
	return "", &AmbiguousError{Prefix: prefix, Candidates: cands}
}
