//go:build !linux

package analyzer

// keepCHeap does nothing: only glibc's allocator is tuned (heap_linux.go).
func keepCHeap() {}
