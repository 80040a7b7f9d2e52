package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/cochange"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/rank"
)

// call is a tool's work: one call into package lore with the workspace
// opened for it. text, when not empty, is the answer for a prompt (else
// the client gets the structured answer as JSON text).
type call[In, Out any] func(ctx context.Context, ws *lore.Workspace, in In) (out Out, text string, err error)

// add registers a tool whose calls run one at a time, each with the
// workspace opened afresh.
func add[In, Out any](s *mcp.Server, h *handlers, t *mcp.Tool, fn call[In, Out]) {
	t.OutputSchema = outputSchema[Out]()
	relist := changesList(t.Name)
	mcp.AddTool(s, t, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		var zero Out
		ws, release, err := h.workspace(ctx)
		if err != nil {
			return nil, zero, err
		}
		defer release()
		out, text, err := fn(ctx, ws, in)
		if err != nil {
			return nil, zero, err
		}
		if relist && h.listed != nil {
			if err := h.syncList(ctx, ws); err != nil && h.opts.Notify != nil {
				h.opts.Notify("resource list: " + err.Error())
			}
		}
		if text == "" {
			return nil, out, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
	})
}

// changesList says whether a tool adds, retitles or removes learnings,
// which changes the resource list.
func changesList(tool string) bool {
	switch tool {
	case "lore_learn", "lore_edit", "lore_remove":
		return true
	}
	return false
}

// outputSchema is the schema of a tool's structured answer, Out being a
// pointer to a struct: inferred from the Go type as the SDK would, except
// that a map may be null, as encoding/json writes a nil map, and types
// with a text form are strings.
func outputSchema[Out any]() *jsonschema.Schema {
	opts := &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[map[string]any]():    {Types: []string{"null", "object"}},
		reflect.TypeFor[map[string]string](): {Types: []string{"null", "object"}, AdditionalProperties: &jsonschema.Schema{Type: "string"}},
		reflect.TypeFor[graph.Direction]():   {Type: "string", Enum: []any{"out", "in", "both"}},
	}}
	s, err := jsonschema.ForType(reflect.TypeFor[Out]().Elem(), opts)
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of %T: %v", *new(Out), err)) // a programming error, found by any test
	}
	return s
}

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

// Numbers that a caller may leave out are pointers: a depth of 0 given
// explicitly is refused as the command line and HTTP refuse it (one check
// for every driver: graph.CheckDepth, rank.CheckLimit).

// intArg returns *p checked, or 0 (the library's default) when absent.
func intArg(p *int, check func(int) error) (int, error) {
	if p == nil {
		return 0, nil
	}
	return *p, check(*p)
}

// rankArgs checks the depth and limit of a ranking (context, impact,
// neighbours).
func rankArgs(depth, limit *int) (int, int, error) {
	d, err := intArg(depth, graph.CheckDepth)
	if err != nil {
		return 0, 0, err
	}
	l, err := intArg(limit, rank.CheckLimit)
	return d, l, err
}

type contextIn struct {
	Targets []string `json:"targets" jsonschema:"what you are working on: file paths, file:line, path::Symbol or learning ids (repository-relative paths)"`
	Depth   *int     `json:"depth,omitempty" jsonschema:"most hops through imports, co-change and links (1-5, default 2)"`
	Limit   *int     `json:"limit,omitempty" jsonschema:"most learnings returned (1-200, default 10)"`
}

func contextTool(ctx context.Context, ws *lore.Workspace, in contextIn) (*rank.Result, string, error) {
	depth, limit, err := rankArgs(in.Depth, in.Limit)
	if err != nil {
		return nil, "", err
	}
	res, err := ws.Context(ctx, lore.ContextOptions{Targets: in.Targets, Depth: depth, Limit: limit})
	if err != nil {
		return nil, "", err
	}
	var b strings.Builder
	err = res.WriteMarkdown(&b)
	return res, b.String(), err
}

