package analyzer

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/lorehq/lore/graph"
)

// Namespaces of the analyzer's records in the graph store.
const (
	nsMeta    = "axf" // path -> fileMeta
	nsSymbols = "axs" // path -> symbols and diagnostics
	nsImports = "axi" // path -> imports with targets
	nsNames   = "axn" // bucket of names -> sorted (name, path) pairs (see names.go)
	nsState   = "axm" // "state" -> time of the last update; "running" while one writes
	nsBinary  = "axb" // path -> size and time of a file skipped as binary
	nsConfig  = "axc" // path of a go.mod, package.json… -> configKey of what resolution reads of it
	nsTop     = "axt" // path of a Go file -> its package-level names (see goDecls)
)

// Options configure Update.
type Options struct {
	// Table is the language table; nil means NewTable().
	Table *Table
	// Workers walk directories and parse files in parallel, one parser
	// per worker and one writer into the store; 0 means GOMAXPROCS, 1
	// walks and parses on the calling goroutine with no goroutines at all.
	Workers int
	// Ignore and MaxFileSize are passed to Walk.
	Ignore      []string
	MaxFileSize int64
	// Force re-parses every file.
	Force bool
	// Progress, when set, is called after each file that had to be read,
	// always from the goroutine that called Update. It must not call the
	// store: a first index holds it meanwhile (see graph.Store.Fill).
	Progress func(Progress)

	reopenAfter int  // bytes of symbol records between reopenings; 0 for reopenAfter
	reopenEdges int  // IMPORTS edges of a first index between reopenings; 0 for reopenEdges
	noFill      bool // a first index writes in batches, as into a store that holds much
}

// Progress reports how far Update got: Done of Total files to read.
type Progress struct {
	Done, Total int
	Path        string
}

// Summary reports what Update did.
type Summary struct {
	Files      int           `json:"files"`     // files in the source that are indexed
	Parsed     int           `json:"parsed"`    // files parsed in this run
	Unchanged  int           `json:"unchanged"` // files whose records were kept
	Removed    int           `json:"removed"`   // files dropped from the index
	Symbols    int           `json:"symbols"`   // symbols in the index
	Imports    int           `json:"imports"`   // imports resolved again in this run
	Skipped    []Skip        `json:"skipped"`   // files left out, and why
	ErrorFiles int           `json:"error_files"`
	Errors     []Diagnostic  `json:"errors"` // the first syntax error of each file that has any
	Duration   time.Duration `json:"duration_ns"`
	// Phases splits Duration: walking the source, reading and parsing
	// files (with their symbol records written as they come), resolving
	// imports (with IMPORTS edges), and committing the file records.
	Phases struct {
		Walk    time.Duration `json:"walk_ns"`
		Parse   time.Duration `json:"parse_ns"`
		Resolve time.Duration `json:"resolve_ns"`
		Commit  time.Duration `json:"commit_ns"`
	} `json:"phases"`
}

func (t *Table) versionOf(l *Language) string {
	if l == nil {
		return schemaVersion + "/none"
	}
	return l.version
}

// configFile reports files whose change can change import resolution.
func configFile(p string) bool {
	switch path.Base(p) {
	case "go.mod", "package.json", "tsconfig.json", "jsconfig.json", "Cargo.toml", "composer.json":
		return true
	}
	return strings.HasSuffix(p, ".csproj")
}

type result struct {
	e    Entry
	skip string
	hash string
	file *File  // nil: content unchanged
	rec  []byte // encodeSymbols(file), made by the worker
	// config is the content of a configuration file (configFile)
	config []byte
	// names and top (Go: package-level names) of file, made by the worker
	names []bucketed
	top   []string
}

// Update brings the analyzer's index in store up to date with fsys:
// files that are new or changed (by size and modification time, then by
// content hash) are parsed, deleted ones dropped with their symbols and
// edges, and files whose language's extractor or queries changed are
// parsed again. Resolved imports become IMPORTS edges file:<a> → file:<b>.
// Syntax errors are findings in the Summary; an error means the index
// could not be updated.
//
// It runs in stages, each a method of indexRun below:
//
//  1. load: walk the source and read the last run's records, side by side;
//  2. plan: tell unchanged files (same size and time) from those to read,
//     and find the files gone since;
//  3. parseAll: read and parse the files to read, each worker with its own
//     parser, writing symbol records as results come;
//  4. drop: remove the records, names and edges of files gone;
//  5. resolve: write the name index and resolve imports into IMPORTS edges;
//  6. commit: write the file records and the run's state.
//
// Stages 3 to 5 write in batches (see parseAll); a mark in the store from
// before the first write to the last tells the next run when a run was
// interrupted.
func Update(ctx context.Context, store *graph.Store, fsys fs.FS, opts Options) (Summary, error) {
	u := newIndexRun(store, fsys, opts)
	if err := u.load(ctx); err != nil {
		return u.sum, err
	}
	u.plan()
	// A run that finds nothing to read or drop writes nothing, not even
	// its time: the next run then trusts stats only of files older than an
	// earlier run, which is stricter, and a read-only command (a full
	// verify of an unchanged tree) keeps its store read-only instead of
	// flushing a one-key table, and compacting, at every close.
	if u.clean() {
		u.sum.Phases.Parse = time.Since(u.start) - u.sum.Phases.Walk
		return summarize(&u.sum, u.metas, u.start), nil
	}
	// A store opened read-only reopens for writing here. Another process
	// may have written to it since the records were read: they are read
	// again, and the plan made again, from what the store holds now.
	if store.ReadOnly() {
		if err := store.Upgrade(); err != nil {
			return u.sum, fmt.Errorf("update index: %w", err)
		}
		same, err := u.sameState()
		if err != nil {
			return u.sum, fmt.Errorf("read index: %w", err)
		}
		if !same {
			if err := u.reread(); err != nil {
				return u.sum, err
			}
		}
		if u.clean() {
			u.sum.Phases.Parse = time.Since(u.start) - u.sum.Phases.Walk
			return summarize(&u.sum, u.metas, u.start), nil
		}
	}
	// A first index, into a store that holds no record of an index run,
	// not even of an interrupted one, writes everything at once at the end
	// (see fill) when the store holds little else (the learnings of the
	// graph, say) and the source is not too large (see fillMaxSource);
	// otherwise it writes as any run does.
	if u.lastRun == 0 && !u.interrupted && !opts.noFill && u.todoBytes() <= fillMaxSource {
		err := store.Fill(ctx, func(f *graph.Filler) error { return u.fill(ctx, f) })
		if err == nil {
			return summarize(&u.sum, u.metas, u.start), nil
		}
		if !errors.Is(err, graph.ErrNotEmpty) {
			return u.sum, fmt.Errorf("update index: %w", err)
		}
	}
	// Marked before the first write, cleared with the last: a run that
	// finds the mark knows the import records and edges of an interrupted
	// run may disagree (they go through separate transactions), and
	// resolves every parsed file instead of trusting its record.
	err := store.Update(func(tx *graph.Tx) error {
		if err := tx.Set(nsState, "running", u.mark()); err != nil {
			return err
		}
		return u.names.begin(tx)
	})
	if err != nil {
		return u.sum, fmt.Errorf("update index: %w", err)
	}
	err = u.parseAll(ctx, u.batches)
	if err == nil {
		u.sum.Phases.Parse = time.Since(u.start) - u.sum.Phases.Walk
	}
	u.entries, u.todo = nil, nil // what is left needs neither
	if err == nil && len(u.old) == 0 {
		err = u.resolveFirst(ctx)
	} else if err == nil {
		err = store.Batch(func(b *graph.Batch) error {
			if err := u.drop(b); err != nil {
				return err
			}
			if err := u.resolve(ctx, b); err != nil {
				return err
			}
			return u.packages(ctx, b)
		})
	}
	if err != nil {
		return u.sum, fmt.Errorf("update index: %w", err)
	}
	u.sum.Phases.Resolve = time.Since(u.start) - u.sum.Phases.Walk - u.sum.Phases.Parse
	err = u.store.Batch(func(b *graph.Batch) error { return u.commit(b) })
	if err != nil {
		return u.sum, fmt.Errorf("update index: %w", err)
	}
	return summarize(&u.sum, u.metas, u.start), nil
}

