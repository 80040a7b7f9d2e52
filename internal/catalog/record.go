package catalog

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/learnfile"
)

// Records of learning files are read on every command, so they use a
// compact binary form rather than JSON, whose decoding was a large part of
// `lore learn list`. Strings and counts are uvarint-prefixed; the first
// byte is the format version.
const recordVersion = 5 // 5: headers and learnings apart (nsFiles, nsLearnings)

// termsVersion is the format of the term frequencies in nsTerms.
const termsVersion = 4

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
	if n > uint64(len(r.s)) {
		r.fail()
	}
	if n == 0 || r.err != nil {
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

// fileRecord is what sync remembers of one learning file: its stat and
// content hash (the cheap change check) and the learning parsed from it,
// or why it does not parse.
type fileRecord struct {
	Size     int64
	MTime    int64
	Sum      string
	Err      string
	Learning *lazyLearning // nil when the file does not parse
}

// A record is stored as two values. Its header (nsFiles) holds the stat,
// hash and id and what lists show: every command reads every header. The
// encoded learning (nsLearnings) is read only when a command uses the
// learnings, all of them in one scan. Headers used to carry the learning
// too, and copying them out of the store was most of a sync.
const nsLearnings = "ll"

// lazyLearning is a learning that sync read from the store, decoded on
// first use: commands on a large workspace read few learnings whole, and
// decoding all of them was most of a pre-commit verification.
// Its id, file and summary are known up front; its anchors can be looked
// at without decoding the rest.
type lazyLearning struct {
	ID   string
	Path string
	sum  learnfile.Summary
	hash string          // the file's content hash, as in its record
	src  *learningSource // nil when l was given
	once sync.Once
	l    *learnfile.Learning
}

// known wraps a learning that is already decoded.
func known(l *learnfile.Learning) *lazyLearning {
	z := &lazyLearning{ID: l.ID, Path: l.Path, l: l, sum: l.Summary()}
	z.once.Do(func() {})
	return z
}

func (z *lazyLearning) name() string { return path.Base(z.Path) }

func (z *lazyLearning) get() *learnfile.Learning {
	z.once.Do(func() {
		if tail, ok := z.src.tail(z.name(), z.hash); ok {
			r := &recReader{s: tail}
			if l := r.learning(z.sum); r.err == nil {
				l.Path = z.Path
				z.l = l
				return
			}
		}
		z.l = z.src.parse(z)
	})
	return z.l
}

// eachAnchor calls fn with each of the learning's anchors until fn
// returns false, decoding nothing beyond them.
func (z *lazyLearning) eachAnchor(fn func(anchors.Anchor) bool) {
	if z.src != nil {
		if tail, ok := z.src.tail(z.name(), z.hash); ok {
			r := &recReader{s: tail}
			r.anchorList(fn)
			return
		}
	}
	for _, a := range z.get().Anchors {
		if !fn(a) {
			return
		}
	}
}

// summary is what lists show of the learning, from the record's header.
func (z *lazyLearning) summary() learnfile.Summary { return z.sum }

// learningSource gives the learnings of one sync's records: at the first
// need it reads every encoded learning from the store in one scan, while
// the store is open; a learning it does not find there (the store closed,
// or a record torn by a crash) is parsed from its file.
type learningSource struct {
	dir   string // the repository root
	store *storeRef

	mu     sync.Mutex
	tails  map[string]stored // by file name
	loaded bool              // tails holds every stored learning
	gets   int               // learnings read one by one so far
}

// pointReads is how many learnings a command reads one at a time before
// the rest are read in one scan: relating two learnings should not read a
// thousand, and verifying a thousand should not seek a thousand times.
const pointReads = 8

// stored is an encoded learning as read from the store: the content hash
// it starts with and the rest, checked whole once, on first use.
type stored struct {
	raw     string
	hash    string
	tail    string
	checked bool
	ok      bool // it reads whole
}

// tail returns the encoded learning of a file, after the content hash it
// starts with, when that is the hash given and the learning reads whole:
// decoding it then cannot fail.
func (s *learningSource) tail(name, hash string) (string, bool) {
	if s == nil {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.tails[name]
	if !ok && !s.loaded {
		if s.gets < pointReads {
			s.gets++
			s.store.view(func(tx *graph.Tx) error {
				b, err := tx.Get(nsLearnings, name)
				if err == nil {
					v, ok = stored{raw: string(b)}, true
				}
				return nil
			})
		} else {
			s.loaded = s.store.view(func(tx *graph.Tx) error {
				s.tails = map[string]stored{}
				return tx.Scan(nsLearnings, "", func(k string, b []byte) error {
					s.tails[k] = stored{raw: string(b)}
					return nil
				})
			})
			v, ok = s.tails[name]
		}
	}
	if !ok {
		return "", false
	}
	if !v.checked {
		r := &recReader{s: v.raw}
		if r.uint() != recordVersion {
			r.fail()
		}
		v.hash = r.str()
		v.tail = r.s
		r.skipLearning()
		v.checked, v.ok = true, r.err == nil
		if s.tails == nil {
			s.tails = map[string]stored{}
		}
		s.tails[name] = v
	}
	return v.tail, v.ok && v.hash == hash
}

// storeRef is the store of one operation, for what reads it lazily; it is
// cleared before the store closes.
type storeRef struct {
	mu sync.Mutex
	st *graph.Store
}

// view runs fn in a read transaction; it reports false, without running
// fn, once the store is closed. fn's error is fn's to keep, and a read that
// fails leaves fn's results unset: what it did not find is parsed from its
// file (see learningSource).
func (r *storeRef) view(fn func(*graph.Tx) error) bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st == nil {
		return false
	}
	_ = r.st.View(fn) // see above
	return true
}

func (r *storeRef) clear() {
	if r != nil {
		r.mu.Lock()
		r.st = nil
		r.mu.Unlock()
	}
}

// parse reads a learning from its file, for when the store does not have
// it; a file that changed or went since the sync gives what the record
// knew.
func (s *learningSource) parse(z *lazyLearning) *learnfile.Learning {
	if s != nil {
		if data, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(z.Path))); err == nil {
			if l, err := learnfile.Parse(z.Path, data); err == nil && l.ID == z.ID {
				l.Path = z.Path
				l.DropSource()
				return l
			}
		}
	}
	return &learnfile.Learning{ID: z.ID, Path: z.Path, Title: z.sum.Title, Tags: slices.Clone(z.sum.Tags), Created: z.sum.Created}
}

