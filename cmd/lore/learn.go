package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/learnfile"
)

func newLearnCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "learn",
		Short: "Add, list, show, edit and remove learnings",
	}
	c.AddCommand(newLearnAddCmd(a), newLearnListCmd(a), newLearnShowCmd(a), newLearnRmCmd(a), newLearnEditCmd(a), newLearnSimilarCmd(a), newLearnImportCmd(a))
	return c
}

func newLearnAddCmd(a *app) *cobra.Command {
	var (
		opts   lore.AddOptions
		body   string
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "add --title TITLE [--body TEXT|-] [--anchor SPEC]... [--tag TAG]...",
		Short: "Record a new learning",
		Long: `add writes .lore/learnings/<id>.md and prints the new id. Anchors tie the
learning to code: path::Outer::inner (a symbol), path#L10-L24 (lines), path
(a whole file) or glob:pattern. Their baselines are recorded now, so that
lore verify can tell later whether the code changed.`,
		Example: `  lore learn add --title "validateToken checks expiry first" \
      --anchor src/auth.ts::AuthService::validateToken --tag auth
  echo "Longer explanation" | lore learn add --title "Retry budget" --body -
  lore learn add --title "Generated files" --anchor 'glob:gen/**/*.go' --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("title") {
				return usageError(c, "--title is required")
			}
			opts.Body = body
			if body == "-" {
				b, err := io.ReadAll(a.stdin)
				if err != nil {
					return fmt.Errorf("read body from stdin: %w", err)
				}
				opts.Body = string(b)
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			l, err := ws.Add(c.Context(), opts)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(map[string]string{"id": l.ID})
			}
			fmt.Fprintln(a.stdout, l.ID)
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&opts.Title, "title", "", "one-line title (required)")
	f.StringVar(&body, "body", "", "body text, or - to read it from stdin")
	f.StringArrayVar(&opts.Anchors, "anchor", nil, "anchor `SPEC` (repeatable): path, path::Symbol, path#L10-L24, glob:pattern")
	f.StringArrayVar(&opts.Tags, "tag", nil, "tag (repeatable; commas split)")
	f.StringArrayVar(&opts.DerivedFrom, "derived-from", nil, "provenance task:ID or run:ID (repeatable)")
	f.BoolVar(&asJSON, "json", false, `print {"id": ...}`)
	return c
}

func newLearnListCmd(a *app) *cobra.Command {
	var (
		opts   lore.ListOptions
		asJSON bool
	)
	c := &cobra.Command{
		Use:     "list [--tag TAG] [--json]",
		Aliases: []string{"ls"},
		Short:   "List learnings",
		Example: `  lore learn list
  lore learn list --tag auth --json | jq -r '.[].id'`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			if asJSON {
				ls, err := ws.List(c.Context(), opts)
				if err != nil {
					return err
				}
				return jsonArray(a, ls)
			}
			ls, err := ws.ListSummaries(c.Context(), opts)
			if err != nil {
				return err
			}
			_, err = a.stdout.Write(appendLearningTable(nil, ls))
			return err
		},
	}
	c.Flags().StringVar(&opts.Tag, "tag", "", "only learnings with this tag")
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of learnings")
	return c
}

func newLearnShowCmd(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "show ID",
		Short: "Show one learning (id or unique id prefix)",
		Example: `  lore learn show k3v9
  lore learn show k3v9q2x7mf --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			l, err := ws.Get(c.Context(), args[0])
			if err != nil {
				return err
			}
			fb, err := ws.LearningFeedback(c.Context(), l.ID)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(struct {
					*learnfile.Learning
					Feedback []lore.Feedback `json:"feedback"`
				}{l, fb})
			}
			printLearning(a.stdout, l)
			printFeedback(a.stdout, fb)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the learning as JSON")
	return c
}

