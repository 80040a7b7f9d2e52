package lore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
	"github.com/lorehq/lore/internal/yamlerr"
	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/rank"
	"gopkg.in/yaml.v3"
)

// ErrNoWorkspace reports that no .lore directory was found.
var ErrNoWorkspace = errors.New("not in a lore workspace (or any parent directory): run lore init at the repository root")

// ErrNotFound reports an unknown learning, anchor or node.
var ErrNotFound = errors.New("not found")

// Dir is the name of the workspace directory at the repository root.
const Dir = ".lore"

// storeSchema is the version of everything lore keeps in .lore/db. Bump it
// when the meaning of stored data changes; stores of another version are
// rebuilt from the learning files and the repository. Version 3 stores the
// name index in parts and Go files' package-level names in records of their
// own: a binary of version 2 would read only the first part.
const storeSchema = 3

// Options configure a Workspace.
type Options struct {
	// LockTimeout bounds the wait for another lore process holding the
	// store. Zero means the configured value, else graph.DefaultLockTimeout.
	LockTimeout time.Duration
	// Notify receives notices meant for a person: a learning file that does
	// not parse, a store that was rebuilt. Nil drops them.
	Notify func(msg string)
	// ShortLived says the process ends soon after its operations, as the
	// command line's does. A store that was only read is then closed in
	// the background while the caller goes on (unmapping a large store's
	// tables is a noticeable part of a short command); its lock is
	// released when that close finishes or the process exits, and the
	// next operation on this Workspace waits for it.
	ShortLived bool
}

// Workspace is a repository's .lore directory and its store.
type Workspace struct {
	root string
	cfg  Config
	opts Options

	// learnings are the learnings of the operation under way, as its
	// store knows them (synced when the operation began, and again after
	// it wrote learning files).
	learnings *catalog.Learnings
	closing   chan struct{} // closed when a background store close ends
	// saved says what the operation under way wrote to the learning
	// files, once it has written all it had to (see wrote).
	saved string
	// table is the language table of every index and source of the
	// workspace: each language's queries compile once per process.
	table *analyzer.Table
	// held is the store kept open between operations (see Hold).
	held *heldStore
	// treeIndexed says that, as far as the holder's Changed calls tell,
	// the code index is in step with the working tree; it outlives a
	// release of the held store.
	treeIndexed bool
	// parsed keeps what parsing found for the verifications of a
	// workspace that was ever held (a long-lived server's); nil otherwise.
	parsed *anchors.Parsed
}

// heldStore is a store kept open between operations, with what is known to
// be in step with the files.
type heldStore struct {
	st     *graph.Store
	synced bool // w.learnings is in step with the learning files
	// statuses are the recorded statuses ranking asked for, by learning:
	// they hold while the store is held read-only and the learnings do not
	// change (a write releases the store, a sync starts them afresh).
	statuses map[string]anchors.Status
	// ranked are context answers as ranking left them, by question: the
	// graph and the learnings they come from hold as long as statuses do.
	ranked map[string]*rank.Result
}

// Open finds the workspace containing dir by walking up to the nearest
// directory with a .lore directory, like git finds .git.
func Open(dir string, opts Options) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for d := abs; ; {
		fi, err := os.Stat(filepath.Join(d, Dir))
		if err == nil && fi.IsDir() {
			return load(d, opts)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, ErrNoWorkspace
		}
		d = parent
	}
}

func load(root string, opts Options) (*Workspace, error) {
	cfg, err := readConfig(filepath.Join(root, Dir, "config.yaml"))
	if err != nil {
		return nil, err
	}
	if opts.LockTimeout == 0 {
		opts.LockTimeout = cfg.LockTimeout.Duration
	}
	return &Workspace{root: root, cfg: cfg, opts: opts, table: analyzer.NewTable()}, nil
}

// gitignore is .lore/.gitignore: the store and what is left of it, and the
// temporary files of learnings being written.
const gitignore = `# The store is derived data, rebuilt from learnings and the repository.
db/
db.broken-*/
learnings/.tmp-*
`

