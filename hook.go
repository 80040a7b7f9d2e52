package lore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/source"
)

// hookMarker identifies a pre-commit hook written by lore.
const hookMarker = "# installed by lore hook install"

// chainedSuffix names the place an existing hook is moved to when lore's
// hook chains it.
const chainedSuffix = ".lore-chained"

// HookOptions configure InstallHook.
type HookOptions struct {
	// Command is the lore executable the hook runs. An absolute path is
	// recorded in the hook and used while it exists, with lore on PATH as
	// the fallback; a bare name is looked up on PATH only. Default "lore".
	Command string
	// Chain keeps an existing pre-commit hook: it is moved aside and run
	// first by lore's hook.
	Chain bool
}

// HookResult says what InstallHook or UninstallHook did.
type HookResult struct {
	Path    string `json:"path"`
	Chained string `json:"chained,omitempty"` // the previous hook, run first (install) or put back (uninstall)
	Updated bool   `json:"updated,omitempty"` // install: a lore hook was already there
	Removed bool   `json:"removed,omitempty"` // uninstall: lore's hook was removed
}

// hookPath returns the pre-commit hook's path (core.hooksPath honoured).
func hookPath(ctx context.Context, repo *source.Repo) (string, error) {
	dir, err := repo.HooksDir(ctx)
	if err != nil {
		return "", fmt.Errorf("git hooks need a git repository: %w", err)
	}
	return filepath.Join(dir, "pre-commit"), nil
}

// InstallHook writes a git pre-commit hook that runs
// `lore verify --staged --fix --quiet` for this workspace: silent when the
// commit may go ahead, the findings and what to do when it may not. It
// never clobbers another hook: without Chain it refuses, with Chain it
// keeps the old hook and runs it first.
func (w *Workspace) InstallHook(ctx context.Context, opts HookOptions) (*HookResult, error) {
	if opts.Command == "" {
		opts.Command = "lore"
	}
	if strings.ContainsAny(opts.Command, "\n\r\x00") {
		return nil, fmt.Errorf("hook command %q: not a path", opts.Command)
	}
	repo, err := source.OpenRepo(w.root)
	if err != nil {
		return nil, fmt.Errorf("hook install: %s is not in a git repository: run git init first", w.root)
	}
	dir := "" // the workspace's directory from the top of the work tree
	if repo.Root() != "" {
		if dir, err = repo.Rel(w.root); err != nil {
			return nil, fmt.Errorf("workspace %s is not inside its git work tree %s", w.root, repo.Root())
		}
	}
	p, err := hookPath(ctx, repo)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	res := &HookResult{Path: p}
	old, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case strings.Contains(string(old), hookMarker):
		res.Updated = true
		if prev := p + chainedSuffix; fileExists(prev) {
			res.Chained = prev
		}
	case !opts.Chain:
		return nil, fmt.Errorf("%s already exists and is not lore's: rerun with --chain to keep it and run it before lore, or add `lore verify --staged --fix --quiet` to it yourself", p)
	default:
		res.Chained = p + chainedSuffix
		if fileExists(res.Chained) {
			return nil, fmt.Errorf("%s exists too: remove one of the two hooks first", res.Chained)
		}
		if err := os.Rename(p, res.Chained); err != nil {
			return nil, err
		}
	}
	script := hookScript(opts.Command, dir, res.Chained)
	if err := catalog.WriteFile(p, []byte(script)); err != nil {
		return nil, err
	}
	if err := os.Chmod(p, 0o755); err != nil {
		return nil, err
	}
	return res, nil
}

// hookScript is the pre-commit hook. git runs it at the top of the work
// tree; dir is the workspace's directory from there ("" at the top).
func hookScript(command, dir, chained string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n" + hookMarker + "\n")
	b.WriteString("# Verifies learnings against what is about to be committed and fixes the\n")
	b.WriteString("# baselines of anchors that moved; silent unless the commit must stop.\n")
	b.WriteString("# Skip once: git commit --no-verify. Remove: lore hook uninstall.\n")
	if chained != "" {
		fmt.Fprintf(&b, "%s \"$@\" || exit $?\n", shellQuote(chained))
	}
	args := "verify --staged --fix --quiet"
	ws := Dir
	if dir != "" {
		args = "-C " + shellQuote(dir) + " " + args
		ws = dir + "/" + Dir
	}
	// A branch from before lore was set up has no workspace to verify.
	fmt.Fprintf(&b, "[ -d %s ] || exit 0\n", shellQuote(ws))
	if !filepath.IsAbs(command) {
		fmt.Fprintf(&b, "command -v %s >/dev/null 2>&1 || { echo \"lore: pre-commit hook: %s is not on PATH: install lore and run 'lore hook install' again, or commit with --no-verify\" >&2; exit 1; }\n",
			shellQuote(command), command)
		fmt.Fprintf(&b, "exec %s %s\n", shellQuote(command), args)
		return b.String()
	}
	// The executable that installed the hook, else lore on PATH (an
	// upgrade may have moved it).
	fmt.Fprintf(&b, "lore=%s\n", shellQuote(command))
	b.WriteString("if [ ! -x \"$lore\" ]; then\n")
	b.WriteString("\tlore=$(command -v lore 2>/dev/null) || {\n")
	fmt.Fprintf(&b, "\t\techo \"lore: pre-commit hook: lore is neither at %s nor on PATH: install lore and run 'lore hook install' again, or commit with --no-verify\" >&2\n",
		strings.NewReplacer(`"`, `\"`, `$`, `\$`, "`", "\\`", `\`, `\\`).Replace(command))
	b.WriteString("\t\texit 1\n\t}\nfi\n")
	fmt.Fprintf(&b, "exec \"$lore\" %s\n", args)
	return b.String()
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// UninstallHook removes lore's pre-commit hook and puts back the hook it
// chained, if any. A hook that is not lore's is left alone.
func (w *Workspace) UninstallHook(ctx context.Context) (*HookResult, error) {
	repo, err := source.OpenRepo(w.root)
	if err != nil {
		return nil, fmt.Errorf("git hooks need a git repository: %w", err)
	}
	p, err := hookPath(ctx, repo)
	if err != nil {
		return nil, err
	}
	res := &HookResult{Path: p}
	old, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return res, nil // nothing installed
	case err != nil:
		return nil, err
	case !strings.Contains(string(old), hookMarker):
		return nil, fmt.Errorf("%s is not lore's hook: left as it is (remove it yourself if it runs lore)", p)
	}
	prev := p + chainedSuffix
	if fileExists(prev) {
		if err := os.Rename(prev, p); err != nil {
			return nil, fmt.Errorf("put back %s: %w", prev, err)
		}
		res.Chained = prev
	} else if err := os.Remove(p); err != nil {
		return nil, err
	}
	res.Removed = true
	return res, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
