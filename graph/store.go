package graph

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// ErrNotFound reports that a key, node or edge does not exist.
var ErrNotFound = errors.New("not found")

// ErrLocked reports that another process held the database for longer than
// Options.LockTimeout.
var ErrLocked = errors.New("database is locked by another process")

// DefaultLockTimeout is how long Open waits for another process by default.
const DefaultLockTimeout = 10 * time.Second

// Options configure Open. The zero value is usable.
type Options struct {
	// InMemory keeps everything in memory; dir is ignored. For tests.
	InMemory bool
	// LockTimeout bounds the wait for another process holding the
	// database. Zero means DefaultLockTimeout; negative means fail at once.
	LockTimeout time.Duration
	// Schema is the caller's schema version. When the stored version
	// differs, the store is emptied and Rebuilt reports true.
	Schema int
	// HistoryLimit bounds the log of edge changes (see Tx.History). Zero
	// means DefaultHistoryLimit; negative keeps no history.
	HistoryLimit int
	// MemTableSize is Badger's memtable size in bytes. Zero means 4 MiB,
	// which keeps the start of short CLI runs cheap (Badger zeroes the
	// whole arena at open). Bulk loaders pass more; one transaction may
	// hold only a fraction of it (Badger's batch limit).
	MemTableSize int64
	// ReadWrite opens an existing database for writing at once instead
	// of read-only until the first write (see Store). Runs that will
	// write anyway save opening and closing the read-only handle first.
	ReadWrite bool
}

// Store is an open database. It is safe for concurrent use by goroutines.
//
// A Store opened on an existing database starts read-only: Badger then takes
// a shared lock and creates no memtable, write-ahead log or value-log file,
// which is most of the cost of opening and closing it. The first write
// (Update, Batch, Load, Compact) closes the read-only handle and reopens the
// database for writing, waiting for other processes as Open does. Another
// process may commit between the two, so a caller that must read and write
// atomically does both inside one Update.
type Store struct {
	db      *badger.DB
	dir     string
	rebuilt bool
	opts    Options

	readOnly atomic.Bool // db is the read-only handle
	upgrade  sync.Mutex  // serialises reopening for writing

	nextUID  atomic.Uint64 // last node uid handed out
	histSeq  atomic.Uint64 // last history sequence number handed out
	histKeep uint64        // history entries kept; 0 keeps none
	searches sync.Pool     // *search buffers for reuse by traversals
	names    nameCache     // uid → id, read-through
	// exclusive is held shared by every transaction and exclusively by a
	// stream load, which replaces the tables under all of them, and by
	// the reopening for writing. Stream loads only TryLock it and the
	// reopening gives up after the lock timeout, so nothing ever waits for
	// it exclusively without bound and holding it shared twice in one
	// goroutine is safe.
	exclusive sync.RWMutex
	// streamMin is the smallest Load into an empty store that uses the
	// stream writer (tests lower it).
	streamMin int
	// runBytes bounds a run of a load's sorted keys (see runs), 0 for
	// loadRunBytes; partBytes bounds a part of a stream load (see parts),
	// 0 for partSize's; loading, when set, runs as each part of a stream
	// load begins (the first replaces the tables), and fails the load
	// when it returns an error. Tests set them.
	runBytes  int
	partBytes int
	loading   func(part int) error
	// created is set when Open created the database: its first writer
	// fills it in bulk (see valueThreshold).
	created bool

	fault    *fault       // set when Badger failed under this Store
	inflight atomic.Int32 // calls running through guard
	dirInfo  os.FileInfo  // the directory as opened (nil in memory)

	// pins holds, per open handle, the directory it was opened in (see
	// pinDir) until its Close returns.
	pinMu sync.Mutex
	pins  map[*badger.DB]*os.File
}

// Key prefixes of the store's key space. Each is one byte so that every
// family of keys is one contiguous range.
const (
	prefixMeta = 'm' // m<name>
	prefixKV   = 'k' // k<ns>\x00<key>
)

const metaSchema = "schema"

// compactL0At is the number of level-0 tables at which a writer compacts
// level 0 into the levels below when it closes. Each short writer run
// leaves one small level-0 table (its memtable); compacting on every close
// would rewrite the overlapping tables below each time (a writer's keys
// span several key families, so most of the store), while reads slow down
// only with many more level-0 tables than this. Badger's own compactors
// start at the same count, but a short run ends before they do. See the
// ledger of BENCHMARKS.md.
const compactL0At = 8

// baseTableSize is the size of the tables Badger's compactions write. Each
// table costs a CLI process an open (mmap, index, biggest key) and a close
// (msync, munmap), which larger tables make fewer of; but a compaction
// builds several tables at once, each in a buffer of twice the table's
// size, which is most of the memory of a large index's compactions. A
// store of a repository of ten thousand files has as many tables either
// way: most are level 0's, one per memtable flushed. See BENCHMARKS.md.
const baseTableSize = 2 << 20

