// Command analyzer-bench indexes a directory with lore's analyzer into an
// on-disk Badger store, end to end, and prints the Summary as JSON. It is
// the library-side stand-in for `lore index` in bench/analyzer/run.sh.
//
//	go run ./bench/analyzer -repo $(go env GOROOT)/src -db DB
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"time"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/source"
)

func main() {
	repo := flag.String("repo", ".", "directory to index")
	db := flag.String("db", "", "Badger directory (required)")
	workers := flag.Int("workers", 0, "parallel parsers (0: GOMAXPROCS)")
	force := flag.Bool("force", false, "re-parse every file")
	quiet := flag.Bool("q", false, "print only the counts")
	prof := flag.String("cpuprofile", "", "write a CPU profile")
	traceOut := flag.String("trace", "", "write an execution trace (go tool trace), which shows how many cores each stage keeps busy")
	memtable := flag.Int64("memtable", 0, "Badger memtable bytes (0: graph's default)")
	memprof := flag.String("memprofile", "", "write an allocation profile at the end")
	heapprof := flag.String("heapprofile", "", "write a heap profile when the last file is parsed")
	heappeak := flag.String("heappeak", "", "write a heap profile whenever the live heap (as of the last collection) is the largest yet")
	flag.Parse()
	if *heappeak != "" {
		stop := watchPeak(*heappeak)
		defer stop()
	}
	if *memprof != "" {
		defer func() {
			if err := writeProfile(*memprof, "allocs"); err != nil {
				fmt.Fprintln(os.Stderr, "analyzer-bench:", err)
			}
		}()
	}
	if *prof != "" {
		record(*prof, pprof.StartCPUProfile)
		defer pprof.StopCPUProfile()
	}
	if *traceOut != "" {
		record(*traceOut, trace.Start)
		defer trace.Stop()
	}
	if err := run(*repo, *db, *workers, *force, *quiet, *memtable, *heapprof); err != nil {
		fmt.Fprintln(os.Stderr, "analyzer-bench:", err)
		pprof.StopCPUProfile()
		os.Exit(2)
	}
}

func run(repo, db string, workers int, force, quiet bool, memtable int64, heapprof string) error {
	if db == "" {
		return fmt.Errorf("-db is required")
	}
	start := time.Now()
	store, err := graph.Open(db, graph.Options{MemTableSize: memtable})
	if err != nil {
		return err
	}
	read, last := 0, ""
	var perr error
	progress := func(p analyzer.Progress) {
		read, last = p.Total, p.Path
		if heapprof != "" && p.Done == p.Total {
			perr = writeProfile(heapprof, "heap")
		}
	}
	sum, err := analyzer.Update(context.Background(), store, source.Dir(repo), analyzer.Options{Workers: workers, Force: force, Progress: progress})
	if err = cmp.Or(err, perr, store.Close()); err != nil {
		return err
	}
	if quiet {
		sum.Skipped, sum.Errors = nil, nil
	}
	b, _ := json.Marshal(sum)
	fmt.Printf("%s\nread %d files (last %s)\nwall %.3fs\n", b, read, last, time.Since(start).Seconds())
	return nil
}

// record starts writing a CPU profile or a trace (start) to a new file at
// path, or exits.
func record(path string, start func(io.Writer) error) {
	f, err := os.Create(path)
	if err == nil {
		err = start(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "analyzer-bench:", err)
		os.Exit(2)
	}
}

// writeProfile writes the named runtime profile to path.
func writeProfile(path, name string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return cmp.Or(pprof.Lookup(name).WriteTo(f, 0), f.Close())
}

// watchPeak samples the live heap every few milliseconds and writes a heap
// profile to path each time it is larger than before; stop ends the
// sampling and reports the peak on stderr.
func watchPeak(path string) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	go func() {
		defer close(stopped)
		peak := uint64(0)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				fmt.Fprintf(os.Stderr, "peak live heap %.1f MB\n", float64(peak)/(1<<20))
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak {
				peak = v
				if err := writeProfile(path, "heap"); err != nil {
					fmt.Fprintln(os.Stderr, "analyzer-bench:", err)
				}
			}
		}
	}()
	return func() { close(done); <-stopped }
}
