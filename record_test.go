package lore

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/lorehq/lore/anchors"
)

// fill sets every string field of a struct to a distinct value, so that a
// field added later without being encoded fails the round trip.
func fill(v reflect.Value, tag string) {
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.String && f.CanSet() {
			f.SetString(tag + v.Type().Field(i).Name)
		}
	}
}

func TestRecordRoundTrip(t *testing.T) {
	var a anchors.Anchor
	fill(reflect.ValueOf(&a).Elem(), "a-")
	l := &Learning{ID: "ab12", Title: "t", Tags: []string{"x", "y"}, Anchors: []anchors.Anchor{a, {Glob: "**/*.go"}},
		Links: []Link{{To: "cd34", Type: "caused_by", Weight: 0.25, Note: "n"}}, DerivedFrom: []string{"task:1"},
		Created: time.Unix(1700000000, 5).UTC(), Body: "body\n", Path: ".lore/learnings/ab12.md"}
	for _, rec := range []fileRecord{
		{Size: 10, MTime: -3, Sum: "abc", Learning: known(l)},
		{Size: 1, Sum: "s", Err: "x.md:3: broken"},
	} {
		got, err := decodeRecord(encodeRecord(rec))
		if err != nil {
			t.Fatal(err)
		}
		if got.Size != rec.Size || got.MTime != rec.MTime || got.Sum != rec.Sum || got.Err != rec.Err || (got.Learning == nil) != (rec.Learning == nil) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, rec)
		}
		if rec.Learning == nil {
			continue
		}
		z := got.Learning
		if z.ID != l.ID || z.Path != l.Path {
			t.Errorf("id, path = %q, %q before decoding", z.ID, z.Path)
		}
		var seen []anchors.Anchor
		z.eachAnchor(func(a anchors.Anchor) bool { seen = append(seen, a); return true })
		if !reflect.DeepEqual(seen, l.Anchors) {
			t.Errorf("anchors before decoding:\n got %+v\nwant %+v", seen, l.Anchors)
		}
		if !z.anyAnchor(func(a anchors.Anchor) bool { return a.Glob != "" }) || z.anyAnchor(func(a anchors.Anchor) bool { return a.Glob == "nope" }) {
			t.Error("anyAnchor")
		}
		terms := map[string]float64{}
		if !eachTerm(string(encodeTerms(l)), func(t string, f float64) { terms[t] = f }) {
			t.Error("encoded terms do not read")
		}
		if want := termFreqs(l); !reflect.DeepEqual(terms, want) {
			t.Errorf("stored terms:\n got %v\nwant %v", terms, want)
		}
		for _, bad := range []string{"", "\x09", string(encodeTerms(l)[:5])} {
			if eachTerm(bad, func(string, float64) { t.Error("a term read from bad input") }) {
				t.Errorf("terms % x read", bad)
			}
		}
		if got := z.get(); !reflect.DeepEqual(got, l) {
			t.Errorf("decoded:\n got %+v\nwant %+v", got, l)
		}
	}
	// Every truncation of a valid record is refused when read, so that a
	// learning decoded later cannot fail.
	full := encodeRecord(fileRecord{Size: 10, Sum: "abc", Learning: known(l)})
	for n := range len(full) {
		if _, err := decodeRecord(full[:n]); err == nil {
			t.Errorf("record cut at %d of %d bytes decoded", n, len(full))
		}
	}
	if _, err := decodeRecord([]byte{1, 2}); err == nil {
		t.Error("truncated record decoded")
	}
}

// The string reader decodes varints itself; it must agree with
// encoding/binary on every edge, including overlong and overflowing input.
func TestRecordVarints(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, -64, 64, 1 << 40, math.MaxInt64, math.MinInt64} {
		r := &recReader{s: string(binary.AppendVarint(nil, v))}
		if got := r.int(); got != v || r.err != nil || r.s != "" {
			t.Errorf("int %d: got %d, err %v, rest %q", v, got, r.err, r.s)
		}
	}
	for _, b := range [][]byte{
		{0x80}, {}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, {0x81, 0x00},
	} {
		want, n := binary.Uvarint(b)
		r := &recReader{s: string(b)}
		got := r.uint()
		if (n <= 0) != (r.err != nil) || (n > 0 && got != want) {
			t.Errorf("uint % x: got %d err %v, encoding/binary %d n=%d", b, got, r.err, want, n)
		}
	}
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add(encodeRecord(fileRecord{Size: 3, Sum: "x", Learning: known(&Learning{ID: "ab", Title: "t", Tags: []string{"a"}})}))
	f.Fuzz(func(t *testing.T, b []byte) {
		eachTerm(string(b), func(string, float64) {})
		// Must not panic or allocate without bound, and a record that
		// reads must decode whole.
		if rec, err := decodeRecord(b); err == nil && rec.Learning != nil {
			rec.Learning.get()
			rec.Learning.eachAnchor(func(anchors.Anchor) bool { return true })
		}
	})
}
