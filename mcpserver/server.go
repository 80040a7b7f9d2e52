package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/cochange"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/rank"
)

// Options configure a server.
type Options struct {
	// Dir is a directory inside the workspace (lore.Open walks up to the
	// nearest .lore). Required.
	Dir string
	// LockTimeout bounds the wait for another lore process holding the
	// store (zero: the workspace's configured value).
	LockTimeout time.Duration
	// Version is reported to clients ("dev" when empty).
	Version string
	// Notify receives notices meant for a person (a learning file that
	// does not parse, a stale analysis). Nil drops them.
	Notify func(msg string)
}

func (o *Options) validate() error {
	if o.Dir == "" {
		return errors.New("mcp: no workspace directory given")
	}
	if o.LockTimeout < 0 {
		return errors.New("mcp: lock timeout must not be negative")
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	return nil
}

// Instructions tell an agent when to use which tool.
const Instructions = `lore keeps learnings — short notes about code that a team (or an agent) learned the hard way — anchored to symbols, line ranges, files and globs, and a graph that joins them to files, imports, co-change history and each other.

- Before editing a file, call lore_context with the file (or file:line, or path::Symbol) to get what is known about it, best first, each with why it matters. Treat "drifted" learnings with care (the code changed since); never rely on the "stale" ones.
- When you learn something worth keeping (a pitfall, an invariant, a decision), call lore_learn with a one-line title, a short body and anchors to the code it is about. Use lore_link to anchor an existing learning to more code.
- Use lore_relate / lore_unrelate to record how two learnings relate (caused_by, implements, supersedes, …); lore_build_context shows a learning's relation tree; lore_neighbors explores the graph around any node.
- After changing code, call lore_verify to see which learnings no longer hold (drifted or invalid anchors).
- lore_analyze_imports (re)indexes files, symbols and imports and lore_analyze_cochanges reads git history; run them once when context looks thin, they are incremental.
- After a task, call lore_feedback for each learning you used, saying whether it helped.`

// New returns an MCP server with lore's tools.
func New(opts Options) (*mcp.Server, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "lore", Title: "lore: learnings anchored to code", Version: opts.Version},
		&mcp.ServerOptions{Instructions: Instructions, Capabilities: &mcp.ServerCapabilities{}})
	h := &handlers{opts: opts}
	h.register(s)
	return s, nil
}

// Run serves MCP over in and out (newline-delimited JSON-RPC, as on stdio)
// until the client disconnects or ctx is cancelled.
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	s, err := New(opts)
	if err != nil {
		return err
	}
	// The SDK ends the session on a line it cannot decode: the edge
	// answers those itself (see edge).
	w := &lockedWriter{w: out}
	r := edge(in, w)
	defer r.Close()
	err = s.Run(ctx, &mcp.IOTransport{Reader: r, Writer: nopWriteCloser{w}, MaxLineLength: 2 * maxLineBytes})
	if err != nil && (errors.Is(err, io.EOF) || ctx.Err() != nil) {
		return nil
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

type handlers struct {
	opts Options
	// mu runs one call at a time: a process opens the store once at a
	// time, so concurrent calls queue here rather than on its lock.
	mu sync.Mutex
}

// serial runs a tool handler under mu.
func serial[In, Out any](mu *sync.Mutex, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		mu.Lock()
		defer mu.Unlock()
		return h(ctx, req, in)
	}
}

