//go:build !linux

package analyzer

// adviseHugeHeap does nothing: only Linux's transparent huge pages are
// asked for (hugeheap_linux.go).
func adviseHugeHeap() {}