// InitResult says what Init did.
type InitResult struct {
	Root    string   `json:"root"`
	Created []string `json:"created"` // paths created, relative to Root
}

// Init creates the workspace in dir: .lore/ with config.yaml, learnings/
// and a .gitignore for db/. It leaves existing files alone, so running it
// twice is harmless.
func Init(dir string) (*InitResult, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if gitDir(root) {
		return nil, fmt.Errorf("init: %s is a git directory (a bare repository, or inside .git): lore keeps learnings beside the code, so run lore init at the root of a working tree", root)
	}
	res := &InitResult{Root: root}
	for _, d := range []string{Dir, filepath.Join(Dir, "learnings")} {
		p := filepath.Join(root, d)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return nil, fmt.Errorf("init: %w", err)
			}
			res.Created = append(res.Created, filepath.ToSlash(d)+"/")
		}
	}
	files := []struct{ name, text string }{
		{"config.yaml", defaultConfig},
		{".gitignore", gitignore},
		// git keeps no empty directory, and lore refuses to run
		// without this one.
		{"learnings/.gitkeep", ""},
	}
	for _, f := range files {
		p := filepath.Join(root, Dir, f.name)
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if err := catalog.WriteFile(p, []byte(f.text)); err != nil {
			return nil, fmt.Errorf("init: %w", err)
		}
		res.Created = append(res.Created, Dir+"/"+f.name)
	}
	return res, nil
}

// gitDir reports whether dir is inside a .git directory or is a bare
// repository (HEAD, objects/ and refs/ and no working tree).
func gitDir(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		if filepath.Base(d) == ".git" {
			return true
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, p := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			return false
		}
	}
	_, err := os.Stat(filepath.Join(dir, ".git"))
	return err != nil
}

// Root returns the repository root: the directory holding .lore.
func (w *Workspace) Root() string { return w.root }

// Config returns the workspace configuration.
func (w *Workspace) Config() Config { return w.cfg }

func (w *Workspace) learningsDir() string {
	return filepath.Join(w.root, filepath.FromSlash(learnfile.Dir))
}
func (w *Workspace) dbDir() string { return filepath.Join(w.root, Dir, "db") }

func (w *Workspace) notify(format string, args ...any) {
	if w.opts.Notify != nil {
		w.opts.Notify(fmt.Sprintf(format, args...))
	}
}

// withStore opens the store, brings it up to date with the learning files,
// runs fn and closes the store. The store is held only for the call, so
// long-running servers do not keep other lore processes waiting.
func (w *Workspace) withStore(ctx context.Context, fn func(*graph.Store) error) error {
	return w.useStore(ctx, false, fn)
}

// withWriter is withStore for operations that always write: the store is
// opened for writing at once instead of read-only until the first write.
func (w *Workspace) withWriter(ctx context.Context, fn func(*graph.Store) error) error {
	return w.useStore(ctx, true, fn)
}

// useStore is withStore and withWriter.
//
// The learning files are the truth and the store is derived from them:
// once fn has written what it had to write to the files (see wrote), a
// failure to bring the store up to date, or an interruption, is a warning,
// and the operation succeeds; the next one catches up. Before that, a
// store found damaged is set aside, and the operation runs once more on a
// fresh one if fn had not begun (else it fails: the next one rebuilds).
func (w *Workspace) useStore(ctx context.Context, write bool, fn func(*graph.Store) error) error {
	w.saved = ""
	held := w.held != nil
	ran, err := w.runStore(ctx, write, fn)
	if held && !ran && err != nil && w.saved == "" && ctx.Err() == nil {
		// The held store failed before fn ran (and was released): once
		// more the ordinary way, which repairs what can be.
		ran, err = w.runStore(ctx, write, fn)
	}
	if errors.Is(err, graph.ErrCorrupt) && w.saved == "" && ctx.Err() == nil {
		// fn may not be run twice: after it started, the next command
		// rebuilds.
		if err = w.setAside(err); err == nil && !ran {
			_, err = w.runStore(ctx, write, fn)
		} else if err == nil {
			err = errors.New("the store was damaged and is rebuilt by the next command: rerun")
		}
	}
	if err != nil && w.saved != "" {
		if ctx.Err() != nil {
			err = errors.New("interrupted")
		}
		w.notify("%s, but .lore/db was not updated (%v); the next lore command updates it", w.saved, err)
		return nil
	}
	return err
}

