package agenthook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/anchors"
)

// Phase is when a hook runs: Pre before a tool call, Post after it.
type Phase string

const (
	Pre  Phase = "pre"
	Post Phase = "post"
)

// ParsePhase reads "pre" or "post".
func ParsePhase(s string) (Phase, error) {
	switch p := Phase(s); p {
	case Pre, Post:
		return p, nil
	}
	return "", fmt.Errorf("hook phase %q: want pre or post", s)
}

// Input is the part of a hook's JSON that lore reads.
type Input struct {
	Event     string          `json:"hook_event_name"`
	Cwd       string          `json:"cwd"`
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
}

// maxInput bounds the hook JSON read (a Write carries the whole file).
const maxInput = 64 << 20

// ReadInput decodes a hook's JSON.
func ReadInput(r io.Reader) (*Input, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInput))
	if err != nil {
		return nil, fmt.Errorf("agent hook: read stdin: %w", err)
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("agent hook: stdin is not the JSON of a hook (%v); configure it as a PreToolUse or PostToolUse command hook", err)
	}
	return &in, nil
}

// Files returns the files a tool call edits, as the agent names them
// (absolute, or relative to Cwd), in order, each once.
func (in *Input) Files() []string {
	var ti struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Path         string `json:"path"`
		Command      any    `json:"command"`
		Input        string `json:"input"`
	}
	_ = json.Unmarshal(in.ToolInput, &ti) // a tool input of another shape names no file
	var out []string
	add := func(p string) {
		if p = strings.TrimSpace(p); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	add(ti.FilePath)
	add(ti.NotebookPath)
	add(ti.Path)
	patch := ti.Input
	if s, ok := ti.Command.(string); ok && strings.Contains(s, "*** Begin Patch") {
		patch = s
	}
	for _, line := range strings.Split(patch, "\n") {
		for _, prefix := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				add(rest)
			}
		}
	}
	return out
}

// Output is a hook's answer; its JSON is what the agents read.
type Output struct {
	Decision string    `json:"decision,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Specific *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific is the event's part of an answer.
type Specific struct {
	Event             string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// Answer runs the hook of phase for the tool call in: before an edit the
// ranked learnings about its files, after it the anchors into them that
// are no longer valid. It returns the JSON to print, nil when there is
// nothing to say (the agent goes on).
func Answer(ctx context.Context, ws *lore.Workspace, phase Phase, in *Input) ([]byte, error) {
	var files []string
	for _, f := range in.Files() {
		if !filepath.IsAbs(f) && in.Cwd != "" {
			f = filepath.Join(in.Cwd, f)
		}
		rel, err := ws.RelPath(f)
		if err != nil || rel == "." || strings.HasPrefix(rel, ".lore/") || strings.HasPrefix(rel, ".git/") {
			continue // outside the repository, or lore's and git's own files
		}
		files = append(files, rel)
	}
	if len(files) == 0 {
		return nil, nil
	}
	var out *Output
	var err error
	if phase == Pre {
		out, err = before(ctx, ws, files)
	} else {
		out, err = after(ctx, ws, files)
	}
	if out == nil || err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err = enc.Encode(out)
	return b.Bytes(), err
}

func before(ctx context.Context, ws *lore.Workspace, files []string) (*Output, error) {
	var targets []string
	for _, f := range files {
		if ws.Exists(f) {
			targets = append(targets, f) // a file about to be created has no learnings
		}
	}
	if len(targets) == 0 {
		return nil, nil
	}
	res, err := ws.Context(ctx, lore.ContextOptions{Targets: targets})
	if err != nil {
		return nil, err
	}
	if len(res.Learnings) == 0 && len(res.Stale) == 0 {
		return nil, nil
	}
	var b strings.Builder
	b.WriteString("lore: what this team learned about the code you are about to edit. Keep these true, or say why they no longer hold.\n\n")
	if err := res.WriteMarkdown(&b); err != nil {
		return nil, err
	}
	return &Output{Specific: &Specific{Event: "PreToolUse", AdditionalContext: b.String()}}, nil
}

func after(ctx context.Context, ws *lore.Workspace, files []string) (*Output, error) {
	rep, err := ws.Verify(ctx, lore.VerifyOptions{})
	if err != nil {
		return nil, err
	}
	var drifted, invalid []string
	for _, r := range rep.Results {
		if r.Status == anchors.Valid || !touches(r, files) {
			continue
		}
		line := fmt.Sprintf("- %s/%d %q (%s): %s, %s", r.Learning, r.Anchor, rep.Titles[r.Learning], r.Spec, r.Status, r.Reason)
		if r.Status == anchors.Invalid {
			invalid = append(invalid, line)
		} else {
			drifted = append(drifted, line)
		}
	}
	if len(drifted)+len(invalid) == 0 {
		return nil, nil
	}
	var b strings.Builder
	if len(invalid) > 0 {
		b.WriteString("lore: your edit removed code that learnings are anchored to:\n")
		b.WriteString(strings.Join(invalid, "\n"))
		b.WriteString("\nRe-anchor each (lore_link, then lore_unlink) or remove it if it no longer holds (lore_remove).\n")
	}
	if len(drifted) > 0 {
		b.WriteString("lore: your edit changed code that learnings describe; check they still hold, then accept (lore_accept) or edit them:\n")
		b.WriteString(strings.Join(drifted, "\n"))
		b.WriteString("\n")
	}
	if len(invalid) > 0 {
		// The reason reaches the agent as what it must act on.
		return &Output{Decision: "block", Reason: b.String()}, nil
	}
	return &Output{Specific: &Specific{Event: "PostToolUse", AdditionalContext: b.String()}}, nil
}

// touches reports whether a verification result is about one of files,
// where the anchor was or where it went.
func touches(r anchors.Result, files []string) bool {
	if slices.Contains(files, r.From.Path) {
		return true
	}
	return r.To != nil && slices.Contains(files, r.To.Path)
}
