package analyzer

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/lorehq/lore/graph"
)

// The name index maps a symbol name to the files that declare it, for
// relocating moved symbols. It is kept in nameBuckets records (a hash of
// the name picks the record), each a sorted list of (name, path) pairs:
// a few thousand values instead of one key per name and file, which a
// cold index of a large repository writes much faster.
const nameBuckets = 4096

// nameBucket is the record of name: FNV-1a of the name modulo
// nameBuckets, as three hex digits.
func nameBucket(name string) string {
	const digits = "0123456789abcdef"
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= 16777619
	}
	v := h % nameBuckets
	return string([]byte{digits[v>>8&15], digits[v>>4&15], digits[v&15]})
}

// nameIndex collects the changes of one update, applied by write.
type nameIndex struct {
	cold bool                       // nothing stored yet: no need to read buckets back
	adds map[string][]nameEntry     // bucket -> names learnt in this update
	dels map[string]map[string]bool // bucket -> "name\x00path"
}

func newNameIndex(cold bool) *nameIndex {
	return &nameIndex{cold: cold, adds: map[string][]nameEntry{}, dels: map[string]map[string]bool{}}
}

// nameEntry is a learnt (name, path) pair; it shares the strings of the
// symbol and the path, and becomes "name\x00path" only when its bucket is
// written, so that a cold index does not hold a new string per symbol.
type nameEntry struct{ name, path string }

// fileNames lists the distinct names of a parsed file with their buckets;
// workers compute it so that the writer only appends (learn).
func fileNames(p string, syms []Symbol) []bucketed {
	seen := make(map[string]bool, len(syms))
	out := make([]bucketed, 0, len(syms))
	for _, s := range syms {
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, bucketed{nameBucket(s.Name), nameEntry{s.Name, p}})
		}
	}
	return out
}

type bucketed struct {
	bucket string
	e      nameEntry
}

// learn records the names of a parsed file (from fileNames).
func (x *nameIndex) learn(names []bucketed) {
	for _, n := range names {
		x.adds[n.bucket] = append(x.adds[n.bucket], n.e)
	}
}

// forget drops the stored names of p (before p is parsed again or
// removed), unless they are exactly the names of keep, the file's names
// now: then its entries stand, learn is not needed, and kept is set. It
// returns p's stored package-level names.
func (x *nameIndex) forget(store *graph.Store, p string, keep []bucketed) (top map[string]bool, kept bool, err error) {
	var syms []Symbol
	err = store.View(func(tx *graph.Tx) error {
		v, err := tx.Get(nsSymbols, p)
		if err != nil {
			return err
		}
		_, syms, _, err = decodeSymbols(p, v)
		return err
	})
	if errors.Is(err, graph.ErrNotFound) || errors.Is(err, errCorrupt) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: read symbols: %w", p, err)
	}
	if sameNames(syms, keep) {
		return topLevelNames(syms), true, nil
	}
	for _, s := range syms {
		b := nameBucket(s.Name)
		if x.dels[b] == nil {
			x.dels[b] = map[string]bool{}
		}
		x.dels[b][s.Name+"\x00"+p] = true
	}
	return topLevelNames(syms), false, nil
}

// sameNames reports whether syms have exactly the distinct names of
// names (from fileNames).
func sameNames(syms []Symbol, names []bucketed) bool {
	found := make(map[string]bool, len(names)) // name -> met in syms
	for _, n := range names {
		found[n.e.name] = false
	}
	met := 0
	for _, s := range syms {
		done, ok := found[s.Name]
		if !ok {
			return false
		}
		if !done {
			found[s.Name] = true
			met++
		}
	}
	return met == len(found)
}

// write stores every bucket that changed.
func (x *nameIndex) write(store *graph.Store, b *graph.Batch) error {
	touched := map[string]bool{}
	for k := range x.adds {
		touched[k] = true
	}
	for k := range x.dels {
		touched[k] = true
	}
	for k := range touched {
		var entries []string
		if !x.cold {
			err := store.View(func(tx *graph.Tx) error {
				v, err := tx.Get(nsNames, k)
				if err != nil {
					return err
				}
				entries, err = decodeNames(v)
				return err
			})
			if err != nil && !errors.Is(err, graph.ErrNotFound) && !errors.Is(err, errCorrupt) {
				return fmt.Errorf("name index: %w", err)
			}
		}
		kept := entries[:0]
		for _, e := range entries {
			if !x.dels[k][e] {
				kept = append(kept, e)
			}
		}
		for _, e := range x.adds[k] {
			kept = append(kept, e.name+"\x00"+e.path)
		}
		sort.Strings(kept)
		out := kept[:0]
		for i, e := range kept {
			if i == 0 || e != kept[i-1] {
				out = append(out, e)
			}
		}
		if len(out) == 0 {
			if err := b.Delete(nsNames, k); err != nil {
				return err
			}
			continue
		}
		size := 8
		for _, s := range out {
			size += len(s) + 2
		}
		e := enc{b: make([]byte, 1, size)}
		e.b[0] = recordFormat
		e.strs(out)
		if err := b.Set(nsNames, k, e.b); err != nil {
			return err
		}
	}
	return nil
}

func decodeNames(v []byte) ([]string, error) {
	if len(v) == 0 || v[0] != recordFormat {
		return nil, errCorrupt
	}
	d := dec{b: v[1:]}
	out := d.strs()
	return out, d.err
}

// pathsNamed returns the files that declare name, in path order.
func pathsNamed(tx *graph.Tx, name string) ([]string, error) {
	v, err := tx.Get(nsNames, nameBucket(name))
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	entries, err := decodeNames(v)
	if err != nil {
		return nil, err
	}
	prefix := name + "\x00"
	i := sort.SearchStrings(entries, prefix)
	var out []string
	for ; i < len(entries) && strings.HasPrefix(entries[i], prefix); i++ {
		out = append(out, entries[i][len(prefix):])
	}
	return out, nil
}
