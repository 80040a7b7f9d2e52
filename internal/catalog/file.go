package catalog

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/lorehq/lore/learnfile"
)

// tmpPrefix marks files being written. A crash can leave one behind; sync
// skips them and removes them: at once when it holds the store for writing
// (no other lore process is writing then), else when older than staleTmp.
const tmpPrefix = ".tmp-"

// journalPrefix marks a journal of renames (see renameAll): a temporary
// file that sync does not remove but completes.
const journalPrefix = tmpPrefix + "journal-"

const staleTmp = time.Minute

// parallelSyncs bounds the files CreateFiles writes and syncs at once.
const parallelSyncs = 16

// WriteFile writes data to path so that readers (and a crash) see either
// the old file or the new one, never a truncated one: the data goes to a
// temporary file in the same directory, is synced, then renamed.
func WriteFile(path string, data []byte) error {
	tmp := tmpName(path)
	err := writeSynced(tmp, data)
	if err == nil {
		if err = os.Rename(tmp, path); err != nil {
			_ = os.Remove(tmp) // the rename's failure is the one to report
		}
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeSynced writes a new file and syncs it to disk.
func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path) // the write's failure is the one to report
	}
	return err
}

// syncDir makes a rename in dir durable. Where a directory cannot be
// synced (Windows; file systems that answer EINVAL) there is nothing to do.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	_ = d.Close() // only read
	if err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

func tmpName(path string) string {
	var r [6]byte
	rand.Read(r[:]) // never fails (crypto/rand)
	return filepath.Join(filepath.Dir(path), tmpPrefix+filepath.Base(path)+"-"+hex.EncodeToString(r[:]))
}

// IsTemp reports whether a file name is one of a write under way (or
// interrupted), not a learning file.
func IsTemp(name string) bool { return strings.HasPrefix(name, tmpPrefix) }

func isJournal(name string) bool { return strings.HasPrefix(name, journalPrefix) }

// renameAll renames each temporary file into place (pairs of paths in one
// directory, dir) as one step: with more than one, it first writes a
// journal of the renames, which sync completes when a crash or an error
// stopped them halfway (see finishRenames), so that either none or all of
// them happen. When the first rename fails, the temporary files go.
func renameAll(dir string, pairs [][2]string) error {
	journal := ""
	if len(pairs) > 1 {
		var b strings.Builder
		for _, p := range pairs {
			fmt.Fprintf(&b, "%s\t%s\n", filepath.Base(p[0]), filepath.Base(p[1]))
		}
		var r [6]byte
		rand.Read(r[:])
		journal = filepath.Join(dir, journalPrefix+hex.EncodeToString(r[:]))
		if err := WriteFile(journal, []byte(b.String())); err != nil {
			return err
		}
	}
	for i, p := range pairs {
		if err := os.Rename(p[0], p[1]); err != nil {
			if i > 0 {
				return fmt.Errorf("write %s: %w (%d of %d files written; the next lore command writes the others)", p[1], err, i, len(pairs))
			}
			// Nothing was renamed: the temporary files and the
			// journal go, and the rename's failure is the one to report.
			for _, p := range pairs {
				_ = os.Remove(p[0])
			}
			if journal != "" {
				_ = os.Remove(journal)
			}
			return fmt.Errorf("write %s: %w", p[1], err)
		}
	}
	if err := syncDir(dir); err != nil {
		// The journal stays: sync finds its renames done and removes it.
		return fmt.Errorf("write %s: %w", dir, err)
	}
	if journal != "" {
		_ = os.Remove(journal) // else sync finds its renames done and removes it
	}
	return nil
}

// finishRenames completes the renames of a journal left by a crash in
// renameAll, then removes it. A rename whose temporary file is gone was
// done.
func finishRenames(dir, journal string) error {
	data, err := os.ReadFile(filepath.Join(dir, journal))
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		tmp, dst, ok := strings.Cut(line, "\t")
		if !ok || !IsTemp(tmp) || strings.ContainsAny(tmp+dst, "/\\") || IsTemp(dst) {
			continue // not a line renameAll writes
		}
		if err := os.Rename(filepath.Join(dir, tmp), filepath.Join(dir, dst)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	return os.Remove(filepath.Join(dir, journal))
}

// WriteLearnings rewrites several learning files of the repository at root
// as one step: every new version is written and synced to a temporary
// file first, and only then are they renamed into place (see renameAll),
// so a failure before the renames changes nothing.
func WriteLearnings(root string, ls []*learnfile.Learning) error {
	if len(ls) == 0 {
		return nil
	}
	var pairs [][2]string // temporary file, learning file
	// cleanup follows a failure, which is the one to report.
	cleanup := func() {
		for _, p := range pairs {
			_ = os.Remove(p[0])
		}
	}
	for _, l := range ls {
		data, err := l.Marshal()
		if err != nil {
			cleanup()
			return err
		}
		dst := filepath.Join(root, filepath.FromSlash(l.Path))
		tmp := tmpName(dst)
		if err := writeSynced(tmp, data); err != nil {
			cleanup()
			return err
		}
		pairs = append(pairs, [2]string{tmp, dst})
	}
	return renameAll(filepath.Join(root, filepath.FromSlash(learnfile.Dir)), pairs)
}

// NewFile is a file for CreateFiles: a name in the directory and its
// content.
type NewFile struct {
	Name string
	Data []byte
}

// CreateFiles writes new files into dir, each atomically as CreateFile
// does: taken[i] says that files[i] was not written because its name
// exists. All the data is written and synced before the first file
// appears, and the directory is synced once, so that many small files
// cost little more than their writes.
func CreateFiles(dir string, files []NewFile) (taken []bool, err error) {
	tmps := make([]string, len(files))
	defer func() {
		for _, t := range tmps {
			if t != "" {
				_ = os.Remove(t) // linked into place, or not wanted
			}
		}
	}()
	// The writes wait on the disk, not the processor: several at once let
	// the file system commit their syncs together.
	var g errgroup.Group
	g.SetLimit(parallelSyncs)
	for i, f := range files {
		tmp := tmpName(filepath.Join(dir, f.Name))
		g.Go(func() error {
			if err := writeSynced(tmp, f.Data); err != nil {
				return fmt.Errorf("write %s: %w", filepath.Join(dir, f.Name), err)
			}
			tmps[i] = tmp
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	taken = make([]bool, len(files))
	for i, f := range files {
		// A hard link fails when the target exists: an exclusive rename.
		err := os.Link(tmps[i], filepath.Join(dir, f.Name))
		if errors.Is(err, fs.ErrExist) {
			taken[i] = true
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("write %s: %w (%d of %d files written)", filepath.Join(dir, f.Name), err, i, len(files))
		}
	}
	if err := syncDir(dir); err != nil {
		return nil, fmt.Errorf("write %s: %w", dir, err)
	}
	return taken, nil
}
