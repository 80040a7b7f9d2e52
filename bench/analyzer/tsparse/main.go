// Command tsparse measures tree-sitter's parse alone (no walk, no
// extraction, no store) over every file of one language under a
// directory, with one parser per worker, to tell the grammar's cost from
// the analyzer's.
//
//	go run ./bench/analyzer/tsparse -lang python -dir /usr/lib/python3.11
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

func main() {
	lang := flag.String("lang", "python", "python | typescript")
	dir := flag.String("dir", ".", "directory")
	workers := flag.Int("workers", 2, "parallel parsers")
	flag.Parse()
	if err := run(*lang, *dir, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "tsparse:", err)
		os.Exit(2)
	}
}

func run(lang, dir string, workers int) error {
	var grammar *sitter.Language
	var exts []string
	switch lang {
	case "python":
		grammar, exts = python.GetLanguage(), []string{".py", ".pyi"}
	case "typescript":
		grammar, exts = typescript.GetLanguage(), []string{".ts", ".mts", ".cts"}
	default:
		return fmt.Errorf("unknown language %q", lang)
	}
	var srcs [][]byte
	total := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				if b, err := os.ReadFile(p); err == nil && len(b) <= 1<<20 {
					srcs = append(srcs, b)
					total += len(b)
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	start := time.Now()
	jobs := make(chan []byte)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := sitter.NewParser()
			defer p.Close()
			p.SetLanguage(grammar)
			for b := range jobs {
				if t, err := p.ParseCtx(context.Background(), nil, b); err == nil {
					t.Close()
				}
			}
		}()
	}
	for _, b := range srcs {
		jobs <- b
	}
	close(jobs)
	wg.Wait()
	fmt.Printf("%d %s files, %d MB, parsed in %.2fs wall\n", len(srcs), lang, total>>20, time.Since(start).Seconds())
	return nil
}
