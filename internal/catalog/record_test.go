package catalog

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/learnfile"
	"github.com/lorehq/lore/rank"
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
	l := &learnfile.Learning{ID: "ab12", Title: "t", Tags: []string{"x", "y"}, Anchors: []anchors.Anchor{a, {Glob: "**/*.go"}},
		Links: []learnfile.Link{{To: "cd34", Type: "caused_by", Weight: 0.25, Note: "n"}}, DerivedFrom: []string{"task:1"},
		Created: time.Unix(1700000000, 5).UTC(), Body: "body\n", Path: ".lore/learnings/ab12.md"}
	for _, rec := range []fileRecord{
		{Size: 10, MTime: -3, Sum: "abc", Learning: known(l)},
		{Size: 1, Sum: "s", Err: "x.md:3: broken"},
	} {
		header, body := encodeRecord(rec)
		got, err := decodeRecord("ab12.md", header, servingLearning("ab12.md", body))
		if err != nil {
			t.Fatal(err)
		}
		if (body == nil) != (rec.Learning == nil) {
			t.Errorf("encoded learning %q for %+v", body, rec)
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
		if sm := z.summary(); !reflect.DeepEqual(sm, learnfile.Summary{ID: l.ID, Title: l.Title, Tags: l.Tags, Created: l.Created}) {
			t.Errorf("summary from the header: %+v", sm)
		}
		var seen []anchors.Anchor
		z.eachAnchor(func(a anchors.Anchor) bool { seen = append(seen, a); return true })
		if !reflect.DeepEqual(seen, l.Anchors) {
			t.Errorf("anchors before decoding:\n got %+v\nwant %+v", seen, l.Anchors)
		}
		c := &Learnings{byID: map[string]*lazyLearning{z.ID: z}}
		if !c.AnyAnchor(z.ID, func(a anchors.Anchor) bool { return a.Glob != "" }) || c.AnyAnchor(z.ID, func(a anchors.Anchor) bool { return a.Glob == "nope" }) {
			t.Error("AnyAnchor")
		}
		terms := map[string]float64{}
		if !eachTerm(string(encodeTerms(rank.TermFreqs(l))), func(t string, f float64) { terms[t] = f }) {
			t.Error("encoded terms do not read")
		}
		if want := rank.TermFreqs(l); !reflect.DeepEqual(terms, want) {
			t.Errorf("stored terms:\n got %v\nwant %v", terms, want)
		}
		for _, bad := range []string{"", "\x09", string(encodeTerms(rank.TermFreqs(l))[:5])} {
			if eachTerm(bad, func(string, float64) { t.Error("a term read from bad input") }) {
				t.Errorf("terms % x read", bad)
			}
		}
		if got := z.get(); !reflect.DeepEqual(got, l) {
			t.Errorf("decoded:\n got %+v\nwant %+v", got, l)
		}
	}
	// Every truncation of a header is refused when read.
	header, body := encodeRecord(fileRecord{Size: 10, Sum: "abc", Learning: known(l)})
	for n := range len(header) {
		if _, err := decodeRecord("ab12.md", header[:n], nil); err == nil {
			t.Errorf("header cut at %d of %d bytes decoded", n, len(header))
		}
	}
	// A learning that does not read whole (torn, or another version) is
	// taken from the file instead; with no file, the header's summary is
	// what is known.
	for n := range len(body) {
		rec, err := decodeRecord("ab12.md", header, servingLearning("ab12.md", body[:n]))
		if err != nil {
			t.Fatal(err)
		}
		n0 := 0
		rec.Learning.eachAnchor(func(anchors.Anchor) bool { n0++; return true })
		if n0 != 0 {
			t.Errorf("learning cut at %d of %d bytes: %d anchors read from it", n, len(body), n0)
		}
		got := rec.Learning.get()
		if got.ID != l.ID || got.Title != l.Title || got.Body != "" {
			t.Errorf("learning cut at %d of %d bytes: %+v", n, len(body), got)
		}
	}
	// A learning stored for other content (a crash between the two
	// writes) is not used.
	_, other := encodeRecord(fileRecord{Size: 10, Sum: "abd", Learning: known(l)})
	rec, _ := decodeRecord("ab12.md", header, servingLearning("ab12.md", other))
	if got := rec.Learning.get(); got.Body != "" {
		t.Errorf("learning of other content used: %+v", got)
	}
}

// servingLearning is a learningSource that has one encoded learning.
func servingLearning(name string, enc []byte) *learningSource {
	return &learningSource{loaded: true, tails: map[string]stored{name: {raw: string(enc)}}}
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
	header, body := encodeRecord(fileRecord{Size: 3, Sum: "x", Learning: known(&learnfile.Learning{ID: "ab", Title: "t", Tags: []string{"a"}})})
	f.Add(header, body)
	f.Fuzz(func(t *testing.T, header, body []byte) {
		eachTerm(string(header), func(string, float64) {})
		// Must not panic or allocate without bound.
		if rec, err := decodeRecord("ab.md", header, servingLearning("ab.md", body)); err == nil && rec.Learning != nil {
			rec.Learning.get()
			rec.Learning.eachAnchor(func(anchors.Anchor) bool { return true })
		}
	})
}
