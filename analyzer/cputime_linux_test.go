package analyzer

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// timeThread returns the CPU time fn takes on the calling thread, which
// other processes on a busy machine do not add to (the parse runs there,
// cgo calls included).
func timeThread(fn func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var a, b unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &a) != nil {
		start := time.Now()
		fn()
		return time.Since(start)
	}
	fn()
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &b) != nil {
		return 0
	}
	return time.Duration(b.Nano() - a.Nano())
}
