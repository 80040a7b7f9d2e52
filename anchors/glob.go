package anchors

import (
	"path"
	"strings"
)

// MatchGlob reports whether the slash path name matches pattern, the
// pattern of a glob anchor. The rules, the same wherever lore matches a
// glob (verification, context, the staged-change filter):
//
//   - Pattern and name are split at "/" and matched segment by segment;
//     there is no leading "/" and no "." or ".." (ParseSpec refuses them).
//   - A segment "**" matches any number of whole segments, none included:
//     "src/**/*.go" matches src/a.go and src/x/y/a.go; "**" matches every
//     path.
//   - Any other segment matches exactly one segment as in path.Match: "*"
//     any run of characters, "?" one character, "[...]" a class; none of
//     them crosses a "/". A "**" inside a segment ("a**b") is a "*".
//   - Dot files are not special, matching is case-sensitive, and a
//     malformed segment ("[a-") matches nothing.
//
// Matching takes time proportional to the product of the segment counts
// at worst, however many "**" the pattern has.
func MatchGlob(pattern, name string) bool {
	pat, segs := strings.Split(pattern, "/"), strings.Split(name, "/")
	p, n := 0, 0
	// star is the index in pat of the last "**" met, -1 before any; from
	// is the first segment of name it does not cover yet. A mismatch after
	// it lets it cover one more segment and resumes after it: an earlier
	// "**" never needs to cover more, since the later one can.
	star, from := -1, 0
	for n < len(segs) {
		switch {
		case p < len(pat) && pat[p] == "**":
			star, from = p, n
			p++
		case p < len(pat) && matchSegment(pat[p], segs[n]):
			p, n = p+1, n+1
		case star >= 0:
			from++
			p, n = star+1, from
		default:
			return false
		}
	}
	for p < len(pat) && pat[p] == "**" {
		p++
	}
	return p == len(pat)
}

// matchSegment matches one segment of a glob against one of a path.
func matchSegment(pat, name string) bool {
	if strings.Contains(pat, "**") {
		pat = strings.ReplaceAll(pat, "**", "*")
	}
	ok, err := path.Match(pat, name)
	return err == nil && ok
}

// validGlob reports whether every segment of pattern is well formed.
func validGlob(pattern string) bool {
	for _, seg := range strings.Split(pattern, "/") {
		if _, err := path.Match(strings.ReplaceAll(seg, "**", "*"), ""); err != nil {
			return false
		}
	}
	return true
}

// matchGlob returns the paths that pattern matches (see MatchGlob).
func matchGlob(pattern string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if MatchGlob(pattern, p) {
			out = append(out, p)
		}
	}
	return out
}
