package source

import (
	"strings"
	"testing"
)

// FuzzParseDiff: any text, diff or not, gives hunks within bounds and no
// panic; a file's hunks never come from another file's lines.
func FuzzParseDiff(f *testing.F) {
	f.Add([]byte("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n--- a/y\n+new\n"))
	f.Add([]byte("diff --git a/x b/x\ndeleted file mode 100644\n--- a/x\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n"))
	f.Add([]byte("diff --git \"a/t\\tb\" \"b/t\\tb\"\n--- \"a/t\\tb\"\n+++ \"b/t\\tb\"\n@@ -0,0 +1,3 @@\n+1\n+2\n+3\n"))
	f.Add([]byte("@@ -1 +1 @@\n+++ b/z\n@@ -9999999999999999999 +-5,-3 @@\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		files := parseDiff(out)
		for path, hunks := range files {
			if path == "" {
				t.Fatalf("empty path in %q", out)
			}
			for _, h := range hunks {
				if h.Start < 1 || h.End < h.Start {
					t.Fatalf("%s: hunk %+v out of bounds", path, h)
				}
			}
			if len(hunks) > 0 && !strings.Contains(string(out), "diff --git ") {
				t.Fatalf("%s: hunks outside a file's diff", path)
			}
		}
	})
}
