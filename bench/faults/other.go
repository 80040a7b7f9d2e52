//go:build !linux

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "faults: Linux only (it measures page faults through mmap and madvise)")
	os.Exit(1)
}