type impactIn struct {
	Targets []string `json:"targets,omitempty" jsonschema:"changed code: file paths, file:line or path::Symbol; leave out to look at a git diff"`
	Staged  bool     `json:"staged,omitempty" jsonschema:"the staged change (git's index against HEAD)"`
	Rev     string   `json:"rev,omitempty" jsonschema:"the change from this revision to the working tree; with neither staged nor rev nor targets, every uncommitted change"`
	Depth   *int     `json:"depth,omitempty" jsonschema:"most hops through importers, co-change and links (1-5, default 2)"`
	Limit   *int     `json:"limit,omitempty" jsonschema:"most learnings returned (1-200, default 10)"`
}

func impactTool(ctx context.Context, ws *lore.Workspace, in impactIn) (*lore.ImpactReport, string, error) {
	depth, limit, err := rankArgs(in.Depth, in.Limit)
	if err != nil {
		return nil, "", err
	}
	rep, err := ws.Impact(ctx, lore.ImpactOptions{Targets: in.Targets, Staged: in.Staged, Rev: in.Rev, Depth: depth, Limit: limit})
	if err != nil {
		return nil, "", err
	}
	var b strings.Builder
	err = rep.WriteMarkdown(&b)
	return rep, b.String(), err
}

type learnIn struct {
	Title       string   `json:"title" jsonschema:"one line: what was learned, stated as a fact or rule"`
	Body        string   `json:"body,omitempty" jsonschema:"the explanation: why, what went wrong, what to do"`
	Anchors     []string `json:"anchors,omitempty" jsonschema:"code the learning is about: path, path::Outer::inner (symbol), path#L10-L24 (lines) or glob:pattern"`
	Tags        []string `json:"tags,omitempty" jsonschema:"tags such as auth or security"`
	DerivedFrom []string `json:"derived_from,omitempty" jsonschema:"provenance: task:ID or run:ID"`
}

// learnOut is a new learning and the symbols its text names that it is not
// anchored to yet.
type learnOut struct {
	ID               string                  `json:"id"`
	Learning         *learnfile.Learning     `json:"learning"`
	SuggestedAnchors []lore.AnchorSuggestion `json:"suggested_anchors" jsonschema:"symbols of the index that the text names and the learning is not anchored to: add them with lore_link"`
}

func learnTool(ctx context.Context, ws *lore.Workspace, in learnIn) (*learnOut, string, error) {
	l, err := ws.Add(ctx, lore.AddOptions{Title: in.Title, Body: in.Body, Tags: in.Tags, Anchors: in.Anchors, DerivedFrom: in.DerivedFrom})
	if err != nil {
		return nil, "", err
	}
	sugg, err := ws.SuggestAnchors(ctx, l.Title+"\n"+l.Body)
	if err != nil {
		return nil, "", err
	}
	out := &learnOut{ID: l.ID, Learning: l, SuggestedAnchors: []lore.AnchorSuggestion{}}
	for _, s := range sugg {
		if !anchoredTo(l, s.Spec) {
			out.SuggestedAnchors = append(out.SuggestedAnchors, s)
		}
	}
	return out, "", nil
}

func anchoredTo(l *learnfile.Learning, spec string) bool {
	for _, a := range l.Anchors {
		if a.Spec() == spec {
			return true
		}
	}
	return false
}

type listIn struct {
	Query string   `json:"query,omitempty" jsonschema:"words that the title, body or tags must all contain (any case)"`
	Tags  []string `json:"tags,omitempty" jsonschema:"only learnings with all of these tags"`
	Limit *int     `json:"limit,omitempty" jsonschema:"most learnings returned (1-200, default 50)"`
}

type listOut struct {
	Learnings []learnfile.Summary `json:"learnings"`
	// Total counts the matches, of which Learnings are the first.
	Total int `json:"total"`
}

const defaultListLimit = 50

