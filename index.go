package lore

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/cochange"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

// IndexOptions configure Index.
type IndexOptions struct {
	// Force re-parses every file.
	Force bool
	// Workers parse in parallel; 0 means GOMAXPROCS, 1 means sequential.
	Workers int
	// Progress is called as files are read (for a progress bar).
	Progress func(analyzer.Progress)
}

// Index brings the code index (files, symbols, imports and IMPORTS edges)
// up to date with the working tree. Only new and changed files are parsed.
// The store opens read-only: a tree with nothing changed is checked
// without opening it for writing (see analyzer.Update).
func (w *Workspace) Index(ctx context.Context, opts IndexOptions) (analyzer.Summary, error) {
	var sum analyzer.Summary
	err := w.withStore(ctx, func(st *graph.Store) error {
		var err error
		sum, err = w.index(ctx, st, opts)
		return err
	})
	return sum, err
}

func (w *Workspace) index(ctx context.Context, st *graph.Store, opts IndexOptions) (analyzer.Summary, error) {
	// A holder learns of changes from here on (see Changed).
	held := w.held != nil
	sum, err := analyzer.Update(ctx, st, source.Dir(w.root), analyzer.Options{
		Workers:     opts.Workers,
		Ignore:      w.cfg.Ignore,
		MaxFileSize: w.cfg.MaxFileSize,
		Force:       opts.Force,
		Progress:    opts.Progress,
		Table:       w.table,
	})
	if err == nil && held {
		w.treeIndexed = true
	}
	return sum, err
}

// Symbols calls fn for the symbols of the given paths (files or
// directories, repository-relative; none means all), after bringing the
// index up to date.
//
// The index keeps each symbol's hash only; Symbols parses the files it
// lists for their symbols' shapes and sigs.
func (w *Workspace) Symbols(ctx context.Context, paths []string, fn func(analyzer.Symbol) error) error {
	p := analyzer.NewParser(w.table)
	defer p.Close()
	type key struct {
		fq         string
		start, end int
	}
	fsys := source.Dir(w.root)
	var file string
	var shaped map[key]analyzer.Symbol
	return indexed(ctx, w, paths, analyzer.AllSymbols, func(s analyzer.Symbol) string { return s.Path }, func(s analyzer.Symbol) error {
		if s.Shape != "" {
			return fn(s)
		}
		if s.Path != file {
			file, shaped = s.Path, map[key]analyzer.Symbol{}
			// Unreadable or unparsable now: its symbols keep their hashes.
			if src, err := fs.ReadFile(fsys, s.Path); err == nil {
				if f, err := p.Parse(s.Path, src); err == nil {
					for _, x := range f.Symbols {
						shaped[key{x.FQName, x.StartLine, x.EndLine}] = x
					}
				}
			}
		}
		if x, ok := shaped[key{s.FQName, s.StartLine, s.EndLine}]; ok && x.Hash == s.Hash {
			s = x
		}
		return fn(s)
	})
}

// Imports calls fn for the imports of the given paths (files or
// directories; none means all), after bringing the index up to date.
func (w *Workspace) Imports(ctx context.Context, paths []string, fn func(analyzer.Import) error) error {
	return indexed(ctx, w, paths, analyzer.AllImports, func(im analyzer.Import) string { return im.Path }, fn)
}

// indexed updates the index, then calls fn for the items of all that lie
// under paths.
func indexed[T any](ctx context.Context, w *Workspace, paths []string, all func(*graph.Store, func(T) error) error, pathOf func(T) string, fn func(T) error) error {
	match, err := w.pathMatcher(paths)
	if err != nil {
		return err
	}
	return w.withStore(ctx, func(st *graph.Store) error {
		if _, err := w.index(ctx, st, IndexOptions{}); err != nil {
			return err
		}
		return all(st, func(x T) error {
			if match(pathOf(x)) {
				return fn(x)
			}
			return nil
		})
	})
}

// pathMatcher turns path arguments into a predicate over repository paths.
// Arguments are repository-relative (or relative to the current directory
// when the caller resolved them) and must stay inside the repository.
func (w *Workspace) pathMatcher(paths []string) (func(string) bool, error) {
	if len(paths) == 0 {
		return func(string) bool { return true }, nil
	}
	var clean []string
	for _, p := range paths {
		rel, err := w.RelPath(p)
		if err != nil {
			return nil, err
		}
		clean = append(clean, rel)
	}
	return func(p string) bool {
		for _, c := range clean {
			if c == "." || p == c || strings.HasPrefix(p, c+"/") {
				return true
			}
		}
		return false
	}, nil
}

