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
		{Size: 10, MTime: -3, Sum: "abc", Learning: l},
		{Size: 1, Sum: "s", Err: "x.md:3: broken"},
	} {
		got, err := decodeRecord(encodeRecord(rec))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, rec) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, rec)
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
	f.Add(encodeRecord(fileRecord{Size: 3, Sum: "x", Learning: &Learning{ID: "ab", Title: "t", Tags: []string{"a"}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeRecord(b) // must not panic or allocate without bound
	})
}