func printLearning(w io.Writer, l *learnfile.Learning) {
	fmt.Fprintf(w, "%s  %s\n", l.ID, l.Title)
	if len(l.Tags) > 0 {
		fmt.Fprintf(w, "tags:    %s\n", strings.Join(l.Tags, ", "))
	}
	for i, an := range l.Anchors {
		fmt.Fprintf(w, "anchor %d: %s\n", i+1, an.Spec())
	}
	for _, lk := range l.Links {
		fmt.Fprintf(w, "link:    → %s (%s, %.2f) %s\n", lk.To, lk.Type, lk.Weight, lk.Note)
	}
	if len(l.DerivedFrom) > 0 {
		fmt.Fprintf(w, "from:    %s\n", strings.Join(l.DerivedFrom, ", "))
	}
	fmt.Fprintf(w, "file:    %s\n", l.Path)
	if l.Body != "" {
		fmt.Fprintf(w, "\n%s", l.Body)
		if !strings.HasSuffix(l.Body, "\n") {
			fmt.Fprintln(w)
		}
	}
}

func newLearnRmCmd(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "rm ID...",
		Aliases: []string{"remove"},
		Short:   "Remove learnings and the links that point at them",
		Example: `  lore learn rm k3v9`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			var removed []string
			for _, id := range args {
				l, err := ws.Remove(c.Context(), id)
				if err != nil {
					return err
				}
				removed = append(removed, l.ID)
				if !asJSON {
					fmt.Fprintf(a.stdout, "removed %s  %s\n", l.ID, l.Title)
				}
			}
			if asJSON {
				return a.json(map[string][]string{"removed": removed})
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, `print {"removed": [...]}`)
	return c
}

func newLearnEditCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "edit ID",
		Short: "Edit a learning in $EDITOR",
		Long: `edit opens a copy of the learning file in $VISUAL or $EDITOR (default vi),
checks it when the editor exits and puts it in place. A copy that does not
parse is kept and its path printed, so no edit is lost.`,
		Example: `  EDITOR=nano lore learn edit k3v9`,
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			l, err := ws.Edit(c.Context(), args[0], func(path string) error {
				return runEditor(a, path)
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "saved %s  %s\n", l.ID, l.Title)
			return nil
		},
	}
	return c
}

func runEditor(a *app, path string) error {
	ed := os.Getenv("VISUAL")
	if ed == "" {
		ed = os.Getenv("EDITOR")
	}
	if ed == "" {
		ed = "vi"
	}
	cmd := exec.Command("sh", "-c", ed+` "$1"`, "editor", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = a.stdin, a.rawStdout, a.stderr
	if f, ok := a.stdin.(*os.File); ok {
		cmd.Stdin = f
	}
	return cmd.Run()
}

func newLearnImportCmd(a *app) *cobra.Command {
	var (
		opts   lore.ImportOptions
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "import FILE|- [--skip-existing] [--json]",
		Short: "Create many learnings from JSON Lines",
		Long: `import creates one learning per line of FILE (or stdin for -), each a JSON
object with the fields of lore learn add:

  {"title": "...", "body": "...", "tags": ["auth"], "anchors": ["src/a.go::F"],
   "links": [{"to": "ID", "type": "caused_by", "weight": 0.8, "note": "..."}],
   "derived_from": ["task:T-1"], "id": "optional"}

Only "title" is required. Every line is checked first, anchors included:
one bad line imports nothing, and the error names it. Each learning file is
then written whole or not at all, so an interrupted import leaves complete
learnings only; give lines an "id" and rerun with --skip-existing to finish
one. Links may point at learnings of the same import.`,
		Example: `  lore learn import learnings.jsonl
  jq -c '.[]' notes.json | lore learn import - --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in := a.stdin
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return fmt.Errorf("import: %w", err)
				}
				defer func() { _ = f.Close() }() // only read
				in = f
			}
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			rep, err := ws.Import(c.Context(), in, opts)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(rep)
			}
			fmt.Fprintf(a.stdout, "imported %d learnings", len(rep.Imported))
			if len(rep.Skipped) > 0 {
				fmt.Fprintf(a.stdout, ", skipped %d that exist", len(rep.Skipped))
			}
			fmt.Fprintln(a.stdout)
			return nil
		},
	}
	c.Flags().BoolVar(&opts.SkipExisting, "skip-existing", false, "skip lines whose id exists (to finish an interrupted import)")
	c.Flags().BoolVar(&asJSON, "json", false, `print {"imported": [ids], "skipped": [ids]}`)
	return c
}
