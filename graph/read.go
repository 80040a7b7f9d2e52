package graph

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"
)

// Direction selects which edges of a node a query follows. The zero value
// is Both.
type Direction int

// Directions.
const (
	Both Direction = iota
	Out
	In
)

func (d Direction) String() string {
	switch d {
	case Out:
		return "out"
	case In:
		return "in"
	default:
		return "both"
	}
}

// ParseDirection parses "out", "in" or "both" (or "").
func ParseDirection(s string) (Direction, error) {
	switch s {
	case "", "both":
		return Both, nil
	case "out":
		return Out, nil
	case "in":
		return In, nil
	}
	return Both, fmt.Errorf("invalid direction %q: want out, in or both", s)
}

// MarshalText encodes d as "out", "in" or "both".
func (d Direction) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText is the inverse of MarshalText.
func (d *Direction) UnmarshalText(b []byte) error {
	v, err := ParseDirection(string(b))
	*d = v
	return err
}

// Filter selects edges. The zero value selects every valid edge.
type Filter struct {
	// Types keeps only these edge types (all when empty).
	Types []EdgeType
	// Relations keeps only LINKS_TO edges with these relations (and edges
	// of other types) when not empty.
	Relations []string
	// MinWeight drops edges lighter than this.
	MinWeight float64
	// IncludeInvalidated keeps soft-deleted edges.
	IncludeInvalidated bool
}

// compiled is a Filter ready for matching adjacency entries.
type compiled struct {
	codes []byte // sorted type codes, nil for all
	rels  map[string]bool
	min   float64
	inv   bool
}

func (f Filter) compile() (compiled, error) {
	c := compiled{min: f.MinWeight, inv: f.IncludeInvalidated}
	for _, t := range f.Types {
		if err := t.Valid(); err != nil {
			return c, err
		}
		c.codes = append(c.codes, t.code())
	}
	slices.Sort(c.codes)
	c.codes = slices.Compact(c.codes)
	if len(f.Relations) > 0 {
		c.rels = map[string]bool{}
		for _, r := range f.Relations {
			if err := ValidRelation(r); err != nil {
				return c, err
			}
			c.rels[r] = true
		}
	}
	return c, nil
}

func (c *compiled) match(a *adj) bool {
	if a.flags&flagInvalid != 0 && !c.inv {
		return false
	}
	if a.weight < c.min {
		return false
	}
	if c.rels != nil && a.typ == LinksTo.code() && !c.rels[a.rel] {
		return false
	}
	return true
}

// reader reads the graph in one transaction, caching uid → id.
type reader struct {
	s     *Store
	txn   *badger.Txn
	names map[uint64]string
	attrs map[uint64][]byte   // JSON attributes of nodes read by name
	its   [2]*badger.Iterator // key-only iterators over "o" and "r"
}

func newReader(s *Store, txn *badger.Txn) *reader {
	return &reader{s: s, txn: txn, names: map[uint64]string{}, attrs: map[uint64][]byte{}}
}

func (r *reader) close() {
	for i, it := range r.its {
		if it != nil {
			it.Close()
			r.its[i] = nil
		}
	}
}

func (r *reader) uid(id string) (uint64, error) {
	if _, err := NodeType(id); err != nil {
		return 0, err
	}
	u, err := lookupUID(r.txn, id)
	if errors.Is(err, ErrNotFound) {
		return 0, fmt.Errorf("node %s: %w", id, ErrNotFound)
	}
	if err == nil {
		r.names[u] = id
	}
	return u, err
}

func (r *reader) name(u uint64) (string, error) {
	if s, ok := r.names[u]; ok {
		return s, nil
	}
	if id, ok := r.s.names.load(u); ok {
		r.names[u] = id
		return id, nil
	}
	return r.read(u)
}

// read reads the record of node u into the caches.
func (r *reader) read(u uint64) (string, error) {
	it, err := r.txn.Get(nodeKey(u))
	if err != nil {
		return "", fmt.Errorf("node #%d: %w", u, err)
	}
	var id string
	err = it.Value(func(v []byte) error {
		var rest []byte
		var err error
		id, rest, err = decodeNodeID(v)
		if len(rest) > 0 {
			r.attrs[u] = bytes.Clone(rest)
		}
		return err
	})
	r.names[u] = id
	if _, ok := r.attrs[u]; !ok {
		r.attrs[u] = nil // mark as read
	}
	if err == nil {
		r.s.names.store(u, id)
	}
	return id, err
}

