package cochange

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lorehq/lore/source"
)

// Defaults of Options.
const (
	DefaultMaxChangeset = 30
	DefaultMinRevs      = 5
	DefaultMinShared    = 5
	DefaultMinCoupling  = 0.30
	// DefaultWindow is how far back from the HEAD commit's date the default
	// window reaches.
	DefaultWindow = 365 * 24 * time.Hour
)

// Modes of the walk, as Result.Mode names them.
const (
	// ModeNoMerges counts every non-merge commit reachable from HEAD.
	ModeNoMerges = "no-merges"
	// ModeFirstParent counts each commit of HEAD's first-parent chain, a
	// merge as one change-set.
	ModeFirstParent = "first-parent"
)

// Staleness thresholds used by CheckStatus.
const (
	StaleAge     = 7 * 24 * time.Hour
	StaleCommits = 100
)

// ErrNotRepository reports that a directory is not inside a git repository.
var ErrNotRepository = source.ErrNotRepository

// Options configure Analyze. The zero value analyses the default window
// with the default filters.
type Options struct {
	// Since keeps commits whose committer date is at or after it and that
	// HEAD reaches through such commits only, as git log --since does: an
	// older commit ends the walk along its line of history, even when
	// (with clock skew) its parents are newer.
	Since time.Time
	// MaxCommits keeps at most this many counted commits, newest first
	// by committer date, as git log -n does. Zero means no limit.
	MaxCommits int
	// FullHistory analyses all of history. Without it, and when neither
	// Since nor MaxCommits is set, the window is the DefaultWindow before
	// the HEAD commit's committer date.
	FullHistory bool

	// MaxChangeset skips change-sets with more files. Zero means
	// DefaultMaxChangeset.
	MaxChangeset int
	// MinRevs is the minimum number of revisions of each file of a pair.
	// Zero means DefaultMinRevs.
	MinRevs int
	// MinShared is the minimum number of revisions a pair shares. Zero
	// means DefaultMinShared.
	MinShared int
	// MinCoupling is the minimum degree of coupling, in (0, 1]. Zero means
	// DefaultMinCoupling.
	MinCoupling float64

	// NoRenames turns rename propagation off: a renamed file's history
	// stays under its old name, and a rename counts as a deletion and an
	// addition, as in git log --no-renames.
	NoRenames bool
	// ByDay treats one author's commits of one calendar day (author date, in
	// the author's time zone) as one change-set.
	ByDay bool
	// Merges counts a merged branch as one change-set: the walk follows
	// HEAD's first-parent chain only, and each merge on it counts as its
	// diff against its first parent. Without it every non-merge commit
	// reachable from HEAD counts on its own (git log --no-merges), merges
	// are walked through and not counted.
	Merges bool

	// Symbols, when set, adds co-change of symbols (SymbolPairs): in the
	// files of the kept pairs, each counted commit's changed symbols are a
	// change-set, as found by comparing what Symbols returns for the file
	// before and after the commit.
	Symbols SymbolParser

	// Progress, when set, is called from time to time during the walk of
	// history with the number of commits walked so far.
	Progress func(Progress)
}

// Progress reports how far an analysis got.
type Progress struct {
	// Commits is the number of commits walked so far.
	Commits int
	// Total is the number of commits to walk, or 0 when not known in advance.
	Total int
}

// withDefaults returns o with zero fields replaced by their defaults, or an
// error naming the first invalid field.
func (o Options) withDefaults() (Options, error) {
	if o.MaxChangeset == 0 {
		o.MaxChangeset = DefaultMaxChangeset
	}
	if o.MinRevs == 0 {
		o.MinRevs = DefaultMinRevs
	}
	if o.MinShared == 0 {
		o.MinShared = DefaultMinShared
	}
	if o.MinCoupling == 0 {
		o.MinCoupling = DefaultMinCoupling
	}
	switch {
	case o.MaxCommits < 0:
		return o, fmt.Errorf("cochange: max commits must be 0 (no limit) or more, got %d", o.MaxCommits)
	case o.MaxChangeset < 2:
		return o, fmt.Errorf("cochange: max changeset must be at least 2 files, got %d", o.MaxChangeset)
	case o.MinRevs < 1:
		return o, fmt.Errorf("cochange: min revs must be at least 1, got %d", o.MinRevs)
	case o.MinShared < 1:
		return o, fmt.Errorf("cochange: min shared must be at least 1, got %d", o.MinShared)
	case !(o.MinCoupling > 0 && o.MinCoupling <= 1):
		return o, fmt.Errorf("cochange: min coupling must be in (0, 1], got %v", o.MinCoupling)
	case o.FullHistory && !o.Since.IsZero():
		return o, errors.New("cochange: full history and since exclude each other")
	}
	return o, nil
}

// ParseSince reads a window start as the command line gives it: a date
// (2006-01-02), an RFC 3339 time, or an age before now such as 90d, 12w,
// 6m (months), 1y, or a Go duration (36h).
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, errors.New("cochange: empty since")
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if n, err := strconv.Atoi(s[:len(s)-1]); err == nil && n >= 0 {
		switch s[len(s)-1] {
		case 'd':
			return now.AddDate(0, 0, -n), nil
		case 'w':
			return now.AddDate(0, 0, -7*n), nil
		case 'm':
			return now.AddDate(0, -n, 0), nil
		case 'y':
			return now.AddDate(-n, 0, 0), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("cochange: since %q: want a date (2006-01-02), an RFC 3339 time or an age (90d, 12w, 6m, 1y)", s)
}
