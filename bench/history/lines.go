package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/lorehq/lore/bench/internal/gitrun"
)

// linesOracle reads with C git's diff (-M, --histogram, no context) where the
// lines of the files a commit changed went. The anchors it replays are
// the ones a person writes without a symbol: line ranges (path#L10-L24)
// and whole files. A range none of whose lines the diff touches, and
// into which it inserts nothing, was kept: it is at the lines the hunks
// before it shift it to, in the file git says its file became. A range
// the diff touches changed, "in blanks only" when a diff that ignores
// blanks (-w) leaves it alone. A file is kept when the diff has no hunk
// for it (a pure rename, a mode change), changed when it has one, gone
// when git says deleted.
type linesOracle struct{}

func (linesOracle) name() string { return "git diff" }

func (linesOracle) fates(c commit) ([]fate, error) {
	diff := func(args ...string) ([]patch, error) {
		out, err := gitrun.Output(c.ctx, c.dir, append([]string{"-c", "core.quotePath=false", "diff", "-M", "--histogram", "--unified=0",
			"--no-color", "--no-ext-diff"}, append(args, c.parentSHA, c.sha)...)...)
		if err != nil {
			return nil, err
		}
		return parsePatches(out), nil
	}
	ps, err := diff()
	if err != nil {
		return nil, err
	}
	blankless, err := diff("-w", "--ignore-blank-lines")
	if err != nil {
		return nil, err
	}
	wsHunks := map[string][]hunk{}
	for _, p := range blankless {
		wsHunks[p.old] = p.hunks
	}
	var out []fate
	for _, p := range ps {
		if p.binary || p.old == "" {
			continue
		}
		file := decl{path: p.old}
		if p.new == "" {
			out = append(out, fate{before: file, kind: gone})
			continue
		}
		src, err := fs.ReadFile(c.parent, p.old)
		if err != nil || bytes.IndexByte(src, 0) >= 0 {
			continue // not in the tree as read (a submodule), or binary
		}
		out = append(out, fate{before: file, after: decl{path: p.new}, kind: inPlace, same: len(p.hunks) == 0,
			blanks: len(p.hunks) > 0 && len(wsHunks[p.old]) == 0})
		n := bytes.Count(src, []byte("\n"))
		if len(src) > 0 && src[len(src)-1] != '\n' {
			n++
		}
		lines := strings.Split(string(src), "\n")
		for _, w := range windows(n, p.hunks) {
			s, e := w[0], w[1]
			if strings.TrimSpace(strings.Join(lines[s-1:e], "")) == "" {
				continue // blank lines: no one anchors them
			}
			f := fate{before: decl{path: p.old, lines: [2]int{s, e}}, kind: inPlace}
			if ns, ne, ok := keptAt(p.hunks, s, e); ok {
				f.same, f.after = true, decl{path: p.new, lines: [2]int{ns, ne}}
			} else {
				f.after = decl{path: p.new}
				_, _, f.blanks = keptAt(wsHunks[p.old], s, e)
			}
			out = append(out, f)
		}
	}
	return out, nil
}

