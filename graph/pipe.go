package graph

import (
	"errors"
	"fmt"
	"sync"

	"github.com/dgraph-io/badger/v4"
)

// pipe writes entries through a chain of write-only transactions, as
// badger.WriteBatch does, but begins each transaction before it commits
// the one before. A new transaction waits until every transaction
// committed before it has been applied, and WriteBatch begins its next one
// after the commit: its caller and Badger's writer take turns, each idle
// while the other works. Begun first, the next transaction waits only for
// the one before the last, and the caller fills it while Badger applies
// the last.
//
// The transactions only write, so they never conflict, however old their
// read timestamps. A pipe is safe for concurrent use.
type pipe struct {
	db *badger.DB
	// room fails when the disk has too little space left to write on
	// (see Store.roomToWrite); nil means no check.
	room func() error

	mu   sync.Mutex
	txn  *badger.Txn
	held int  // bytes of keys and values in txn
	done bool // flushed or cancelled

	pending sync.WaitGroup // commits whose callback has not run
	errMu   sync.Mutex
	err     error // the first failed commit
}

var errPipeDone = errors.New("graph: write to a batch that has ended")

func newPipe(db *badger.DB, room func() error) *pipe {
	return &pipe{db: db, room: room, txn: db.NewTransaction(true)}
}

// pipeTxnBytes bounds the keys and values one transaction of a pipe holds.
// Badger bounds a transaction by its estimate of the memtable space it
// takes, in which a value bound for the value log counts as a pointer: a
// transaction of large values (symbol records, name buckets) would
// otherwise hold thousands of them, tens of megabytes, until it commits.
// At most three transactions are alive at once (see rotate).
const pipeTxnBytes = 1 << 20

// Set stores val under key. The pipe keeps both slices until their
// transaction is applied: the caller must not modify them.
func (p *pipe) Set(key, val []byte) error {
	return p.write(len(key)+len(val), func(txn *badger.Txn) error { return txn.Set(key, val) })
}

// Delete removes key.
func (p *pipe) Delete(key []byte) error {
	return p.write(len(key), func(txn *badger.Txn) error { return txn.Delete(key) })
}

func (p *pipe) write(size int, op func(*badger.Txn) error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return errPipeDone
	}
	if err := p.failed(); err != nil {
		return err
	}
	if p.held+size > pipeTxnBytes && p.held > 0 {
		if err := p.next(); err != nil {
			return err
		}
	}
	err := op(p.txn)
	if errors.Is(err, badger.ErrTxnTooBig) {
		if err := p.next(); err != nil {
			return err
		}
		if err = op(p.txn); err != nil { // too big for an empty transaction
			return fmt.Errorf("%w: %w", ErrTooBig, err)
		}
	}
	if err == nil {
		p.held += size
	}
	return err
}

// next checks for room on the disk, then rotates.
func (p *pipe) next() error {
	if p.room != nil {
		if err := p.room(); err != nil {
			return err
		}
	}
	p.rotate()
	return nil
}

// rotate begins the next transaction, then commits the current one
// without waiting for Badger to apply it.
func (p *pipe) rotate() {
	next := p.db.NewTransaction(true)
	p.pending.Add(1)
	p.txn.CommitWith(func(err error) {
		if err != nil {
			p.errMu.Lock()
			if p.err == nil {
				p.err = err
			}
			p.errMu.Unlock()
		}
		p.pending.Done()
	})
	p.txn, p.held = next, 0
}

func (p *pipe) failed() error {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	return p.err
}

// Flush commits what is left, waits until every write is applied and
// returns the first error of any commit. The pipe takes no writes after.
func (p *pipe) Flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return errPipeDone
	}
	p.done = true
	err := p.txn.Commit()
	p.pending.Wait()
	if ferr := p.failed(); ferr != nil {
		return ferr
	}
	return err
}

// Cancel drops the writes not yet committed and waits for the commits
// under way; after Flush it only waits. Committed writes stay: a pipe, like
// the Batch it serves, is not atomic.
func (p *pipe) Cancel() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		p.done = true
		p.txn.Discard()
	}
	p.pending.Wait()
}
