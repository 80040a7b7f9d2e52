package graph

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// loadRunBytes bounds the memory of one run of a load's edge keys: two
// are held at most, one filling while the other is sorted and spilled,
// and the sort needs room for the keys of one more.
const loadRunBytes = 24 << 20

// runFilePattern names the temporary files of spilled runs.
const runFilePattern = "lore-run-*"

// runKey is an adjacency key of a load in a fixed size, for sorting: hi
// and lo order as the key's bytes do (the prefix, then the uids, written
// in an order-preserving code, and the type between them), and off is
// where the edge's relation and record are in the run's arena.
type runKey struct {
	hi    uint64 // keyIn bit, then the first uid
	lo    uint64 // type code in the top byte, then the second uid
	off   uint32 // increasing with the order of the input
	flags byte   // keyMirror, keyRel
}

const (
	runKeySize = 24
	hiIn       = 1 << 63
	loUID      = 1<<56 - 1
	maxLoadUID = loUID // a larger uid does not fit a runKey
)

const (
	keyMirror = 1 << iota // the mirror entry of a symmetric edge
	keyRel                // the edge has a relation
)

// run holds keys and the edges they belong to: in the arena, the length
// of each edge's relation and of its record (4 bytes each), then both.
type run struct {
	keys  []runKey
	arena []byte
}

func (r *run) reset()      { r.keys, r.arena = r.keys[:0], r.arena[:0] }
func (r *run) empty() bool { return len(r.keys) == 0 }
func (r *run) release()    { r.keys, r.arena = nil, nil }

// rel and rec return the relation and the record at off.
func (r *run) rel(off uint32) []byte {
	n := binary.LittleEndian.Uint32(r.arena[off:])
	return r.arena[off+8 : off+8+n]
}

func (r *run) rec(off uint32) []byte {
	n := binary.LittleEndian.Uint32(r.arena[off:])
	m := binary.LittleEndian.Uint32(r.arena[off+4:])
	return r.arena[off+8+n : off+8+n+m]
}

// sameKey reports whether two keys are the same key.
func (r *run) sameKey(x, y runKey) bool {
	if x.hi != y.hi || x.lo != y.lo {
		return false
	}
	return (x.flags|y.flags)&keyRel == 0 || bytes.Equal(r.rel(x.off), r.rel(y.off))
}

// sort orders the keys as their bytes, and equal keys as the input (tmp
// is scratch space for as many keys). It returns the scratch space left.
func (r *run) sort(tmp []runKey) []runKey {
	tmp = slices.Grow(tmp[:0], len(r.keys))[:len(r.keys)]
	sorted, spare := radixSort(r.keys, tmp)
	r.keys = sorted
	// Keys that differ only in their relation: by relation, a stable
	// sort keeping the input's order among equal ones.
	for i := 0; i < len(r.keys); {
		j := i + 1
		for j < len(r.keys) && r.keys[j].hi == r.keys[i].hi && r.keys[j].lo == r.keys[i].lo {
			j++
		}
		if j-i > 1 {
			group := r.keys[i:j]
			if slices.ContainsFunc(group, func(k runKey) bool { return k.flags&keyRel != 0 }) {
				slices.SortStableFunc(group, func(x, y runKey) int { return bytes.Compare(r.rel(x.off), r.rel(y.off)) })
			}
		}
		i = j
	}
	return spare
}

// radixSort sorts keys by hi and lo, stable, a byte at a time from the
// least significant, skipping the bytes that all keys share. It returns
// the sorted keys and the other slice, both of keys' length.
func radixSort(keys, tmp []runKey) (sorted, spare []runKey) {
	var counts [16][256]int
	for _, k := range keys {
		for d := range 8 {
			counts[d][byte(k.lo>>(8*d))]++
			counts[8+d][byte(k.hi>>(8*d))]++
		}
	}
	src, dst := keys, tmp
	for d := range 16 {
		c := &counts[d]
		if slices.Contains(c[:], len(keys)) {
			continue // one value of this byte for every key
		}
		pos := 0
		for i, n := range c {
			c[i] = pos
			pos += n
		}
		shift := uint(8 * (d % 8))
		if d < 8 {
			for _, k := range src {
				b := byte(k.lo >> shift)
				dst[c[b]] = k
				c[b]++
			}
		} else {
			for _, k := range src {
				b := byte(k.hi >> shift)
				dst[c[b]] = k
				c[b]++
			}
		}
		src, dst = dst, src
	}
	return src, dst
}