// workspace opens the workspace for one call. It holds no store: every
// lore call opens and closes it.
func (h *handlers) workspace() (*lore.Workspace, error) {
	return lore.Open(h.opts.Dir, lore.Options{LockTimeout: h.opts.LockTimeout, Notify: h.opts.Notify})
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// Tool inputs. Descriptions in jsonschema tags become the input schema's
// property descriptions.

type contextIn struct {
	Targets []string `json:"targets" jsonschema:"what you are working on: file paths, file:line, path::Symbol or learning ids (repository-relative paths)"`
	Depth   int      `json:"depth,omitempty" jsonschema:"most hops through imports, co-change and links (1-5, default 2)"`
	Limit   int      `json:"limit,omitempty" jsonschema:"most learnings returned (default 10)"`
}

type learnIn struct {
	Title       string   `json:"title" jsonschema:"one line: what was learned, stated as a fact or rule"`
	Body        string   `json:"body,omitempty" jsonschema:"the explanation: why, what went wrong, what to do"`
	Anchors     []string `json:"anchors,omitempty" jsonschema:"code the learning is about: path, path::Outer::inner (symbol), path#L10-L24 (lines) or glob:pattern"`
	Tags        []string `json:"tags,omitempty" jsonschema:"tags such as auth or security"`
	DerivedFrom []string `json:"derived_from,omitempty" jsonschema:"provenance: task:ID or run:ID"`
}

type linkIn struct {
	Learning string `json:"learning" jsonschema:"learning id or unique prefix"`
	Anchor   string `json:"anchor" jsonschema:"anchor spec: path, path::Outer::inner, path#L10-L24 or glob:pattern"`
}

type relateIn struct {
	From          string   `json:"from" jsonschema:"learning id the relation starts from"`
	To            string   `json:"to" jsonschema:"learning id the relation points to"`
	Type          string   `json:"type" jsonschema:"relation tag: 1-64 of [a-z0-9_.-], e.g. caused_by, implements, supersedes, relates"`
	Weight        *float64 `json:"weight,omitempty" jsonschema:"strength 0..1 (default 1)"`
	Note          string   `json:"note,omitempty" jsonschema:"why they are related"`
	Bidirectional bool     `json:"bidirectional,omitempty" jsonschema:"also relate to → from"`
}

type unrelateIn struct {
	From          string `json:"from" jsonschema:"learning id the relation starts from"`
	To            string `json:"to" jsonschema:"learning id the relation points to"`
	Type          string `json:"type,omitempty" jsonschema:"only this relation type (default: every type)"`
	Bidirectional bool   `json:"bidirectional,omitempty" jsonschema:"also remove to → from"`
}

type neighborsIn struct {
	Nodes     []string `json:"nodes" jsonschema:"start nodes: learning ids, paths, path::Symbol or typed ids (file:a.go, run:R-1)"`
	Depth     int      `json:"depth,omitempty" jsonschema:"most hops (1-5, default 1)"`
	Direction string   `json:"direction,omitempty" jsonschema:"out, in or both (default both)"`
	Types     []string `json:"types,omitempty" jsonschema:"only these edge types: ANCHORED_TO, DERIVED_FROM, IMPORTS, CO_CHANGES_WITH, SIMILAR_TO, LINKS_TO, USED_IN_RUN, INVALIDATED_BY"`
	Limit     int      `json:"limit,omitempty" jsonschema:"most nodes reached (default 50)"`
}

type buildContextIn struct {
	Learning string `json:"learning" jsonschema:"learning id or unique prefix"`
	Depth    int    `json:"depth,omitempty" jsonschema:"most hops of relations (1-5, default 2)"`
}

type verifyIn struct {
	Learnings    []string `json:"learnings,omitempty" jsonschema:"only these learning ids (default: all)"`
	Staged       bool     `json:"staged,omitempty" jsonschema:"verify git's staged index instead of the working tree"`
	Rev          string   `json:"rev,omitempty" jsonschema:"verify a commit's tree (any git revision)"`
	ChangedSince string   `json:"changed_since,omitempty" jsonschema:"only anchors whose files changed since this revision"`
}

type indexIn struct {
	Force bool `json:"force,omitempty" jsonschema:"re-parse every file instead of only changed ones"`
}

type cochangeIn struct {
	Since       string `json:"since,omitempty" jsonschema:"window start: a date (2024-01-31) or an age (90d, 6m, 2y); default the year before HEAD"`
	FullHistory bool   `json:"full_history,omitempty" jsonschema:"analyse all of history"`
}

type feedbackIn struct {
	Learning string `json:"learning" jsonschema:"learning id or unique prefix"`
	Run      string `json:"run" jsonschema:"the run (task execution) the learning was used in"`
	Helpful  bool   `json:"helpful" jsonschema:"true when the learning helped, false when it did not"`
}

func (h *handlers) register(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "lore_context", Title: "What do we know about this code?",
		Description: "Ranked learnings that matter for files, lines, symbols or learnings you are working on: anchored ones first, then those reached through imports, co-change and links, each with its status and the reason it was reached. The text is Markdown ready for a prompt; structured content has the JSON.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, serial(&h.mu, h.context))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_learn", Title: "Record a learning",
		Description: "Create a learning anchored to code. Returns its id."}, serial(&h.mu, h.learn))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_link", Title: "Anchor a learning to more code",
		Description: "Add an anchor to an existing learning; its baseline is recorded now."}, serial(&h.mu, h.link))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_relate", Title: "Relate two learnings",
		Description: "Record a typed, weighted relation from one learning to another (stored in the learning file). Relating again updates it."}, serial(&h.mu, h.relate))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_unrelate", Title: "Remove a relation",
		Description: "Remove relations from one learning to another."}, serial(&h.mu, h.unrelate))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_neighbors", Title: "Explore the graph",
		Description: "Nodes reachable from the given nodes (learnings, files, symbols, runs) with every edge among them.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, serial(&h.mu, h.neighbors))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_build_context", Title: "Relation tree of a learning",
		Description: "Markdown of a learning's direct and extended relations (links and similarity).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, serial(&h.mu, h.buildContext))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_verify", Title: "Which learnings still hold?",
		Description: "Verify anchors against the working tree (or the staged index, or a revision): valid, drifted (the code changed) or invalid (the code is gone), per anchor, with relocations."}, serial(&h.mu, h.verify))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_analyze_imports", Title: "Index files, symbols and imports",
		Description: "Bring the code index up to date (incremental): files, symbols, imports and IMPORTS edges."}, serial(&h.mu, h.analyzeImports))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_analyze_cochanges", Title: "Analyse git co-change",
		Description: "Read git history (incrementally) and record which files change together (CO_CHANGES_WITH edges)."}, serial(&h.mu, h.analyzeCochanges))
	mcp.AddTool(s, &mcp.Tool{Name: "lore_feedback", Title: "Was a learning helpful?",
		Description: "Record whether a learning helped in a run. Repeats update the verdict and count mentions."}, serial(&h.mu, h.feedback))
}

