package lore

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	l, err := newLearning(opts, time.Now().UTC().Truncate(time.Second))
	if err != nil {
		return nil, err
	}
	err = w.withWriter(ctx, func(st *graph.Store) error {
		if err := w.checkLinks(l.Links, nil); err != nil {
			return err
		}
		src, err := w.anchorSource()
		if err != nil {
			return err
		}
		defer src.Close()
		if l.Anchors, err = baselines(ctx, src, opts.Anchors); err != nil {
			return err
		}
		// Interrupted before the write, nothing is written.
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.create([]*learnfile.Learning{l}); err != nil {
			return err
		}
		w.wrote("learning " + l.ID + " saved")
		return w.learnings.Sync(ctx)
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// newLearning checks what opts say of a new learning that needs no
// repository (title, provenance) and returns the learning without id and
// anchors.
func newLearning(opts AddOptions, now time.Time) (*learnfile.Learning, error) {
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
	if strings.ContainsAny(l.Title, "\n\r") {
		return nil, errors.New("a title is one line: put the rest in the body")
	}
	if l.Body != "" && !strings.HasSuffix(l.Body, "\n") {
		l.Body += "\n"
	}
	for _, d := range l.DerivedFrom {
		if err := validProvenance(d); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// checkLinks refuses links to learnings that neither exist nor are in
// also (ids about to be created with them).
func (w *Workspace) checkLinks(links []learnfile.Link, also map[string]bool) error {
	for _, lk := range links {
		if !w.learnings.Has(lk.To) && !also[lk.To] {
			return fmt.Errorf("link target %s: no such learning: %w", lk.To, ErrNotFound)
		}
	}
	return nil
}

// baselines parses anchor specs and records their baselines in src.
func baselines(ctx context.Context, src *anchors.Source, specs []string) ([]anchors.Anchor, error) {
	var out []anchors.Anchor
	for _, spec := range specs {
		a, err := anchors.ParseSpec(spec)
		if err == nil {
			a, err = anchors.Baseline(ctx, src, a)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// create writes new learning files (see catalog.CreateFiles: each file
// appears whole or not at all), minting an id for each learning without
// one. A learning whose given id is taken fails with fs.ErrExist.
func (w *Workspace) create(ls []*learnfile.Learning) error {
	if err := os.MkdirAll(w.learningsDir(), 0o755); err != nil {
		return err
	}
	minted := make([]bool, len(ls))
	for i, l := range ls {
		minted[i] = l.ID == ""
	}
	todo := make([]int, len(ls))
	for i := range todo {
		todo[i] = i
	}
	for range 5 {
		files := make([]catalog.NewFile, 0, len(todo))
		for _, i := range todo {
			l := ls[i]
			if minted[i] {
				id, err := learnfile.NewID()
				if err != nil {
					return err
				}
				l.ID = id
			}
			data, err := l.Marshal()
			if err != nil {
				return err
			}
			files = append(files, catalog.NewFile{Name: l.ID + ".md", Data: data})
		}
		taken, err := catalog.CreateFiles(w.learningsDir(), files)
		if err != nil {
			return err
		}
		var again []int
		for k, i := range todo {
			l := ls[i]
			switch {
			case !taken[k]:
				l.Path = learnfile.Dir + "/" + l.ID + ".md"
			case minted[i]:
				again = append(again, i)
			default:
				return fmt.Errorf("learning %s exists already: %w", l.ID, fs.ErrExist)
			}
		}
		if len(again) == 0 {
			return nil
		}
		todo = again
	}
	return errors.New("could not mint a fresh learning id; try again")
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
	// Tags keeps learnings with every one of these tags.
	Tags []string
	// Query keeps learnings whose title, body or tags contain every word
	// of it, in any case.
	Query string
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
	words := strings.Fields(strings.ToLower(opts.Query))
	for _, id := range ids {
		sm := w.learnings.Summary(id)
		if opts.Tag != "" && !slices.Contains(sm.Tags, opts.Tag) {
			continue
		}
		if slices.ContainsFunc(opts.Tags, func(t string) bool { return !slices.Contains(sm.Tags, t) }) {
			continue
		}
		if len(words) > 0 && !w.matches(id, sm, words) {
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

// matches reports whether every word occurs in the learning's title, tags
// or body (words are lower case); the body is read only when the title and
// tags do not settle it.
func (w *Workspace) matches(id string, sm learnfile.Summary, words []string) bool {
	head := strings.ToLower(sm.Title + " " + strings.Join(sm.Tags, " "))
	body := ""
	for _, wd := range words {
		if strings.Contains(head, wd) {
			continue
		}
		if body == "" {
			body = strings.ToLower(w.learnings.Learning(id).Body) + " "
		}
		if !strings.Contains(body, wd) {
			return false
		}
	}
	return true
}

// UpdateOptions change a learning's text; nil fields stay as they are.
type UpdateOptions struct {
	Title *string
	Body  *string
	Tags  *[]string
}

// Update changes the title, body or tags of a learning (id or unique
// prefix) in its file, keeping everything else of the file as it is, and
// returns the learning as written. It is Edit for callers without an
// editor (agents, tools).
func (w *Workspace) Update(ctx context.Context, id string, opts UpdateOptions) (*learnfile.Learning, error) {
	if opts.Title != nil {
		t := strings.TrimSpace(*opts.Title)
		if t == "" {
			return nil, errors.New("a learning needs a title: give a non-empty title")
		}
		if strings.ContainsAny(t, "\n\r") {
			return nil, errors.New("a title is one line: put the rest in the body")
		}
		opts.Title = &t
	}
	var out *learnfile.Learning
	err := w.withWriter(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		fresh, err := w.readLearning(l)
		if err != nil {
			return err
		}
		if opts.Title != nil {
			fresh.Title = *opts.Title
		}
		if opts.Body != nil {
			fresh.Body = *opts.Body
			if fresh.Body != "" && !strings.HasSuffix(fresh.Body, "\n") {
				fresh.Body += "\n"
			}
		}
		if opts.Tags != nil {
			fresh.Tags = normTags(*opts.Tags)
		}
		fresh.Updated = time.Now().UTC().Truncate(time.Second)
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.writeLearning(fresh); err != nil {
			return err
		}
		out = fresh
		return w.learnings.Sync(ctx)
	})
	return out, err
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
	_ = tmp.Close() // nothing written through it: the copy is written below
	// drop removes the copy: it is a temporary file, and the learning
	// file holds what matters.
	drop := func() { _ = os.Remove(tmp.Name()) }
	if err := os.WriteFile(tmp.Name(), orig, 0o600); err != nil {
		return nil, err
	}
	if err := edit(tmp.Name()); err != nil {
		drop()
		return nil, fmt.Errorf("editor: %w", err)
	}
	data, err := os.ReadFile(tmp.Name())
	if err != nil {
		return nil, err
	}
	if string(data) == string(orig) {
		drop()
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
	drop()
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

// ImportOptions configure Import.
type ImportOptions struct {
	// SkipExisting skips lines whose id names a learning that exists (a
	// rerun after an interrupted import) instead of refusing them.
	SkipExisting bool
}

// ImportReport says what Import wrote.
type ImportReport struct {
	Imported []string `json:"imported"` // ids, in the order of the lines
	// Skipped are ids of lines left out because the learning exists
	// (SkipExisting).
	Skipped []string `json:"skipped,omitempty"`
}

// importLine is one line of an import: a learning as lore learn add
// describes one, with an optional id.
type importLine struct {
	ID          string       `json:"id"`
	Title       string       `json:"title"`
	Body        string       `json:"body"`
	Tags        []string     `json:"tags"`
	Anchors     []string     `json:"anchors"`
	Links       []importLink `json:"links"`
	DerivedFrom []string     `json:"derived_from"`
}

// importLink is a link of an import line; the weight defaults to 1.
type importLink struct {
	To     string   `json:"to"`
	Type   string   `json:"type"`
	Weight *float64 `json:"weight"`
	Note   string   `json:"note"`
}

// ImportError reports the lines of an import that were refused.
type ImportError struct {
	Line int   // 1-based number of the first bad line
	Err  error // what is wrong with it
	More int   // how many other lines are bad
}

func (e *ImportError) Error() string {
	more := ""
	if e.More > 0 {
		more = fmt.Sprintf(" (and %d more bad lines)", e.More)
	}
	return fmt.Sprintf("line %d: %v%s; nothing was imported: fix the line and rerun", e.Line, e.Err, more)
}

func (e *ImportError) Unwrap() error { return e.Err }

// maxImportLine bounds one line of an import: a learning file's limit
// with room for JSON escapes.
const maxImportLine = 2 * learnfile.MaxBytes

// Import creates learnings from JSON Lines, one learning a line:
//
//	{"title": "…", "body": "…", "tags": ["…"], "anchors": ["path::Symbol", …],
//	 "links": [{"to": "id", "type": "caused_by", "weight": 0.8}],
//	 "derived_from": ["task:T-1"], "id": "optional"}
//
// Only "title" is required; empty lines are skipped. Every line is checked
// (anchors resolved and baselined) before anything is written, so one bad
// line imports nothing and the error (an *ImportError) names it. Then each
// learning file is written whole or not at all: an import killed midway
// leaves complete learnings only, and lines with an "id" make a rerun with
// SkipExisting finish the job. Links may point at learnings of the same
// import that have an id.
func (w *Workspace) Import(ctx context.Context, in io.Reader, opts ImportOptions) (*ImportReport, error) {
	lines, err := readImport(in)
	if err != nil {
		return nil, err
	}
	rep := &ImportReport{Imported: []string{}}
	err = w.withWriter(ctx, func(st *graph.Store) error {
		src, err := w.anchorSource()
		if err != nil {
			return err
		}
		defer src.Close()
		ids := map[string]bool{}
		for _, ln := range lines {
			if ln.l != nil && ln.l.ID != "" {
				ids[ln.l.ID] = true
			}
		}
		var ls []*learnfile.Learning
		bad := &ImportError{}
		refuse := func(n int, err error) {
			if bad.Err == nil {
				bad.Line, bad.Err = n, err
			} else {
				bad.More++
			}
		}
		for _, ln := range lines {
			if ln.err != nil {
				refuse(ln.n, ln.err)
				continue
			}
			l := ln.l
			if l.ID != "" && w.learnings.Has(l.ID) {
				if opts.SkipExisting {
					rep.Skipped = append(rep.Skipped, l.ID)
					continue
				}
				refuse(ln.n, fmt.Errorf("learning %s exists already (pass --skip-existing to rerun an import)", l.ID))
				continue
			}
			if err := w.checkLinks(l.Links, ids); err != nil {
				refuse(ln.n, err)
				continue
			}
			if l.Anchors, err = baselines(ctx, src, ln.specs); err != nil {
				refuse(ln.n, err)
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			ls = append(ls, l)
		}
		if bad.Err != nil {
			return bad
		}
		if err := w.create(ls); err != nil {
			return err
		}
		for _, l := range ls {
			rep.Imported = append(rep.Imported, l.ID)
		}
		if len(ls) > 0 {
			w.wrote(fmt.Sprintf("%d learnings imported", len(ls)))
		}
		return w.learnings.Sync(ctx)
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// parsedLine is one line of an import as read: the learning without
// anchors and the anchor specs, or what is wrong with it.
type parsedLine struct {
	n     int
	l     *learnfile.Learning
	specs []string
	err   error
}

// readImport reads and checks every line of an import that needs no
// repository; a read error fails the import.
func readImport(in io.Reader) ([]parsedLine, error) {
	now := time.Now().UTC().Truncate(time.Second)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxImportLine)
	var out []parsedLine
	seen := map[string]int{}
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		ln := parsedLine{n: n}
		var il importLine
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&il); err != nil {
			ln.err = fmt.Errorf("not a learning: %v (want one JSON object a line with at least \"title\")", err)
		} else if dec.More() {
			ln.err = errors.New("more than one JSON value on the line")
		} else if il.ID != "" && !learnfile.ValidID(il.ID) {
			ln.err = fmt.Errorf("id %q: an id has 2 to 32 characters of a-z and 0-9", il.ID)
		} else if first, dup := seen[il.ID]; dup && il.ID != "" {
			ln.err = fmt.Errorf("id %s is on line %d too", il.ID, first)
		} else {
			seen[il.ID] = n
			links := make([]learnfile.Link, len(il.Links))
			for i, lk := range il.Links {
				links[i] = learnfile.Link{To: lk.To, Type: lk.Type, Weight: 1, Note: lk.Note}
				if lk.Weight != nil {
					links[i].Weight = *lk.Weight
				}
			}
			ln.l, ln.err = newLearning(AddOptions{Title: il.Title, Body: il.Body, Tags: il.Tags, Links: links, DerivedFrom: il.DerivedFrom}, now)
			ln.specs = il.Anchors
			if ln.err == nil {
				ln.l.ID = il.ID
				ln.err = checkImported(ln.l, len(ln.specs))
			}
		}
		out = append(out, ln)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d KiB; nothing was imported: a learning may have %d KiB at most", n+1, maxImportLine>>10, learnfile.MaxBytes>>10)
		}
		return nil, fmt.Errorf("read the import: %w", err)
	}
	return out, nil
}

// checkImported checks the limits and links of a learning read from an
// import, as writing its file would.
func checkImported(l *learnfile.Learning, anchors int) error {
	if anchors > learnfile.MaxAnchors {
		return fmt.Errorf("%d anchors; a learning may have %d at most: split it in two (or anchor a glob)", anchors, learnfile.MaxAnchors)
	}
	probe := *l
	if probe.ID == "" {
		probe.ID = "probe"
	}
	_, err := probe.Marshal()
	return err
}