// records is where a run writes its records: a graph.Batch, or the
// graph.Filler of a first index (see fill).
type records interface {
	Set(ns, key string, val []byte) error
	SetOwned(ns, key string, val []byte) error
	Delete(ns, key string) error
}

// fill is a first index into a store that holds none of the index's
// records: parseAll, resolveFirst and commit, writing into f, which
// writes it all into the store when the run is done, and atomically (see
// graph.Store.Fill). No mark of a run in progress is needed: a run cut
// short leaves the store as it was, or one that Open reports corrupt, to
// be made again. The store is not read or reopened meanwhile: it holds
// nothing the run needs, and waits for f.
func (u *indexRun) fill(ctx context.Context, f *graph.Filler) error {
	u.filler = f
	u.names.fresh = true
	u.decls.tops = map[string][]byte{}
	if err := f.Set(nsState, nameSeqKey, u.names.take(nil)); err != nil {
		return err
	}
	err := u.parseAll(ctx, func(write func(records) error) error { return write(f) })
	if err != nil {
		return err
	}
	u.sum.Phases.Parse = time.Since(u.start) - u.sum.Phases.Walk
	u.entries, u.todo = nil, nil
	if err := u.resolveFirst(ctx); err != nil {
		return err
	}
	u.sum.Phases.Resolve = time.Since(u.start) - u.sum.Phases.Walk - u.sum.Phases.Parse
	return u.commit(f)
}

// fillMaxSource is the most bytes of files to read for which a first
// index fills the store (see fill). A fill writes the store in parts,
// releasing what it wrote between them (see graph.Store.Fill), but in no
// more parts than the store has levels for: past this size its parts, and
// the memory they hold, would grow past what batches, which reopen the
// store as they go (see reopen), hold (see BENCHMARKS.md).
const fillMaxSource = 1 << 30

// todoBytes is the size of the files to read.
func (u *indexRun) todoBytes() int64 {
	var n int64
	for _, e := range u.todo {
		n += e.Size
	}
	return n
}

// batches runs write in a batch of the store.
func (u *indexRun) batches(write func(records) error) error {
	return u.store.Batch(func(b *graph.Batch) error { return write(b) })
}

// indexRun is one run of Update: its options, what it found of the last
// run and of the source, and what it changed.
type indexRun struct {
	store   *graph.Store
	fsys    fs.FS
	opts    Options
	table   *Table
	workers int
	max     int64 // size limit
	start   time.Time
	sum     Summary

	// The last run's file records, in path order: old points into recs,
	// and this run's records (metas) share the unchanged ones. Maps of
	// pointers stay a fraction of the size of maps of records, whose
	// fresh pages were a large part of a re-index after a one-file edit.
	recs        []fileMeta
	oldPaths    []string
	old         map[string]*fileMeta
	oldBin      map[string][2]int64 // binary files skipped: size and time
	lastRun     int64               // Unix nanoseconds of the last writing run
	interrupted bool                // the last writing run did not finish

	entries   []Entry
	walkSkips []Skip               // what the walk left out
	metas     map[string]*fileMeta // this run's file records
	seen      map[string]bool      // files of the source that are indexed
	binNow    map[string]bool      // files of the source skipped as binary
	todo      []Entry              // files to read
	removed   []string             // files to drop, sorted

	// What the parsed files change for import resolution.
	setChanged, configChanged, declChanged bool
	// changedDirs are the directories where files came or went, or where
	// a Go file's package-level names changed: imports that reach into
	// one have their edges made again.
	changedDirs   map[string]bool
	oldConfigs    map[string]string // config file -> configKey, as last indexed
	parsedImports importsOf
	names         *nameIndex
	decls         *goDecls
	metaWrites    []string      // paths whose file record is written
	tops          []pathRecord  // package-level names of the batch's Go files (see writeTops)
	topBytes      int           // bytes of the records in tops
	written       int           // bytes of symbol records written by parseAll
	joined        []string      // files parsed that are new or changed language
	filler        *graph.Filler // a first index's writer into an empty store (see fill), else nil
}

func newIndexRun(store *graph.Store, fsys fs.FS, opts Options) *indexRun {
	u := &indexRun{store: store, fsys: fsys, opts: opts, table: opts.Table, workers: opts.Workers,
		max: opts.MaxFileSize, start: time.Now(), oldBin: map[string][2]int64{}, binNow: map[string]bool{},
		parsedImports: importsOf{}, decls: newGoDecls(), changedDirs: map[string]bool{}, oldConfigs: map[string]string{}}
	if u.table == nil {
		u.table = NewTable()
	}
	if u.workers <= 0 {
		u.workers = runtime.GOMAXPROCS(0)
	}
	if u.max == 0 {
		u.max = DefaultMaxFileSize
	}
	return u
}