// anchorList reads a count and that many anchors, calling fn with each
// until fn returns false.
func (r *recReader) anchorList(fn func(anchors.Anchor) bool) {
	n := r.uint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		var a anchors.Anchor
		r.anchor(&a)
		if r.err != nil || !fn(a) {
			return
		}
	}
}

// encodeRecord returns a record's header and, when its file parses, its
// encoded learning (prefixed with the content hash, which ties it to the
// header: the two are written together but a crash can tear them).
func encodeRecord(rec fileRecord) (header, learning []byte) {
	w := &recWriter{b: make([]byte, 0, 128)}
	w.uint(recordVersion)
	w.int(rec.Size)
	w.int(rec.MTime)
	w.str(rec.Sum)
	w.str(rec.Err)
	if rec.Learning == nil {
		w.uint(0)
		return w.b, nil
	}
	l := rec.Learning.get()
	w.uint(1)
	w.str(l.ID)
	w.str(l.Title)
	w.strs(l.Tags)
	w.time(l.Created)
	header = w.b

	// The learning leaves out what the header has.
	w = &recWriter{b: make([]byte, 0, 512)}
	w.uint(recordVersion)
	w.str(rec.Sum)
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
	w.time(l.Updated)
	w.str(l.Body)
	return header, w.b
}

// nsTerms holds the term frequencies of each learning file's learning
// (termFreqs), written when the file changes: the similarity corpus is
// built from them without decoding learnings or splitting their text
// again. They live apart from the records because every command reads
// every record and only similarity reads terms.
const nsTerms = "lt"