// node returns node u.
func (r *reader) node(u uint64) (Node, error) {
	if _, ok := r.attrs[u]; !ok {
		if _, err := r.read(u); err != nil {
			return Node{}, err
		}
	}
	n := Node{ID: r.names[u]}
	n.Type, _ = NodeType(n.ID)
	if b := r.attrs[u]; len(b) > 0 {
		if err := json.Unmarshal(b, &n.Attrs); err != nil {
			return Node{}, errCorrupt
		}
	}
	return n, nil
}

// adjacent calls fn for the adjacency entries of u under prefix (prefixOut
// or prefixIn) whose type is in codes (all when nil), in key order. a is
// reused between calls; a.raw is only valid during the call.
func (r *reader) adjacent(prefix byte, u uint64, codes []byte, fn func(a *adj) error) error {
	i := 0
	if prefix == prefixIn {
		i = 1
	}
	it := r.its[i]
	if it == nil {
		it = r.txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefix}})
		r.its[i] = it
	}
	base := putUID(make([]byte, 0, 16), u)
	base = append([]byte{prefix}, base...)
	var a adj
	scan := func(p []byte) error {
		for it.Seek(p); it.ValidForPrefix(p); it.Next() {
			item := it.Item()
			k := item.Key()[len(base):]
			if len(k) < 2 {
				return errCorrupt
			}
			a.self, a.typ = u, k[0]
			var n int
			var err error
			if a.other, n, err = getUID(k[1:]); err != nil {
				return err
			}
			if rest := k[1+n:]; len(rest) != len(a.rel) || string(rest) != a.rel {
				a.rel = string(rest)
			}
			err = item.Value(func(v []byte) error {
				if err := parseAdjValue(v, &a); err != nil {
					return err
				}
				a.raw = v
				return fn(&a)
			})
			a.raw = nil
			if err != nil {
				return err
			}
		}
		return nil
	}
	if codes == nil {
		return scan(base)
	}
	for _, c := range codes {
		if err := scan(append(base[:len(base):len(base)], c)); err != nil {
			return err
		}
	}
	return nil
}

// edgeAt reads the full edge stored under o<from><code><to><rel>.
func (r *reader) edgeAt(from, to uint64, code byte, rel string) (Edge, error) {
	it, err := r.txn.Get(adjKey(prefixOut, from, code, to, rel))
	if err != nil {
		return Edge{}, fmt.Errorf("edge record: %w", err)
	}
	var rec edgeRecord
	if err := it.Value(func(v []byte) error {
		var err error
		rec, err = decodeRecord(v)
		return err
	}); err != nil {
		return Edge{}, err
	}
	fid, err := r.name(from)
	if err != nil {
		return Edge{}, err
	}
	tid, err := r.name(to)
	if err != nil {
		return Edge{}, err
	}
	return rec.edge(EdgeKey{Type: typeOf(code), From: fid, To: tid, Relation: rel})
}

// Node returns the node with id, or ErrNotFound.
func (tx *Tx) Node(id string) (Node, error) {
	r := newReader(tx.s, tx.txn)
	u, err := r.uid(id)
	if err != nil {
		return Node{}, err
	}
	it, err := tx.txn.Get(nodeKey(u))
	if err != nil {
		return Node{}, fmt.Errorf("node %s: %w", id, err)
	}
	var n Node
	err = it.Value(func(v []byte) error {
		var err error
		n, err = decodeNode(v)
		return err
	})
	return n, err
}

// Edge returns the edge with key k (invalidated or not), or ErrNotFound.
func (tx *Tx) Edge(k EdgeKey) (Edge, error) {
	if err := k.Valid(); err != nil {
		return Edge{}, err
	}
	k = k.canonical()
	r := newReader(tx.s, tx.txn)
	f, err := r.uid(k.From)
	if err != nil {
		return Edge{}, err
	}
	t, err := r.uid(k.To)
	if err != nil {
		return Edge{}, err
	}
	e, err := r.edgeAt(f, t, k.Type.code(), k.Relation)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return Edge{}, fmt.Errorf("edge %s: %w", k, ErrNotFound)
	}
	return e, err
}

