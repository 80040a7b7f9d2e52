package graph

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// LoadFrom is Load for input too large to hold at once, such as an
// import: read gives it nodes and edges one at a time, in any order,
// through node and edge (which refuse what Load refuses). read runs in a
// goroutine of its own, which hands what it gives over in batches, so
// that decoding the input overlaps with the rest; LoadFrom returns only
// once read has. Nodes are held in memory; edges become keys sorted in
// bounded runs, each spilled to a temporary file in the store's directory
// once full (see runs), and merged when read has returned. Nothing is
// written before then: an error of read is returned as it is and leaves
// the store as it was; after node or edge refused something, they return
// that error to read, and LoadFrom returns it whatever read returns.
//
// A load into a store that holds nothing but its schema goes through
// Badger's stream writer (see Load), in parts (see Fill), and is atomic:
// an error or a cancelled ctx leaves the store empty again, and a process
// killed meanwhile leaves a marker that makes the next Open report
// ErrCorrupt, so that the caller rebuilds the store; until the load ends,
// another process's Open waits for it. Into a store that holds a graph, a
// load is not atomic: after a failure, run it again.
func (s *Store) LoadFrom(ctx context.Context, read func(node func(Node) error, edge func(Edge) error) error) error {
	if err := s.writable(); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if err := s.roomToWrite(); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return s.guard(func() error { return s.load(ctx, true, read) })
}

// loadNode is a node of a load: one named by its nodes, or an end of one
// of its edges.
type loadNode struct {
	id    string
	uid   uint64
	attrs map[string]string
	write bool // a node to store: given, or new
}

// loader gathers a load: its nodes in memory, its edges in runs.
type loader struct {
	s     *Store
	ctx   context.Context
	snap  *badger.Txn       // for the uids of stored nodes; nil when the store is empty
	known map[string]uint64 // or those uids, for a fill (see Fill)
	nodes []loadNode
	index map[string]int // id → index in nodes
	runs  *runs
	edges int
	now   int64
	rec   []byte // scratch for an edge's record
}

// load gathers what read gives and writes it. maybeLarge says that the
// load may be large enough for the stream writer (see defaultStreamMin):
// it then tries to hold the store exclusively from the start.
func (s *Store) load(ctx context.Context, maybeLarge bool, read func(node func(Node) error, edge func(Edge) error) error) error {
	// An empty store is filled by Badger's stream writer, which builds the
	// tables directly and needs the store to itself; otherwise a write
	// batch adds to what is stored.
	var empty bool
	var base [][2][]byte
	if maybeLarge && s.exclusive.TryLock() {
		var err error
		empty, base, err = s.streamable()
		if err != nil || !empty {
			s.exclusive.Unlock()
		} else {
			defer s.exclusive.Unlock()
		}
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
	}
	l := &loader{s: s, ctx: ctx, index: map[string]int{}, now: nanos(timeNow())}
	if !empty {
		s.exclusive.RLock()
		defer s.exclusive.RUnlock()
		l.snap = s.db.NewTransaction(false)
		defer l.snap.Discard()
	}
	tmp := ""
	if !s.opts.InMemory {
		tmp = s.dir
		removeRunFiles(tmp)
	}
	limit := loadRunBytes
	if s.runBytes > 0 {
		limit = s.runBytes
	}
	l.runs = newEdgeRuns(tmp, limit)
	defer l.runs.close()
	gather := l.gather
	if !maybeLarge {
		gather = func(read func(node func(Node) error, edge func(Edge) error) error) error { return read(l.node, l.edge) }
	}
	if err := gather(read); err != nil {
		return err
	}
	if err := l.runs.finish(); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if empty && l.edges >= s.streamMin && !s.opts.InMemory {
		return l.stream(base, nil)
	}
	w := newBatchLoad(s.db, s.roomToWrite)
	defer w.cancel()
	if err := l.write(w, nil); err != nil {
		return err
	}
	if err := w.flush(); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return nil
}

