package analyzer

import (
	"errors"
	"fmt"

	"github.com/lorehq/lore/graph"
)

// IndexedFile is what the index knows about one file.
type IndexedFile struct {
	Path    string `json:"path"`
	Lang    string `json:"lang"`
	Hash    string `json:"hash"`
	Size    int64  `json:"size"`
	Symbols int    `json:"symbols"`
	Errors  int    `json:"errors"`
}

// Files calls fn for every indexed file in path order.
func Files(store *graph.Store, fn func(IndexedFile) error) error {
	return store.View(func(tx *graph.Tx) error {
		return tx.Scan(nsMeta, "", func(k string, v []byte) error {
			m, err := decodeMeta(k, v)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			return fn(IndexedFile{Path: k, Lang: m.Lang, Hash: m.Hash, Size: m.Size, Symbols: m.Symbols, Errors: m.Errors})
		})
	})
}

// FileInfo returns the index's record of one file, or graph.ErrNotFound.
func FileInfo(store *graph.Store, path string) (IndexedFile, error) {
	var out IndexedFile
	err := store.View(func(tx *graph.Tx) error {
		v, err := tx.Get(nsMeta, path)
		if err != nil {
			return err
		}
		m, err := decodeMeta(path, v)
		if err != nil {
			return err
		}
		out = IndexedFile{Path: path, Lang: m.Lang, Hash: m.Hash, Size: m.Size, Symbols: m.Symbols, Errors: m.Errors}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// Symbols returns the symbols of one indexed file in source order; an
// indexed file without symbols gives an empty list, a file not in the
// index graph.ErrNotFound.
func Symbols(store *graph.Store, path string) ([]Symbol, error) {
	var out []Symbol
	err := store.View(func(tx *graph.Tx) error {
		var err error
		out, err = symbolsTx(tx, path)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: symbols: %w", path, err)
	}
	return out, nil
}

func symbolsTx(tx *graph.Tx, path string) ([]Symbol, error) {
	v, err := tx.Get(nsSymbols, path)
	if errors.Is(err, graph.ErrNotFound) {
		if _, err := tx.Get(nsMeta, path); err != nil {
			return nil, err
		}
		return []Symbol{}, nil
	}
	if err != nil {
		return nil, err
	}
	_, syms, _, err := decodeSymbols(path, v)
	return syms, err
}

// AllSymbols calls fn for every symbol of the index, file by file in path
// order. A non-nil error from fn stops the iteration and is returned.
func AllSymbols(store *graph.Store, fn func(Symbol) error) error {
	return store.View(func(tx *graph.Tx) error {
		return tx.Scan(nsSymbols, "", func(k string, v []byte) error {
			_, syms, _, err := decodeSymbols(k, v)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			for _, s := range syms {
				if err := fn(s); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// SymbolsByName returns every symbol named name in the repository, in
// path order (through a name index, without scanning all symbols).
func SymbolsByName(store *graph.Store, name string) ([]Symbol, error) {
	var out []Symbol
	err := store.View(func(tx *graph.Tx) error {
		paths, err := pathsNamed(tx, name)
		if err != nil {
			return err
		}
		for _, p := range paths {
			syms, err := symbolsTx(tx, p)
			if err != nil {
				if errors.Is(err, graph.ErrNotFound) {
					continue
				}
				return fmt.Errorf("%s: %w", p, err)
			}
			for _, s := range syms {
				if s.Name == name {
					out = append(out, s)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("symbols named %q: %w", name, err)
	}
	return out, nil
}

// Enclosing returns the innermost symbol of path whose lines contain line,
// or nil when there is none.
func Enclosing(store *graph.Store, path string, line int) (*Symbol, error) {
	syms, err := Symbols(store, path)
	if err != nil {
		return nil, err
	}
	return enclosing(syms, line), nil
}

// Imports returns the imports of one indexed file with their resolved
// targets; graph.ErrNotFound when the file is not indexed.
func Imports(store *graph.Store, path string) ([]Import, error) {
	var out []Import
	err := store.View(func(tx *graph.Tx) error {
		v, err := tx.Get(nsImports, path)
		if errors.Is(err, graph.ErrNotFound) {
			if _, err := tx.Get(nsMeta, path); err != nil {
				return err
			}
			out = []Import{}
			return nil
		}
		if err != nil {
			return err
		}
		if out, err = decodeImports(path, v); err != nil {
			return err
		}
		return expandTargets(tx, out, map[string][]string{})
	})
	if err != nil {
		return nil, fmt.Errorf("%s: imports: %w", path, err)
	}
	return out, nil
}

// AllImports calls fn for every import of the index in path order.
func AllImports(store *graph.Store, fn func(Import) error) error {
	return store.View(func(tx *graph.Tx) error {
		cache := map[string][]string{}
		return tx.Scan(nsImports, "", func(k string, v []byte) error {
			imps, err := decodeImports(k, v)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			if err := expandTargets(tx, imps, cache); err != nil {
				return err
			}
			for _, im := range imps {
				if err := fn(im); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// Diagnostics returns the syntax errors recorded for one file.
func Diagnostics(store *graph.Store, path string) ([]Diagnostic, error) {
	var out []Diagnostic
	err := store.View(func(tx *graph.Tx) error {
		v, err := tx.Get(nsSymbols, path)
		if errors.Is(err, graph.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		_, _, out, err = decodeSymbols(path, v)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: diagnostics: %w", path, err)
	}
	return out, nil
}
