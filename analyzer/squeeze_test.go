package analyzer

import (
	"bytes"
	"strings"
	"testing"
)

func TestSqueeze(t *testing.T) {
	for _, tc := range []struct {
		src  string
		cuts []span
		want string
	}{
		{"abcdef", nil, "abcdef"},
		{"abcdef", []span{{1, 3}}, "adef"},
		{"ab\ncd\nef", []span{{1, 7}}, "a\n\nf"},
		// Overlapping, nested and unordered cuts are one cut.
		{"0123456789", []span{{6, 8}, {1, 4}, {2, 3}, {3, 5}}, "0589"},
		{"0123456789", []span{{2, 4}, {4, 6}}, "016789"},
		{"x\n\ny", []span{{0, 4}}, "\n\n"},
	} {
		var q squeezed
		got := q.squeeze([]byte(tc.src), append([]span(nil), tc.cuts...))
		if string(got) != tc.want {
			t.Errorf("squeeze(%q, %v) = %q, want %q", tc.src, tc.cuts, got, tc.want)
			continue
		}
		checkSqueezed(t, []byte(tc.src), got, &q, "")
		if bytes.Count(got, []byte("\n")) != bytes.Count([]byte(tc.src), []byte("\n")) {
			t.Errorf("squeeze(%q) lost lines: %q", tc.src, got)
		}
	}
}

func TestSqueezedOffsets(t *testing.T) {
	// "{ body }" squeezed to "{}": the run dropped at offset 1.
	var q squeezed
	src := []byte("f(){ body }+g")
	got := q.squeeze(append([]byte(nil), src...), []span{{4, 10}})
	if string(got) != "f(){}+g" {
		t.Fatalf("squeezed to %q", got)
	}
	for _, tc := range []struct{ o, start, end int }{
		{0, 0, 0},
		{3, 3, 3},
		{4, 10, 4}, // "}" starts after the run; "{" ends before it
		{5, 11, 11},
		{7, 13, 13},
	} {
		if s, e := q.start(tc.o), q.end(tc.o); s != tc.start || e != tc.end {
			t.Errorf("offset %d: start %d end %d, want %d %d", tc.o, s, e, tc.start, tc.end)
		}
	}
	if s, e := q.span(3, 4); string(src[s:e]) != "{" {
		t.Errorf("span of \"{\" reads %q", src[s:e])
	}
	if s, e := q.span(3, 5); string(src[s:e]) != "{ body }" {
		t.Errorf("span of the block reads %q", src[s:e])
	}
	if s, e := q.span(4, 4); s != e {
		t.Errorf("an empty node where a run was dropped spans %d..%d", s, e)
	}
	var none *squeezed
	if none.start(7) != 7 || none.end(7) != 7 {
		t.Error("a nil squeezed does not map offsets to themselves")
	}
}

// FuzzSqueeze checks squeeze on any text and cuts: lines stay, every byte
// kept maps back to itself, and offsets map in order, starts past what
// was dropped before them and ends before it.
func FuzzSqueeze(f *testing.F) {
	f.Add([]byte("function f() {\n  return 1\n}\n"), []byte{14, 26, 3, 9})
	f.Add([]byte("a\nb\nc"), []byte{0, 5, 1, 2, 2, 4})
	f.Fuzz(func(t *testing.T, src, cutBytes []byte) {
		var cuts []span
		for i := 0; i+1 < len(cutBytes) && len(src) > 0; i += 2 {
			a, b := int(cutBytes[i])%(len(src)+1), int(cutBytes[i+1])%(len(src)+1)
			cuts = append(cuts, span{min(a, b), max(a, b)})
		}
		var q squeezed
		skel := q.squeeze(append([]byte(nil), src...), cuts)
		checkSqueezed(t, src, skel, &q, "")
		prevStart, prevEnd := -1, -1
		for o := 0; o <= len(skel); o++ {
			s, e := q.start(o), q.end(o)
			if s < e || s > len(src) || s <= prevStart || e <= prevEnd {
				t.Fatalf("offset %d of %q (from %q) maps to start %d, end %d after %d, %d", o, skel, src, s, e, prevStart, prevEnd)
			}
			prevStart, prevEnd = s, e
		}
	})
}

// checkSqueezed checks that a skeleton has the lines of src and that each
// of its bytes maps back to the same byte of src, or is one of subst (the
// bytes a skeleton writes in place of the source's).
func checkSqueezed(t *testing.T, src, skel []byte, q *squeezed, subst string) {
	t.Helper()
	if bytes.Count(skel, []byte("\n")) != bytes.Count(src, []byte("\n")) {
		t.Fatalf("skeleton changed the lines of %q: %q", src, skel)
	}
	for i, c := range skel {
		if o := q.start(i); o >= len(src) || src[o] != c && strings.IndexByte(subst, c) < 0 {
			t.Fatalf("byte %d of skeleton %q maps to %d of %q", i, skel, o, src)
		}
	}
}