func listTool(ctx context.Context, ws *lore.Workspace, in listIn) (*listOut, string, error) {
	limit, err := intArg(in.Limit, rank.CheckLimit)
	if err != nil {
		return nil, "", err
	}
	if limit == 0 {
		limit = defaultListLimit
	}
	ls, err := ws.ListSummaries(ctx, lore.ListOptions{Query: in.Query, Tags: in.Tags})
	if err != nil {
		return nil, "", err
	}
	out := &listOut{Learnings: ls[:min(limit, len(ls))], Total: len(ls)}
	return out, "", nil
}

type learningIn struct {
	Learning string `json:"learning" jsonschema:"learning id or unique prefix"`
}

type showOut struct {
	Learning *learnfile.Learning `json:"learning"`
	Feedback []lore.Feedback     `json:"feedback"`
}

func showTool(ctx context.Context, ws *lore.Workspace, in learningIn) (*showOut, string, error) {
	l, err := ws.Get(ctx, in.Learning)
	if err != nil {
		return nil, "", err
	}
	fb, err := ws.LearningFeedback(ctx, l.ID)
	if err != nil {
		return nil, "", err
	}
	return &showOut{Learning: l, Feedback: fb}, "", nil
}

type learningOut struct {
	Learning *learnfile.Learning `json:"learning"`
}

// learning is the answer of a tool that changes one learning.
func learning(l *learnfile.Learning, err error) (*learningOut, string, error) {
	if err != nil {
		return nil, "", err
	}
	return &learningOut{l}, "", nil
}

func removeTool(ctx context.Context, ws *lore.Workspace, in learningIn) (*learningOut, string, error) {
	return learning(ws.Remove(ctx, in.Learning))
}

type editIn struct {
	Learning string    `json:"learning" jsonschema:"learning id or unique prefix"`
	Title    *string   `json:"title,omitempty" jsonschema:"new title (one line)"`
	Body     *string   `json:"body,omitempty" jsonschema:"new body (replaces the old one)"`
	Tags     *[]string `json:"tags,omitempty" jsonschema:"new tags (replace the old ones)"`
}

func editTool(ctx context.Context, ws *lore.Workspace, in editIn) (*learningOut, string, error) {
	if in.Title == nil && in.Body == nil && in.Tags == nil {
		return nil, "", errors.New("edit: give a title, a body or tags to change")
	}
	return learning(ws.Update(ctx, in.Learning, lore.UpdateOptions{Title: in.Title, Body: in.Body, Tags: in.Tags}))
}

type linkIn struct {
	Learning string `json:"learning" jsonschema:"learning id or unique prefix"`
	Anchor   string `json:"anchor" jsonschema:"anchor spec: path, path::Outer::inner, path#L10-L24 or glob:pattern"`
}

func linkTool(ctx context.Context, ws *lore.Workspace, in linkIn) (*learningOut, string, error) {
	return learning(ws.AddAnchor(ctx, in.Learning, in.Anchor))
}

type unlinkIn struct {
	Learning string `json:"learning" jsonschema:"learning id or unique prefix"`
	Anchor   string `json:"anchor" jsonschema:"the anchor to remove: its 1-based position or its spec"`
}

func unlinkTool(ctx context.Context, ws *lore.Workspace, in unlinkIn) (*learningOut, string, error) {
	return learning(ws.RemoveAnchor(ctx, in.Learning, in.Anchor))
}

type acceptIn struct {
	Learning  string   `json:"learning,omitempty" jsonschema:"learning id or unique prefix"`
	Anchor    int      `json:"anchor,omitempty" jsonschema:"1-based anchor position (default: every anchor that is not valid and unchanged)"`
	Candidate int      `json:"candidate,omitempty" jsonschema:"with anchor: move the anchor to this 1-based candidate location that lore_verify suggested"`
	To        string   `json:"to,omitempty" jsonschema:"with anchor: move the anchor to this target, a spec such as path::Outer::inner (as lore anchor accept --to)"`
	All       bool     `json:"all,omitempty" jsonschema:"accept in bulk, after reviewing a large mechanical change: every anchor not valid and unchanged of the learnings given (or of all)"`
	Learnings []string `json:"learnings,omitempty" jsonschema:"with all: only these learnings"`
}

