package warm

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/graph"
)

// Defaults.
const (
	DefaultIdle   = 5 * time.Second
	DefaultSettle = 20 * time.Millisecond
	DefaultPoll   = 2 * time.Second
	// checkWaiting is how often a view holding the store looks for a
	// waiting writer.
	checkWaiting = 10 * time.Millisecond
	// yieldBound bounds how long a call waits for a waiting writer to get
	// the store.
	yieldBound = 5 * time.Second
)

// Options configure Open.
type Options struct {
	// Dir is a directory inside the workspace. Required.
	Dir string
	// LockTimeout bounds a wait for another lore process holding the store
	// (zero: the workspace's configured value).
	LockTimeout time.Duration
	// Notify receives notices meant for a person. Nil drops them.
	Notify func(msg string)
	// Idle is how long the store stays open without calls (default
	// DefaultIdle).
	Idle time.Duration
	// Settle is how long changes on disk are gathered before the view acts
	// on them (default DefaultSettle).
	Settle time.Duration
	// Poll is the polling interval where file-system notifications are
	// unavailable (default DefaultPoll). Negative: the view does not
	// follow the files at all, and every call checks them as a command
	// would.
	Poll time.Duration
	// OnChange is called after the view caught up with changes on disk,
	// outside any call of Do. Nil: nobody is told.
	OnChange func(Change)

	// polling skips notifications (tests of the fallback).
	polling bool
}

// Change is what the view caught up with.
type Change struct {
	// Learnings says learning files changed (the view synced them).
	Learnings bool `json:"learnings"`
	// Paths are the files of the working tree that changed, relative to
	// the repository root (the view re-indexed them).
	Paths []string `json:"paths,omitempty"`
	// Err is what failed while catching up (the next call tries again).
	Err error `json:"-"`
}

// View is a warm workspace. Its methods are safe for concurrent use.
type View struct {
	opts Options
	db   string // the store's directory

	mu       sync.Mutex // serialises calls on ws
	ws       *lore.Workspace
	lastCall time.Time
	closed   bool

	stop   context.CancelFunc
	done   sync.WaitGroup
	follow string // how files are followed: "notify", "poll" or "off"
}

// Open opens the workspace containing opts.Dir and starts following its
// files. Close it when done.
func Open(ctx context.Context, opts Options) (*View, error) {
	if opts.Dir == "" {
		return nil, errors.New("warm: no workspace directory given")
	}
	if opts.Idle < 0 || opts.Settle < 0 || opts.LockTimeout < 0 {
		return nil, errors.New("warm: durations must not be negative")
	}
	if opts.Idle == 0 {
		opts.Idle = DefaultIdle
	}
	if opts.Settle == 0 {
		opts.Settle = DefaultSettle
	}
	if opts.Poll == 0 {
		opts.Poll = DefaultPoll
	}
	ws, err := lore.Open(opts.Dir, lore.Options{LockTimeout: opts.LockTimeout, Notify: opts.Notify})
	if err != nil {
		return nil, err
	}
	v := &View{opts: opts, ws: ws, db: filepath.Join(ws.Root(), lore.Dir, "db"), follow: "off"}
	ctx, v.stop = context.WithCancel(context.WithoutCancel(ctx))
	if opts.Poll > 0 {
		v.follow = v.startFollowing(ctx)
	}
	v.done.Add(1)
	go func() {
		defer v.done.Done()
		v.watchWriters(ctx)
	}()
	return v, nil
}

// Root returns the repository root.
func (v *View) Root() string { return v.ws.Root() }

// Following says how the view follows the files: "notify" (file-system
// notifications), "poll" or "off".
func (v *View) Following() string { return v.follow }

// Do runs fn with the view's workspace, one call at a time, holding the
// store unless a writer waits for it. fn must not keep ws beyond the call.
func (v *View) Do(ctx context.Context, fn func(ws *lore.Workspace) error) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return errors.New("warm: view closed")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if graph.Waiting(v.db) {
		// Let the writer in first: calls that opened the store one
		// after another would keep it from ever finding it free. The
		// store is held read-only between calls: nothing to lose.
		_ = v.ws.Release()
		for deadline := time.Now().Add(yieldBound); graph.Waiting(v.db) && time.Now().Before(deadline); {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(2 * time.Millisecond):
			}
		}
	} else if !v.ws.Held() {
		// Another process holding the store past the lock timeout ends
		// the call: it would wait as long again opening the store
		// itself. On any other failure it does so, as a command does,
		// and reports.
		if err := v.ws.Hold(ctx); errors.Is(err, graph.ErrLocked) {
			return err
		}
	}
	if v.opts.Poll < 0 {
		v.ws.Changed(true, true)
	}
	err := fn(v.ws)
	v.lastCall = time.Now()
	return err
}

// watchWriters lets go of the store when a writer waits for it or no call
// came for Options.Idle.
func (v *View) watchWriters(ctx context.Context) {
	t := time.NewTicker(checkWaiting)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v.mu.Lock()
		if v.ws.Held() && (time.Since(v.lastCall) > v.opts.Idle || graph.Waiting(v.db)) {
			_ = v.ws.Release() // read-only between calls: nothing to lose
		}
		v.mu.Unlock()
	}
}

// catchUp tells the workspace what changed and brings it up to date: the
// learnings synced, the tree re-indexed.
func (v *View) catchUp(ctx context.Context, ch Change, tree bool) {
	err := v.Do(ctx, func(ws *lore.Workspace) error {
		ws.Changed(ch.Learnings, tree)
		if tree && len(ch.Paths) > 0 {
			if _, err := ws.Index(ctx, lore.IndexOptions{}); err != nil {
				return err
			}
		}
		if ch.Learnings {
			_, err := ws.Sync(ctx)
			return err
		}
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return
	}
	ch.Err = err
	if v.opts.OnChange != nil && (ch.Learnings || len(ch.Paths) > 0 || err != nil) {
		v.opts.OnChange(ch)
	}
}

// Close stops following the files and closes the store.
func (v *View) Close() error {
	v.stop()
	v.done.Wait()
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil
	}
	v.closed = true
	return v.ws.Release()
}
