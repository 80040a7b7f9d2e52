package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/graph"
)

func newGraphCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "graph",
		Short: "Query and export the knowledge graph",
		Long: `The graph joins learnings, files, symbols, commits, tasks and runs with typed,
weighted edges: ANCHORED_TO, DERIVED_FROM, IMPORTS, CO_CHANGES_WITH,
SIMILAR_TO, LINKS_TO, USED_IN_RUN, INVALIDATED_BY. A NODE is a learning id
(or prefix), a repository path, path::Symbol, or a typed id (file:a.go).`,
	}
	c.AddCommand(newGraphShowCmd(a), newGraphNeighborsCmd(a), newGraphPathCmd(a), newGraphStatsCmd(a), newGraphExportCmd(a), newGraphImportCmd(a))
	return c
}

// traverseFlags binds the traversal flags shared by neighbors and path.
type traverseFlags struct {
	depth     int
	direction string
	types     []string
	relations []string
	minWeight float64
	limit     int
	invalid   bool
}

func (f *traverseFlags) bind(c *cobra.Command, withLimit bool) {
	fl := c.Flags()
	fl.IntVar(&f.depth, "depth", graph.DefaultDepth, fmt.Sprintf("most hops (1..%d)", graph.MaxDepth))
	fl.StringVar(&f.direction, "direction", "both", "follow edges out, in or both")
	fl.StringSliceVar(&f.types, "types", nil, "only these edge types (comma-separated, e.g. IMPORTS,LINKS_TO)")
	fl.StringSliceVar(&f.relations, "relations", nil, "only LINKS_TO edges with these relations")
	fl.Float64Var(&f.minWeight, "min-weight", 0, "skip edges lighter than this (0..1)")
	fl.BoolVar(&f.invalid, "include-invalidated", false, "follow soft-deleted edges too")
	if withLimit {
		fl.IntVar(&f.limit, "limit", 0, "most results (0: all); best-first")
	}
}

func (f *traverseFlags) options(c *cobra.Command) (graph.TraverseOptions, error) {
	var o graph.TraverseOptions
	if err := graph.CheckDepth(f.depth); err != nil {
		return o, usageError(c, "%v", err)
	}
	if f.limit < 0 {
		return o, usageError(c, "--limit must not be negative")
	}
	if err := graph.ValidWeight(f.minWeight); err != nil {
		return o, usageError(c, "--min-weight: %v", err)
	}
	dir, err := graph.ParseDirection(f.direction)
	if err != nil {
		return o, usageError(c, "--direction: %v", err)
	}
	o.Depth, o.Direction, o.Limit = f.depth, dir, f.limit
	o.MinWeight, o.Relations, o.IncludeInvalidated = f.minWeight, f.relations, f.invalid
	for _, t := range f.types {
		et := graph.EdgeType(strings.ToUpper(strings.TrimSpace(t)))
		if err := et.Valid(); err != nil {
			return o, usageError(c, "--types: %v", err)
		}
		o.Types = append(o.Types, et)
	}
	return o, nil
}

func newGraphShowCmd(a *app) *cobra.Command {
	var asJSON, invalid bool
	c := &cobra.Command{
		Use:     "show NODE",
		Short:   "Show a node and its edges",
		Example: "  lore graph show k3v9\n  lore graph show src/auth.ts --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			info, err := ws.Node(c.Context(), args[0], invalid)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(info)
			}
			fmt.Fprintf(a.stdout, "%s (%s)\n", info.Node.ID, info.Node.Type)
			for k, v := range info.Node.Attrs {
				fmt.Fprintf(a.stdout, "  %s: %s\n", k, v)
			}
			return printEdges(a.stdout, info.Edges)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	c.Flags().BoolVar(&invalid, "include-invalidated", false, "also list soft-deleted edges")
	return c
}

func printEdges(w io.Writer, es []graph.Edge) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, e := range es {
		rel := ""
		if e.Relation != "" {
			rel = "(" + e.Relation + ")"
		}
		inv := ""
		if e.InvalidatedAt != nil {
			inv = "invalidated " + e.InvalidatedAt.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "  %s %s\t%s\t→ %s\t%.2f\t%s\n", e.Type, rel, e.From, e.To, e.Weight, inv)
	}
	return tw.Flush()
}