// windows returns the ranges anchored in a file of n lines: of each
// length, one at its start, middle and end, one over the start of each
// of its first hunks, and one just past each of them (which the hunks
// before it shift).
func windows(n int, hs []hunk) [][2]int {
	var out [][2]int
	add := func(s, l int) {
		s = max(1, min(s, n-l+1))
		if w := [2]int{s, s + l - 1}; s >= 1 && w[1] <= n && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	for _, l := range []int{1, 5, 20} { // a line, a paragraph, a screen
		if l > n {
			continue
		}
		for k := range 3 {
			add(1+k*(n-l)/2, l)
		}
		for i, h := range hs {
			if i == 3 {
				break
			}
			add(h.oldStart-l/2, l)
			add(h.oldStart+h.oldLen+1, l)
		}
	}
	return out
}

// patch is one file of a diff: old or new is "" when the file was added
// or deleted.
type patch struct {
	old, new string
	binary   bool
	hunks    []hunk
}

// hunk is one "@@ -a,b +c,d @@": b old lines from a replaced by d new
// lines from c; with b = 0, lines inserted after old line a.
type hunk struct{ oldStart, oldLen, newStart, newLen int }

// keptAt reports whether the diff leaves old lines s..e alone (no hunk
// touches them, none inserts lines among them) and where they are then.
func keptAt(hs []hunk, s, e int) (int, int, bool) {
	shift := 0
	for _, h := range hs {
		switch {
		case h.oldLen == 0 && h.oldStart >= s && h.oldStart < e:
			return 0, 0, false // lines inserted inside
		case h.oldLen > 0 && h.oldStart <= e && h.oldStart+h.oldLen-1 >= s:
			return 0, 0, false
		case h.oldLen == 0 && h.oldStart < s, h.oldLen > 0 && h.oldStart+h.oldLen-1 < s:
			shift += h.newLen - h.oldLen
		}
	}
	return s + shift, e + shift, true
}

// parsePatches reads git diff's unified output (no context, no colour,
// core.quotePath off); a path git still quotes (a tab, a newline, a
// quote in it) is left out.
func parsePatches(out []byte) []patch {
	var ps []patch
	var p *patch
	inHunks := false // past the header: "-" and "+" lines are the file's
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			ps = append(ps, patch{})
			p, inHunks = &ps[len(ps)-1], false
			// A mode change or a pure rename has no ---/+++ lines: the
			// header names the paths (when they hold no " b/").
			if a, b, ok := strings.Cut(strings.TrimPrefix(line, "diff --git a/"), " b/"); ok && !strings.Contains(b, " b/") {
				p.old, p.new = a, b
			}
		case p == nil:
		case strings.HasPrefix(line, "@@ -"):
			if h, ok := parseHunk(line); ok {
				p.hunks = append(p.hunks, h)
			}
			inHunks = true
		case inHunks:
		case strings.HasPrefix(line, "rename from "):
			p.old = strings.TrimPrefix(line, "rename from ")
		case strings.HasPrefix(line, "rename to "):
			p.new = strings.TrimPrefix(line, "rename to ")
		case strings.HasPrefix(line, "new file mode"):
			p.old = ""
		case strings.HasPrefix(line, "deleted file mode"):
			p.new = ""
		case strings.HasPrefix(line, "Binary files "):
			p.binary = true
		case strings.HasPrefix(line, "--- "):
			p.old = diffPath(line[4:], "a/")
		case strings.HasPrefix(line, "+++ "):
			p.new = diffPath(line[4:], "b/")
		}
	}
	return slices.DeleteFunc(ps, func(p patch) bool {
		return strings.HasPrefix(p.old, `"`) || strings.HasPrefix(p.new, `"`)
	})
}

// diffPath reads a ---/+++ line's path: "" for /dev/null.
func diffPath(s, prefix string) string {
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(strings.TrimSuffix(s, "\t"), prefix)
}

// parseHunk reads "@@ -a[,b] +c[,d] @@…".
func parseHunk(line string) (hunk, bool) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return hunk{}, false
	}
	num := func(s, sign string) (int, int, bool) {
		s, ok := strings.CutPrefix(s, sign)
		if !ok {
			return 0, 0, false
		}
		a, b, comma := strings.Cut(s, ",")
		start, err := strconv.Atoi(a)
		if err != nil {
			return 0, 0, false
		}
		n := 1
		if comma {
			if n, err = strconv.Atoi(b); err != nil {
				return 0, 0, false
			}
		}
		return start, n, true
	}
	a, b, ok1 := num(f[1], "-")
	c, d, ok2 := num(f[2], "+")
	return hunk{a, b, c, d}, ok1 && ok2
}

// linesSpec is the lore spec of lines s..e of path.
func linesSpec(path string, lines [2]int) string {
	return fmt.Sprintf("%s#L%d-L%d", path, lines[0], lines[1])
}
