package lore

import (
	"context"
	"fmt"
	"time"

	"github.com/lorehq/lore/cochange"
	"github.com/lorehq/lore/graph"
)

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
	return opts, nil
}

// AnalyzeCochange brings the co-change analysis of the repository's git
// history up to date (incrementally when it can) and stores the coupled
// pairs as CO_CHANGES_WITH edges. Zero options take config.yaml's values,
// then cochange's defaults.
func (w *Workspace) AnalyzeCochange(ctx context.Context, opts cochange.Options) (*cochange.Result, error) {
	opts, err := w.cochangeOptions(opts)
	if err != nil {
		return nil, err
	}
	var res *cochange.Result
	err = w.withWriter(ctx, func(st *graph.Store) error {
		res, err = cochange.Analyze(ctx, st, w.root, opts)
		return err
	})
	return res, err
}

// CochangePairs returns the stored coupled pairs (a < b).
func (w *Workspace) CochangePairs(ctx context.Context) ([]cochange.Pair, error) {
	var ps []cochange.Pair
	err := w.withStore(ctx, func(st *graph.Store) error {
		var err error
		ps, err = cochange.Pairs(ctx, st)
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
