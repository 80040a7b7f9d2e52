package rank

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/lorehq/lore/graph"
)

// RelationDepth checks the depth of a relation tree, 0 meaning
// graph.DefaultDepth.
func RelationDepth(depth int) (int, error) {
	if depth == 0 {
		return graph.DefaultDepth, nil
	}
	return depth, graph.CheckDepth(depth)
}

// WriteRelations writes the relation tree of learning id as Markdown:
// direct relations (depth 1) with their direction (→ outgoing, ←
// incoming), then extended relations up to depth (1 to graph.MaxDepth; 0
// means graph.DefaultDepth), each line `#id [tags] "title" (relation)`,
// and a total line. Relations are links and similarity between learnings.
func WriteRelations(ctx context.Context, out io.Writer, st *graph.Store, v View, id string, depth int) error {
	depth, err := RelationDepth(depth)
	if err != nil {
		return err
	}
	res, err := st.Traverse(ctx, graph.TraverseOptions{
		Seeds:  []string{learningNode(id)},
		Filter: graph.Filter{Types: []graph.EdgeType{graph.LinksTo, graph.SimilarTo}},
		Depth:  depth,
	})
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", learningLine(v, id))
	var direct, extended []string
	for _, r := range res {
		other := learningOf(r.Node)
		if other == "" || other == id || len(r.Steps) == 0 {
			continue
		}
		last := r.Steps[len(r.Steps)-1]
		line := fmt.Sprintf("%s %s (%s)", arrow(last.Direction), learningLine(v, other), relationOf(last))
		if r.Depth == 1 {
			direct = append(direct, "- "+line)
			continue
		}
		via := learningOf(r.Path[len(r.Path)-2])
		extended = append(extended, fmt.Sprintf("- %s — depth %d, via #%s, score %.2f", line, r.Depth, via, r.Score))
	}
	b.WriteString("## Direct relations\n\n")
	writeList(&b, direct)
	if depth > 1 {
		b.WriteString("\n## Extended relations\n\n")
		writeList(&b, extended)
	}
	fmt.Fprintf(&b, "\nTotal: %d related learnings (%d direct, %d extended)\n", len(direct)+len(extended), len(direct), len(extended))
	_, err = io.WriteString(out, b.String())
	return err
}

func writeList(b *strings.Builder, lines []string) {
	if len(lines) == 0 {
		b.WriteString("(none)\n")
		return
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
}

func arrow(d graph.Direction) string {
	if d == graph.In {
		return "←"
	}
	return "→"
}

func relationOf(s graph.Step) string {
	if s.Relation != "" {
		return s.Relation
	}
	return strings.ToLower(string(s.Type))
}

// learningLine renders `#id [tags] "title"` for a learning id.
func learningLine(v View, id string) string {
	l := v.Learning(id)
	if l == nil {
		return "#" + id + " (missing)"
	}
	tags := ""
	if len(l.Tags) > 0 {
		tags = " [" + strings.Join(l.Tags, ", ") + "]"
	}
	return fmt.Sprintf("#%s%s %q", l.ID, tags, l.Title)
}
