package analyzer

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// resolveCorpus parses every file of root in lang and resolves its
// imports; resolvable decides which imports must resolve (in-repo ones).
func resolveCorpus(t *testing.T, root, lang string, resolvable func(r *resolver, im Import) bool) {
	t.Helper()
	fsys := os.DirFS(root)
	entries, _, err := Walk(context.Background(), fsys, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range entries {
		paths = append(paths, e.Path)
	}
	r := newResolver(fsys, paths)
	table := NewTable()
	p := NewParser(table)
	defer p.Close()
	var total, want, resolved, external int
	var unresolved []string
	for _, e := range entries {
		l := table.ForPath(e.Path)
		if l == nil || l.Name != lang {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, e.Path))
		if err != nil || isBinary(src) {
			continue
		}
		f, err := p.Parse(e.Path, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			r.resolve(l, &im)
			total++
			if !resolvable(r, im) {
				if len(im.Targets) > 0 {
					resolved++
				} else {
					external++
				}
				continue
			}
			want++
			if len(im.Targets) > 0 {
				resolved++
			} else {
				unresolved = append(unresolved, e.Path+":"+strconv.Itoa(im.Line)+" "+im.Spec)
			}
		}
	}
	pct := 100 * float64(want-len(unresolved)) / float64(max(want, 1))
	t.Logf("%s imports in %s: %d total, %d resolved, %d external (no target); in-repo: %d of %d resolved (%.2f%%)",
		lang, root, total, resolved, external, want-len(unresolved), want, pct)
	for i, u := range unresolved {
		if i == 20 {
			t.Logf("  … %d more", len(unresolved)-20)
			break
		}
		t.Logf("  unresolved %s", u)
	}
	if pct < 99 {
		t.Errorf("%s: only %.2f%% of in-repo imports resolved", lang, pct)
	}
}

func TestResolveCorpusGo(t *testing.T) {
	corpusTest(t)
	root := filepath.Join(goEnv(t, "GOROOT"), "src")
	resolveCorpus(t, root, "go", func(r *resolver, im Import) bool {
		// every import of the standard library and cmd outside testdata,
		// except cgo's pseudo-package "C"
		if im.Spec == "C" || strings.Contains(im.Path, "testdata/") {
			return false
		}
		first, _, _ := strings.Cut(im.Spec, "/")
		return !strings.Contains(first, ".") || len(r.goPackage(path.Join(r.goModuleOf(im.Path), "vendor", im.Spec))) > 0
	})
}

func TestResolveCorpusPython(t *testing.T) {
	corpusTest(t)
	root, err := pythonStdlib()
	if err != nil {
		t.Skip("python3 not installed")
	}
	resolveCorpus(t, root, "python", func(r *resolver, im Import) bool {
		if strings.HasPrefix(im.Path, "site-packages/") || strings.Contains(im.Path, "/test/") && strings.Contains(im.Path, "bad") {
			return false
		}
		if strings.HasPrefix(im.Spec, ".") {
			return true
		}
		top, _, _ := strings.Cut(im.Spec, ".")
		f, pkg := r.pyModule(".", top)
		return f != "" || (pkg != "" && r.files[pkg+"/__init__.py"])
	})
}

func TestResolveCorpusTypeScript(t *testing.T) {
	corpusTest(t)
	dir := tsOracleDir()
	root := filepath.Join(dir, "node_modules", "rxjs", "src")
	if _, err := os.Stat(root); err != nil {
		t.Skip("rxjs sources not installed: run TestOracleTypeScript first")
	}
	resolveCorpus(t, root, "typescript", func(r *resolver, im Import) bool {
		return strings.HasPrefix(im.Spec, ".")
	})
}