func newGraphNeighborsCmd(a *app) *cobra.Command {
	var (
		tf     traverseFlags
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "neighbors NODE... [--depth N] [--direction out|in|both] [--types T,…] [--json]",
		Short: "Nodes reached from NODE, best first, with the edges among them",
		Example: `  lore graph neighbors src/auth.ts --depth 2 --limit 20
  lore graph neighbors k3v9 --types LINKS_TO --direction out --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts, err := tf.options(c)
			if err != nil {
				return err
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			sub, res, err := ws.Neighbors(c.Context(), lore.NeighborsOptions{Seeds: args, TraverseOptions: opts})
			if err != nil {
				return err
			}
			if asJSON {
				return a.jsonObject(arrayMember("nodes", sub.Nodes), arrayMember("edges", sub.Edges), arrayMember("results", res))
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			for _, r := range res {
				fmt.Fprintf(tw, "%.3f\t%d\t%s\t%s\n", r.Score, r.Depth, r.Node, pathText(r))
			}
			return tw.Flush()
		},
	}
	tf.bind(c, true)
	c.Flags().BoolVar(&asJSON, "json", false, `print {"nodes", "edges", "results"}`)
	return c
}

func pathText(r graph.Result) string {
	var b strings.Builder
	for i, s := range r.Steps {
		arrow := "→"
		if s.Direction == graph.In {
			arrow = "←"
		}
		rel := string(s.Type)
		if s.Relation != "" {
			rel += ":" + s.Relation
		}
		fmt.Fprintf(&b, " %s[%s] %s", arrow, rel, r.Path[i+1])
	}
	return strings.TrimSpace(b.String())
}

func newGraphPathCmd(a *app) *cobra.Command {
	var (
		tf     traverseFlags
		asJSON bool
	)
	c := &cobra.Command{
		Use:     "path A B",
		Short:   "The highest-scoring path between two nodes",
		Example: "  lore graph path k3v9 src/jwt.ts",
		Args:    cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			opts, err := tf.options(c)
			if err != nil {
				return err
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			r, err := ws.Path(c.Context(), args[0], args[1], opts)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(r)
			}
			fmt.Fprintf(a.stdout, "%s %s\nscore %.3f, %d hops\n", r.Path[0], pathText(r), r.Score, r.Depth)
			return nil
		},
	}
	tf.depth = graph.MaxDepth
	tf.bind(c, false)
	c.Flags().Lookup("depth").DefValue = fmt.Sprint(graph.MaxDepth)
	_ = c.Flags().Set("depth", fmt.Sprint(graph.MaxDepth)) // a flag of tf.bind, and a valid depth
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func newGraphStatsCmd(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "stats",
		Short: "Count nodes and edges by type",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			s, err := ws.GraphStats(c.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(s)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "nodes\t%d\n", s.Nodes)
			for _, k := range sortedKeys(s.NodesByType) {
				fmt.Fprintf(tw, "  %s\t%d\n", k, s.NodesByType[k])
			}
			fmt.Fprintf(tw, "edges\t%d\t(%d invalidated)\n", s.Edges, s.Invalidated)
			for _, k := range sortedKeys(s.EdgesByType) {
				fmt.Fprintf(tw, "  %s\t%d\n", k, s.EdgesByType[k])
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func newGraphExportCmd(a *app) *cobra.Command {
	var format, repo, output string
	c := &cobra.Command{
		Use:   "export [--format json|dot|mermaid|cypher|csv] [--repo NAME] [--output PATH]",
		Short: "Write the whole graph as JSON, DOT, Mermaid, Cypher or CSV",
		Long: `export writes the whole graph. json, dot and mermaid show one repository's
graph; cypher and csv feed a graph shared across repositories: every node id
starts with the repository's name (github.com/org/repo:file:a.go; tasks and
runs, which belong to no one repository, keep their ids), so the exports of
many repositories load into one Neo4j, Memgraph or FalkorDB graph (cypher:
MERGE statements, re-runnable) or one neo4j-admin import or PostgreSQL
database (csv: DIR/nodes.csv and DIR/relationships.csv).

The name is --repo, else repo in .lore/config.yaml, else the origin remote's
URL as host/path, else the directory's name.`,
		Example: `  lore graph export > graph.json
  lore graph export --format dot | dot -Tsvg > graph.svg
  lore graph export --format cypher --output graph.cypher
  lore graph export --format csv --output export/ --repo acme/payments`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			f, err := graph.ParseFormat(format)
			if err != nil {
				return usageError(c, "--format: %v", err)
			}
			if repo != "" {
				if err := graph.ValidRepoName(repo); err != nil {
					return usageError(c, "--repo: %v", err)
				}
			}
			if f == graph.CSV && output == "" {
				return usageError(c, "--format csv writes two files: give --output DIR")
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			opts := graph.ExportOptions{Format: f, Repo: repo}
			if output == "" {
				return ws.ExportGraphWith(c.Context(), a.stdout, opts)
			}
			if !filepath.IsAbs(output) { // -C: as if started there
				output = filepath.Join(a.dir, output)
			}
			names := []string{output}
			if f == graph.CSV {
				if err := os.MkdirAll(output, 0o755); err != nil {
					return err
				}
				names = []string{filepath.Join(output, "nodes.csv"), filepath.Join(output, "relationships.csv")}
			}
			return writeFiles(names, func(ws2 []io.Writer) error {
				if len(ws2) > 1 {
					opts.Relationships = ws2[1]
				}
				return ws.ExportGraphWith(c.Context(), ws2[0], opts)
			})
		},
	}
	c.Flags().StringVar(&format, "format", "json", "json, dot, mermaid, cypher or csv")
	c.Flags().StringVar(&repo, "repo", "", "the repository's name in shared ids (cypher, csv)")
	c.Flags().StringVarP(&output, "output", "o", "", "write to this file (csv: this directory) instead of standard output")
	return c
}

