package graph

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Graph key layout. Node ids are interned to integers (uids) so that the
// adjacency keys stay short; a uid is written with an order-preserving,
// prefix-free variable-length code (see putUID), so "o"+uid is a prefix of
// exactly that node's out-edges.
//
//	i<id>                         → uid                         id → uid
//	n<uid>                        → id, attrs                   node record
//	o<from><type><to><relation>   → edge record or adjacency    out-edges
//	r<to><type><from><relation>   → adjacency                   in-edges
//	h<seq: 8 bytes big-endian>    → JSON Change                 history
//
// A directed edge has two keys: its full record under "o" (flags, weight,
// times, version, mentions, reason, metadata) and a 9-byte adjacency value
// (flags, weight) under "r". A symmetric edge (CO_CHANGES_WITH, SIMILAR_TO)
// is stored once in canonical order (From < To by id) with its full record
// under o<From>…<To> and adjacency values under r<To>…<From>, and mirrored:
// o<To>…<From> and r<From>…<To> carry adjacency values flagged as mirrors.
// So every node's edges of every type, symmetric or not, are one prefix scan
// in each direction, and a symmetric edge shows up as an out-edge and as an
// in-edge of both of its ends.
const (
	prefixID      = 'i'
	prefixNode    = 'n'
	prefixOut     = 'o'
	prefixIn      = 'r'
	prefixHistory = 'h'
)

// Flags of an adjacency or edge value (first byte).
const (
	flagInvalid = 1 << iota // soft-deleted
	flagMirror              // mirror entry of a symmetric edge
	flagFull                // full record follows the weight
)

