package graph

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// DefaultHistoryLimit is how many edge changes the history keeps by default.
const DefaultHistoryLimit = 10000

// Op names a change to an edge.
type Op string

// The kinds of edge change recorded in the history.
const (
	OpUpsert     Op = "upsert"
	OpInvalidate Op = "invalidate"
	OpRestore    Op = "restore"
	OpRemove     Op = "remove"
)

// Change is one entry of the edge history: the edge as it was after the
// change (before it, for OpRemove), so a removed or altered edge can be put
// back with Load or UpsertEdge.
type Change struct {
	Seq    uint64    `json:"seq"`
	At     time.Time `json:"at"`
	Op     Op        `json:"op"`
	Edge   Edge      `json:"edge"`
	Reason string    `json:"reason,omitempty"`
}

func historyKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{prefixHistory}, seq)
}

// logChange appends to the history and drops the entry that falls out of
// the bound.
func (w *writer) logChange(op Op, e Edge, reason string) error {
	keep := w.s.histKeep
	if keep == 0 {
		return nil
	}
	seq := w.s.histSeq.Add(1)
	b, err := json.Marshal(Change{Seq: seq, At: w.now, Op: op, Edge: e, Reason: reason})
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := w.set(historyKey(seq), b); err != nil {
		return err
	}
	if seq > keep {
		return w.del(historyKey(seq - keep))
	}
	return nil
}

// History returns up to limit edge changes, newest first (all kept when
// limit <= 0).
func (tx *Tx) History(limit int) ([]Change, error) {
	var out []Change
	prefix := []byte{prefixHistory}
	it := tx.txn.NewIterator(badger.IteratorOptions{Prefix: prefix, Reverse: true})
	defer it.Close()
	for it.Seek([]byte{prefixHistory, 0xFF}); it.ValidForPrefix(prefix); it.Next() {
		if limit > 0 && len(out) >= limit {
			break
		}
		var c Change
		if err := it.Item().Value(func(v []byte) error { return json.Unmarshal(v, &c) }); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		out = append(out, c)
	}
	return out, nil
}

// trimHistory deletes entries older than the bound that a crashed or
// conflicting writer left behind.
func (s *Store) trimHistory() error {
	last := s.histSeq.Load()
	if last <= s.histKeep && s.histKeep > 0 {
		return nil
	}
	bound := historyKey(last - min(last, s.histKeep) + 1)
	var keys [][]byte
	err := s.db.View(func(txn *badger.Txn) error {
		prefix := []byte{prefixHistory}
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
			k := it.Item().KeyCopy(nil)
			if string(k) >= string(bound) {
				break
			}
			keys = append(keys, k)
		}
		return nil
	})
	if err != nil || len(keys) == 0 {
		return err
	}
	wb := newPipe(s.db, nil)
	defer wb.Cancel()
	for _, k := range keys {
		if err := wb.Delete(k); err != nil {
			return err
		}
	}
	return wb.Flush()
}

// loadCounters finds the highest node uid and history sequence in use.
func (s *Store) loadCounters() error {
	return s.db.View(func(txn *badger.Txn) error {
		last := func(p byte) ([]byte, error) {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{p}, Reverse: true})
			defer it.Close()
			it.Seek([]byte{p, 0xFF})
			if !it.ValidForPrefix([]byte{p}) {
				return nil, nil
			}
			return it.Item().KeyCopy(nil), nil
		}
		k, err := last(prefixNode)
		if err != nil {
			return err
		}
		if k != nil {
			uid, _, err := getUID(k[1:])
			if err != nil {
				return err
			}
			s.nextUID.Store(uid)
		}
		if k, err = last(prefixHistory); err != nil {
			return err
		}
		if len(k) == 9 {
			s.histSeq.Store(binary.BigEndian.Uint64(k[1:]))
		}
		return nil
	})
}

func timeNow() time.Time { return time.Now().UTC() }
