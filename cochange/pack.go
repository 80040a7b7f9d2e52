package cochange

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Pack object types (gitformat-pack).
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

// packCacheBytes bounds the cache of resolved objects (delta bases mostly).
const packCacheBytes = 32 << 20

// errNoObject reports an object found neither in a pack nor loose.
var errNoObject = errors.New("object not found")

// packSet reads objects straight from memory-mapped packfiles, resolving
// deltas with a cache of bases, the way git itself does, and reads loose
// objects. go-git's packfile reader seeks and reads through a buffered file
// and hashes every object it caches, which made it the bulk of the walk's
// time; go-git remains the fallback for anything this reader does not
// handle (such as version 1 pack indexes). It is not safe for concurrent use.
type packSet struct {
	packs []*packFile
	dirs  []string // object directories: the repository's, then alternates
	cache *objCache
	zr    io.ReadCloser
	br    bytes.Reader
}

type packFile struct {
	// The index (version 2), mapped: fanout, then sorted object ids, CRCs,
	// 32-bit offsets and 64-bit offsets.
	idx        []byte
	count      int
	names      []byte
	off32      []byte
	off64      []byte
	data       []byte
	releaseIdx func() error
	release    func() error
}

// openPacks maps every pack of objDir/pack and of the object directories
// it borrows from (objects/info/alternates, as made by git clone --shared
// or --reference). Packs that fail to open are left to go-git.
func openPacks(objDir string) *packSet {
	ps := &packSet{cache: newObjCache(packCacheBytes)}
	seen := map[string]bool{}
	var add func(dir string, depth int)
	add = func(dir string, depth int) {
		if seen[dir] || depth > 5 {
			return
		}
		seen[dir] = true
		ps.dirs = append(ps.dirs, dir)
		idxs, _ := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
		for _, ip := range idxs {
			if p, err := openPack(ip, strings.TrimSuffix(ip, ".idx")+".pack"); err == nil {
				ps.packs = append(ps.packs, p)
			}
		}
		alt, err := os.ReadFile(filepath.Join(dir, "info", "alternates"))
		if err != nil {
			return
		}
		for _, line := range strings.Split(string(alt), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(dir, line)
			}
			add(filepath.Clean(line), depth+1)
		}
	}
	add(filepath.Clean(objDir), 0)
	return ps
}

func openPack(idxPath, packPath string) (*packFile, error) {
	idx, releaseIdx, err := mapPath(idxPath)
	if err != nil {
		return nil, err
	}
	p := &packFile{idx: idx, releaseIdx: releaseIdx, release: func() error { return nil }}
	if err := p.parseIndex(); err != nil {
		p.close()
		return nil, fmt.Errorf("%s: %w", idxPath, err)
	}
	data, release, err := mapPath(packPath)
	if err != nil {
		p.close()
		return nil, err
	}
	p.data, p.release = data, release
	if len(data) < 12 || string(data[:4]) != "PACK" {
		p.close()
		return nil, fmt.Errorf("%s: not a packfile", packPath)
	}
	return p, nil
}

func mapPath(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	return mapFile(f, st.Size())
}

// parseIndex checks a version 2 pack index and slices its tables.
func (p *packFile) parseIndex() error {
	b := p.idx
	const head = 8 + 256*4
	if len(b) < head || string(b[:4]) != "\xfftOc" || binary.BigEndian.Uint32(b[4:]) != 2 {
		return errors.New("not a version 2 pack index")
	}
	n := int(binary.BigEndian.Uint32(b[8+255*4:]))
	end := head + n*(20+4+4)
	if n < 0 || end+40 > len(b) {
		return errors.New("truncated pack index")
	}
	p.count = n
	p.names = b[head : head+n*20]
	p.off32 = b[head+n*24 : head+n*28]
	p.off64 = b[end : len(b)-40]
	return nil
}

func (p *packFile) close() error {
	return errors.Join(p.release(), p.releaseIdx())
}

func (ps *packSet) Close() error {
	var errs []error
	for _, p := range ps.packs {
		errs = append(errs, p.close())
	}
	ps.packs = nil
	return errors.Join(errs...)
}

// get returns an object's type and content. The content may be shared with
// the cache: callers must not modify it.
func (ps *packSet) get(h plumbing.Hash) (int, []byte, error) { return ps.getAt(h, 0) }

