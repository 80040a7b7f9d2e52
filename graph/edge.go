package graph

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// Node is a vertex of the graph. Type is derived from the id's prefix.
type Node struct {
	ID    string            `json:"id"`
	Type  string            `json:"type"`
	Attrs map[string]string `json:"attrs"`
}

// Edge is a typed, weighted edge. The JSON field names are part of lore's
// stable surface (DESIGN.md §5).
//
// Weight is stored as given: a Go caller that means "a plain link" sets 1.
// (JSON import defaults a missing weight to 1.)
type Edge struct {
	Type          EdgeType       `json:"type"`
	From          string         `json:"from"`
	To            string         `json:"to"`
	Relation      string         `json:"relation"`
	Weight        float64        `json:"weight"`
	Metadata      map[string]any `json:"metadata"`
	CreatedAt     time.Time      `json:"created_at"`
	UpdatedAt     time.Time      `json:"updated_at"`
	InvalidatedAt *time.Time     `json:"invalidated_at"`
	// InvalidReason says why the edge was invalidated (empty when valid).
	InvalidReason string `json:"invalidated_reason,omitempty"`
	Version       int    `json:"version"`
	Mentions      int    `json:"mentions"`
}

// Key returns the identity of e.
func (e Edge) Key() EdgeKey {
	return EdgeKey{Type: e.Type, From: e.From, To: e.To, Relation: e.Relation}
}

// Invalidated reports whether e is soft-deleted.
func (e Edge) Invalidated() bool { return e.InvalidatedAt != nil }

// Valid checks every rule an edge must follow; the error wraps one of
// ErrEdgeType, ErrNodeID, ErrSelfLink, ErrRelation or ErrWeight.
func (e Edge) Valid() error {
	if err := e.Key().Valid(); err != nil {
		return err
	}
	if err := ValidWeight(e.Weight); err != nil {
		return fmt.Errorf("%s: %w", e.Key(), err)
	}
	return nil
}

func (r *edgeRecord) edge(k EdgeKey) (Edge, error) {
	md, err := decodeMetadata(r.metadata)
	if err != nil {
		return Edge{}, err
	}
	e := Edge{
		Type: k.Type, From: k.From, To: k.To, Relation: k.Relation,
		Weight: r.weight, Metadata: md,
		CreatedAt: fromNanos(r.created), UpdatedAt: fromNanos(r.updated),
		Version: int(r.version), Mentions: int(r.mentions),
	}
	if r.flags&flagInvalid != 0 {
		t := fromNanos(r.invalidated)
		e.InvalidatedAt = &t
		e.InvalidReason = r.reason
	}
	return e, nil
}

func recordOf(e Edge, md []byte) edgeRecord {
	r := edgeRecord{
		weight: e.Weight, created: nanos(e.CreatedAt), updated: nanos(e.UpdatedAt),
		version: uint64(max(e.Version, 0)), mentions: uint64(max(e.Mentions, 0)), metadata: md,
	}
	if e.InvalidatedAt != nil {
		r.flags |= flagInvalid
		r.invalidated = nanos(*e.InvalidatedAt)
		r.reason = e.InvalidReason
	}
	return r
}

// writer applies graph changes to one Badger transaction. Tx uses one for
// its whole life; Batch rolls it over when it grows large.
type writer struct {
	s   *Store
	txn *badger.Txn
	now time.Time
	// entries and bytes written so far, to commit a Batch's transaction
	// before Badger refuses it.
	n, size int64
}

func (w *writer) set(k, v []byte) error {
	w.n++
	w.size += int64(len(k) + len(v) + 20)
	if err := w.txn.Set(k, v); err != nil {
		return fmt.Errorf("graph write: %w", err)
	}
	return nil
}

func (w *writer) del(k []byte) error {
	w.n++
	w.size += int64(len(k) + 20)
	if err := w.txn.Delete(k); err != nil {
		return fmt.Errorf("graph write: %w", err)
	}
	return nil
}

func (w *writer) get(k []byte) ([]byte, error) {
	it, err := w.txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return it.ValueCopy(nil)
}

func (w *writer) lookup(id string) (uint64, error) { return lookupUID(w.txn, id) }

func lookupUID(txn *badger.Txn, id string) (uint64, error) {
	it, err := txn.Get(idKey(id))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	var uid uint64
	err = it.Value(func(v []byte) error {
		var err error
		uid, _, err = getUID(v)
		return err
	})
	return uid, err
}