// Values larger than the value threshold go to Badger's value log,
// written once; smaller ones go to the write-ahead log and, when the
// memtable is flushed, to a table: written twice, but collected by
// compaction like any key.
//
// The writer that creates a database fills it in bulk (a first index):
// bulkValueThreshold sends its records of more than a few hundred bytes
// (symbol records, name buckets: most of the bytes) to the value log,
// written once instead of twice, and keeps the small ones (file records,
// most import and name records, the graph's) next to their keys. Every
// value kept in the tree passes through memtables, level-0 tables and
// compactions, whose buffers were most of Badger's share of a large first
// index's memory. Later writers rewrite a few records each (a
// hook re-indexing the files of a commit), and a value they sent to the
// log would start a value-log file of its own per run that Badger's
// collection never picks: it rewrites only the file with the most stale
// bytes, a large one from the first index, and only once half of it is
// stale, so a small file per run would pile up. Their values stay in the
// tree up to shortValueThreshold.
const (
	bulkValueThreshold  = 512
	shortValueThreshold = 256 << 10
)

// gcFilesPerClose bounds the value-log files a writer collects as it
// closes.
const gcFilesPerClose = 4

// Open opens (creating if needed) the database in dir.
func Open(dir string, opts Options) (*Store, error) {
	s := &Store{dir: dir, opts: opts, streamMin: defaultStreamMin, fault: newFault()}
	switch {
	case opts.HistoryLimit == 0:
		s.histKeep = DefaultHistoryLimit
	case opts.HistoryLimit > 0:
		s.histKeep = uint64(opts.HistoryLimit)
	}
	if !opts.InMemory {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open store %s: %w", dir, err)
		}
		fi, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", dir, err)
		}
		s.dirInfo = fi
		if name := diedOpening(dir); name != "" {
			return nil, fmt.Errorf("open store %s: %w: a process died while opening or loading it (%s left behind)", dir, ErrCorrupt, name)
		}
	}
	db, ro, err := s.openDB(!opts.ReadWrite, false)
	if err != nil {
		return nil, err
	}
	s.db = db
	s.readOnly.Store(ro)
	if err := s.checkSchema(opts.Schema); err != nil {
		_ = s.Close() // the failure above is the one to report
		return nil, err
	}
	if err := s.read(s.loadCounters); err != nil {
		_ = s.Close() // the failure above is the one to report
		return nil, fmt.Errorf("open store %s: %w", dir, damaged(err))
	}
	return s, nil
}

// damaged sorts an error of opening or reading the store: the operating
// system's (a permission, a full disk, an I/O error) becomes that error
// alone, anything else means the data is damaged (ErrCorrupt). A missing
// file of the store is damage too.
func damaged(err error) error {
	if err == nil || errors.Is(err, ErrCorrupt) || errors.Is(err, ErrLocked) {
		return err
	}
	if errno := osError(err); errno != 0 {
		return withHint(errno)
	}
	return fmt.Errorf("%w: %w", ErrCorrupt, err)
}

// withHint adds to an error of the operating system what to do about it.
func withHint(errno syscall.Errno) error {
	switch errno {
	case syscall.ENOSPC, syscall.EDQUOT:
		return fmt.Errorf("%w: free space and rerun", errno)
	case syscall.EACCES, syscall.EPERM, syscall.EROFS:
		return fmt.Errorf("%w: make the directory writable (or remove it) and rerun", errno)
	case syscall.EIO:
		return fmt.Errorf("%w: check the disk, then remove the directory and rerun", errno)
	}
	return errno
}

// osErrors are the operating system's errors that say nothing about the
// store's data.
var osErrors = []syscall.Errno{syscall.EACCES, syscall.EPERM, syscall.EROFS, syscall.ENOSPC,
	syscall.EDQUOT, syscall.EIO, syscall.EMFILE, syscall.ENFILE, syscall.ENOMEM, syscall.EFBIG}

// osError finds one of osErrors in err. Badger flattens the errors it
// wraps into text, so the error's text is searched for the system's own
// message when the chain does not hold it.
func osError(err error) syscall.Errno {
	for _, e := range osErrors {
		if errors.Is(err, e) || strings.Contains(err.Error(), e.Error()) {
			return e
		}
	}
	return 0
}