// stream writes the load, and a fill's entries kv (nil for a load),
// through Badger's stream writer, which replaces the whole store: base
// are the keys it held, in order, which are written again among the
// load's (see withBase). It writes in parts (see parts). While it writes,
// a marker in the store's directory says so (see markLoading); a failure
// puts base back.
func (l *loader) stream(base [][2][]byte, kv *runs) error {
	s := l.s
	unmark := markLoading(s.dir)
	most := s.db.Opts().MaxLevels - 1
	p := &parts{s: s, size: l.partSize(base, kv, most), most: most}
	err := p.begin()
	if err != nil {
		err = fmt.Errorf("load: %w", err)
	} else {
		w := &withBase{w: p, base: base}
		err = l.write(w, kv)
		if err == nil {
			if err = w.flush(); err != nil {
				err = fmt.Errorf("load: %w", err)
			}
		}
	}
	p.cancel()
	if err == nil {
		unmark(true)
		return nil
	}
	if s.db == nil {
		// A reopening between parts failed: the store is closed, and
		// the marker stays for the next Open to report.
		unmark(false)
		return err
	}
	// Put the store back as it was; should that fail too, the marker
	// stays for the next Open to report.
	if rerr := restore(s.db, base); rerr != nil {
		unmark(false)
		return fmt.Errorf("%w (and the store could not be emptied again: %v)", err, rerr)
	}
	unmark(true)
	return err
}

// parts writes the keys of a stream load, in ascending order, in parts of
// about size bytes of keys and values, each through a stream writer of its
// own: Badger keeps every table and value-log page it writes mapped, and
// counted in the process's memory, until the handle closes, so a load
// written whole holds as much memory as the store takes on disk at its
// end. After a part, parts closes the handle and opens the database again,
// which releases those pages, and writes the next part incrementally (see
// badger.StreamWriter.PrepareIncremental): into the level above the last
// part's, each part a range of keys after the ones before it. The first
// part replaces the whole database, as a stream load does; the levels
// bound the parts to most, and the last takes what is left. A reopening
// that fails leaves the Store closed and the load's marker in place, for
// the next Open to report.
type parts struct {
	s     *Store
	size  int64 // bytes of a part's keys and values
	most  int   // parts there is room for
	n     int   // parts begun
	sofar int64 // bytes put into the current part
	cur   *streamLoad
}

// begin ends the current part, if any, and begins the next.
func (p *parts) begin() error {
	s := p.s
	if p.cur != nil {
		if err := p.cur.flush(); err != nil {
			return err
		}
		p.cur.cancel()
		p.cur = nil
		s.upgrade.Lock()
		err := s.cycle(false, false)
		s.upgrade.Unlock()
		if err != nil {
			return err
		}
	}
	cur, err := newStreamLoad(s.db, p.n > 0)
	if err != nil {
		return err
	}
	p.cur, p.n, p.sofar = cur, p.n+1, 0
	if s.loading != nil {
		return s.loading(p.n)
	}
	return nil
}

func (p *parts) put(k, v []byte) error {
	if p.sofar >= p.size && p.n < p.most {
		if err := p.begin(); err != nil {
			return err
		}
	}
	p.sofar += int64(len(k) + len(v))
	return p.cur.put(k, v)
}

func (p *parts) flush() error { return p.cur.flush() }

func (p *parts) cancel() {
	if p.cur != nil {
		p.cur.cancel()
	}
}

// partFloor is the least a part of a stream load takes (see parts): each
// part after the first costs a reopening of the database, which reads the
// value-log file just written through (see Store.cycle), and a smaller
// part saves less memory than that costs (see BENCHMARKS.md).
const partFloor = 32 << 20

