package lore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/lorehq/lore"
)

// A learning anchored to a function holds while the function does; when
// its body changes, verification says so, and so does the context asked
// for that function.
func Example() {
	dir, err := os.MkdirTemp("", "lore-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	write := func(body string) {
		src := "package auth\n\n// Check reports whether a token may be used.\nfunc Check(token string) bool {\n\t" + body + "\n}\n"
		if err := os.WriteFile(filepath.Join(dir, "auth.go"), []byte(src), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	write(`return token != ""`)

	if _, err := lore.Init(dir); err != nil {
		log.Fatal(err)
	}
	ws, err := lore.Open(dir, lore.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	_, err = ws.Add(ctx, lore.AddOptions{
		Title:   "Check must refuse empty tokens",
		Anchors: []string{"auth.go::Check"},
	})
	if err != nil {
		log.Fatal(err)
	}
	rep, err := ws.Verify(ctx, lore.VerifyOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Summary.Valid, "valid")

	write(`return len(token) > 8`)
	rep, err = ws.Verify(ctx, lore.VerifyOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Results[0].Status, rep.Results[0].Change)

	res, err := ws.Context(ctx, lore.ContextOptions{Targets: []string{"auth.go::Check"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%s)\n", res.Learnings[0].Title, res.Learnings[0].Status)
	// Output:
	// 1 valid
	// drifted body-changed
	// Check must refuse empty tokens (drifted)
}
