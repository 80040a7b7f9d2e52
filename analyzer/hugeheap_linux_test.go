package analyzer

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// adviseHugeHeap, in a process of its own (the test binary's heap is
// whatever earlier tests left): the range it reserves is never touched,
// the allocations that follow get huge pages, and a second call reserves
// nothing more.
func TestAdviseHugeHeap(t *testing.T) {
	if os.Getenv("LORE_HUGEHEAP_CHILD") == "1" {
		hugeHeapChild(t)
		return
	}
	if !hugePagesOnAdvice() {
		t.Skip("the kernel's transparent huge pages are not given on advice (see /sys/kernel/mm/transparent_hugepage/enabled)")
	}
	if !roomForHugeHeap() {
		t.Skip("an address-space limit, strict overcommit or a Go memory limit is set")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAdviseHugeHeap$", "-test.v")
	cmd.Env = append(os.Environ(), "LORE_HUGEHEAP_CHILD=1")
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil {
		t.Fatalf("child: %v", err)
	}
}

func hugeHeapChild(t *testing.T) {
	mapped := runtimeMapped
	rss0, mapped0 := smapsKB(t, "Rss"), mapped()
	adviseHugeHeap()
	rss1, mapped1 := smapsKB(t, "Rss"), mapped()
	if mapped1-mapped0 < hugeHeapBytes {
		t.Fatalf("the heap grew by %d MB, want at least %d", (mapped1-mapped0)>>20, hugeHeapBytes>>20)
	}
	if grew := rss1 - rss0; grew > 16<<10 {
		t.Errorf("RSS grew by %d KB: the reserved range was touched", grew)
	}
	keep := make([][]byte, 0, 1<<16)
	for range 1 << 16 { // 64 MB in small objects, written
		b := make([]byte, 1<<10)
		b[0] = 1
		keep = append(keep, b)
	}
	huge := smapsKB(t, "AnonHugePages")
	t.Logf("RSS %d → %d KB after the advice; %d KB of huge pages after 64 MB of allocations", rss0, rss1, huge)
	if huge < 32<<10 {
		t.Errorf("%d KB of huge pages after 64 MB of allocations in the advised heap", huge)
	}
	adviseHugeHeap()
	if m := mapped(); m-mapped1 >= hugeHeapBytes/2 {
		t.Errorf("a second call grew the heap by %d MB", (m-mapped1)>>20)
	}
	_ = keep[len(keep)-1]
}

// smapsKB reads a field of /proc/self/smaps_rollup, in KB.
func smapsKB(t *testing.T, field string) int64 {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("no smaps_rollup: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in smaps_rollup", field)
	return 0
}
