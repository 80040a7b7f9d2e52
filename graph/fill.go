package graph

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotEmpty is Fill's answer for a store it cannot fill: one that holds
// more than its schema, or one in memory. Nothing was called or written.
var ErrNotEmpty = errors.New("store not empty")

// Fill fills a store that holds nothing but its schema, such as a first
// index or a rebuild: fill gives it entries of the key-value space, nodes
// and edges through the Filler, in any order, and Fill writes them all at
// once when fill returns, through Badger's stream writer (see Load), which
// builds the tables directly instead of taking every key through the
// write-ahead log and the memtables. Entries and edges wait in sorted runs
// of bounded size, spilled to temporary files in the store's directory
// (see runs); nodes are held in memory.
//
// Fill is atomic: an error of fill is returned as it is, and an error
// while writing or a cancelled ctx leaves the store empty; a process
// killed meanwhile leaves the store empty, or a marker that makes the
// next Open report ErrCorrupt (see LoadFrom), so that the caller rebuilds
// it. While Fill runs, the Store's other calls wait for it, so that none
// sees a store half written: fill must not call them.
//
// A store that holds more than its schema, or one in memory, is not
// filled: Fill returns ErrNotEmpty without calling fill, and the caller
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
	return s.guard(func() error {
		s.exclusive.Lock()
		defer s.exclusive.Unlock()
		empty, meta, err := s.streamable()
		if err != nil {
			return fmt.Errorf("fill: %w", err)
		}
		if !empty {
			return ErrNotEmpty
		}
		l := &loader{s: s, ctx: ctx, index: map[string]int{}, now: nanos(timeNow())}
		removeRunFiles(s.dir)
		limit := fillRunBytes
		if s.runBytes > 0 {
			limit = s.runBytes
		}
		l.runs = newEdgeRuns(s.dir, limit)
		defer l.runs.close()
		f := &Filler{s: s, l: l, kv: newKVRuns(s.dir, limit)}
		defer f.kv.close()
		if err := fill(f); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := l.runs.spillAll(); err != nil {
			return fmt.Errorf("fill: %w", err)
		}
		if err := f.kv.spillAll(); err != nil {
			return fmt.Errorf("fill: %w", err)
		}
		return l.stream(meta, f.kv)
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

// Delete removes ns/key from what was given before.
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
