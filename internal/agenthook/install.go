package agenthook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lorehq/lore/internal/catalog"
)

// Agent is a coding agent whose hooks lore installs.
type Agent string

const (
	Claude Agent = "claude"
	Codex  Agent = "codex"
)

// ParseAgent reads "claude" or "codex".
func ParseAgent(s string) (Agent, error) {
	switch a := Agent(s); a {
	case Claude, Codex:
		return a, nil
	}
	return "", fmt.Errorf("agent %q: want claude or codex", s)
}

// settingsPath is the project file that holds an agent's hooks, relative
// to the repository root.
func (a Agent) settingsPath() string {
	if a == Codex {
		return ".codex/hooks.json"
	}
	return ".claude/settings.json"
}

// matcher selects the tools that edit files: Claude Code's edit tools,
// Codex's apply_patch.
func (a Agent) matcher() string {
	if a == Codex {
		return "apply_patch"
	}
	return "Edit|Write|MultiEdit|NotebookEdit"
}

// InstallResult says what Install did.
type InstallResult struct {
	Path string // the settings file, relative to the root
	// Already is set when the hooks were there: nothing was written.
	Already bool
}

// Install writes an agent's project settings so that it runs command
// ("lore agent-hook pre" and "post" are appended) before and after each
// file edit. A settings file that exists is left alone unless merge: then
// lore's two hooks are added to it and everything else in it is kept.
func Install(root string, agent Agent, command string, merge bool) (*InstallResult, error) {
	rel := agent.settingsPath()
	p := filepath.Join(root, filepath.FromSlash(rel))
	res := &InstallResult{Path: rel}
	settings := map[string]any{}
	data, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal(data, &settings); err != nil {
			return nil, fmt.Errorf("%s: not JSON (%v); fix or move it, then rerun", rel, err)
		}
		if strings.Contains(string(data), "agent-hook pre") && strings.Contains(string(data), "agent-hook post") {
			res.Already = true
			return res, nil
		}
		if !merge {
			return nil, fmt.Errorf("%s exists: pass --merge to add lore's hooks to it (everything in it is kept)", rel)
		}
	}
	hooks, _ := settings["hooks"].(map[string]any)
	if hooks == nil {
		if settings["hooks"] != nil {
			return nil, fmt.Errorf("%s: \"hooks\" is not an object; fix it, then rerun", rel)
		}
		hooks = map[string]any{}
	}
	for event, phase := range map[string]string{"PreToolUse": "pre", "PostToolUse": "post"} {
		groups, _ := hooks[event].([]any)
		if hooks[event] != nil && groups == nil {
			return nil, fmt.Errorf("%s: hooks.%s is not a list; fix it, then rerun", rel, event)
		}
		hooks[event] = append(groups, map[string]any{
			"matcher": agent.matcher(),
			"hooks":   []any{map[string]any{"type": "command", "command": command + " agent-hook " + phase, "timeout": 30}},
		})
	}
	settings["hooks"] = hooks
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(settings); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	// The agent's settings are the person's: a crash leaves the old file
	// or the new one, never a truncated one.
	if err := catalog.WriteFile(p, b.Bytes()); err != nil {
		return nil, err
	}
	return res, nil
}
