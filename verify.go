package lore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/internal/verify"
	"github.com/lorehq/lore/source"
)

// VerifyOptions choose what to verify and against which source.
type VerifyOptions struct {
	// Staged verifies against git's index (what is about to be committed)
	// instead of the working tree.
	Staged bool
	// Rev verifies against a commit's tree (any revision git understands).
	Rev string
	// ChangedSince limits verification to anchors whose files changed
	// between the merge base of ChangedSince and the source (needs git),
	// and marks the findings that were already there at the merge base
	// (Result.Preexisting): a change is judged on what it introduced.
	ChangedSince string
	// Fix rewrites the baselines of relocated and reformatted anchors in
	// the learning files (never of drifted ones) and bumps their updated
	// time. With Staged it rewrites the staged version of each learning
	// file and its working copy separately, so that the commit carries
	// exactly lore's change and unstaged edits stay unstaged.
	Fix bool
	// DryRun, with Fix, writes nothing: the report's Patch holds the
	// unified diff that Fix would apply to the learning files.
	DryRun bool
	// Learnings limits verification to these ids or prefixes.
	Learnings []string
	// Everything verifies every anchor with Staged too. By default a staged
	// verification (the pre-commit hook) checks what the commit touches:
	// anchors into staged files and every anchor of staged learnings.
	Everything bool
	// Overlay lays an editor's unsaved buffers (repository-relative slash
	// paths to content) over the working tree. A verification with an
	// overlay, even an empty one, records no status transitions: what is
	// not saved is not history.
	Overlay map[string][]byte
	// Paths limits verification to the anchors into these files
	// (repository-relative) and every anchor of the learnings whose files
	// they are (.lore/learnings/ID.md), as a staged run is limited to what
	// a commit touches.
	Paths []string
	// Threshold is the lowest confidence at which a relocation is applied;
	// zero means config.yaml's value, else anchors.DefaultThreshold.
	Threshold float64
}

// VerifyReport is the outcome of Verify.
type VerifyReport struct {
	Source string `json:"source"` // worktree, index, or the commit verified
	// Base is the merge base the results were compared with
	// (ChangedSince).
	Base    string           `json:"base,omitempty"`
	Summary anchors.Summary  `json:"summary"`
	Results []anchors.Result `json:"results"`
	// Fixed lists the learning files --fix rewrote (with DryRun: would
	// rewrite).
	Fixed []string `json:"fixed,omitempty"`
	// Patch is the unified diff of the learning files that Fix with
	// DryRun would write; paths are relative to the repository's top.
	Patch string `json:"patch,omitempty"`
	// Notices are things a person should know that are not findings,
	// such as baselines left unfixed.
	Notices []string `json:"notices,omitempty"`
	// Titles maps learning ids to titles, for reports.
	Titles map[string]string `json:"-"`
}

// Failing returns the findings that fail a run with --fail-on failOn
// (drifted or invalid): those at or above it that the change introduced,
// and with preexisting also those that were there before it.
func (r *VerifyReport) Failing(failOn anchors.Status, preexisting bool) []anchors.Result {
	var out []anchors.Result
	for _, x := range r.Results {
		if x.Status != anchors.Valid && !failOn.Worse(x.Status) && (preexisting || !x.Preexisting) {
			out = append(out, x)
		}
	}
	return out
}

// checkRev refuses what git would read as an option or cannot name a
// revision, before it reaches a git command line.
func checkRev(flag, rev string) error {
	switch {
	case rev == "":
		return nil
	case strings.HasPrefix(rev, "-"):
		return fmt.Errorf("%s %q: not a revision (a revision cannot start with '-')", flag, rev)
	case strings.ContainsAny(rev, "\x00\n\r") || strings.TrimSpace(rev) != rev:
		return fmt.Errorf("%s %q: not a revision", flag, rev)
	}
	return nil
}

// Verify checks every anchor of every learning (or of opts.Learnings)
// against the source, records status transitions and, with Fix, rewrites
// the baselines of anchors that moved or were reformatted. A learning file
// that does not parse is a finding (change "malformed"), never skipped.
func (w *Workspace) Verify(ctx context.Context, opts VerifyOptions) (*VerifyReport, error) {
	if opts.Staged && opts.Rev != "" {
		return nil, errors.New("--staged and --rev exclude each other")
	}
	if opts.DryRun && !opts.Fix {
		return nil, errors.New("--dry-run shows what --fix would write: give both")
	}
	if err := checkRev("--rev", opts.Rev); err != nil {
		return nil, err
	}
	if err := checkRev("--changed-since", opts.ChangedSince); err != nil {
		return nil, err
	}
	if (opts.Overlay != nil || len(opts.Paths) > 0) && (opts.Staged || opts.Rev != "" || opts.ChangedSince != "") {
		return nil, errors.New("unsaved buffers and paths are verified against the working tree: not with --staged, --rev or --changed-since")
	}
	if opts.Threshold == 0 {
		opts.Threshold = w.cfg.Verify.RelocationThreshold
	}
	if opts.Threshold < 0 || opts.Threshold > 1 {
		return nil, fmt.Errorf("threshold %v must be between 0 and 1", opts.Threshold)
	}
	// What comes from git (the index, a commit's tree, the list of
	// changed files from a git process) does not need the store: read it
	// while the store opens and syncs.
	type gitRead struct {
		src *verify.Source
		err error
	}
	fromGit := make(chan gitRead, 1)
	go func() {
		src, err := verify.Read(ctx, w.root, verify.ReadOptions{Staged: opts.Staged, Rev: opts.Rev, ChangedSince: opts.ChangedSince, Everything: opts.Everything})
		if err == nil {
			err = w.narrow(src, opts)
		}
		fromGit <- gitRead{src, err}
	}()
	received := false
	var rep *VerifyReport
	err := w.withStore(ctx, func(st *graph.Store) error {
		g := <-fromGit
		received = true
		if g.err != nil {
			return g.err
		}
		defer g.src.Close() // nothing was written through it: no error to lose
		var err error
		rep, err = w.verify(ctx, st, opts, g.src)
		return err
	})
	if !received {
		g := <-fromGit
		g.src.Close() // only read: no error to lose
	}
	return rep, err
}

