package lore

import (
	"encoding/binary"
	"errors"
	"math"
	"time"

	"github.com/lorehq/lore/anchors"
)

// Records of learning files are read on every command, so they use a
// compact binary form rather than JSON (decoding 1,000 learnings from JSON
// cost about a third of `lore learn list`). Strings and counts are
// uvarint-prefixed; the first byte is the format version.
const recordVersion = 2

var errRecord = errors.New("corrupt learning record")

type recWriter struct{ b []byte }

func (w *recWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *recWriter) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *recWriter) str(s string)  { w.uint(uint64(len(s))); w.b = append(w.b, s...) }
func (w *recWriter) strs(ss []string) {
	w.uint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}
func (w *recWriter) time(t time.Time) {
	if t.IsZero() {
		w.int(math.MinInt64)
		return
	}
	w.int(t.UnixNano())
}

// recReader reads a record from one string: converting the record once
// and handing out substrings costs one allocation per record instead of
// one per field.
type recReader struct {
	s   string
	err error
}

func (r *recReader) fail() { r.err, r.s = errRecord, "" }

func (r *recReader) uint() uint64 {
	var v uint64
	for i := 0; i < len(r.s) && i < binary.MaxVarintLen64; i++ {
		c := r.s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break
			}
			r.s = r.s[i+1:]
			return v | uint64(c)<<(7*i)
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	r.fail()
	return 0
}

func (r *recReader) int() int64 {
	u := r.uint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (r *recReader) str() string {
	n := r.uint()
	if n > uint64(len(r.s)) {
		r.fail()
		return ""
	}
	s := r.s[:n]
	r.s = r.s[n:]
	return s
}

func (r *recReader) strs() []string {
	n := r.uint()
	if n == 0 || n > uint64(len(r.s)) {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *recReader) time() time.Time {
	v := r.int()
	if v == math.MinInt64 {
		return time.Time{}
	}
	return time.Unix(0, v).UTC()
}

func encodeRecord(rec fileRecord) []byte {
	w := &recWriter{b: make([]byte, 0, 512)}
	w.uint(recordVersion)
	w.int(rec.Size)
	w.int(rec.MTime)
	w.str(rec.Sum)
	w.str(rec.Err)
	l := rec.Learning
	if l == nil {
		w.uint(0)
		return w.b
	}
	w.uint(1)
	w.str(l.ID)
	w.str(l.Title)
	w.strs(l.Tags)
	w.uint(uint64(len(l.Anchors)))
	for _, a := range l.Anchors {
		w.strs([]string{a.Symbol, a.Lines, a.File, a.Glob, a.Kind, a.Hash, a.Shape, a.Sig, a.Sketch})
	}
	w.uint(uint64(len(l.Links)))
	for _, lk := range l.Links {
		w.str(lk.To)
		w.str(lk.Type)
		w.uint(math.Float64bits(lk.Weight))
		w.str(lk.Note)
	}
	w.strs(l.DerivedFrom)
	w.time(l.Created)
	w.time(l.Updated)
	w.str(l.Body)
	w.str(l.Path)
	return w.b
}

func decodeRecord(b []byte) (fileRecord, error) {
	r := &recReader{s: string(b)}
	var rec fileRecord
	if r.uint() != recordVersion {
		return rec, errRecord
	}
	rec.Size, rec.MTime, rec.Sum, rec.Err = r.int(), r.int(), r.str(), r.str()
	if r.uint() == 0 {
		return rec, r.err
	}
	l := &Learning{ID: r.str(), Title: r.str(), Tags: r.strs()}
	if n := r.uint(); n > 0 && n <= uint64(len(r.s)) {
		l.Anchors = make([]anchors.Anchor, n)
		for i := range l.Anchors {
			if r.uint() != 9 {
				return rec, errRecord
			}
			a := &l.Anchors[i]
			a.Symbol, a.Lines, a.File, a.Glob, a.Kind = r.str(), r.str(), r.str(), r.str(), r.str()
			a.Hash, a.Shape, a.Sig, a.Sketch = r.str(), r.str(), r.str(), r.str()
		}
	}
	if n := r.uint(); n > 0 && n <= uint64(len(r.s)) {
		l.Links = make([]Link, n)
		for i := range l.Links {
			l.Links[i] = Link{To: r.str(), Type: r.str(), Weight: math.Float64frombits(r.uint()), Note: r.str()}
		}
	}
	l.DerivedFrom = r.strs()
	l.Created, l.Updated = r.time(), r.time()
	l.Body, l.Path = r.str(), r.str()
	rec.Learning = l
	return rec, r.err
}
