package anchors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/graph"
)

// File is one file of a source as the verifier sees it: its content and,
// for files in a known language, its symbols.
type File struct {
	Path    string
	Lang    string // "" for files in no known language
	Src     []byte
	Hash    string // analyzer.HashText(Src)
	Symbols []analyzer.Symbol
	// Errors are syntax errors: findings, never a reason to stop. The
	// symbols that could be recovered are still listed.
	Errors []analyzer.Diagnostic
	// Skipped says why the file was not parsed ("binary", "larger than
	// the size limit", "too dense to parse …"); it then has no symbols.
	Skipped string

	// shaped, when not nil, parses the file for its symbols' shapes: the
	// symbols of a file read from the index carry hashes only.
	shaped *shaped
}

// shaped holds the symbols of an indexed file as a parse of its text
// gives them, with their shapes, parsed on first need.
type shaped struct {
	once  sync.Once
	parse func() []analyzer.Symbol
	syms  map[shapedKey]analyzer.Symbol
}

type shapedKey struct {
	fq         string
	start, end int
}

// withShape returns sym, a symbol of f, with its Shape and Sig. A symbol
// read from the index has none: its file is parsed for them (once). A
// symbol the parse does not have keeps its empty ones, which match no
// baseline.
func (f *File) withShape(sym analyzer.Symbol) analyzer.Symbol {
	if sym.Shape != "" || f == nil || f.shaped == nil {
		return sym
	}
	sh := f.shaped
	sh.once.Do(func() {
		syms := sh.parse()
		sh.syms = make(map[shapedKey]analyzer.Symbol, len(syms))
		for _, s := range syms {
			sh.syms[shapedKey{s.FQName, s.StartLine, s.EndLine}] = s
		}
	})
	if s, ok := sh.syms[shapedKey{sym.FQName, sym.StartLine, sym.EndLine}]; ok && s.Hash == sym.Hash {
		return s
	}
	return sym
}

// Files is what the verifier reads: one source of code (working tree,
// staged index, a commit's tree, editor buffers). Source is the
// implementation over an fs.FS; callers may bring their own.
type Files interface {
	// File returns the file at path. The error wraps fs.ErrNotExist when
	// there is no such file.
	File(ctx context.Context, path string) (*File, error)
	// Paths lists every file of the source in lexical order.
	Paths(ctx context.Context) ([]string, error)
	// SymbolsNamed returns every symbol of the source whose Name is name.
	SymbolsNamed(ctx context.Context, name string) ([]analyzer.Symbol, error)
	// EachSymbol calls fn for every symbol of the source. It may read
	// symbols from an index that is out of date for some files; callers
	// confirm a candidate by reading its file with File.
	EachSymbol(ctx context.Context, fn func(analyzer.Symbol) error) error
	// Renamed returns the new path of a file that the caller knows was
	// renamed (git rename detection), or "".
	Renamed(path string) string
}

// SourceOptions configure NewSource.
type SourceOptions struct {
	// Parser parses files; nil means a new parser over the default
	// language table, freed by Close. A caller-supplied parser is not
	// closed and must not be used elsewhere while the Source is in use.
	Parser *analyzer.Parser
	// Table is the language table of the parser made when Parser is nil;
	// nil means analyzer.NewTable(). A long-running caller passes one
	// table to every source, so that each language's queries compile once.
	Table *analyzer.Table
	// Index is the analyzer's index (optional). A file's indexed symbols
	// are used instead of parsing it when the indexed content hash equals
	// the source's; repository-wide lookups use it for files whose size
	// is unchanged.
	Index *graph.Store
	// Renames maps old paths to new ones (from git rename detection).
	Renames map[string]string
	// Ignore holds extra gitignore-style patterns for listing files.
	Ignore []string
	// MaxFileSize: larger files are hashed but not parsed. 0 means
	// analyzer.DefaultMaxFileSize; negative means no limit.
	MaxFileSize int64
	// Parsed, when not nil, keeps what parsing found across Sources; a
	// file's version found there is not parsed again.
	Parsed *Parsed
}

// Source reads files from an fs.FS through an analyzer.Parser, optionally
// helped by the analyzer's index. Parsed files are cached per path. It is
// safe for concurrent use.
type Source struct {
	fsys  fs.FS
	opts  SourceOptions
	table *analyzer.Table
	ownsP bool
	// Parsers: opts.Parser and up to GOMAXPROCS-1 more made on demand
	// (parsing is most of verifying a change that touches many files);
	// idle holds those not in use, slots bounds those that are.
	parseMu sync.Mutex // guards made and closed
	made    []*analyzer.Parser
	closed  bool
	idle    chan *analyzer.Parser
	slots   chan struct{}

	gatherMu sync.Mutex
	idxOnce  sync.Once
	idx      map[string]analyzer.IndexedFile

	mu     sync.Mutex
	files  map[string]*fileEntry
	paths  []string
	sizes  map[string]int64
	listed bool
	all    []analyzer.Symbol
	allOK  bool
}

type fileEntry struct {
	once sync.Once
	f    *File
	err  error
}

