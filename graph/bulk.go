package graph

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/ristretto/v2/z"
	"google.golang.org/protobuf/encoding/protowire"
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
// Badger's memtables and tables cheap to build. Nothing is written unless
// every node and edge is valid. Into a store that holds a graph, Load is
// not atomic: after a failure, run it again.
//
// A load of 50,000 edges or more into a store that holds nothing but its
// schema (a rebuild), while no transaction of this Store is open, goes
// through Badger's stream writer, which builds the tables directly; it is
// atomic (see LoadFrom).
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
	return s.guard(func() error { return s.load(ctx, len(edges) >= s.streamMin, reading(nodes, edges, -1, nil)) })
}

// reading is a read function of LoadFrom that gives nodes, then edges;
// before it gives the edge at index at, it calls hold.
func reading(nodes []Node, edges []Edge, at int, hold func()) func(node func(Node) error, edge func(Edge) error) error {
	return func(node func(Node) error, edge func(Edge) error) error {
		for _, n := range nodes {
			if err := node(n); err != nil {
				return err
			}
		}
		for i, e := range edges {
			if i == at {
				hold()
			}
			if err := edge(e); err != nil {
				return err
			}
		}
		return nil
	}
}

// streamable reports whether the store holds nothing but meta keys, which
// it returns, so that Load may use the stream writer.
func (s *Store) streamable() (bool, [][2][]byte, error) {
	if s.db.Opts().InMemory {
		return false, nil, nil
	}
	meta, ok, err := s.contents(metaBytes)
	if err != nil || !ok {
		return false, nil, err
	}
	for _, kv := range meta {
		if kv[0][0] != prefixMeta {
			return false, nil, nil
		}
	}
	return true, meta, nil
}

// metaBytes is more than the meta keys of a store and their values take.
const metaBytes = 64 << 10

// contents returns a copy of every key of the store and its value, in
// order, or false when they take more than limit bytes.
func (s *Store) contents(limit int) ([][2][]byte, bool, error) {
	var kvs [][2][]byte
	size := 0
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			if size += len(item.Key()) + int(item.ValueSize()); size > limit {
				return nil
			}
			v, err := item.ValueCopy(nil)
			if err != nil {
				return err
			}
			kvs = append(kvs, [2][]byte{item.KeyCopy(nil), v})
		}
		return nil
	})
	if err != nil || size > limit {
		return nil, false, err
	}
	return kvs, true, nil
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
// replaces the whole (empty) database with them. The keys are gathered in
// buffers that a goroutine of its own hands to the stream writer, so that
// decoding them there overlaps with making the next ones.
type streamLoad struct {
	sw     *badger.StreamWriter
	buf    *z.Buffer
	free   chan *z.Buffer // buffers to fill
	filled chan *z.Buffer // buffers to write; closed by the last
	result chan error     // the writer's first error, once filled is closed
	closed bool
	done   bool
}

const (
	streamChunk   = 1 << 20
	streamBuffers = 3
)

// newStreamLoad begins a stream load; incremental adds to the database
// (see parts) rather than replacing it.
func newStreamLoad(db *badger.DB, incremental bool) (*streamLoad, error) {
	// The stream writer's Flush stops the database's transaction oracle,
	// then waits for the last commit to be marked done. A commit made just
	// before (the schema's, at open) may still have its mark queued, and a
	// stopped oracle never takes it: the fill would wait forever (seen once
	// in CI, TestFillReadersSeeAllOrNothing). A read transaction waits
	// until every commit is marked; no write comes between it and Flush.
	if err := db.View(func(*badger.Txn) error { return nil }); err != nil {
		return nil, err
	}
	sw := db.NewStreamWriter()
	prepare := sw.Prepare
	if incremental {
		prepare = sw.PrepareIncremental
	}
	if err := prepare(); err != nil {
		sw.Cancel()
		return nil, err
	}
	l := &streamLoad{sw: sw, free: make(chan *z.Buffer, streamBuffers), filled: make(chan *z.Buffer, streamBuffers), result: make(chan error, 1)}
	for range streamBuffers {
		l.free <- z.NewBuffer(streamChunk+(1<<20), "graph.Load")
	}
	l.buf = <-l.free
	go func() {
		var err error
		for b := range l.filled {
			if err == nil {
				err = sw.Write(b)
			}
			b.Reset()
			l.free <- b
		}
		l.result <- err
	}()
	return l, nil
}

func (l *streamLoad) put(k, v []byte) error {
	appendKV(l.buf, k, v)
	if l.buf.LenNoPadding() >= streamChunk {
		l.filled <- l.buf
		l.buf = <-l.free
	}
	return nil
}

// appendKV adds to buf what badger.KVToBuffer adds for a pb.KV of key k,
// value v and version 1: the message in protobuf's wire format (fields 1,
// 2 and 4; an empty one left out, as proto3 does), encoded directly rather
// than through the reflection of proto.Marshal, which cost more than the
// rest of the merge.
func appendKV(buf *z.Buffer, k, v []byte) {
	const version = 1
	n := protowire.SizeTag(4) + protowire.SizeVarint(version)
	if len(k) > 0 {
		n += protowire.SizeTag(1) + protowire.SizeBytes(len(k))
	}
	if len(v) > 0 {
		n += protowire.SizeTag(2) + protowire.SizeBytes(len(v))
	}
	b := buf.SliceAllocate(n)[:0]
	if len(k) > 0 {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, k)
	}
	if len(v) > 0 {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, v)
	}
	b = protowire.AppendTag(b, 4, protowire.VarintType)
	protowire.AppendVarint(b, version)
}

// wait hands over the last buffer and returns the writer's result.
func (l *streamLoad) wait() error {
	if l.closed {
		return nil
	}
	l.closed = true
	if l.buf.LenNoPadding() > 0 {
		l.filled <- l.buf
		l.buf = <-l.free
	}
	close(l.filled)
	return <-l.result
}

func (l *streamLoad) flush() error {
	if err := l.wait(); err != nil {
		return err
	}
	l.done = true
	return l.sw.Flush()
}

func (l *streamLoad) cancel() {
	_ = l.wait() // the load is abandoned: what failed it is the error to report
	if !l.done {
		l.sw.Cancel()
	}
	l.free <- l.buf
	for range streamBuffers {
		_ = (<-l.free).Release() // z.NewBuffer's are allocated memory: freeing it cannot fail
	}
}
