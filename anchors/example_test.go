package anchors_test

import (
	"context"
	"fmt"
	"os"

	"golang.org/x/tools/txtar"

	"github.com/lorehq/lore/anchors"
)

// The flow of lore anchor add and lore verify --fix: baseline an anchor
// against one state of the code, verify it against a later state, fix the
// relocated anchor and print the report.
func Example() {
	ctx := context.Background()
	before := sourceOf(`
-- auth.go --
package auth

// CheckToken validates a token: expiry before signature.
func CheckToken(t string) bool {
	return len(t) > 10 && t[0] == 'v'
}
`)
	defer before.Close()
	spec, _ := anchors.ParseSpec("auth.go::CheckToken")
	a, err := anchors.Baseline(ctx, before, spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("baseline:", a.Kind, a.Lines)

	// Later the function was renamed.
	after := sourceOf(`
-- auth.go --
package auth

// ValidateToken validates a token: expiry before signature.
func ValidateToken(t string) bool {
	return len(t) > 10 && t[0] == 'v'
}
`)
	defer after.Close()
	v, err := anchors.NewVerifier(after, anchors.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	results := v.VerifyLearnings(ctx, []anchors.Learning{{ID: "k3v9q2x7mf", Anchors: []anchors.Anchor{a}}})
	if fixed, ok := anchors.Fix(results[0]); ok {
		fmt.Println("fixed:", fixed.Symbol)
	}
	fmt.Println("learning:", anchors.Worst(results))
	_ = anchors.WriteText(os.Stdout, results, anchors.TextOptions{})
	// Output:
	// baseline: function 3-6
	// fixed: auth.go::ValidateToken
	// learning: valid
	// k3v9q2x7mf  valid
	//   1  auth.go:3 ValidateToken  valid (renamed)  renamed from CheckToken to ValidateToken in auth.go, body unchanged
	//      next: lore verify --fix records the new baseline
	// 1 valid, 0 drifted, 0 invalid
}

func sourceOf(archive string) *anchors.Source {
	fsys, err := txtar.FS(txtar.Parse([]byte(archive)))
	if err != nil {
		panic(err)
	}
	s, err := anchors.NewSource(fsys, anchors.SourceOptions{})
	if err != nil {
		panic(err)
	}
	return s
}