func (w *Workspace) verify(ctx context.Context, st *graph.Store, opts VerifyOptions, src *verify.Source) (*VerifyReport, error) {
	vopts := verify.Options{Root: w.root, Threshold: opts.Threshold, Ignore: w.cfg.Ignore, MaxFileSize: w.cfg.MaxFileSize,
		Sources: anchors.SourceOptions{Table: w.table, Parsed: w.parsed}, Staged: opts.Staged, Compare: opts.ChangedSince != ""}
	if src.Worktree && !w.indexFresh() {
		if _, err := w.index(ctx, st, IndexOptions{}); err != nil {
			return nil, err
		}
	}
	// The index describes the working tree. Another source (the staged
	// files, a commit) takes from it only the files whose content is the
	// same (see anchors.SourceOptions.Index): in a commit, most of them.
	// Relocation then need not parse the whole repository to look for
	// where a symbol went.
	vopts.Index = st
	ids, err := w.selectLearnings(opts.Learnings)
	if err != nil {
		return nil, err
	}
	run, err := verify.Check(ctx, w.learnings, ids, src, vopts)
	if err != nil {
		return nil, err
	}
	rep := &VerifyReport{Source: src.Name, Results: run.Results(), Titles: run.Titles}
	if opts.ChangedSince != "" {
		rep.Base = src.BaseID
	}
	rep.Summary = anchors.Summarize(rep.Results)
	// Statuses describe the working tree: a verification of the index or
	// of a commit says nothing about it, and an answer to "what holds here
	// now?" must not take a staged run's findings for the tree's. Nor does
	// a run over an editor's unsaved buffers (an overlay) describe it.
	if src.Worktree && opts.Overlay == nil {
		damaged, err := verify.Record(st, src.Commit, run.Anchors)
		if err != nil {
			return nil, err
		}
		if len(damaged) > 0 {
			w.notify("the recorded status of %d anchors (%s) was unreadable: recorded afresh", len(damaged), strings.Join(damaged[:min(len(damaged), 3)], ", "))
		}
	}
	if opts.Fix {
		fx, err := verify.Fix(ctx, run, verify.FixOptions{Staged: opts.Staged, DryRun: opts.DryRun, Wrote: w.wroteLearnings})
		if err != nil {
			return nil, err
		}
		rep.Fixed, rep.Patch, rep.Notices = fx.Files, fx.Patch, fx.Notices
	}
	return rep, nil
}

// narrow lays opts.Overlay over the working tree and limits the source to
// opts.Paths.
func (w *Workspace) narrow(src *verify.Source, opts VerifyOptions) error {
	if opts.Overlay != nil {
		src.Files = source.Overlay(src.Files, opts.Overlay)
	}
	if len(opts.Paths) > 0 {
		src.Changed = make(map[string]bool, len(opts.Paths))
		for _, p := range opts.Paths {
			rel, err := w.RelPath(p)
			if err != nil {
				return err
			}
			src.Changed[rel] = true
		}
	}
	return nil
}

// selectLearnings resolves ids or prefixes; none means every learning.
func (w *Workspace) selectLearnings(args []string) ([]string, error) {
	if len(args) == 0 {
		return w.learnings.IDs(), nil
	}
	var ids []string
	for _, a := range args {
		l, err := w.lookup(a)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ids, l.ID) {
			ids = append(ids, l.ID)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// History returns the recorded status transitions of a learning, oldest
// first.
func (w *Workspace) History(ctx context.Context, id string) ([]anchors.Transition, error) {
	var out []anchors.Transition
	err := w.withStore(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		out, err = verify.History(st, l.ID)
		return err
	})
	if out == nil {
		out = []anchors.Transition{}
	}
	return out, err
}

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
	defer repo.Close() // only read: no error to lose
	// dir is the workspace's directory from the top of the work tree.
	dir := ""
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
	defer repo.Close() // only read: no error to lose
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
