package lore

import (
	"go/build"
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
		"graph":            nil,
		"queries":          nil,
		"internal/udiff":   nil,
		"internal/yamlerr": nil,
		"source":           nil,
		"analyzer":         {"queries", "graph"},
		"anchors":          {"analyzer", "graph"},
		"learnfile":        {"anchors", "graph", "internal/yamlerr"},
		"rank":             {"analyzer", "anchors", "graph", "learnfile"},
		"cochange":         {"graph", "source"},
		"internal/catalog": {"anchors", "graph", "learnfile", "rank", "source"},
		"internal/verify":  {"anchors", "graph", "internal/catalog", "internal/udiff", "learnfile", "source"},
		"mcpserver":        {".", "graph", "cochange", "learnfile", "rank"},
		"httpapi":          {".", "graph", "learnfile", "rank"},
		".":                {"analyzer", "anchors", "cochange", "graph", "learnfile", "rank", "source", "internal/catalog", "internal/verify", "internal/yamlerr"},
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
