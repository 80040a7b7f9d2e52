//go:build !linux

package main

// hugeHeap does nothing where there is no madvise(MADV_COLLAPSE) (see
// heap_linux.go).
func hugeHeap() {}