// RelPath turns a path given by a user — absolute, or relative to the
// repository root — into a clean repository-relative slash path, and
// refuses paths outside the repository.
func (w *Workspace) RelPath(p string) (string, error) {
	p = strings.ReplaceAll(p, "\\", "/")
	root := strings.ReplaceAll(w.root, "\\", "/")
	if path.IsAbs(p) {
		if p == root {
			return ".", nil
		}
		if !strings.HasPrefix(p, root+"/") {
			return "", fmt.Errorf("%s is outside the repository %s", p, w.root)
		}
		p = p[len(root)+1:]
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%s is outside the repository %s", p, w.root)
	}
	return c, nil
}

// cochangeOptions fills the zero fields of opts from config.yaml.
func (w *Workspace) cochangeOptions(opts cochange.Options) (cochange.Options, error) {
	c := w.cfg.Cochange
	if opts.Since.IsZero() && !opts.FullHistory && opts.MaxCommits == 0 && c.Since != "" {
		t, err := cochange.ParseSince(c.Since, time.Now())
		if err != nil {
			return opts, fmt.Errorf("config cochange.since: %w", err)
		}
		opts.Since = t
	}
	if opts.MaxCommits == 0 {
		opts.MaxCommits = c.MaxCommits
	}
	if opts.MaxChangeset == 0 {
		opts.MaxChangeset = c.MaxChangeset
	}
	if opts.MinRevs == 0 {
		opts.MinRevs = c.MinRevs
	}
	if opts.MinShared == 0 {
		opts.MinShared = c.MinShared
	}
	if opts.MinCoupling == 0 {
		opts.MinCoupling = c.MinCoupling
	}
	if c.Renames != nil && !*c.Renames {
		opts.NoRenames = true
	}
	opts.ByDay = opts.ByDay || c.ByDay
	opts.Merges = opts.Merges || c.Merges
	return opts, nil
}

// CochangeSwitches are the on/off settings of an analysis that config.yaml
// also holds, as a caller gave them explicitly: a nil one leaves the
// option and config.yaml to decide, a set one wins over both, so that a
// command line can turn off what the configuration turns on.
type CochangeSwitches struct {
	Merges, ByDay, Renames, Symbols *bool
}

// apply sets opts from the switches that are set, after config.yaml's
// values were filled in.
func (sw CochangeSwitches) apply(opts *cochange.Options) {
	if sw.Merges != nil {
		opts.Merges = *sw.Merges
	}
	if sw.ByDay != nil {
		opts.ByDay = *sw.ByDay
	}
	if sw.Renames != nil {
		opts.NoRenames = !*sw.Renames
	}
	if sw.Symbols != nil && !*sw.Symbols {
		opts.Symbols = nil
	}
}

// NewSymbolParser returns a cochange.SymbolParser over lore's analyzer
// (the files of its languages; others are not parsed) and the function
// that frees it. Symbols that contain others (a class of methods) are left
// out: their changes are their members'. Symbols that share a name (Go's
// init functions) are one symbol.
func NewSymbolParser() (cochange.SymbolParser, func()) {
	return newSymbolParser(nil)
}

// newSymbolParser is NewSymbolParser over the language table t (nil: a
// new one).
func newSymbolParser(t *analyzer.Table) (cochange.SymbolParser, func()) {
	p := analyzer.NewParser(t)
	table := p.Table()
	parse := func(path string, content []byte) (map[string]string, bool) {
		if table.ForPath(path) == nil {
			return nil, false
		}
		f, err := p.Parse(path, content)
		if err != nil {
			return nil, false // past the parser's bounds: as if unsupported
		}
		// FQNames start with the path.
		prefix := path + cochange.SymbolSep
		parents := make(map[string]bool)
		for _, s := range f.Symbols {
			if i := strings.LastIndex(s.FQName, cochange.SymbolSep); i > len(path) {
				parents[s.FQName[:i]] = true
			}
		}
		m := make(map[string]string, len(f.Symbols))
		for _, s := range f.Symbols {
			if !parents[s.FQName] {
				m[strings.TrimPrefix(s.FQName, prefix)] += s.Hash
			}
		}
		return m, true
	}
	return parse, p.Close
}

// AnalyzeCochange brings the co-change analysis of the repository's git
// history up to date (incrementally when it can) and stores the coupled
// pairs as CO_CHANGES_WITH edges. Zero options take config.yaml's values,
// then the window of the earlier analysis (a call without a window never
// narrows what was analysed), then cochange's defaults.
func (w *Workspace) AnalyzeCochange(ctx context.Context, opts cochange.Options) (*cochange.Result, error) {
	return w.AnalyzeCochangeWith(ctx, opts, CochangeSwitches{})
}

