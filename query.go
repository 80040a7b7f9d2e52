package lore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/cochange"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/internal/verify"
	"github.com/lorehq/lore/rank"
	"github.com/lorehq/lore/source"
)

// ResolveNode turns what a person types into a graph node id: a typed id
// (learning:…, file:…, symbol:…, task:…, run:…, commit:…) as is (learning
// ids by unique prefix), path::Symbol as a symbol, a learning id or prefix,
// or a repository path as a file.
func (w *Workspace) ResolveNode(ctx context.Context, arg string) (string, error) {
	var id string
	err := w.withStore(ctx, func(st *graph.Store) error {
		var err error
		id, err = w.resolveNode(st, arg)
		return err
	})
	return id, err
}

func (w *Workspace) resolveNode(st *graph.Store, arg string) (string, error) {
	if arg == "" {
		return "", errors.New("empty node: give a learning id, a path, path::Symbol or a typed id such as file:a.go")
	}
	if rest, ok := strings.CutPrefix(arg, "learning:"); ok {
		l, err := w.lookup(rest)
		if errors.Is(err, ErrNotFound) {
			// A learning node without a file: one that lore graph import
			// brought (provenance, feedback) is still a node to ask about.
			if _, nerr := st.Node(arg); nerr == nil {
				return arg, nil
			}
		}
		if err != nil {
			return "", err
		}
		return learningNode(l.ID), nil
	}
	if _, err := graph.NodeType(arg); err == nil {
		return arg, nil
	}
	if strings.Contains(arg, "::") {
		p, fq, _ := strings.Cut(arg, "::")
		rel, err := w.RelPath(p)
		if err != nil {
			return "", err
		}
		return "symbol:" + rel + "::" + fq, nil
	}
	rel, relErr := w.RelPath(arg)
	isFile := false
	if relErr == nil {
		_, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(rel)))
		isFile = err == nil
	}
	if l, err := w.lookup(arg); err == nil && !isFile {
		return learningNode(l.ID), nil
	}
	if isFile {
		return "file:" + rel, nil
	}
	if relErr != nil {
		return "", relErr
	}
	return "", fmt.Errorf("%s is neither a learning id nor a file in the repository: %w", arg, ErrNotFound)
}

// NodeInfo is a node with its edges.
type NodeInfo struct {
	Node  graph.Node   `json:"node"`
	Edges []graph.Edge `json:"edges"`
}

