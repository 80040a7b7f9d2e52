package cochange

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

// ErrNoAnalysis reports that the store holds no co-change analysis yet.
var ErrNoAnalysis = errors.New("no co-change analysis yet (run lore cochange analyze)")

// ErrNoSymbolAnalysis reports that the last analysis had no symbols.
var ErrNoSymbolAnalysis = errors.New("no symbol co-change analysis yet (run lore cochange analyze --symbols)")

// Pairs returns the pairs kept by the last Analyze, sorted by A then B.
func Pairs(ctx context.Context, s *graph.Store) ([]Pair, error) {
	ps, err := storedPairs(ctx, s, keyResult, nil)
	if err != nil {
		return nil, fmt.Errorf("cochange: pairs: %w", err)
	}
	return ps, nil
}

// SymbolPairs returns the symbol pairs kept by the last Analyze (names as
// "path::fqname"), sorted by A then B.
func SymbolPairs(ctx context.Context, s *graph.Store) ([]Pair, error) {
	ps, err := storedPairs(ctx, s, keySymbols, ErrNoSymbolAnalysis)
	if err != nil {
		return nil, fmt.Errorf("cochange: symbol pairs: %w", err)
	}
	return ps, nil
}

// storedPairs reads the pairs stored under key; missing is the error for
// an analysis without them (nil: none, a repository without commits).
func storedPairs(ctx context.Context, s *graph.Store, key string, missing error) ([]Pair, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var ps []Pair
	err := s.View(func(tx *graph.Tx) error {
		st, err := loadState(tx)
		if err != nil {
			return err
		}
		if st == nil {
			return ErrNoAnalysis
		}
		b, err := getLarge(tx, key)
		if errors.Is(err, graph.ErrNotFound) {
			return missing
		}
		if err != nil {
			return err
		}
		ps, err = decodePairs(b)
		return err
	})
	return ps, err
}

// Partner is a file that changes together with a given one.
type Partner struct {
	Path string `json:"path"`
	// Shared is the number of change-sets with both files, Revs and
	// PartnerRevs those of the given file and of the partner.
	Shared      int     `json:"shared"`
	Revs        int     `json:"revs"`
	PartnerRevs int     `json:"partner_revs"`
	Score       float64 `json:"score"`
	// LastCommitTime is the newest change-set both files are in.
	LastCommitTime time.Time `json:"last_commit_time"`
}

// Partners returns the co-change partners of file (a slash-separated path
// relative to the repository root) from the last Analyze, best first:
// by score, then shared revisions, then path.
func Partners(ctx context.Context, s *graph.Store, file string) ([]Partner, error) {
	ps, err := Pairs(ctx, s)
	if err != nil {
		return nil, err
	}
	return partnersOf(ps, file), nil
}

// SymbolPartners returns the symbols that change together with symbol
// ("path::fqname") from the last Analyze with symbols, best first.
func SymbolPartners(ctx context.Context, s *graph.Store, symbol string) ([]Partner, error) {
	ps, err := SymbolPairs(ctx, s)
	if err != nil {
		return nil, err
	}
	return partnersOf(ps, symbol), nil
}

func partnersOf(ps []Pair, file string) []Partner {
	var out []Partner
	for _, p := range ps {
		switch file {
		case p.A:
			out = append(out, Partner{p.B, p.Shared, p.RevsA, p.RevsB, p.Score, time.Unix(p.Last, 0).UTC()})
		case p.B:
			out = append(out, Partner{p.A, p.Shared, p.RevsB, p.RevsA, p.Score, time.Unix(p.Last, 0).UTC()})
		}
	}
	slices.SortFunc(out, func(x, y Partner) int {
		if c := cmp.Compare(y.Score, x.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Shared, x.Shared); c != 0 {
			return c
		}
		return cmp.Compare(x.Path, y.Path)
	})
	return out
}

// Status describes how current the stored analysis is.
type Status struct {
	// Analyzed is false when there is no analysis; the rest is then zero
	// except CurrentHead, Stale and Reason.
	Analyzed bool      `json:"analyzed"`
	Head     string    `json:"head"`
	RanAt    time.Time `json:"ran_at"`
	// CurrentHead is the repository's HEAD now.
	CurrentHead string `json:"current_head"`
	// Behind counts the commits on HEAD's first-parent chain after Head.
	// It is StaleCommits+1 when Head is not among them (further behind, or
	// history was rewritten).
	Behind  int       `json:"behind"`
	Commits int       `json:"commits"`
	Pairs   int       `json:"pairs"`
	Since   time.Time `json:"since,omitzero"`
	// MaxCommits is the commit limit of the analysis (0: none).
	MaxCommits int  `json:"max_commits,omitempty"`
	Shallow    bool `json:"shallow,omitempty"`
	// Stale is set when the analysis is missing, older than StaleAge or
	// more than StaleCommits behind HEAD; Reason then says which, in a few
	// words ("never analysed", "9 days old", "more than 100 commits behind
	// HEAD") for the caller's warning.
	Stale  bool   `json:"stale"`
	Reason string `json:"reason,omitempty"`
}

// CheckStatus compares the stored analysis with the repository now.
func CheckStatus(ctx context.Context, s *graph.Store, repoDir string) (Status, error) {
	var st *state
	if err := s.View(func(tx *graph.Tx) error {
		var err error
		st, err = loadState(tx)
		return err
	}); err != nil {
		return Status{}, fmt.Errorf("cochange: status: %w", err)
	}
	r, err := source.OpenRepo(repoDir)
	if err != nil {
		return Status{}, fmt.Errorf("cochange: status: %w", err)
	}
	defer r.Close()
	hist, err := r.History()
	if err != nil {
		return Status{}, fmt.Errorf("cochange: status: %w", err)
	}
	defer hist.Close()
	head, err := hist.Head()
	if err != nil {
		return Status{}, fmt.Errorf("cochange: status: %w", err)
	}
	out := Status{}
	if !head.IsZero() {
		out.CurrentHead = head.String()
	}
	if st == nil {
		out.Stale, out.Reason = true, "never analysed"
		return out, nil
	}
	out.Analyzed, out.Head, out.RanAt = true, st.Head, st.RanAt
	out.Commits, out.Pairs, out.Since, out.Shallow, out.MaxCommits = st.Commits, st.Pairs, st.Since, st.Shallow, st.MaxCommits
	out.Behind, err = behind(ctx, hist, head, st.Head)
	if err != nil {
		return Status{}, fmt.Errorf("cochange: status: %w", err)
	}
	age := time.Since(st.RanAt)
	switch {
	case out.Behind > StaleCommits:
		out.Stale, out.Reason = true, fmt.Sprintf("more than %d commits behind HEAD", StaleCommits)
	case age > StaleAge:
		out.Stale, out.Reason = true, fmt.Sprintf("%d days old", int(age/(24*time.Hour)))
	}
	return out, nil
}

// behind counts first-parent steps from head to analysed, up to
// StaleCommits+1.
func behind(ctx context.Context, r *source.History, head plumbing.Hash, analysed string) (int, error) {
	target := plumbing.ZeroHash
	if analysed != "" {
		target = plumbing.NewHash(analysed)
	}
	h := head
	for n := 0; n <= StaleCommits; n++ {
		if h == target {
			return n, nil
		}
		if h.IsZero() || r.Shallow(h) {
			break
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		c, err := r.Commit(h)
		if err != nil {
			return 0, err
		}
		if len(c.Parents) == 0 {
			h = plumbing.ZeroHash
			continue
		}
		h = c.Parents[0]
	}
	return StaleCommits + 1, nil
}
