package lore

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/verify"
	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/source"
)

// RemoveAnchor removes one anchor of a learning, named by its 1-based
// position or its spec.
func (w *Workspace) RemoveAnchor(ctx context.Context, id, anchor string) (*learnfile.Learning, error) {
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
		i, err := anchorIndex(fresh, anchor)
		if err != nil {
			return err
		}
		fresh.Anchors = slices.Delete(fresh.Anchors, i, i+1)
		fresh.Updated = time.Now().UTC().Truncate(time.Second)
		if err := w.writeLearning(fresh); err != nil {
			return err
		}
		out = fresh
		return w.learnings.Sync(ctx)
	})
	return out, err
}

// anchorIndex finds an anchor by 1-based position or spec.
func anchorIndex(l *learnfile.Learning, ref string) (int, error) {
	if n, err := strconv.Atoi(ref); err == nil {
		if n < 1 || n > len(l.Anchors) {
			return 0, fmt.Errorf("learning %s has %d anchors; there is no anchor %d", l.ID, len(l.Anchors), n)
		}
		return n - 1, nil
	}
	for i, a := range l.Anchors {
		if a.Spec() == ref {
			return i, nil
		}
	}
	return 0, fmt.Errorf("learning %s has no anchor %s (see lore learn show %s)", l.ID, ref, l.ID)
}

// AcceptOptions select the anchors to accept.
type AcceptOptions struct {
	Learning string // id or prefix
	Anchor   int    // 1-based; 0 means every anchor that is not valid and unchanged
	// All accepts in bulk, after a person reviewed a large mechanical
	// change: every anchor that is not valid and unchanged, of Learnings
	// (ids or prefixes; every learning when empty). Anchors whose code was
	// not found cannot be accepted: they are reported as skipped.
	All       bool
	Learnings []string
	// Changes limits acceptance to anchors with these change kinds.
	Changes []anchors.Change
	// To re-anchors the one anchor named by Learning and Anchor at a new
	// target, keeping its position (and so its history): the 1-based
	// number of one of the candidates verification suggests, or a spec.
	To string
	// Candidate (1-based) is To given as a number: one of the candidates
	// verification suggested (Result.Candidates).
	Candidate int
}

// AcceptReport says what Accept did.
type AcceptReport struct {
	Accepted []anchors.Result `json:"accepted"`
	// Skipped are anchors that matched but whose code was not found
	// (All only): re-anchor or remove them.
	Skipped []anchors.Result `json:"skipped,omitempty"`
	// Files are the learning files rewritten.
	Files []string `json:"files,omitempty"`
}

