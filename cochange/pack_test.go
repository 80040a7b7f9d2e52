package cochange

import (
	"bytes"
	"testing"
)

func TestApplyDelta(t *testing.T) {
	base := []byte("hello, world\n")
	// src size 13, dst size 19; copy 7 bytes from 0, insert "there, ", copy "world\n" (6 bytes from 7).
	delta := []byte{13, 20, 0x90, 7, 7}
	delta = append(delta, []byte("there, ")...)
	delta = append(delta, 0x91, 7, 6)
	got, err := applyDelta(base, delta)
	if err != nil || !bytes.Equal(got, []byte("hello, there, world\n")) {
		t.Fatalf("applyDelta = %q, %v", got, err)
	}
	for _, bad := range [][]byte{
		{},
		{14, 20, 0x90, 7},    // wrong source size
		{13, 5, 0x90, 7},     // copies more than the declared result
		{13, 7, 0x91, 10, 7}, // copy beyond the base
		{13, 7, 0},           // reserved opcode
		{13, 7, 7, 'a'},      // truncated insert
	} {
		if _, err := applyDelta(base, bad); err == nil {
			t.Errorf("applyDelta(% x): no error", bad)
		}
	}
}
