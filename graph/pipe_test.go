package graph

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// A pipe's writes span many transactions (it rotates when one is full)
// and, written from several goroutines at once, all land; Flush returns
// once they are applied, and the pipe refuses writes after.
func TestPipeWritesAcrossTransactions(t *testing.T) {
	s := openMem(t)
	p := newPipe(s.db, nil)
	defer p.Cancel()
	val := bytes.Repeat([]byte("x"), 4<<10) // a few hundred per transaction
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				if err := p.Set(kvKey("pipe", fmt.Sprintf("%d-%03d", w, i)), val); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := p.Delete(kvKey("pipe", "0-000")); err != nil {
		t.Fatal(err)
	}
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := p.Set(kvKey("pipe", "late"), val); !errors.Is(err, errPipeDone) {
		t.Errorf("Set after Flush: %v, want errPipeDone", err)
	}
	if err := p.Flush(); !errors.Is(err, errPipeDone) {
		t.Errorf("second Flush: %v, want errPipeDone", err)
	}
	n := 0
	err := s.View(func(tx *Tx) error {
		return tx.Scan("pipe", "", func(k string, v []byte) error {
			n++
			if !bytes.Equal(v, val) {
				return fmt.Errorf("%s: value differs", k)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 4*500-1 {
		t.Errorf("%d keys stored, want %d", n, 4*500-1)
	}
}

// Cancel drops what was not committed and keeps what was committed when
// a full transaction rotated.
func TestPipeCancel(t *testing.T) {
	s := openMem(t)
	p := newPipe(s.db, nil)
	first := kvKey("pipe", "first")
	if err := p.Set(first, []byte("1")); err != nil {
		t.Fatal(err)
	}
	// More entries than one transaction holds: the first is committed.
	for i := range 2 * int(s.db.MaxBatchCount()) {
		if err := p.Set(kvKey("pipe", fmt.Sprint(i)), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Set(kvKey("pipe", "last"), []byte("2")); err != nil {
		t.Fatal(err)
	}
	p.Cancel()
	p.Cancel() // again: only waits
	if err := p.Set(kvKey("pipe", "late"), []byte("3")); !errors.Is(err, errPipeDone) {
		t.Errorf("Set after Cancel: %v, want errPipeDone", err)
	}
	get := func(key string) error {
		return s.View(func(tx *Tx) error {
			_, err := tx.Get("pipe", key)
			return err
		})
	}
	if err := get("first"); err != nil {
		t.Errorf("a write of a committed transaction: %v", err)
	}
	if err := get("last"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a cancelled write: %v, want ErrNotFound", err)
	}
}
