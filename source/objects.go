package source

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// objects reads git objects. A packed object is found with go-git's pack
// index (idxfile), inflated straight from the packfile, mapped into
// memory for as long as the repository is open, and rebuilt from its
// delta with go-git's packfile.PatchDelta, with a cache of resolved
// objects (delta bases above all); anything else — loose objects, packs
// this reader cannot open — comes through go-git's storage. Reading packs
// through go-git's storage or its packfile scanner instead was measured on
// a long history and made co-change much slower (BENCHMARKS.md). It is not
// safe for concurrent use: Repo takes turns.
type objects struct {
	st    *filesystem.Storage
	packs []*pack
	cache objectCache
	zr    io.ReadCloser
	br    bytes.Reader
}

// pack is one packfile, mapped, and its index.
type pack struct {
	n       uint64 // its place among the packs, for cache keys
	idx     *idxfile.MemoryIndex
	data    []byte
	release func() error
}

// Pack entry types (gitformat-pack) that the header of an entry names.
const (
	packOfsDelta = 6
	packRefDelta = 7
)

// objectCacheBytes bounds the cache of resolved pack objects.
const objectCacheBytes = 32 << 20

// errNotPacked reports an object that no mapped pack holds.
var errNotPacked = errors.New("not in a mapped pack")

// openObjects maps every pack of objDir and of the object directories it
// borrows from (objects/info/alternates, as git clone --shared or
// --reference make them). A pack that fails to open is left to st.
func openObjects(st *filesystem.Storage, objDir string) *objects {
	o := &objects{st: st, cache: newObjectCache(objectCacheBytes)}
	seen := map[string]bool{}
	var add func(dir string, depth int)
	add = func(dir string, depth int) {
		if seen[dir] || depth > 5 {
			return
		}
		seen[dir] = true
		idxs, _ := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
		for _, ip := range idxs {
			if p, err := openPack(ip, strings.TrimSuffix(ip, ".idx")+".pack"); err == nil {
				p.n = uint64(len(o.packs))
				o.packs = append(o.packs, p)
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
	return o
}

func openPack(idxPath, packPath string) (*pack, error) {
	f, err := os.Open(idxPath)
	if err != nil {
		return nil, err
	}
	idx := idxfile.NewMemoryIndex()
	err = idxfile.NewDecoder(f).Decode(idx)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", idxPath, err)
	}
	data, release, err := mapPath(packPath)
	if err != nil {
		return nil, err
	}
	if len(data) < 12 || string(data[:4]) != "PACK" {
		return nil, errors.Join(fmt.Errorf("%s: not a packfile", packPath), release())
	}
	return &pack{idx: idx, data: data, release: release}, nil
}

func mapPath(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = f.Close() }() // only read; a mapping outlives its descriptor
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	return mapFile(f, fi.Size())
}

func (o *objects) close() error {
	var errs []error
	for _, p := range o.packs {
		errs = append(errs, p.release())
	}
	o.packs = nil
	return errors.Join(errs...)
}

// read returns an object's type and content. The content may be shared
// with the cache: it must not be modified.
func (o *objects) read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	t, b, err := o.packed(h, 0)
	if err == nil {
		return t, b, nil
	}
	// Anything the mapped packs do not hold, or hold in a form this
	// reader does not take, is go-git's storage's to read.
	obj, err := o.st.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, nil, err
	}
	rd, err := obj.Reader()
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = rd.Close() }() // only read
	b = make([]byte, obj.Size())
	if _, err := io.ReadFull(rd, b); err != nil {
		return 0, nil, err
	}
	return obj.Type(), b, nil
}

// size returns an object's size, reading no more of it than its header
// (and a delta's) where it is packed.
func (o *objects) size(h plumbing.Hash) (int64, error) {
	for _, p := range o.packs {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			continue
		}
		typ, size, at, err := p.header(off)
		if err != nil {
			break
		}
		if typ != packOfsDelta && typ != packRefDelta {
			return int64(size), nil
		}
		// A delta starts with its base's size and its result's.
		head, err := o.inflate(p.data[at:], min(size, 20), true)
		if err != nil {
			break
		}
		_, n := uvarint(head)
		if n <= 0 {
			break
		}
		if v, m := uvarint(head[n:]); m > 0 {
			return int64(v), nil
		}
		break
	}
	if n, err := o.st.EncodedObjectSize(h); err == nil {
		return n, nil
	}
	// go-git sizes no loose object of an alternate: read it.
	_, b, err := o.read(h)
	return int64(len(b)), err
}

func (o *objects) packed(h plumbing.Hash, depth int) (plumbing.ObjectType, []byte, error) {
	for _, p := range o.packs {
		if off, err := p.idx.FindOffset(h); err == nil {
			return o.at(p, off, depth)
		}
	}
	return 0, nil, errNotPacked
}