func acceptTool(ctx context.Context, ws *lore.Workspace, in acceptIn) (*lore.AcceptReport, string, error) {
	if !in.All && in.Learning == "" {
		return nil, "", errors.New("accept: give a learning (and an anchor), or all")
	}
	rep, err := ws.Accept(ctx, lore.AcceptOptions{Learning: in.Learning, Anchor: in.Anchor, Candidate: in.Candidate, To: in.To, All: in.All, Learnings: in.Learnings})
	if err != nil {
		return nil, "", err
	}
	return rep, "", nil
}

type verifyIn struct {
	Learnings    []string `json:"learnings,omitempty" jsonschema:"only these learning ids (default: all)"`
	Staged       bool     `json:"staged,omitempty" jsonschema:"verify git's staged index instead of the working tree"`
	Rev          string   `json:"rev,omitempty" jsonschema:"verify a commit's tree (any git revision)"`
	ChangedSince string   `json:"changed_since,omitempty" jsonschema:"only anchors whose files changed since this revision"`
	All          bool     `json:"all,omitempty" jsonschema:"list valid anchors too (default: only drifted and invalid ones, with the summary counting all)"`
	Fix          bool     `json:"fix,omitempty" jsonschema:"rewrite the baselines of anchors that moved, were renamed or reformatted (never of drifted ones)"`
}

// verifyOut is a verification: the summary counts every anchor, Results
// holds the ones not valid unless all were asked for.
type verifyOut struct {
	Source  string           `json:"source"`
	Summary anchors.Summary  `json:"summary"`
	Results []anchors.Result `json:"results"`
	Fixed   []string         `json:"fixed,omitempty"`
	Notices []string         `json:"notices,omitempty"`
}

func verifyTool(ctx context.Context, ws *lore.Workspace, in verifyIn) (*verifyOut, string, error) {
	rep, err := ws.Verify(ctx, lore.VerifyOptions{Learnings: in.Learnings, Staged: in.Staged, Rev: in.Rev, ChangedSince: in.ChangedSince, Fix: in.Fix})
	if err != nil {
		return nil, "", err
	}
	out := &verifyOut{Source: rep.Source, Summary: rep.Summary, Results: []anchors.Result{}, Fixed: rep.Fixed, Notices: rep.Notices}
	for _, r := range rep.Results {
		if in.All || r.Status != anchors.Valid {
			out.Results = append(out.Results, r)
		}
	}
	return out, "", nil
}

type cochangeIn struct {
	File string `json:"file" jsonschema:"repository path of a file"`
}

type cochangeOut struct {
	File     string             `json:"file"`
	Partners []cochange.Partner `json:"partners"`
	Status   *cochange.Status   `json:"status,omitempty"`
}

func cochangeTool(ctx context.Context, ws *lore.Workspace, in cochangeIn) (*cochangeOut, string, error) {
	ps, err := ws.CochangePartners(ctx, in.File)
	if err != nil {
		return nil, "", err
	}
	if ps == nil {
		ps = []cochange.Partner{}
	}
	return &cochangeOut{File: in.File, Partners: ps}, "", nil
}

type relateIn struct {
	From          string   `json:"from" jsonschema:"learning id the relation starts from"`
	To            string   `json:"to" jsonschema:"learning id the relation points to"`
	Type          string   `json:"type" jsonschema:"relation tag: 1-64 of [a-z0-9_.-], e.g. caused_by, implements, supersedes, relates"`
	Weight        *float64 `json:"weight,omitempty" jsonschema:"strength 0..1 (default 1)"`
	Note          string   `json:"note,omitempty" jsonschema:"why they are related"`
	Bidirectional bool     `json:"bidirectional,omitempty" jsonschema:"also relate to → from"`
}

