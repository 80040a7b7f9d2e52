package graph

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// do runs one graph operation in the batch's current transaction. A failed
// operation leaves no trace (the transaction is rebuilt from the operations
// before it); one that no longer fits commits the transaction and runs alone
// in a fresh one.
// batchCommitEntries is how many entries a Batch writes before it commits
// and renews its transaction. Badger sorts all of a transaction's pending
// writes for every iterator opened in it, and graph operations open one
// per adjacency list they read: near Badger's limit (tens of thousands of
// entries) a large first sync would spend most of its time sorting.
const batchCommitEntries = 256

func (b *Batch) do(op func(*writer) error) error {
	at := time.Now().UTC()
	run := func(w *writer) error {
		w.now = at
		return op(w)
	}
	b.begin()
	err := run(b.w)
	if err == nil {
		b.ops = append(b.ops, run)
		if b.w.n >= batchCommitEntries || b.w.size >= b.s.db.MaxBatchSize()/2 {
			return b.commit()
		}
		return nil
	}
	if rerr := b.rebuild(); rerr != nil {
		return rerr
	}
	if !errors.Is(err, badger.ErrTxnTooBig) || len(b.ops) == 0 {
		if errors.Is(err, badger.ErrTxnTooBig) {
			return fmt.Errorf("%w: a graph operation does not fit one: %w", ErrTooBig, err)
		}
		return err
	}
	if err := b.commit(); err != nil {
		return err
	}
	return b.do(op)
}

func (b *Batch) begin() {
	if b.w == nil {
		b.w = &writer{s: b.s, txn: b.s.db.NewTransaction(true)}
	}
}

// rebuild replaces the current transaction by one holding only the
// recorded operations.
func (b *Batch) rebuild() error {
	if b.w != nil {
		b.w.txn.Discard()
		b.w = nil
	}
	b.begin()
	for _, op := range b.ops {
		if err := op(b.w); err != nil {
			return fmt.Errorf("graph batch replay: %w", err)
		}
	}
	return nil
}

// commit commits the current transaction, replaying it when a concurrent
// writer conflicted.
func (b *Batch) commit() error {
	if b.w == nil {
		return nil
	}
	if err := b.s.roomToWrite(); err != nil {
		b.discard()
		return err
	}
	var err error
	for range 5 {
		if err = b.w.txn.Commit(); !errors.Is(err, badger.ErrConflict) {
			break
		}
		b.w = nil
		if err = b.rebuild(); err != nil {
			break
		}
	}
	if b.w != nil {
		b.w.txn.Discard()
	}
	b.w, b.ops = nil, nil
	if err != nil {
		return fmt.Errorf("graph batch commit: %w", err)
	}
	return nil
}

func (b *Batch) discard() {
	if b.w != nil {
		b.w.txn.Discard()
		b.w, b.ops = nil, nil
	}
}
