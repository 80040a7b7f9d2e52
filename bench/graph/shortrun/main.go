// Command shortrun measures what a short lore CLI run pays the store: Open,
// one small write (optional) and Close, repeated on a copy of a real store,
// then the read latency of a full key scan after those runs against the
// same data freshly compacted (LORE_SCHEMA names the store's schema).
//
//	go run ./bench/graph/shortrun -src .lore/db [-runs 200] [-write [-readwrite]]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/lorehq/lore/graph"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "shortrun:", err)
		os.Exit(1)
	}
}

func run() (err error) {
	src := flag.String("src", "", "store directory to copy (required)")
	runs := flag.Int("runs", 200, "short runs")
	write := flag.Bool("write", false, "each run writes one small key")
	readWrite := flag.Bool("readwrite", false, "open with Options.ReadWrite (no read-only start)")
	scans := flag.Int("scans", 50, "full scans for the read latency")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the short runs")
	flag.Parse()
	if *src == "" {
		return fmt.Errorf("-src is required")
	}
	schema, err := envSchema()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "lore-shortrun-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }() // best effort: not a measurement
	db := filepath.Join(dir, "db")
	if err := copyDir(*src, db); err != nil {
		return err
	}
	syscall.Sync() // the copy's dirty pages would be written back by the first Close
	fmt.Printf("store %s: %s\n", *src, describe(db))
	// The read: a key scan of the workspace's learning-file records and of
	// the keys the short runs wrote, through every table that holds them.
	scan := func(s *graph.Store) (int, error) {
		n := 0
		err := s.View(func(tx *graph.Tx) error {
			for _, ns := range []string{"lf", "shortrun"} {
				if err := tx.Keys(ns, "", func(string) error { n++; return nil }); err != nil {
					return err
				}
			}
			return nil
		})
		return n, err
	}
	readLatency := func(label string) (err error) {
		s, err := graph.Open(db, graph.Options{Schema: schema})
		if err != nil {
			return err
		}
		defer func() {
			if cerr := s.Close(); err == nil {
				err = cerr
			}
		}()
		var d []time.Duration
		for range *scans {
			t0 := time.Now()
			if _, err := scan(s); err != nil {
				return err
			}
			d = append(d, time.Since(t0))
		}
		fmt.Printf("%s: scan p50 %s min %s; tables per level %v\n", label, pct(d, 50), pct(d, 0), s.Tables())
		return nil
	}
	if err := readLatency("before"); err != nil {
		return err
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	var opens, closes, writes []time.Duration
	for i := range *runs {
		t0 := time.Now()
		s, err := graph.Open(db, graph.Options{Schema: schema, ReadWrite: *readWrite})
		if err != nil {
			return err
		}
		t1 := time.Now()
		if *write {
			// Like a lore writer run: a record and an edge, so that the
			// run's level-0 table spans several key families and overlaps
			// the tables of the runs before it.
			if err := s.Update(func(tx *graph.Tx) error {
				if _, err := tx.UpsertEdge(graph.Edge{Type: graph.Imports, From: fmt.Sprintf("file:shortrun/%06d.go", i),
					To: "file:shortrun/target.go", Weight: 1}); err != nil {
					return err
				}
				return tx.Set("shortrun", fmt.Sprintf("k%06d", i), make([]byte, 600))
			}); err != nil {
				return err
			}
		}
		t2 := time.Now()
		if err := s.Close(); err != nil {
			return err
		}
		t3 := time.Now()
		opens = append(opens, t1.Sub(t0))
		writes = append(writes, t2.Sub(t1))
		closes = append(closes, t3.Sub(t2))
	}
	if *cpuprofile != "" {
		pprof.StopCPUProfile()
	}
	fmt.Printf("%d runs (write=%v readwrite=%v): open p50 %s min %s p95 %s | write p50 %s | close p50 %s min %s p95 %s\n",
		*runs, *write, *readWrite, pct(opens, 50), pct(opens, 0), pct(opens, 95), pct(writes, 50), pct(closes, 50), pct(closes, 0), pct(closes, 95))
	fmt.Printf("after: %s\n", describe(db))
	if err := readLatency("after runs"); err != nil {
		return err
	}
	s, err := graph.Open(db, graph.Options{Schema: schema})
	if err != nil {
		return err
	}
	if err := s.Compact(); err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	return readLatency("compacted")
}

// envSchema returns the Schema the bench opens stores with: the
// environment variable LORE_SCHEMA (the workspace's storeSchema), so that a
// mismatch does not empty the copy; 0 when it is not set.
func envSchema() (int, error) {
	v := os.Getenv("LORE_SCHEMA")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("LORE_SCHEMA: %w", err)
	}
	return n, nil
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := len(s) * p / 100
	if i >= len(s) {
		i = len(s) - 1
	}
	return s[i].Round(10 * time.Microsecond)
}

func describe(dir string) string {
	ents, _ := os.ReadDir(dir)
	var n int
	var size int64
	for _, e := range ents {
		if info, err := e.Info(); err == nil {
			n++
			size += info.Size()
		}
	}
	return fmt.Sprintf("%d files, %.1f MiB", n, float64(size)/(1<<20))
}

func copyDir(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.IsDir() || e.Name() == "LOCK" {
			continue
		}
		in, err := os.Open(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		out, err := os.Create(filepath.Join(dst, e.Name()))
		if err != nil {
			_ = in.Close() // only read
			return err
		}
		_, err = io.Copy(out, in)
		_ = in.Close() // only read
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