type edgesOut struct {
	Edges []graph.Edge `json:"edges"`
}

func relateTool(ctx context.Context, ws *lore.Workspace, in relateIn) (*edgesOut, string, error) {
	opts := lore.RelateOptions{From: in.From, To: in.To, Type: in.Type, Note: in.Note, Bidirectional: in.Bidirectional}
	if in.Weight != nil {
		opts.Weight, opts.WeightSet = *in.Weight, true
	}
	es, err := ws.Relate(ctx, opts)
	if err != nil {
		return nil, "", err
	}
	return &edgesOut{es}, "", nil
}

type unrelateIn struct {
	From          string `json:"from" jsonschema:"learning id the relation starts from"`
	To            string `json:"to" jsonschema:"learning id the relation points to"`
	Type          string `json:"type,omitempty" jsonschema:"only this relation type (default: every type)"`
	Bidirectional bool   `json:"bidirectional,omitempty" jsonschema:"also remove to → from"`
}

type removedOut struct {
	Removed int `json:"removed"`
}

func unrelateTool(ctx context.Context, ws *lore.Workspace, in unrelateIn) (*removedOut, string, error) {
	n, err := ws.Unrelate(ctx, lore.UnrelateOptions{From: in.From, To: in.To, Type: in.Type, Bidirectional: in.Bidirectional})
	if err != nil {
		return nil, "", err
	}
	return &removedOut{n}, "", nil
}

type neighborsIn struct {
	Nodes     []string `json:"nodes" jsonschema:"start nodes: learning ids, paths, path::Symbol or typed ids (file:a.go, run:R-1)"`
	Depth     *int     `json:"depth,omitempty" jsonschema:"most hops (1-5, default 1)"`
	Direction string   `json:"direction,omitempty" jsonschema:"out, in or both (default both)"`
	Types     []string `json:"types,omitempty" jsonschema:"only these edge types: ANCHORED_TO, DERIVED_FROM, IMPORTS, CO_CHANGES_WITH, SIMILAR_TO, LINKS_TO, USED_IN_RUN, INVALIDATED_BY"`
	Limit     *int     `json:"limit,omitempty" jsonschema:"most nodes reached (1-200, default 50)"`
}

type neighborsOut struct {
	Nodes   []graph.Node   `json:"nodes"`
	Edges   []graph.Edge   `json:"edges"`
	Reached []graph.Result `json:"reached"`
}

func neighborsTool(ctx context.Context, ws *lore.Workspace, in neighborsIn) (*neighborsOut, string, error) {
	if len(in.Nodes) == 0 {
		return nil, "", errors.New("give at least one node")
	}
	depth, limit, err := rankArgs(in.Depth, in.Limit)
	if err != nil {
		return nil, "", err
	}
	to := graph.TraverseOptions{Depth: max(depth, 1), Limit: limit}
	if limit == 0 {
		to.Limit = defaultListLimit
	}
	if to.Direction, err = graph.ParseDirection(in.Direction); err != nil {
		return nil, "", err
	}
	for _, t := range in.Types {
		et := graph.EdgeType(strings.ToUpper(strings.TrimSpace(t)))
		if err := et.Valid(); err != nil {
			return nil, "", err
		}
		to.Types = append(to.Types, et)
	}
	sub, res, err := ws.Neighbors(ctx, lore.NeighborsOptions{Seeds: in.Nodes, TraverseOptions: to})
	if err != nil {
		return nil, "", err
	}
	if res == nil {
		res = []graph.Result{}
	}
	return &neighborsOut{Nodes: sub.Nodes, Edges: sub.Edges, Reached: res}, "", nil
}

type buildContextIn struct {
	Learning string `json:"learning" jsonschema:"learning id or unique prefix"`
	Depth    *int   `json:"depth,omitempty" jsonschema:"most hops of relations (1-5, default 2)"`
}

