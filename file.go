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
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// createFileExclusive writes a new file atomically and fails when path
// exists, so two processes minting the same id cannot overwrite each other.
func createFileExclusive(path string, data []byte) error {
	tmp := tmpName(path)
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.Open(tmp)
	if err == nil {
		err = f.Sync()
		f.Close()
	}
	if err == nil {
		// A hard link fails when the target exists: an exclusive rename.
		err = os.Link(tmp, path)
	}
	os.Remove(tmp)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func tmpName(path string) string {
	var r [6]byte
	rand.Read(r[:]) // never fails (crypto/rand)
	return filepath.Join(filepath.Dir(path), tmpPrefix+filepath.Base(path)+"-"+hex.EncodeToString(r[:]))
}

func isTmp(name string) bool { return strings.HasPrefix(name, tmpPrefix) }
