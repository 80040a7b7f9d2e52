package cochange

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/lorehq/lore/source"
)

// SymbolParser returns the symbols of one version of a file: each symbol's
// fully qualified name mapped to a hash of its text. It returns false when
// it does not parse the file's language. Analyze calls it from one
// goroutine.
type SymbolParser func(path string, content []byte) (map[string]string, bool)

// SymbolSep joins a file's path and a symbol's fully qualified name in
// the names of symbol pairs, as lore's anchor specs do: path::Outer::inner.
const SymbolSep = "::"

// symbolCache bounds the parsed versions kept between commits.
const symbolCache = 4096

// symbolPass counts co-change of symbols over the same commits as the
// files: the counted commits of chain whose change-set was not skipped, and
// in them only the files of focus (the files of kept pairs). A symbol
// changed in a commit when its text differs from the version in the
// commit's first parent, or it is new or gone. A commit's changed symbols
// form its change-set, counted with the same filters as files (MaxChangeset
// included). Renames of files are not followed: a symbol is named by its
// file's path in the commit.
func symbolPass(ctx context.Context, h *source.History, chain []changeSet, names []string, focus map[string]bool, parse SymbolParser, f countFilter) ([]Pair, symbolStats, error) {
	var st symbolStats
	syms := newPathTable()
	var sets []changeSet
	cache := map[plumbing.Hash]map[string]string{}
	versionOf := func(tree plumbing.Hash, path string) (map[string]string, bool, error) {
		id, err := h.Lookup(tree, path)
		if err != nil || id.IsZero() {
			return nil, true, err
		}
		if m, ok := cache[id]; ok {
			return m, m != nil, nil
		}
		b, err := h.Blob(id)
		if err != nil {
			return nil, false, err
		}
		m, ok := parse(path, b)
		st.parsed++
		if len(cache) >= symbolCache {
			clear(cache)
		}
		if !ok {
			m = nil
		}
		cache[id] = m
		return m, ok, nil
	}
	for i := range chain {
		cs := &chain[i]
		if i&255 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, st, err
			}
		}
		if cs.merge && !f.merges || len(cs.files) > f.maxChangeset {
			continue
		}
		var paths []string
		for _, e := range cs.files {
			if p := names[e>>1]; focus[p] {
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 {
			continue
		}
		c, err := h.Commit(cs.hash)
		if err != nil {
			return nil, st, err
		}
		var parentTree plumbing.Hash
		if len(c.Parents) > 0 {
			p, err := h.Commit(c.Parents[0])
			if err != nil {
				return nil, st, err
			}
			parentTree = p.Tree
		}
		set := changeSet{hash: cs.hash, time: cs.time}
		for _, p := range paths {
			newer, ok, err := versionOf(c.Tree, p)
			if err != nil {
				return nil, st, fmt.Errorf("commit %s: %s: %w", cs.hash, p, err)
			}
			if !ok {
				continue
			}
			older, ok, err := versionOf(parentTree, p)
			if err != nil {
				return nil, st, fmt.Errorf("commit %s: %s: %w", cs.hash, p, err)
			}
			if !ok {
				continue
			}
			st.files++
			for fq, hash := range newer {
				if older[fq] != hash {
					set.files = append(set.files, syms.id(p+SymbolSep+fq)<<1)
				}
			}
			for fq := range older {
				if _, ok := newer[fq]; !ok {
					set.files = append(set.files, syms.id(p+SymbolSep+fq)<<1)
				}
			}
		}
		if len(set.files) > 0 {
			st.commits++
			sets = append(sets, set)
		}
	}
	for i := range sets {
		slices.Sort(sets[i].files)
	}
	g := f
	g.renames, g.byDay, g.merges = false, false, false
	pairs, _ := count(sets, syms.names, g)
	return pairs, st, nil
}

// symbolStats says what the symbol pass did.
type symbolStats struct {
	commits int // commits with changed symbols
	files   int // file versions compared
	parsed  int // blobs parsed
}

// SplitSymbol splits "path::Outer::inner" into the path and the fully
// qualified name.
func SplitSymbol(s string) (path, fq string, ok bool) {
	return strings.Cut(s, SymbolSep)
}