// load walks the source and reads the last run's records. The two are
// independent: the walk runs on a goroutine of its own meanwhile.
func (u *indexRun) load(ctx context.Context) error {
	type walked struct {
		entries []Entry
		skips   []Skip
		err     error
		took    time.Duration
	}
	walkDone := make(chan walked, 1)
	go func() {
		var w walked
		w.entries, w.skips, w.err = Walk(ctx, u.fsys, WalkOptions{Ignore: u.opts.Ignore, MaxFileSize: u.max, Workers: u.workers})
		w.took = time.Since(u.start)
		walkDone <- w
	}()
	err := u.readIndex()
	wk := <-walkDone
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	if wk.err != nil {
		return fmt.Errorf("walk: %w", wk.err)
	}
	u.entries = wk.entries
	u.walkSkips = wk.skips[:len(wk.skips):len(wk.skips)]
	u.sum.Skipped = u.walkSkips
	u.sum.Phases.Walk = wk.took
	return nil
}

// clean reports whether the plan has nothing to read, drop or write.
func (u *indexRun) clean() bool {
	return len(u.todo) == 0 && len(u.removed) == 0 && !u.staleBin() && !u.opts.Force
}

// sameState reports whether the store's index is still the one the records
// were read from: every run that writes the index marks it as running
// first and, done, leaves its time in the state record, so no run came
// between when the mark is absent and the time is the one read.
func (u *indexRun) sameState() (bool, error) {
	same := false
	err := u.store.View(func(tx *graph.Tx) error {
		if _, err := tx.Get(nsState, "running"); err == nil {
			return nil
		} else if !errors.Is(err, graph.ErrNotFound) {
			return err
		}
		b, err := tx.Get(nsState, "state")
		if errors.Is(err, graph.ErrNotFound) {
			same = u.lastRun == 0 && !u.interrupted
			return nil
		}
		if err != nil {
			return err
		}
		d := dec{b: b}
		same = d.int() == u.lastRun && !u.interrupted
		return nil
	})
	return same, err
}

// reread forgets the last run's records and the plan made from them, and
// reads and plans again (the walk's entries stay).
func (u *indexRun) reread() error {
	u.recs, u.oldPaths, u.old, u.oldBin = nil, nil, nil, map[string][2]int64{}
	u.lastRun, u.interrupted = 0, false
	u.metas, u.seen, u.binNow, u.todo, u.removed, u.joined = nil, nil, map[string]bool{}, nil, nil, nil
	u.sum.Unchanged = 0
	u.sum.Skipped = u.walkSkips
	u.changedDirs, u.oldConfigs, u.setChanged, u.configChanged = map[string]bool{}, map[string]string{}, false, false
	if err := u.readIndex(); err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	u.plan()
	return nil
}

// readIndex reads the last run's state, file records and binary files.
func (u *indexRun) readIndex() error {
	err := u.store.View(func(tx *graph.Tx) error {
		if _, err := tx.Get(nsState, "running"); err == nil {
			u.interrupted = true
		} else if !errors.Is(err, graph.ErrNotFound) {
			return err
		}
		files := int64(0)
		if b, err := tx.Get(nsState, "state"); err == nil {
			d := dec{b: b}
			u.lastRun = d.int()
			if len(d.b) > 0 { // written since the count was added
				files = d.int()
			}
		} else if !errors.Is(err, graph.ErrNotFound) {
			return err
		}
		// Made at the last run's size: a large repository's map would
		// otherwise grow through a dozen rehashes.
		if files < 0 || files > 1<<24 {
			files = 0
		}
		u.recs = make([]fileMeta, 0, files)
		u.oldPaths = make([]string, 0, files)
		err := tx.Scan(nsConfig, "", func(k string, v []byte) error {
			u.oldConfigs[k] = string(v)
			return nil
		})
		if err != nil {
			return err
		}
		err = tx.Scan(nsBinary, "", func(k string, v []byte) error {
			d := dec{b: v}
			u.oldBin[k] = [2]int64{d.int(), d.int()}
			return nil
		})
		if err != nil {
			return err
		}
		return tx.Scan(nsMeta, "", func(k string, v []byte) error {
			if m, err := decodeMeta(k, v); err == nil {
				u.recs = append(u.recs, m)
				u.oldPaths = append(u.oldPaths, k)
			}
			return nil
		})
	})
	u.old = make(map[string]*fileMeta, len(u.recs))
	for i, p := range u.oldPaths {
		u.old[p] = &u.recs[i]
	}
	return err
}

// plan sorts the source's files into unchanged ones (kept), binary ones
// skipped before and unchanged, and those to read (todo), and lists the
// files of the last run that are gone (removed). A file's size and time
// are trusted only when it is older than the last run by a margin: a file
// written in the same moment as the run may have changed unseen.
func (u *indexRun) plan() {
	racy := u.lastRun - int64(2*time.Second)
	u.metas = make(map[string]*fileMeta, len(u.entries))
	u.seen = make(map[string]bool, len(u.entries))
	for _, e := range u.entries {
		u.seen[e.Path] = true
		if b, ok := u.oldBin[e.Path]; ok && !u.opts.Force && e.ModTime != 0 && b == [2]int64{e.Size, e.ModTime} && e.ModTime < racy {
			u.sum.Skipped = append(u.sum.Skipped, Skip{Path: e.Path, Reason: "binary"})
			u.binNow[e.Path] = true
			delete(u.seen, e.Path)
			continue
		}
		m, ok := u.old[e.Path]
		if ok && !u.opts.Force && m.Version == u.table.versionOf(u.table.ForPath(e.Path)) &&
			e.ModTime != 0 && m.ModTime == e.ModTime && m.Size == e.Size && e.ModTime < racy {
			u.metas[e.Path] = m
			u.sum.Unchanged++
			continue
		}
		u.todo = append(u.todo, e)
	}
	for p := range u.old {
		if !u.seen[p] {
			u.removed = append(u.removed, p)
		}
	}
	sort.Strings(u.removed)
	u.setChanged = len(u.removed) > 0
	for _, p := range u.removed {
		u.changedDirs[path.Dir(p)] = true
		if configFile(p) {
			u.configChanged = true
		}
	}
	u.names = newNameIndex(len(u.old) == 0)
}

// staleBin reports whether binary files skipped by the last run are gone.
func (u *indexRun) staleBin() bool {
	for p := range u.oldBin {
		if !u.seen[p] && !u.binNow[p] {
			return true
		}
	}
	return false
}

