package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// The command's memory policy. lore's packages never change the process's
// garbage collector or allocator (a program that embeds them decides its
// own); the command does, in two ways, both documented in the README:
//
//   - --memory-limit SIZE or $LORE_MEMORY_LIMIT sets a soft limit on the Go
//     heap (debug.SetMemoryLimit), as GOMEMLIMIT does, for machines where a
//     large index must stay within a budget;
//   - the first collection waits until the heap reaches firstGCAt (see
//     deferFirstGC), since most commands end before they would need one.
//
// GOGC or GOMEMLIMIT in the environment leave the runtime's own settings
// alone, and the flag or the variable wins over both.

// memoryLimitEnv names the environment variable of --memory-limit.
const memoryLimitEnv = "LORE_MEMORY_LIMIT"

// memoryLimit is the value of --memory-limit: bytes, 0 when not set.
type memoryLimit int64

func (m *memoryLimit) String() string {
	if *m == 0 {
		return ""
	}
	return formatSize(int64(*m))
}

func (m *memoryLimit) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*m = memoryLimit(n)
	return nil
}

func (m *memoryLimit) Type() string { return "size" }

// apply sets the command's memory policy before it runs: the limit from
// the flag, else from $LORE_MEMORY_LIMIT; with neither, the deferred
// first collection.
func (m *memoryLimit) apply() error {
	n := int64(*m)
	if s := os.Getenv(memoryLimitEnv); n == 0 && s != "" {
		var err error
		if n, err = parseSize(s); err != nil {
			return fmt.Errorf("$%s: %w", memoryLimitEnv, err)
		}
	}
	if n == 0 {
		deferFirstGC()
		return nil
	}
	debug.SetMemoryLimit(n)
	return nil
}

// parseSize reads a size as GOMEMLIMIT spells it: a whole number of bytes
// with an optional unit B, KiB, MiB, GiB or TiB (also KB, MB, GB, TB, and
// K, M, G, T, all powers of 1024).
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("memory limit %q: want a positive size such as 512MiB or 2GiB", s)
	}
	shift := 0
	switch strings.ToUpper(strings.TrimSpace(s[i:])) {
	case "", "B":
	case "K", "KB", "KIB":
		shift = 10
	case "M", "MB", "MIB":
		shift = 20
	case "G", "GB", "GIB":
		shift = 30
	case "T", "TB", "TIB":
		shift = 40
	default:
		return 0, fmt.Errorf("memory limit %q: unknown unit %q (use B, KiB, MiB, GiB or TiB)", s, s[i:])
	}
	if n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("memory limit %q: too large", s)
	}
	return n << shift, nil
}

// formatSize writes n in the largest unit that divides it.
func formatSize(n int64) string {
	for _, u := range []struct {
		shift int
		name  string
	}{{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// firstGCAt is the memory the process may use before its first garbage
// collection. Most commands allocate less than this and end without one.
const firstGCAt = 16 << 20

// gcSentinel is unreachable from the start; its finalizer runs after the
// first collection.
type gcSentinel struct{ _ *byte }

// deferFirstGC lets the process grow to firstGCAt before it collects,
// then restores the default pacing (GOGC=100, no memory limit). By default
// Go collects first at a 4 MiB heap, which a short command that reads the
// store and exits pays for and gains nothing from. Commands that keep
// allocating (index, serve) collect as usual from the first collection on.
// GOGC or GOMEMLIMIT in the environment leave the runtime's settings alone.
func deferFirstGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(firstGCAt)
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}
