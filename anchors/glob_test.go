package anchors_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lorehq/lore/anchors"
)

// TestMatchGlob holds the rules of MatchGlob, one case each.
func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		// ** spans whole segments, none included.
		{"**", "a.go", true},
		{"**", "a/b/c.go", true},
		{"**/*.go", "a.go", true},
		{"**/*.go", "x/y/a.go", true},
		{"src/**/*.go", "src/a.go", true},
		{"src/**/*.go", "src/x/y/a.go", true},
		{"src/**/*.go", "lib/src/a.go", false},
		{"src/**", "src/a/b", true},
		{"src/**", "src", true},
		{"a/**/b/**/c", "a/b/c", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"a/**/b/**/c", "a/x/c/b", false},
		{"**/a/b", "a/b/a", false},
		{"**/a", "a/a", true},
		// * ? and classes stay inside one segment.
		{"*.go", "a.go", true},
		{"*.go", "x/a.go", false},
		{"src/*.go", "src/x/a.go", false},
		{"src/?.go", "src/a.go", true},
		{"src/?.go", "src/ab.go", false},
		{"src/[ab].go", "src/b.go", true},
		{"src/[^ab].go", "src/b.go", false},
		// ** inside a segment is a *.
		{"src/a**b.go", "src/axyb.go", true},
		{"src/a**b.go", "src/a/b.go", false},
		// Dot files are not special; case matters; bad segments match nothing.
		{"**/*.yml", ".github/ci.yml", true},
		{"*.GO", "a.go", false},
		{"[a-", "[a-", false},
		{"src/[a-/*.go", "src/x/a.go", false},
		// The whole path must match.
		{"src", "src/a.go", false},
		{"src/a.go", "src", false},
	} {
		if got := anchors.MatchGlob(tc.pattern, tc.name); got != tc.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

// TestMatchGlobOracle checks MatchGlob against a regular expression built
// from the same rules, on every pattern and path over a small alphabet.
func TestMatchGlobOracle(t *testing.T) {
	segs := []string{"**", "*", "a", "b", "a*", "?"}
	names := []string{"a", "b", "ab", "ba"}
	var patterns, paths []string
	var grow func(acc []string, from []string, depth int, out *[]string)
	grow = func(acc []string, from []string, depth int, out *[]string) {
		if len(acc) > 0 {
			*out = append(*out, strings.Join(acc, "/"))
		}
		if depth == 0 {
			return
		}
		for _, s := range from {
			grow(append(acc, s), from, depth-1, out)
		}
	}
	grow(nil, segs, 4, &patterns)
	grow(nil, names, 4, &paths)
	n := 0
	for _, pat := range patterns {
		re := globRegexp(pat)
		for _, p := range paths {
			n++
			if got, want := anchors.MatchGlob(pat, p), re.MatchString("/"+p); got != want {
				t.Fatalf("MatchGlob(%q, %q) = %v, the rules say %v", pat, p, got, want)
			}
		}
	}
	t.Logf("%d pattern/path pairs agree", n)
}

// globRegexp writes the rules of MatchGlob as a regular expression over
// "/" + path: a segment is "/" and its characters, "**" any number of
// them (the small alphabet has no class or special byte to quote).
func globRegexp(pattern string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for _, seg := range strings.Split(pattern, "/") {
		if seg == "**" {
			b.WriteString("(?:/[^/]+)*")
			continue
		}
		seg = strings.ReplaceAll(seg, "*", "[^/]*")
		seg = strings.ReplaceAll(seg, "?", "[^/]")
		b.WriteString("/" + seg)
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// TestMatchGlobManyStars shows matching stays fast with many "**" against
// a deep path (a naive backtracking matcher takes exponential time here).
func TestMatchGlobManyStars(t *testing.T) {
	pattern := strings.Repeat("**/", 30) + "z"
	name := strings.Repeat("a/", 60) + "y"
	if anchors.MatchGlob(pattern, name) {
		t.Fatal("matched a path that does not end in z")
	}
}