type markdownOut struct {
	Markdown string `json:"markdown"`
}

func buildContextTool(ctx context.Context, ws *lore.Workspace, in buildContextIn) (*markdownOut, string, error) {
	depth, err := intArg(in.Depth, graph.CheckDepth)
	if err != nil {
		return nil, "", err
	}
	var b strings.Builder
	if err := ws.BuildContext(ctx, &b, in.Learning, depth); err != nil {
		return nil, "", err
	}
	return &markdownOut{b.String()}, b.String(), nil
}

type indexIn struct {
	Force bool `json:"force,omitempty" jsonschema:"re-parse every file instead of only changed ones"`
}

func indexTool(ctx context.Context, ws *lore.Workspace, in indexIn) (*analyzer.Summary, string, error) {
	sum, err := ws.Index(ctx, lore.IndexOptions{Force: in.Force})
	if err != nil {
		return nil, "", err
	}
	return &sum, "", nil
}

type analyzeIn struct {
	Since       string `json:"since,omitempty" jsonschema:"window start: a date (2024-01-31) or an age (90d, 6m, 2y); default the window of the last analysis, else the year before HEAD"`
	FullHistory bool   `json:"full_history,omitempty" jsonschema:"analyse all of history"`
}

type analyzeOut struct {
	Head    string    `json:"head"`
	Commits int       `json:"commits"`
	Walked  int       `json:"walked"`
	Pairs   int       `json:"pairs"`
	Skipped int       `json:"skipped"`
	Full    bool      `json:"full"`
	Since   time.Time `json:"since,omitzero"`
	Notes   []string  `json:"notes,omitempty"`
}

func analyzeTool(ctx context.Context, ws *lore.Workspace, in analyzeIn) (*analyzeOut, string, error) {
	opts := cochange.Options{FullHistory: in.FullHistory}
	if in.Since != "" {
		t, err := cochange.ParseSince(in.Since, time.Now())
		if err != nil {
			return nil, "", err
		}
		opts.Since = t
	}
	res, err := ws.AnalyzeCochange(ctx, opts)
	if err != nil {
		return nil, "", err
	}
	return &analyzeOut{Head: res.Head, Commits: res.Commits, Walked: res.Walked, Pairs: len(res.Pairs),
		Skipped: res.Skipped, Full: res.Full, Since: res.Since, Notes: res.Notes}, "", nil
}

type feedbackIn struct {
	Learning string `json:"learning" jsonschema:"learning id or unique prefix"`
	Run      string `json:"run" jsonschema:"the run (task execution) the learning was used in"`
	Helpful  bool   `json:"helpful" jsonschema:"true when the learning helped, false when it did not"`
}

func feedbackTool(ctx context.Context, ws *lore.Workspace, in feedbackIn) (*lore.Feedback, string, error) {
	fb, err := ws.Feedback(ctx, lore.FeedbackOptions{Learning: in.Learning, Run: in.Run, Helpful: in.Helpful})
	return fb, "", err
}