func (ps *packSet) getAt(h plumbing.Hash, depth int) (int, []byte, error) {
	for _, p := range ps.packs {
		if off, ok := p.find(h); ok {
			return ps.at(p, off, depth)
		}
	}
	return 0, nil, errNoObject
}

// find looks an object up in the pack index.
func (p *packFile) find(h plumbing.Hash) (int64, bool) {
	fan := p.idx[8:]
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(fan[(int(h[0])-1)*4:]))
	}
	hi := int(binary.BigEndian.Uint32(fan[int(h[0])*4:]))
	if hi > p.count || lo > hi {
		return 0, false
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(h[:], p.names[mid*20:mid*20+20]); {
		case c == 0:
			ofs := binary.BigEndian.Uint32(p.off32[mid*4:])
			if ofs&(1<<31) == 0 {
				return int64(ofs), true
			}
			i := 8 * int(ofs&^(1<<31))
			if i+8 > len(p.off64) {
				return 0, false
			}
			return int64(binary.BigEndian.Uint64(p.off64[i:])), true
		case c < 0:
			hi = mid
		default:
			lo = mid + 1
		}
	}
	return 0, false
}

// loose reads an unpacked object from any of the object directories.
func (ps *packSet) loose(h plumbing.Hash) (int, []byte, error) {
	hex := h.String()
	for _, dir := range ps.dirs {
		raw, err := os.ReadFile(filepath.Join(dir, hex[:2], hex[2:]))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, nil, err
		}
		zr, err := zlib.NewReader(bytes.NewReader(raw))
		if err != nil {
			return 0, nil, fmt.Errorf("loose object %s: %w", h, err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			return 0, nil, fmt.Errorf("loose object %s: %w", h, err)
		}
		nul := bytes.IndexByte(b, 0)
		if nul < 0 {
			return 0, nil, fmt.Errorf("loose object %s: no header", h)
		}
		kind, size, _ := strings.Cut(string(b[:nul]), " ")
		typ, err := plumbing.ParseObjectType(kind)
		if err != nil || size != fmt.Sprint(len(b)-nul-1) {
			return 0, nil, fmt.Errorf("loose object %s: bad header %q", h, b[:nul])
		}
		return int(typ), b[nul+1:], nil
	}
	return 0, nil, errNoObject
}

// at resolves the object at off in p.
func (ps *packSet) at(p *packFile, off int64, depth int) (int, []byte, error) {
	if depth > 10000 {
		return 0, nil, fmt.Errorf("pack offset %d: delta chain too long", off)
	}
	if t, b, ok := ps.cache.get(p, off); ok {
		return t, b, nil
	}
	d := p.data
	if off < 12 || off >= int64(len(d)) {
		return 0, nil, fmt.Errorf("pack offset %d out of range", off)
	}
	i := int(off)
	c := d[i]
	i++
	typ := int(c>>4) & 7
	size := uint64(c & 15)
	for shift := uint(4); c&0x80 != 0; shift += 7 {
		if i >= len(d) || shift > 63 {
			return 0, nil, fmt.Errorf("pack offset %d: bad header", off)
		}
		c = d[i]
		i++
		size |= uint64(c&0x7f) << shift
	}
	var out []byte
	switch typ {
	case packCommit, packTree, packBlob, packTag:
		b, err := ps.inflate(d[i:], size)
		if err != nil {
			return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
		}
		out = b
	case packOfsDelta, packRefDelta:
		var bt int
		var base []byte
		var err error
		if typ == packOfsDelta {
			if i >= len(d) {
				return 0, nil, fmt.Errorf("pack offset %d: bad delta", off)
			}
			c = d[i]
			i++
			rel := uint64(c & 0x7f)
			for c&0x80 != 0 {
				if i >= len(d) {
					return 0, nil, fmt.Errorf("pack offset %d: bad delta", off)
				}
				c = d[i]
				i++
				rel = (rel+1)<<7 | uint64(c&0x7f)
			}
			if rel == 0 || rel > uint64(off) {
				return 0, nil, fmt.Errorf("pack offset %d: bad delta base", off)
			}
			bt, base, err = ps.at(p, off-int64(rel), depth+1)
		} else {
			if i+20 > len(d) {
				return 0, nil, fmt.Errorf("pack offset %d: bad delta", off)
			}
			var bh plumbing.Hash
			copy(bh[:], d[i:i+20])
			i += 20
			bt, base, err = ps.getAt(bh, depth+1)
		}
		if err != nil {
			return 0, nil, err
		}
		delta, err := ps.inflate(d[i:], size)
		if err != nil {
			return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
		}
		if out, err = applyDelta(base, delta); err != nil {
			return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
		}
		typ = bt
	default:
		return 0, nil, fmt.Errorf("pack offset %d: object type %d", off, typ)
	}
	ps.cache.put(p, off, typ, out)
	return typ, out, nil
}

