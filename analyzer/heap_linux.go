package analyzer

/*
#include <malloc.h>

// lore_keep_heap asks glibc's allocator to keep the memory tree-sitter
// frees. By default glibc gives the top of a heap back to the system once
// 128 KiB of it is free, and serves large blocks from mmaps of their own
// (from 128 KiB, a threshold it raises as such blocks are freed): after
// each file's tree is deleted its pages go back, and the next file faults
// them in again, one page at a time. What is kept is bounded by the C
// heap's peak, the largest file's tree. Other C libraries have no such
// knobs; the call is a no-op there.
static void lore_keep_heap(void) {
#ifdef __GLIBC__
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}
*/
import "C"

// keepCHeap keeps the C heap's freed memory for reuse (see lore_keep_heap).
// It sets process-wide allocator parameters, the same on every call.
func keepCHeap() { C.lore_keep_heap() }