// Edges returns the edges of node id in direction dir that pass f, sorted
// by type, from, to and relation. A symmetric edge counts as both an out-
// and an in-edge of each end, and is returned once.
func (tx *Tx) Edges(id string, dir Direction, f Filter) ([]Edge, error) {
	c, err := f.compile()
	if err != nil {
		return nil, err
	}
	r := newReader(tx.s, tx.txn)
	defer r.close()
	u, err := r.uid(id)
	if err != nil {
		return nil, err
	}
	type ends struct {
		from, to uint64
		code     byte
		rel      string
	}
	seen := map[ends]bool{}
	var out []Edge
	for _, p := range prefixesFor(dir) {
		var todo []ends
		err := r.adjacent(p, u, c.codes, func(a *adj) error {
			if !c.match(a) {
				return nil
			}
			f, t := canonicalEnds(p, *a)
			e := ends{f, t, a.typ, a.rel}
			if !seen[e] {
				seen[e] = true
				todo = append(todo, e)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, e := range todo {
			edge, err := r.edgeAt(e.from, e.to, e.code, e.rel)
			if err != nil {
				return nil, err
			}
			out = append(out, edge)
		}
	}
	sortEdges(out)
	return out, nil
}

func prefixesFor(dir Direction) []byte {
	switch dir {
	case Out:
		return []byte{prefixOut}
	case In:
		return []byte{prefixIn}
	}
	return []byte{prefixOut, prefixIn}
}

func sortEdges(es []Edge) {
	slices.SortFunc(es, func(a, b Edge) int {
		return cmp.Or(strings.Compare(string(a.Type), string(b.Type)), strings.Compare(a.From, b.From),
			strings.Compare(a.To, b.To), strings.Compare(a.Relation, b.Relation))
	})
}

// Stats counts nodes and edges.
type Stats struct {
	Nodes       int              `json:"nodes"`
	Edges       int              `json:"edges"`
	Invalidated int              `json:"invalidated"`
	NodesByType map[string]int   `json:"nodes_by_type"`
	EdgesByType map[EdgeType]int `json:"edges_by_type"`
}

// Stats counts nodes by type and edges by type (invalidated edges are
// counted in EdgesByType and, separately, in Invalidated).
func (tx *Tx) Stats() (Stats, error) {
	st := Stats{NodesByType: map[string]int{}, EdgesByType: map[EdgeType]int{}}
	it := tx.txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefixNode}})
	for it.Seek([]byte{prefixNode}); it.ValidForPrefix([]byte{prefixNode}); it.Next() {
		err := it.Item().Value(func(v []byte) error {
			id, _, err := decodeNodeID(v)
			if err != nil {
				return err
			}
			t, _ := NodeType(id)
			st.NodesByType[t]++
			st.Nodes++
			return nil
		})
		if err != nil {
			it.Close()
			return st, err
		}
	}
	it.Close()
	it = tx.txn.NewIterator(badger.IteratorOptions{Prefix: []byte{prefixOut}})
	defer it.Close()
	for it.Seek([]byte{prefixOut}); it.ValidForPrefix([]byte{prefixOut}); it.Next() {
		item := it.Item()
		k := item.Key()
		_, n, err := getUID(k[1:])
		if err != nil || len(k) <= 1+n {
			return st, errCorrupt
		}
		t := typeOf(k[1+n])
		err = item.Value(func(v []byte) error {
			if len(v) == 0 {
				return errCorrupt
			}
			if v[0]&flagMirror != 0 {
				return nil
			}
			st.Edges++
			st.EdgesByType[t]++
			if v[0]&flagInvalid != 0 {
				st.Invalidated++
			}
			return nil
		})
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// maxCachedNames bounds the Store's uid → id cache (about 100 bytes each).
const maxCachedNames = 1 << 20

// nameCache maps uids to ids for every transaction of a Store, filled as
// reads see nodes. A uid names one id for good: a removed node's uid is
// never handed out again, so entries need no invalidation. It is sharded
// by uid under read-write locks: a sync.Map would box every uid in an
// interface to look it up, on the hot path of every traversal.
type nameCache struct {
	shards [16]struct {
		mu sync.RWMutex
		m  map[uint64]string
	}
	n atomic.Int64
}

func (c *nameCache) load(u uint64) (string, bool) {
	sh := &c.shards[u%uint64(len(c.shards))]
	sh.mu.RLock()
	id, ok := sh.m[u]
	sh.mu.RUnlock()
	return id, ok
}

func (c *nameCache) store(u uint64, id string) {
	if c.n.Load() >= maxCachedNames {
		return
	}
	sh := &c.shards[u%uint64(len(c.shards))]
	sh.mu.Lock()
	if _, ok := sh.m[u]; !ok {
		if sh.m == nil {
			sh.m = map[uint64]string{}
		}
		sh.m[u] = id
		c.n.Add(1)
	}
	sh.mu.Unlock()
}

func (c *nameCache) clear() {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		sh.m = nil
		sh.mu.Unlock()
	}
	c.n.Store(0)
}
