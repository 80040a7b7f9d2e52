package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// The git processes lore runs, all of them. Objects, commits, trees and
// the index are read in this process (repo.go, git.go, gitindex.go); git
// itself answers what must mean exactly what it means to git — revision
// syntax, merge bases, diffs with rename detection against the working
// tree — and makes the writes that belong to git: blobs and index entries.

// git runs git in r's directory with stdin (nil: none) and returns its
// standard output; a failure says what git said, on one line.
func (r *Repo) git(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = r.dir
	cmd.Env = gitEnv()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, msg)
	}
	return out, nil
}

// gitEnv is the environment for git processes. git gives hooks some paths
// relative to the directory it runs them in (GIT_INDEX_FILE=.git/index for
// a plain commit): they are made absolute, as this process resolves them,
// so that a git process in another directory reads the same files.
func gitEnv() []string {
	env := os.Environ()
	for i, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR":
			if v != "" && !filepath.IsAbs(v) {
				if abs, err := filepath.Abs(v); err == nil {
					env[i] = k + "=" + abs
				}
			}
		}
	}
	return env
}

// revParse resolves revision syntax that only git knows.
func (r *Repo) revParse(ctx context.Context, rev string) (string, error) {
	out, err := r.git(ctx, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if _, ok := errors.AsType[*exec.ExitError](err); ok {
			return "", fmt.Errorf("resolve %q: unknown revision", rev)
		}
		return "", fmt.Errorf("resolve %q: this revision syntax needs the git binary: %w", rev, errors.Unwrap(err))
	}
	id := strings.TrimSpace(string(out))
	if !plumbing.IsHash(id) {
		return "", fmt.Errorf("resolve %q: git rev-parse said %q", rev, id)
	}
	return id, nil
}

// MergeBase returns the best common ancestor of two commits, given by
// their ids.
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	out, err := r.git(ctx, nil, "merge-base", "--end-of-options", a, b)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// DiffOptions say what ChangedFiles compares.
type DiffOptions struct {
	// From is a commit id.
	From string
	// To is a commit id; "" compares with git's index when Staged, else
	// with the working tree.
	To     string
	Staged bool
}

// ChangedFiles lists the files that differ between two states of the
// repository, relative to r's directory (files outside it are left out),
// with the renames among them (old path to new path) as git detects them.
func (r *Repo) ChangedFiles(ctx context.Context, o DiffOptions) (changed map[string]bool, renames map[string]string, err error) {
	args := []string{"diff", "--name-status", "-M", "-z", "--relative"}
	if o.Staged {
		args = append(args, "--cached")
	}
	args = append(args, "--end-of-options", o.From)
	if o.To != "" {
		args = append(args, o.To)
	}
	out, err := r.git(ctx, nil, args...)
	if err != nil {
		return nil, nil, err
	}
	changed, renames = map[string]bool{}, map[string]string{}
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i < len(f); i++ {
		st := f[i]
		if st == "" {
			continue
		}
		if (st[0] == 'R' || st[0] == 'C') && i+2 < len(f) {
			changed[f[i+1]], changed[f[i+2]] = true, true
			if st[0] == 'R' {
				renames[f[i+1]] = f[i+2]
			}
			i += 2
			continue
		}
		if i+1 < len(f) {
			changed[f[i+1]] = true
			i++
		}
	}
	return changed, renames, nil
}

// Hunk is a range of changed lines of a file, 1-based and inclusive, on
// the new side of a diff. A deletion is the line after which lines went
// (at least 1).
type Hunk struct {
	Start, End int
}

// ChangedLines lists the changed line ranges of each file that differs
// between two states of the repository (see DiffOptions), relative to r's
// directory. A deleted file has no hunks.
func (r *Repo) ChangedLines(ctx context.Context, o DiffOptions) (map[string][]Hunk, error) {
	args := []string{"diff", "--unified=0", "--no-color", "--no-ext-diff", "--relative", "-M", "--src-prefix=a/", "--dst-prefix=b/"}
	if o.Staged {
		args = append(args, "--cached")
	}
	args = append(args, "--end-of-options", o.From)
	if o.To != "" {
		args = append(args, o.To)
	}
	out, err := r.git(ctx, nil, args...)
	if err != nil {
		return nil, err
	}
	return parseDiff(out), nil
}