// sortedRun is a run of keys and their values, held in the order given
// until it is sorted: a run of a load's edges (*run) or of a fill's
// entries of the key-value space (*kvRun).
type sortedRun interface {
	// sort orders the run's keys as their bytes, and equal keys as
	// given; tmp is scratch space, and what is left of it is returned.
	sort(tmp []runKey) []runKey
	reset()
	empty() bool
	release() // reset, and let the memory go
}

// each calls fn with each key of a sorted run and its value, in order; of
// equal keys only the last given, which may be a deletion (del). k and v
// are valid during the call.
func each(r sortedRun, fn func(k, v []byte, del bool) error) error {
	c := memCursor(r, 0)
	for {
		if err := c.next(); err != nil || !c.ok {
			return err
		}
		if err := fn(c.k, c.v, c.del); err != nil {
			return err
		}
	}
}

// runs sorts keys in runs of bounded size: a full run is sorted and
// spilled to a temporary file by a goroutine of its own while the next
// one fills; the last stays in memory. merge then reads them all in
// order. A load's edges take runs of edge keys (newEdgeRuns), a fill's
// entries of the key-value space runs of their own (newKVRuns).
type runs struct {
	dir   string // for the temporary files; "" for the system's
	limit int
	cur   sortedRun
	free  chan sortedRun // a run to fill next
	full  chan sortedRun // runs to sort and spill
	done  chan error     // the spiller's end
	tmp   []runKey       // scratch space of the sort
	files []*os.File     // spilled runs, in order
	left  []string       // names of files not yet removed
	bytes int64          // of the keys and values of the sorted runs
}

func newEdgeRuns(dir string, limit int) *runs {
	return newRuns(dir, limit, &run{}, &run{})
}

func newKVRuns(dir string, limit int) *runs {
	return newRuns(dir, limit, &kvRun{}, &kvRun{})
}

func newRuns(dir string, limit int, cur, other sortedRun) *runs {
	rs := &runs{dir: dir, limit: limit, cur: cur, free: make(chan sortedRun, 1), full: make(chan sortedRun), done: make(chan error, 1)}
	rs.free <- other
	go rs.spiller()
	return rs
}

// handOver hands the current run, full, to the spiller and goes on with
// the other. The spiller's failure is seen by finish.
func (rs *runs) handOver() {
	rs.full <- rs.cur
	rs.cur = <-rs.free
}

// add adds the keys of an edge between the nodes of uids f and t to runs
// of edge keys.
func (rs *runs) add(f, t uint64, code byte, symmetric bool, rel string, rec []byte) error {
	if f > maxLoadUID || t > maxLoadUID {
		return fmt.Errorf("node uid %d: too large to load in bulk", max(f, t))
	}
	need := 8 + len(rel) + len(rec)
	if !rs.room(4, need) {
		rs.handOver()
	}
	r := rs.cur.(*run)
	off := uint32(len(r.arena))
	r.arena = binary.LittleEndian.AppendUint32(r.arena, uint32(len(rel)))
	r.arena = binary.LittleEndian.AppendUint32(r.arena, uint32(len(rec)))
	r.arena = append(r.arena, rel...)
	r.arena = append(r.arena, rec...)
	var flags byte
	if rel != "" {
		flags = keyRel
	}
	c := uint64(code) << 56
	r.keys = append(r.keys, runKey{f, c | t, off, flags}, runKey{hiIn | t, c | f, off, flags})
	if symmetric {
		r.keys = append(r.keys, runKey{t, c | f, off, flags | keyMirror}, runKey{hiIn | f, c | t, off, flags | keyMirror})
	}
	return nil
}