// badgerOptions are the options of every handle; compactOnClose is decided
// per handle.
func (s *Store) badgerOptions(compactOnClose bool) badger.Options {
	bo := badger.DefaultOptions(s.dir).
		WithMemTableSize(memTableSize(s.opts.MemTableSize)).
		WithNumMemtables(2).
		WithNumLevelZeroTables(compactL0At).
		WithNumLevelZeroTablesStall(2 * compactL0At).
		WithCompression(options.None).
		WithBlockCacheSize(0).
		WithValueLogFileSize(s.valueLogFileSize()).
		WithBaseTableSize(baseTableSize).
		WithValueThreshold(s.valueThreshold()).
		WithNumCompactors(2).
		WithCompactL0OnClose(compactOnClose).
		WithMetricsEnabled(false).
		WithDetectConflicts(true)
	// Tables of every level one size: with Badger's default, each level
	// below the base has tables twice as large as the one above, and both
	// a compaction's builders (up to eight and more at once, each
	// allocating twice its table's size up front) and the stream writer
	// of a bulk load (see Load: it builds each table whole, sized for the
	// last level) grew with the store.
	bo.TableSizeMultiplier = 1
	if s.opts.InMemory {
		bo = bo.WithInMemory(true).WithDir("").WithValueDir("")
	}
	return bo
}

// Badger starts a new value-log file when the current one passes the
// file size, and first writes the full one back with msync in its single
// writer goroutine, which holds up every commit meanwhile. The writer that
// creates a database writes most of its values there (a cold index):
// bulkLogFileSize keeps them in one file, synced once when the store
// closes. Later writers send few values there (see shortValueThreshold)
// and keep smaller files. A large file costs its collection more at once:
// Badger rewrites a file's live values when half of it is stale.
const (
	bulkLogFileSize  = 64 << 20
	shortLogFileSize = 16 << 20
)

func (s *Store) valueLogFileSize() int64 {
	if s.created {
		return bulkLogFileSize
	}
	return shortLogFileSize
}

func (s *Store) valueThreshold() int64 {
	if s.created {
		return bulkValueThreshold
	}
	// Badger refuses a threshold above its largest batch.
	return min(shortValueThreshold, memTableSize(s.opts.MemTableSize)*15/100)
}

// openDB opens a Badger handle, read-only when tryReadOnly and the
// database exists and needs no recovery, waiting up to the lock timeout
// for other processes. A handle for writing compacts level 0 on close when
// compactOnClose or when it finds compactL0At-1 level-0 tables or more (the
// writer's own memtable makes one more).
func (s *Store) openDB(tryReadOnly, compactOnClose bool) (*badger.DB, bool, error) {
	if s.opts.InMemory {
		db, err := s.openHandle(s.badgerOptions(false))
		if err != nil {
			return nil, false, fmt.Errorf("open store: %w", err)
		}
		return db, false, nil
	}
	if _, err := os.Stat(filepath.Join(s.dir, badger.ManifestFilename)); err != nil {
		tryReadOnly = false // a new database
		s.created = s.db == nil
	} else {
		// Best effort: what it cannot remove fails Badger's open
		// below, which tries again and reports.
		_ = removeEmptyLogs(s.dir)
	}
	wait := s.opts.LockTimeout
	if wait == 0 {
		wait = DefaultLockTimeout
	}
	deadline := time.Now().Add(wait)
	delay := 5 * time.Millisecond
	repaired := false // empty log files of a crashed writer removed once
	var unmark func() // removes this writer's waiting marker
	loader := ""      // a process loading into the database
	for {
		var db *badger.DB
		var err error
		if tryReadOnly {
			db, err = s.openHandle(s.badgerOptions(false).WithReadOnly(true))
			if err == nil {
				if loader, err = s.aside(db); err != nil || loader == "" {
					return db, true, err
				}
			} else if !isLockErr(err) {
				// A crashed writer left a write-ahead log to replay, or
				// the store needs repair: only a writer can do that.
				tryReadOnly = false
				continue
			}
		} else {
			if err := s.roomToWrite(); err != nil {
				return nil, false, err
			}
			db, err = s.openHandle(s.badgerOptions(compactOnClose))
			if err == nil {
				if !compactOnClose && !s.created && levelZero(db) >= compactL0At-1 {
					if err := s.closeHandle(db, false); err != nil {
						return nil, false, err
					}
					compactOnClose = true
					continue
				}
				if loader, err = s.aside(db); err != nil || loader == "" {
					return db, false, err
				}
			} else if !isLockErr(err) {
				if !repaired {
					// Badger sizes an empty log file while failing on it,
					// and opens it the next time (dgraph-io/badger#2207).
					repaired = true
					if rerr := removeEmptyLogs(s.dir); rerr != nil {
						// Not damage: what failed Badger fails the repair.
						return nil, false, fmt.Errorf("open store %s: %w", s.dir, damaged(rerr))
					}
					continue
				}
				return nil, false, fmt.Errorf("open store %s: %w", s.dir, damaged(err))
			}
		}
		if !tryReadOnly && unmark == nil && !s.opts.InMemory {
			// Tell a long-lived reader holding the database that a
			// writer waits (see Waiting).
			unmark = markWaiting(s.dir)
			defer unmark()
		}
		remaining := time.Until(deadline)
		if remaining <= 0 {
			holder := ""
			if pid := lockHolder(s.dir); pid != "" {
				holder = " (pid " + pid + ")"
			}
			if loader != "" {
				holder = " (pid " + loader + ", loading into it)"
			}
			return nil, false, fmt.Errorf("open store %s: %w%s; waited %s, try again when it finishes", s.dir, ErrLocked, holder, max(wait, 0))
		}
		time.Sleep(min(delay, remaining))
		if delay < 100*time.Millisecond {
			delay *= 2
		}
	}
}

