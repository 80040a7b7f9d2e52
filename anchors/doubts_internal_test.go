package anchors

import (
	"strings"
	"testing"

	"github.com/lorehq/lore/analyzer"
)

// TestBodyWords reads the words of a callable past its header, in the
// languages whose bodies open with "{" and in Python's, where ":" opens
// it and a type annotation's ":" sits inside the parameters.
func TestBodyWords(t *testing.T) {
	for _, tc := range []struct {
		lang, name, src, want string
	}{
		{"rust", "fmt", "fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n    write!(f, \"{}\", self.cmd)\n}\n", `write f "{}" self cmd`},
		{"java", "toString", "public String toString() { return String.format(\"%s\", cmd); }\n", `return String format "%s" cmd`},
		{"python", "__repr__", "def __repr__(self, x: int) -> str:\n    return f'<{self.name}>'\n", "return f'<{self.name}>'"},
		{"go", "String", "func (c Cmd) String() string { return c.name }\n", "return c name"},
		{"java", "toString", "public String toString();\n", ""}, // no body
	} {
		toks := analyzer.Tokens(tc.lang, []byte(tc.src))
		if got := strings.Join(bodyWords(toks, tc.name, tc.lang), " "); got != tc.want {
			t.Errorf("%s %s: %q, want %q (tokens %q)", tc.lang, tc.name, got, tc.want, toks)
		}
	}
}
