package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
)

func newFeedbackCmd(a *app) *cobra.Command {
	var (
		opts              lore.FeedbackOptions
		helpful, unhelpul bool
		asJSON            bool
	)
	c := &cobra.Command{
		Use:   "feedback LEARNING --run R --helpful|--unhelpful [--json]",
		Short: "Record whether a learning helped in a run",
		Long: `feedback records that a learning was used in a run (of an agent or a
person) and whether it helped: a USED_IN_RUN edge from the learning to
run:R with the verdict in its metadata. Reporting the same learning and run
again updates the verdict and raises the mention count. Feedback is kept
in .lore/db only; lore learn show lists it.`,
		Example: "  lore feedback k3v9 --run R-77 --helpful\n  lore feedback k3v9 --run R-78 --unhelpful --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if helpful == unhelpul {
				return usageError(c, "give exactly one of --helpful and --unhelpful")
			}
			if opts.Run == "" {
				return usageError(c, "--run is required")
			}
			opts.Learning, opts.Helpful = args[0], helpful
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			fb, err := ws.Feedback(c.Context(), opts)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(fb)
			}
			fmt.Fprintf(a.stdout, "%s in run %s: %s (%d helpful, %d unhelpful)\n", fb.Learning, fb.Run, verdict(fb.Helpful), fb.HelpfulCount, fb.UnhelpfulCount)
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&opts.Run, "run", "", "the run `ID` (run:ID or ID)")
	f.BoolVar(&helpful, "helpful", false, "the learning helped")
	f.BoolVar(&unhelpul, "unhelpful", false, "the learning did not help")
	f.BoolVar(&asJSON, "json", false, "print the recorded feedback as JSON")
	return c
}

func verdict(helpful bool) string {
	if helpful {
		return "helpful"
	}
	return "unhelpful"
}

// printFeedback lists a learning's feedback under learn show.
func printFeedback(w io.Writer, fb []lore.Feedback) {
	if len(fb) == 0 {
		return
	}
	h, u := 0, 0
	for _, f := range fb {
		h += f.HelpfulCount
		u += f.UnhelpfulCount
	}
	fmt.Fprintf(w, "\nFeedback: %d helpful, %d unhelpful in %d runs\n", h, u, len(fb))
	for _, f := range fb {
		fmt.Fprintf(w, "  run %s: %s (%d reports, last %s)\n", f.Run, verdict(f.Helpful), f.Mentions, f.UpdatedAt.Format("2006-01-02 15:04"))
	}
}
