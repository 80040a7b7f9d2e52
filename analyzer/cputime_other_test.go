//go:build !linux

package analyzer

import "time"

// timeThread returns the wall time fn takes: only Linux tells a thread's
// own CPU time.
func timeThread(fn func()) time.Duration {
	start := time.Now()
	fn()
	return time.Since(start)
}
