package anchors

import (
	"maps"
	"strings"
	"testing"

	"github.com/lorehq/lore/analyzer"
)

// lineUses reads a name swapped for another only on lines the diff
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
			got := newUses()
			lineUses(&File{Lang: "java"}, splitLines([]byte(tc.before)), splitLines([]byte(tc.after)), got)
			if !maps.EqualFunc(got.swapped, tc.want, maps.Equal) {
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
	got := newUses()
	lineUses(&File{Lang: "java"}, splitLines([]byte(a.String())), splitLines([]byte(b.String())), got)
	if len(got.swapped) != 0 || len(got.moved) != 0 {
		t.Errorf("got %v, want no swaps", got)
	}
}

// movedCall reads a call moved to one of its arguments, renamed, only
// when the rest of the line is the same.
func TestMovedCall(t *testing.T) {
	for _, tc := range []struct {
		name, before, after string
		from, to            string // "" for none
	}{
		{"to the argument, an argument added", "handleAborted( e );", "e.collectAndCheck( context.failures() );", "handleAborted", "collectAndCheck"},
		{"from a receiver, assigned", "Strategy s = context.strategy( type );", "Strategy s = type.selectionStrategy();", "strategy", "selectionStrategy"},
		{"the same name: a move, not a rename", "r.load( type );", "type.load();", "", ""},
		{"not an argument", "context.strategy( type );", "other.selectionStrategy();", "", ""},
		{"the rest of the line changed", "Strategy s = context.strategy( type );", "Strategy t = type.selectionStrategy();", "", ""},
		{"a receiver that is a call", "a.b().strategy( type );", "type.selectionStrategy();", "", ""},
		{"an argument that is an expression", "context.strategy( type.x );", "type.selectionStrategy();", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from, to, ok := movedCall(analyzer.Tokens("java", []byte(tc.before)), analyzer.Tokens("java", []byte(tc.after)))
			if !ok {
				from, to = "", ""
			}
			if from != tc.from || to != tc.to {
				t.Errorf("got %q → %q, want %q → %q", from, to, tc.from, tc.to)
			}
		})
	}
}

// The anchored symbol's own declaration renamed one way and a use
// another is no one name; renamed alike, the declaration alone is no use.
func TestUsesTarget(t *testing.T) {
	src := []byte("class A {\n  static class Old {\n  }\n}\n")
	f := &File{Path: "A.java", Lang: "java", Src: src}
	o := origin{name: "Old", file: f, sym: analyzer.Symbol{Name: "Old", StartLine: 2, EndLine: 3}}
	for _, tc := range []struct {
		name    string
		swapped map[string]int
		decl    string // what the declaration line became, "" if not paired
		want    string
		ok      bool
	}{
		{"a use, the declaration alike", map[string]int{"New": 2}, "New", "New", true},
		{"the declaration alone", map[string]int{"New": 1}, "New", "New", false},
		{"the declaration one way, a use another", map[string]int{"New": 1, "Other": 1}, "New", "", false},
		{"a use, the declaration not paired", map[string]int{"New": 1}, "", "New", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newUses()
			u.swapped["Old"] = tc.swapped
			if tc.decl != "" {
				u.declared[declKey("A.java", 2)] = tc.decl
			}
			if got, ok := u.target(o); got != tc.want || ok != tc.ok {
				t.Errorf("got %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// Reading the change's uses never fails on what a diff may hold: any two
// versions of a file, in any language.
func FuzzLineUses(f *testing.F) {
	f.Add("class A {\n  void f() { handle(e); }\n}\n", "class A {\n  void f() { e.collect(c); }\n}\n", "java")
	f.Add("def f(x):\n    return g(x)\n", "def f(x):\n    return x.h()\n", "python")
	f.Add("a.b(c, (d, e)))\n", "c.x((\n", "typescript")
	f.Fuzz(func(t *testing.T, before, after, lang string) {
		u := newUses()
		src := &File{Path: "f", Lang: lang, Src: []byte(before)}
		lineUses(src, splitLines([]byte(before)), splitLines([]byte(after)), u)
		for from, tos := range u.swapped {
			for to, n := range tos {
				if from == to || n <= 0 {
					t.Fatalf("swap %q → %q counted %d", from, to, n)
				}
			}
		}
		for from, tos := range u.moved {
			if _, ok := tos[from]; ok {
				t.Fatalf("a call moved under its own name %q counted as renamed", from)
			}
		}
	})
}
