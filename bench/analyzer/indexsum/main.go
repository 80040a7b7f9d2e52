// Command indexsum prints counts and checksums of everything an analyzer
// index holds — symbols with fingerprints, imports with targets, a few
// name-index lookups, IMPORTS edges — so that two builds' indexes of the
// same tree can be compared after a performance change:
//
//	go run ./bench/analyzer/indexsum WORKSPACE-A/.lore/db
//	go run ./bench/analyzer/indexsum WORKSPACE-B/.lore/db
//
// -schema must be the store's schema version (lore's storeSchema in
// workspace.go; 0 for a store of bench/analyzer's -db): graph.Open empties
// a store of another version.
package main

import (
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/graph"
)

func main() {
	schema := flag.Int("schema", 3, "the store's schema version (graph.Options.Schema)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: indexsum [-schema N] DB")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *schema); err != nil {
		fmt.Fprintln(os.Stderr, "indexsum:", err)
		os.Exit(1)
	}
}

func run(db string, schema int) error {
	s, err := graph.Open(db, graph.Options{Schema: schema})
	if err != nil {
		return err
	}
	defer func() { _ = s.Close() }() // read only: nothing to lose
	h := sha256.New()
	n := 0
	names := map[string]bool{}
	if err := analyzer.AllSymbols(s, func(x analyzer.Symbol) error { fmt.Fprintf(h, "%+v\n", x); n++; names[x.Name] = true; return nil }); err != nil {
		return err
	}
	fmt.Printf("symbols %d %x\n", n, h.Sum(nil)[:8])
	h.Reset()
	n = 0
	if err := analyzer.AllImports(s, func(x analyzer.Import) error { fmt.Fprintf(h, "%+v\n", x); n++; return nil }); err != nil {
		return err
	}
	fmt.Printf("imports %d %x\n", n, h.Sum(nil)[:8])
	h.Reset()
	for _, nm := range []string{"init", "main", "String", "Error", "New", "Read", "Close", "Fprintf", "parse", "T"} {
		ss, err := analyzer.SymbolsByName(s, nm)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", nm, len(ss))
		for _, x := range ss {
			fmt.Fprintln(h, x.FQName)
		}
	}
	fmt.Printf("byname %x\n", h.Sum(nil)[:8])
	h.Reset()
	ne := 0
	err = analyzer.Files(s, func(f analyzer.IndexedFile) error {
		es, err := s.Edges("file:"+f.Path, graph.Out, graph.Filter{})
		for _, e := range es {
			fmt.Fprintln(h, e.From, e.To, e.Type)
			ne++
		}
		if errors.Is(err, graph.ErrNotFound) { // a file that imports nothing
			return nil
		}
		return err
	})
	fmt.Printf("edges %d %x\n", ne, h.Sum(nil)[:8])
	return err
}
