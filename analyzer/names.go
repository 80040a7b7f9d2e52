package analyzer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lorehq/lore/graph"
)

// The name index maps a symbol name to the files that declare it, for
// relocating moved symbols. It is kept in nameBuckets buckets (a hash of
// the name picks the bucket), each a sorted list of (name, path) pairs: a
// few thousand values instead of one key per name and file, which a cold
// index of a large repository writes much faster.
//
// A bucket is stored in one or more parts, read in key order and merged:
// the base under the bucket's key, and later parts under the bucket's key,
// a dot and a sequence number that grows from run to run (nameSeqKey). A
// first index writes its pairs as they come, a part per bucket whenever
// nameFlushAt pairs are pending, so that it holds a bounded number (the
// first index of a repository of more than a million names leaves more
// than nameMaxParts parts); a later run writes for each bucket it changes
// a part with the pairs added and removed (a delta), so that its cost
// follows the change, and folds a bucket's parts into one base once it
// would have nameMaxParts of them.
const (
	nameBuckets  = 4096
	nameFlushAt  = 1 << 17
	nameMaxParts = 8
)

// nameSeqKey is the key in nsState of the last sequence number a run took
// for its parts.
const nameSeqKey = "nameseq"

// nameBucket is the record of name: bucketKey of its bucketOf.
func nameBucket(name string) string { return bucketKey(bucketOf(name)) }

// bucketOf is the bucket of name: FNV-1a of the name modulo nameBuckets.
func bucketOf(name string) uint16 {
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= 16777619
	}
	return uint16(h % nameBuckets)
}

// bucketKey is the key of bucket v: three hex digits, which sort as the
// numbers do.
func bucketKey(v uint16) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[v>>8&15], digits[v>>4&15], digits[v&15]})
}

// partKey is the key of the n-th part a run with sequence number seq
// writes for bucket.
func partKey(bucket string, seq uint64, n int) string {
	return fmt.Sprintf("%s.%012x%04x", bucket, seq, n)
}

// nameIndex collects the changes of one update to the name index.
type nameIndex struct {
	cold    bool                       // nothing stored yet: no need to read buckets back
	fresh   bool                       // the store holds nothing: no stale parts to remove (see flush)
	adds    [][]nameEntry              // by bucket (nil until learn): names learnt and not yet written
	dels    map[string]map[string]bool // bucket key -> "name\x00path"
	pending int                        // pairs in adds
	flushAt int                        // pairs pending at which a first index flushes
	seq     uint64                     // this run's sequence number (see begin)
	flushes int                        // parts written per bucket so far (cold)
}

func newNameIndex(cold bool) *nameIndex {
	return &nameIndex{cold: cold, dels: map[string]map[string]bool{}, flushAt: nameFlushAt}
}

// begin takes the run's sequence number for its parts, in the transaction
// that marks the run as running: a run cut short leaves its number taken,
// and the next takes another.
func (x *nameIndex) begin(tx *graph.Tx) error {
	v, err := tx.Get(nsState, nameSeqKey)
	if err != nil && !errors.Is(err, graph.ErrNotFound) {
		return err
	}
	return tx.Set(nsState, nameSeqKey, x.take(v))
}

// take takes the sequence number after last, the stored record of the
// last one taken (nil when none was), and returns its record.
func (x *nameIndex) take(last []byte) []byte {
	d := dec{b: last}
	x.seq = 1
	if len(last) > 0 {
		if x.seq = d.uint() + 1; d.err != nil {
			x.seq = 1
		}
	}
	e := enc{}
	e.uint(x.seq)
	return e.b
}

// nameEntry is a learnt (name, path) pair; it shares the strings of the
// symbol and the path, and becomes "name\x00path" only when its bucket is
// written, so that a cold index does not hold a new string per symbol.
type nameEntry struct{ name, path string }

// fileNames lists the names of a parsed file's symbols with their
// buckets; workers compute it so that the writer only appends (learn). A
// name declared twice is listed twice: a bucket's pairs are made distinct
// as it is written (sortEntries), which costs less than a set per file.
func fileNames(p string, syms []Symbol) []bucketed {
	out := make([]bucketed, len(syms))
	for i, s := range syms {
		out[i] = bucketed{bucketOf(s.Name), nameEntry{s.Name, p}}
	}
	return out
}