// NewSource returns the files of fsys. Close it when done.
func NewSource(fsys fs.FS, opts SourceOptions) (*Source, error) {
	if fsys == nil {
		return nil, errors.New("anchors: new source: nil fs.FS")
	}
	if opts.MaxFileSize == 0 {
		opts.MaxFileSize = analyzer.DefaultMaxFileSize
	}
	s := &Source{fsys: fsys, opts: opts, files: map[string]*fileEntry{}}
	if opts.Parser == nil {
		s.opts.Parser = analyzer.NewParser(opts.Table)
		s.ownsP = true
	}
	s.table = s.opts.Parser.Table()
	n := max(1, runtime.GOMAXPROCS(0))
	s.idle, s.slots = make(chan *analyzer.Parser, n), make(chan struct{}, n)
	s.idle <- s.opts.Parser
	renames := make(map[string]string, len(opts.Renames))
	for k, v := range opts.Renames {
		renames[k] = v
	}
	s.opts.Renames = renames
	return s, nil
}

// Close frees the parsers the Source made (SourceOptions.Parser only when
// it made that one too), once the parses under way end; a later parse
// fails, but for the one File.withShape asks for (see parse).
func (s *Source) Close() {
	// Wait for the parses under way; later ones fail.
	for range cap(s.slots) {
		s.slots <- struct{}{}
	}
	defer func() {
		for range cap(s.slots) {
			<-s.slots
		}
	}()
	s.parseMu.Lock()
	defer s.parseMu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	for _, p := range s.made {
		p.Close()
	}
	if s.ownsP {
		s.opts.Parser.Close()
	}
}

// Renamed implements Files.
func (s *Source) Renamed(path string) string { return s.opts.Renames[path] }

// File implements Files.
func (s *Source) File(ctx context.Context, path string) (*File, error) {
	s.mu.Lock()
	e := s.files[path]
	if e == nil {
		e = &fileEntry{}
		s.files[path] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.f, e.err = s.load(ctx, path) })
	if e.err != nil && ctx.Err() != nil { // cancelled: let a later call read it
		s.mu.Lock()
		if s.files[path] == e {
			delete(s.files, path)
		}
		s.mu.Unlock()
	}
	return e.f, e.err
}

func (s *Source) load(ctx context.Context, path string) (*File, error) {
	if !fs.ValidPath(path) || path == "." {
		return nil, fmt.Errorf("%s: %w", path, fs.ErrNotExist)
	}
	src, err := fs.ReadFile(s.fsys, path)
	if err != nil {
		if fi, serr := fs.Stat(s.fsys, path); serr == nil && fi.IsDir() {
			return nil, fmt.Errorf("%s: is a directory: %w", path, fs.ErrNotExist)
		}
		return nil, err
	}
	f := &File{Path: path, Src: src, Hash: analyzer.HashText(src)}
	if l := s.table.ForFile(path, src); l != nil {
		f.Lang = l.Name
	}
	switch {
	case isBinary(src):
		f.Skipped = "binary"
		f.Lang = ""
		return f, nil
	case s.opts.MaxFileSize > 0 && int64(len(src)) > s.opts.MaxFileSize:
		f.Skipped = "larger than the size limit"
		return f, nil
	case f.Lang == "":
		return f, nil
	}
	if info, ok := s.indexedFile(path); ok && info.Hash == f.Hash && info.Lang == f.Lang {
		if syms, err := analyzer.Symbols(s.opts.Index, path); err == nil {
			f.Symbols = syms
			f.shaped = &shaped{parse: func() []analyzer.Symbol { return s.parse(path, src) }}
			if info.Errors > 0 {
				f.Errors, _ = analyzer.Diagnostics(s.opts.Index, path)
			}
			return f, nil
		}
	}
	if s.opts.Parsed != nil && s.opts.Parsed.get(f) {
		return f, nil
	}
	var pf *analyzer.File
	err = s.withParser(func(p *analyzer.Parser) (err error) {
		pf, err = p.ParseContext(ctx, path, src)
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, analyzer.ErrTooDense) { // not parsed, as the index skips it
			f.Skipped = strings.TrimPrefix(err.Error(), path+": ")
			return f, nil
		}
		// A file the parser cannot handle is a finding, not a failed run.
		f.Errors = []analyzer.Diagnostic{{Path: path, Line: 1, Col: 1, Message: err.Error()}}
		return f, nil
	}
	f.Symbols = pf.Symbols
	f.Errors = pf.Errors
	if s.opts.Parsed != nil {
		s.opts.Parsed.put(f)
	}
	return f, nil
}

// parse returns the symbols of one file with their shapes; none when it
// cannot be parsed.
func (s *Source) parse(path string, src []byte) []analyzer.Symbol {
	var pf *analyzer.File
	err := s.withParser(func(p *analyzer.Parser) (err error) {
		pf, err = p.Parse(path, src)
		return err
	})
	if errors.Is(err, errClosed) {
		// Fix and Accept ask for a found symbol's shape after the
		// verification that found it closed its source.
		p := analyzer.NewParser(s.table)
		defer p.Close()
		pf, err = p.Parse(path, src)
	}
	if err != nil {
		return nil
	}
	return pf.Symbols
}

