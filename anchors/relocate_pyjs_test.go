package anchors

import (
	"testing"

	"github.com/lorehq/lore/analyzer"
)

// importsFrom reads, in Python, the forms of from-import that bind a name
// of another module: relative to the importing file's package or
// absolute, in parentheses or not; a name imported under another one
// binds that one. In JavaScript, the imports and re-exports of a named
// binding from a module by a relative path, with or without its
// extension, or from the index of a directory.
func TestImportsFrom(t *testing.T) {
	py := &File{Path: "ffmpeg/_probe.py", Lang: "python"}
	js := &File{Path: "src/effect.ts", Lang: "typescript"}
	for _, tc := range []struct {
		f                 *File
		src, name, target string
		want              bool
	}{
		{py, "from ._run import Error\n", "Error", "ffmpeg/_run.py", true},
		{py, "from ._run import (Node, Error)\n", "Error", "ffmpeg/_run.py", true},
		{py, "from .._run import Error\n", "Error", "_run.py", true},
		{py, "from ffmpeg._run import Error\n", "Error", "ffmpeg/_run.py", true},
		{py, "from ._run import Error\n", "Error", "ffmpeg/nodes.py", false},
		{py, "from ._run import Error as RunError\n", "Error", "ffmpeg/_run.py", false},
		{py, "from .errors import Error\n", "Error", "ffmpeg/errors/__init__.py", true},
		{py, "import ffmpeg._run\n", "Error", "ffmpeg/_run.py", false},
		{js, "import { type Link, globalVersion } from './dep'\n", "Link", "src/dep.ts", true},
		{js, "import type { Dep, Link } from \"./dep\";\n", "Link", "src/dep.ts", true},
		{js, "export { Link } from '../core/dep.js'\n", "Link", "core/dep.js", true},
		{js, "import { Link } from './links'\n", "Link", "src/links/index.tsx", true},
		{js, "import { Link } from './dep'\n", "Link", "src/other.ts", false},
		{js, "import { Link as L } from './dep'\n", "Link", "src/dep.ts", false},
		{js, "import Link from './dep'\n", "Link", "src/dep.ts", false},
		{js, "import { Link } from '@vue/reactivity'\n", "Link", "src/dep.ts", false},
		{js, "import { LinkType } from './dep'\n", "Link", "src/dep.ts", false},
	} {
		toks := analyzer.Tokens(tc.f.Lang, []byte(tc.src))
		if got := importsFrom(tc.f, toks, tc.name, tc.target); got != tc.want {
			t.Errorf("importsFrom(%q, %s, %s) = %v, want %v", tc.src, tc.name, tc.target, got, tc.want)
		}
	}
}
