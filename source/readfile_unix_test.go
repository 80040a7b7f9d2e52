//go:build unix

package source_test

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/lorehq/lore/source"
)

// TestAppendFileFifo checks that reading a named pipe in the repository
// neither blocks nor fails: it reads as empty.
func TestAppendFileFifo(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip("no named pipes:", err)
	}
	fsys := source.Dir(dir).(interface {
		AppendFile(dst []byte, name string) ([]byte, error)
	})
	done := make(chan error, 1)
	go func() {
		b, err := fsys.AppendFile(nil, "fifo")
		if err == nil && len(b) > 0 {
			t.Errorf("AppendFile(fifo) = %q", b)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("AppendFile(fifo): %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("AppendFile blocks on a named pipe")
	}
}
