package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHugeHeap checks that the heap chunk holding a fresh object carries
// MADV_HUGEPAGE ("hg" in its VmFlags) after hugeHeap, and that the heap
// still works.
func TestHugeHeap(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("no transparent huge pages here (%q, %v)", mode, err)
	}
	hugeHeap()
	p := uintptr(unsafe.Pointer(heapObject()))
	flags, err := vmFlags(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Fatalf("heap mapping at %#x has VmFlags %q, want hg", p, flags)
	}
	// The collapsed chunk keeps its contents.
	xs := make([][]int, 0, 1000)
	for i := range 1000 {
		xs = append(xs, []int{i, i * i})
	}
	for i, x := range xs {
		if x[0] != i || x[1] != i*i {
			t.Fatalf("xs[%d] = %v", i, x)
		}
	}
}

// vmFlags returns the VmFlags line of the mapping holding address p, from
// /proc/self/smaps.
func vmFlags(p uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		addr, _, _ := strings.Cut(line, " ")
		if a, b, ok := strings.Cut(addr, "-"); ok {
			lo, err1 := strconv.ParseUint(a, 16, 64)
			hi, err2 := strconv.ParseUint(b, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(p) >= lo && uint64(p) < hi
				continue
			}
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.TrimSpace(rest), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping holds %#x", p)
}
