//go:build !unix

package lore

import "os"

func readLearningDir(dir string) ([]dirFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]dirFile, 0, len(entries))
	for _, e := range entries {
		if !wantedEntry(e.Name()) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, dirFile{name: e.Name(), size: fi.Size(), mtime: fi.ModTime().UnixNano(), regular: fi.Mode().IsRegular()})
	}
	return out, nil
}
