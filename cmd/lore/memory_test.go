package main

import (
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"512MiB", 512 << 20}, {"2GiB", 2 << 30}, {"1g", 1 << 30}, {"64 MB", 64 << 20},
		{"1048576", 1 << 20}, {"100B", 100}, {"3KiB", 3 << 10}, {"1TiB", 1 << 40},
		{"", -1}, {"0", -1}, {"-5MiB", -1}, {"1.5GiB", -1}, {"12PB", -1}, {"MiB", -1},
		{"99999999999999TiB", -1},
	} {
		got, err := parseSize(tc.in)
		if tc.want < 0 {
			if err == nil {
				t.Errorf("parseSize(%q) = %d, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
		if back, err := parseSize(formatSize(got)); err != nil || back != got {
			t.Errorf("formatSize(%d) = %q does not read back", got, formatSize(got))
		}
	}
}

// --memory-limit, then $LORE_MEMORY_LIMIT, set the runtime's soft limit;
// a bad value is an error that names the setting.
func TestMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	prevPercent := debug.SetGCPercent(-1)
	debug.SetGCPercent(prevPercent)
	t.Cleanup(func() {
		debug.SetMemoryLimit(prev)
		debug.SetGCPercent(prevPercent)
	})
	t.Setenv(memoryLimitEnv, "256MiB")
	var m memoryLimit
	if err := m.apply(); err != nil || debug.SetMemoryLimit(-1) != 256<<20 {
		t.Errorf("$%s=256MiB: limit %d, %v", memoryLimitEnv, debug.SetMemoryLimit(-1), err)
	}
	if err := m.Set("1GiB"); err != nil {
		t.Fatal(err)
	}
	if err := m.apply(); err != nil || debug.SetMemoryLimit(-1) != 1<<30 {
		t.Errorf("--memory-limit 1GiB over the variable: limit %d, %v", debug.SetMemoryLimit(-1), err)
	}
	if m.String() != "1GiB" {
		t.Errorf("String() = %q", m.String())
	}
	t.Setenv(memoryLimitEnv, "lots")
	var unset memoryLimit
	if err := unset.apply(); err == nil {
		t.Errorf("$%s=lots: no error", memoryLimitEnv)
	}
}

// The first collection waits for firstGCAt; after it, the default pacing
// is back. It runs in a process of its own: in this one, the heap the other
// tests left could start the first collection before the settings are read.
func TestDeferFirstGC(t *testing.T) {
	if os.Getenv("LORE_GC_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDeferFirstGC$", "-test.v")
		cmd.Env = append(os.Environ(), "LORE_GC_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	})
	t.Setenv(memoryLimitEnv, "")
	var m memoryLimit
	if err := m.apply(); err != nil { // neither setting: the first collection waits
		t.Fatal(err)
	}
	if limit := debug.SetMemoryLimit(-1); limit != firstGCAt {
		t.Fatalf("memory limit before the first collection = %d, want %d", limit, firstGCAt)
	}
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("GOGC before the first collection = %d, want off", p)
	}
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) != math.MaxInt64 {
		if time.Now().After(deadline) {
			t.Fatal("pacing not restored after the first collection")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC after the first collection = %d, want 100", p)
	}
}

// GOGC in the environment leaves the runtime alone.
func TestDeferFirstGCLeavesGOGC(t *testing.T) {
	t.Setenv("GOGC", "200")
	prev := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	deferFirstGC()
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		t.Errorf("memory limit set to %d although GOGC was given", limit)
	}
}
