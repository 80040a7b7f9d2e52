package analyzer

import (
	"bytes"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"

	"golang.org/x/sys/unix"
)

// A large index allocates a lot: a cold index of the Go tree 830 MB in
// all, with a heap of 200 MB. Each 4 KiB page the heap grows into costs a
// page fault on first touch, and under virtualisation a fault is dear:
// 62,000 of them were 11 % of that index's CPU, and 15 % of a TypeScript
// corpus's. With transparent huge pages one fault maps 2 MiB. A kernel
// that gives them only where asked ("madvise", a common default)
// leaves the Go heap out, since the runtime does not ask.
//
// adviseHugeHeap asks for it: it allocates hugeHeapBytes, a range the heap
// maps fresh and never touches, advises huge pages on it and frees it, so
// that the allocations that follow fill the advised range, then returns
// the range to the system at once (debug.FreeOSMemory). Left to Go's
// background scavenger, that return comes while the index fills the
// range, and each page the scavenger releases under it faults again: the
// Go tree's index then gained half as much. Measured against the same
// build with the call switched off, alternating with it and with ctags
// in the same minutes (see BENCHMARKS.md, seventeenth session): the Go
// tree 0.82× → 0.70× ctags on a loaded host, CPU −15 %; the TypeScript
// corpus 1.03× → 0.91×; the Python standard library 1.93× → 1.68×; peak
// RSS +4 to +16 MB. A small run pays more than it gains (the first touch
// of a huge page clears 2 MiB), so Update asks only when it reads at
// least hugeHeapFrom bytes.
//
// It does nothing where the allocation could hurt or the advice would not
// be heard: on a 32-bit build, under an address-space limit, strict
// overcommit or a Go memory limit, when the kernel gives huge pages
// always (the advice is moot) or never, and when the heap already spans
// half of hugeHeapBytes (a long-running process asked before).
func adviseHugeHeap() {
	if strconv.IntSize < 64 || !hugePagesOnAdvice() || !roomForHugeHeap() {
		return
	}
	b := make([]byte, hugeHeapBytes)
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	runtime.KeepAlive(b)
	b = nil
	// Collect the range and release it: allocated during a collection it
	// would survive that one, the next would wait for a heap twice its
	// size, and the release is cheap while nothing has touched it.
	debug.FreeOSMemory()
}

const (
	hugeHeapBytes = 512 << 20
	hugeHeapFrom  = 512 << 10
)

// hugePagesOnAdvice reports whether the kernel gives transparent huge
// pages to the ranges advised so, and only to those.
func hugePagesOnAdvice() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
}

// roomForHugeHeap reports whether allocating hugeHeapBytes for a moment
// is harmless: no limit that a range reserved but untouched counts
// against, and a heap that does not already span half of it.
func roomForHugeHeap() bool {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &lim); err != nil || lim.Cur != unix.RLIM_INFINITY {
		return false
	}
	if b, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err != nil || bytes.HasPrefix(b, []byte("2")) {
		return false
	}
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return false
	}
	return runtimeMapped() < hugeHeapBytes/2
}

// runtimeMapped is the memory the Go runtime has mapped, released or not.
func runtimeMapped() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return math.MaxUint64
	}
	return s[0].Value.Uint64()
}
