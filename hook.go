package lore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// hookMarker identifies a pre-commit hook written by lore.
const hookMarker = "# installed by lore hook install"

// HookOptions configure InstallHook.
type HookOptions struct {
	// Command is how the hook runs lore; default "lore".
	Command string
	// Chain keeps an existing pre-commit hook: it is moved aside and run
	// first by lore's hook.
	Chain bool
}

// HookResult says what InstallHook did.
type HookResult struct {
	Path    string `json:"path"`
	Chained string `json:"chained,omitempty"` // the previous hook, now run first
	Updated bool   `json:"updated"`           // a lore hook was already there
}

// InstallHook writes a git pre-commit hook that runs
// `lore verify --staged --fix`. It never clobbers another hook: without
// Chain it refuses, with Chain it keeps the old hook and runs it first.
func (w *Workspace) InstallHook(ctx context.Context, opts HookOptions) (*HookResult, error) {
	if opts.Command == "" {
		opts.Command = "lore"
	}
	out, err := w.git(ctx, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return nil, fmt.Errorf("hook install needs a git repository: %w", err)
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(w.root, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	p := filepath.Join(dir, "pre-commit")
	res := &HookResult{Path: p}
	old, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case strings.Contains(string(old), hookMarker):
		res.Updated = true
		if prev := p + ".lore-chained"; fileExists(prev) {
			res.Chained = prev
		}
	case !opts.Chain:
		return nil, fmt.Errorf("%s already exists and is not lore's: rerun with --chain to keep it and run it before lore, or add `%s verify --staged --fix` to it yourself", p, opts.Command)
	default:
		res.Chained = p + ".lore-chained"
		if fileExists(res.Chained) {
			return nil, fmt.Errorf("%s exists too: remove one of the two hooks first", res.Chained)
		}
		if err := os.Rename(p, res.Chained); err != nil {
			return nil, err
		}
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n" + hookMarker + "\n")
	b.WriteString("# Verifies learnings against what is about to be committed and fixes\n# the baselines of anchors that moved. Skip once with: git commit --no-verify\n")
	if res.Chained != "" {
		fmt.Fprintf(&b, "%q \"$@\" || exit $?\n", res.Chained)
	}
	fmt.Fprintf(&b, "exec %s verify --staged --fix\n", opts.Command)
	if err := writeFileAtomic(p, []byte(b.String())); err != nil {
		return nil, err
	}
	if err := os.Chmod(p, 0o755); err != nil {
		return nil, err
	}
	return res, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
