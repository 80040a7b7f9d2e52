package cochange

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

var errCorrupt = errors.New("corrupt co-change record")

// decoder reads the varint encodings below.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.err = errCorrupt
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string { return string(d.bytes(int(d.uvarint()))) }

// count reads a length and checks it against the bytes left, each element
// taking at least one byte.
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = errCorrupt
		return 0
	}
	return int(n)
}

const (
	flagMerge = 1 << iota
)

// encodeChangeSet: hash, flags, time, author, day, files (delta-coded ids
// with the added bit), renames, parents.
func encodeChangeSet(b []byte, cs *changeSet) []byte {
	b = append(b, cs.hash[:]...)
	var flags uint64
	if cs.merge {
		flags |= flagMerge
	}
	b = binary.AppendUvarint(b, flags)
	b = binary.AppendVarint(b, cs.time)
	b = binary.AppendUvarint(b, uint64(cs.author))
	b = binary.AppendVarint(b, int64(cs.day))
	b = binary.AppendUvarint(b, uint64(len(cs.files)))
	prev := uint32(0)
	for _, f := range cs.files {
		b = binary.AppendUvarint(b, uint64(f-prev))
		prev = f
	}
	b = binary.AppendUvarint(b, uint64(len(cs.renames)))
	for _, r := range cs.renames {
		b = binary.AppendUvarint(b, uint64(r[0]))
		b = binary.AppendUvarint(b, uint64(r[1]))
	}
	b = binary.AppendUvarint(b, uint64(len(cs.parents)))
	for _, p := range cs.parents {
		b = append(b, p[:]...)
	}
	return b
}

func decodeChangeSet(b []byte, npaths int) (changeSet, error) {
	var cs changeSet
	d := decoder{b: b}
	copy(cs.hash[:], d.bytes(len(plumbing.ZeroHash)))
	flags := d.uvarint()
	cs.merge = flags&flagMerge != 0
	cs.time = d.varint()
	cs.author = uint32(d.uvarint())
	cs.day = int32(d.varint())
	n := d.count()
	cs.files = make([]uint32, 0, n)
	prev := uint64(0)
	for range n {
		prev += d.uvarint()
		if prev>>1 >= uint64(npaths) {
			d.err = errCorrupt
		}
		cs.files = append(cs.files, uint32(prev))
	}
	n = d.count()
	for range n {
		from, to := d.uvarint(), d.uvarint()
		if from >= uint64(npaths) || to >= uint64(npaths) {
			d.err = errCorrupt
		}
		cs.renames = append(cs.renames, [2]uint32{uint32(from), uint32(to)})
	}
	n = d.count()
	for range n {
		var p plumbing.Hash
		copy(p[:], d.bytes(len(p)))
		cs.parents = append(cs.parents, p)
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errCorrupt
	}
	return cs, d.err
}

// encodePaths encodes a run of path names.
func encodePaths(names []string) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = binary.AppendUvarint(b, uint64(len(n)))
		b = append(b, n...)
	}
	return b
}

func decodePaths(b []byte) ([]string, error) {
	d := decoder{b: b}
	n := d.count()
	names := make([]string, 0, n)
	for range n {
		names = append(names, d.str())
	}
	return names, d.err
}

// encodePairs stores a result: a table of the names it uses, then the pairs
// as indexes into it.
func encodePairs(ps []Pair) []byte {
	idx := make(map[string]int)
	var names []string
	for _, p := range ps {
		for _, n := range []string{p.A, p.B} {
			if _, ok := idx[n]; !ok {
				idx[n] = len(names)
				names = append(names, n)
			}
		}
	}
	b := encodePaths(names)
	b = binary.AppendUvarint(b, uint64(len(ps)))
	for _, p := range ps {
		b = binary.AppendUvarint(b, uint64(idx[p.A]))
		b = binary.AppendUvarint(b, uint64(idx[p.B]))
		b = binary.AppendUvarint(b, uint64(p.Shared))
		b = binary.AppendUvarint(b, uint64(p.RevsA))
		b = binary.AppendUvarint(b, uint64(p.RevsB))
		b = binary.AppendVarint(b, p.Last)
	}
	return b
}

func decodePairs(b []byte) ([]Pair, error) {
	d := decoder{b: b}
	n := d.count()
	names := make([]string, 0, n)
	for range n {
		names = append(names, d.str())
	}
	n = d.count()
	ps := make([]Pair, 0, n)
	for range n {
		a, bb := d.uvarint(), d.uvarint()
		p := Pair{Shared: int(d.uvarint()), RevsA: int(d.uvarint()), RevsB: int(d.uvarint()), Last: d.varint()}
		if d.err != nil || a >= uint64(len(names)) || bb >= uint64(len(names)) || p.RevsA+p.RevsB == 0 {
			return nil, fmt.Errorf("pairs: %w", errCorrupt)
		}
		p.A, p.B = names[a], names[bb]
		p.Score = degree(p.Shared, p.RevsA, p.RevsB)
		ps = append(ps, p)
	}
	return ps, d.err
}

// degree is shared / average(revsA, revsB).
func degree(shared, revsA, revsB int) float64 {
	return float64(shared) / (float64(revsA+revsB) / 2)
}
