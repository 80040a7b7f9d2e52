package anchors

import (
	"bytes"

	"github.com/lorehq/lore/analyzer"
)

// docLines counts the lines of documentation in lines start..end of src,
// a symbol's range: its leading comment (see leadingComments) and, in
// Python, the docstring that opens its body. A move may add or drop
// either (texar df3053cbc3 moved get_timing_signal_1d into a class as
// get_position_embedding and left its 22-line docstring to the class):
// what the candidate scan compares by size is the code alone.
func docLines(lang string, src []byte, start, end int) int {
	n := leadingComments(lang, src, start, end)
	if lang == "python" {
		n += pyDocstring(src, start+n, end)
	}
	return n
}

// pyDocstring counts the lines of the docstring that opens the body of
// the def or class declared in lines start..end of src (decorators
// first); 0 when it has none.
func pyDocstring(src []byte, start, end int) int {
	text, ok := analyzer.Lines(src, start, end)
	if !ok {
		return 0
	}
	lines := bytes.Split(text, []byte("\n"))
	i := 0
	for i < len(lines) && !pyHeader(lines[i]) {
		i++ // decorators
	}
	for i < len(lines) && !bytes.HasSuffix(pyCode(lines[i]), []byte(":")) {
		i++ // a header over several lines
	}
	i++ // past the colon
	for i < len(lines) && len(pyCode(lines[i])) == 0 {
		i++ // blank lines and comments before the body
	}
	if i >= len(lines) {
		return 0
	}
	first := bytes.TrimLeft(bytes.TrimSpace(lines[i]), "rRuUbBfF")
	for _, q := range []string{`"""`, `'''`} {
		if !bytes.HasPrefix(first, []byte(q)) {
			continue
		}
		if bytes.Contains(first[len(q):], []byte(q)) {
			return 1
		}
		for j := i + 1; j < len(lines); j++ {
			if bytes.Contains(lines[j], []byte(q)) {
				return j - i + 1
			}
		}
		return 0 // not closed in the range: not a docstring read right
	}
	if len(first) > 0 && (first[0] == '"' || first[0] == '\'') {
		return 1
	}
	return 0
}

// pyHeader reports a line that starts a def or a class.
func pyHeader(line []byte) bool {
	t := bytes.TrimSpace(line)
	t = bytes.TrimPrefix(t, []byte("async "))
	return bytes.HasPrefix(t, []byte("def ")) || bytes.HasPrefix(t, []byte("class "))
}

// pyCode returns line without its comment and surrounding space (a # in
// a string is read as a comment: the headers this reads rarely hold one).
func pyCode(line []byte) []byte {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return bytes.TrimSpace(line)
}
