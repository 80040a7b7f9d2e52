package graph

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"
)

// replaceEdges computes the difference between the stored edges of typ (as
// seen by snap) and edges, and applies it one operation at a time.
func replaceEdges(ctx context.Context, snap *badger.Txn, typ EdgeType, edges []Edge, apply func(func(*writer) error) error) error {
	if err := typ.Valid(); err != nil {
		return err
	}
	want := make([]Edge, len(edges))
	for i, e := range edges {
		if e.Type == "" {
			e.Type = typ
		}
		if e.Type != typ {
			return fmt.Errorf("replace %s edges: edge %s has another type", typ, e.Key())
		}
		if err := e.Valid(); err != nil {
			return err
		}
		if typ.Symmetric() && e.To < e.From {
			e.From, e.To = e.To, e.From
		}
		want[i] = e
	}
	code := typ.code()
	existing := map[string][]byte{}
	prefix := []byte{prefixOut}
	it := snap.NewIterator(badger.IteratorOptions{Prefix: prefix})
	for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
		item := it.Item()
		k := item.Key()
		_, n, err := getUID(k[1:])
		if err != nil {
			it.Close()
			return err
		}
		if len(k) <= 1+n || k[1+n] != code {
			continue
		}
		v, err := item.ValueCopy(nil)
		if err != nil {
			it.Close()
			return err
		}
		if v[0]&flagMirror != 0 {
			continue
		}
		existing[string(k)] = v
	}
	it.Close()
	uids := map[string]uint64{}
	uidOf := func(id string) (uint64, bool) {
		if u, ok := uids[id]; ok {
			return u, u != 0
		}
		u, err := lookupUID(snap, id)
		if err != nil {
			u = 0
		}
		uids[id] = u
		return u, u != 0
	}
	for i, e := range want {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		md, err := encodeMetadata(e.Metadata)
		if err != nil {
			return err
		}
		fu, ok1 := uidOf(e.From)
		tu, ok2 := uidOf(e.To)
		if ok1 && ok2 {
			k := string(adjKey(prefixOut, fu, code, tu, e.Relation))
			if v, ok := existing[k]; ok {
				delete(existing, k)
				r, err := decodeRecord(v)
				if err != nil {
					return err
				}
				if sameState(r, e, md) {
					continue
				}
			}
		}
		if err := apply(func(w *writer) error { _, err := w.upsertEdge(e); return err }); err != nil {
			return err
		}
	}
	for i, k := range slices.Sorted(maps.Keys(existing)) {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		a, err := parseAdjKey([]byte(k))
		if err != nil {
			return err
		}
		if err := apply(func(w *writer) error { return w.removeAt(a.self, a.other, code, a.rel, "replaced") }); err != nil {
			return err
		}
	}
	return nil
}

// Load writes nodes and edges in bulk, for rebuilds and imports: through a
// write batch, without reading or merging stored edges. An edge that
// exists is overwritten with the given one (its times, version and
// mentions included); zero times become now, zero version and mentions
// become 1; of duplicates in edges the last wins. Nodes are created or have
// their attributes replaced. Keys are written in sorted order, which keeps
// Badger's memtables and tables cheap to build. Load is not atomic: after
// a failure, run it again.
//
// A load of 50,000 edges or more into a store that holds nothing but its
// schema (a rebuild), while no transaction of this Store is open, goes
// through Badger's stream writer, which builds the tables directly.
func (s *Store) Load(ctx context.Context, nodes []Node, edges []Edge) error {
	for _, n := range nodes {
		if _, err := NodeType(n.ID); err != nil {
			return err
		}
	}
	for _, e := range edges {
		if err := e.Valid(); err != nil {
			return err
		}
	}
	if err := s.writable(); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if err := s.roomToWrite(); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return s.guard(func() error { return s.load(ctx, nodes, edges) })
}

