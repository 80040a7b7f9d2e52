//go:build !linux

package graph

// startWriteback does nothing where there is no sync_file_range (see
// writeback_linux.go): Badger's msync at close writes the value log back.
func startWriteback(dir string) {}
