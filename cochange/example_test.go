package cochange_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/lorehq/lore/cochange"
	"github.com/lorehq/lore/graph"
)

func ExampleAnalyze() {
	// A repository where api.go and api_test.go always change together and
	// README.md now and then.
	dir, err := os.MkdirTemp("", "cochange-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		log.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		log.Fatal(err)
	}
	start := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := range 8 {
		files := []string{"api.go", "api_test.go"}
		if i%2 == 0 {
			files = append(files, "README.md")
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f), fmt.Appendf(nil, "revision %d\n", i), 0o644); err != nil {
				log.Fatal(err)
			}
			if _, err := wt.Add(f); err != nil {
				log.Fatal(err)
			}
		}
		sig := &object.Signature{Name: "Ada", Email: "ada@example.com", When: start.Add(time.Duration(i) * time.Hour)}
		if _, err := wt.Commit("change", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
			log.Fatal(err)
		}
	}

	store, err := graph.Open("", graph.Options{InMemory: true})
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	res, err := cochange.Analyze(ctx, store, dir, cochange.Options{MinRevs: 4, MinShared: 4})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Commits, "commits")
	for _, p := range res.Pairs {
		fmt.Printf("%s %s shared=%d revs=%d/%d score=%.2f\n", p.A, p.B, p.Shared, p.RevsA, p.RevsB, p.Score)
	}
	partners, err := cochange.Partners(ctx, store, "api.go")
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range partners {
		fmt.Printf("api.go changes with %s (%.2f)\n", p.Path, p.Score)
	}
	// Output:
	// 8 commits
	// README.md api.go shared=4 revs=4/8 score=0.67
	// README.md api_test.go shared=4 revs=4/8 score=0.67
	// api.go api_test.go shared=8 revs=8/8 score=1.00
	// api.go changes with api_test.go (1.00)
	// api.go changes with README.md (0.67)
}
