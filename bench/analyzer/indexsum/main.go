// Command indexsum prints counts and checksums of everything an analyzer
// index holds — symbols with fingerprints, imports with targets, a few
// name-index lookups, IMPORTS edges — so that two builds' indexes of the
// same tree can be compared after a performance change:
//
//	go run ./bench/analyzer/indexsum /tmp/db-before
//	go run ./bench/analyzer/indexsum /tmp/db-after
package main

import (
	"crypto/sha256"
	"fmt"
	"os"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/graph"
)

func main() {
	s, err := graph.Open(os.Args[1], graph.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	h := sha256.New()
	n := 0
	names := map[string]bool{}
	analyzer.AllSymbols(s, func(x analyzer.Symbol) error { fmt.Fprintf(h, "%+v\n", x); n++; names[x.Name] = true; return nil })
	fmt.Printf("symbols %d %x\n", n, h.Sum(nil)[:8])
	h.Reset()
	n = 0
	analyzer.AllImports(s, func(x analyzer.Import) error { fmt.Fprintf(h, "%+v\n", x); n++; return nil })
	fmt.Printf("imports %d %x\n", n, h.Sum(nil)[:8])
	h.Reset()
	for _, nm := range []string{"init", "main", "String", "Error", "New", "Read", "Close", "Fprintf", "parse", "T"} {
		ss, _ := analyzer.SymbolsByName(s, nm)
		fmt.Fprintf(h, "%s %d\n", nm, len(ss))
		for _, x := range ss {
			fmt.Fprintln(h, x.FQName)
		}
	}
	fmt.Printf("byname %x\n", h.Sum(nil)[:8])
	h.Reset()
	ne := 0
	analyzer.Files(s, func(f analyzer.IndexedFile) error {
		es, _ := s.Edges("file:"+f.Path, graph.Out, graph.Filter{})
		for _, e := range es {
			fmt.Fprintln(h, e.From, e.To, e.Type)
			ne++
		}
		return nil
	})
	fmt.Printf("edges %d %x\n", ne, h.Sum(nil)[:8])
}
