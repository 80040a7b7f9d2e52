package anchors

import (
	"testing"

	"github.com/lorehq/lore/analyzer"
)

// pyImports reads the forms of from-import that bind a name of another
// module: relative to the importing file's package or absolute, in
// parentheses or not; a name imported under another one binds that one.
func TestPyImports(t *testing.T) {
	for _, tc := range []struct {
		src, name, target string
		want              bool
	}{
		{"from ._run import Error\n", "Error", "ffmpeg/_run.py", true},
		{"from ._run import (Node, Error)\n", "Error", "ffmpeg/_run.py", true},
		{"from .._run import Error\n", "Error", "_run.py", true},
		{"from ffmpeg._run import Error\n", "Error", "ffmpeg/_run.py", true},
		{"from ._run import Error\n", "Error", "ffmpeg/nodes.py", false},
		{"from ._run import Error as RunError\n", "Error", "ffmpeg/_run.py", false},
		{"from .errors import Error\n", "Error", "ffmpeg/errors/__init__.py", true},
		{"import ffmpeg._run\n", "Error", "ffmpeg/_run.py", false},
	} {
		toks := analyzer.Tokens("python", []byte(tc.src))
		if got := pyImports("ffmpeg/_probe.py", toks, tc.name, tc.target); got != tc.want {
			t.Errorf("pyImports(%q, %s, %s) = %v, want %v", tc.src, tc.name, tc.target, got, tc.want)
		}
	}
}
