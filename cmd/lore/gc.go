package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// firstGCAt is the memory the process may use before its first garbage
// collection. Most commands allocate less than this and end without one.
const firstGCAt = 16 << 20

// gcSentinel is unreachable from the start; its finalizer runs after the
// first collection.
type gcSentinel struct{ _ *byte }

// deferFirstGC lets the process grow to firstGCAt before it collects,
// then restores the default pacing (GOGC=100, no memory limit). By default
// Go collects first at a 4 MiB heap: for a graph query that reads the
// store and exits, that collection cost a fifth of its CPU time and 8 % of
// its wall time, and freed nothing it needed. Commands that keep allocating (index, serve) collect as usual
// from the first collection on. GOGC or GOMEMLIMIT in the environment
// leave the runtime's settings alone.
func deferFirstGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(firstGCAt)
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}
