package warm

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/lorehq/lore"
)

// learningsDir is the learnings directory relative to the root.
var learningsDir = filepath.Join(lore.Dir, "learnings")

// startFollowing starts the goroutine that follows the files, with
// notifications where it can and by polling where it cannot; it returns
// which.
func (v *View) startFollowing(ctx context.Context) string {
	w, err := v.watch()
	if err == nil && v.opts.polling {
		_ = w.Close() // not used
		err = errors.New("polling asked for")
	}
	v.done.Add(1)
	if err != nil {
		if v.opts.Notify != nil {
			v.opts.Notify("file-system notifications unavailable (" + err.Error() + "): polling every " + v.opts.Poll.String())
		}
		go func() {
			defer v.done.Done()
			v.poll(ctx)
		}()
		return "poll"
	}
	go func() {
		defer v.done.Done()
		defer func() { _ = w.Close() }() // following ends: nothing to report to
		v.notified(ctx, w)
	}()
	return "notify"
}

// skipDir reports whether a directory (relative to the root) is not
// followed: git's, the store's, and hidden ones other than .lore.
func skipDir(rel string) bool {
	base := filepath.Base(rel)
	return rel == filepath.Join(lore.Dir, "db") || base == ".git" || base == "node_modules" ||
		(strings.HasPrefix(base, ".") && base != lore.Dir && rel != ".")
}

// watch adds every followed directory to a new watcher.
func (v *View) watch() (*fsnotify.Watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := v.addTree(w, v.Root()); err != nil {
		_ = w.Close() // the failure above is the one to report
		return nil, err
	}
	return w, nil
}

// addTree watches dir and the directories below it.
func (v *View) addTree(w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // gone meanwhile, or unreadable: not followed
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(v.Root(), p)
		if skipDir(rel) {
			return filepath.SkipDir
		}
		return w.Add(p)
	})
}

// notified gathers notifications until they settle, then catches up.
func (v *View) notified(ctx context.Context, w *fsnotify.Watcher) {
	var (
		learnings bool
		paths     = map[string]bool{}
		settle    = time.NewTimer(time.Hour)
	)
	settle.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			// Events were lost (a queue overflow): take everything as
			// changed.
			if v.opts.Notify != nil {
				v.opts.Notify("file-system notifications: " + err.Error() + "; re-reading everything")
			}
			learnings = true
			paths["."] = true
			settle.Reset(v.opts.Settle)
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			rel, err := filepath.Rel(v.Root(), ev.Name)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			if ev.Has(fsnotify.Create) {
				if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() && !skipDir(rel) {
					// Files in it now are noticed below; later changes in
					// a directory that could not be followed (the system's
					// limit of watches reached) would go unnoticed: say so.
					if err := v.addTree(w, ev.Name); err != nil && !errors.Is(err, fs.ErrNotExist) && v.opts.Notify != nil {
						v.opts.Notify("file-system notifications: " + err.Error() + "; changes below " + rel + " may go unnoticed")
					}
				}
			}
			switch {
			case strings.HasPrefix(rel, learningsDir+string(filepath.Separator)):
				learnings = true
			case rel == lore.Dir || strings.HasPrefix(rel, lore.Dir+string(filepath.Separator)):
				continue // the store, the configuration
			case ev.Op == fsnotify.Chmod:
				continue
			default:
				paths[filepath.ToSlash(rel)] = true
			}
			settle.Reset(v.opts.Settle)
		case <-settle.C:
			ch := Change{Learnings: learnings}
			for p := range paths {
				ch.Paths = append(ch.Paths, p)
			}
			slices.Sort(ch.Paths)
			learnings, paths = false, map[string]bool{}
			v.catchUp(ctx, ch, len(ch.Paths) > 0)
		}
	}
}

// poll checks the learnings directory's listing every Options.Poll and
// takes the tree to have changed each time (the next verification
// re-indexes it, which costs a walk when nothing changed).
func (v *View) poll(ctx context.Context) {
	t := time.NewTicker(v.opts.Poll)
	defer t.Stop()
	last := v.learningsStamp()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := v.learningsStamp()
		changed := now != last
		last = now
		v.catchUp(ctx, Change{Learnings: changed}, true)
	}
}

// learningsStamp sums up the learnings directory: names, sizes and
// modification times.
func (v *View) learningsStamp() [32]byte {
	h := sha256.New()
	ents, _ := os.ReadDir(filepath.Join(v.Root(), learningsDir))
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			continue
		}
		h.Write([]byte(e.Name()))
		h.Write([]byte(fi.ModTime().String()))
		h.Write([]byte{byte(fi.Size()), byte(fi.Size() >> 8), byte(fi.Size() >> 16), byte(fi.Size() >> 24)})
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}
