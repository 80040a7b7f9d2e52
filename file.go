package lore

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tmpPrefix marks files being written. A crash can leave one behind; sync
// skips them and removes those older than staleTmp.
const tmpPrefix = ".tmp-"

const staleTmp = time.Minute

// writeFileAtomic writes data to path so that readers (and a crash) see
// either the old file or the new one, never a truncated one: the data goes
// to a temporary file in the same directory, is synced, then renamed.
func writeFileAtomic(path string, data []byte) error {
	tmp := tmpName(path)
	err := writeSynced(tmp, data)
	if err == nil {
		if err = os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	return nil
}

// createFileExclusive writes a new file atomically and fails when path
// exists, so two processes minting the same id cannot overwrite each other.
func createFileExclusive(path string, data []byte) error {
	tmp := tmpName(path)
	err := writeSynced(tmp, data)
	if err == nil {
		// A hard link fails when the target exists: an exclusive rename.
		err = os.Link(tmp, path)
		os.Remove(tmp)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	syncDir(filepath.Dir(path))
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
		os.Remove(path)
	}
	return err
}

// syncDir makes a rename in dir durable. Best effort: not every platform
// can sync a directory.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func tmpName(path string) string {
	var r [6]byte
	rand.Read(r[:]) // never fails (crypto/rand)
	return filepath.Join(filepath.Dir(path), tmpPrefix+filepath.Base(path)+"-"+hex.EncodeToString(r[:]))
}

func isTmp(name string) bool { return strings.HasPrefix(name, tmpPrefix) }