// load is Load on a writable store.
func (s *Store) load(ctx context.Context, nodes []Node, edges []Edge) error {
	// An empty store (as after a rebuild) is filled by Badger's stream
	// writer, which builds the tables directly; otherwise by a write batch.
	var stream bool
	var meta [][2][]byte
	if len(edges) >= s.streamMin && s.exclusive.TryLock() {
		var err error
		stream, meta, err = s.streamable()
		if err != nil || !stream {
			s.exclusive.Unlock()
		} else {
			defer s.exclusive.Unlock()
		}
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
	}
	if !stream {
		s.exclusive.RLock()
		defer s.exclusive.RUnlock()
	}
	var snap *badger.Txn
	if !stream {
		snap = s.db.NewTransaction(false)
		defer snap.Discard()
	}

	// Intern every id: existing ones keep their uid.
	type newNode struct {
		id    string
		uid   uint64
		attrs map[string]string
		write bool
	}
	uids := make(map[string]int, len(nodes)+len(edges)/4) // id → index in all
	var all []newNode
	intern := func(id string, attrs map[string]string, set bool) (uint64, error) {
		if i, ok := uids[id]; ok {
			if set {
				all[i].attrs, all[i].write = attrs, true
			}
			return all[i].uid, nil
		}
		var u uint64
		err := ErrNotFound
		if !stream {
			u, err = lookupUID(snap, id)
		}
		fresh := false
		switch {
		case err == nil:
		case err == ErrNotFound:
			u, fresh = s.nextUID.Add(1), true
		default:
			return 0, err
		}
		uids[id] = len(all)
		all = append(all, newNode{id: id, uid: u, attrs: attrs, write: set || fresh})
		if fresh {
			all[len(all)-1].uid = u
		}
		return u, nil
	}
	for i, n := range nodes {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if _, err := intern(n.ID, n.Attrs, true); err != nil {
			return fmt.Errorf("load: %w", err)
		}
	}
	type entry struct {
		a, b  uint64
		rel   string
		code  byte
		flags byte // flagMirror for a mirror entry
		edge  int32
	}
	outs := make([]entry, 0, len(edges))
	ins := make([]entry, 0, len(edges))
	for i, e := range edges {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		k := e.Key().canonical()
		f, err := intern(k.From, nil, false)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		t, err := intern(k.To, nil, false)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		c := k.Type.code()
		outs = append(outs, entry{f, t, k.Relation, c, 0, int32(i)})
		ins = append(ins, entry{t, f, k.Relation, c, 0, int32(i)})
		if k.Type.Symmetric() {
			outs = append(outs, entry{t, f, k.Relation, c, flagMirror, int32(i)})
			ins = append(ins, entry{f, t, k.Relation, c, flagMirror, int32(i)})
		}
	}
	byKey := func(x, y entry) int {
		return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.code, y.code), cmp.Compare(x.b, y.b), strings.Compare(x.rel, y.rel))
	}

	var w bulkWriter
	if stream {
		sw, err := newStreamLoad(s.db)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		w = sw
	} else {
		w = newBatchLoad(s.db, s.roomToWrite)
	}
	defer w.cancel()
	put := w.put
	slices.SortFunc(all, func(x, y newNode) int { return strings.Compare(x.id, y.id) })
	for _, n := range all {
		if n.write {
			if err := put(idKey(n.id), putUID(nil, n.uid)); err != nil {
				return fmt.Errorf("load: %w", err)
			}
		}
	}
	if stream { // the stream starts from nothing: keep the meta keys
		for _, kv := range meta {
			if err := put(kv[0], kv[1]); err != nil {
				return fmt.Errorf("load: %w", err)
			}
		}
	}
	slices.SortFunc(all, func(x, y newNode) int { return cmp.Compare(x.uid, y.uid) })
	for _, n := range all {
		if n.write {
			if err := put(nodeKey(n.uid), encodeNode(n.id, n.attrs)); err != nil {
				return fmt.Errorf("load: %w", err)
			}
		}
	}
	now := nanos(timeNow())
	var key []byte
	// Sort the in-edges on another core while the out-edges are sorted
	// and written.
	sortEntries := func(es []entry) {
		slices.SortFunc(es, func(x, y entry) int { return cmp.Or(byKey(x, y), cmp.Compare(x.edge, y.edge)) })
	}
	insSorted := make(chan struct{})
	go func() {
		defer close(insSorted)
		sortEntries(ins)
	}()
	defer func() { <-insSorted }()
	sortEntries(outs)
	for _, side := range []struct {
		prefix byte
		es     []entry
	}{{prefixOut, outs}, {prefixIn, ins}} {
		if side.prefix == prefixIn {
			<-insSorted
		}
		for i, x := range side.es {
			if i+1 < len(side.es) && byKey(x, side.es[i+1]) == 0 {
				continue // a later duplicate wins
			}
			if i%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			e := edges[x.edge]
			key = key[:0]
			key = append(key, side.prefix)
			key = putUID(key, x.a)
			key = append(key, x.code)
			key = putUID(key, x.b)
			key = append(key, x.rel...)
			inv := byte(0)
			if e.InvalidatedAt != nil {
				inv = flagInvalid
			}
			var val []byte
			if side.prefix == prefixOut && x.flags&flagMirror == 0 {
				md, err := encodeMetadata(e.Metadata)
				if err != nil {
					return err
				}
				r := recordOf(e, md)
				if r.created == 0 {
					r.created = now
				}
				if r.updated == 0 {
					r.updated = r.created
				}
				r.version = max(r.version, 1)
				r.mentions = max(r.mentions, 1)
				val = r.encode()
			} else {
				val = adjValue(inv|x.flags, e.Weight)
			}
			if err := put(key, val); err != nil {
				return fmt.Errorf("load: %w", err)
			}
		}
	}
	if err := w.flush(); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return nil
}