// room reports whether the current run has room for keys more keys and
// need more bytes of arena, growing it up to its share of the limit: three
// quarters for keys, the rest for the arena. An empty run always has.
func (rs *runs) room(keys, need int) bool {
	r := rs.cur.(*run)
	if len(r.keys) == 0 {
		return true
	}
	keyCap := rs.limit * 3 / 4 / runKeySize
	if len(r.keys)+keys > cap(r.keys) {
		if cap(r.keys) >= keyCap {
			return false
		}
		r.keys = slices.Grow(r.keys, min(max(2*cap(r.keys), 1024), keyCap)-len(r.keys))
	}
	arenaCap := rs.limit / 4
	if len(r.arena)+need > cap(r.arena) {
		if cap(r.arena) >= arenaCap {
			return false
		}
		r.arena = slices.Grow(r.arena, max(min(max(2*cap(r.arena), 4096), arenaCap)-len(r.arena), need))
	}
	return true
}

// spiller sorts and spills the runs it is handed until full is closed;
// after a failure it only hands them back.
func (rs *runs) spiller() {
	var err error
	for r := range rs.full {
		if err == nil {
			err = rs.spill(r)
		}
		r.reset()
		rs.free <- r
	}
	rs.done <- err
}

func (rs *runs) spill(r sortedRun) error {
	rs.tmp = r.sort(rs.tmp)
	f, name, err := createRunFile(rs.dir)
	if err != nil {
		return fmt.Errorf("spill sorted keys: %w", err)
	}
	if name != "" {
		rs.left = append(rs.left, name)
	}
	rs.files = append(rs.files, f)
	w := bufio.NewWriterSize(f, 1<<20)
	var head []byte
	err = each(r, func(k, v []byte, del bool) error {
		// The value's length, shifted left, leaves room for a bit
		// saying the key is deleted.
		rs.bytes += int64(len(k) + len(v))
		head = binary.AppendUvarint(head[:0], uint64(len(k)))
		head = binary.AppendUvarint(head, uint64(len(v))<<1|b2u(del))
		w.Write(head)
		w.Write(k)
		_, err := w.Write(v)
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		return fmt.Errorf("spill sorted keys: %w", err)
	}
	return nil
}

// finish waits for the spilled runs and sorts the last one.
func (rs *runs) finish() error {
	if err := rs.stopSpiller(); err != nil {
		return err
	}
	// The other run's memory is not needed any more.
	<-rs.free
	rs.tmp = rs.cur.sort(rs.tmp)
	rs.tmp = nil
	return nil
}

// size returns how many bytes the keys and values of the runs take, once
// they are finished or all spilled.
func (rs *runs) size() int64 {
	n := rs.bytes
	_ = each(rs.cur, func(k, v []byte, _ bool) error { // fn fails nothing
		n += int64(len(k) + len(v))
		return nil
	})
	return n
}

// spillAll is finish for a load that wants the runs' memory back before
// it merges them: the last run is spilled too, and none is kept.
func (rs *runs) spillAll() error {
	if !rs.cur.empty() {
		rs.handOver()
	}
	if err := rs.stopSpiller(); err != nil {
		return err
	}
	<-rs.free
	rs.cur.release()
	rs.tmp = nil
	return nil
}

// stopSpiller waits for the spiller to spill what it was handed and end,
// and returns its failure.
func (rs *runs) stopSpiller() error {
	close(rs.full)
	err := <-rs.done
	rs.done = nil
	return err
}

// close removes the temporary files and stops the spiller if finish was
// not called. Their data is not wanted any more, so failing to close or
// remove them loses nothing (removeRunFiles removes what is left).
func (rs *runs) close() {
	if rs.done != nil {
		_ = rs.stopSpiller() // finish was not called: the load failed already
	}
	for _, f := range rs.files {
		_ = f.Close()
	}
	for _, name := range rs.left {
		_ = os.Remove(name)
	}
	rs.files, rs.left, rs.cur = nil, nil, nil
}

// createNamedRunFile creates a temporary file for a spilled run in dir
// and removes it at once where the system lets a file be removed while
// open (it keeps the data until the file is closed, or the process ends
// however it ends). Elsewhere it returns the name, for the load to remove
// when it ends.
func createNamedRunFile(dir string) (*os.File, string, error) {
	f, err := os.CreateTemp(dir, runFilePattern)
	if err != nil {
		return nil, "", err
	}
	if os.Remove(f.Name()) != nil {
		return f, f.Name(), nil
	}
	return f, "", nil
}

// removeRunFiles removes the temporary files that a process which ended
// before it could left in dir: where the system does not let a file be
// removed while open, or one killed between making and removing it (see
// createNamedRunFile). The caller holds the store for writing,
// so no other process is loading into it.
func removeRunFiles(dir string) {
	names, _ := filepath.Glob(filepath.Join(dir, runFilePattern))
	for _, n := range names {
		_ = os.Remove(n) // best effort: the next load tries again
	}
}

// merge calls fn with every key of the runs and its value in ascending
// order; of equal keys only the one given last, which may delete the key
// (del). k and v are valid during the call.
func (rs *runs) merge(fn func(k, v []byte, del bool) error) error {
	if len(rs.files) == 0 {
		return each(rs.cur, fn)
	}
	var h cursors
	for i, f := range rs.files {
		h = append(h, &cursor{file: bufio.NewReaderSize(f, 256<<10), order: i})
	}
	h = append(h, memCursor(rs.cur, len(rs.files)))
	live := h[:0]
	for _, c := range h {
		if err := c.next(); err != nil {
			return err
		}
		if c.ok {
			live = append(live, c)
		}
	}
	h = live
	heap.Init(&h)
	var last []byte
	first := true
	for len(h) > 0 {
		c := h[0]
		// The latest run comes first among equal keys: the others'
		// are older duplicates.
		if first || !bytes.Equal(c.k, last) {
			if err := fn(c.k, c.v, c.del); err != nil {
				return err
			}
			last = append(last[:0], c.k...)
			first = false
		}
		if err := c.next(); err != nil {
			return err
		}
		if c.ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return nil
}

// cursors is a heap of runs being merged, by their current key and then
// latest run first.
type cursors []*cursor

func (h cursors) Len() int { return len(h) }
func (h cursors) Less(i, j int) bool {
	if c := bytes.Compare(h[i].k, h[j].k); c != 0 {
		return c < 0
	}
	return h[i].order > h[j].order
}
func (h cursors) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursors) Push(x any)   { *h = append(*h, x.(*cursor)) }
func (h *cursors) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// cursor reads the keys of a sorted run in order, with their values: of a
// run in memory, or of one spilled to a file.
type cursor struct {
	mem   *run   // a run of edge keys in memory
	kv    *kvRun // a run of entries in memory
	i     int
	ahead int  // keys of mem before it have had their arena entries touched
	touch byte // what touching read, kept so that the reads are not left out
	file  *bufio.Reader
	order int // the run's place in the input
	buf   []byte
	adj   [9]byte
	k, v  []byte
	del   bool // k is deleted
	ok    bool // k and v hold a key and its value
}

// memCursor returns a cursor over r, in memory.
func memCursor(r sortedRun, order int) *cursor {
	switch r := r.(type) {
	case *run:
		return &cursor{mem: r, order: order}
	case *kvRun:
		return &cursor{kv: r, order: order}
	}
	panic("graph: unknown kind of run")
}

func (c *cursor) next() error {
	if c.file != nil {
		return c.nextInFile()
	}
	if c.kv != nil {
		return c.nextKV()
	}
	r := c.mem
	if c.i >= c.ahead {
		c.touchAhead()
	}
	for ; c.i+1 < len(r.keys) && r.sameKey(r.keys[c.i], r.keys[c.i+1]); c.i++ {
		// a later duplicate wins
	}
	if c.i >= len(r.keys) {
		c.ok = false
		return nil
	}
	x := r.keys[c.i]
	c.i++
	k := c.buf[:0]
	if x.hi&hiIn != 0 {
		k = append(k, prefixIn)
	} else {
		k = append(k, prefixOut)
	}
	k = putUID(k, x.hi&^hiIn)
	k = append(k, byte(x.lo>>56))
	k = putUID(k, x.lo&loUID)
	if x.flags&keyRel != 0 {
		k = append(k, r.rel(x.off)...)
	}
	c.buf = k
	rec := r.rec(x.off)
	if x.hi&hiIn == 0 && x.flags&keyMirror == 0 {
		c.v = rec
	} else {
		// An adjacency value: the record's flags and weight.
		copy(c.adj[:], rec)
		c.adj[0] &^= flagFull
		if x.flags&keyMirror != 0 {
			c.adj[0] |= flagMirror
		}
		c.v = c.adj[:]
	}
	c.k, c.ok = k, true
	return nil
}

// touchWindow is how many keys touchAhead reads ahead.
const touchWindow = 64

// touchAhead reads the first byte of the arena entries of the next keys,
// in a loop that does nothing else. The keys are sorted, their entries in
// the order of the input: reading them in turn as next builds each key
// waits for memory once per key, while this loop's reads, independent of
// each other, are waited for together, and next then finds them cached.
func (c *cursor) touchAhead() {
	r := c.mem
	end := min(c.i+touchWindow, len(r.keys))
	t := c.touch
	for _, x := range r.keys[c.i:end] {
		t ^= r.arena[x.off]
	}
	c.touch, c.ahead = t, end
}

func (c *cursor) nextInFile() error {
	kn, err := binary.ReadUvarint(c.file)
	if err == io.EOF {
		c.ok = false
		return nil
	}
	if err != nil {
		return fmt.Errorf("read sorted keys: %w", err)
	}
	vn, err := binary.ReadUvarint(c.file)
	if err != nil {
		return fmt.Errorf("read sorted keys: %w", err)
	}
	c.del = vn&1 != 0
	vn >>= 1
	c.buf = slices.Grow(c.buf[:0], int(kn+vn))[:kn+vn]
	if _, err := io.ReadFull(c.file, c.buf); err != nil {
		return fmt.Errorf("read sorted keys: %w", err)
	}
	c.k, c.v, c.ok = c.buf[:kn], c.buf[kn:], true
	return nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// kvRun holds entries of the key-value space: in the arena, each key then
// its value, one after the other; ents in the order given until sorted.
type kvRun struct {
	ents  []kvEnt
	arena []byte
}

// kvEnt is an entry of a kvRun: the key at arena[off:off+klen], its value
// after it, or the key's deletion.
type kvEnt struct {
	off, klen, vlen uint32
	del             bool
}

func (r *kvRun) reset()      { r.ents, r.arena = r.ents[:0], r.arena[:0] }
func (r *kvRun) empty() bool { return len(r.ents) == 0 }
func (r *kvRun) release()    { r.ents, r.arena = nil, nil }

func (r *kvRun) key(e kvEnt) []byte { return r.arena[e.off : e.off+e.klen] }

func (r *kvRun) sort(tmp []runKey) []runKey {
	slices.SortStableFunc(r.ents, func(x, y kvEnt) int { return bytes.Compare(r.key(x), r.key(y)) })
	return tmp
}

// kvEntSize is what an entry of a kvRun takes besides its key and value.
const kvEntSize = 16

// addKV adds key k, with value v or deleted, to runs of entries
// (newKVRuns), handing the current run over once it holds the limit.
func (rs *runs) addKV(k, v []byte, del bool) {
	need := len(k) + len(v) + kvEntSize
	if r := rs.cur.(*kvRun); len(r.ents) > 0 && len(r.arena)+len(r.ents)*kvEntSize+need > rs.limit {
		rs.handOver()
	}
	r := rs.cur.(*kvRun)
	off := uint32(len(r.arena))
	r.arena = append(append(r.arena, k...), v...)
	r.ents = append(r.ents, kvEnt{off, uint32(len(k)), uint32(len(v)), del})
}

func (c *cursor) nextKV() error {
	r := c.kv
	for ; c.i+1 < len(r.ents) && bytes.Equal(r.key(r.ents[c.i]), r.key(r.ents[c.i+1])); c.i++ {
		// a later duplicate wins
	}
	if c.i >= len(r.ents) {
		c.ok = false
		return nil
	}
	e := r.ents[c.i]
	c.i++
	c.k, c.v = r.key(e), r.arena[e.off+e.klen:e.off+e.klen+e.vlen]
	c.del, c.ok = e.del, true
	return nil
}
