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

// RelateOptions describe a link between two learnings.
type RelateOptions struct {
	From, To string  // ids or unique prefixes
	Type     string  // relation tag: 1..64 of [a-z0-9_.-]
	Weight   float64 // 0..1; zero means 1 unless WeightSet
	// WeightSet says Weight was given (so 0 is a real weight).
	WeightSet     bool
	Note          string
	Bidirectional bool // also link To → From
}

// Relate writes a link into From's learning file (and To's when
// bidirectional). Relating the same (from, to, type) again updates the
// weight and note; the graph edge's version rises.
func (w *Workspace) Relate(ctx context.Context, opts RelateOptions) ([]graph.Edge, error) {
	if opts.Type == "" {
		return nil, errors.New("a relation needs a type: pass --type such as caused_by")
	}
	if err := graph.ValidRelation(opts.Type); err != nil {
		return nil, err
	}
	if !opts.WeightSet && opts.Weight == 0 {
		opts.Weight = 1
	}
	if err := graph.ValidWeight(opts.Weight); err != nil {
		return nil, err
	}
	var out, written []graph.Edge
	err := w.withWriter(ctx, func(st *graph.Store) error {
		pairs, err := w.linkPairs(opts.From, opts.To, opts.Bidirectional)
		if err != nil {
			return err
		}
		if id := pairs[0][0].ID; id == pairs[0][1].ID {
			return fmt.Errorf("learning %s cannot be related to itself", id)
		}
		var files []*learnfile.Learning
		for _, p := range pairs {
			fresh, err := w.readLearning(p[0])
			if err != nil {
				return err
			}
			lk := learnfile.Link{To: p[1].ID, Type: opts.Type, Weight: opts.Weight, Note: opts.Note}
			written = append(written, catalog.LinkEdge(p[0].ID, lk))
			i := slices.IndexFunc(fresh.Links, func(x learnfile.Link) bool { return x.To == lk.To && x.Type == lk.Type })
			if i >= 0 {
				fresh.Links[i] = lk
			} else {
				fresh.Links = append(fresh.Links, lk)
			}
			fresh.Updated = time.Now().UTC().Truncate(time.Second)
			files = append(files, fresh)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.writeLearnings(files); err != nil {
			return err
		}
		if err := w.learnings.Sync(ctx); err != nil {
			return err
		}
		for _, p := range pairs {
			e, err := st.Edge(graph.EdgeKey{Type: graph.LinksTo, From: learningNode(p[0].ID), Relation: opts.Type, To: learningNode(p[1].ID)})
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	if err == nil && len(out) < len(written) {
		out = written // the files were written; the store was not updated
	}
	return out, err
}

// linkPairs looks up the learnings a link goes from and to: the pair
// (from, to), then (to, from) when both ways.
func (w *Workspace) linkPairs(fromID, toID string, both bool) ([][2]*learnfile.Learning, error) {
	from, err := w.lookup(fromID)
	if err != nil {
		return nil, err
	}
	to, err := w.lookup(toID)
	if err != nil {
		return nil, err
	}
	pairs := [][2]*learnfile.Learning{{from, to}}
	if both {
		pairs = append(pairs, [2]*learnfile.Learning{to, from})
	}
	return pairs, nil
}

// UnrelateOptions select links to remove.
type UnrelateOptions struct {
	From, To      string
	Type          string // empty: every relation type
	Bidirectional bool   // also remove To → From
}

// Unrelate removes links from From's learning file (and To's when
// bidirectional). It returns how many links it removed.
func (w *Workspace) Unrelate(ctx context.Context, opts UnrelateOptions) (int, error) {
	n := 0
	err := w.withWriter(ctx, func(st *graph.Store) error {
		pairs, err := w.linkPairs(opts.From, opts.To, opts.Bidirectional)
		if err != nil {
			return err
		}
		var files []*learnfile.Learning
		for _, p := range pairs {
			fresh, err := w.readLearning(p[0])
			if err != nil {
				return err
			}
			before := len(fresh.Links)
			fresh.Links = slices.DeleteFunc(fresh.Links, func(x learnfile.Link) bool {
				return x.To == p[1].ID && (opts.Type == "" || x.Type == opts.Type)
			})
			if len(fresh.Links) != before {
				n += before - len(fresh.Links)
				fresh.Updated = time.Now().UTC().Truncate(time.Second)
				files = append(files, fresh)
			}
		}
		if n == 0 {
			return fmt.Errorf("no link from %s to %s%s: %w", pairs[0][0].ID, pairs[0][1].ID, typeSuffix(opts.Type), ErrNotFound)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.writeLearnings(files); err != nil {
			return err
		}
		return w.learnings.Sync(ctx)
	})
	return n, err
}

func typeSuffix(t string) string {
	if t == "" {
		return ""
	}
	return " of type " + t
}

// writeLearnings rewrites several learning files as one step (see
// catalog.WriteLearnings): the operation under way has then written what
// it had to (see wrote).
func (w *Workspace) writeLearnings(ls []*learnfile.Learning) error {
	if len(ls) == 0 {
		return nil
	}
	if err := catalog.WriteLearnings(w.root, ls); err != nil {
		return err
	}
	w.wroteLearnings(ls)
	return nil
}

// wroteLearnings records that the operation under way has written these
// learning files, all it had to (see wrote).
func (w *Workspace) wroteLearnings(ls []*learnfile.Learning) {
	var names []string
	for _, l := range ls {
		names = append(names, l.ID)
	}
	w.wrote("learning " + strings.Join(names, " and ") + " saved")
}

// FeedbackOptions record whether a learning helped in a run of an agent or
// a person.
type FeedbackOptions struct {
	Learning string // id or unique prefix
	Run      string // run id, with or without the run: prefix
	Helpful  bool
}

// Feedback is the usage of a learning in one run: a USED_IN_RUN edge with
// the verdict in its metadata. Its JSON form is a stable API.
type Feedback struct {
	Learning string `json:"learning"`
	Run      string `json:"run"` // without the run: prefix
	// Helpful is the latest verdict; HelpfulCount and UnhelpfulCount count
	// every verdict given for this run, Mentions every report.
	Helpful        bool      `json:"helpful"`
	HelpfulCount   int       `json:"helpful_count"`
	UnhelpfulCount int       `json:"unhelpful_count"`
	Mentions       int       `json:"mentions"`
	UpdatedAt      time.Time `json:"updated_at"`
}

func (o *FeedbackOptions) validate() error {
	if o.Learning == "" {
		return errors.New("feedback: give the learning's id")
	}
	run := strings.TrimPrefix(o.Run, "run:")
	if run == "" || strings.ContainsAny(run, " \t\n") {
		return fmt.Errorf("feedback: run %q: give a run id such as R-77 (no spaces)", o.Run)
	}
	o.Run = run
	return nil
}

// Feedback records a verdict on a learning for a run. Reporting the same
// learning and run again updates the verdict and raises the mention count.
// Feedback lives in the store only (it is usage, not authored text).
func (w *Workspace) Feedback(ctx context.Context, opts FeedbackOptions) (*Feedback, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	var fb *Feedback
	err := w.withWriter(ctx, func(st *graph.Store) error {
		l, err := w.lookup(opts.Learning)
		if err != nil {
			return err
		}
		return st.Update(func(tx *graph.Tx) error {
			key := graph.EdgeKey{Type: graph.UsedInRun, From: learningNode(l.ID), To: "run:" + opts.Run}
			helpful, unhelpful := 0, 0
			if old, err := tx.Edge(key); err == nil {
				helpful, unhelpful = metaInt(old.Metadata, "helpful_count"), metaInt(old.Metadata, "unhelpful_count")
			} else if !errors.Is(err, graph.ErrNotFound) {
				return err
			}
			verdict := "unhelpful"
			if opts.Helpful {
				verdict = "helpful"
				helpful++
			} else {
				unhelpful++
			}
			e, err := tx.UpsertEdge(graph.Edge{Type: key.Type, From: key.From, To: key.To, Weight: 1,
				Metadata: map[string]any{"verdict": verdict, "helpful": opts.Helpful, "helpful_count": helpful, "unhelpful_count": unhelpful}})
			if err != nil {
				return err
			}
			fb = feedbackOf(l.ID, e)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return fb, nil
}

// LearningFeedback returns the feedback recorded for a learning, newest
// first.
func (w *Workspace) LearningFeedback(ctx context.Context, id string) ([]Feedback, error) {
	out := []Feedback{}
	err := w.withStore(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		es, err := st.Edges(learningNode(l.ID), graph.Out, graph.Filter{Types: []graph.EdgeType{graph.UsedInRun}})
		if err != nil && !errors.Is(err, graph.ErrNotFound) {
			return err
		}
		for _, e := range es {
			out = append(out, *feedbackOf(l.ID, e))
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].UpdatedAt.Equal(out[j].UpdatedAt) {
			return out[i].UpdatedAt.After(out[j].UpdatedAt)
		}
		return out[i].Run < out[j].Run
	})
	return out, err
}

func feedbackOf(id string, e graph.Edge) *Feedback {
	h, _ := e.Metadata["helpful"].(bool)
	return &Feedback{
		Learning:       id,
		Run:            strings.TrimPrefix(e.To, "run:"),
		Helpful:        h,
		HelpfulCount:   metaInt(e.Metadata, "helpful_count"),
		UnhelpfulCount: metaInt(e.Metadata, "unhelpful_count"),
		Mentions:       e.Mentions,
		UpdatedAt:      e.UpdatedAt,
	}
}

// metaInt reads a count from edge metadata (numbers come back from JSON as
// float64).
func metaInt(m map[string]any, k string) int {
	switch v := m[k].(type) {
	case float64:
		return int(v)
	case int:
		return v
	case int64:
		return int(v)
	}
	return 0
}