// intern returns the uid of id, creating the node when it is new.
func (w *writer) intern(id string) (uint64, error) {
	uid, err := w.lookup(id)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return uid, err
	}
	uid = w.s.nextUID.Add(1)
	if err := w.set(idKey(id), putUID(nil, uid)); err != nil {
		return 0, err
	}
	return uid, w.set(nodeKey(uid), encodeNode(id, nil))
}

// upsertNode creates the node or replaces its attributes.
func (w *writer) upsertNode(n Node) error {
	if _, err := NodeType(n.ID); err != nil {
		return err
	}
	uid, err := w.intern(n.ID)
	if err != nil {
		return err
	}
	return w.set(nodeKey(uid), encodeNode(n.ID, n.Attrs))
}

// located is an edge whose ends are resolved to uids.
type located struct {
	k      EdgeKey // canonical
	from   uint64
	to     uint64
	code   byte
	outKey []byte
}

// locate canonicalizes k and resolves its ends; with create it interns
// missing nodes, otherwise a missing node is ErrNotFound.
func (w *writer) locate(k EdgeKey, create bool) (located, error) {
	if err := k.Valid(); err != nil {
		return located{}, err
	}
	k = k.canonical()
	l := located{k: k, code: k.Type.code()}
	var err error
	get := w.lookup
	if create {
		get = w.intern
	}
	if l.from, err = get(k.From); err != nil {
		return l, err
	}
	if l.to, err = get(k.To); err != nil {
		return l, err
	}
	l.outKey = adjKey(prefixOut, l.from, l.code, l.to, k.Relation)
	return l, nil
}

func (w *writer) record(l located) (edgeRecord, error) {
	v, err := w.get(l.outKey)
	if err != nil {
		return edgeRecord{}, err
	}
	return decodeRecord(v)
}

