package analyzer

import (
	"cmp"
	"slices"
	"sort"
)

// squeezed maps offsets in a squeezed skeleton back to offsets in the
// text it was made from. Squeezing drops, inside given cuts, every byte
// but line breaks: tree-sitter lexes every byte it is given, a blanked
// body's spaces or a comment's words as much as code, so blanking what
// extraction does not read left it most of the work. Lines keep their
// numbers; offsets and columns shift. The zero value (nothing dropped)
// maps every offset to itself, and so does a nil *squeezed.
type squeezed struct {
	at   []int  // offset in the skeleton where the k-th dropped run was
	sum  []int  // bytes dropped in runs 0..k
	cuts []span // scratch for the skeleton's cuts
}

func (q *squeezed) reset() {
	q.at, q.sum, q.cuts = q.at[:0], q.sum[:0], q.cuts[:0]
}

// squeeze drops from b every byte but line breaks inside the cuts (which
// may overlap and nest, in any order), compacting b in place, records
// where, and returns the squeezed b.
func (q *squeezed) squeeze(b []byte, cuts []span) []byte {
	q.at, q.sum = q.at[:0], q.sum[:0]
	slices.SortFunc(cuts, func(x, y span) int { return cmp.Compare(x.start, y.start) })
	w, r, dropped := 0, 0, 0
	for _, c := range cuts {
		if c.end <= r {
			continue // inside a cut already squeezed
		}
		c.start = max(c.start, r)
		w += copy(b[w:], b[r:c.start])
		for i := c.start; i < c.end; i++ {
			if b[i] == '\n' {
				b[w] = '\n'
				w++
				continue
			}
			dropped++
			if n := len(q.at); n > 0 && q.at[n-1] == w {
				q.sum[n-1] = dropped // the run goes on
			} else {
				q.at = append(q.at, w)
				q.sum = append(q.sum, dropped)
			}
		}
		r = c.end
	}
	w += copy(b[w:], b[r:])
	return b[:w]
}

// start maps the offset where a node starts in the skeleton to the text:
// past a run dropped just there.
func (q *squeezed) start(o int) int { return o + q.droppedBefore(o+1) }

// end maps the offset where a node ends in the skeleton to the text:
// before a run dropped just there.
func (q *squeezed) end(o int) int { return o + q.droppedBefore(o) }

// droppedBefore returns the bytes dropped in the runs at skeleton offsets
// before o.
func (q *squeezed) droppedBefore(o int) int {
	if q == nil {
		return 0
	}
	k := sort.SearchInts(q.at, o)
	if k == 0 {
		return 0
	}
	return q.sum[k-1]
}

// span maps a node's extent in the skeleton to the text. An empty node
// where a run was dropped (a missing token) stays empty.
func (q *squeezed) span(start, end int) (int, int) {
	s, e := q.start(start), q.end(end)
	return s, max(s, e)
}
