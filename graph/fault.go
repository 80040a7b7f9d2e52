package graph

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrCorrupt reports stored data that cannot be read: the store is damaged.
// Its data is derived, so the caller may set it aside and rebuild it; no
// other error of this package means that.
var ErrCorrupt = errors.New("store damaged")

// ErrTooBig reports a write that does not fit one transaction, or an entry
// larger than Badger stores.
var ErrTooBig = errors.New("too big to store")

// errCorrupt is a key or value this package cannot decode.
var errCorrupt = fmt.Errorf("%w: corrupt graph key or value", ErrCorrupt)

// faultGrace is how long a call into Badger may still finish once the
// store has failed (see fault).
const faultGrace = 2 * time.Second

// dirCheckEvery is how often a call waiting on Badger checks that the
// store's directory is still there.
const dirCheckEvery = 200 * time.Millisecond

// fault is what a Store knows of its failure. Badger retries a failed
// flush of its memtable forever, and a commit, a new transaction or a
// close then waits for it forever: a directory removed or made read-only
// under a running writer, or a full disk, would hang the process. Badger
// reports each failed attempt to its logger (faultLog): the first error it
// reports, or the store's directory going away (checkDir), fails the
// store. Calls that may wait on Badger run through Store.guard, which gives
// up on them once the store has failed; later calls fail at once.
type fault struct {
	once sync.Once
	c    chan struct{} // closed when err is set
	err  error
}

func newFault() *fault { return &fault{c: make(chan struct{})} }

func (f *fault) set(err error) { f.once.Do(func() { f.err = err; close(f.c) }) }

// get returns the store's failure, nil while it has none.
func (f *fault) get() error {
	select {
	case <-f.c:
		return f.err
	default:
		return nil
	}
}

// faultLog is the logger of one Badger handle: it prints nothing and
// fails the store on an error once the handle is open; while it opens, an
// error sets opening instead (see Store.openHandle).
type faultLog struct {
	s       *Store
	opening *fault
	armed   atomic.Bool
	pin     string // the path the handle names its directory by (see pinDir)
}

func (l *faultLog) Errorf(format string, args ...any) {
	if !l.armed.Load() {
		if l.opening != nil {
			l.opening.set(fmt.Errorf("open store %s: %w", l.s.dir, damaged(l.s.named(badgerCause(format, args), l.pin))))
		}
		return
	}
	l.s.fail(l.s.named(badgerCause(format, args), l.pin))
}

// named is err with the pinned path of the store's directory (see
// pinDir) in its text replaced by the directory's own.
func (s *Store) named(err error, pin string) error {
	if err == nil || pin == "" || pin == s.dir {
		return err
	}
	text := err.Error()
	named := strings.ReplaceAll(strings.ReplaceAll(text, pin+"/", s.dir+"/"), `"`+pin+`"`, `"`+s.dir+`"`)
	if named == text {
		return err
	}
	return renamed{err: err, text: named}
}

// renamed is an error with other text.
type renamed struct {
	err  error
	text string
}

func (e renamed) Error() string { return e.text }
func (e renamed) Unwrap() error { return e.err }

// badgerCause is the error a message of Badger's logger reports.
func badgerCause(format string, args []any) error {
	// Badger's messages end with ", retrying" and the like: the error
	// itself, when one was passed, says what failed.
	var cause error
	for _, a := range args {
		if e, ok := a.(error); ok {
			cause = e
			break
		}
	}
	if cause == nil {
		cause = errors.New(strings.TrimSpace(fmt.Sprintf(format, args...)))
	}
	return cause
}

func (*faultLog) Warningf(string, ...any) {}
func (*faultLog) Infof(string, ...any)    {}
func (*faultLog) Debugf(string, ...any)   {}

// guard runs fn, a call into Badger, and returns its result. When the
// store fails while fn runs (see fault), guard waits faultGrace for fn to
// finish, then returns the failure and leaves fn blocked in the
// background; once the store has failed, guard returns the failure without
// running fn. A panic in Badger, which it raises on damaged tables,
// becomes ErrCorrupt.
func (s *Store) guard(fn func() error) error { return s.wait(fn, false) }

