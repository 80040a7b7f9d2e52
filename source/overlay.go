package source

import (
	"bytes"
	"errors"
	"io/fs"
	"sort"
	"time"
)

// Overlay returns base with files laid over it, as an editor sees unsaved
// buffers: a path in files reads its bytes instead of base's, and new paths
// (and their parent directories) appear in listings. Keys are slash paths
// relative to the root; invalid ones are ignored. A nil value hides nothing:
// it is an empty file. Overlay copies the map, not the byte slices.
func Overlay(base fs.FS, files map[string][]byte) fs.FS {
	o := &overlayFS{base: base, top: newMemFS()}
	now := time.Now()
	for name, b := range files {
		name = cleanRel(name)
		if name == "" {
			continue
		}
		data := b
		o.top.add(name, &memEntry{size: int64(len(data)), mode: 0o644, modTime: now, load: func() ([]byte, error) { return bytes.Clone(data), nil }})
	}
	o.top.finish()
	return o
}

type overlayFS struct {
	base fs.FS
	top  *memFS
}

func (o *overlayFS) Open(name string) (fs.File, error) {
	if _, ok := o.top.files[name]; ok {
		return o.top.Open(name)
	}
	if _, ok := o.top.dirs[name]; ok {
		ents, err := o.ReadDir(name)
		if err != nil {
			return nil, err
		}
		fi, err := o.Stat(name)
		if err != nil {
			return nil, err
		}
		return &overlayDir{info: fi, memDir: memDir{ents: ents}}, nil
	}
	return o.base.Open(name)
}

// Tracked asks base (see dirFS.Tracked); a buffer's own new file is not
// tracked.
func (o *overlayFS) Tracked(name string) bool {
	t, ok := o.base.(interface{ Tracked(string) bool })
	return ok && t.Tracked(name)
}

func (o *overlayFS) ReadFile(name string) ([]byte, error) {
	if _, ok := o.top.files[name]; ok {
		return o.top.ReadFile(name)
	}
	return fs.ReadFile(o.base, name)
}

func (o *overlayFS) Stat(name string) (fs.FileInfo, error) {
	if _, ok := o.top.files[name]; ok {
		return o.top.Stat(name)
	}
	fi, err := fs.Stat(o.base, name)
	if err != nil {
		if _, ok := o.top.dirs[name]; ok {
			return o.top.Stat(name)
		}
	}
	return fi, err
}

func (o *overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	baseEnts, err := fs.ReadDir(o.base, name)
	_, inTop := o.top.dirs[name]
	if err != nil && (!inTop || !errors.Is(err, fs.ErrNotExist)) {
		return nil, err
	}
	if !inTop {
		return baseEnts, nil
	}
	topEnts, _ := o.top.ReadDir(name)
	seen := make(map[string]int, len(baseEnts)+len(topEnts))
	out := make([]fs.DirEntry, 0, len(baseEnts)+len(topEnts))
	for _, e := range baseEnts {
		seen[e.Name()] = len(out)
		out = append(out, e)
	}
	for _, e := range topEnts {
		if i, ok := seen[e.Name()]; ok {
			if !e.IsDir() { // an overlaid file replaces base's entry
				out[i] = e
			}
			continue
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// overlayDir is a merged directory listing with the base's file info.
type overlayDir struct {
	info fs.FileInfo
	memDir
}

func (d *overlayDir) Stat() (fs.FileInfo, error) { return d.info, nil }
