package anchors

import (
	"sync"

	"github.com/lorehq/lore/analyzer"
)

// Parsed keeps what parsing found in files, by path and content hash,
// across Sources: a long-lived caller (an editor's server) verifying the
// same unsaved or not yet indexed files again and again parses each
// version once. It holds at most a bound number of files and is safe for
// concurrent use. The zero value is not usable: make one with NewParsed.
type Parsed struct {
	mu    sync.Mutex
	max   int
	files map[string]parsedFile
}

type parsedFile struct {
	hash, lang string
	symbols    []analyzer.Symbol
	errors     []analyzer.Diagnostic
}

// NewParsed returns an empty Parsed holding at most n files (at least
// one).
func NewParsed(n int) *Parsed {
	return &Parsed{max: max(n, 1), files: map[string]parsedFile{}}
}

// get fills f's symbols and errors when the version of f.Path with f.Hash
// was parsed before.
func (p *Parsed) get(f *File) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.files[f.Path]
	if !ok || e.hash != f.Hash || e.lang != f.Lang {
		return false
	}
	f.Symbols, f.Errors = e.symbols, e.errors
	return true
}

// put keeps what parsing f found. When full, it starts afresh: the files
// a caller works on come back at once.
func (p *Parsed) put(f *File) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.files[f.Path]; !ok && len(p.files) >= p.max {
		clear(p.files)
	}
	p.files[f.Path] = parsedFile{hash: f.Hash, lang: f.Lang, symbols: f.Symbols, errors: f.Errors}
}
