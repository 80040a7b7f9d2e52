package cochange

import (
	"bytes"
	"hash/maphash"
	"path"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/lorehq/lore/source"
)

const (
	// renameMinScore is the similarity from which a deleted and an added
	// file are a rename (git's default is 50%).
	renameMinScore = 0.5
	// renameMaxPairs caps the comparisons of similarity detection in one
	// commit (adds × deletes left after exact matching), like git's
	// diff.renameLimit.
	renameMaxPairs = 100 * 100
	// renameMaxBlob skips similarity detection for larger files.
	renameMaxBlob = 1 << 20
)

// renamePair is one detected rename, as indexes into a commit's changes.
type renamePair struct{ from, to int }

// findRenames pairs deleted with added files of one commit: exact renames
// by equal blob ids, then, if both sides still have files, by similarity.
func (w *walker) findRenames(changes []source.Change) ([]renamePair, error) {
	var adds, dels []int
	for i := range changes {
		c := &changes[i]
		switch {
		case c.Status == 'A' && c.NewMode.IsFile():
			adds = append(adds, i)
		case c.Status == 'D' && c.OldMode.IsFile():
			dels = append(dels, i)
		}
	}
	if len(adds) == 0 || len(dels) == 0 {
		return nil, nil
	}
	var pairs []renamePair
	// Exact: the same blob deleted and added. Prefer the same base name
	// when one blob moved to several places.
	byBlob := make(map[plumbing.Hash][]int, len(dels))
	for _, di := range dels {
		h := changes[di].OldID
		if h == plumbing.ZeroHash || h == emptyBlob {
			continue
		}
		byBlob[h] = append(byBlob[h], di)
	}
	usedDel := make(map[int]bool)
	var restAdds []int
	for _, ai := range adds {
		cands := byBlob[changes[ai].NewID]
		best := -1
		for k, di := range cands {
			if usedDel[di] {
				continue
			}
			if best < 0 || path.Base(changes[di].Path) == path.Base(changes[ai].Path) {
				best = k
				if path.Base(changes[di].Path) == path.Base(changes[ai].Path) {
					break
				}
			}
		}
		if best < 0 {
			restAdds = append(restAdds, ai)
			continue
		}
		usedDel[cands[best]] = true
		pairs = append(pairs, renamePair{from: cands[best], to: ai})
	}
	var restDels []int
	for _, di := range dels {
		if !usedDel[di] {
			restDels = append(restDels, di)
		}
	}
	if len(restAdds) == 0 || len(restDels) == 0 || len(restAdds)*len(restDels) > renameMaxPairs {
		return pairs, nil
	}
	sim, err := w.similarRenames(changes, restAdds, restDels)
	if err != nil {
		return nil, err
	}
	return append(pairs, sim...), nil
}

var emptyBlob = plumbing.ComputeHash(plumbing.BlobObject, nil)

// fingerprint summarises a blob as counts of its lines' hashes, weighted by
// line length, for a similarity score like git's.
type fingerprint struct {
	size  int
	lines map[uint64]int // line hash -> bytes
}

func (w *walker) fingerprint(h plumbing.Hash, mode filemode.FileMode) (*fingerprint, error) {
	if fp, ok := w.fps[h]; ok {
		return fp, nil
	}
	b, err := w.hist.Blob(h)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 || len(b) > renameMaxBlob {
		w.fps[h] = nil
		return nil, nil
	}
	fp := &fingerprint{size: len(b), lines: make(map[uint64]int)}
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		line := b
		if nl >= 0 {
			line = b[:nl+1]
		}
		b = b[len(line):]
		fp.lines[maphash.Bytes(w.seed, line)] += len(line)
	}
	if len(w.fps) > 4096 {
		clear(w.fps)
	}
	w.fps[h] = fp
	return fp, nil
}

func similarity(a, b *fingerprint) float64 {
	if a == nil || b == nil {
		return 0
	}
	small, big := a, b
	if len(small.lines) > len(big.lines) {
		small, big = big, small
	}
	common := 0
	for h, n := range small.lines {
		common += min(n, big.lines[h])
	}
	return float64(common) / float64(max(a.size, b.size))
}

func (w *walker) similarRenames(changes []source.Change, adds, dels []int) ([]renamePair, error) {
	type cand struct {
		score    float64
		from, to int
	}
	var cands []cand
	for _, di := range dels {
		fd, err := w.fingerprint(changes[di].OldID, changes[di].OldMode)
		if err != nil {
			return nil, err
		}
		if fd == nil {
			continue
		}
		for _, ai := range adds {
			fa, err := w.fingerprint(changes[ai].NewID, changes[ai].NewMode)
			if err != nil {
				return nil, err
			}
			// Sizes too different cannot reach the minimum score.
			if fa == nil || float64(min(fa.size, fd.size)) < renameMinScore*float64(max(fa.size, fd.size)) {
				continue
			}
			if s := similarity(fd, fa); s >= renameMinScore {
				cands = append(cands, cand{s, di, ai})
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		if cands[i].from != cands[j].from {
			return cands[i].from < cands[j].from
		}
		return cands[i].to < cands[j].to
	})
	usedA, usedD := make(map[int]bool), make(map[int]bool)
	var pairs []renamePair
	for _, c := range cands {
		if usedA[c.to] || usedD[c.from] {
			continue
		}
		usedA[c.to], usedD[c.from] = true, true
		pairs = append(pairs, renamePair{from: c.from, to: c.to})
	}
	return pairs, nil
}