// aside closes db, just opened, when another process is loading into the
// database (see loadingElsewhere), and returns that process's id: openDB
// then waits for it as for a lock. When none is, it looks for a process
// that died while loading (see Open), and closes db with ErrCorrupt when
// one did: also one that died while db was opening, after Open looked.
func (s *Store) aside(db *badger.DB) (string, error) {
	if pid := loadingElsewhere(s.dir); pid != "" {
		return pid, s.closeHandle(db, false)
	}
	if name := diedOpening(s.dir); name != "" {
		_ = s.closeHandle(db, false) // the damage is what to report
		return "", fmt.Errorf("open store %s: %w: a process died while opening or loading it (%s left behind)", s.dir, ErrCorrupt, name)
	}
	return "", nil
}

// openHandle opens a Badger handle with a logger of its own (see fault),
// marking the opening (see markOpening). A panic of Badger in this
// goroutine while it reads damaged files becomes ErrCorrupt. An open that
// fails after replaying a crashed writer's log waits for the flush of what
// it replayed before it returns, forever when the directory cannot be
// written: openHandle gives up on it as guard does.
func (s *Store) openHandle(bo badger.Options) (*badger.DB, error) {
	var pin *os.File
	log := &faultLog{s: s, opening: newFault()}
	if s.dirInfo != nil {
		// Badger makes a missing directory: a store whose directory went
		// must not go on in a new one.
		dir, f, err := pinDir(s.dir, s.dirInfo)
		if err != nil {
			if s.checkDir() {
				return nil, s.fault.get()
			}
			return nil, fmt.Errorf("open store %s: %w", s.dir, damaged(err))
		}
		pin, log.pin = f, dir
		bo = bo.WithDir(dir).WithValueDir(dir)
	}
	unpin := func() {
		if pin != nil {
			pin.Close()
		}
	}
	bo = bo.WithLogger(log)
	unmark := func() {}
	if !s.opts.InMemory {
		unmark = markOpening(s.dir)
	}
	var db *badger.DB
	done := s.start(func() error {
		var err error
		db, err = badger.Open(bo)
		return err
	})
	var err error
	tick := time.NewTicker(dirCheckEvery)
	defer tick.Stop()
	failed := log.opening.c
	var giveUp <-chan time.Time
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-tick.C:
			if s.checkDir() && giveUp == nil {
				giveUp = time.After(faultGrace)
			}
		case <-failed:
			failed, giveUp = nil, time.After(faultGrace)
		case <-giveUp:
			unmark()
			if s.checkDir() {
				return nil, s.drain(pin != nil, func() error {
					if <-done == nil {
						s.pinned(db, pin)
						return s.recovered(func() error { return s.closeDB(db) })
					}
					unpin()
					return nil
				})
			}
			if err := log.opening.get(); err != nil {
				return nil, err
			}
			return nil, s.fault.get()
		}
	}
	unmark()
	if err != nil {
		unpin()
		return nil, s.named(err, log.pin)
	}
	s.pinned(db, pin)
	if s.dirInfo != nil && s.checkDir() {
		// Removed while Badger opened it (and, unpinned, made again by
		// Badger): that is the failure to report.
		end := func() error { return s.recovered(func() error { return s.closeDB(db) }) }
		if pin != nil {
			return nil, s.drain(true, end)
		}
		_ = end()
		return nil, s.fault.get()
	}
	log.armed.Store(true)
	return db, nil
}

// pinned records the directory db was opened in (see pinDir).
func (s *Store) pinned(db *badger.DB, pin *os.File) {
	if pin == nil {
		return
	}
	s.pinMu.Lock()
	defer s.pinMu.Unlock()
	if s.pins == nil {
		s.pins = map[*badger.DB]*os.File{}
	}
	s.pins[db] = pin
}

// closeDB closes a Badger handle and then lets go of the directory it was
// opened in: not before, since Badger's goroutines name their files
// through it until Close returns.
func (s *Store) closeDB(db *badger.DB) error {
	err := db.Close()
	s.pinMu.Lock()
	pin := s.pins[db]
	delete(s.pins, db)
	s.pinMu.Unlock()
	if pin != nil {
		pin.Close()
	}
	return err
}

