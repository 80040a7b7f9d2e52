package httpapi_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"os"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/httpapi"
)

// The handler answers JSON; errors are {"error": "..."} with a status.
// cmd/lore serves it with httpapi.Listen and httpapi.Serve.
func ExampleNewHandler() {
	dir, _ := os.MkdirTemp("", "lore-example")
	defer os.RemoveAll(dir)
	lore.Init(dir)
	os.WriteFile(dir+"/a.go", []byte("package a\n"), 0o644)
	h, err := httpapi.NewHandler(httpapi.Options{Dir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, path := range []string{"/context", "/learnings/nosuchid"} {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Print(resp.StatusCode, " ", string(body))
	}
	// Output:
	// 400 {"error":"give at least one target: /context?target=src/a.ts[:line]"}
	// 404 {"error":"no learning with id \"nosuchid\": see lore learn list: not found"}
}