type bucketed struct {
	bucket uint16
	e      nameEntry
}

// learn records the names of a parsed file (from fileNames).
func (x *nameIndex) learn(names []bucketed) {
	if x.adds == nil {
		x.adds = make([][]nameEntry, nameBuckets)
	}
	for _, n := range names {
		x.adds[n.bucket] = append(x.adds[n.bucket], n.e)
	}
	x.pending += len(names)
}

// full reports whether a first index holds enough pairs to flush.
func (x *nameIndex) full() bool { return x.cold && x.pending >= x.flushAt }

// flush writes the pairs learnt by a first index, a part per bucket, and
// forgets them. The first flush writes the bases, after removing what an
// interrupted first index may have left.
func (x *nameIndex) flush(store *graph.Store, b records) error {
	if x.flushes == 0 && !x.fresh {
		var stale []string
		err := store.View(func(tx *graph.Tx) error {
			return tx.Keys(nsNames, "", func(k string) error {
				stale = append(stale, k)
				return nil
			})
		})
		if err != nil {
			return fmt.Errorf("name index: %w", err)
		}
		for _, k := range stale {
			if err := b.Delete(nsNames, k); err != nil {
				return err
			}
		}
	}
	// Buckets in order, so keys in order: cheaper for Badger to take in.
	for v, entries := range x.adds {
		if len(entries) == 0 {
			continue
		}
		key := bucketKey(uint16(v))
		if x.flushes > 0 {
			key = partKey(key, x.seq, x.flushes)
		}
		if err := b.SetOwned(nsNames, key, encodeNames(sortEntries(entries))); err != nil {
			return err
		}
		// The record is a copy: the slice takes the next flush's pairs.
		clear(entries[:cap(entries)])
		x.adds[v] = entries[:0]
	}
	x.flushes++
	x.pending = 0
	return nil
}

