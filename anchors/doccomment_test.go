package anchors

import (
	"strings"
	"testing"
)

// TestLeadingComments: the lines of a symbol's range before its first
// token are its doc comment, whatever the language's comment syntax.
func TestLeadingComments(t *testing.T) {
	for _, c := range []struct {
		lang, src string
		want      int
	}{
		{"javascript", "/**\n * Adds a path.\n * @param {Number} x - where.\n */\nfunction f(x) {\n\treturn x;\n}\n", 4},
		{"javascript", "function f(x) {\n\t// not a doc comment\n\treturn x;\n}\n", 0},
		{"java", "/** One line. */\n@Override\npublic int size() {\n  return n;\n}\n", 1},
		{"java", "@Deprecated\n/** After the annotation. */\nvoid m() {}\n", 0},
		{"go", "// F does it.\n//\n// Really.\nfunc F() {}\n", 3},
		{"python", "# helper\ndef f():\n    \"\"\"Docstring.\"\"\"\n    return 1\n", 1},
		{"javascript", "// only a comment\n", 0},
		{"javascript", "", 0},
	} {
		if got := leadingComments(c.lang, []byte(c.src), 1, max(1, strings.Count(c.src, "\n"))); got != c.want {
			t.Errorf("%s %q: %d leading comment lines, want %d", c.lang, c.src, got, c.want)
		}
	}
}

// TestDocLines: a Python docstring counts as documentation beside the
// leading comment; elsewhere only the comment does.
func TestDocLines(t *testing.T) {
	for _, c := range []struct {
		lang, src string
		want      int
	}{
		{"python", "# helper\ndef f():\n    \"\"\"Docstring.\"\"\"\n    return 1\n", 2},
		{"python", "@cache\ndef f(a,\n      b):  # two lines\n\n    r'''Gets it.\n\n    Really.\n    '''\n    return a\n", 4},
		{"python", "class C(Base):\n    'One line.'\n    x = 1\n", 1},
		{"python", "async def f():\n    return \"\"\"not a docstring\"\"\"\n", 0},
		{"python", "def f(): return 1\n", 0},
		{"python", "def f():\n    \"\"\"Never closed.\n    return 1\n", 0},
		{"java", "/** One line. */\nvoid m() {\n  \"a string\";\n}\n", 1},
	} {
		if got := docLines(c.lang, []byte(c.src), 1, max(1, strings.Count(c.src, "\n"))); got != c.want {
			t.Errorf("%s %q: %d lines of documentation, want %d", c.lang, c.src, got, c.want)
		}
	}
}
