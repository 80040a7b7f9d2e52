//go:build !unix

package graph

// freeSpace does not know the free space where lore cannot ask for it.
func freeSpace(string) (uint64, bool) { return 0, false }