// closeHandle closes a Badger handle, first collecting value-log garbage
// when collect is set, giving up as guard does when the store fails
// meanwhile (a close flushes the memtable). It tries even when the store
// has failed already.
func (s *Store) closeHandle(db *badger.DB, collect bool) error {
	if s.checkDir() {
		s.pinMu.Lock()
		pinned := s.pins[db] != nil
		s.pinMu.Unlock()
		return s.drain(pinned, func() error { return s.recovered(func() error { return s.closeDB(db) }) })
	}
	err := s.wait(func() error {
		if collect && s.fault.get() == nil {
			// Each writer starts a value-log file, and the values it
			// holds go stale as later runs rewrite them, but Badger
			// deletes a file only when its garbage is collected: without
			// this, a hook that re-indexes on every commit leaves one more
			// file per run, and every later process opens them all. A
			// file is rewritten once compactions have found half of it
			// stale; a few per run keep up.
			for range gcFilesPerClose {
				if db.RunValueLogGC(0.5) != nil {
					break
				}
			}
		}
		return s.closeDB(db)
	}, true)
	if err != nil && err != s.fault.get() {
		if errno := osError(err); errno != 0 {
			err = withHint(errno)
		}
		return fmt.Errorf("close store %s: %w", s.dir, err)
	}
	return err
}

// drain ends a handle whose directory was removed under it: close (or
// the open under way) ends it. Badger retries the flush of its memtable
// forever. A pinned handle (see pinDir) cannot reach a store made at the
// same path later, so its end runs in the background, to fail for ever
// where it cannot finish: the cost of its memory is the price of never
// touching the next store. An unpinned one names its files by path: were
// a store made at the same path later (by the next request of a server),
// the old handle would write its tables into it and remove its lock file.
// So, unless something is at the path already, the directory is made
// again, empty, for the handle to end in, then removed with what it left.
// The store's failure is the one to report; end's only when there is none.
func (s *Store) drain(pinned bool, end func() error) error {
	failure := s.fault.get()
	if pinned {
		s.start(end)
		return failure
	}
	if os.Mkdir(s.dir, 0o755) != nil {
		return failure // another process made a store there: not ours to touch
	}
	closed := s.start(end)
	select {
	case err := <-closed:
		if failure == nil {
			failure = err
		}
	case <-time.After(drainBound):
	}
	_ = os.RemoveAll(s.dir) // best effort: nothing of the store was left to keep
	return failure
}

// drainBound is how long drain waits for a close: Badger retries a failed
// flush every second.
const drainBound = 5 * time.Second

// Badger writes its write-ahead log, value log and tables through shared
// mappings of files it sizes first; when the disk fills under such a
// mapping, the write faults and the process dies (SIGBUS), with no error to
// report. So a writer starts, and a batch goes on, only while the disk has
// room for a few memtables' worth of log and tables and a value-log file.
func (s *Store) spaceNeeded() uint64 {
	return uint64(4*memTableSize(s.opts.MemTableSize) + shortLogFileSize)
}

// roomToWrite fails with ENOSPC when the disk lacks spaceNeeded.
func (s *Store) roomToWrite() error {
	if s.opts.InMemory {
		return nil
	}
	free, ok := freeSpace(s.dir)
	need := s.spaceNeeded()
	if !ok || free >= need {
		return nil
	}
	return fmt.Errorf("store %s: %s free, writing needs %s: %w", s.dir, mib(free), mib(need), withHint(syscall.ENOSPC))
}