// writeFiles gives write a writer for each of names and replaces the files
// only when it succeeds: each is written beside its name and renamed, so
// a failed or interrupted export leaves the earlier files as they were.
func writeFiles(names []string, write func([]io.Writer) error) (err error) {
	files := make([]*os.File, 0, len(names))
	defer func() {
		for _, f := range files {
			if f != nil {
				// Not renamed into place: the export failed, and its
				// failure is the one to report.
				_ = f.Close()
				if err != nil {
					_ = os.Remove(f.Name())
				}
			}
		}
	}()
	ws := make([]io.Writer, 0, len(names))
	for _, name := range names {
		f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
		if err != nil {
			return err
		}
		files = append(files, f)
		ws = append(ws, f)
	}
	if err := write(ws); err != nil {
		return err
	}
	for i, f := range files {
		if err := f.Chmod(0o644); err != nil {
			return err
		}
		if err := f.Sync(); err != nil { // on disk before its name is
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		if err := os.Rename(f.Name(), names[i]); err != nil {
			return err
		}
		files[i] = nil
	}
	return nil
}

func newGraphImportCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "import FILE|-",
		Short: "Add nodes and edges from graph JSON",
		Long: `import reads {"nodes": [...], "edges": [...]} as written by graph export; only
type, from and to are required of an edge (weight defaults to 1). Links
between learnings are authored in learning files: use lore relate for those.`,
		Example: "  lore graph import graph.json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var in io.Reader = a.stdin
			if args[0] != "-" {
				name := args[0]
				if !filepath.IsAbs(name) { // -C: as if started there
					name = filepath.Join(a.dir, name)
				}
				f, err := os.Open(name)
				if err != nil {
					return err
				}
				defer func() { _ = f.Close() }() // only read
				in = f
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			if err := ws.ImportGraph(c.Context(), in); err != nil {
				return fmt.Errorf("import %s: %w", args[0], err)
			}
			return nil
		},
	}
	return c
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	return slices.Sorted(maps.Keys(m))
}
