package lore

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The package rules of DESIGN.md §3, with the packages lore added below
// them: source (reading code and git; a leaf), and the servers, which sit
// on the workspace API like the command does. A package may import only
// what its row names (tests excepted).
func TestPackageLayers(t *testing.T) {
	const mod = "github.com/lorehq/lore"
	allowed := map[string][]string{
		"graph":              nil,
		"queries":            nil,
		"internal/udiff":     nil,
		"internal/yamlerr":   nil,
		"source":             nil,
		"analyzer":           {"queries", "graph"},
		"anchors":            {"analyzer", "graph"},
		"learnfile":          {"anchors", "graph", "internal/yamlerr"},
		"rank":               {"analyzer", "anchors", "graph", "learnfile"},
		"cochange":           {"graph", "source"},
		"internal/catalog":   {"anchors", "graph", "learnfile", "rank", "source"},
		"internal/verify":    {"anchors", "graph", "internal/catalog", "internal/udiff", "learnfile", "source"},
		"internal/loopback":  nil,
		"internal/agenthook": {".", "anchors", "internal/catalog"},
		"mcpserver":          {".", "analyzer", "anchors", "graph", "cochange", "learnfile", "rank", "internal/loopback"},
		"httpapi":            {".", "graph", "learnfile", "rank", "internal/loopback"},
		"internal/warm":      {".", "graph"},
		"internal/testrepo":  {"."},
		"lspserver":          {".", "analyzer", "anchors", "internal/warm", "learnfile"},
		".":                  {"analyzer", "anchors", "cochange", "graph", "learnfile", "rank", "source", "internal/catalog", "internal/verify", "internal/yamlerr"},
	}
	for dir, ok := range allowed {
		pkg, err := build.ImportDir(filepath.FromSlash(dir), 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, imp := range pkg.Imports {
			if imp != mod && !strings.HasPrefix(imp, mod+"/") {
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(imp, mod), "/")
			if rel == "" {
				rel = "."
			}
			if !slices.Contains(ok, rel) {
				t.Errorf("package %s imports %s; DESIGN.md §3 allows %v", dir, rel, ok)
			}
		}
	}
}

// TestNoProcessSettings: a library call must not change the process it
// runs in (its garbage collector, memory limit, allocator or address
// space). Memory policy belongs to the command (cmd/lore/memory.go).
func TestNoProcessSettings(t *testing.T) {
	forbidden := []string{"debug.SetGCPercent", "debug.SetMemoryLimit", "debug.FreeOSMemory", "Madvise", "madvise(", "mallopt"}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch p {
			case "cmd", "bench", "testdata", ".git", ".lore", "editors":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, f := range forbidden {
			if strings.Contains(string(src), f) {
				t.Errorf("%s calls %s: a library package must not change process-wide settings", p, f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