// wait is guard; when always is set, it runs fn even if the store has
// failed, and still waits only faultGrace for it.
func (s *Store) wait(fn func() error, always bool) error {
	if err := s.fault.get(); err != nil && !always {
		return err
	}
	s.inflight.Add(1)
	done := s.start(func() error {
		defer s.inflight.Add(-1)
		return fn()
	})
	tick := time.NewTicker(dirCheckEvery)
	defer tick.Stop()
	failed := s.fault.c
	var giveUp <-chan time.Time
	if s.fault.get() != nil {
		failed, giveUp = nil, time.After(faultGrace)
	}
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			s.checkDir()
		case <-failed:
			failed = nil
			giveUp = time.After(faultGrace)
		case <-giveUp:
			return s.fault.get()
		}
	}
}

// read runs fn, a read from Badger. A read waits only for this Store's own
// commits to be applied, so it runs through guard only while one of them
// is under way or the store has failed; otherwise it runs here, with
// Badger's panics turned into ErrCorrupt.
func (s *Store) read(fn func() error) error {
	if s.inflight.Load() > 0 || s.fault.get() != nil {
		return s.guard(fn)
	}
	return s.recovered(fn)
}

// recovered runs fn and turns a panic raised inside Badger into
// ErrCorrupt. Other panics are bugs and go on.
func (s *Store) recovered(fn func() error) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if !strings.Contains(string(debug.Stack()), "github.com/dgraph-io/") {
			panic(r)
		}
		err = fmt.Errorf("%w: %s: Badger failed reading it (%s)", ErrCorrupt, s.dir, panicText(r))
	}()
	return fn()
}

// panicText is the gist of a panic's value on one line: Badger's are
// several lines behind a banner.
func panicText(r any) string {
	var keep []string
	for _, l := range strings.Split(fmt.Sprint(r), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && strings.Trim(l, "= ") != "" && !strings.HasPrefix(l, "=") {
			keep = append(keep, l)
		}
		if len(keep) == 2 {
			break
		}
	}
	return strings.Join(keep, ", ")
}

// fail fails the store with Badger's error: the operating system's error
// inside it, when there is one, says what went wrong without Badger's
// layers of context.
func (s *Store) fail(cause error) {
	if s.checkDir() {
		return
	}
	if errno := osError(cause); errno != 0 {
		cause = withHint(errno)
	}
	s.fault.set(fmt.Errorf("store %s: write failed: %w", s.dir, cause))
}

// errStopped is the result of a call into Badger whose goroutine ended
// before it returned: the command line's servers end a goroutine in which
// Badger calls log.Fatal, as it does when it finds its state impossible.
var errStopped = errors.New("a call into Badger stopped halfway")

// start runs fn (see recovered) in a goroutine of its own and delivers its
// result; when the goroutine ends before fn returns, the result is
// errStopped and the store has failed.
func (s *Store) start(fn func() error) <-chan error {
	done := make(chan error, 1)
	go func() {
		err := errStopped
		defer func() {
			if err == errStopped {
				s.fault.set(fmt.Errorf("store %s: %w: rerun", s.dir, errStopped))
			}
			done <- err
		}()
		err = s.recovered(fn)
	}()
	return done
}

// errMoved is the store's directory found replaced by another.
var errMoved = errors.New("the store's directory was replaced")

// checkDir fails the store when its directory was removed or replaced, and
// reports whether it did.
func (s *Store) checkDir() bool {
	if s.dirInfo == nil {
		return false
	}
	fi, err := os.Stat(s.dir)
	if err == nil && os.SameFile(fi, s.dirInfo) {
		return false
	}
	s.fault.set(fmt.Errorf("store %s: its directory was removed while in use: rerun to rebuild it", s.dir))
	return true
}