// wrote records that the operation under way has written to the learning
// files all it had to: what says what, as in "learning k3v9q2x7mf saved".
func (w *Workspace) wrote(what string) { w.saved = what }

// runStore opens the store, syncs it, runs fn and closes the store; ran
// says whether fn ran.
func (w *Workspace) runStore(ctx context.Context, write bool, fn func(*graph.Store) error) (ran bool, err error) {
	if w.held != nil {
		return w.runHeld(ctx, fn)
	}
	if w.closing != nil {
		<-w.closing
		w.closing = nil
	}
	st, err := w.openStore(write)
	if err != nil {
		return false, err
	}
	w.learnings = catalog.Open(w.root, st, func(msg string) { w.notify("%s", msg) })
	err = w.learnings.Sync(ctx)
	if err == nil {
		ran = true
		err = fn(st)
	}
	// Learnings not read by now come from their files.
	w.learnings.Close()
	if w.opts.ShortLived && st.ReadOnly() {
		done := make(chan struct{})
		w.closing = done
		go func() {
			defer close(done)
			_ = st.Close() // nothing was written: no error to lose
		}()
		return ran, err
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return ran, err
}

// Hold keeps the store open (read-only until an operation writes) between
// the operations that follow, and the learnings of its last sync with it,
// until Release: a long-lived server answers each request without opening
// the store and syncing every learning file again. While the store is
// held, no other process can write to it, so a server holds it only for a
// burst of requests (see internal/warm); an operation that writes goes
// back to reading when it ends (graph.Store.Downgrade), or lets go when a
// writer waits or it wrote learning files. The holder tells what changed on disk with Changed. A
// Workspace is not safe for concurrent use, held or not.
func (w *Workspace) Hold(ctx context.Context) error {
	if w.held != nil {
		return nil
	}
	if w.closing != nil {
		<-w.closing
		w.closing = nil
	}
	st, err := w.openStore(false)
	if err != nil {
		return err
	}
	w.held = &heldStore{st: st}
	if w.parsed == nil {
		w.parsed = anchors.NewParsed(maxParsed)
	}
	return nil
}

// maxParsed bounds the files whose parse a long-lived server keeps (see
// Workspace.parsed): more than an editor has open.
const maxParsed = 256

// Held reports whether the store is held (see Hold).
func (w *Workspace) Held() bool { return w.held != nil }

// Release closes a store kept open by Hold; operations open it again each.
func (w *Workspace) Release() error {
	h := w.held
	if h == nil {
		return nil
	}
	w.held = nil
	if w.learnings != nil {
		w.learnings.Close()
	}
	return h.st.Close()
}

// Changed tells a held store what changed on disk since: the learning
// files (the next operation syncs them) or the working tree (the next
// verification of the working tree brings the index up to date first).
// Without a held store every operation checks both anyway.
func (w *Workspace) Changed(learnings, tree bool) {
	if h := w.held; h != nil && learnings {
		h.synced = false
	}
	if tree {
		w.treeIndexed = false
	}
}

// runHeld is runStore on the held store: synced only when the learning
// files changed, released after an operation that wrote or failed.
func (w *Workspace) runHeld(ctx context.Context, fn func(*graph.Store) error) (ran bool, err error) {
	h := w.held
	if !h.synced {
		if w.learnings != nil {
			w.learnings.Close()
		}
		w.learnings = catalog.Open(w.root, h.st, func(msg string) { w.notify("%s", msg) })
		if err := w.learnings.Sync(ctx); err != nil {
			_ = w.Release() // the sync's failure is the one to report
			return false, err
		}
		h.synced, h.statuses, h.ranked = true, map[string]anchors.Status{}, map[string]*rank.Result{}
	}
	err = fn(h.st)
	switch {
	case err != nil || w.saved != "" || (!h.st.ReadOnly() && graph.Waiting(w.dbDir())):
		// A failure may have been the store's; learning files written
		// are synced by the next operation; a writer waits: let go.
		if cerr := w.Release(); err == nil {
			err = cerr
		}
	case !h.st.ReadOnly():
		// A writer keeps every other process out: back to reading, with
		// the learnings as they are, and nothing kept of what the store
		// said before.
		if derr := h.st.Downgrade(); derr != nil {
			// Written: the next operation opens the store again (and
			// recovers what a failed close left), but say why.
			if cerr := w.Release(); cerr != nil {
				derr = fmt.Errorf("%w; %w", derr, cerr)
			}
			w.notify("%v; the next lore command opens .lore/db again", derr)
			return true, nil
		}
		h.statuses, h.ranked = map[string]anchors.Status{}, map[string]*rank.Result{}
	}
	return true, err
}

// indexFresh reports whether the index of a held store is known to be in
// step with the working tree (see Changed).
func (w *Workspace) indexFresh() bool { return w.held != nil && w.treeIndexed }

// setAside moves a damaged store aside (see moveAside) so that the next
// open rebuilds it; why is the damage found.
func (w *Workspace) setAside(why error) error {
	aside, err := moveAside(w.dbDir())
	if err != nil {
		return fmt.Errorf("%w (and could not move it aside: %v); delete %s and retry", why, err, w.dbDir())
	}
	w.notify("%v; moved it to %s and rebuilding (feedback and verification history start afresh)", why, filepath.Base(aside))
	return nil
}

// moveAside renames dir to a name of the form DIR.broken-TIME that no
// earlier move took.
func moveAside(dir string) (string, error) {
	base := dir + ".broken-" + time.Now().UTC().Format("20060102T150405")
	aside := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(aside); errors.Is(err, fs.ErrNotExist) {
			break
		}
		aside = fmt.Sprintf("%s-%d", base, i)
	}
	return aside, os.Rename(dir, aside)
}