// encodeTerms writes term frequencies (rank.TermFreqs) in term order, so
// that the bytes depend only on the learning. Frequencies are whole
// numbers: title and tags weigh 2, the rest 1.
func encodeTerms(tf map[string]float64) []byte {
	ts := make([]string, 0, len(tf))
	for t := range tf {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	w := &recWriter{b: make([]byte, 0, 16*len(ts)+2)}
	w.uint(termsVersion)
	w.uint(uint64(len(ts)))
	for _, t := range ts {
		w.str(t)
		w.uint(uint64(tf[t]))
	}
	return w.b
}

// eachTerm calls fn with the terms encodeTerms wrote; it reports false,
// having called fn for none, when enc is not such a list.
func eachTerm(enc string, fn func(term string, f float64)) bool {
	r := &recReader{s: enc}
	if r.uint() != termsVersion {
		return false
	}
	n := r.uint()
	check := *r
	for i := uint64(0); i < n && check.err == nil; i++ {
		check.str()
		check.uint()
	}
	if check.err != nil {
		return false
	}
	for i := uint64(0); i < n; i++ {
		fn(r.str(), float64(r.uint()))
	}
	return true
}

// decodeRecord reads the header of the record of file name; its learning
// comes from src when used.
func decodeRecord(name string, b []byte, src *learningSource) (fileRecord, error) {
	r := &recReader{s: string(b)}
	var rec fileRecord
	if r.uint() != recordVersion {
		return rec, errRecord
	}
	rec.Size, rec.MTime, rec.Sum, rec.Err = r.int(), r.int(), r.str(), r.str()
	if r.uint() == 0 {
		return rec, r.err
	}
	z := &lazyLearning{ID: r.str(), Path: learnfile.Dir + "/" + name, hash: rec.Sum, src: src}
	z.sum = learnfile.Summary{ID: z.ID, Title: r.str(), Tags: r.strs(), Created: r.time()}
	if r.err != nil || len(r.s) != 0 {
		return rec, errRecord
	}
	rec.Learning = z
	return rec, nil
}

func (r *recReader) anchor(a *anchors.Anchor) {
	if r.uint() != 9 {
		r.fail()
		return
	}
	a.Symbol, a.Lines, a.File, a.Glob, a.Kind = r.str(), r.str(), r.str(), r.str(), r.str()
	a.Hash, a.Shape, a.Sig, a.Sketch = r.str(), r.str(), r.str(), r.str()
}

// skipLearning walks an encoded learning without building anything, to
// know that decoding it cannot fail.
func (r *recReader) skipLearning() {
	r.anchorList(func(anchors.Anchor) bool { return true })
	n := r.uint() // links
	for i := uint64(0); i < n && r.err == nil; i++ {
		r.str()
		r.str()
		r.uint()
		r.str()
	}
	n = r.uint() // derived from
	for i := uint64(0); i < n && r.err == nil; i++ {
		r.str()
	}
	r.time()
	r.str()
	if len(r.s) != 0 {
		r.fail()
	}
}

// learning decodes an encoded learning whose header gave sm.
func (r *recReader) learning(sm learnfile.Summary) *learnfile.Learning {
	l := &learnfile.Learning{ID: sm.ID, Title: sm.Title, Tags: slices.Clone(sm.Tags), Created: sm.Created}
	if n := r.uint(); n > 0 && n <= uint64(len(r.s)) {
		l.Anchors = make([]anchors.Anchor, n)
		for i := range l.Anchors {
			r.anchor(&l.Anchors[i])
		}
	}
	if n := r.uint(); n > 0 && n <= uint64(len(r.s)) {
		l.Links = make([]learnfile.Link, n)
		for i := range l.Links {
			l.Links[i] = learnfile.Link{To: r.str(), Type: r.str(), Weight: math.Float64frombits(r.uint()), Note: r.str()}
		}
	}
	l.DerivedFrom = r.strs()
	l.Updated = r.time()
	l.Body = r.str()
	if len(r.s) != 0 {
		r.fail()
	}
	return l
}
