package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lorehq/lore"
)

func newInitCmd(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "init",
		Short: "Create .lore/ in the current directory (the repository root)",
		Long: `init creates .lore/ with config.yaml (commented defaults), learnings/ and a
.gitignore that keeps the derived store (db/) out of git. It is idempotent
and installs nothing else.`,
		Example: `  lore init
  lore -C path/to/repo init`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			res, err := lore.Init(a.dir)
			if err != nil {
				return err
			}
			if asJSON {
				return a.json(res)
			}
			if len(res.Created) == 0 {
				fmt.Fprintf(a.stdout, "lore workspace already set up in %s\n", res.Root)
				return nil
			}
			fmt.Fprintf(a.stdout, "initialised lore workspace in %s\n", res.Root)
			for _, p := range res.Created {
				fmt.Fprintf(a.stdout, "  created %s\n", p)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}
