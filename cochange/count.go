package cochange

import (
	"slices"
	"strings"
)

// Pair is two files that change together. A sorts before B.
type Pair struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	Shared int     `json:"shared"`
	RevsA  int     `json:"revs_a"`
	RevsB  int     `json:"revs_b"`
	Score  float64 `json:"score"`
	// Last is the committer time (Unix seconds) of the newest change-set
	// the pair shares.
	Last int64 `json:"-"`
}

// countFilter is the part of Options that counting needs.
type countFilter struct {
	maxChangeset int
	minRevs      int
	minShared    int
	minCoupling  float64
	renames      bool
	byDay        bool
	merges       bool
}

func filterOf(o Options) countFilter {
	return countFilter{o.MaxChangeset, o.MinRevs, o.MinShared, o.MinCoupling, !o.NoRenames, o.ByDay, o.Merges}
}

type pairStat struct {
	shared int32
	last   int64
}

// countStats is the outcome of counting.
type countStats struct {
	commits int // commits counted in the window
	skipped int // change-sets skipped for being too large
}

// count turns change-sets (newest first) into the kept pairs, sorted by A
// then B.
func count(sets []changeSet, names []string, f countFilter) ([]Pair, countStats) {
	var st countStats
	revs := make([]int32, len(names))
	estimate := 0
	for i := range sets {
		if n := len(sets[i].files); n <= f.maxChangeset+len(sets[i].renames) {
			estimate += n * (n - 1) / 2
		}
	}
	pairs := make(map[uint64]pairStat, min(estimate, 1<<20))
	add := func(files []uint32, last int64) {
		if len(files) > f.maxChangeset {
			st.skipped++
			return
		}
		for i, a := range files {
			revs[a]++
			for _, b := range files[i+1:] {
				k := uint64(a)<<32 | uint64(b)
				p := pairs[k]
				p.shared++
				p.last = max(p.last, last)
				pairs[k] = p
			}
		}
	}

	// With grouping by day, change-sets are merged first and counted after.
	type group struct {
		files []uint32
		last  int64
	}
	type dayKey struct {
		author uint32
		day    int32
	}
	var groups []group
	var byDay map[dayKey]int
	if f.byDay {
		byDay = make(map[dayKey]int)
	}
	rename := make(map[uint32]uint32) // old id -> current id
	var files, targets []uint32
	// follow makes older commits see cs's added paths as other files and a
	// renamed file's old name as its current one.
	follow := func(cs *changeSet) {
		if !f.renames || len(rename) == 0 && len(cs.renames) == 0 {
			return
		}
		targets = targets[:0]
		for _, r := range cs.renames {
			t := r[1]
			if cur, ok := rename[t]; ok {
				t = cur
			}
			targets = append(targets, t)
		}
		if len(rename) > 0 {
			for _, e := range cs.files {
				if e&1 == 1 {
					delete(rename, e>>1)
				}
			}
		}
		for k, r := range cs.renames {
			rename[r[0]] = targets[k]
		}
	}
	for i := range sets {
		cs := &sets[i]
		if cs.merge && !f.merges {
			// Ignored entirely, renames included, whether or not it was
			// diffed for an earlier analysis: results must not depend on
			// what the store happens to hold.
			continue
		}
		st.commits++
		// Resolve the commit's files to the names they have now.
		files = files[:0]
		for _, e := range cs.files {
			id := e >> 1
			if f.renames && len(cs.renames) > 0 && isRenameSource(cs.renames, id) {
				continue
			}
			if cur, ok := rename[id]; ok {
				id = cur
			}
			files = append(files, id)
		}
		if f.renames && (len(rename) > 0 || len(cs.renames) > 0) {
			follow(cs)
			slices.Sort(files)
			files = slices.Compact(files)
		}
		if !f.byDay {
			add(files, cs.time)
			continue
		}
		slices.Sort(files)
		files = slices.Compact(files)
		k := dayKey{cs.author, cs.day}
		if gi, ok := byDay[k]; ok {
			g := &groups[gi]
			g.files = append(g.files, files...)
			slices.Sort(g.files)
			g.files = slices.Compact(g.files)
			g.last = max(g.last, cs.time)
			continue
		}
		byDay[k] = len(groups)
		groups = append(groups, group{files: slices.Clone(files), last: cs.time})
	}
	for _, g := range groups {
		add(g.files, g.last)
	}

	var out []Pair
	for k, p := range pairs {
		if int(p.shared) < f.minShared {
			continue
		}
		a, b := uint32(k>>32), uint32(k)
		ra, rb := revs[a], revs[b]
		if int(ra) < f.minRevs || int(rb) < f.minRevs {
			continue
		}
		score := degree(int(p.shared), int(ra), int(rb))
		if score < f.minCoupling {
			continue
		}
		pa, pb := names[a], names[b]
		if pb < pa {
			pa, pb, ra, rb = pb, pa, rb, ra
		}
		out = append(out, Pair{A: pa, B: pb, Shared: int(p.shared), RevsA: int(ra), RevsB: int(rb), Score: score, Last: p.last})
	}
	sortPairs(out)
	return out, st
}

func sortPairs(ps []Pair) {
	slices.SortFunc(ps, func(x, y Pair) int {
		if c := strings.Compare(x.A, y.A); c != 0 {
			return c
		}
		return strings.Compare(x.B, y.B)
	})
}

func isRenameSource(rs [][2]uint32, id uint32) bool {
	for _, r := range rs {
		if r[0] == id {
			return true
		}
	}
	return false
}
