package graph

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// adviseTables asks the kernel for huge pages on Badger's mappings of the
// tables in dir (MADV_HUGEPAGE), found in /proc/self/maps. A table that
// is not in the page cache, or was dropped from it since (this machine's
// kernel reclaims idle page cache within minutes), is then read in 2 MiB
// folios and mapped with one fault each instead of 16 pages a fault: on the
// 100,000-node store, right after its tables were dropped, `lore graph
// neighbors` took 46–53 ms instead of 49–71 ms. Tables already cached stay
// as they are (see foldFiles for the ones a writer makes). Badger maps the
// tables and reads their indexes while it opens, before this runs, so
// those pages keep the size they had. It is advice: on a kernel or file
// system that cannot, nothing changes, and reading /proc/self/maps costs
// about 0.1 ms.
func adviseTables(dir string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real // the kernel shows resolved paths
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return
	}
	defer f.Close()
	prefix := []byte(abs + string(filepath.Separator))
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lo, hi, path, ok := mapsLine(sc.Bytes())
		if !ok || !bytes.HasPrefix(path, prefix) || !bytes.HasSuffix(path, []byte(".sst")) ||
			bytes.IndexByte(path[len(prefix):], filepath.Separator) >= 0 {
			continue
		}
		unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, unix.MADV_HUGEPAGE)
	}
}

// mapsLine parses "lo-hi perms offset dev inode path" from /proc/self/maps.
func mapsLine(line []byte) (lo, hi uintptr, path []byte, ok bool) {
	fields := 0
	i := 0
	for fields < 5 && i < len(line) {
		for i < len(line) && line[i] != ' ' {
			i++
		}
		for i < len(line) && line[i] == ' ' {
			i++
		}
		fields++
	}
	if fields < 5 || i >= len(line) {
		return 0, 0, nil, false
	}
	path = line[i:]
	addr, _, _ := bytes.Cut(line, []byte{' '})
	l, h, found := bytes.Cut(addr, []byte{'-'})
	if !found {
		return 0, 0, nil, false
	}
	a, err1 := strconv.ParseUint(string(l), 16, 64)
	b, err2 := strconv.ParseUint(string(h), 16, 64)
	if err1 != nil || err2 != nil || b <= a {
		return 0, 0, nil, false
	}
	return uintptr(a), uintptr(b), path, true
}
