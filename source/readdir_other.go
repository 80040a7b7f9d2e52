//go:build !unix

package source

import (
	"io/fs"
	"os"
)

func readDir(dir string) ([]fs.DirEntry, error) { return os.ReadDir(dir) }
