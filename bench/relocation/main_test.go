package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

// A threshold outside (0,1] is refused before any commit is read, with
// the one line that says what to give.
func TestThresholdOutOfRange(t *testing.T) {
	for _, v := range []string{"-0.1", "1.5"} {
		err := run(context.Background(), []string{"-oracle", t.TempDir(), "-threshold", v}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "-threshold: want a confidence in (0,1]") {
			t.Errorf("-threshold %s: got %v, want the range error", v, err)
		}
	}
}