// Accept re-baselines anchors at their current location in the working
// tree after a person reviewed them: the way to accept drift. The
// learning files' updated time is bumped.
func (w *Workspace) Accept(ctx context.Context, opts AcceptOptions) (*AcceptReport, error) {
	rep := &AcceptReport{Accepted: []anchors.Result{}}
	if opts.All && (opts.Learning != "" || opts.Anchor != 0) {
		return nil, errors.New("accept: give learnings to accept in bulk, or one learning (and anchor), not both")
	}
	if opts.Anchor < 0 {
		return nil, fmt.Errorf("accept: anchor %d: positions start at 1", opts.Anchor)
	}
	if opts.Candidate < 0 {
		return nil, errors.New("accept: candidates are numbered from 1")
	}
	if opts.Candidate > 0 {
		if opts.To != "" {
			return nil, errors.New("accept: give a candidate or a target (To), not both")
		}
		opts.To = strconv.Itoa(opts.Candidate)
	}
	if opts.To != "" && (opts.All || opts.Anchor == 0 || len(opts.Changes) > 0) {
		return nil, errors.New("accept --to: name one anchor (LEARNING/N) to move to the new target")
	}
	err := w.withWriter(ctx, func(st *graph.Store) error {
		var ids []string
		if opts.All {
			var err error
			if ids, err = w.selectLearnings(opts.Learnings); err != nil {
				return err
			}
		} else {
			l, err := w.lookup(opts.Learning)
			if err != nil {
				return err
			}
			if opts.Anchor > len(l.Anchors) {
				return fmt.Errorf("learning %s has %d anchors; there is no anchor %d", l.ID, len(l.Anchors), opts.Anchor)
			}
			ids = []string{l.ID}
		}
		if _, err := w.index(ctx, st, IndexOptions{}); err != nil {
			return err
		}
		// The working tree verified as lore verify does, with HEAD as
		// history and git's diff as the change: what it followed,
		// accept takes.
		vs, err := verify.Read(ctx, w.root, verify.ReadOptions{})
		if err != nil {
			return err
		}
		defer vs.Close() // only read: no error to lose
		v, err := verify.NewVerifier(vs, verify.Options{Threshold: w.cfg.Verify.RelocationThreshold, Ignore: w.cfg.Ignore,
			MaxFileSize: w.cfg.MaxFileSize, Index: st, Sources: anchors.SourceOptions{Table: w.table, Parsed: w.parsed}})
		if err != nil {
			return err
		}
		defer v.Close()
		src := v.Source
		// The files as they are now, verified in one run.
		var fresh []*learnfile.Learning
		var batch []anchors.Learning
		for _, id := range ids {
			l, err := w.readLearning(w.learnings.Learning(id))
			if err != nil {
				return err
			}
			fresh = append(fresh, l)
			batch = append(batch, anchors.Learning{ID: id, Anchors: l.Anchors})
		}
		rs := v.VerifyLearnings(ctx, batch)
		if err := ctx.Err(); err != nil {
			return err
		}
		k := 0
		var changed []*learnfile.Learning
		now := time.Now().UTC().Truncate(time.Second)
		for li, l := range fresh {
			touched := false
			for i, a := range l.Anchors {
				r := rs[k]
				k++
				r.Title = l.Title
				if opts.Anchor != 0 && i+1 != opts.Anchor {
					continue
				}
				if opts.Anchor == 0 && r.Status == anchors.Valid && r.Change == anchors.ChangeNone {
					continue
				}
				if len(opts.Changes) > 0 && !slices.Contains(opts.Changes, r.Change) {
					continue
				}
				if opts.To != "" {
					na, err := acceptTo(ctx, src, r, opts.To)
					if err != nil {
						return fmt.Errorf("anchor %d (%s) of %s: %w", i+1, a.Spec(), l.ID, err)
					}
					l.Anchors[i] = na
					touched = true
					r.To = &anchors.Location{Path: na.Path(), FQName: na.Name(), LocalName: na.FQName() + na.Selector(), Lines: na.Lines}
					r.Reason = "re-anchored at " + na.Spec()
					rep.Accepted = append(rep.Accepted, r)
					continue
				}
				na, ok := anchors.Accept(r)
				if !ok {
					if opts.All {
						rep.Skipped = append(rep.Skipped, r)
						continue
					}
					return fmt.Errorf("anchor %d (%s) of %s: %s; nothing to accept: re-anchor it where the code went (lore anchor accept %s/%d --to SPEC) or remove it (lore anchor rm %s %d)", i+1, a.Spec(), l.ID, r.Reason, l.ID, i+1, l.ID, i+1)
				}
				l.Anchors[i] = na
				touched = true
				rep.Accepted = append(rep.Accepted, r)
			}
			if touched {
				fresh[li].Updated = now
				changed = append(changed, l)
				rep.Files = append(rep.Files, l.Path)
			}
		}
		if len(changed) == 0 {
			return nil
		}
		if err := w.writeLearnings(changed); err != nil {
			return err
		}
		return w.learnings.Sync(ctx)
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// AddAnchor anchors a learning (id or unique prefix) to one more place:
// spec is path, path::Symbol, path#L10-L24 or glob:pattern. Its baseline
// is recorded now. Adding an anchor the learning already has changes
// nothing. It returns the learning as written.
func (w *Workspace) AddAnchor(ctx context.Context, id, spec string) (*learnfile.Learning, error) {
	var out *learnfile.Learning
	err := w.withWriter(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		a, err := w.newAnchor(ctx, spec)
		if err != nil {
			return err
		}
		fresh, err := w.readLearning(l)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(fresh.Anchors, func(x anchors.Anchor) bool { return x.Spec() == a.Spec() }) {
			out = fresh
			return nil
		}
		fresh.Anchors = append(fresh.Anchors, a)
		fresh.Updated = time.Now().UTC().Truncate(time.Second)
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.writeLearning(fresh); err != nil {
			return fmt.Errorf("anchor %s: %w", l.ID, err)
		}
		out = fresh
		return w.learnings.Sync(ctx)
	})
	return out, err
}

// anchorSource returns the working tree as anchors read it, for recording
// baselines. Close it when done.
func (w *Workspace) anchorSource() (*anchors.Source, error) {
	return anchors.NewSource(source.Dir(w.root), anchors.SourceOptions{Ignore: w.cfg.Ignore, MaxFileSize: w.cfg.MaxFileSize, Table: w.table})
}

// newAnchor parses spec, checks that it points at something inside the
// repository and records its baseline.
func (w *Workspace) newAnchor(ctx context.Context, spec string) (anchors.Anchor, error) {
	src, err := w.anchorSource()
	if err != nil {
		return anchors.Anchor{}, err
	}
	defer src.Close()
	as, err := baselines(ctx, src, []string{spec})
	if err != nil {
		return anchors.Anchor{}, err
	}
	return as[0], nil
}

// AnchorSuggestion is a symbol of the index that a learning's text names.
type AnchorSuggestion struct {
	Spec string `json:"spec"` // path::Outer::inner, ready for AddAnchor
	Kind string `json:"kind"`
	// Name is the word of the text that names it.
	Name string `json:"name"`
}

// maxSuggestions bounds SuggestAnchors' answer.
const maxSuggestions = 10

// SuggestAnchors returns symbols of the index that text names: words that
// look like code (validateToken, parse_header, Store.Open, `Retry`,
// Retry()) and name exactly the symbols returned. A word naming more than
// three symbols says too little to suggest any. Run Index first for a
// current answer.
func (w *Workspace) SuggestAnchors(ctx context.Context, text string) ([]AnchorSuggestion, error) {
	out := []AnchorSuggestion{}
	err := w.withStore(ctx, func(st *graph.Store) error {
		seen := map[string]bool{}
		for _, word := range codeWords(text) {
			qual, name := "", word
			if i := strings.LastIndexAny(word, ".:"); i >= 0 {
				qual, name = strings.Trim(word[:i], ".:"), word[i+1:]
			}
			syms, err := analyzer.SymbolsByName(st, name)
			if err != nil {
				return err
			}
			var hits []analyzer.Symbol
			for _, s := range syms {
				// A qualifier is an enclosing symbol or, as in Go, the
				// package (the file's directory).
				if qual == "" || strings.Contains(s.FQName, "::"+strings.ReplaceAll(qual, ".", "::")+"::") || path.Base(path.Dir(s.Path)) == qual {
					hits = append(hits, s)
				}
			}
			if len(hits) > 3 {
				continue
			}
			for _, s := range hits {
				if !seen[s.FQName] && len(out) < maxSuggestions {
					seen[s.FQName] = true
					out = append(out, AnchorSuggestion{Spec: s.FQName, Kind: s.Kind, Name: word})
				}
			}
		}
		return nil
	})
	return out, err
}

// codeWords returns the words of text that look like code, in order, each
// once: in backquotes, followed by "()", qualified (a.b, a::b), or with a
// capital after the first letter or an underscore inside.
func codeWords(text string) []string {
	var out []string
	seen := map[string]bool{}
	isWord := func(r byte) bool {
		return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	for i := 0; i < len(text); {
		if !isWord(text[i]) || (text[i] >= '0' && text[i] <= '9') {
			i++
			continue
		}
		j := i
		for j < len(text) && (isWord(text[j]) || (text[j] == '.' || text[j] == ':') && j+1 < len(text) && (isWord(text[j+1]) || text[j+1] == ':')) {
			j++
		}
		word := strings.Trim(text[i:j], ".:")
		ticked := i > 0 && text[i-1] == '`' && j < len(text) && text[j] == '`'
		called := strings.HasPrefix(text[j:], "()")
		inner := strings.TrimLeft(word, "_")
		codey := strings.ContainsAny(word, ".:") || strings.Contains(strings.Trim(word, "_"), "_") ||
			(len(inner) > 1 && strings.ContainsAny(inner[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(inner, "abcdefghijklmnopqrstuvwxyz"))
		if len(word) >= 3 && (ticked || called || codey) && !seen[word] {
			seen[word] = true
			out = append(out, word)
		}
		i = j
	}
	return out
}

// acceptTo returns the anchor baselined at the target to names: the
// 1-based number of one of r's candidates, or a spec.
func acceptTo(ctx context.Context, files anchors.Files, r anchors.Result, to string) (anchors.Anchor, error) {
	spec := to
	if n, err := strconv.Atoi(to); err == nil {
		if len(r.Candidates) == 0 {
			return anchors.Anchor{}, fmt.Errorf("--to %d: verification suggests no candidates (it says: %s); give a spec instead", n, r.Reason)
		}
		if n < 1 || n > len(r.Candidates) {
			return anchors.Anchor{}, fmt.Errorf("--to %d: there are %d candidates; give 1..%d or a spec", n, len(r.Candidates), len(r.Candidates))
		}
		spec = anchors.LocationSpec(r.Candidates[n-1].Location)
	}
	a, err := anchors.ParseSpec(spec)
	if err != nil {
		return anchors.Anchor{}, fmt.Errorf("--to: %w", err)
	}
	return anchors.Baseline(ctx, files, a)
}