// header decodes the header of the pack entry at off: its type, its size
// (inflated; a delta's own size for deltas) and where its data starts, a
// delta's base reference included.
func (p *pack) header(off int64) (typ int, size uint64, at int, err error) {
	d := p.data
	if off < 12 || off >= int64(len(d)) {
		return 0, 0, 0, fmt.Errorf("pack offset %d out of range", off)
	}
	i := int(off)
	c := d[i]
	i++
	typ = int(c>>4) & 7
	size = uint64(c & 15)
	for shift := uint(4); c&0x80 != 0; shift += 7 {
		if i >= len(d) || shift > 63 {
			return 0, 0, 0, fmt.Errorf("pack offset %d: bad header", off)
		}
		c = d[i]
		i++
		size |= uint64(c&0x7f) << shift
	}
	return typ, size, i, nil
}

// at resolves the pack entry at off.
func (o *objects) at(p *pack, off int64, depth int) (plumbing.ObjectType, []byte, error) {
	if depth > 10000 {
		return 0, nil, fmt.Errorf("pack offset %d: delta chain too long", off)
	}
	if t, b, ok := o.cache.get(p, off); ok {
		return t, b, nil
	}
	typ, size, i, err := p.header(off)
	if err != nil {
		return 0, nil, err
	}
	d := p.data
	var t plumbing.ObjectType
	var out []byte
	switch typ {
	case packOfsDelta, packRefDelta:
		var base []byte
		if typ == packOfsDelta {
			// The base's distance back, in git's offset encoding: each
			// continuation adds one before shifting.
			if i >= len(d) {
				return 0, nil, fmt.Errorf("pack offset %d: bad delta", off)
			}
			c := d[i]
			i++
			rel := uint64(c & 0x7f)
			for c&0x80 != 0 {
				if i >= len(d) || rel > 1<<56 {
					return 0, nil, fmt.Errorf("pack offset %d: bad delta", off)
				}
				c = d[i]
				i++
				rel = (rel+1)<<7 | uint64(c&0x7f)
			}
			if rel == 0 || rel > uint64(off) {
				return 0, nil, fmt.Errorf("pack offset %d: bad delta base", off)
			}
			t, base, err = o.at(p, off-int64(rel), depth+1)
		} else {
			if i+20 > len(d) {
				return 0, nil, fmt.Errorf("pack offset %d: bad delta", off)
			}
			var bh plumbing.Hash
			copy(bh[:], d[i:i+20])
			i += 20
			t, base, err = o.packed(bh, depth+1)
		}
		if err != nil {
			return 0, nil, err
		}
		delta, err := o.inflate(d[i:], size, false)
		if err != nil {
			return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
		}
		if out, err = packfile.PatchDelta(base, delta); err != nil {
			return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
		}
	default:
		t = plumbing.ObjectType(typ)
		if !t.Valid() || t == plumbing.OFSDeltaObject || t == plumbing.REFDeltaObject {
			return 0, nil, fmt.Errorf("pack offset %d: object type %d", off, typ)
		}
		if out, err = o.inflate(d[i:], size, false); err != nil {
			return 0, nil, fmt.Errorf("pack offset %d: %w", off, err)
		}
	}
	o.cache.put(p, off, t, out)
	return t, out, nil
}

// inflate decompresses size bytes of zlib data from src; with head, only
// the first size bytes of a longer stream.
func (o *objects) inflate(src []byte, size uint64, head bool) ([]byte, error) {
	if size > 1<<32 {
		return nil, fmt.Errorf("object of %d bytes", size)
	}
	o.br.Reset(src)
	var err error
	if o.zr == nil {
		o.zr, err = zlib.NewReader(&o.br)
	} else {
		err = o.zr.(zlib.Resetter).Reset(&o.br, nil)
	}
	if err != nil {
		return nil, err
	}
	out := make([]byte, size)
	if _, err := io.ReadFull(o.zr, out); err != nil && !(head && errors.Is(err, io.ErrUnexpectedEOF)) {
		return nil, err
	}
	return out, nil
}

// uvarint decodes the little-endian base-128 sizes a delta starts with.
func uvarint(b []byte) (uint64, int) {
	var v uint64
	for i, c := range b {
		if i > 9 {
			return 0, 0
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// objectCache keeps resolved pack objects in two generations bounded by
// bytes: when the young one is full it becomes the old one, and objects
// used again are promoted.
type objectCache struct {
	young, old map[uint64]cachedObject
	youngBytes int
	limit      int
}

// key is an entry's place: its pack's number above an offset below 2^40.
func key(p *pack, off int64) uint64 { return p.n<<40 | uint64(off) }

type cachedObject struct {
	typ  plumbing.ObjectType
	data []byte
}

func newObjectCache(limit int) objectCache {
	return objectCache{young: make(map[uint64]cachedObject), limit: limit / 2}
}

func (c *objectCache) get(p *pack, off int64) (plumbing.ObjectType, []byte, bool) {
	k := key(p, off)
	if o, ok := c.young[k]; ok {
		return o.typ, o.data, true
	}
	if o, ok := c.old[k]; ok {
		c.put(p, off, o.typ, o.data)
		return o.typ, o.data, true
	}
	return 0, nil, false
}

func (c *objectCache) put(p *pack, off int64, typ plumbing.ObjectType, data []byte) {
	if len(data) > c.limit/8 {
		return
	}
	if c.youngBytes+len(data) > c.limit {
		c.old, c.young, c.youngBytes = c.young, make(map[uint64]cachedObject), 0
	}
	c.young[key(p, off)] = cachedObject{typ, data}
	c.youngBytes += len(data)
}
