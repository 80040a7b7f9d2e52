package graph

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotEmpty is Fill's answer for a store it does not fill: one that
// holds more than a little (see Fill), or one in memory. Nothing was
// called or written.
var ErrNotEmpty = errors.New("store not empty")

// Fill fills a store that holds little or nothing, such as a first index
// after a rebuild, when at most the learnings of the graph are stored:
// fill gives it entries of the key-value space, nodes and edges through
// the Filler, in any order, and Fill writes them all at once when fill
// returns, with what the store held, through Badger's stream writer (see
// Load), which builds the tables directly instead of taking every key
// through the write-ahead log and the memtables: a fraction of the cost.
// Entries and edges wait in sorted runs of bounded size, spilled to
// temporary files in the store's directory (see runs); nodes, and what
// the store held, are kept in memory. What the stream writer writes stays
// mapped until the store is reopened or closed, as everything Badger
// writes does (see Reopen): Fill writes in parts of ascending keys,
// reopening the store between them (see parts), so that it holds one part
// mapped at a time; the store's levels bound the parts (see parts), so a
// part, and the memory of a fill, still grows with the store.
//
// Fill is atomic: an error of fill is returned as it is and leaves the
// store as it was, and so does an error while writing or a cancelled ctx;
// a process killed while Fill writes leaves a marker that makes the next
// Open report ErrCorrupt (see LoadFrom), so that the caller rebuilds the
// store. While Fill runs, the Store's other calls wait for it, and so does
// another process's Open, between two parts too, so that none sees a
// store half written: fill must not call them.
//
// A store that holds more than a few megabytes (fillBaseBytes), or one in
// memory, is not filled: Fill returns ErrNotEmpty without calling fill, and the caller
// writes another way (Batch, Load).
func (s *Store) Fill(ctx context.Context, fill func(*Filler) error) error {
	if s.opts.InMemory {
		return ErrNotEmpty
	}
	if err := s.writable(); err != nil {
		return fmt.Errorf("fill: %w", err)
	}
	if err := s.roomToWrite(); err != nil {
		return fmt.Errorf("fill: %w", err)
	}
	s.exclusive.Lock()
	defer s.exclusive.Unlock()
	var base [][2][]byte
	ok := false
	err := s.guard(func() error {
		var err error
		base, ok, err = s.contents(fillBaseBytes)
		return err
	})
	if err != nil {
		return fmt.Errorf("fill: %w", err)
	}
	if !ok {
		return ErrNotEmpty
	}
	l := &loader{s: s, ctx: ctx, index: map[string]int{}, now: nanos(timeNow())}
	if l.known, err = knownUIDs(base); err != nil {
		return fmt.Errorf("fill: %w", err)
	}
	removeRunFiles(s.dir)
	limit := fillRunBytes
	if s.runBytes > 0 {
		limit = s.runBytes
	}
	l.runs = newEdgeRuns(s.dir, limit)
	f := &Filler{s: s, l: l, kv: newKVRuns(s.dir, limit)}
	closeRuns := func() {
		l.runs.close()
		f.kv.close()
	}
	// fill runs here, not through guard, which would run it on a
	// goroutine of its own: it is the caller's code, which calls no
	// Badger.
	if err := fill(f); err != nil {
		closeRuns()
		return err
	}
	return s.guard(func() error {
		defer closeRuns()
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := l.runs.spillAll(); err != nil {
			return fmt.Errorf("fill: %w", err)
		}
		if err := f.kv.spillAll(); err != nil {
			return fmt.Errorf("fill: %w", err)
		}
		return l.stream(base, f.kv)
	})
}

// fillRunBytes bounds a run of a fill's sorted keys: a fill runs beside
// the caller's work (parsing, for an index), whose memory it adds to.
const fillRunBytes = 4 << 20

// Filler takes what Fill writes. Its methods refuse what Tx's and Load
// refuse; they must not be called from several goroutines at once.
type Filler struct {
	s  *Store
	l  *loader
	kv *runs
}

// Set stores a copy of val under ns/key; of several values of one key,
// the last given is stored.
func (f *Filler) Set(ns, key string, val []byte) error {
	if err := f.s.checkEntry(ns, key, val); err != nil {
		return err
	}
	f.kv.addKV(kvKey(ns, key), val, false)
	return nil
}

// SetOwned is Set: a Filler copies every value (it has the same method as
// Batch so that a caller can write into either).
func (f *Filler) SetOwned(ns, key string, val []byte) error { return f.Set(ns, key, val) }

// Delete removes ns/key, given before or held by the store before the
// fill, as a Batch's Delete does.
func (f *Filler) Delete(ns, key string) error {
	if err := validNS(ns); err != nil {
		return err
	}
	f.kv.addKV(kvKey(ns, key), nil, true)
	return nil
}

// Node stores n, as Load does.
func (f *Filler) Node(n Node) error { return f.l.node(n) }

// Edge stores e, as Load does.
func (f *Filler) Edge(e Edge) error { return f.l.edge(e) }

// fillBaseBytes bounds what a store may hold for Fill to fill it: the
// keys and values are held in memory meanwhile, and written again.
const fillBaseBytes = 4 << 20

// knownUIDs returns the uids of the nodes whose ids base, the store's
// contents, holds.
func knownUIDs(base [][2][]byte) (map[string]uint64, error) {
	known := map[string]uint64{}
	for _, kv := range base {
		if kv[0][0] != prefixID {
			continue
		}
		u, _, err := getUID(kv[1])
		if err != nil {
			return nil, err
		}
		known[string(kv[0][1:])] = u
	}
	return known, nil
}