func mib(n uint64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

func levelZero(db *badger.DB) int {
	n := 0
	for _, t := range db.Tables() {
		if t.Level == 0 {
			n++
		}
	}
	return n
}

// Upgrade reopens a store opened read-only for writing now, as its first
// write would (see Store); on a writable store it does nothing. Another
// process may have written before the reopening: a caller that decided
// what to write from what it read through the read-only handle reads it
// again after Upgrade.
func (s *Store) Upgrade() error { return s.writable() }

// Reopen closes the database and opens it again, for writing when it was
// open for writing. Badger writes its files through shared mappings that
// stay mapped, and count as the process's memory, while the handle is
// open: a writer that fills a new store in bulk (a first index) would hold
// every byte it wrote. Reopening releases those pages; the data is read
// back from the files as it is used. It fails inside a transaction or a
// batch, as Upgrade does. Another process may take the database between
// the close and the open: a caller that must know it was alone checks
// what it wrote (a mark of its own) afterwards.
func (s *Store) Reopen() error {
	if s.opts.InMemory || s.readOnly.Load() {
		return nil
	}
	return s.reopen(false, false, "reopen", "cannot reopen while a transaction is open")
}

// reopen closes the handle (collecting the value log when collect is set)
// and opens the database again, read-only when readOnly is set and the
// database allows it. On failure the Store is closed.
func (s *Store) reopen(readOnly, collect bool, what, busy string) error {
	s.upgrade.Lock()
	defer s.upgrade.Unlock()
	if s.db == nil {
		return fmt.Errorf("store %s is closed", s.dir)
	}
	if err := s.lockHandle(busy); err != nil {
		return err
	}
	defer s.exclusive.Unlock()
	if err := s.cycle(readOnly, collect); err != nil {
		return fmt.Errorf("store %s: %s: %w", s.dir, what, err)
	}
	s.names.clear()
	return s.read(s.loadCounters)
}

// cycle closes the handle (see reopen) and opens the database again, for a
// caller that holds s.upgrade and s.exclusive. On failure the Store is
// closed.
func (s *Store) cycle(readOnly, collect bool) error {
	err := s.closeHandle(s.db, collect)
	s.db = nil
	if err != nil {
		return err
	}
	db, ro, err := s.openDB(readOnly, false)
	if err == nil && !ro {
		// Badger reads the last value-log file through in full as it
		// opens a database for writing (to find where its entries end),
		// which maps again the pages the close released, and then starts
		// a new file: a second opening reads that one, empty, instead.
		if err = s.closeHandle(db, false); err == nil {
			db, ro, err = s.openDB(false, false)
		}
	}
	if err != nil {
		return err
	}
	s.db = db
	s.readOnly.Store(ro)
	return nil
}

// writable makes sure the Store's handle can write, reopening the database
// for writing if it was opened read-only. See Store.
func (s *Store) writable() error {
	if !s.readOnly.Load() {
		return nil
	}
	s.upgrade.Lock()
	defer s.upgrade.Unlock()
	if !s.readOnly.Load() {
		return nil
	}
	if s.db == nil {
		return fmt.Errorf("store %s is closed", s.dir)
	}
	// A write from inside a read transaction would wait forever.
	if err := s.lockHandle("cannot reopen for writing while a read transaction is open"); err != nil {
		return err
	}
	defer s.exclusive.Unlock()
	if err := s.roomToWrite(); err != nil {
		return err
	}
	compact := levelZero(s.db) >= compactL0At-1
	if err := s.closeHandle(s.db, false); err != nil {
		s.db = nil
		return fmt.Errorf("store %s: reopen for writing: %w", s.dir, err)
	}
	db, _, err := s.openDB(false, compact)
	if err != nil {
		// Keep reading if we can; if even that fails, the Store is
		// closed and only Close may be called.
		s.db, _, _ = s.openDB(true, false)
		return err
	}
	s.db = db
	s.readOnly.Store(false)
	// Another process may have written meanwhile: its nodes took uids.
	s.names.clear()
	return s.read(s.loadCounters)
}

// Downgrade closes a handle opened for writing, which flushes what was
// written, and reopens the database read-only, so that other processes
// may open it again while this Store goes on reading (a long-lived
// holder's, see lore.Workspace.Hold). On a read-only store it does
// nothing. Another process may write before the reopening: what this
// Store's caller cached of the database it reads again. On failure the
// Store is closed and only Close may be called.
func (s *Store) Downgrade() error {
	if s.readOnly.Load() || s.opts.InMemory {
		return nil
	}
	return s.reopen(true, true, "reopen read-only", "cannot reopen read-only while a transaction is open")
}

// lockHandle waits for this Store's transactions to end before its handle
// is reopened, giving up after the lock timeout with why; the caller
// unlocks s.exclusive.
func (s *Store) lockHandle(why string) error {
	wait := s.opts.LockTimeout
	if wait <= 0 {
		wait = DefaultLockTimeout
	}
	deadline := time.Now().Add(wait)
	for !s.exclusive.TryLock() {
		if time.Now().After(deadline) {
			return fmt.Errorf("store %s: %s", s.dir, why)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

func memTableSize(n int64) int64 {
	if n <= 0 {
		return 4 << 20
	}
	return n
}

func isLockErr(err error) bool {
	return strings.Contains(err.Error(), "Cannot acquire directory lock")
}

func lockHolder(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "LOCK"))
	if err != nil {
		return ""
	}
	pid := strings.TrimSpace(string(b))
	if _, err := strconv.Atoi(pid); err != nil {
		return ""
	}
	return pid
}

func (s *Store) checkSchema(want int) error {
	key := metaKey(metaSchema)
	var have []byte
	err := s.read(func() error {
		return s.db.View(func(txn *badger.Txn) error {
			it, err := txn.Get(key)
			if err != nil {
				return err
			}
			have, err = it.ValueCopy(nil)
			return err
		})
	})
	switch {
	case errors.Is(err, badger.ErrKeyNotFound):
		empty, err := s.empty()
		if err != nil {
			return fmt.Errorf("open store %s: %w", s.dir, damaged(err))
		}
		s.rebuilt = !empty
	case err != nil:
		return fmt.Errorf("open store %s: read schema: %w", s.dir, damaged(err))
	case string(have) == strconv.Itoa(want):
		return nil
	default:
		s.rebuilt = true
	}
	if err := s.writable(); err != nil {
		return err
	}
	return s.guard(func() error {
		if s.rebuilt {
			if err := s.db.DropAll(); err != nil {
				return fmt.Errorf("open store %s: drop for rebuild: %w", s.dir, err)
			}
		}
		return s.db.Update(func(txn *badger.Txn) error {
			return txn.Set(key, []byte(strconv.Itoa(want)))
		})
	})
}

func (s *Store) empty() (bool, error) {
	empty := true
	err := s.read(func() error {
		return s.db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{})
			defer it.Close()
			it.Rewind()
			empty = !it.Valid()
			return nil
		})
	})
	return empty, err
}