func (h *handlers) register(s *mcp.Server) {
	add(s, h, &mcp.Tool{Name: "lore_context", Title: "What do we know about this code?", Annotations: readOnly,
		Description: "Ranked learnings that matter for files, lines, symbols or learnings you are working on: anchored ones first, then those reached through imports, co-change and links, each with its status and the reason it was reached. The text is Markdown ready for a prompt; structured content has the JSON."}, contextTool)
	add(s, h, &mcp.Tool{Name: "lore_impact", Title: "What do we know that this change touches?", Annotations: readOnly,
		Description: "The learnings a change may affect — anchored to the changed code, reached through its importers, co-change or links — ranked, each with the reason. The change is the given files/lines/symbols, or a git diff: staged, since a revision, or (by default) every uncommitted change."}, impactTool)
	add(s, h, &mcp.Tool{Name: "lore_learn", Title: "Record a learning",
		Description: "Create a learning anchored to code. Returns it with suggested anchors: symbols its text names that exist in the index (add them with lore_link)."}, learnTool)
	add(s, h, &mcp.Tool{Name: "lore_list", Title: "Find learnings", Annotations: readOnly,
		Description: "Learnings (id, title, tags), oldest first, whose text contains every word of a query and that have every tag given."}, listTool)
	add(s, h, &mcp.Tool{Name: "lore_show", Title: "Read a learning", Annotations: readOnly,
		Description: "One learning with its anchors, links, body and the feedback recorded for it."}, showTool)
	add(s, h, &mcp.Tool{Name: "lore_edit", Title: "Change a learning's text",
		Description: "Change the title, body or tags of a learning; the rest of its file stays as it is."}, editTool)
	add(s, h, &mcp.Tool{Name: "lore_remove", Title: "Remove a learning", Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)},
		Description: "Delete a learning and the links of other learnings to it."}, removeTool)
	add(s, h, &mcp.Tool{Name: "lore_link", Title: "Anchor a learning to more code",
		Description: "Add an anchor to an existing learning; its baseline is recorded now."}, linkTool)
	add(s, h, &mcp.Tool{Name: "lore_unlink", Title: "Remove an anchor",
		Description: "Remove one anchor of a learning, by position or spec."}, unlinkTool)
	add(s, h, &mcp.Tool{Name: "lore_accept", Title: "Accept drifted code",
		Description: "After checking that a learning still holds, record its anchors' code as it is now (the way to accept drift), or move one anchor to a candidate location that lore_verify suggested."}, acceptTool)
	add(s, h, &mcp.Tool{Name: "lore_verify", Title: "Which learnings still hold?",
		Description: "Verify anchors against the working tree (or the staged index, or a revision): a summary of valid, drifted and invalid anchors, and each one that is not valid with what changed, where it went and candidates. fix rewrites baselines of moved or reformatted anchors."}, verifyTool)
	add(s, h, &mcp.Tool{Name: "lore_cochange", Title: "Files that change with a file", Annotations: readOnly,
		Description: "Files that changed together with a file in git history, strongest first (run lore_analyze_cochanges first)."}, cochangeTool)
	add(s, h, &mcp.Tool{Name: "lore_relate", Title: "Relate two learnings",
		Description: "Record a typed, weighted relation from one learning to another (stored in the learning file). Relating again updates it."}, relateTool)
	add(s, h, &mcp.Tool{Name: "lore_unrelate", Title: "Remove a relation",
		Description: "Remove relations from one learning to another."}, unrelateTool)
	add(s, h, &mcp.Tool{Name: "lore_neighbors", Title: "Explore the graph", Annotations: readOnly,
		Description: "Nodes reachable from the given nodes (learnings, files, symbols, runs) with every edge among them."}, neighborsTool)
	add(s, h, &mcp.Tool{Name: "lore_build_context", Title: "Relation tree of a learning", Annotations: readOnly,
		Description: "Markdown of a learning's direct and extended relations (links and similarity)."}, buildContextTool)
	add(s, h, &mcp.Tool{Name: "lore_analyze_imports", Title: "Index files, symbols and imports",
		Description: "Bring the code index up to date (incremental): files, symbols, imports and IMPORTS edges."}, indexTool)
	add(s, h, &mcp.Tool{Name: "lore_analyze_cochanges", Title: "Analyse git co-change",
		Description: "Read git history (incrementally) and record which files change together (CO_CHANGES_WITH edges). Without since, the window of the last analysis is kept."}, analyzeTool)
	add(s, h, &mcp.Tool{Name: "lore_feedback", Title: "Was a learning helpful?",
		Description: "Record whether a learning helped in a run. Repeats update the verdict and count mentions."}, feedbackTool)
}

func ptr[T any](v T) *T { return &v }