// streamable reports whether the store holds nothing but meta keys, which
// it returns, so that Load may use the stream writer.
func (s *Store) streamable() (bool, [][2][]byte, error) {
	if s.db.Opts().InMemory {
		return false, nil, nil
	}
	var meta [][2][]byte
	ok := true
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			if item.Key()[0] != prefixMeta {
				ok = false
				return nil
			}
			v, err := item.ValueCopy(nil)
			if err != nil {
				return err
			}
			meta = append(meta, [2][]byte{item.KeyCopy(nil), v})
		}
		return nil
	})
	return ok && err == nil, meta, err
}

// defaultStreamMin is the smallest load worth the stream writer's fixed
// costs (dropping, syncing and replacing the database's tables).
const defaultStreamMin = 50_000

// bulkWriter takes keys in ascending order.
type bulkWriter interface {
	put(k, v []byte) error
	flush() error
	cancel()
}

// batchLoad writes through a pipe, copying keys and values into
// large slabs (the batch keeps them until it commits).
type batchLoad struct {
	wb   *pipe
	slab []byte
}

func newBatchLoad(db *badger.DB, room func() error) *batchLoad {
	return &batchLoad{wb: newPipe(db, room)}
}

func (b *batchLoad) put(k, v []byte) error {
	if cap(b.slab)-len(b.slab) < len(k)+len(v) {
		b.slab = make([]byte, 0, max(1<<20, len(k)+len(v)))
	}
	off := len(b.slab)
	b.slab = append(b.slab, k...)
	b.slab = append(b.slab, v...)
	return b.wb.Set(b.slab[off:off+len(k):off+len(k)], b.slab[off+len(k):len(b.slab):len(b.slab)])
}

func (b *batchLoad) flush() error { return b.wb.Flush() }
func (b *batchLoad) cancel()      { b.wb.Cancel() }

// streamLoad writes sorted keys through Badger's StreamWriter, which
// replaces the whole (empty) database with them.
type streamLoad struct {
	sw   *badger.StreamWriter
	buf  *z.Buffer
	kv   pb.KV
	done bool
}

const streamChunk = 16 << 20

func newStreamLoad(db *badger.DB) (*streamLoad, error) {
	sw := db.NewStreamWriter()
	if err := sw.Prepare(); err != nil {
		sw.Cancel()
		return nil, err
	}
	return &streamLoad{sw: sw, buf: z.NewBuffer(streamChunk+(1<<20), "graph.Load")}, nil
}

func (l *streamLoad) put(k, v []byte) error {
	l.kv.Key, l.kv.Value, l.kv.Version = k, v, 1
	badger.KVToBuffer(&l.kv, l.buf)
	if l.buf.LenNoPadding() >= streamChunk {
		return l.write()
	}
	return nil
}

func (l *streamLoad) write() error {
	if l.buf.LenNoPadding() == 0 {
		return nil
	}
	err := l.sw.Write(l.buf)
	l.buf.Reset()
	return err
}

func (l *streamLoad) flush() error {
	if err := l.write(); err != nil {
		return err
	}
	l.done = true
	return l.sw.Flush()
}

func (l *streamLoad) cancel() {
	if !l.done {
		l.sw.Cancel()
	}
	l.buf.Release()
}
