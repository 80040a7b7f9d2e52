package mcpserver_test

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/mcpserver"
)

// A client connected in memory lists lore's tools. cmd/lore serves the same
// server on stdio with mcpserver.Run.
func Example() {
	dir, _ := os.MkdirTemp("", "lore-example")
	defer os.RemoveAll(dir)
	lore.Init(dir)
	s, err := mcpserver.New(mcpserver.Options{Dir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := s.Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v0"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()
	tools, _ := cs.ListTools(ctx, nil)
	for _, t := range tools.Tools {
		fmt.Println(t.Name)
	}
	// Output:
	// lore_accept
	// lore_analyze_cochanges
	// lore_analyze_imports
	// lore_build_context
	// lore_cochange
	// lore_context
	// lore_edit
	// lore_feedback
	// lore_impact
	// lore_learn
	// lore_link
	// lore_list
	// lore_neighbors
	// lore_relate
	// lore_remove
	// lore_show
	// lore_unlink
	// lore_unrelate
	// lore_verify
}
