package graph_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/lorehq/lore/graph"
)

func Example() {
	s, err := graph.Open("", graph.Options{InMemory: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	ctx := context.Background()

	err = s.Update(func(tx *graph.Tx) error {
		for _, e := range []graph.Edge{
			{Type: graph.AnchoredTo, From: "learning:k3v9", To: "file:auth.go", Weight: 1},
			{Type: graph.Imports, From: "file:api.go", To: "file:auth.go", Weight: 1},
			{Type: graph.CoChangesWith, From: "file:auth.go", To: "file:jwt.go", Weight: 0.6},
			{Type: graph.LinksTo, From: "learning:k3v9", To: "learning:p8d2", Relation: "caused_by", Weight: 0.8},
		} {
			if _, err := tx.UpsertEdge(e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	// What is near file:auth.go, best first?
	rs, err := s.Traverse(ctx, graph.TraverseOptions{Seeds: []string{"file:auth.go"}, Depth: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rs {
		fmt.Printf("%s score=%.2f depth=%d path=%s\n", r.Node, r.Score, r.Depth, strings.Join(r.Path, " "))
	}

	// The learning and what it touches, as a Mermaid flowchart.
	g, _ := s.Neighborhood(ctx, graph.TraverseOptions{Seeds: []string{"learning:k3v9"}, Depth: 1})
	g.Write(os.Stdout, graph.Mermaid)

	// Output:
	// file:api.go score=1.00 depth=1 path=file:auth.go file:api.go
	// learning:k3v9 score=1.00 depth=1 path=file:auth.go learning:k3v9
	// learning:p8d2 score=0.80 depth=2 path=file:auth.go learning:k3v9 learning:p8d2
	// file:jwt.go score=0.60 depth=1 path=file:auth.go file:jwt.go
	// flowchart LR
	//   n0["k3v9<br/><small>learning</small>"]:::learning
	//   n1["auth.go<br/><small>file</small>"]:::file
	//   n2["p8d2<br/><small>learning</small>"]:::learning
	//   n0 -->|"ANCHORED_TO 1"| n1
	//   n0 -->|"caused_by 0.8"| n2
	//   classDef learning fill:#fff3bf,stroke:#e0a800
	//   classDef file fill:#d0ebff,stroke:#1c7ed6
	//   classDef symbol fill:#d3f9d8,stroke:#2f9e44
	//   classDef task fill:#f3d9fa,stroke:#ae3ec9
	//   classDef run fill:#ffe8cc,stroke:#f76707
	//   classDef commit fill:#e9ecef,stroke:#495057
	//   classDef package fill:#e6fcf5,stroke:#0ca678
}
