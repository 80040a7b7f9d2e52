//go:build !linux

package graph

// adviseTables does nothing where there is no madvise(MADV_HUGEPAGE) for
// file mappings (see advise_linux.go).
func adviseTables(dir string) {}
