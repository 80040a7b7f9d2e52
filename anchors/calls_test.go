package anchors

import (
	"maps"
	"strings"
	"testing"
)

// lineSwaps reads a name swapped for another only on lines the diff
// replaces and on which nothing else changed.
func TestLineSwaps(t *testing.T) {
	for _, tc := range []struct {
		name, before, after string
		want                map[string]map[string]int
	}{
		{
			name:   "calls swapped, the added lines in another order",
			before: "class A {\n  Query q() {\n    return p.toQuery(C.root());\n  }\n  Query n() {\n    return p.toQuery(C.root().with(x));\n  }\n}\n",
			after:  "class A {\n  Query q() {\n    log();\n    return p.toQuery(C.withoutSession());\n  }\n  Query n() {\n    return p.toQuery(C.withoutSession().with(x));\n  }\n}\n",
			want:   map[string]map[string]int{"root": {"withoutSession": 2}},
		},
		{
			name:   "two names swapped on one line",
			before: "class A {\n  int f() { return a.x() + b.y(); }\n}\n",
			after:  "class A {\n  int f() { return a.z() + b.w(); }\n}\n",
			want:   map[string]map[string]int{},
		},
		{
			name:   "an argument added beside the swap",
			before: "class A {\n  void f() { c.root(); }\n}\n",
			after:  "class A {\n  void f() { c.withSession(s); }\n}\n",
			want:   map[string]map[string]int{},
		},
		{
			name:   "a literal changed, not a name",
			before: "class A {\n  int f() { return g(1); }\n}\n",
			after:  "class A {\n  int f() { return g(2); }\n}\n",
			want:   map[string]map[string]int{},
		},
		{
			name:   "the same name swapped twice on a line",
			before: "class A {\n  int f() { return old(old(1)); }\n}\n",
			after:  "class A {\n  int f() { return now(now(1)); }\n}\n",
			want:   map[string]map[string]int{"old": {"now": 1}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]map[string]int{}
			lineSwaps("java", splitLines([]byte(tc.before)), splitLines([]byte(tc.after)), got)
			if !maps.EqualFunc(got, tc.want, maps.Equal) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// A stretch of replaced lines longer than maxSwapHunk is rewritten code:
// its lines are not paired.
func TestLineSwapsSkipsRewrites(t *testing.T) {
	var a, b strings.Builder
	a.WriteString("class A {\n")
	b.WriteString("class A {\n")
	for i := 0; i <= maxSwapHunk; i++ {
		a.WriteString("  x = old(" + strings.Repeat("y", i+1) + ");\n")
		b.WriteString("  x = now(" + strings.Repeat("y", i+1) + ");\n")
	}
	a.WriteString("}\n")
	b.WriteString("}\n")
	got := map[string]map[string]int{}
	lineSwaps("java", splitLines([]byte(a.String())), splitLines([]byte(b.String())), got)
	if len(got) != 0 {
		t.Errorf("got %v, want no swaps", got)
	}
}
