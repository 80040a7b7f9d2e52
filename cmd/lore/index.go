package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/analyzer"
)

func newIndexCmd(a *app) *cobra.Command {
	var (
		opts   lore.IndexOptions
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "index [--force] [--json]",
		Short: "Index the repository's symbols and imports (incremental)",
		Long: `index walks the working tree (honouring .gitignore, which, as in git, does not
hide a file git tracks), parses new and changed files and stores their
symbols, imports and IMPORTS edges in .lore/db.
Unchanged files are not parsed again. Syntax errors are reported, not fatal.`,
		Example: `  lore index
  lore index --json | jq .parsed`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			bar := a.progress("indexing")
			opts.Progress = func(p analyzer.Progress) { bar(p.Done, p.Total) }
			sum, err := ws.Index(c.Context(), opts)
			bar(-1, 0)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(sum)
			}
			fmt.Fprintf(a.stdout, "indexed %d files (%d parsed, %d unchanged, %d removed), %d symbols in %s\n",
				sum.Files, sum.Parsed, sum.Unchanged, sum.Removed, sum.Symbols, sum.Duration.Round(time.Millisecond))
			if sum.ErrorFiles > 0 {
				fmt.Fprintf(a.stdout, "syntax errors in %d file(s):\n", sum.ErrorFiles)
				for i, d := range sum.Errors {
					if i == 10 {
						fmt.Fprintf(a.stdout, "  … and %d more (lore index --json lists them)\n", len(sum.Errors)-10)
						break
					}
					fmt.Fprintf(a.stdout, "  %s:%d:%d: %s\n", d.Path, d.Line, d.Col, d.Message)
				}
			}
			for _, s := range sum.Skipped {
				if strings.HasPrefix(s.Reason, analyzer.ErrTooDense.Error()) {
					fmt.Fprintf(a.stdout, "not indexed: %s: %s\n", s.Path, s.Reason)
				}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&opts.Force, "force", false, "parse every file again")
	c.Flags().IntVar(&opts.Workers, "workers", 0, "parallel parsers (0: one per CPU, 1: sequential)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return c
}

// absPaths makes path arguments absolute so the library can make them
// repository-relative whatever the current directory. Relative ones are
// relative to -C DIR, as git's are.
func (a *app) absPaths(args []string) ([]string, error) {
	var out []string
	for _, p := range args {
		if !filepath.IsAbs(p) {
			p = filepath.Join(a.dir, p)
		}
		ap, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		out = append(out, ap)
	}
	return out, nil
}

func newSymbolsCmd(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "symbols [PATH...] [--json]",
		Short: "List symbols (functions, types, methods…) of files or directories",
		Long: `symbols lists the symbols lore knows, after an incremental index. With --json
it prints JSON Lines: path, fqname, name, kind, start_line, end_line (1-based,
inclusive), hash, shape, sig.`,
		Example: `  lore symbols internal/auth
  lore symbols src/auth.ts --json | jq -r .fqname`,
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			paths, err := a.absPaths(args)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			err = ws.Symbols(c.Context(), paths, func(s analyzer.Symbol) error {
				if asJSON {
					return a.jsonLine(s)
				}
				_, err := fmt.Fprintf(tw, "%s:%d-%d\t%s\t%s\n", s.Path, s.StartLine, s.EndLine, s.Kind, strings.TrimPrefix(s.FQName, s.Path+"::"))
				return err
			})
			if err != nil {
				return err
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON Lines")
	return c
}

func newImportsCmd(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "imports [PATH...] [--json]",
		Short: "List imports and the repository files they resolve to",
		Long: `imports lists every import of the given files or directories with its kind
(static, dynamic, re-export, type-only) and resolved targets in the
repository; external imports have none. --json prints JSON Lines: path, spec,
kind, line, targets.`,
		Example: `  lore imports src/
  lore imports cmd/lore --json | jq -c 'select(.targets | length > 0)'`,
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			paths, err := a.absPaths(args)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			err = ws.Imports(c.Context(), paths, func(im analyzer.Import) error {
				if asJSON {
					if im.Targets == nil {
						im.Targets = []string{}
					}
					return a.jsonLine(im)
				}
				t := strings.Join(im.Targets, ", ")
				if t == "" {
					t = "(external)"
				}
				_, err := fmt.Fprintf(tw, "%s:%d\t%s\t%s\t%s\n", im.Path, im.Line, im.Kind, im.Spec, t)
				return err
			})
			if err != nil {
				return err
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON Lines")
	return c
}
