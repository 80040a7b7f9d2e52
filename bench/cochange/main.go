// Command cochange-bench runs one co-change analysis through the library, as
// the benchmarks in this directory need it: timed as a whole process, with
// a real on-disk store or none.
//
//	go run ./bench/cochange -repo DIR [-db DIR] [-full] [-since 1y] [-no-renames] [-pairs text|json]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/lorehq/lore/cochange"
	"github.com/lorehq/lore/graph"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "cochange-bench:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("cochange-bench", flag.ContinueOnError)
	repo := fs.String("repo", ".", "repository")
	db := fs.String("db", "", "store directory (empty: no store)")
	full := fs.Bool("full", false, "whole history")
	since := fs.String("since", "", "window start: date or age (90d, 1y)")
	maxCommits := fs.Int("max-commits", 0, "window size in commits")
	noRenames := fs.Bool("no-renames", false, "no rename propagation")
	byDay := fs.Bool("by-day", false, "group an author's commits per day")
	pairs := fs.String("pairs", "", "print pairs: text or json")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o := cochange.Options{FullHistory: *full, MaxCommits: *maxCommits, NoRenames: *noRenames, ByDay: *byDay}
	if *since != "" {
		t, err := cochange.ParseSince(*since, time.Now())
		if err != nil {
			return err
		}
		o.Since = t
	}
	start := time.Now()
	var s *graph.Store
	if *db != "" {
		var err error
		if s, err = graph.Open(*db, graph.Options{}); err != nil {
			return err
		}
	}
	opened := time.Now()
	res, err := cochange.Analyze(context.Background(), s, *repo, o)
	analysed := time.Now()
	if s != nil {
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return err
	}
	ms := func(d time.Duration) string { return d.Round(100 * time.Microsecond).String() }
	fmt.Fprintf(stderr, "analyze: %d commits in window, %d walked, %d skipped, %d pairs, full=%v (%s); store open %s, Analyze %s, store close %s\n",
		res.Commits, res.Walked, res.Skipped, len(res.Pairs), res.Full, res.Reason,
		ms(opened.Sub(start)), ms(analysed.Sub(opened)), ms(time.Since(analysed)))
	switch *pairs {
	case "text":
		for _, p := range res.Pairs {
			fmt.Fprintf(stdout, "%s %s shared=%d revs=%d/%d score=%.3f\n", p.A, p.B, p.Shared, p.RevsA, p.RevsB, p.Score)
		}
	case "json":
		enc := json.NewEncoder(stdout)
		for _, p := range res.Pairs {
			if err := enc.Encode(p); err != nil {
				return err
			}
		}
	case "":
	default:
		return fmt.Errorf("-pairs %q: want text or json", *pairs)
	}
	return nil
}
