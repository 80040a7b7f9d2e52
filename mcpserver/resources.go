package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/learnfile"
)

// uriPrefix starts the URI of every learning: lore://learning/{id}. An id
// never changes, so neither does the URI.
const uriPrefix = "lore://learning/"

// registerResources serves each learning as a resource. The server's
// resource list mirrors the workspace's learnings: resources/list brings it
// up to date before the SDK answers (with its pages), and so do the tools
// that add, retitle or remove a learning and, under Run, a signal on
// Options.Changed; each change of the list reaches the client as
// notifications/resources/list_changed. resources/read returns one learning
// in Markdown with its anchors' current status.
func (h *handlers) registerResources(s *mcp.Server) {
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "learning", Title: "A learning", URITemplate: uriPrefix + "{id}", MIMEType: "text/markdown",
		Description: "A learning: title, tags, each anchor with its current status (valid, drifted, invalid), links and body.",
	}, h.readLearning)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "resources/list" {
				if err := h.refreshList(ctx, true); err != nil {
					return nil, err
				}
			}
			return next(ctx, method, req)
		}
	})
}

// refreshList brings the server's resource list up to date with the
// workspace. Unless first is set it does nothing until a client has listed
// the resources: there is nothing to announce to one that has not.
func (h *handlers) refreshList(ctx context.Context, first bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.listed == nil && !first {
		return nil
	}
	ws, release, err := h.workspace(ctx)
	if err != nil {
		return err
	}
	defer release()
	return h.syncList(ctx, ws)
}

// syncList adds the learnings the list lacks (or whose title changed) and
// removes those that are gone; the SDK announces the change. h.mu is held.
func (h *handlers) syncList(ctx context.Context, ws *lore.Workspace) error {
	ls, err := ws.ListSummaries(ctx, lore.ListOptions{})
	if err != nil {
		return err
	}
	now := make(map[string]string, len(ls))
	for _, l := range ls {
		now[l.ID] = l.Title
		if title, ok := h.listed[l.ID]; !ok || title != l.Title {
			h.srv.AddResource(&mcp.Resource{URI: uriPrefix + l.ID, Name: l.ID, Title: l.Title, MIMEType: "text/markdown"}, h.readLearning)
		}
	}
	var gone []string
	for id := range h.listed {
		if _, ok := now[id]; !ok {
			gone = append(gone, uriPrefix+id)
		}
	}
	if len(gone) > 0 {
		h.srv.RemoveResources(gone...)
	}
	h.listed = now
	return nil
}

// follow refreshes the resource list on each signal of changed until it
// is closed.
func (h *handlers) follow(changed <-chan struct{}) {
	for range changed {
		if err := h.refreshList(context.Background(), false); err != nil && h.opts.Notify != nil {
			h.opts.Notify("resource list: " + err.Error())
		}
	}
}

func (h *handlers) readLearning(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := strings.CutPrefix(uri, uriPrefix)
	if !ok || !learnfile.ValidID(id) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	ws, release, err := h.workspace(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	l, err := ws.Get(ctx, id)
	if errors.Is(err, lore.ErrNotFound) || (err == nil && l.ID != id) {
		return nil, mcp.ResourceNotFoundError(uri) // no prefixes: a URI names one learning
	}
	if err != nil {
		return nil, err
	}
	rep, err := ws.Verify(ctx, lore.VerifyOptions{Learnings: []string{id}})
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: uri, MIMEType: "text/markdown", Text: learningMarkdown(l, rep.Results),
	}}}, nil
}

// learningMarkdown renders a learning with its anchors' status.
func learningMarkdown(l *learnfile.Learning, rs []anchors.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", l.Title)
	fmt.Fprintf(&b, "id: %s · status: %s", l.ID, anchors.Worst(rs))
	if len(l.Tags) > 0 {
		fmt.Fprintf(&b, " · tags: %s", strings.Join(l.Tags, ", "))
	}
	fmt.Fprintf(&b, " · file: %s\n\n", l.Path)
	if len(rs) > 0 {
		b.WriteString("## Anchors\n\n")
		for _, r := range rs {
			fmt.Fprintf(&b, "%d. `%s` — %s", r.Anchor, r.Spec, r.Status)
			if r.Change != anchors.ChangeNone && r.Change != "" {
				fmt.Fprintf(&b, " (%s)", r.Change)
			}
			if r.Status != anchors.Valid && r.Reason != "" {
				fmt.Fprintf(&b, ": %s", r.Reason)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	for _, lk := range l.Links {
		fmt.Fprintf(&b, "- %s → %s%s\n", lk.Type, uriPrefix, lk.To)
	}
	if len(l.Links) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(l.Body)
	return b.String()
}

// registerPrompts adds the prompts agents use around an edit.
func (h *handlers) registerPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{Name: "lore_review_change", Title: "Review a change against what we know",
		Description: "The learnings that a change may affect, with the request to check the change against each.",
		Arguments: []*mcp.PromptArgument{
			{Name: "staged", Description: `"true" for the staged change; else every uncommitted change`},
			{Name: "rev", Description: "review the change from this revision to the working tree"},
		}}, h.reviewPrompt)
	s.AddPrompt(&mcp.Prompt{Name: "lore_before_edit", Title: "What to know before editing",
		Description: "What is known about code you are about to change, best first.",
		Arguments: []*mcp.PromptArgument{
			{Name: "target", Description: "file, file:line or path::Symbol", Required: true},
		}}, h.beforeEditPrompt)
}

func (h *handlers) reviewPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args := req.Params.Arguments
	opts := lore.ImpactOptions{Rev: args["rev"]}
	switch args["staged"] {
	case "", "false":
	case "true":
		opts.Staged = true
	default:
		return nil, fmt.Errorf("staged %q: want true or false", args["staged"])
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	ws, release, err := h.workspace(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	rep, err := ws.Impact(ctx, opts)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("Review the change below against what this team learned about the code it touches. For each learning, say whether the change keeps it true, breaks it, or makes it out of date, and what to do (fix the code, or update the learning with lore_edit / lore_accept). Learnings marked drifted describe code that changed since they were written; stale ones are gone and must not be relied on.\n\nChanged: ")
	var files []string
	for _, c := range rep.Changes {
		files = append(files, c.Path)
	}
	if len(files) == 0 {
		files = []string{"nothing"}
	}
	b.WriteString(strings.Join(files, ", "))
	b.WriteString("\n\n")
	if err := rep.WriteMarkdown(&b); err != nil {
		return nil, err
	}
	return &mcp.GetPromptResult{Description: "Review against learnings",
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: b.String()}}}}, nil
}

func (h *handlers) beforeEditPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	target := req.Params.Arguments["target"]
	if target == "" {
		return nil, errors.New("give a target: a file, file:line or path::Symbol")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	ws, release, err := h.workspace(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := ws.Context(ctx, lore.ContextOptions{Targets: []string{target}})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("Before you change this code, read what is known about it. Keep the valid learnings true; if your change must break one, say so and update it after the change.\n\n")
	if err := res.WriteMarkdown(&b); err != nil {
		return nil, err
	}
	return &mcp.GetPromptResult{Description: "What we know about " + target,
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: b.String()}}}}, nil
}