// Rebuilt reports whether Open emptied the store because its schema version
// differed from Options.Schema (or it held data without a version).
func (s *Store) Rebuilt() bool { return s.rebuilt }

// Dir returns the directory the store lives in ("" in memory).
func (s *Store) Dir() string { return s.dir }

// Close flushes and closes the database. Calling it twice is harmless.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.upgrade.Lock()
	defer s.upgrade.Unlock()
	if s.db == nil {
		return nil
	}
	db := s.db
	s.db = nil
	return s.closeHandle(db, !s.readOnly.Load() && !s.opts.InMemory)
}

// ReadOnly reports whether the store's handle is still read-only: nothing
// was written through it since Open.
func (s *Store) ReadOnly() bool { return s.readOnly.Load() }

// Compact flattens the LSM tree and collects value-log garbage. Short-lived
// writers leave many small tables behind; Compact restores read speed.
func (s *Store) Compact() error {
	if err := s.writable(); err != nil {
		return fmt.Errorf("compact %s: %w", s.dir, err)
	}
	err := s.guard(func() error {
		s.exclusive.RLock()
		defer s.exclusive.RUnlock()
		if err := s.trimHistory(); err != nil {
			return err
		}
		if err := s.db.Flatten(1); err != nil {
			return err
		}
		for s.db.RunValueLogGC(0.5) == nil {
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("compact %s: %w", s.dir, err)
	}
	return nil
}

// Tables reports the number of LSM tables per level (index = level).
// Callers use it to decide when to Compact.
func (s *Store) Tables() []int {
	s.exclusive.RLock()
	defer s.exclusive.RUnlock()
	var levels []int
	for _, t := range s.db.Tables() {
		for len(levels) <= t.Level {
			levels = append(levels, 0)
		}
		levels[t.Level]++
	}
	return levels
}

func metaKey(name string) []byte { return append([]byte{prefixMeta}, name...) }

func kvKey(ns, key string) []byte {
	b := make([]byte, 0, 2+len(ns)+len(key))
	b = append(b, prefixKV)
	b = append(b, ns...)
	b = append(b, 0)
	return append(b, key...)
}

func validNS(ns string) error {
	if ns == "" || strings.IndexByte(ns, 0) >= 0 {
		return fmt.Errorf("invalid namespace %q", ns)
	}
	return nil
}

// View runs fn in a read-only transaction.
func (s *Store) View(fn func(*Tx) error) error {
	return s.read(func() error {
		s.exclusive.RLock()
		defer s.exclusive.RUnlock()
		return s.db.View(func(txn *badger.Txn) error { return fn(&Tx{txn: txn, s: s}) })
	})
}

// Update runs fn in a read-write transaction and commits it, retrying a few
// times when a concurrent transaction conflicted. fn may run more than once.
func (s *Store) Update(fn func(*Tx) error) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.guard(func() error {
		s.exclusive.RLock()
		defer s.exclusive.RUnlock()
		var err error
		for range 5 {
			err = s.db.Update(func(txn *badger.Txn) error { return fn(&Tx{txn: txn, s: s, write: true}) })
			if !errors.Is(err, badger.ErrConflict) {
				break
			}
		}
		if errors.Is(err, badger.ErrTxnTooBig) {
			return fmt.Errorf("%w, use Batch: %w", ErrTooBig, err)
		}
		return err
	})
}

// Tx is a transaction. It must not be used after its View or Update returns.
type Tx struct {
	txn   *badger.Txn
	s     *Store
	write bool
	w     *writer
}

// Get returns a copy of the value stored under ns/key, or ErrNotFound.
func (tx *Tx) Get(ns, key string) ([]byte, error) {
	if err := validNS(ns); err != nil {
		return nil, err
	}
	it, err := tx.txn.Get(kvKey(ns, key))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return it.ValueCopy(nil)
}

// Set stores val under ns/key.
func (tx *Tx) Set(ns, key string, val []byte) error {
	if err := tx.s.checkEntry(ns, key, val); err != nil {
		return err
	}
	return tx.txn.Set(kvKey(ns, key), bytes.Clone(val))
}

// maxKey and maxValue bound one entry of the key-value space. Badger
// refuses larger keys, and values larger than a value-log file (which is
// larger for the writer that creates the store): the smaller bound holds
// for every writer.
const (
	maxKey   = 60_000
	maxValue = shortLogFileSize
)

// checkEntry refuses an entry Badger could not store with ErrTooBig, before
// Badger refuses it with a dump of its bytes.
func (s *Store) checkEntry(ns, key string, val []byte) error {
	if err := validNS(ns); err != nil {
		return err
	}
	limit := int64(maxValue)
	if s.opts.InMemory {
		limit = s.valueThreshold()
	}
	switch {
	case len(ns)+len(key) > maxKey:
		return fmt.Errorf("%w: a key of %d KiB (at most %d KiB)", ErrTooBig, (len(ns)+len(key))>>10, maxKey>>10)
	case int64(len(val)) > limit:
		return fmt.Errorf("%w: a value of %s (at most %s)", ErrTooBig, mib(uint64(len(val))), mib(uint64(limit)))
	}
	return nil
}

// Delete removes ns/key. Deleting a missing key is not an error.
func (tx *Tx) Delete(ns, key string) error {
	if err := validNS(ns); err != nil {
		return err
	}
	return tx.txn.Delete(kvKey(ns, key))
}

// Scan calls fn for every key under ns starting with prefix, in key order,
// with the key relative to ns. val is only valid during the call. A non-nil
// error from fn stops the scan and is returned.
func (tx *Tx) Scan(ns, prefix string, fn func(key string, val []byte) error) error {
	return tx.scan(ns, prefix, true, fn)
}

// Keys is Scan without values: a key-only iteration, cheaper when values
// are not needed.
func (tx *Tx) Keys(ns, prefix string, fn func(key string) error) error {
	return tx.scan(ns, prefix, false, func(k string, _ []byte) error { return fn(k) })
}

func (tx *Tx) scan(ns, prefix string, values bool, fn func(string, []byte) error) error {
	if err := validNS(ns); err != nil {
		return err
	}
	p := kvKey(ns, prefix)
	strip := len(ns) + 2
	// Values up to Options' threshold live in the LSM tree next to their
	// keys, so reading them in the loop is cheap; Badger's prefetching
	// would start a goroutine per item.
	it := tx.txn.NewIterator(badger.IteratorOptions{Prefix: p})
	defer it.Close()
	for it.Seek(p); it.ValidForPrefix(p); it.Next() {
		item := it.Item()
		key := string(item.Key()[strip:])
		var err error
		if values {
			// Value lends the bytes for the call, as Scan's contract says,
			// instead of copying every value.
			err = item.Value(func(val []byte) error { return fn(key, val) })
		} else {
			err = fn(key, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Batch runs fn with a batch writer for bulk loads that exceed one
// transaction. Writes are flushed when fn returns nil; the batch as a whole
// is not atomic, so callers must be able to redo it after a crash.
//
// Graph operations on a Batch run in a transaction that is committed and
// renewed whenever it grows near Badger's limit, so each operation is
// atomic and sees the effects of the ones before it, while the batch as a
// whole may be as large as needed.
func (s *Store) Batch(fn func(*Batch) error) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.guard(func() error {
		s.exclusive.RLock()
		defer s.exclusive.RUnlock()
		wb := newPipe(s.db, s.roomToWrite)
		defer wb.Cancel()
		b := &Batch{wb: wb, s: s}
		defer b.discard()
		if err := fn(b); err != nil {
			return err
		}
		if err := b.commit(); err != nil {
			return err
		}
		return wb.Flush()
	})
}

// Prune is Tx.Prune in the batch.
func (b *Batch) Prune(typ string) (int, error) {
	var n int
	err := b.do(func(w *writer) error {
		var err error
		n, err = w.prune(typ)
		return err
	})
	return n, err
}

// PruneNodes is Tx.PruneNodes in the batch.
func (b *Batch) PruneNodes(ids []string) (int, error) {
	var n int
	err := b.do(func(w *writer) error {
		var err error
		n, err = w.pruneNodes(ids)
		return err
	})
	return n, err
}

// Batch is a bulk writer. See Store.Batch. Set, SetOwned and Delete may be
// called from several goroutines at once; graph operations may not.
type Batch struct {
	wb *pipe
	s  *Store

	w   *writer               // current graph transaction, nil when none
	ops []func(*writer) error // operations in w, replayed after a conflict
}

// Set stores val under ns/key.
func (b *Batch) Set(ns, key string, val []byte) error {
	return b.SetOwned(ns, key, bytes.Clone(val))
}

// SetOwned is Set without the copy: the batch keeps val itself, and the
// caller must not modify it afterwards. A bulk writer that encodes a
// fresh record per key saves copying every byte it writes.
func (b *Batch) SetOwned(ns, key string, val []byte) error {
	if err := b.s.checkEntry(ns, key, val); err != nil {
		return err
	}
	return b.wb.Set(kvKey(ns, key), val)
}

// Delete removes ns/key.
func (b *Batch) Delete(ns, key string) error {
	if err := validNS(ns); err != nil {
		return err
	}
	return b.wb.Delete(kvKey(ns, key))
}