// parseDiff reads the hunks of each file of a `git diff --unified=0`
// output. ---/+++ lines are file names only in a file's header, between
// its "diff --git" line and its first hunk: inside a hunk, a removed line
// "-- x" (a Lua or SQL comment) reads "--- x".
func parseDiff(out []byte) map[string][]Hunk {
	files := map[string][]Hunk{}
	cur, header := "", false
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur, header = "", true
		case header && strings.HasPrefix(line, "--- "):
			// Deleted unless a +++ line names a new side.
			if cur = diffPath(line[4:], "a/"); cur != "" {
				files[cur] = nil
			}
		case header && strings.HasPrefix(line, "+++ "):
			// A renamed file's old path stays, as deleted; a deleted
			// file (+++ /dev/null) gets no hunks.
			if cur = diffPath(line[4:], "b/"); cur != "" {
				files[cur] = []Hunk{}
			}
		case strings.HasPrefix(line, "@@ "):
			header = false
			if cur == "" {
				continue
			}
			// @@ -a[,b] +c[,d] @@
			f := strings.Fields(line)
			if len(f) < 3 || !strings.HasPrefix(f[2], "+") {
				continue
			}
			start, n := hunkRange(f[2][1:])
			h := Hunk{Start: max(start, 1), End: max(start+n-1, start, 1)}
			files[cur] = append(files[cur], h)
		}
	}
	return files
}

// hunkRange reads "c,d" or "c" of a hunk header.
func hunkRange(s string) (start, n int) {
	a, b, ok := strings.Cut(s, ",")
	start, _ = strconv.Atoi(a)
	n = 1
	if ok {
		n, _ = strconv.Atoi(b)
	}
	return start, n
}

// diffPath reads a path of a ---/+++ line as git diff writes it (C-quoted
// when it has unusual characters), without its a/ or b/ prefix; "" for
// /dev/null.
func diffPath(p, prefix string) string {
	p = strings.TrimSuffix(p, "\t")
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil {
			p = u
		}
	}
	if p, ok := strings.CutPrefix(p, prefix); ok {
		return p
	}
	return ""
}

// HooksDir returns the directory of the repository's hooks, as git finds
// it (core.hooksPath honoured).
func (r *Repo) HooksDir(ctx context.Context) (string, error) {
	out, err := r.git(ctx, nil, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", err
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(r.dir, dir)
	}
	return dir, nil
}

// WriteBlobs stores each content as a blob in git's object store, with
// one git process, and returns the blobs' ids.
func (r *Repo) WriteBlobs(ctx context.Context, contents [][]byte) ([]string, error) {
	if len(contents) == 0 {
		return nil, nil
	}
	tmp, err := os.MkdirTemp("", "lore-blobs-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(tmp) }() // best effort: copies in the temporary directory
	var paths strings.Builder
	for i, c := range contents {
		p := filepath.Join(tmp, fmt.Sprint(i))
		if err := os.WriteFile(p, c, 0o600); err != nil {
			return nil, err
		}
		paths.WriteString(p + "\n")
	}
	out, err := r.git(ctx, []byte(paths.String()), "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return nil, err
	}
	ids := strings.Fields(string(out))
	if len(ids) != len(contents) {
		return nil, fmt.Errorf("git hash-object gave %d ids for %d files", len(ids), len(contents))
	}
	return ids, nil
}

// Staged is an entry for git's index: a path from the top of the work
// tree, the blob it holds and its mode (0o644 or 0o755).
type Staged struct {
	Path string
	Blob string
	Mode os.FileMode
}

// Stage sets entries of git's index (the one GIT_INDEX_FILE names, as
// Index reads) in one update: git's lock makes it all or nothing.
func (r *Repo) Stage(ctx context.Context, entries []Staged) error {
	if len(entries) == 0 {
		return nil
	}
	var info strings.Builder
	for _, e := range entries {
		mode := "100644"
		if e.Mode&0o111 != 0 {
			mode = "100755"
		}
		fmt.Fprintf(&info, "%s %s\t%s\n", mode, e.Blob, e.Path)
	}
	_, err := r.git(ctx, []byte(info.String()), "-C", r.root, "update-index", "--index-info")
	return err
}

// RemoteURL returns the URL git has for a remote ("origin"), "" when the
// remote has none.
func (r *Repo) RemoteURL(ctx context.Context, remote string) (string, error) {
	out, err := r.git(ctx, nil, "config", "--get", "remote."+remote+".url")
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 { // not set
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
