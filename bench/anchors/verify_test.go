package anchorsbench

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

// corpus copies up to n Go files of GOROOT/src (testdata and vendor left
// out) into dir, keeping their paths.
func corpus(tb testing.TB, dir string, n int) {
	tb.Helper()
	root := filepath.Join(goroot(tb), "src")
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	if len(paths) > n {
		paths = paths[:n]
	}
	for _, p := range paths {
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		dst := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

func goroot(tb testing.TB) string {
	if r := os.Getenv("GOROOT"); r != "" {
		return r
	}
	out, err := exec("go", "env", "GOROOT")
	if err != nil {
		tb.Skip("no go toolchain")
	}
	return strings.TrimSpace(out)
}

// BenchmarkVerify verifies 10,000 symbol anchors spread over 5,000 files of
// the Go source tree through anchors.Source with the analyzer's index up
// to date: the cost of `lore verify` on a large repository where nothing
// changed. Set LORE_BENCH=1 (it copies and indexes the files first).
//
//	LORE_BENCH=1 go test ./bench/anchors -run '^$' -bench Verify -benchtime 5x
func BenchmarkVerify(b *testing.B) {
	if os.Getenv("LORE_BENCH") == "" {
		b.Skip("set LORE_BENCH=1")
	}
	ctx := context.Background()
	dir := b.TempDir()
	corpus(b, dir, 5000)
	store, err := graph.Open(filepath.Join(b.TempDir(), "db"), graph.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	t0 := time.Now()
	sum, err := analyzer.Update(ctx, store, source.Dir(dir), analyzer.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("indexed %d files, %d symbols in %v", sum.Files, sum.Symbols, time.Since(t0))

	// Up to three anchors per file: its first, largest and middle symbols.
	src, err := anchors.NewSource(source.Dir(dir), anchors.SourceOptions{Index: store})
	if err != nil {
		b.Fatal(err)
	}
	var as []anchors.Anchor
	err = analyzer.Files(store, func(f analyzer.IndexedFile) error {
		if f.Symbols == 0 {
			return nil
		}
		syms, err := analyzer.Symbols(store, f.Path)
		if err != nil {
			return err
		}
		picked := map[string]bool{}
		big := syms[0]
		for _, s := range syms {
			if s.EndLine-s.StartLine > big.EndLine-big.StartLine {
				big = s
			}
		}
		for _, s := range []analyzer.Symbol{syms[0], big, syms[len(syms)/2]} {
			if len(picked) == 3 || picked[s.FQName] {
				continue
			}
			a, err := anchors.Baseline(ctx, src, anchors.Anchor{Symbol: s.FQName})
			if err != nil {
				continue // ambiguous names (init, _)
			}
			picked[s.FQName] = true
			as = append(as, a)
		}
		return nil
	})
	src.Close()
	if err != nil {
		b.Fatal(err)
	}
	if len(as) > 10000 {
		as = as[:10000]
	}
	b.Logf("%d anchors", len(as))
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		src, err := anchors.NewSource(source.Dir(dir), anchors.SourceOptions{Index: store})
		if err != nil {
			b.Fatal(err)
		}
		v, err := anchors.NewVerifier(src, anchors.Options{})
		if err != nil {
			b.Fatal(err)
		}
		rs := v.VerifyAll(ctx, as)
		if i == 0 {
			b.Logf("verified %d anchors in %v", len(rs), time.Since(t0))
		}
		src.Close()
		if s := anchors.Summarize(rs); s.Valid != len(as) {
			b.Fatalf("summary %+v", s)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(as)), "anchors")
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}