// Node returns a node and every edge touching it.
func (w *Workspace) Node(ctx context.Context, arg string, includeInvalidated bool) (*NodeInfo, error) {
	var info *NodeInfo
	err := w.withStore(ctx, func(st *graph.Store) error {
		id, err := w.resolveNode(st, arg)
		if err != nil {
			return err
		}
		n, err := st.Node(id)
		if errors.Is(err, graph.ErrNotFound) {
			return fmt.Errorf("no node %s in the graph (run lore index for files and symbols): %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		es, err := st.Edges(id, graph.Both, graph.Filter{IncludeInvalidated: includeInvalidated})
		if err != nil {
			return err
		}
		if es == nil {
			es = []graph.Edge{}
		}
		info = &NodeInfo{Node: n, Edges: es}
		return nil
	})
	return info, err
}

// NeighborsOptions are graph.TraverseOptions with seeds as people type
// them (resolved with ResolveNode).
type NeighborsOptions struct {
	Seeds []string
	graph.TraverseOptions
}

// Neighbors returns the neighbourhood of the seeds: the nodes reached and
// every edge among them.
func (w *Workspace) Neighbors(ctx context.Context, opts NeighborsOptions) (*graph.Subgraph, []graph.Result, error) {
	var sub *graph.Subgraph
	var res []graph.Result
	err := w.withStore(ctx, func(st *graph.Store) error {
		to := opts.TraverseOptions
		to.Seeds = nil
		for _, s := range opts.Seeds {
			id, err := w.resolveNode(st, s)
			if err != nil {
				return err
			}
			if _, err := st.Node(id); errors.Is(err, graph.ErrNotFound) {
				return fmt.Errorf("no node %s in the graph: %w", id, ErrNotFound)
			}
			to.Seeds = append(to.Seeds, id)
		}
		var err error
		sub, res, err = st.NeighborhoodResults(ctx, to)
		return err
	})
	return sub, res, err
}

// Path returns the highest-scoring path between two nodes.
func (w *Workspace) Path(ctx context.Context, from, to string, opts graph.TraverseOptions) (graph.Result, error) {
	var res graph.Result
	err := w.withStore(ctx, func(st *graph.Store) error {
		a, err := w.resolveNode(st, from)
		if err != nil {
			return err
		}
		b, err := w.resolveNode(st, to)
		if err != nil {
			return err
		}
		opts.Seeds = []string{a}
		res, err = st.Path(ctx, b, opts)
		if errors.Is(err, graph.ErrNotFound) {
			return fmt.Errorf("no path from %s to %s within depth %d: %w", a, b, max(opts.Depth, graph.DefaultDepth), ErrNotFound)
		}
		return err
	})
	return res, err
}

// GraphStats counts nodes and edges by type.
func (w *Workspace) GraphStats(ctx context.Context) (graph.Stats, error) {
	var s graph.Stats
	err := w.withStore(ctx, func(st *graph.Store) error {
		var err error
		s, err = st.Stats()
		return err
	})
	return s, err
}

// ExportGraph writes the whole graph in a format: json, dot or mermaid
// (ExportGraphWith for cypher and csv).
func (w *Workspace) ExportGraph(ctx context.Context, out io.Writer, format graph.Format) error {
	return w.ExportGraphWith(ctx, out, graph.ExportOptions{Format: format})
}

// ExportGraphWith writes the whole graph as o says: json, dot, mermaid, or,
// for a graph shared across repositories, cypher or csv, whose node ids
// carry the repository's name (o.Repo, RepoName's when empty).
func (w *Workspace) ExportGraphWith(ctx context.Context, out io.Writer, o graph.ExportOptions) error {
	if (o.Format == graph.Cypher || o.Format == graph.CSV) && o.Repo == "" {
		repo, err := w.RepoName(ctx)
		if err != nil {
			return err
		}
		o.Repo = repo
	}
	return w.withStore(ctx, func(st *graph.Store) error { return st.ExportWith(ctx, out, o) })
}

// RepoName is the repository's name in a graph shared across repositories:
// the repo key of .lore/config.yaml when set; else the origin remote's URL
// as host/path ("github.com/org/repo" for https://github.com/org/repo.git
// and git@github.com:org/repo.git); else the workspace directory's name.
func (w *Workspace) RepoName(ctx context.Context) (string, error) {
	if w.cfg.Repo != "" {
		return w.cfg.Repo, nil
	}
	if repo, err := source.OpenRepo(w.root); err == nil {
		url, err := repo.RemoteURL(ctx, "origin")
		repo.Close()
		if err != nil {
			return "", err
		}
		if name := repoNameOfURL(url); name != "" {
			return name, nil
		}
	}
	name := filepath.Base(w.root)
	if graph.ValidRepoName(name) != nil {
		return "", fmt.Errorf("the directory name %q cannot name the repository in shared ids: set repo in .lore/config.yaml or pass --repo", name)
	}
	return name, nil
}

// repoNameOfURL turns a remote URL into host/path without scheme, user,
// port and a trailing .git; a local path gives its last element. It
// returns "" when nothing valid is left.
func repoNameOfURL(url string) string {
	u := strings.TrimSpace(url)
	if u == "" {
		return ""
	}
	if scheme, rest, ok := strings.Cut(u, "://"); ok && scheme != "" && !strings.ContainsAny(scheme, "/@") {
		u = rest
		host, path, _ := strings.Cut(u, "/")
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		if i := strings.LastIndexByte(host, ':'); i >= 0 {
			host = host[:i]
		}
		if scheme == "file" {
			host = ""
		}
		u = host + "/" + path
	} else if host, path, ok := strings.Cut(u, ":"); ok && !strings.Contains(host, "/") {
		// scp-like: [user@]host:path
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		u = host + "/" + path
	} else {
		u = filepath.ToSlash(u)
		u = strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git")
		u = u[strings.LastIndexByte(u, '/')+1:]
	}
	u = strings.Trim(strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git"), "/")
	if graph.ValidRepoName(u) != nil {
		return ""
	}
	return u
}

// ImportGraph adds nodes and edges from graph JSON (an export of another
// store, feedback from elsewhere), read one at a time (see
// graph.Store.LoadFrom): nothing is written when the input does not read.
// What the learning files author is not imported, since no file would
// back it: learning nodes and their anchors, links and provenance
// (ANCHORED_TO, LINKS_TO, DERIVED_FROM edges) come from the files; a
// notice counts what was left out.
func (w *Workspace) ImportGraph(ctx context.Context, in io.Reader) error {
	skipped := 0
	err := w.withWriter(ctx, func(st *graph.Store) error {
		return st.LoadFrom(ctx, func(node func(graph.Node) error, edge func(graph.Edge) error) error {
			return graph.ScanJSON(in, func(n graph.Node) error {
				if n.Type == graph.TypeLearning {
					skipped++
					return nil
				}
				return node(n)
			}, func(e graph.Edge) error {
				switch e.Type {
				case graph.AnchoredTo, graph.LinksTo, graph.DerivedFrom:
					skipped++
					return nil
				}
				return edge(e)
			})
		})
	})
	if err == nil && skipped > 0 {
		w.notify("left out %d learning nodes and ANCHORED_TO, LINKS_TO and DERIVED_FROM edges: the learning files author them (lore learn add, lore anchor add, lore relate)", skipped)
	}
	return err
}

// ContextOptions configure Context.
type ContextOptions struct {
	// Targets are what the caller is working on: a file, file:line (the
	// symbol enclosing the line), a symbol path::Outer::inner, or a
	// learning id (or unique prefix). At least one.
	Targets []string
	// Depth is the most hops (imports, co-change, links, similarity) from
	// a target: default rank.DefaultDepth, at most graph.MaxDepth.
	Depth int
	// Limit is the most current learnings returned (and, separately, the
	// most stale ones): default rank.DefaultLimit, at most rank.MaxLimit.
	Limit int
}

// Context ranks the learnings that matter for the targets (see
// rank.Context): what do we know that matters here?
func (w *Workspace) Context(ctx context.Context, opts ContextOptions) (*rank.Result, error) {
	if len(opts.Targets) == 0 {
		return nil, errors.New("context: give at least one target: a file, file:line, path::Symbol or a learning id")
	}
	ro := rank.Options{Depth: opts.Depth, Limit: opts.Limit}
	if err := ro.Check(); err != nil {
		return nil, err
	}
	var res *rank.Result
	err := w.withStore(ctx, func(st *graph.Store) error {
		var targets []rank.Target
		var notes []string
		for _, arg := range opts.Targets {
			t, note, err := w.contextTarget(st, arg)
			if err != nil {
				return err
			}
			targets = append(targets, t)
			if note != "" {
				notes = append(notes, note)
			}
		}
		var err error
		if res, err = w.rank(ctx, st, targets, ro); err != nil {
			return err
		}
		if err := w.recheck(ctx, st, res); err != nil {
			return err
		}
		res.Notes = append(notes, res.Notes...)
		if s, err := cochange.CheckStatus(ctx, st, w.root); err == nil && s.Analyzed && s.Stale {
			res.Notes = append(res.Notes, fmt.Sprintf("co-change analysis is stale (%s): run lore cochange analyze", s.Reason))
		}
		return nil
	})
	return res, err
}

// rank is rank.Context, its answers kept by a held store (see heldStore):
// a long-lived server asked again about the same place only verifies the
// answer again.
func (w *Workspace) rank(ctx context.Context, st *graph.Store, targets []rank.Target, opts rank.Options) (*rank.Result, error) {
	h := w.held
	if h == nil || h.st != st || h.ranked == nil {
		return rank.Context(ctx, st, w.view(st), targets, opts)
	}
	key := fmt.Sprintf("%d %d %#v", opts.Depth, opts.Limit, targets)
	if res := h.ranked[key]; res != nil {
		return res.Clone(), nil
	}
	res, err := rank.Context(ctx, st, w.view(st), targets, opts)
	if err != nil {
		return nil, err
	}
	if len(h.ranked) >= maxRanked {
		clear(h.ranked)
	}
	h.ranked[key] = res.Clone()
	return res, nil
}

// maxRanked bounds the context answers a held store keeps.
const maxRanked = 64

// recheck verifies the learnings of a context answer against the working
// tree now, so that the answer gives where their code is and whether it
// still holds, not what the last verification (of any source, at any
// time) recorded. Nothing is recorded: a context question writes nothing.
func (w *Workspace) recheck(ctx context.Context, st *graph.Store, res *rank.Result) error {
	var ids []string
	for _, items := range [][]rank.Item{res.Learnings, res.Stale} {
		for _, it := range items {
			ids = append(ids, it.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	sort.Strings(ids)
	src, err := verify.Read(ctx, w.root, verify.ReadOptions{})
	if err != nil {
		return fmt.Errorf("context: %w", err)
	}
	run, err := verify.Check(ctx, w.learnings, ids, src, verify.Options{Root: w.root, Threshold: w.cfg.Verify.RelocationThreshold,
		Ignore: w.cfg.Ignore, MaxFileSize: w.cfg.MaxFileSize, Index: st, Sources: anchors.SourceOptions{Table: w.table, Parsed: w.parsed}})
	if err != nil {
		return fmt.Errorf("context: %w", err)
	}
	byLearning := map[string]map[int]anchors.Result{}
	for _, x := range run.Anchors {
		if byLearning[x.Learning] == nil {
			byLearning[x.Learning] = map[int]anchors.Result{}
		}
		byLearning[x.Learning][x.Anchor] = x
	}
	res.Recheck(byLearning)
	return nil
}

// contextTarget turns one target argument into a file (with an optional
// line and symbol) or a learning, with a note when the file is not
// indexed.
func (w *Workspace) contextTarget(st *graph.Store, arg string) (rank.Target, string, error) {
	t := rank.Target{Arg: arg}
	if arg == "" {
		return t, "", errors.New("context: empty target: give a file, file:line, path::Symbol or a learning id")
	}
	if rest, ok := strings.CutPrefix(arg, "learning:"); ok {
		l, err := w.lookup(rest)
		if err != nil {
			return t, "", err
		}
		t.Learning = l.ID
		return t, "", nil
	}
	if p, fq, ok := strings.Cut(arg, "::"); ok {
		rel, err := w.RelPath(p)
		if err != nil {
			return t, "", err
		}
		if !w.isFile(rel) {
			return t, "", fmt.Errorf("context: %s: no such file in the repository: %w", p, ErrNotFound)
		}
		t.File, t.Symbol = rel, rel+"::"+fq
		return t, "", nil
	}
	p, line := arg, 0
	if i := strings.LastIndexByte(arg, ':'); i > 0 {
		if n, err := strconv.Atoi(arg[i+1:]); err == nil {
			if n < 1 {
				return t, "", fmt.Errorf("context: %s: lines start at 1", arg)
			}
			p, line = arg[:i], n
		}
	}
	rel, relErr := w.RelPath(p)
	isFile := relErr == nil && w.isFile(rel)
	if !isFile && line == 0 {
		if l, err := w.lookup(arg); err == nil {
			t.Learning = l.ID
			return t, "", nil
		} else if _, ok := errors.AsType[*AmbiguousError](err); ok {
			return t, "", err
		}
	}
	if relErr != nil {
		return t, "", relErr
	}
	if !isFile {
		return t, "", fmt.Errorf("context: %s is neither a file in the repository nor a learning id: %w", arg, ErrNotFound)
	}
	t.File, t.Line = rel, line
	if _, err := analyzer.FileInfo(st, rel); errors.Is(err, graph.ErrNotFound) {
		return t, fmt.Sprintf("%s is not indexed: run lore index so that its imports and lines are known", rel), nil
	} else if err != nil {
		return t, "", fmt.Errorf("context: %s: %w", arg, err)
	}
	if line > 0 {
		sym, err := analyzer.Enclosing(st, rel, line)
		if err != nil && !errors.Is(err, graph.ErrNotFound) {
			return t, "", fmt.Errorf("context: %s: %w", arg, err)
		}
		if sym != nil {
			t.Symbol = sym.FQName
		}
	}
	return t, "", nil
}

// Exists reports whether rel (a repository path) is a file of the working
// tree.
func (w *Workspace) Exists(rel string) bool { return w.isFile(rel) }

func (w *Workspace) isFile(rel string) bool {
	fi, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(rel)))
	return err == nil && fi.Mode().IsRegular()
}

// Similar returns the learnings most similar to id (an id or unique
// prefix), best first; limit 0 means all that sync recorded.
func (w *Workspace) Similar(ctx context.Context, id string, limit int) ([]rank.SimilarLearning, error) {
	if limit < 0 {
		return nil, errors.New("similar: limit must not be negative")
	}
	var out []rank.SimilarLearning
	err := w.withStore(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		out, err = rank.Similar(st, w.view(st), l.ID, limit)
		return err
	})
	return out, err
}

// BuildContext writes a learning's relation tree as Markdown (see
// rank.WriteRelations).
func (w *Workspace) BuildContext(ctx context.Context, out io.Writer, id string, depth int) error {
	depth, err := rank.RelationDepth(depth)
	if err != nil {
		return err
	}
	return w.withStore(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		return rank.WriteRelations(ctx, out, st, w.view(st), l.ID, depth)
	})
}

// view is the workspace as ranking reads it: the learnings of the last
// sync, with their last verification from the store.
type view struct {
	*catalog.Learnings
	st *graph.Store
	// kept are the statuses a held store keeps between operations; nil
	// when the store is not held.
	kept map[string]anchors.Status
}

func (w *Workspace) view(st *graph.Store) view {
	v := view{Learnings: w.learnings, st: st}
	if h := w.held; h != nil && h.st == st {
		v.kept = h.statuses
	}
	return v
}

func (v view) Statuses(ids []string) (map[string]anchors.Status, error) {
	if v.kept == nil {
		return verify.Statuses(v.st, v.Learnings, ids)
	}
	out := make(map[string]anchors.Status, len(ids))
	var missing []string
	for _, id := range ids {
		if s, ok := v.kept[id]; ok {
			out[id] = s
		} else {
			missing = append(missing, id)
		}
	}
	read, err := verify.Statuses(v.st, v.Learnings, missing)
	if err != nil {
		return nil, err
	}
	for id, s := range read {
		out[id], v.kept[id] = s, s
	}
	return out, nil
}

// RelationsOptions filter Relations.
type RelationsOptions struct {
	Learning string    // only links from or to this learning (id or prefix)
	Since    time.Time // only links updated at or after
	Limit    int       // 0: all
	Offset   int
}

// Relations lists LINKS_TO edges between learnings with the learnings they
// join, newest first.
func (w *Workspace) Relations(ctx context.Context, opts RelationsOptions) (*graph.Subgraph, error) {
	if opts.Limit < 0 || opts.Offset < 0 {
		return nil, errors.New("limit and offset must not be negative")
	}
	sub := &graph.Subgraph{Nodes: []graph.Node{}, Edges: []graph.Edge{}}
	err := w.withStore(ctx, func(st *graph.Store) error {
		var ids []string
		if opts.Learning != "" {
			l, err := w.lookup(opts.Learning)
			if err != nil {
				return err
			}
			ids = []string{l.ID}
		} else {
			ids = w.learnings.IDs()
		}
		dir := graph.Out
		if opts.Learning != "" {
			dir = graph.Both
		}
		var edges []graph.Edge
		for _, id := range ids {
			es, err := st.Edges(learningNode(id), dir, graph.Filter{Types: []graph.EdgeType{graph.LinksTo}})
			if err != nil && !errors.Is(err, graph.ErrNotFound) {
				return err
			}
			for _, e := range es {
				if !e.UpdatedAt.Before(opts.Since) {
					edges = append(edges, e)
				}
			}
		}
		sort.SliceStable(edges, func(i, j int) bool {
			if !edges[i].UpdatedAt.Equal(edges[j].UpdatedAt) {
				return edges[i].UpdatedAt.After(edges[j].UpdatedAt)
			}
			return edges[i].Key().String() < edges[j].Key().String()
		})
		if opts.Offset < len(edges) {
			edges = edges[opts.Offset:]
		} else {
			edges = nil
		}
		if opts.Limit > 0 && len(edges) > opts.Limit {
			edges = edges[:opts.Limit]
		}
		seen := map[string]bool{}
		for _, e := range edges {
			sub.Edges = append(sub.Edges, e)
			for _, n := range []string{e.From, e.To} {
				if seen[n] {
					continue
				}
				seen[n] = true
				node, err := st.Node(n)
				if err != nil {
					node = graph.Node{ID: n, Type: "learning"}
				}
				sub.Nodes = append(sub.Nodes, node)
			}
		}
		return nil
	})
	return sub, err
}

// ImpactOptions say which change Impact looks at: Targets (files,
// file:line, path::Symbol), or a diff: Staged (git's index against HEAD),
// Rev (the working tree against a revision), or, with neither and no
// targets, every uncommitted change (the working tree against HEAD).
type ImpactOptions struct {
	Targets []string
	Staged  bool
	Rev     string
	// Depth and Limit are as in ContextOptions.
	Depth, Limit int
}

// ImpactReport answers "what do we know that this change touches?": the
// changed code, and the learnings it may affect, ranked as Context ranks
// them, each with the reason it was reached (anchored to the changed
// code, through importers, co-change or links). Its JSON form is a stable
// API.
type ImpactReport struct {
	Changes []ChangedFile `json:"changes"`
	// Targets, Learnings, Stale and Notes are as in rank.Result.
	Targets   []rank.Target `json:"targets"`
	Learnings []rank.Item   `json:"learnings"`
	Stale     []rank.Item   `json:"stale"`
	Notes     []string      `json:"notes,omitempty"`
}

// WriteMarkdown renders the affected learnings as Context's answer does.
func (r *ImpactReport) WriteMarkdown(out io.Writer) error {
	res := rank.Result{Targets: r.Targets, Learnings: r.Learnings, Stale: r.Stale, Notes: r.Notes}
	return res.WriteMarkdown(out)
}

// ChangedFile is a file of a change: its changed lines ("10-14") and the
// symbols they touch; Deleted when the change removes it.
type ChangedFile struct {
	Path    string   `json:"path"`
	Lines   []string `json:"lines,omitempty"`
	Symbols []string `json:"symbols,omitempty"`
	Deleted bool     `json:"deleted,omitempty"`
}

// maxImpactTargets bounds the places of a large diff that are ranked: the
// first ones in path order.
const maxImpactTargets = 500

// Impact ranks the learnings that a change may affect.
func (w *Workspace) Impact(ctx context.Context, opts ImpactOptions) (*ImpactReport, error) {
	if len(opts.Targets) > 0 && (opts.Staged || opts.Rev != "") {
		return nil, errors.New("impact: give targets or a diff (--staged, --rev), not both")
	}
	if opts.Staged && opts.Rev != "" {
		return nil, errors.New("--staged and --rev exclude each other")
	}
	if err := checkRev("--rev", opts.Rev); err != nil {
		return nil, err
	}
	ro := rank.Options{Depth: opts.Depth, Limit: opts.Limit}
	if err := ro.Check(); err != nil {
		return nil, err
	}
	var hunks map[string][]source.Hunk
	if len(opts.Targets) == 0 {
		repo, err := source.OpenRepo(w.root)
		if err != nil {
			return nil, fmt.Errorf("impact: %w", err)
		}
		from := "HEAD"
		if opts.Rev != "" {
			from = opts.Rev
		}
		if hunks, err = repo.ChangedLines(ctx, source.DiffOptions{From: from, Staged: opts.Staged}); err != nil {
			return nil, fmt.Errorf("impact: %w", err)
		}
	}
	rep := &ImpactReport{Changes: []ChangedFile{}}
	err := w.withStore(ctx, func(st *graph.Store) error {
		var targets []rank.Target
		var notes []string
		for _, arg := range opts.Targets {
			t, note, err := w.contextTarget(st, arg)
			if err != nil {
				return err
			}
			if t.Learning != "" {
				return fmt.Errorf("impact: %s is a learning; give a file, file:line or path::Symbol", arg)
			}
			targets = append(targets, t)
			if note != "" {
				notes = append(notes, note)
			}
			cf := ChangedFile{Path: t.File}
			if t.Line > 0 {
				cf.Lines = []string{strconv.Itoa(t.Line)}
			}
			if t.Symbol != "" {
				cf.Symbols = []string{t.Symbol}
			}
			rep.Changes = append(rep.Changes, cf)
		}
		paths := slices.Sorted(maps.Keys(hunks))
		for _, p := range paths {
			cf, ts, err := changeTargets(st, p, hunks[p])
			if err != nil {
				return err
			}
			rep.Changes = append(rep.Changes, cf)
			targets = append(targets, ts...)
		}
		if len(targets) > maxImpactTargets {
			notes = append(notes, fmt.Sprintf("the change touches %d places; ranked the first %d", len(targets), maxImpactTargets))
			targets = targets[:maxImpactTargets]
		}
		if len(targets) == 0 {
			rep.Targets, rep.Learnings, rep.Stale = []rank.Target{}, []rank.Item{}, []rank.Item{}
			rep.Notes = []string{"no change: nothing is affected"}
			return nil
		}
		res, err := w.rank(ctx, st, targets, ro)
		if err != nil {
			return err
		}
		// As a context answer: where the code is now, and whether it holds.
		if err := w.recheck(ctx, st, res); err != nil {
			return err
		}
		rep.Targets, rep.Learnings, rep.Stale, rep.Notes = res.Targets, res.Learnings, res.Stale, append(notes, res.Notes...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// changeTargets describes the changed lines of one file and turns them into
// ranking targets: each hunk's first line, and each indexed symbol the
// hunk overlaps.
func changeTargets(st *graph.Store, path string, hunks []source.Hunk) (ChangedFile, []rank.Target, error) {
	cf := ChangedFile{Path: path, Deleted: hunks == nil}
	if cf.Deleted {
		return cf, []rank.Target{{Arg: path, File: path}}, nil
	}
	syms, err := analyzer.Symbols(st, path)
	if err != nil && !errors.Is(err, graph.ErrNotFound) {
		return cf, nil, fmt.Errorf("impact: %s: %w", path, err)
	}
	var ts []rank.Target
	seen := map[string]bool{}
	for _, h := range hunks {
		cf.Lines = append(cf.Lines, fmt.Sprintf("%d-%d", h.Start, h.End))
		ts = append(ts, rank.Target{Arg: fmt.Sprintf("%s:%d", path, h.Start), File: path, Line: h.Start})
		for _, s := range syms {
			if s.StartLine <= h.End && h.Start <= s.EndLine && !seen[s.FQName] {
				seen[s.FQName] = true
				cf.Symbols = append(cf.Symbols, s.FQName)
				ts = append(ts, rank.Target{Arg: s.FQName, File: path, Symbol: s.FQName})
			}
		}
	}
	if len(hunks) == 0 {
		ts = append(ts, rank.Target{Arg: path, File: path}) // a mode change, a rename
	}
	return cf, ts, nil
}
