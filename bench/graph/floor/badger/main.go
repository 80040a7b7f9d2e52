// Command badger measures what Badger alone costs a short process, with
// the options of lore's graph store (see graph/store.go), so that
// bench/graph/floor.py can set lore's whole-process times beside the floor
// its storage library puts under them.
//
//	badger link           exits at once: starting a program that links Badger
//	badger read DIR       opens the store in DIR read-only and closes it
//	badger write DIR      opens it for writing, sets one key, closes it
//
// A write sets the key "floor-probe"; point it at a copy of a store.
package main

import (
	"fmt"
	"os"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "badger:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 1 && args[0] == "link" {
		return nil
	}
	if len(args) != 2 || (args[0] != "read" && args[0] != "write") {
		return fmt.Errorf("usage: badger link | read DIR | write DIR")
	}
	write := args[0] == "write"
	// The options that shape a short process's open and close, as in
	// graph.Store's badgerOptions.
	o := badger.DefaultOptions(args[1]).WithLogger(nil).
		WithReadOnly(!write).
		WithMemTableSize(4 << 20).
		WithNumMemtables(2).
		WithNumLevelZeroTables(8).
		WithNumLevelZeroTablesStall(16).
		WithCompression(options.None).
		WithBlockCacheSize(0).
		WithValueLogFileSize(16 << 20).
		WithBaseTableSize(8 << 20).
		WithValueThreshold(4 << 10).
		WithNumCompactors(2).
		WithMetricsEnabled(false)
	db, err := badger.Open(o)
	if err != nil {
		return err
	}
	if write && db.Levels()[0].NumTables >= 7 {
		// As graph.Store does: a writer that finds level 0 this full
		// compacts it as it closes, or the runs would pile up tables
		// until Badger stalls writes.
		if err := db.Close(); err != nil {
			return err
		}
		if db, err = badger.Open(o.WithCompactL0OnClose(true)); err != nil {
			return err
		}
	}
	if write {
		err = db.Update(func(txn *badger.Txn) error {
			return txn.Set([]byte("floor-probe"), []byte("1"))
		})
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}