// partSize returns the bytes of keys and values of a part of the load (see
// parts): the load's, roughly, spread evenly over as many parts of
// partFloor as it fills, one at least and most at most.
func (l *loader) partSize(base [][2][]byte, kv *runs, most int) int64 {
	if l.s.partBytes > 0 {
		return int64(l.s.partBytes)
	}
	n := l.runs.size()
	if kv != nil {
		n += kv.size()
	}
	for _, e := range base {
		n += int64(len(e[0]) + len(e[1]))
	}
	for _, d := range l.nodes {
		if !d.write {
			continue
		}
		// An id key and a node key, each with a uid.
		n += int64(2*len(d.id) + 24)
		for k, v := range d.attrs {
			n += int64(len(k) + len(v))
		}
	}
	parts := min(max(n/partFloor, 1), int64(most))
	return max(n/parts+1, partFloor)
}

// restore empties db and writes base back into it.
func restore(db *badger.DB, base [][2][]byte) error {
	if err := db.DropAll(); err != nil {
		return err
	}
	wb := db.NewWriteBatch()
	defer wb.Cancel()
	for _, kv := range base {
		if err := wb.Set(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return wb.Flush()
}

// withBase puts base, keys in ascending order and their values, among the
// keys put through it: a key of both is put once, with the value put
// through withBase, and a key dropped through it is not put at all.
type withBase struct {
	w    bulkWriter
	base [][2][]byte
}

func (b *withBase) put(k, v []byte) error {
	if err := b.drop(k); err != nil {
		return err
	}
	return b.w.put(k, v)
}

// drop puts the keys of base before k and leaves out k's.
func (b *withBase) drop(k []byte) error {
	for len(b.base) > 0 {
		c := bytes.Compare(b.base[0][0], k)
		if c > 0 {
			break
		}
		if c < 0 {
			if err := b.w.put(b.base[0][0], b.base[0][1]); err != nil {
				return err
			}
		}
		b.base = b.base[1:]
	}
	return nil
}

func (b *withBase) flush() error {
	for _, kv := range b.base {
		if err := b.w.put(kv[0], kv[1]); err != nil {
			return err
		}
	}
	b.base = nil
	return b.w.flush()
}

func (b *withBase) cancel() { b.w.cancel() }

// gatherBatch is how many nodes and edges read hands over at a time.
const gatherBatch = 1024

// item is a node or an edge that read gave.
type item struct {
	node *Node
	edge Edge
}

// gather runs read in a goroutine of its own, which hands what it reads
// over in batches to this one, which interns the ids and sorts the keys:
// decoding the input and the rest of the load then take a core each. The
// first error wins: one of the loader's, when the batch it came from was
// handed over before read failed, ends read too.
func (l *loader) gather(read func(node func(Node) error, edge func(Edge) error) error) error {
	full := make(chan []item, 2)
	free := make(chan []item, 3)
	for range cap(free) {
		free <- make([]item, 0, gatherBatch)
	}
	stop := make(chan struct{}) // closed when the loader fails
	var failed error            // the loader's error, set before stop closes
	var readErr error           // read's, set before full closes
	go func() {
		defer close(full)
		batch := <-free
		hand := func() error {
			// A failed loader ends read at its next batch: with stop and
			// a free place in full both ready, select would pick either.
			select {
			case <-stop:
				return failed
			default:
			}
			select {
			case full <- batch:
			case <-stop:
				return failed
			}
			batch = <-free
			return nil
		}
		add := func(it item) error {
			if batch = append(batch, it); len(batch) == cap(batch) {
				return hand()
			}
			return nil
		}
		readErr = read(func(n Node) error { return add(item{node: &n}) }, func(e Edge) error { return add(item{edge: e}) })
		if readErr == nil && len(batch) > 0 {
			readErr = hand()
		}
	}()
	for batch := range full {
		for i := 0; i < len(batch) && failed == nil; i++ {
			var err error
			if it := &batch[i]; it.node != nil {
				err = l.node(*it.node)
			} else {
				err = l.edge(it.edge)
			}
			if err != nil {
				failed = err
				close(stop)
			}
		}
		clear(batch)
		free <- batch[:0]
	}
	if failed != nil {
		return failed
	}
	return readErr
}

// intern returns the uid of id, adding it to the load's nodes; set gives
// the node attrs.
func (l *loader) intern(id string, attrs map[string]string, set bool) (uint64, error) {
	if i, ok := l.index[id]; ok {
		if set {
			l.nodes[i].attrs, l.nodes[i].write = attrs, true
		}
		return l.nodes[i].uid, nil
	}
	var u uint64
	err := ErrNotFound
	if l.snap != nil {
		u, err = lookupUID(l.snap, id)
	} else if k, ok := l.known[id]; ok {
		u, err = k, nil
	}
	fresh := false
	switch {
	case err == nil:
	case err == ErrNotFound:
		u, fresh = l.s.nextUID.Add(1), true
	default:
		return 0, err
	}
	// The id may be part of a larger buffer of the caller's, which a
	// copy does not keep alive.
	id = strings.Clone(id)
	l.index[id] = len(l.nodes)
	l.nodes = append(l.nodes, loadNode{id: id, uid: u, attrs: attrs, write: set || fresh})
	return u, nil
}

func (l *loader) node(n Node) error {
	if len(l.nodes)%4096 == 0 {
		if err := l.ctx.Err(); err != nil {
			return err
		}
	}
	if _, err := NodeType(n.ID); err != nil {
		return err
	}
	if _, err := l.intern(n.ID, n.Attrs, true); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return nil
}

func (l *loader) edge(e Edge) error {
	if l.edges%4096 == 0 {
		if err := l.ctx.Err(); err != nil {
			return err
		}
	}
	if err := e.Valid(); err != nil {
		return err
	}
	k := e.Key().canonical()
	f, err := l.intern(k.From, nil, false)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	t, err := l.intern(k.To, nil, false)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	md, err := encodeMetadata(e.Metadata)
	if err != nil {
		return err
	}
	r := recordOf(e, md)
	if r.created == 0 {
		r.created = l.now
	}
	if r.updated == 0 {
		r.updated = r.created
	}
	r.version = max(r.version, 1)
	r.mentions = max(r.mentions, 1)
	l.rec = r.appendTo(l.rec[:0])
	l.edges++
	if err := l.runs.add(f, t, k.Type.code(), k.Type.Symmetric(), k.Relation, l.rec); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return nil
}

// write puts the load's keys, in ascending order: the ids of the nodes to
// store, a fill's entries kv (when not nil), the nodes, then the edges.
func (l *loader) write(w bulkWriter, kv *runs) error {
	var write []loadNode
	for _, n := range l.nodes {
		if n.write {
			write = append(write, n)
		}
	}
	l.nodes, l.index = nil, nil
	slices.SortFunc(write, func(x, y loadNode) int { return strings.Compare(x.id, y.id) })
	for _, n := range write {
		if err := w.put(idKey(n.id), putUID(nil, n.uid)); err != nil {
			return fmt.Errorf("load: %w", err)
		}
	}
	if kv != nil {
		if err := l.put(w, kv); err != nil {
			return err
		}
	}
	slices.SortFunc(write, func(x, y loadNode) int { return cmp.Compare(x.uid, y.uid) })
	for _, n := range write {
		if err := w.put(nodeKey(n.uid), encodeNode(n.id, n.attrs)); err != nil {
			return fmt.Errorf("load: %w", err)
		}
	}
	return l.put(w, l.runs)
}

// put puts the keys of rs in ascending order. A key rs deletes is not
// put, and when w holds what the store held (withBase), that loses it too.
func (l *loader) put(w bulkWriter, rs *runs) error {
	i := 0
	return rs.merge(func(k, v []byte, del bool) error {
		if i++; i%4096 == 0 {
			if err := l.ctx.Err(); err != nil {
				return err
			}
		}
		if del {
			if b, ok := w.(*withBase); ok {
				return b.drop(k)
			}
			return nil
		}
		if err := w.put(k, v); err != nil {
			return fmt.Errorf("load: %w", err)
		}
		return nil
	})
}
