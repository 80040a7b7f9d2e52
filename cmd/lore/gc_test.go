package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The first collection waits for firstGCAt; after it, the default pacing
// is back.
func TestDeferFirstGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	})
	deferFirstGC()
	if limit := debug.SetMemoryLimit(-1); limit != firstGCAt {
		t.Fatalf("memory limit before the first collection = %d, want %d", limit, firstGCAt)
	}
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("GOGC before the first collection = %d, want off", p)
	}
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) != math.MaxInt64 {
		if time.Now().After(deadline) {
			t.Fatal("pacing not restored after the first collection")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC after the first collection = %d, want 100", p)
	}
}

// GOGC in the environment leaves the runtime alone.
func TestDeferFirstGCLeavesGOGC(t *testing.T) {
	t.Setenv("GOGC", "200")
	prev := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	deferFirstGC()
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		t.Errorf("memory limit set to %d although GOGC was given", limit)
	}
}
