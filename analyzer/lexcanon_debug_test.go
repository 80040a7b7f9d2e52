package analyzer

import (
	"os"
	"strings"
	"testing"
)

// TestCanonDump prints the canonical tokens of LORE_CANON_FILE (debugging aid).
func TestCanonDump(t *testing.T) {
	path := os.Getenv("LORE_CANON_FILE")
	if path == "" {
		t.Skip("set LORE_CANON_FILE")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lang := os.Getenv("LORE_CANON_LANG")
	t.Log(strings.Join(ShapeCanonical.Stream(lang, src).Tokens(0, 0), " "))
}