// putUID appends u in an order-preserving prefix-free code: the count of
// leading one bits of the first byte is the number of bytes that follow.
func putUID(b []byte, u uint64) []byte {
	switch {
	case u < 1<<7:
		return append(b, byte(u))
	case u < 1<<14:
		return append(b, 0x80|byte(u>>8), byte(u))
	case u < 1<<21:
		return append(b, 0xC0|byte(u>>16), byte(u>>8), byte(u))
	case u < 1<<28:
		return append(b, 0xE0|byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
	case u < 1<<35:
		return append(b, 0xF0|byte(u>>32), byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
	default:
		b = append(b, 0xF8)
		return binary.BigEndian.AppendUint64(b, u)
	}
}

// getUID decodes a uid at the start of b and returns it with its length.
func getUID(b []byte) (uint64, int, error) {
	if len(b) == 0 {
		return 0, 0, errCorrupt
	}
	c := b[0]
	var n int
	switch {
	case c < 0x80:
		return uint64(c), 1, nil
	case c < 0xC0:
		n = 1
	case c < 0xE0:
		n = 2
	case c < 0xF0:
		n = 3
	case c < 0xF8:
		n = 4
	default:
		if len(b) < 9 {
			return 0, 0, errCorrupt
		}
		return binary.BigEndian.Uint64(b[1:]), 9, nil
	}
	if len(b) < n+1 {
		return 0, 0, errCorrupt
	}
	u := uint64(c & (0x7F >> n))
	for i := 1; i <= n; i++ {
		u = u<<8 | uint64(b[i])
	}
	return u, n + 1, nil
}

func idKey(id string) []byte {
	b := make([]byte, 0, 1+len(id))
	return append(append(b, prefixID), id...)
}

func nodeKey(uid uint64) []byte { return putUID([]byte{prefixNode}, uid) }

// adjKey builds prefix+a+type+b+relation.
func adjKey(prefix byte, a uint64, typ byte, b uint64, rel string) []byte {
	k := make([]byte, 0, 2+9+9+len(rel))
	k = append(k, prefix)
	k = putUID(k, a)
	k = append(k, typ)
	k = putUID(k, b)
	return append(k, rel...)
}

// adj is a decoded adjacency key and the head of its value.
type adj struct {
	self, other uint64
	typ         byte
	rel         string
	flags       byte
	weight      float64
	raw         []byte // the whole value, while a scan callback runs
}

func parseAdjKey(k []byte) (a adj, err error) {
	if len(k) < 4 {
		return a, errCorrupt
	}
	var n int
	if a.self, n, err = getUID(k[1:]); err != nil {
		return a, err
	}
	k = k[1+n:]
	if len(k) < 2 {
		return a, errCorrupt
	}
	a.typ = k[0]
	if a.other, n, err = getUID(k[1:]); err != nil {
		return a, err
	}
	a.rel = string(k[1+n:])
	return a, nil
}

func parseAdjValue(v []byte, a *adj) error {
	if len(v) < 9 {
		return errCorrupt
	}
	a.flags = v[0]
	a.weight = math.Float64frombits(binary.LittleEndian.Uint64(v[1:9]))
	return nil
}

func adjValue(flags byte, w float64) []byte {
	v := make([]byte, 9)
	v[0] = flags
	binary.LittleEndian.PutUint64(v[1:], math.Float64bits(w))
	return v
}

// edgeRecord is the stored form of an edge, without its ends.
type edgeRecord struct {
	flags                         byte
	weight                        float64
	created, updated, invalidated int64 // unix nanoseconds
	version, mentions             uint64
	reason                        string
	metadata                      []byte // JSON object or empty
}

func (r *edgeRecord) encode() []byte {
	return r.appendTo(make([]byte, 0, 9+40+len(r.reason)+len(r.metadata)))
}

// appendTo appends the encoded record to v.
func (r *edgeRecord) appendTo(v []byte) []byte {
	v = append(v, r.flags|flagFull)
	v = binary.LittleEndian.AppendUint64(v, math.Float64bits(r.weight))
	v = binary.AppendVarint(v, r.created)
	v = binary.AppendVarint(v, r.updated-r.created)
	v = binary.AppendUvarint(v, r.version)
	v = binary.AppendUvarint(v, r.mentions)
	if r.flags&flagInvalid != 0 {
		v = binary.AppendVarint(v, r.invalidated)
		v = binary.AppendUvarint(v, uint64(len(r.reason)))
		v = append(v, r.reason...)
	}
	return append(v, r.metadata...)
}

func decodeRecord(v []byte) (r edgeRecord, err error) {
	if len(v) < 9 || v[0]&flagFull == 0 {
		return r, errCorrupt
	}
	r.flags = v[0] &^ flagFull
	r.weight = math.Float64frombits(binary.LittleEndian.Uint64(v[1:9]))
	v = v[9:]
	var n int
	next := func() int64 {
		x, m := binary.Varint(v)
		if m <= 0 {
			err = errCorrupt
			return 0
		}
		v = v[m:]
		return x
	}
	nextU := func() uint64 {
		x, m := binary.Uvarint(v)
		if m <= 0 {
			err = errCorrupt
			return 0
		}
		v = v[m:]
		return x
	}
	r.created = next()
	r.updated = r.created + next()
	r.version = nextU()
	r.mentions = nextU()
	if r.flags&flagInvalid != 0 {
		r.invalidated = next()
		if u := nextU(); err == nil && u > uint64(len(v)) {
			err = errCorrupt
		} else {
			n = int(u)
		}
		if err == nil {
			r.reason = string(v[:n])
			v = v[n:]
		}
	}
	if err != nil {
		return r, err
	}
	if len(v) > 0 {
		r.metadata = append([]byte(nil), v...)
	}
	return r, nil
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func encodeMetadata(m map[string]any) ([]byte, error) {
	if len(m) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("edge metadata: %w", err)
	}
	return b, nil
}

func decodeMetadata(b []byte) (map[string]any, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("edge metadata: %w", err)
	}
	return m, nil
}

// node value: uvarint len(id), id, JSON attrs (may be empty).
func encodeNode(id string, attrs map[string]string) []byte {
	v := binary.AppendUvarint(nil, uint64(len(id)))
	v = append(v, id...)
	if len(attrs) > 0 {
		b, _ := json.Marshal(attrs) // map[string]string always marshals
		v = append(v, b...)
	}
	return v
}

func decodeNodeID(v []byte) (string, []byte, error) {
	n, m := binary.Uvarint(v)
	if m <= 0 || n > uint64(len(v)-m) {
		return "", nil, errCorrupt
	}
	return string(v[m : m+int(n)]), v[m+int(n):], nil
}

func decodeNode(v []byte) (Node, error) {
	id, rest, err := decodeNodeID(v)
	if err != nil {
		return Node{}, err
	}
	n := Node{ID: id}
	n.Type, _ = NodeType(id)
	if len(rest) > 0 {
		if err := json.Unmarshal(rest, &n.Attrs); err != nil {
			return Node{}, errCorrupt
		}
	}
	return n, nil
}