// parseAll reads and parses the files to read, on the calling goroutine
// when there is one worker or one file, and records each result as it
// comes (see record), in batches: after each reopenAfter bytes of symbol
// records, and after the last batch unless it was small, it ends the batch
// and reopens the store (see reopen).
func (u *indexRun) parseAll(ctx context.Context, batch func(func(records) error) error) error {
	if len(u.todo) == 0 {
		return nil
	}
	var next func() (result, bool, error) // the next result; false when none is left
	if u.workers > 1 && len(u.todo) >= 2 {
		ctx, cancel := context.WithCancel(ctx)
		results, errc := make(chan result), make(chan error, 1)
		go func() {
			errc <- parallel(ctx, u.table, u.workers, u.todo, u.process, func(r result) error {
				select {
				case results <- r:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
			close(results)
		}()
		defer func() { // on the way out of an error, stop the workers
			cancel()
			for range results {
			}
		}()
		next = func() (result, bool, error) {
			r, ok := <-results
			if !ok {
				return r, false, <-errc
			}
			return r, true, nil
		}
	} else {
		p := NewParser(u.table)
		defer p.Close()
		i := 0
		next = func() (result, bool, error) {
			if i == len(u.todo) {
				return result{}, false, nil
			}
			if err := ctx.Err(); err != nil {
				return result{}, false, err
			}
			r, err := u.process(ctx, p, u.todo[i])
			i++
			return r, err == nil, err
		}
	}
	every := cmp.Or(u.opts.reopenAfter, reopenAfter)
	done, reopened := 0, 0 // reopened: u.written at the last reopening
	for {
		more := false
		err := batch(func(b records) error {
			until := u.written + every
			for u.written < until {
				r, ok, err := next()
				if err != nil {
					return err
				}
				if !ok {
					return u.writeTops(b)
				}
				done++
				if u.opts.Progress != nil {
					u.opts.Progress(Progress{Done: done, Total: len(u.todo), Path: r.e.Path})
				}
				if err := u.record(b, r); err != nil {
					return err
				}
			}
			more = true
			return u.writeTops(b)
		})
		// The last batch is followed by a reopening too unless it wrote
		// little: its pages would stay mapped through resolution.
		if err != nil || (!more && u.written-reopened < every/4) {
			return err
		}
		if err := u.reopen(); err != nil {
			return err
		}
		if !more {
			return nil
		}
		reopened = u.written
	}
}

// process reads and parses one file, on a worker: a result with a reason
// to skip it, with no file when its content is what the index holds, or
// with the parsed file and its encoded symbol record.
func (u *indexRun) process(ctx context.Context, p *Parser, e Entry) (result, error) {
	r := result{e: e}
	src, err := p.read(u.fsys, e)
	if err != nil {
		r.skip = "unreadable: " + err.Error()
		return r, nil
	}
	if u.max > 0 && int64(len(src)) > u.max {
		r.skip = "larger than the size limit"
		return r, nil
	}
	if isBinary(src) {
		r.skip = "binary"
		return r, nil
	}
	r.hash = p.hashText(src)
	m, ok := u.old[e.Path]
	if ok && !u.opts.Force && m.Hash == r.hash && m.Version == u.table.versionOf(u.table.ForPath(e.Path)) {
		return r, nil
	}
	if configFile(e.Path) {
		r.config = bytes.Clone(src)
	}
	f, sums, err := p.parse(ctx, e.Path, src, r.hash, true)
	if errors.Is(err, ErrTooDense) {
		r.skip = strings.TrimPrefix(err.Error(), e.Path+": ")
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.file = f
	if f.Lang != "" {
		r.rec = encodeSymbols(f, sums)
		r.names = fileNames(e.Path, f.Symbols)
		if f.Lang == "go" {
			r.top = topLevelNames(f.Symbols)
		}
	}
	return r, nil
}

// record writes one file's result into b, on the calling goroutine: its
// binary mark, or its symbol record and names, and notes what the file
// changes for import resolution and what its file record will be.
func (u *indexRun) record(b records, r result) error {
	p := r.e.Path
	m, had := u.old[p]
	if _, wasBin := u.oldBin[p]; r.skip == "binary" {
		u.binNow[p] = true
		e := enc{}
		e.int(r.e.Size)
		e.int(r.e.ModTime)
		if err := b.SetOwned(nsBinary, p, e.b); err != nil {
			return err
		}
	} else if wasBin {
		if err := b.Delete(nsBinary, p); err != nil {
			return err
		}
	}
	if r.skip != "" {
		u.sum.Skipped = append(u.sum.Skipped, Skip{Path: p, Reason: r.skip})
		delete(u.seen, p)
		if had {
			u.removed = append(u.removed, p)
			u.setChanged = true
			u.changedDirs[path.Dir(p)] = true
		}
		return nil
	}
	if !had {
		u.setChanged = true
		u.changedDirs[path.Dir(p)] = true
	}
	if r.file == nil { // same content: refresh size and time only
		nm := *m
		nm.Size, nm.ModTime = r.e.Size, r.e.ModTime
		u.metas[p] = &nm
		u.metaWrites = append(u.metaWrites, p)
		u.sum.Unchanged++
		return nil
	}
	f := r.file
	u.sum.Parsed++
	if configFile(p) {
		// Only what resolution reads of it counts: a go.mod's require
		// lines, say, change no import's target.
		if key := configKey(p, r.config); key != u.oldConfigs[p] {
			u.configChanged = true
			if err := b.Set(nsConfig, p, []byte(key)); err != nil {
				return err
			}
		}
	}
	var oldTop []string
	keptNames := false // the file declares the names it did
	if had && m.Lang != "" {
		var err error
		if oldTop, keptNames, err = u.names.forget(u.store, p, r.names); err != nil {
			return err
		}
	}
	if f.Lang == "go" {
		t := pathRecord{p, topRecord(r.top)}
		u.tops = append(u.tops, t)
		if u.topBytes += len(t.rec); u.topBytes >= topsAt {
			if err := u.writeTops(b); err != nil {
				return err
			}
		}
		if had && !slices.Equal(oldTop, r.top) {
			u.declChanged = true // importers' edges may point elsewhere now
			u.changedDirs[path.Dir(p)] = true
		}
	}
	nm := fileMeta{Version: u.table.versionOf(u.table.ForPath(p)), Lang: f.Lang, Hash: r.hash,
		Size: r.e.Size, ModTime: r.e.ModTime, Symbols: len(f.Symbols), Errors: len(f.Errors)}
	if len(f.Errors) > 0 {
		nm.FirstErr = f.Errors[0]
	}
	u.metas[p] = &nm
	u.metaWrites = append(u.metaWrites, p)
	if !had || m.Lang != f.Lang {
		u.joined = append(u.joined, p)
	}
	if f.Lang == "" {
		if had && m.Lang != "" {
			if err := b.Delete(nsSymbols, p); err != nil {
				return err
			}
			if err := b.Delete(nsImports, p); err != nil {
				return err
			}
			if err := b.Delete(nsTop, p); err != nil {
				return err
			}
		}
		return nil
	}
	u.written += len(r.rec)
	if err := b.SetOwned(nsSymbols, p, r.rec); errors.Is(err, graph.ErrTooBig) {
		// Its symbols do not fit the store: a finding about the file,
		// as a syntax error is, not a failed index.
		nm.Symbols, nm.Errors = 0, 1
		nm.FirstErr = Diagnostic{Path: p, Line: 1, Col: 1, Message: "too large to index (" + err.Error() + "): lower max_file_size or ignore the file"}
		return b.Delete(nsSymbols, p)
	} else if err != nil {
		return err
	}
	if !keptNames {
		u.names.learn(r.names)
		if u.names.full() {
			if err := u.names.flush(u.store, b); err != nil {
				return err
			}
		}
	}
	u.parsedImports[p] = encodeImports(f.Imports)
	return nil
}

// pathRecord is a record to write under a file's path.
type pathRecord struct {
	path string
	rec  []byte
}

// writeTops writes the records of package-level names (nsTop) of a
// batch's Go files together, at its end or once they hold topsAt bytes.
// Resolution reads them back, and those a first index sends to the value
// log are mapped page by page as they are read: together, they take a few
// pages of it rather than a page of every stretch of symbol records.
func (u *indexRun) writeTops(b records) error {
	for _, t := range u.tops {
		if u.decls.tops != nil {
			u.decls.tops[t.path] = t.rec
		}
		if err := b.SetOwned(nsTop, t.path, t.rec); err != nil {
			return err
		}
	}
	clear(u.tops) // the backing array would keep the records alive
	u.tops, u.topBytes = u.tops[:0], 0
	return nil
}

// topsAt is how many bytes of records of package-level names a run holds
// before it writes them (see writeTops): a stretch of the value log that
// many of them fill is as few pages as all of them together.
const topsAt = 1 << 20

// reopenAfter is how many bytes of symbol records a run writes between
// reopenings of the store (see reopen).
const reopenAfter = 32 << 20

// mark is the value of the mark of a run in progress: the run's start
// time, which tells it from another run's.
func (u *indexRun) mark() []byte {
	e := enc{}
	e.int(u.start.UnixNano())
	return e.b
}

// reopen reopens the store, which releases the pages of the records
// written so far: Badger keeps every file it wrote mapped while its
// handle is open, so that a first index would hold the whole store in
// memory on top of its own. While another lore process waits for the
// store the run keeps it instead, and that process waits to the end, as
// it would without reopening. Another process may still take the store
// between the close and the open; a run that finds its mark gone or
// changed stops, since that process's writes and its own may not agree.
func (u *indexRun) reopen() error {
	if dir := u.store.Dir(); dir == "" || u.filler != nil || graph.Waiting(dir) {
		return nil
	}
	if err := u.store.Reopen(); err != nil {
		return err
	}
	return u.store.View(func(tx *graph.Tx) error {
		v, err := tx.Get(nsState, "running")
		if errors.Is(err, graph.ErrNotFound) || (err == nil && !bytes.Equal(v, u.mark())) {
			return errors.New("another lore process wrote the index meanwhile: run lore index again")
		}
		return err
	})
}

// drop removes the binary marks of files gone, and the records, names
// and out-edges of files removed or now skipped.
func (u *indexRun) drop(b *graph.Batch) error {
	for p := range u.oldBin {
		if !u.seen[p] && !u.binNow[p] {
			if err := b.Delete(nsBinary, p); err != nil {
				return err
			}
		}
	}
	for _, p := range u.removed {
		if m, ok := u.old[p]; ok && m.Lang != "" {
			if _, _, err := u.names.forget(u.store, p, nil); err != nil {
				return err
			}
		}
		for _, ns := range []string{nsSymbols, nsImports, nsMeta, nsConfig, nsTop} {
			if err := b.Delete(ns, p); err != nil {
				return err
			}
		}
		if err := b.SetOutEdges("file:"+p, graph.Imports, nil); err != nil {
			return fmt.Errorf("%s: clear edges: %w", p, err)
		}
		delete(u.metas, p)
		u.sum.Removed++
	}
	return nil
}

// resolve writes the name index and resolves imports (see resolveAll):
// every file's when the set of files, a configuration file or a Go
// file's package-level names changed, else the parsed files' only.
func (u *indexRun) resolve(ctx context.Context, b *graph.Batch) error {
	// What only resolution reads goes with it, before the package edges
	// are made.
	defer func() { u.parsedImports, u.decls = nil, nil }()
	if err := u.names.write(u.store, b); err != nil {
		return err
	}
	paths := u.paths()
	all := u.configChanged || u.opts.Force
	if !all && (u.setChanged || u.declChanged) {
		return resolveChanged(ctx, u.store, b, u.fsys, u.table, u.metas, paths, u.parsedImports, u.decls, u.changedDirs, &u.sum)
	}
	return resolveAll(ctx, u.store, b, u.fsys, u.table, u.metas, paths, u.parsedImports, u.decls, all, !u.interrupted, &u.sum)
}

// paths lists the files of the index, sorted.
func (u *indexRun) paths() []string {
	if len(u.metas) == len(u.old) && len(u.removed) == 0 {
		return u.oldPaths
	}
	paths := make([]string, 0, len(u.metas))
	for p := range u.metas {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// resolveFirst is drop, resolve and packages for a first index: every
// parsed file's imports are resolved, and the IN_PACKAGE and IMPORTS
// edges written in bulk (Store.Load), in chunks so that memory stays
// bounded however many edges there are, from a goroutine of their own
// (edgeLoader): Load waits while Badger's writer applies a chunk, and the
// imports of the next are resolved meanwhile. The name index is written
// meanwhile too, in a batch of its own. After each reopenEdges edges the
// batch ends and the store is reopened, as parseAll does: the tables of
// the edges would otherwise stay mapped to the end of the run. A first
// index that fills the store (see fill) gives the Filler its name index,
// import records and edges instead, in one pass.
func (u *indexRun) resolveFirst(ctx context.Context) error {
	paths := u.paths()
	var r *resolver // built on first use: a tree may import nothing
	mk := newEdgeMaker(u.store, u.metas, u.decls)
	if f := u.filler; f != nil {
		if err := u.names.write(u.store, f); err != nil {
			return err
		}
		send := func(edges []graph.Edge) error {
			for _, e := range edges {
				if err := f.Edge(e); err != nil {
					return err
				}
			}
			return nil
		}
		if err := send(u.packageEdges()); err != nil {
			return err
		}
		_, err := u.resolveSome(ctx, f, send, paths, 0, math.MaxInt, &r, mk)
		u.parsedImports, u.decls = nil, nil
		return err
	}
	namesDone := make(chan error, 1)
	go func() {
		namesDone <- u.store.Batch(func(b *graph.Batch) error { return u.names.write(u.store, b) })
	}()
	every := cmp.Or(u.opts.reopenEdges, reopenEdges)
	i := 0
	for {
		first := i == 0
		err := u.store.Batch(func(b *graph.Batch) error {
			if first {
				if err := u.drop(b); err != nil {
					return err
				}
			}
			load := startEdgeLoader(ctx, u.store)
			// On the way out of an early return, stop only waits for the
			// loader: the error returned is the one that cut the run short.
			defer func() { _ = load.stop() }()
			if first {
				// The files' IN_PACKAGE edges first (see packages): the
				// loader would otherwise wait for the first chunk of
				// imports.
				if edges := u.packageEdges(); len(edges) > 0 {
					if err := load.send(edges); err != nil {
						return err
					}
				}
			}
			var err error
			if i, err = u.resolveSome(ctx, b, load.send, paths, i, every, &r, mk); err != nil {
				return err
			}
			return load.stop()
		})
		if namesDone != nil {
			err = cmp.Or(err, <-namesDone)
			namesDone = nil
		}
		if err != nil {
			return err
		}
		if i == len(paths) {
			break
		}
		if err := u.reopen(); err != nil {
			return err
		}
	}
	u.parsedImports, u.decls = nil, nil
	return nil
}

// reopenEdges is how many IMPORTS edges a first index writes between
// reopenings of the store (see resolveFirst).
const reopenEdges = 1 << 17

// resolveSome resolves the imports of the files of paths from index i on
// until it has made at least every IMPORTS edges or reached the end, writes their
// import records into b and hands their edges to send in chunks of
// edgeChunk (send owns each chunk); it returns the index of the next
// file. *r is the resolver, built on first use: a tree may import nothing.
func (u *indexRun) resolveSome(ctx context.Context, b records, send func([]graph.Edge) error, paths []string, i, every int, r **resolver, mk *edgeMaker) (int, error) {
	edges := make([]graph.Edge, 0, edgeChunk)
	for n := 0; i < len(paths) && n < every; i++ {
		if err := ctx.Err(); err != nil {
			return i, err
		}
		p := paths[i]
		imps, ok := u.parsedImports.get(p)
		if !ok {
			continue
		}
		if *r == nil {
			*r = newResolver(u.fsys, paths)
		}
		l := u.table.Lookup(u.metas[p].Lang)
		for k := range imps {
			(*r).resolve(l, &imps[k])
		}
		u.sum.Imports += len(imps)
		if err := b.SetOwned(nsImports, p, encodeImports(imps)); err != nil {
			return i, err
		}
		had := len(edges)
		edges = mk.append(edges, p, imps)
		n += len(edges) - had
		if len(edges) >= edgeChunk {
			if err := send(edges); err != nil {
				return i, err
			}
			edges = make([]graph.Edge, 0, edgeChunk)
		}
	}
	if len(edges) > 0 {
		if err := send(edges); err != nil {
			return i, err
		}
	}
	return i, nil
}

// commit writes the file records that changed and the run's state (its
// time and file count), and clears the mark of a run in progress.
func (u *indexRun) commit(b records) error {
	for _, p := range u.metaWrites {
		if m, ok := u.metas[p]; ok {
			if err := b.SetOwned(nsMeta, p, encodeMeta(m)); err != nil {
				return err
			}
		}
	}
	e := enc{}
	e.int(u.start.UnixNano())
	e.int(int64(len(u.metas)))
	if err := b.Set(nsState, "state", e.b); err != nil {
		return err
	}
	return b.Delete(nsState, "running")
}

// summarize completes sum from the files of the index.
func summarize(sum *Summary, metas map[string]*fileMeta, start time.Time) Summary {
	sum.Files = len(metas)
	paths := make([]string, 0, len(metas))
	for p, m := range metas {
		sum.Symbols += m.Symbols
		if m.Errors > 0 {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	sum.ErrorFiles = len(paths)
	for _, p := range paths {
		sum.Errors = append(sum.Errors, metas[p].FirstErr)
	}
	sum.Duration = time.Since(start)
	sum.Phases.Commit = sum.Duration - sum.Phases.Walk - sum.Phases.Parse - sum.Phases.Resolve
	return *sum
}

// parallel runs process on workers goroutines, each with its own Parser,
// and hands results to write on the calling goroutine.
func parallel(ctx context.Context, table *Table, workers int, todo []Entry,
	process func(context.Context, *Parser, Entry) (result, error), write func(result) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers + 1)
	jobs := make(chan Entry)
	// Room for a burst of results: Badger's writer stalls in bursts (a
	// memtable flush, a full transaction's commit), and the writer
	// callback waits with it; with room for only a couple per worker, the
	// workers would wait too instead of parsing on.
	results := make(chan result, max(64, workers*2))
	g.Go(func() error {
		defer close(jobs)
		for _, e := range todo {
			select {
			case jobs <- e:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	for i := 0; i < workers; i++ {
		g.Go(func() error {
			p := NewParser(table)
			defer p.Close()
			for e := range jobs {
				r, err := process(ctx, p, e)
				if err != nil {
					return err
				}
				select {
				case results <- r:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
			return nil
		})
	}
	errc := make(chan error, 1)
	go func() { errc <- g.Wait(); close(results) }()
	var werr error
	for r := range results {
		if werr == nil {
			if werr = write(r); werr != nil {
				cancel() // stop the workers; keep draining so they can exit
			}
		}
	}
	if err := <-errc; err != nil && werr == nil {
		return err
	}
	return werr
}

// topLevelNames are the names a file declares at package level, sorted
// and distinct.
func topLevelNames(syms []Symbol) []string {
	var out []string
	for _, s := range syms {
		if strings.Count(s.FQName[len(s.Path):], "::") == 1 {
			out = append(out, s.Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// resolveAll resolves the imports of parsed files, and of every file when
// all is set (files were added or removed, or a go.mod, package.json,
// tsconfig.json or Cargo.toml changed), writing records and IMPORTS edges
// whose targets changed. When trust is set and all is not, a parsed file
// whose imports are those of its record (same specs, kinds and names)
// keeps the record's targets and its edges: nothing they depend on
// changed. A first index gives load, which writes the edges.
func resolveAll(ctx context.Context, store *graph.Store, b *graph.Batch, fsys fs.FS, table *Table,
	metas map[string]*fileMeta, paths []string, parsed importsOf, decls *goDecls, all, trust bool, sum *Summary) error {
	if len(parsed) == 0 && !all {
		return nil
	}
	var r *resolver // built on first use: the usual edit needs none
	resolve := func(l *Language, im *Import) {
		if r == nil {
			r = newResolver(fsys, paths)
		}
		r.resolve(l, im)
	}
	prev := map[string][]Import{}
	if all {
		err := store.View(func(tx *graph.Tx) error {
			return tx.Scan(nsImports, "", func(k string, v []byte) error {
				if _, ok := parsed[k]; ok {
					return nil
				}
				if _, ok := metas[k]; !ok {
					return nil
				}
				imps, err := decodeImports(k, v)
				if err == nil {
					prev[k] = imps
				}
				return nil
			})
		})
		if err != nil {
			return fmt.Errorf("read imports: %w", err)
		}
	}
	var allEdges []graph.Edge
	mk := newEdgeMaker(store, metas, decls)
	edgesOf := mk.append
	// write stores p's import record and, unless all (edges are then
	// written together at the end) or kept, its edges.
	write := func(p string, imps []Import, kept bool) error {
		if err := b.SetOwned(nsImports, p, encodeImports(imps)); err != nil {
			return err
		}
		if all || kept {
			return nil
		}
		if err := b.SetOutEdges("file:"+p, graph.Imports, edgesOf(nil, p, imps)); err != nil {
			return fmt.Errorf("%s: set edges: %w", p, err)
		}
		return nil
	}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		l := table.Lookup(metas[p].Lang)
		if imps, ok := parsed.get(p); ok {
			if trust && !all {
				same, err := keepTargets(store, p, imps)
				if err != nil {
					return err
				}
				if same {
					sum.Imports += len(imps)
					if err := write(p, imps, true); err != nil {
						return err
					}
					continue
				}
			}
			for i := range imps {
				resolve(l, &imps[i])
			}
			sum.Imports += len(imps)
			if err := write(p, imps, false); err != nil {
				return err
			}
			if all {
				allEdges = edgesOf(allEdges, p, imps)
			}
			continue
		}
		imps, ok := prev[p]
		if !ok {
			continue
		}
		changed := false
		for i := range imps {
			before, beforeDir := imps[i].Targets, imps[i].pkgDir
			resolve(l, &imps[i])
			if beforeDir != imps[i].pkgDir || (beforeDir == "" && !equalStrings(before, imps[i].Targets)) {
				changed = true
			}
		}
		sum.Imports += len(imps)
		if changed {
			if err := write(p, imps, false); err != nil {
				return err
			}
		}
		allEdges = edgesOf(allEdges, p, imps)
	}
	if !all {
		return nil
	}
	return b.ReplaceEdges(ctx, graph.Imports, allEdges)
}

// edgeChunk is how many edges a first index hands Store.Load at a time:
// two chunks are alive at once (one filled, one written), so the edges'
// memory does not grow with the repository.
const edgeChunk = 1 << 14

// edgeLoader writes chunks of edges with Store.Load on a goroutine of its
// own, one chunk at a time, in the order sent. The channel is unbuffered:
// a chunk waiting in it would be one more in memory for no gain.
type edgeLoader struct {
	chunks chan []graph.Edge
	g      *errgroup.Group
	ctx    context.Context // the caller's
	gctx   context.Context // done when a Load fails or ctx is
	err    error           // stop's result, once stopped
	done   bool
}

func startEdgeLoader(ctx context.Context, store *graph.Store) *edgeLoader {
	g, gctx := errgroup.WithContext(ctx)
	l := &edgeLoader{chunks: make(chan []graph.Edge), g: g, ctx: ctx, gctx: gctx}
	g.Go(func() error {
		for c := range l.chunks {
			if err := store.Load(gctx, nil, c); err != nil {
				return fmt.Errorf("write edges: %w", err)
			}
		}
		return nil
	})
	return l
}

// send hands chunk to the loader, which owns it from then on. It fails
// when the loader has failed or the caller's context is done.
func (l *edgeLoader) send(chunk []graph.Edge) error {
	select {
	case l.chunks <- chunk:
		return nil
	case <-l.gctx.Done():
		return l.stop() // an error: the loader's, or the context's
	}
}

// stop waits until every chunk sent is written and returns the first
// error, or the caller's context's; it may be called again and returns
// the same.
func (l *edgeLoader) stop() error {
	if !l.done {
		l.done = true
		close(l.chunks)
		l.err = cmp.Or(l.g.Wait(), l.ctx.Err())
	}
	return l.err
}

// keepTargets gives imps the targets of p's import record when the record
// has the same imports (specs, kinds and names, in order; lines may
// differ), and reports whether it did.
func keepTargets(store *graph.Store, p string, imps []Import) (bool, error) {
	var old []Import
	var bad error // an unreadable record is resolved again
	err := store.View(func(tx *graph.Tx) error {
		v, err := tx.Get(nsImports, p)
		if err != nil {
			return err
		}
		old, bad = decodeImports(p, v)
		return nil
	})
	if errors.Is(err, graph.ErrNotFound) || bad != nil {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: read imports: %w", p, err)
	}
	if len(old) != len(imps) {
		return false, nil
	}
	for i := range old {
		if old[i].Spec != imps[i].Spec || old[i].Kind != imps[i].Kind || !equalStrings(old[i].Names, imps[i].Names) {
			return false, nil
		}
	}
	for i := range old {
		imps[i].Targets, imps[i].pkgDir = old[i].Targets, old[i].pkgDir
	}
	return true, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// importsOf holds the imports of the files parsed in an update until they
// are resolved: each file's as an import record (encodeImports), which
// takes a fraction of the memory of the Imports it encodes.
type importsOf map[string][]byte

// get decodes p's imports; an undecodable record gives none.
func (m importsOf) get(p string) ([]Import, bool) {
	v, ok := m[p]
	if !ok {
		return nil, false
	}
	imps, err := decodeImports(p, v)
	if err != nil {
		return nil, true
	}
	return imps, true
}

// goDecls finds the package-level names a Go file declares, read from
// the index: the records (nsTop) of the files parsed in an update are
// written before its imports are resolved. Only the lists of the packages
// imported are kept (see index), within a bound: the names of every file
// of a large repository would stay in memory to the end of the run.
type goDecls struct {
	pkgs   map[string]*declIndex // see index
	cached int                   // references in pkgs
	// tops holds the records of a first index into an empty store (see
	// indexRun.fill), which writes nothing before the end: path -> record.
	tops map[string][]byte
}

// declCacheRefs bounds the references goDecls.index keeps: past it, the
// lists of the packages met so far are dropped and made again when needed.
const declCacheRefs = 1 << 18

// declIndex is the package-level names of a package's files: each name
// once per file that declares it, as a reference into names (the names
// one after the other), sorted by name, then file. References into one
// string take half the memory of a string each.
type declIndex struct {
	names string
	refs  []declRef
}

// declRef is a package-level name, names[off:end] of its declIndex, and
// the index of a file declaring it.
type declRef struct{ off, end, file uint32 }

func (x *declIndex) name(r declRef) string { return x.names[r.off:r.end] }

func newGoDecls() *goDecls {
	return &goDecls{pkgs: map[string]*declIndex{}}
}

// topRecord is the stored record of a Go file's package-level names
// (nsTop), given sorted: the format, then the names joined by NUL (Go
// names hold none).
func topRecord(names []string) []byte {
	return append([]byte{recordFormat}, strings.Join(names, "\x00")...)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// users narrows a Go import's targets to the files that declare the names
// the importing file uses; all targets when it uses none that are found
// (blank and dot imports, names from other build configurations).
func (d *goDecls) users(store *graph.Store, im Import) []string {
	if len(im.Names) == 0 || len(im.Targets) < 2 {
		return im.Targets
	}
	var out []string
	if im.pkgDir != "" { // the whole package: through its inverted index
		x := d.index(store, im.pkgDir, im.Targets)
		var hit []bool
		for _, n := range im.Names {
			i := sort.Search(len(x.refs), func(i int) bool { return x.name(x.refs[i]) >= n })
			for ; i < len(x.refs) && x.name(x.refs[i]) == n; i++ {
				if hit == nil {
					hit = make([]bool, len(im.Targets))
				}
				hit[x.refs[i].file] = true
			}
		}
		for i, ok := range hit {
			if ok {
				out = append(out, im.Targets[i])
			}
		}
	} else {
		for i, names := range d.lists(store, im.Targets) {
			for _, n := range im.Names {
				if j := sort.SearchStrings(names, n); j < len(names) && names[j] == n {
					out = append(out, im.Targets[i])
					break
				}
			}
		}
	}
	if len(out) == 0 {
		return im.Targets
	}
	return out
}

// lists returns the package-level names of each of files: from tops when
// it is set, else read from the store (see namesIn).
func (d *goDecls) lists(store *graph.Store, files []string) [][]string {
	lists := make([][]string, len(files))
	if d.tops != nil {
		for i, t := range files {
			lists[i] = topNames(d.tops[t])
		}
		return lists
	}
	_ = store.View(func(tx *graph.Tx) error {
		for i, t := range files {
			lists[i] = namesIn(tx, t)
		}
		return nil
	})
	return lists
}

// topNames decodes a record of package-level names (topRecord); one that
// is not (none) gives no names.
func topNames(v []byte) []string {
	if len(v) <= 1 || v[0] != recordFormat {
		return nil
	}
	return strings.Split(string(v[1:]), "\x00")
}

// namesIn reads the package-level names of Go file t in tx. A record that
// cannot be read gives no names: users then keeps every file of the
// package as a target, as for a name not found. They are read from the
// file's record of names, small and kept next to the keys, else (a store
// written before there were such records) from its symbols, which a first
// index sent to the value log: reading them spread a re-index's reads over
// all of it.
func namesIn(tx *graph.Tx, t string) []string {
	if v, err := tx.Get(nsTop, t); err == nil && len(v) > 0 && v[0] == recordFormat {
		return topNames(v)
	}
	v, err := tx.Get(nsSymbols, t)
	if err != nil {
		return nil
	}
	top, _ := decodeTopNames(v)
	return sortedKeys(top)
}

// index lists the package-level names of the package in dir (whose files
// are files), each with the index in files of a file declaring it, sorted
// by name, built once per package: every whole-package import of dir has
// the same files. A sorted list takes a fraction of a map's memory, which
// every package imported would otherwise hold to the end of the run.
func (d *goDecls) index(store *graph.Store, dir string, files []string) *declIndex {
	if x, ok := d.pkgs[dir]; ok {
		return x
	}
	lists := d.lists(store, files)
	n, size := 0, 0
	for _, list := range lists {
		n += len(list)
		for _, name := range list {
			size += len(name)
		}
	}
	var names strings.Builder
	names.Grow(size)
	refs := make([]declRef, 0, n)
	for i, list := range lists {
		for _, name := range list {
			off := uint32(names.Len())
			names.WriteString(name)
			refs = append(refs, declRef{off, uint32(names.Len()), uint32(i)})
		}
	}
	x := &declIndex{names: names.String(), refs: refs}
	slices.SortFunc(refs, func(a, b declRef) int {
		if c := strings.Compare(x.name(a), x.name(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.file, b.file)
	})
	if d.cached+len(refs) > declCacheRefs {
		clear(d.pkgs)
		d.cached = 0
	}
	d.pkgs[dir] = x
	d.cached += len(refs)
	return x
}

// edgeMaker turns a file's resolved imports into IMPORTS edges, one per
// target file (for Go, the files of the package that declare names the
// file uses), sharing one id string per file across the edges it makes.
type edgeMaker struct {
	store *graph.Store
	metas map[string]*fileMeta
	decls *goDecls
	ids   map[string]string // path -> "file:"+path
	seen  map[string]bool   // targets of the file at hand
}

func newEdgeMaker(store *graph.Store, metas map[string]*fileMeta, decls *goDecls) *edgeMaker {
	return &edgeMaker{store: store, metas: metas, decls: decls, ids: map[string]string{}, seen: map[string]bool{}}
}

func (m *edgeMaker) id(p string) string {
	id, ok := m.ids[p]
	if !ok {
		id = "file:" + p
		m.ids[p] = id
	}
	return id
}

// append appends p's IMPORTS edges to edges.
func (m *edgeMaker) append(edges []graph.Edge, p string, imps []Import) []graph.Edge {
	if len(m.seen) > 64 {
		m.seen = map[string]bool{} // clear costs what the map once held
	} else {
		clear(m.seen)
	}
	from := m.id(p)
	for _, im := range imps {
		targets := im.Targets
		if m.metas[p].Lang == "go" {
			targets = m.decls.users(m.store, im)
		}
		for _, t := range targets {
			if t != p && !m.seen[t] {
				m.seen[t] = true
				edges = append(edges, graph.Edge{Type: graph.Imports, From: from, To: m.id(t), Weight: 1})
			}
		}
	}
	return edges
}