func (w *Workspace) openStore(write bool) (*graph.Store, error) {
	opts := graph.Options{LockTimeout: w.opts.LockTimeout, Schema: storeSchema, ReadWrite: write}
	st, err := graph.Open(w.dbDir(), opts)
	if errors.Is(err, graph.ErrCorrupt) {
		// The store is derived data: when it is damaged, set it aside
		// and rebuild rather than fail every command. Anything else (a
		// permission, a full disk, an I/O error) is the caller's to fix.
		if err = w.setAside(err); err == nil {
			st, err = graph.Open(w.dbDir(), opts)
		}
	}
	if err != nil {
		return nil, err
	}
	if st.Rebuilt() {
		w.notify("store format changed; rebuilding .lore/db from the learning files")
	}
	return st, nil
}

// SyncReport says what a sync changed and what it could not read.
type SyncReport struct {
	Added, Changed, Removed []string // learning file names
	Problems                []error  // malformed or conflicting files
}

// Sync brings the store up to date with the learning files. Every
// operation of a Workspace syncs first; Sync is for callers that only want
// that.
func (w *Workspace) Sync(ctx context.Context) (*SyncReport, error) {
	var rep *SyncReport
	err := w.withStore(ctx, func(*graph.Store) error {
		rep = (*SyncReport)(w.learnings.Report())
		return nil
	})
	return rep, err
}

func learningNode(id string) string { return graph.NodeID(graph.TypeLearning, id) }

