//go:build !unix

package graph

import "os"

// withDirLock does not run fn where lore cannot take Badger's directory
// lock itself: an empty log file is then left for the user to remove, as
// the open error says.
func withDirLock(dir string, fn func(d *os.File)) {}
