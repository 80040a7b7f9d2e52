package analyzer_test

import (
	"context"
	"fmt"

	"golang.org/x/tools/txtar"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/graph"
)

func Example() {
	repo, _ := txtar.FS(txtar.Parse([]byte(`
-- auth.py --
from util import check

class AuthService:
    def validate_token(self, token):
        return check(token)
-- util.py --
def check(token):
    return bool(token)
`)))
	store, _ := graph.Open("", graph.Options{InMemory: true})
	defer store.Close()
	sum, err := analyzer.Update(context.Background(), store, repo, analyzer.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(sum.Files, "files,", sum.Symbols, "symbols")
	syms, _ := analyzer.Symbols(store, "auth.py")
	for _, s := range syms {
		fmt.Println(s.FQName, s.Kind, s.StartLine, s.EndLine)
	}
	imps, _ := analyzer.Imports(store, "auth.py")
	fmt.Println(imps[0].Spec, imps[0].Targets)
	// Output:
	// 2 files, 3 symbols
	// auth.py::AuthService class 3 5
	// auth.py::AuthService::validate_token method 4 5
	// util [util.py]
}