func (h *handlers) context(ctx context.Context, _ *mcp.CallToolRequest, in contextIn) (*mcp.CallToolResult, *rank.Result, error) {
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	res, err := ws.Context(ctx, lore.ContextOptions{Targets: in.Targets, Depth: in.Depth, Limit: in.Limit})
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	if err := res.WriteMarkdown(&b); err != nil {
		return nil, nil, err
	}
	return text(b.String()), res, nil
}

func (h *handlers) learn(ctx context.Context, _ *mcp.CallToolRequest, in learnIn) (*mcp.CallToolResult, any, error) {
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	l, err := ws.Add(ctx, lore.AddOptions{Title: in.Title, Body: in.Body, Tags: in.Tags, Anchors: in.Anchors, DerivedFrom: in.DerivedFrom})
	if err != nil {
		return nil, nil, err
	}
	return nil, l, nil
}

func (h *handlers) link(ctx context.Context, _ *mcp.CallToolRequest, in linkIn) (*mcp.CallToolResult, any, error) {
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	l, err := ws.AddAnchor(ctx, in.Learning, in.Anchor)
	if err != nil {
		return nil, nil, err
	}
	return nil, l, nil
}

func (h *handlers) relate(ctx context.Context, _ *mcp.CallToolRequest, in relateIn) (*mcp.CallToolResult, any, error) {
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	opts := lore.RelateOptions{From: in.From, To: in.To, Type: in.Type, Note: in.Note, Bidirectional: in.Bidirectional}
	if in.Weight != nil {
		opts.Weight, opts.WeightSet = *in.Weight, true
	}
	es, err := ws.Relate(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	return nil, map[string]any{"edges": es}, nil
}

func (h *handlers) unrelate(ctx context.Context, _ *mcp.CallToolRequest, in unrelateIn) (*mcp.CallToolResult, any, error) {
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	n, err := ws.Unrelate(ctx, lore.UnrelateOptions{From: in.From, To: in.To, Type: in.Type, Bidirectional: in.Bidirectional})
	if err != nil {
		return nil, nil, err
	}
	return nil, map[string]int{"removed": n}, nil
}

func (h *handlers) neighbors(ctx context.Context, _ *mcp.CallToolRequest, in neighborsIn) (*mcp.CallToolResult, any, error) {
	if len(in.Nodes) == 0 {
		return nil, nil, errors.New("give at least one node")
	}
	if in.Depth < 0 || in.Depth > graph.MaxDepth {
		return nil, nil, fmt.Errorf("depth %d: want 1..%d", in.Depth, graph.MaxDepth)
	}
	if in.Depth == 0 {
		in.Depth = 1
	}
	if in.Limit <= 0 {
		in.Limit = 50
	}
	dir, err := graph.ParseDirection(in.Direction)
	if err != nil {
		return nil, nil, err
	}
	to := graph.TraverseOptions{Direction: dir, Depth: in.Depth, Limit: in.Limit}
	for _, t := range in.Types {
		et := graph.EdgeType(strings.ToUpper(strings.TrimSpace(t)))
		if err := et.Valid(); err != nil {
			return nil, nil, err
		}
		to.Types = append(to.Types, et)
	}
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	sub, res, err := ws.Neighbors(ctx, lore.NeighborsOptions{Seeds: in.Nodes, TraverseOptions: to})
	if err != nil {
		return nil, nil, err
	}
	if res == nil {
		res = []graph.Result{}
	}
	return nil, map[string]any{"nodes": sub.Nodes, "edges": sub.Edges, "reached": res}, nil
}

func (h *handlers) buildContext(ctx context.Context, _ *mcp.CallToolRequest, in buildContextIn) (*mcp.CallToolResult, any, error) {
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	if err := ws.BuildContext(ctx, &b, in.Learning, in.Depth); err != nil {
		return nil, nil, err
	}
	return text(b.String()), nil, nil
}

func (h *handlers) verify(ctx context.Context, _ *mcp.CallToolRequest, in verifyIn) (*mcp.CallToolResult, any, error) {
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	rep, err := ws.Verify(ctx, lore.VerifyOptions{Learnings: in.Learnings, Staged: in.Staged, Rev: in.Rev, ChangedSince: in.ChangedSince})
	if err != nil {
		return nil, nil, err
	}
	return nil, rep, nil
}

func (h *handlers) analyzeImports(ctx context.Context, _ *mcp.CallToolRequest, in indexIn) (*mcp.CallToolResult, any, error) {
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	sum, err := ws.Index(ctx, lore.IndexOptions{Force: in.Force})
	if err != nil {
		return nil, nil, err
	}
	return nil, sum, nil
}

func (h *handlers) analyzeCochanges(ctx context.Context, _ *mcp.CallToolRequest, in cochangeIn) (*mcp.CallToolResult, any, error) {
	opts := cochange.Options{FullHistory: in.FullHistory}
	if in.Since != "" {
		t, err := cochange.ParseSince(in.Since, time.Now())
		if err != nil {
			return nil, nil, err
		}
		opts.Since = t
	}
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	res, err := ws.AnalyzeCochange(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	return nil, map[string]any{"head": res.Head, "commits": res.Commits, "walked": res.Walked, "pairs": len(res.Pairs),
		"skipped": res.Skipped, "full": res.Full, "notes": res.Notes}, nil
}

func (h *handlers) feedback(ctx context.Context, _ *mcp.CallToolRequest, in feedbackIn) (*mcp.CallToolResult, any, error) {
	ws, err := h.workspace()
	if err != nil {
		return nil, nil, err
	}
	fb, err := ws.Feedback(ctx, lore.FeedbackOptions{Learning: in.Learning, Run: in.Run, Helpful: in.Helpful})
	if err != nil {
		return nil, nil, err
	}
	return nil, fb, nil
}