// AnalyzeCochangeWith is AnalyzeCochange with switches that override both
// opts and config.yaml (see CochangeSwitches).
func (w *Workspace) AnalyzeCochangeWith(ctx context.Context, opts cochange.Options, sw CochangeSwitches) (*cochange.Result, error) {
	opts, err := w.cochangeOptions(opts)
	if err != nil {
		return nil, err
	}
	sw.apply(&opts)
	if opts.Symbols == nil && w.cfg.Cochange.Symbols && (sw.Symbols == nil || *sw.Symbols) {
		parse, done := newSymbolParser(w.table)
		defer done()
		opts.Symbols = parse
	}
	var res *cochange.Result
	err = w.withWriter(ctx, func(st *graph.Store) error {
		o, note := opts, ""
		if o.Since.IsZero() && !o.FullHistory && o.MaxCommits == 0 {
			s, err := cochange.CheckStatus(ctx, st, w.root)
			if err != nil {
				return err
			}
			o, note = keepWindow(o, s)
		}
		res, err = cochange.Analyze(ctx, st, w.root, o)
		if err == nil && note != "" {
			res.Notes = append(res.Notes, note)
		}
		return err
	})
	return res, err
}

// windowSlack is how much further back than the default window a stored
// window must reach to be kept (see keepWindow).
const windowSlack = 30 * 24 * time.Hour

// keepWindow gives options without a window the window of the stored
// analysis s when that reaches clearly further back than cochange's
// default (a stored default window slides forward as before), and says
// so.
func keepWindow(o cochange.Options, s cochange.Status) (cochange.Options, string) {
	switch {
	case !s.Analyzed:
	case !s.Since.IsZero() && s.Since.After(time.Now().Add(-cochange.DefaultWindow-windowSlack)):
	case s.Since.IsZero() && s.MaxCommits > 0:
		o.MaxCommits = s.MaxCommits
		return o, fmt.Sprintf("kept the earlier analysis' window of %d commits; pass since or full_history to change it", s.MaxCommits)
	case s.Since.IsZero():
		o.FullHistory = true
		return o, "kept the earlier analysis' window, all of history; pass since to narrow it"
	default:
		o.Since = s.Since
		return o, fmt.Sprintf("kept the earlier analysis' window, since %s; pass since to change it", s.Since.Format(time.DateOnly))
	}
	return o, ""
}

// CochangePairs returns the stored coupled pairs (a < b): of files, or
// with symbols of symbols (path::fqname).
func (w *Workspace) CochangePairs(ctx context.Context, symbols bool) ([]cochange.Pair, error) {
	var ps []cochange.Pair
	err := w.withStore(ctx, func(st *graph.Store) error {
		var err error
		if symbols {
			ps, err = cochange.SymbolPairs(ctx, st)
		} else {
			ps, err = cochange.Pairs(ctx, st)
		}
		w.warnStaleCochange(ctx, st)
		return err
	})
	return ps, err
}

// CochangeSymbolPartners returns the symbols that change together with
// symbol (path::fqname), strongest first, from the last analysis with
// symbols.
func (w *Workspace) CochangeSymbolPartners(ctx context.Context, symbol string) ([]cochange.Partner, error) {
	var ps []cochange.Partner
	err := w.withStore(ctx, func(st *graph.Store) error {
		var err error
		ps, err = cochange.SymbolPartners(ctx, st, symbol)
		w.warnStaleCochange(ctx, st)
		return err
	})
	return ps, err
}

// CochangePartners returns the files that change together with file,
// strongest first.
func (w *Workspace) CochangePartners(ctx context.Context, file string) ([]cochange.Partner, error) {
	rel, err := w.RelPath(file)
	if err != nil {
		return nil, err
	}
	var ps []cochange.Partner
	err = w.withStore(ctx, func(st *graph.Store) error {
		var err error
		ps, err = cochange.Partners(ctx, st, rel)
		w.warnStaleCochange(ctx, st)
		return err
	})
	return ps, err
}

// warnStaleCochange tells the user when the co-change analysis is old or
// behind HEAD.
func (w *Workspace) warnStaleCochange(ctx context.Context, st *graph.Store) {
	s, err := cochange.CheckStatus(ctx, st, w.root)
	switch {
	case err != nil || !s.Analyzed:
		return // callers report a missing analysis themselves
	case s.Stale:
		w.notify("co-change analysis is stale (%s): run lore cochange analyze", s.Reason)
	}
}
