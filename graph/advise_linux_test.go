package graph

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hugeAdvised returns, for each mapping of a file under dir, whether its
// VmFlags carry "hg" (MADV_HUGEPAGE), from /proc/self/smaps.
func hugeAdvised(t *testing.T, dir string) map[string]bool {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	out := map[string]bool{}
	cur := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if _, _, path, ok := mapsLine([]byte(line)); ok {
			cur = ""
			if strings.HasPrefix(string(path), real+"/") {
				cur = filepath.Base(string(path))
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && cur != "" {
			out[cur] = out[cur] || strings.Contains(" "+rest+" ", " hg ")
		}
	}
	return out
}

func TestAdviseTables(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("kernel without transparent huge pages:", err)
	}
	dir := t.TempDir()
	s, err := Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if _, err := s.UpsertEdge(Edge{Type: Imports, From: fileID(i), To: fileID(i + 1), Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil { // flushes a table
		t.Fatal(err)
	}
	s, err = Open(dir, Options{Schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := hugeAdvised(t, dir)
	tables := 0
	for name, hg := range got {
		if !strings.HasSuffix(name, ".sst") {
			if hg {
				t.Errorf("%s advised, only tables should be", name)
			}
			continue
		}
		tables++
		if !hg {
			t.Errorf("table %s not advised", name)
		}
	}
	if tables == 0 {
		t.Fatalf("no table mapped: %v", got)
	}
}

func TestMapsLine(t *testing.T) {
	lo, hi, path, ok := mapsLine([]byte("7f0a1c000000-7f0a1c200000 r--s 00000000 fe:01 1234                       /tmp/a b/db/000001.sst"))
	if !ok || lo != 0x7f0a1c000000 || hi != 0x7f0a1c200000 || string(path) != "/tmp/a b/db/000001.sst" {
		t.Fatalf("got %x %x %q %v", lo, hi, path, ok)
	}
	for _, bad := range []string{
		"",
		"7f0a1c000000-7f0a1c200000 rw-p 00000000 00:00 0",
		"zz-7f0a1c200000 r--s 00000000 fe:01 1234 /x.sst",
		"7f0a1c200000-7f0a1c000000 r--s 00000000 fe:01 1234 /x.sst",
		"7f0a1c000000 r--s 00000000 fe:01 1234 /x.sst",
	} {
		if _, _, _, ok := mapsLine([]byte(bad)); ok {
			t.Errorf("accepted %q", bad)
		}
	}
}

func FuzzMapsLine(f *testing.F) {
	f.Add([]byte("7f0a1c000000-7f0a1c200000 r--s 00000000 fe:01 1234 /tmp/db/000001.sst"))
	f.Fuzz(func(t *testing.T, line []byte) {
		lo, hi, path, ok := mapsLine(line)
		if ok && (hi <= lo || len(path) == 0) {
			t.Fatalf("accepted %q as %x-%x %q", line, lo, hi, path)
		}
	})
}
