package analyzer

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
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

// write stores every bucket that changed. Entries are sorted as
// (name, path) pairs, which is the order of "name\x00path" strings since
// names hold no NUL, and encoded without joining them: a cold index of a
// large repository has hundreds of thousands. write consumes the names
// learnt, freeing each bucket's as it goes: call it once.
func (x *nameIndex) write(store *graph.Store, b *graph.Batch) error {
	touched := make([]string, 0, len(x.adds)+len(x.dels))
	for k := range x.adds {
		touched = append(touched, k)
	}
	for k := range x.dels {
		if _, ok := x.adds[k]; !ok {
			touched = append(touched, k)
		}
	}
	sort.Strings(touched) // keys in order: cheaper for Badger to take in
	var kept []nameEntry
	for _, k := range touched {
		kept = kept[:0]
		if !x.cold {
			var stored []string
			err := store.View(func(tx *graph.Tx) error {
				v, err := tx.Get(nsNames, k)
				if err != nil {
					return err
				}
				stored, err = decodeNames(v)
				return err
			})
			if err != nil && !errors.Is(err, graph.ErrNotFound) && !errors.Is(err, errCorrupt) {
				return fmt.Errorf("name index: %w", err)
			}
			for _, s := range stored {
				if x.dels[k][s] {
					continue
				}
				name, p, _ := strings.Cut(s, "\x00")
				kept = append(kept, nameEntry{name, p})
			}
		}
		kept = append(kept, x.adds[k]...)
		delete(x.adds, k)
		slices.SortFunc(kept, func(a, b nameEntry) int {
			return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.path, b.path))
		})
		kept = slices.Compact(kept)
		if len(kept) == 0 {
			if err := b.Delete(nsNames, k); err != nil {
				return err
			}
			continue
		}
		if err := b.SetOwned(nsNames, k, encodeNames(kept)); err != nil {
			return err
		}
	}
	return nil
}

// namesFormat is the record format of a name bucket: front-coded entries,
// each the length of the prefix it shares with the entry before and the
// rest. Names recur across files (String, Error, init) and their paths
// share directories, so front coding makes a bucket much smaller than the
// strings whole, which a store of the first format (recordFormat, every entry
// whole) still holds until its buckets are written again.
const namesFormat = 2

// encodeNames returns the bucket record of entries, sorted and distinct,
// in a slice of its own: the batch keeps it until it commits.
func encodeNames(entries []nameEntry) []byte {
	size := 1 + binary.MaxVarintLen64
	for _, n := range entries {
		size += len(n.name) + len(n.path) + 3
	}
	e := enc{b: make([]byte, 1, size)}
	e.b[0] = namesFormat
	e.uint(uint64(len(entries)))
	var prev nameEntry
	for i, n := range entries {
		shared := 0
		if i > 0 {
			shared = sharedPrefix(prev.name, n.name)
			if shared == len(n.name) && shared == len(prev.name) {
				shared += 1 + sharedPrefix(prev.path, n.path)
			}
		}
		e.uint(uint64(shared))
		if shared <= len(n.name) {
			e.uint(uint64(len(n.name) - shared + 1 + len(n.path)))
			e.b = append(e.b, n.name[shared:]...)
			e.b = append(e.b, 0)
			e.b = append(e.b, n.path...)
		} else {
			rest := n.path[shared-len(n.name)-1:]
			e.uint(uint64(len(rest)))
			e.b = append(e.b, rest...)
		}
		prev = n
	}
	return e.b
}

func sharedPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// decodeNames returns a bucket's entries as "name\x00path" strings.
func decodeNames(v []byte) ([]string, error) {
	if len(v) == 0 {
		return nil, errCorrupt
	}
	d := dec{b: v[1:]}
	switch v[0] {
	case recordFormat:
		out := d.strs()
		return out, d.err
	case namesFormat:
	default:
		return nil, errCorrupt
	}
	n := d.uint()
	if n > uint64(len(d.b)) {
		return nil, errCorrupt
	}
	out := make([]string, 0, n)
	prev := ""
	for i := uint64(0); i < n && d.err == nil; i++ {
		shared := d.uint()
		rest := d.uint()
		if shared > uint64(len(prev)) || rest > uint64(len(d.b)) {
			return nil, errCorrupt
		}
		s := prev[:shared] + string(d.b[:rest])
		d.b = d.b[rest:]
		out = append(out, s)
		prev = s
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
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
