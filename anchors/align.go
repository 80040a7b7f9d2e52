package anchors

import (
	"bytes"
	"sort"
)

// alignLines diffs two texts line by line, as a reviewer reads a diff,
// and returns for each line of a the line of b it is kept as, or -1. Lines
// compare without their leading and trailing space. Lines found once on
// each side anchor the alignment (a patience diff); the stretches between
// anchors are matched by their longest common subsequence when they are
// small enough, else by their common ends.
func alignLines(a, b [][]byte) []int {
	m := make([]int, len(a))
	for i := range m {
		m[i] = -1
	}
	ka, kb := lineKeys(a, b)
	var rec func(a0, a1, b0, b1, depth int)
	rec = func(a0, a1, b0, b1, depth int) {
		for a0 < a1 && b0 < b1 && ka[a0] == kb[b0] {
			m[a0] = b0
			a0, b0 = a0+1, b0+1
		}
		for a0 < a1 && b0 < b1 && ka[a1-1] == kb[b1-1] {
			a1, b1 = a1-1, b1-1
			m[a1] = b1
		}
		if a0 == a1 || b0 == b1 {
			return
		}
		anchors := uniqueCommon(ka[a0:a1], kb[b0:b1])
		if len(anchors) == 0 || depth > 64 {
			if (a1-a0)*(b1-b0) <= 1<<22 {
				lcsLines(ka, kb, a0, a1, b0, b1, m)
			}
			return
		}
		pa, pb := a0, b0
		for _, p := range anchors {
			i, j := a0+p[0], b0+p[1]
			rec(pa, i, pb, j, depth+1)
			m[i] = j
			pa, pb = i+1, j+1
		}
		rec(pa, a1, pb, b1, depth+1)
	}
	rec(0, len(a), 0, len(b), 0)
	return m
}

// lineKeys numbers the distinct trimmed lines of a and b.
func lineKeys(a, b [][]byte) ([]int32, []int32) {
	ids := map[string]int32{}
	key := func(ls [][]byte) []int32 {
		out := make([]int32, len(ls))
		for i, l := range ls {
			t := string(bytes.TrimSpace(l))
			id, ok := ids[t]
			if !ok {
				id = int32(len(ids))
				ids[t] = id
			}
			out[i] = id
		}
		return out
	}
	return key(a), key(b)
}

// uniqueCommon returns the pairs (i, j) of lines that occur exactly once
// in a and once in b, the longest run of them in the same order on both
// sides.
func uniqueCommon(a, b []int32) [][2]int {
	type seen struct{ n, at int }
	ca, cb := map[int32]*seen{}, map[int32]*seen{}
	for i, k := range a {
		if s := ca[k]; s != nil {
			s.n++
		} else {
			ca[k] = &seen{1, i}
		}
	}
	for j, k := range b {
		if s := cb[k]; s != nil {
			s.n++
		} else {
			cb[k] = &seen{1, j}
		}
	}
	var pairs [][2]int
	for k, sa := range ca {
		if sb := cb[k]; sa.n == 1 && sb != nil && sb.n == 1 {
			pairs = append(pairs, [2]int{sa.at, sb.at})
		}
	}
	sort.Slice(pairs, func(x, y int) bool { return pairs[x][0] < pairs[y][0] })
	// Longest increasing subsequence of the b sides (patience sorting).
	var tails []int // index into pairs of the smallest tail of each length
	prev := make([]int, len(pairs))
	for i, p := range pairs {
		k := sort.Search(len(tails), func(t int) bool { return pairs[tails[t]][1] >= p[1] })
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	if len(tails) == 0 {
		return nil
	}
	out := make([][2]int, len(tails))
	for i, k := len(tails)-1, tails[len(tails)-1]; i >= 0; i, k = i-1, prev[k] {
		out[i] = pairs[k]
	}
	return out
}

// lcsLines matches lines a0..a1 with b0..b1 by their longest common
// subsequence.
func lcsLines(ka, kb []int32, a0, a1, b0, b1 int, m []int) {
	n, w := a1-a0, b1-b0
	dp := make([]int32, (n+1)*(w+1))
	at := func(i, j int) int { return i*(w+1) + j }
	for i := n - 1; i >= 0; i-- {
		for j := w - 1; j >= 0; j-- {
			switch {
			case ka[a0+i] == kb[b0+j]:
				dp[at(i, j)] = dp[at(i+1, j+1)] + 1
			case dp[at(i+1, j)] >= dp[at(i, j+1)]:
				dp[at(i, j)] = dp[at(i+1, j)]
			default:
				dp[at(i, j)] = dp[at(i, j+1)]
			}
		}
	}
	for i, j := 0, 0; i < n && j < w; {
		switch {
		case ka[a0+i] == kb[b0+j]:
			m[a0+i] = b0 + j
			i, j = i+1, j+1
		case dp[at(i+1, j)] >= dp[at(i, j+1)]:
			i++
		default:
			j++
		}
	}
}

// splitLines splits src into lines without their line ends.
func splitLines(src []byte) [][]byte {
	var out [][]byte
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			out = append(out, src)
			break
		}
		out = append(out, src[:i])
		src = src[i+1:]
	}
	return out
}

// telling reports a line that says something on its own: not blank, not
// only brackets and punctuation.
func telling(l []byte) bool {
	for _, c := range bytes.TrimSpace(l) {
		if c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			return true
		}
	}
	return false
}