func (ps *packSet) inflate(src []byte, size uint64) ([]byte, error) {
	if size > 1<<32 {
		return nil, fmt.Errorf("object of %d bytes", size)
	}
	ps.br.Reset(src)
	var err error
	if ps.zr == nil {
		ps.zr, err = zlib.NewReader(&ps.br)
	} else {
		err = ps.zr.(zlib.Resetter).Reset(&ps.br, nil)
	}
	if err != nil {
		return nil, err
	}
	out := make([]byte, size)
	if _, err := io.ReadFull(ps.zr, out); err != nil {
		return nil, err
	}
	return out, nil
}

// applyDelta rebuilds an object from its base and a git delta.
func applyDelta(base, delta []byte) ([]byte, error) {
	errBad := errors.New("corrupt delta")
	i := 0
	varint := func() (uint64, bool) {
		var v uint64
		for shift := uint(0); ; shift += 7 {
			if i >= len(delta) || shift > 63 {
				return 0, false
			}
			c := delta[i]
			i++
			v |= uint64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, true
			}
		}
	}
	srcSize, ok1 := varint()
	dstSize, ok2 := varint()
	if !ok1 || !ok2 || srcSize != uint64(len(base)) || dstSize > 1<<32 {
		return nil, errBad
	}
	out := make([]byte, 0, dstSize)
	for i < len(delta) {
		op := delta[i]
		i++
		if op&0x80 == 0 {
			n := int(op)
			if n == 0 || i+n > len(delta) {
				return nil, errBad
			}
			out = append(out, delta[i:i+n]...)
			i += n
			continue
		}
		var off, n uint64
		for k := uint(0); k < 4; k++ {
			if op&(1<<k) != 0 {
				if i >= len(delta) {
					return nil, errBad
				}
				off |= uint64(delta[i]) << (8 * k)
				i++
			}
		}
		for k := uint(0); k < 3; k++ {
			if op&(0x10<<k) != 0 {
				if i >= len(delta) {
					return nil, errBad
				}
				n |= uint64(delta[i]) << (8 * k)
				i++
			}
		}
		if n == 0 {
			n = 0x10000
		}
		if off+n > uint64(len(base)) {
			return nil, errBad
		}
		out = append(out, base[off:off+n]...)
	}
	if uint64(len(out)) != dstSize {
		return nil, errBad
	}
	return out, nil
}

// objCache keeps resolved pack objects in two generations bounded by bytes.
type objCache struct {
	young, old map[objKey]cachedObj
	youngBytes int
	limit      int
}

type objKey struct {
	p   *packFile
	off int64
}

type cachedObj struct {
	typ  int
	data []byte
}

func newObjCache(limit int) *objCache {
	return &objCache{young: make(map[objKey]cachedObj), limit: limit / 2}
}

func (c *objCache) get(p *packFile, off int64) (int, []byte, bool) {
	k := objKey{p, off}
	if o, ok := c.young[k]; ok {
		return o.typ, o.data, true
	}
	if o, ok := c.old[k]; ok {
		c.put(p, off, o.typ, o.data)
		return o.typ, o.data, true
	}
	return 0, nil, false
}

func (c *objCache) put(p *packFile, off int64, typ int, data []byte) {
	if len(data) > c.limit/8 {
		return
	}
	if c.youngBytes+len(data) > c.limit {
		c.old, c.young, c.youngBytes = c.young, make(map[objKey]cachedObj), 0
	}
	c.young[objKey{p, off}] = cachedObj{typ, data}
	c.youngBytes += len(data)
}