// put writes every key of the edge at l with record r.
func (w *writer) put(l located, r edgeRecord) error {
	if err := w.set(l.outKey, r.encode()); err != nil {
		return err
	}
	inv := r.flags & flagInvalid
	if err := w.set(adjKey(prefixIn, l.to, l.code, l.from, l.k.Relation), adjValue(inv, r.weight)); err != nil {
		return err
	}
	if l.k.Type.Symmetric() {
		if err := w.set(adjKey(prefixOut, l.to, l.code, l.from, l.k.Relation), adjValue(inv|flagMirror, r.weight)); err != nil {
			return err
		}
		if err := w.set(adjKey(prefixIn, l.from, l.code, l.to, l.k.Relation), adjValue(inv|flagMirror, r.weight)); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) drop(l located) error {
	keys := [][]byte{l.outKey, adjKey(prefixIn, l.to, l.code, l.from, l.k.Relation)}
	if l.k.Type.Symmetric() {
		keys = append(keys, adjKey(prefixOut, l.to, l.code, l.from, l.k.Relation), adjKey(prefixIn, l.from, l.code, l.to, l.k.Relation))
	}
	for _, k := range keys {
		if err := w.del(k); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) upsertEdge(e Edge) (Edge, error) {
	if err := e.Valid(); err != nil {
		return Edge{}, err
	}
	md, err := encodeMetadata(e.Metadata)
	if err != nil {
		return Edge{}, err
	}
	l, err := w.locate(e.Key(), true)
	if err != nil {
		return Edge{}, err
	}
	now := w.now.UnixNano()
	r, err := w.record(l)
	switch {
	case errors.Is(err, ErrNotFound):
		r = edgeRecord{created: now, version: 1, mentions: 1}
	case err != nil:
		return Edge{}, err
	default:
		r.version++
		r.mentions++
		r.flags &^= flagInvalid
		r.invalidated, r.reason = 0, ""
	}
	r.updated = now
	r.weight = e.Weight
	if e.Metadata != nil {
		r.metadata = md
	}
	if err := w.put(l, r); err != nil {
		return Edge{}, err
	}
	out, err := r.edge(l.k)
	if err != nil {
		return Edge{}, err
	}
	return out, w.logChange(OpUpsert, out, "")
}

func (w *writer) removeEdge(k EdgeKey) error {
	l, err := w.locate(k, false)
	if err != nil {
		return err
	}
	r, err := w.record(l)
	if err != nil {
		return err
	}
	if err := w.drop(l); err != nil {
		return err
	}
	old, err := r.edge(l.k)
	if err != nil {
		return err
	}
	return w.logChange(OpRemove, old, "")
}

func (w *writer) setInvalid(k EdgeKey, invalid bool, reason string) (Edge, error) {
	l, err := w.locate(k, false)
	if err != nil {
		return Edge{}, err
	}
	r, err := w.record(l)
	if err != nil {
		return Edge{}, err
	}
	op := OpRestore
	if invalid {
		op = OpInvalidate
		r.flags |= flagInvalid
		r.invalidated = w.now.UnixNano()
		r.reason = reason
	} else {
		r.flags &^= flagInvalid
		r.invalidated, r.reason = 0, ""
	}
	r.updated = w.now.UnixNano()
	if err := w.put(l, r); err != nil {
		return Edge{}, err
	}
	e, err := r.edge(l.k)
	if err != nil {
		return Edge{}, err
	}
	return e, w.logChange(op, e, reason)
}

// scanKeys collects the adjacency entries under prefix.
func scanAdj(txn *badger.Txn, prefix []byte) ([]adj, error) {
	var out []adj
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	defer it.Close()
	for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
		item := it.Item()
		a, err := parseAdjKey(item.Key())
		if err != nil {
			return nil, err
		}
		if err := item.Value(func(v []byte) error { return parseAdjValue(v, &a) }); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// canonicalEnds returns (from, to) of the stored record an adjacency entry
// found under prefix belongs to.
func canonicalEnds(prefix byte, a adj) (from, to uint64) {
	mirror := a.flags&flagMirror != 0
	if (prefix == prefixOut) != mirror {
		return a.self, a.other
	}
	return a.other, a.self
}

func (w *writer) removeNode(id string) error {
	if _, err := NodeType(id); err != nil {
		return err
	}
	uid, err := w.lookup(id)
	if err != nil {
		return err
	}
	type ends struct {
		from, to uint64
		code     byte
		rel      string
	}
	seen := map[ends]bool{}
	var todo []ends
	for _, p := range []byte{prefixOut, prefixIn} {
		as, err := scanAdj(w.txn, putUID([]byte{p}, uid))
		if err != nil {
			return err
		}
		for _, a := range as {
			f, t := canonicalEnds(p, a)
			e := ends{f, t, a.typ, a.rel}
			if !seen[e] {
				seen[e] = true
				todo = append(todo, e)
			}
		}
	}
	for _, e := range todo {
		if err := w.removeAt(e.from, e.to, e.code, e.rel, "node removed: "+id); err != nil {
			return err
		}
	}
	if err := w.del(nodeKey(uid)); err != nil {
		return err
	}
	return w.del(idKey(id))
}

// prune removes every node of type typ that no edge points to (its
// out-edges go with it) and returns how many it removed.
func (w *writer) prune(typ string) (int, error) {
	if _, err := NodeType(typ + ":x"); err != nil {
		return 0, err
	}
	var orphans []string
	prefix := idKey(typ + ":")
	it := w.txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
		id := string(it.Item().Key()[1:])
		uid, err := lookupUID(w.txn, id)
		if err != nil {
			it.Close()
			return 0, err
		}
		pointed, err := hasKeys(w.txn, putUID([]byte{prefixIn}, uid))
		if err != nil {
			it.Close()
			return 0, err
		}
		if !pointed {
			orphans = append(orphans, id)
		}
	}
	it.Close()
	for _, id := range orphans {
		if err := w.removeNode(id); err != nil {
			return 0, err
		}
	}
	return len(orphans), nil
}

// pruneNodes removes each node of ids that exists and that no edge points
// to, and returns how many it removed.
func (w *writer) pruneNodes(ids []string) (int, error) {
	n := 0
	for _, id := range ids {
		uid, err := w.lookup(id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return n, err
		}
		pointed, err := hasKeys(w.txn, putUID([]byte{prefixIn}, uid))
		if err != nil {
			return n, err
		}
		if !pointed {
			if err := w.removeNode(id); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// hasKeys reports whether any key starts with prefix.
func hasKeys(txn *badger.Txn, prefix []byte) (bool, error) {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: false})
	defer it.Close()
	it.Seek(prefix)
	return it.ValidForPrefix(prefix), nil
}

// nameOf returns the id of a node uid.
func (w *writer) nameOf(u uint64) (string, error) {
	v, err := w.get(nodeKey(u))
	if err != nil {
		return "", err
	}
	id, _, err := decodeNodeID(v)
	return id, err
}

// removeAt removes the edge stored under o<from><code><to><rel>.
func (w *writer) removeAt(from, to uint64, code byte, rel, reason string) error {
	fid, err := w.nameOf(from)
	if err != nil {
		return err
	}
	tid, err := w.nameOf(to)
	if err != nil {
		return err
	}
	l := located{k: EdgeKey{Type: typeOf(code), From: fid, To: tid, Relation: rel}, from: from, to: to, code: code}
	l.outKey = adjKey(prefixOut, from, code, to, rel)
	r, err := w.record(l)
	if err != nil {
		return err
	}
	if err := w.drop(l); err != nil {
		return err
	}
	old, err := r.edge(l.k)
	if err != nil {
		return err
	}
	return w.logChange(OpRemove, old, reason)
}

// sameState reports whether the stored record already says what e says,
// so a replacing write can leave it alone.
func sameState(r edgeRecord, e Edge, md []byte) bool {
	return r.flags&flagInvalid == 0 && r.weight == e.Weight && bytes.Equal(r.metadata, md)
}

// setOutEdges makes edges the out-edges of type typ of from: new ones are
// created, changed ones upserted, unchanged ones left alone and the rest
// removed. For a symmetric type, "out-edges" are all edges touching from.
func (w *writer) setOutEdges(from string, typ EdgeType, edges []Edge) error {
	if err := typ.Valid(); err != nil {
		return err
	}
	if _, err := NodeType(from); err != nil {
		return err
	}
	edges = slices.Clone(edges)
	for i := range edges {
		e := &edges[i]
		if e.From == "" {
			e.From = from
		}
		if e.Type == "" {
			e.Type = typ
		}
		if e.Type != typ || (e.From != from && !(typ.Symmetric() && e.To == from)) {
			return fmt.Errorf("set out-edges of %s %s: edge %s does not belong", from, typ, e.Key())
		}
		if err := e.Valid(); err != nil {
			return err
		}
	}
	uid, err := w.lookup(from)
	if errors.Is(err, ErrNotFound) {
		if len(edges) == 0 {
			return nil
		}
		if uid, err = w.intern(from); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	code := typ.code()
	type other struct {
		uid uint64
		rel string
	}
	old := map[other]adj{}
	// Of a directed type, the out-entry holds the edge's whole record:
	// read with the scan, an unchanged edge costs no lookup of its own.
	var recs map[other]edgeRecord
	if !typ.Symmetric() {
		recs = map[other]edgeRecord{}
	}
	prefix := append(putUID([]byte{prefixOut}, uid), code)
	it := w.txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
		item := it.Item()
		a, err := parseAdjKey(item.Key())
		if err == nil {
			err = item.Value(func(v []byte) error {
				if err := parseAdjValue(v, &a); err != nil {
					return err
				}
				if recs != nil && a.flags&flagMirror == 0 {
					r, err := decodeRecord(v)
					if err != nil {
						return err
					}
					r.metadata = bytes.Clone(r.metadata)
					recs[other{a.other, a.rel}] = r
				}
				return nil
			})
		}
		if err != nil {
			it.Close()
			return err
		}
		old[other{a.other, a.rel}] = a
	}
	it.Close()
	for _, e := range edges {
		if e.From != from { // symmetric edge given as (x, from)
			e.From, e.To = e.To, e.From
		}
		md, err := encodeMetadata(e.Metadata)
		if err != nil {
			return err
		}
		ou, err := w.intern(e.To)
		if err != nil {
			return err
		}
		o := other{ou, e.Relation}
		if a, ok := old[o]; ok {
			delete(old, o)
			if a.flags&flagInvalid == 0 && a.weight == e.Weight {
				r, ok := recs[o]
				if !ok {
					l, err := w.locate(e.Key(), false)
					if err != nil {
						return err
					}
					if r, err = w.record(l); err != nil {
						return err
					}
				}
				if sameState(r, e, md) {
					continue
				}
			}
		}
		if _, err := w.upsertEdge(e); err != nil {
			return err
		}
	}
	rest := slices.SortedFunc(maps.Values(old), func(a, b adj) int { return cmp.Or(cmp.Compare(a.other, b.other), strings.Compare(a.rel, b.rel)) })
	for _, a := range rest {
		f, t := canonicalEnds(prefixOut, a)
		if err := w.removeAt(f, t, code, a.rel, "replaced"); err != nil {
			return err
		}
	}
	return nil
}