// errClosed is withParser's error once the Source is closed.
var errClosed = errors.New("anchors: the source is closed")

// withParser calls fn with a parser no one else is using, made on demand.
func (s *Source) withParser(fn func(*analyzer.Parser) error) error {
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	s.parseMu.Lock()
	if s.closed {
		s.parseMu.Unlock()
		return errClosed
	}
	var p *analyzer.Parser
	select {
	case p = <-s.idle:
	default:
		p = analyzer.NewParser(s.table)
		s.made = append(s.made, p)
	}
	s.parseMu.Unlock()
	defer func() { s.idle <- p }()
	return fn(p)
}

// indexedFile returns the index's record of one file: from the records
// read for the repository-wide lookups when they were, else by itself (a
// verification of a few files, as an editor's, reads a few records, not
// the whole index's).
func (s *Source) indexedFile(path string) (analyzer.IndexedFile, bool) {
	if s.opts.Index == nil {
		return analyzer.IndexedFile{}, false
	}
	s.mu.Lock()
	idx := s.idx
	s.mu.Unlock()
	if idx != nil {
		info, ok := idx[path]
		return info, ok
	}
	info, err := analyzer.FileInfo(s.opts.Index, path)
	return info, err == nil
}

// indexed returns the index's file records, read once; nil without an
// index or when it cannot be read (then every file is parsed).
func (s *Source) indexed() map[string]analyzer.IndexedFile {
	if s.opts.Index == nil {
		return nil
	}
	s.idxOnce.Do(func() {
		m := map[string]analyzer.IndexedFile{}
		err := analyzer.Files(s.opts.Index, func(f analyzer.IndexedFile) error {
			m[f.Path] = f
			return nil
		})
		if err == nil {
			s.mu.Lock()
			s.idx = m
			s.mu.Unlock()
		}
	})
	return s.idx
}

// isBinary reports content that is not text: a NUL byte in the first 8000
// bytes, as git decides.
func isBinary(b []byte) bool {
	if len(b) > 8000 {
		b = b[:8000]
	}
	for _, c := range b {
		if c == 0 {
			return true
		}
	}
	return false
}

// Paths implements Files.
func (s *Source) Paths(ctx context.Context) ([]string, error) {
	if err := s.list(ctx); err != nil {
		return nil, err
	}
	return s.paths, nil
}

func (s *Source) list(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listed {
		return nil
	}
	entries, _, err := analyzer.Walk(ctx, s.fsys, analyzer.WalkOptions{Ignore: s.opts.Ignore, MaxFileSize: -1})
	if err != nil {
		return fmt.Errorf("list files: %w", err)
	}
	s.paths = make([]string, len(entries))
	s.sizes = make(map[string]int64, len(entries))
	for i, e := range entries {
		s.paths[i] = e.Path
		s.sizes[e.Path] = e.Size
	}
	s.listed = true
	return nil
}

// SymbolsNamed implements Files.
func (s *Source) SymbolsNamed(ctx context.Context, name string) ([]analyzer.Symbol, error) {
	var out []analyzer.Symbol
	err := s.EachSymbol(ctx, func(sym analyzer.Symbol) error {
		if sym.Name == name {
			out = append(out, sym)
		}
		return nil
	})
	return out, err
}

// EachSymbol implements Files. Symbols are gathered once and kept.
func (s *Source) EachSymbol(ctx context.Context, fn func(analyzer.Symbol) error) error {
	if err := s.gather(ctx); err != nil {
		return err
	}
	for _, sym := range s.all {
		if err := fn(sym); err != nil {
			return err
		}
	}
	return nil
}

func (s *Source) gather(ctx context.Context) error {
	if err := s.list(ctx); err != nil {
		return err
	}
	s.gatherMu.Lock() // one gathering at a time; the others wait for it
	defer s.gatherMu.Unlock()
	s.mu.Lock()
	ok := s.allOK
	s.mu.Unlock()
	if ok {
		return nil
	}
	var all []analyzer.Symbol
	fromIndex := map[string]bool{}
	if idx := s.indexed(); idx != nil {
		for p, f := range idx {
			if cur, ok := s.sizes[p]; ok && cur == f.Size {
				fromIndex[p] = true
			}
		}
		{
			err := analyzer.AllSymbols(s.opts.Index, func(sym analyzer.Symbol) error {
				if fromIndex[sym.Path] {
					all = append(all, sym)
				}
				return nil
			})
			if err != nil {
				all, fromIndex = nil, map[string]bool{}
			}
		}
	}
	for _, p := range s.paths {
		if fromIndex[p] || s.table.ForPath(p) == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := s.File(ctx, p)
		if err != nil {
			continue // unreadable now: nothing to relocate to
		}
		all = append(all, f.Symbols...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	s.mu.Lock()
	s.all, s.allOK = all, true
	s.mu.Unlock()
	return nil
}

// lastName is the last segment of an FQName ("Outer::inner" → "inner").
func lastName(fq string) string {
	if i := strings.LastIndex(fq, "::"); i >= 0 {
		return fq[i+2:]
	}
	return fq
}