// Config is .lore/config.yaml. Every key is optional.
type Config struct {
	// Ignore holds extra gitignore-style patterns for the repository walk.
	Ignore []string `yaml:"ignore"`
	// MaxFileSize skips larger files when indexing (bytes).
	MaxFileSize int64 `yaml:"max_file_size"`
	// LockTimeout bounds the wait for another lore process.
	LockTimeout Duration `yaml:"lock_timeout"`
	// Verify holds verification defaults.
	Verify VerifyConfig `yaml:"verify"`
	// Cochange holds co-change analysis defaults.
	Cochange CochangeConfig `yaml:"cochange"`
	// Repo names the repository in a graph shared across repositories
	// (graph export --format cypher|csv); default: RepoName's choice.
	Repo string `yaml:"repo"`
}

// VerifyConfig holds verification defaults.
type VerifyConfig struct {
	FailOn              string  `yaml:"fail_on"`
	RelocationThreshold float64 `yaml:"relocation_threshold"`
}

// CochangeConfig holds co-change analysis defaults.
type CochangeConfig struct {
	Since        string  `yaml:"since"`
	MaxCommits   int     `yaml:"max_commits"`
	MaxChangeset int     `yaml:"max_changeset"`
	MinRevs      int     `yaml:"min_revs"`
	MinShared    int     `yaml:"min_shared"`
	MinCoupling  float64 `yaml:"min_coupling"`
	Renames      *bool   `yaml:"renames"`
	ByDay        bool    `yaml:"by_day"`
	// Merges counts each merge on HEAD's first-parent chain as one
	// change-set instead of every non-merge commit on its own.
	Merges bool `yaml:"merges"`
	// Symbols adds co-change of symbols in the files of the kept pairs.
	Symbols bool `yaml:"symbols"`
}

// Duration is a time.Duration written as "10s" in YAML.
type Duration struct{ time.Duration }

// UnmarshalYAML parses a Go duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("line %d: %q is not a duration such as 10s", n.Line, n.Value)
	}
	d.Duration = v
	return nil
}

const defaultConfig = `# lore configuration. Every key is optional; the commented values are the defaults.

# Extra gitignore-style patterns the repository walk skips.
# ignore: []

# Files larger than this many bytes are not indexed.
# max_file_size: 1048576

# How long a command waits for another lore process that holds .lore/db.
# lock_timeout: 10s

# This repository's name in a graph shared across repositories (node ids
# "REPO:file:a.go" in graph export --format cypher|csv); default: the origin
# remote's URL as host/path (github.com/org/repo), else the directory's name.
# repo: github.com/org/repo

# verify:
#   fail_on: invalid            # drifted | invalid | never
#   relocation_threshold: 0.8   # below it a relocation is only a candidate

# cochange:                     # flags of lore cochange analyze win over these
#   since: 1y                   # window: a date (2024-01-31) or an age (90d, 6m, 2y); default: the year before HEAD
#   max_commits: 0              # 0: no limit
#   max_changeset: 30           # commits touching more files are skipped
#   min_revs: 5
#   min_shared: 5
#   min_coupling: 0.3
#   renames: true
#   by_day: false
#   merges: false               # true: each merge on HEAD's first-parent chain is one change-set
#                               # (a merged pull request counts once); false: every non-merge commit
#   symbols: false              # true: also symbols that change together (lore cochange show path::Symbol)
`

func readConfig(p string) (Config, error) {
	var c Config
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return c, fmt.Errorf("%s: %s (fix or delete the file)", p, yamlerr.WithLine(err))
	}
	if c.MaxFileSize < 0 {
		return c, fmt.Errorf("%s: max_file_size must not be negative", p)
	}
	if c.Verify.RelocationThreshold < 0 || c.Verify.RelocationThreshold > 1 {
		return c, fmt.Errorf("%s: verify.relocation_threshold must be between 0 and 1", p)
	}
	switch c.Verify.FailOn {
	case "", "drifted", "invalid", "never":
	default:
		return c, fmt.Errorf("%s: verify.fail_on must be drifted, invalid or never", p)
	}
	if c.Repo != "" {
		if err := graph.ValidRepoName(c.Repo); err != nil {
			return c, fmt.Errorf("%s: repo: %v", p, err)
		}
	}
	return c, nil
}