func sortEntries(entries []nameEntry) []nameEntry {
	slices.SortFunc(entries, func(a, b nameEntry) int {
		// Paths only for equal names: they share long prefixes.
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	return slices.Compact(entries)
}

// forget drops the stored names of p (before p is parsed again or
// removed), unless they are exactly the names of keep, the file's names
// now: then its entries stand, learn is not needed, and kept is set. It
// returns p's stored package-level names.
func (x *nameIndex) forget(store *graph.Store, p string, keep []bucketed) (top []string, kept bool, err error) {
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

// sameNames reports whether syms have exactly the names of names (from
// fileNames), as sets.
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

// write stores what is left to store: a first index's pairs not yet
// flushed, or for each bucket that a later run changed a delta part of
// the pairs it added and removed, or the bucket folded into one base when
// it has nameMaxParts parts. Pairs both removed and added (a file parsed
// again that declares a name it did) are left alone. Call it once.
func (x *nameIndex) write(store *graph.Store, b records) error {
	if x.cold {
		defer func() { x.adds = nil }() // nothing is learnt after
		if x.pending == 0 && x.flushes > 0 {
			return nil
		}
		return x.flush(store, b)
	}
	adds := map[string][]nameEntry{} // bucket key -> pairs learnt
	for v, entries := range x.adds {
		if len(entries) > 0 {
			adds[bucketKey(uint16(v))] = entries
		}
	}
	x.adds = nil
	touched := make([]string, 0, len(adds)+len(x.dels))
	for k := range adds {
		touched = append(touched, k)
	}
	for k := range x.dels {
		if _, ok := adds[k]; !ok {
			touched = append(touched, k)
		}
	}
	if len(touched) == 0 {
		return nil
	}
	sort.Strings(touched)
	parts := map[string]int{} // bucket -> parts stored
	err := store.View(func(tx *graph.Tx) error {
		return tx.Keys(nsNames, "", func(k string) error {
			parts[k[:min(len(k), len("000"))]]++ // the bucket of a base or a part
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("name index: %w", err)
	}
	for _, k := range touched {
		var added, dels []nameEntry
		for _, n := range adds[k] {
			if !x.dels[k][n.name+"\x00"+n.path] {
				added = append(added, n)
			}
		}
		learnt := make(map[string]bool, len(adds[k]))
		for _, n := range adds[k] {
			learnt[n.name+"\x00"+n.path] = true
		}
		for s := range x.dels[k] {
			if !learnt[s] {
				name, p, _ := strings.Cut(s, "\x00")
				dels = append(dels, nameEntry{name, p})
			}
		}
		if len(added) == 0 && len(dels) == 0 {
			continue
		}
		if parts[k]+1 < nameMaxParts {
			if err := b.SetOwned(nsNames, partKey(k, x.seq, 0), encodeDelta(sortEntries(added), sortEntries(dels))); err != nil {
				return err
			}
			continue
		}
		if err := fold(store, b, k, added, dels); err != nil {
			return err
		}
	}
	return nil
}

// fold rewrites bucket k as one base: its stored parts merged, with adds
// added and dels removed.
func fold(store *graph.Store, b records, k string, adds, dels []nameEntry) error {
	set := map[string]bool{}
	var keys []string
	err := store.View(func(tx *graph.Tx) error {
		return tx.Scan(nsNames, k, func(key string, v []byte) error {
			keys = append(keys, key)
			return mergePart(set, v)
		})
	})
	if err != nil && !errors.Is(err, errCorrupt) {
		return fmt.Errorf("name index: %w", err)
	}
	for _, n := range adds {
		set[n.name+"\x00"+n.path] = true
	}
	for _, n := range dels {
		delete(set, n.name+"\x00"+n.path)
	}
	for _, key := range keys {
		if key != k {
			if err := b.Delete(nsNames, key); err != nil {
				return err
			}
		}
	}
	if len(set) == 0 {
		return b.Delete(nsNames, k)
	}
	entries := make([]nameEntry, 0, len(set))
	for s := range set {
		name, p, _ := strings.Cut(s, "\x00")
		entries = append(entries, nameEntry{name, p})
	}
	return b.SetOwned(nsNames, k, encodeNames(sortEntries(entries)))
}

// mergePart applies one stored part of a bucket to set: its pairs added,
// a delta's pairs removed.
func mergePart(set map[string]bool, v []byte) error {
	adds, dels, err := decodePart(v)
	if err != nil {
		return err
	}
	for _, s := range adds {
		set[s] = true
	}
	for _, s := range dels {
		delete(set, s)
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

// deltaFormat is the record format of a later part of a bucket (see
// nameBuckets): the pairs added and the pairs removed, each a bucket record
// of namesFormat, the first preceded by its length.
const deltaFormat = 3

func encodeDelta(adds, dels []nameEntry) []byte {
	a := encodeNames(adds)
	e := enc{b: make([]byte, 1, 1+binary.MaxVarintLen64+len(a))}
	e.b[0] = deltaFormat
	e.uint(uint64(len(a)))
	e.b = append(e.b, a...)
	e.b = append(e.b, encodeNames(dels)...)
	return e.b
}

// decodePart returns the pairs a stored part of a bucket adds and removes
// (only a delta removes any), as "name\x00path" strings.
func decodePart(v []byte) (adds, dels []string, err error) {
	if len(v) == 0 || v[0] != deltaFormat {
		adds, err = decodeNames(v)
		return adds, nil, err
	}
	d := dec{b: v[1:]}
	n := d.uint()
	if d.err != nil || n > uint64(len(d.b)) {
		return nil, nil, errCorrupt
	}
	if adds, err = decodeNames(d.b[:n]); err != nil {
		return nil, nil, err
	}
	if dels, err = decodeNames(d.b[n:]); err != nil {
		return nil, nil, err
	}
	return adds, dels, nil
}

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
	prefix := name + "\x00"
	set := map[string]bool{}
	err := tx.Scan(nsNames, nameBucket(name), func(_ string, v []byte) error {
		adds, dels, err := decodePart(v)
		if err != nil {
			return err
		}
		for i := sort.SearchStrings(adds, prefix); i < len(adds) && strings.HasPrefix(adds[i], prefix); i++ {
			set[adds[i][len(prefix):]] = true
		}
		for i := sort.SearchStrings(dels, prefix); i < len(dels) && strings.HasPrefix(dels[i], prefix); i++ {
			set[dels[i][len(prefix):]] = false
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for p, ok := range set {
		if ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}
