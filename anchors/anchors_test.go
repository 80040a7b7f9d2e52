package anchors_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
)

func srcOf(t *testing.T, archive string) *anchors.Source {
	t.Helper()
	fsys, err := txtar.FS(txtar.Parse([]byte(archive)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := anchors.NewSource(fsys, anchors.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func baseline(t *testing.T, files anchors.Files, spec string) anchors.Anchor {
	t.Helper()
	a, err := anchors.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	a, err = anchors.Baseline(context.Background(), files, a)
	if err != nil {
		t.Fatalf("Baseline(%s): %v", spec, err)
	}
	return a
}

func verify(t *testing.T, files anchors.Files, opts anchors.Options, a anchors.Anchor) anchors.Result {
	t.Helper()
	v, err := anchors.NewVerifier(files, opts)
	if err != nil {
		t.Fatal(err)
	}
	return v.Verify(context.Background(), a)
}

func TestBaselineErrors(t *testing.T) {
	ctx := context.Background()
	big := "package p\n\nfunc Big() {}\n" + strings.Repeat("// padding\n", 200)
	fsys := fstest.MapFS{
		"a.go":     {Data: []byte("package p\n\nfunc init() {}\n\nfunc init() { _ = 1 }\n\nfunc ParseToken() {}\n")},
		"img.png":  {Data: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")},
		"big.go":   {Data: []byte(big)},
		"notes.md": {Data: []byte("# notes\n\nsome text\n")},
		"bad.go":   {Data: []byte("package p\n\nfunc Good() {}\n\nfunc Broken( {\n")},
	}
	src, err := anchors.NewSource(fsys, anchors.SourceOptions{MaxFileSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, tc := range []struct {
		spec    string
		wantErr error  // nil: must succeed
		msg     string // substring of the error
	}{
		{"a.go::init", anchors.ErrAmbiguous, "a.go#L3-L3"},
		{"a.go::ParseTokn", anchors.ErrNoTarget, "did you mean ParseToken"},
		{"missing.go::F", anchors.ErrNoTarget, "no such file"},
		{"missing.go", anchors.ErrNoTarget, "no such file"},
		{"a.go#L1-L99", anchors.ErrNoTarget, "has 7 lines"},
		{"img.png#L1-L2", errAny, "binary"},
		{"img.png::X", anchors.ErrNoTarget, "not parsed (binary)"},
		{"big.go::Big", anchors.ErrNoTarget, "larger than the size limit"},
		{"notes.md::Title", anchors.ErrNoTarget, "unknown language"},
		{"glob:src/**/*.rs", anchors.ErrNoTarget, "no file matches"},
		{"../outside.go", errAny, "escapes the repository"},
		{".git/config", errAny, "inside .git"},
		{"vendor/x/.git/HEAD#L1", errAny, "inside .git"},
		{"glob:.git/**", errAny, "inside .git"},
		{".lore/db/MANIFEST", errAny, "inside .lore/db"},
		{"glob:.lore/db/*", errAny, "inside .lore/db"},
		{"/etc/passwd", errAny, "relative"},
		{"bad-\xff.rs::main", errAny, "not valid UTF-8"},
		{"glob:bad-\xff*", errAny, "not valid UTF-8"},
		{"img.png", nil, ""},
		{"big.go", nil, ""},
		{"big.go#L1-L3", nil, ""},
		{"notes.md#L3", nil, ""},
		{"bad.go::Good", nil, ""}, // a file with syntax errors still yields its symbols
		{"glob:**/*.go", nil, ""},
	} {
		a, err := anchors.ParseSpec(tc.spec)
		if err == nil {
			a, err = anchors.Baseline(ctx, src, a)
		}
		switch {
		case tc.wantErr == nil && err != nil:
			t.Errorf("Baseline(%s): %v", tc.spec, err)
		case tc.wantErr == nil:
			if a.Type() != anchors.TypeGlob && a.Hash == "" {
				t.Errorf("Baseline(%s): no hash recorded: %+v", tc.spec, a)
			}
		case err == nil:
			t.Errorf("Baseline(%s) = %+v, want an error", tc.spec, a)
		case tc.wantErr != errAny && !errors.Is(err, tc.wantErr):
			t.Errorf("Baseline(%s): %v, want %v", tc.spec, err, tc.wantErr)
		case !strings.Contains(err.Error(), tc.msg):
			t.Errorf("Baseline(%s): %q does not mention %q", tc.spec, err, tc.msg)
		}
	}
}

var errAny = errors.New("any error")

func TestBaselineRecords(t *testing.T) {
	src := srcOf(t, `
-- a.go --
package p

// F does f.
func F(a int) int {
	return a
}
`)
	a := baseline(t, src, "a.go::F")
	if a.Kind != "function" || a.Lines != "3-6" || !strings.HasPrefix(a.Hash, "sha256:") ||
		!strings.HasPrefix(a.Shape, "s2:") || !strings.HasPrefix(a.Sig, "s2:") || !strings.HasPrefix(a.Sketch, "m1:") {
		t.Errorf("baseline = %+v", a)
	}
	l := baseline(t, src, "a.go#L4")
	if l.Lines != "a.go#L4-L4" || l.Hash == "" || l.Shape == "" {
		t.Errorf("lines baseline = %+v", l)
	}
}

func TestMalformedAnchors(t *testing.T) {
	src := srcOf(t, "-- a.go --\npackage p\n")
	for _, a := range []anchors.Anchor{
		{},
		{Symbol: "../a.go::F"},
		{Lines: "a.go#L9-L3"},
		{File: "/abs.go"},
		{Glob: "[a-"},
	} {
		r := verify(t, src, anchors.Options{}, a)
		if r.Status != anchors.Invalid || !strings.HasPrefix(r.Reason, "malformed anchor") {
			t.Errorf("Verify(%+v) = %s/%s %q, want invalid malformed", a, r.Status, r.Change, r.Reason)
		}
	}
}

func TestNewVerifierOptions(t *testing.T) {
	src := srcOf(t, "-- a.go --\npackage p\n")
	for _, th := range []float64{-0.1, 1.5} {
		if _, err := anchors.NewVerifier(src, anchors.Options{Threshold: th}); err == nil {
			t.Errorf("threshold %v accepted", th)
		}
	}
	if _, err := anchors.NewVerifier(nil, anchors.Options{}); err == nil {
		t.Error("nil Files accepted")
	}
}

func TestUnparseableFileIsAFinding(t *testing.T) {
	before := srcOf(t, "-- a.go --\npackage p\n\nfunc F() int {\n\treturn 1\n}\n\nfunc G() {}\n")
	f := baseline(t, before, "a.go::F")
	g := baseline(t, before, "a.go::G")
	after := srcOf(t, "-- a.go --\npackage p\n\nfunc F() int {\n\treturn 1\n}\n\nfunc G( {\n")
	if r := verify(t, after, anchors.Options{}, f); r.Status != anchors.Valid {
		t.Errorf("F in a broken file: %s %s", r.Status, r.Reason)
	}
	r := verify(t, after, anchors.Options{}, g)
	if r.Status == anchors.Valid {
		t.Errorf("G broken: %s %s", r.Status, r.Reason)
	}
}

func TestAmbiguousRelocationGivesCandidates(t *testing.T) {
	before := srcOf(t, `
-- a.go --
package p

func F(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x * x
	}
	return t
}
`)
	a := baseline(t, before, "a.go::F")
	after := srcOf(t, `
-- a.go --
package p
-- b.go --
package p

func G1(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x * x
	}
	return t
}

func G2(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x * x
	}
	return t
}
`)
	r := verify(t, after, anchors.Options{}, a)
	if r.Status != anchors.Invalid || r.Change != anchors.ChangeDeleted || len(r.Candidates) != 2 || r.Confidence >= 0.8 {
		t.Fatalf("got %s/%s conf %.2f candidates %v: %s", r.Status, r.Change, r.Confidence, r.Candidates, r.Reason)
	}
	if _, ok := anchors.Fix(r); ok {
		t.Error("Fix applied an uncertain relocation")
	}
	// A lower threshold follows the best candidate.
	r = verify(t, after, anchors.Options{Threshold: 0.4}, a)
	if r.Status != anchors.Valid || r.Change != anchors.ChangeMovedRenamed || r.To == nil || r.To.LocalName != "G1" {
		t.Errorf("threshold 0.4: %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
}

func TestRenamedAndEdited(t *testing.T) {
	before := srcOf(t, `
-- a.go --
package p

func Tokenize(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if r == ' ' {
			out = append(out, cur)
			cur = ""
			continue
		}
		cur += string(r)
	}
	return append(out, cur)
}
`)
	a := baseline(t, before, "a.go::Tokenize")
	afterText := `package p

func Split(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if r == ' ' || r == '\t' {
			out = append(out, cur)
			cur = ""
			continue
		}
		cur += string(r)
	}
	return append(out, cur)
}
`
	after := srcOf(t, "-- a.go --\n"+afterText)
	r := verify(t, after, anchors.Options{Base: before}, a)
	if r.Status != anchors.Drifted || r.Change != anchors.ChangeRenamed || r.To == nil || r.To.LocalName != "Split" {
		t.Errorf("with history: %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
	if _, ok := anchors.Fix(r); ok {
		t.Error("Fix accepted drift")
	}
	if acc, ok := anchors.Accept(r); !ok || acc.Symbol != "a.go::Split" {
		t.Errorf("Accept = %+v, %v", acc, ok)
	}
	// Without history and without a sketch (an older anchor) the same
	// header and length in the same file still point at it.
	old := a
	old.Sketch = ""
	r = verify(t, after, anchors.Options{}, old)
	if r.Status != anchors.Drifted || r.Change != anchors.ChangeRenamed || !strings.Contains(r.Reason, "same header") {
		t.Errorf("without history or sketch: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	// With the sketch, the body is compared.
	r = verify(t, after, anchors.Options{}, a)
	if r.Status != anchors.Drifted || r.Change != anchors.ChangeRenamed || r.To == nil || r.To.LocalName != "Split" ||
		!strings.Contains(r.Reason, "sketch") {
		t.Errorf("without history: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	if _, ok := anchors.Fix(r); ok {
		t.Error("Fix accepted drift found by the sketch")
	}
	// A Base that no longer holds the baseline (taken many commits ago)
	// is no better than none: the sketch is used.
	r = verify(t, after, anchors.Options{Base: after}, a)
	if r.Status != anchors.Drifted || r.Change != anchors.ChangeRenamed || !strings.Contains(r.Reason, "sketch") {
		t.Errorf("Base without the baseline: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	// A changed header too leaves nothing to go by but the sketch.
	edited := strings.Replace(afterText, "func Split(s string) []string", "func Split(s string, sep rune) []string", 1)
	r = verify(t, srcOf(t, "-- a.go --\n"+edited), anchors.Options{}, old)
	if r.Status != anchors.Invalid || r.Change != anchors.ChangeDeleted {
		t.Errorf("without history or sketch, new header: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	r = verify(t, srcOf(t, "-- a.go --\n"+edited), anchors.Options{}, a)
	if r.Status != anchors.Drifted || r.Change != anchors.ChangeRenamed || r.To == nil || r.To.LocalName != "Split" {
		t.Errorf("without history, new header: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	r = verify(t, srcOf(t, "-- a.go --\n"+edited), anchors.Options{Base: before}, a)
	if r.Status != anchors.Drifted || r.Change != anchors.ChangeRenamed {
		t.Errorf("with history, new header: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
}

func TestLinesFuzzy(t *testing.T) {
	text := "package p\n\nfunc F() {\n\ta := 1\n\tb := 2\n\tc := a + b\n\tprintln(c)\n}\n"
	before := srcOf(t, "-- a.go --\n"+text)
	a := baseline(t, before, "a.go#L4-L7")
	edited := strings.Replace(text, "func F() {\n", "var x = 0\nvar y = 0\n\nfunc F() {\n", 1)
	edited = strings.Replace(edited, "b := 2", "b := 3", 1)
	after := srcOf(t, "-- a.go --\n"+edited)
	r := verify(t, after, anchors.Options{Base: before}, a)
	if r.Status != anchors.Drifted || r.Change != anchors.ChangeBodyChanged || r.To == nil || r.To.Lines != "7-10" {
		t.Errorf("with history: %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
	// Without history the sketch finds the edited text.
	if !strings.HasPrefix(a.Sketch, "m1:") {
		t.Errorf("lines baseline without a sketch: %+v", a)
	}
	r = verify(t, after, anchors.Options{}, a)
	if r.Status != anchors.Drifted || r.Change != anchors.ChangeBodyChanged || r.To == nil || r.To.Lines != "7-10" {
		t.Errorf("without history: %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
	if acc, ok := anchors.Accept(r); !ok || acc.Lines != "a.go#L7-L10" || acc.Sketch == "" || acc.Sketch == a.Sketch {
		t.Errorf("Accept = %+v, %v", acc, ok)
	}
	// An anchor without a sketch (an older lore) knows only its lines.
	old := a
	old.Sketch = ""
	r = verify(t, after, anchors.Options{}, old)
	if r.Status != anchors.Drifted || r.Change != anchors.ChangeNoMatch {
		t.Errorf("without history or sketch: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	gone := srcOf(t, "-- a.go --\npackage p\n")
	r = verify(t, gone, anchors.Options{Base: before}, a)
	if r.Status != anchors.Invalid || r.Change != anchors.ChangeNoMatch {
		t.Errorf("text gone: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
}

func TestLinesReformatted(t *testing.T) {
	before := srcOf(t, "-- a.js --\nconst a = 1;\nfunction f(x) { return x + 1; }\n")
	a := baseline(t, before, "a.js#L2")
	after := srcOf(t, "-- a.js --\nconst a = 1;\n// f adds one\nfunction f(x) {\n  return x + 1;\n}\n")
	r := verify(t, after, anchors.Options{}, a)
	if r.Status != anchors.Valid || r.Change != anchors.ChangeLinesShifted || r.To == nil || r.To.Lines != "3-5" {
		t.Errorf("got %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
}

func TestFileAnchors(t *testing.T) {
	before := srcOf(t, "-- docs/a.md --\n# Title\n\nText.\n-- img.bin --\nab\x00cd\n")
	a := baseline(t, before, "docs/a.md")
	bin := baseline(t, before, "img.bin")
	if bin.Shape != "" {
		t.Errorf("binary file got a shape")
	}
	for _, tc := range []struct {
		archive string
		a       anchors.Anchor
		status  anchors.Status
		change  anchors.Change
	}{
		{"-- docs/a.md --\n# Title\n\nText.\n", a, anchors.Valid, anchors.ChangeNone},
		{"-- docs/a.md --\n# Title\n\n  Text.\n", a, anchors.Valid, anchors.ChangeReformatted},
		{"-- docs/a.md --\n# Title\n\nOther.\n", a, anchors.Drifted, anchors.ChangeFileChanged},
		{"-- docs/b.md --\n# Title\n\nText.\n", a, anchors.Valid, anchors.ChangeMoved},
		{"-- other.md --\nx\n", a, anchors.Invalid, anchors.ChangeFileDeleted},
		{"-- img.bin --\nab\x00ce\n", bin, anchors.Drifted, anchors.ChangeFileChanged},
	} {
		r := verify(t, srcOf(t, tc.archive), anchors.Options{}, tc.a)
		if r.Status != tc.status || r.Change != tc.change {
			t.Errorf("%q: got %s/%s, want %s/%s: %s", tc.archive, r.Status, r.Change, tc.status, tc.change, r.Reason)
		}
	}
}

func TestWorstAndSummary(t *testing.T) {
	rs := []anchors.Result{{Status: anchors.Valid}, {Status: anchors.Drifted}, {Status: anchors.Valid}}
	if w := anchors.Worst(rs); w != anchors.Drifted {
		t.Errorf("Worst = %s", w)
	}
	rs = append(rs, anchors.Result{Status: anchors.Invalid})
	if w := anchors.Worst(rs); w != anchors.Invalid {
		t.Errorf("Worst = %s", w)
	}
	if s := anchors.Summarize(rs); s != (anchors.Summary{Valid: 2, Drifted: 1, Invalid: 1}) {
		t.Errorf("Summarize = %+v", s)
	}
	if w := anchors.Worst(nil); w != anchors.Valid {
		t.Errorf("Worst(nil) = %s", w)
	}
}

func TestNoBaselineRecorded(t *testing.T) {
	src := srcOf(t, "-- a.go --\npackage p\n\nfunc F() {}\n")
	r := verify(t, src, anchors.Options{}, anchors.Anchor{Symbol: "a.go::F"})
	if r.Status != anchors.Valid || !strings.Contains(r.Reason, "no baseline") {
		t.Errorf("got %s: %s", r.Status, r.Reason)
	}
	acc, ok := anchors.Accept(r)
	if !ok || acc.Hash == "" {
		t.Errorf("Accept = %+v %v", acc, ok)
	}
	var buf bytes.Buffer
	if err := anchors.WriteJSON(&buf, nil); err != nil || !strings.Contains(buf.String(), `"results": []`) {
		t.Errorf("empty JSON report: %v %s", err, buf.String())
	}
}

// An anchor without a baseline (written by hand, or by a tool) is valid
// only when its target is there: a line range past the end of the file or
// a missing symbol or file is invalid, not "valid, no baseline" (issue 27).
func TestNoBaselineNeedsATarget(t *testing.T) {
	src := srcOf(t, "-- a.go --\npackage p\n\nfunc F() {}\n-- notes.txt --\none\ntwo\nthree\n")
	for _, tc := range []struct {
		a    anchors.Anchor
		want anchors.Status
	}{
		{anchors.Anchor{Symbol: "a.go::F"}, anchors.Valid},
		{anchors.Anchor{Lines: "notes.txt#L1-L3"}, anchors.Valid},
		{anchors.Anchor{File: "notes.txt"}, anchors.Valid},
		{anchors.Anchor{Glob: "*.txt"}, anchors.Valid},
		{anchors.Anchor{Lines: "notes.txt#L50-L60"}, anchors.Invalid},
		{anchors.Anchor{Lines: "notes.txt#L2-L9"}, anchors.Invalid},
		{anchors.Anchor{Lines: "gone.txt#L1-L2"}, anchors.Invalid},
		{anchors.Anchor{Symbol: "a.go::Nope"}, anchors.Invalid},
		{anchors.Anchor{Symbol: "gone.go::F"}, anchors.Invalid},
		{anchors.Anchor{File: "gone.txt"}, anchors.Invalid},
		{anchors.Anchor{Glob: "*.md"}, anchors.Invalid},
	} {
		r := verify(t, src, anchors.Options{}, tc.a)
		if r.Status != tc.want {
			t.Errorf("%s: %s (%s): %s; want %s", tc.a.Spec(), r.Status, r.Change, r.Reason, tc.want)
		}
		if r.Status == anchors.Invalid && strings.Contains(r.Reason, "run lore anchor accept") {
			t.Errorf("%s: invalid, yet the reason is %q", tc.a.Spec(), r.Reason)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"a.go", "src/a.ts::A::b", "a.py#L1-L9", "a.py#L3", "glob:**/*.go", "../x", "/abs",
		"a\\b", "glob:[", "a.go::", "::x", "a#L0", "a#L5-L2", "a/./b", "glob:a/**/b/*.ts"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		a, err := anchors.ParseSpec(spec)
		if err != nil {
			return
		}
		if a.Type() == "" {
			t.Fatalf("ParseSpec(%q) = %+v: no target", spec, a)
		}
		// The canonical spec parses to the same anchor.
		b, err := anchors.ParseSpec(a.Spec())
		if err != nil || b != a {
			t.Fatalf("ParseSpec(%q) = %+v; reparse of %q = %+v, %v", spec, a, a.Spec(), b, err)
		}
		if p := a.Path(); strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") {
			t.Fatalf("ParseSpec(%q): path %q escapes", spec, p)
		}
		if a.Type() == anchors.TypeLines {
			if s, e, ok := a.Range(); !ok || s < 1 || e < s {
				t.Fatalf("ParseSpec(%q): bad range %d-%d", spec, s, e)
			}
		}
	})
}

func TestVerifyAllSharesTargetsOnce(t *testing.T) {
	body := func(k string) string {
		return "(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x * " + k + "\n\t}\n\treturn t\n}\n"
	}
	before := srcOf(t, "-- a.go --\npackage p\n\nfunc A"+body("4")+"\nfunc B"+body("3"))
	a := baseline(t, before, "a.go::A")
	b := baseline(t, before, "a.go::B")
	// A was deleted; B was renamed to C. Without history, A alone would
	// follow C as well (its body is similar); with it, the diff of the
	// file shows that C is B.
	after := srcOf(t, "-- a.go --\npackage p\n\nfunc C"+body("3"))
	v, err := anchors.NewVerifier(after, anchors.Options{Base: before})
	if err != nil {
		t.Fatal(err)
	}
	if r := v.Verify(context.Background(), a); r.Status != anchors.Invalid {
		t.Fatalf("A alone, with history: %s/%s %s", r.Status, r.Change, r.Reason)
	}
	nv, _ := anchors.NewVerifier(after, anchors.Options{})
	if r := nv.Verify(context.Background(), a); r.Status != anchors.Drifted || r.Change != anchors.ChangeRenamed {
		t.Fatalf("A alone, without history: %s/%s %s", r.Status, r.Change, r.Reason)
	}
	rs := v.VerifyAll(context.Background(), []anchors.Anchor{a, b})
	if rs[0].Status != anchors.Invalid || rs[1].Status != anchors.Valid || rs[1].Change != anchors.ChangeRenamed {
		t.Errorf("A: %s/%s %s; B: %s/%s %s", rs[0].Status, rs[0].Change, rs[0].Reason, rs[1].Status, rs[1].Change, rs[1].Reason)
	}

	// Two anchors with the same body and one symbol left: nobody can tell
	// which was renamed, so neither follows it.
	before = srcOf(t, "-- a.go --\npackage p\n\nfunc A"+body("3")+"\nfunc B"+body("3"))
	a, b = baseline(t, before, "a.go::A"), baseline(t, before, "a.go::B")
	v, _ = anchors.NewVerifier(after, anchors.Options{})
	rs = v.VerifyAll(context.Background(), []anchors.Anchor{a, b})
	for i, r := range rs {
		if r.Status != anchors.Invalid || len(r.Candidates) == 0 {
			t.Errorf("tie %d: %s/%s %v: %s", i, r.Status, r.Change, r.Candidates, r.Reason)
		}
	}
}

func TestVerifyAllLearnsRenames(t *testing.T) {
	before := srcOf(t, `
-- a.go --
package p

func Sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func Mean(xs []int) int {
	n := len(xs)
	if n == 0 {
		return 0
	}
	return Sum(xs) / n
}

func Use() int { return Mean([]int{1}) + Sum(nil) }
`)
	var as []anchors.Anchor
	for _, s := range []string{"a.go::Sum", "a.go::Mean", "a.go::Use"} {
		as = append(as, baseline(t, before, s))
	}
	// Both functions renamed; Mean's body changed only by calling Total.
	after := srcOf(t, `
-- a.go --
package p

func Total(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func Average(xs []int) int {
	n := len(xs)
	if n == 0 {
		return 0
	}
	return Total(xs) / n
}

func Use() int { return Average([]int{1}) + Total(nil) }
`)
	v, err := anchors.NewVerifier(after, anchors.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs := v.VerifyLearnings(context.Background(), []anchors.Learning{{ID: "x", Anchors: as}})
	want := []struct {
		st anchors.Status
		ch anchors.Change
		to string
	}{
		{anchors.Valid, anchors.ChangeRenamed, "Total"},
		{anchors.Drifted, anchors.ChangeRenamed, "Average"},
		{anchors.Drifted, anchors.ChangeBodyChanged, "Use"},
	}
	for i, w := range want {
		r := rs[i]
		if r.Status != w.st || r.Change != w.ch || r.To == nil || r.To.LocalName != w.to || r.Learning != "x" || r.Anchor != i+1 {
			t.Errorf("%s: got %s/%s %+v: %s", as[i].Symbol, r.Status, r.Change, r.To, r.Reason)
		}
	}
	if !strings.Contains(rs[2].Reason, "Sum → Total") {
		t.Errorf("caller reason %q does not name the rename", rs[2].Reason)
	}
}

// TestSourceWithIndex verifies through the analyzer's index (real Badger,
// in memory) that is out of date for some files: a file changed without
// changing size, a new file, an unchanged one.
func TestSourceWithIndex(t *testing.T) {
	ctx := context.Background()
	v1 := fstest.MapFS{
		"a.go": {Data: []byte("package p\n\nfunc Foo(x int) int {\n\treturn x * 7\n}\n\nfunc Keep() int { return 1 }\n")},
		"b.go": {Data: []byte("package p\n\nfunc Moved(s string) string {\n\treturn s + s + s\n}\n")},
	}
	store, err := graph.Open("", graph.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := analyzer.Update(ctx, store, v1, analyzer.Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	src1, err := anchors.NewSource(v1, anchors.SourceOptions{Index: store})
	if err != nil {
		t.Fatal(err)
	}
	defer src1.Close()
	var as []anchors.Anchor
	for _, s := range []string{"a.go::Foo", "a.go::Keep", "b.go::Moved"} {
		as = append(as, baseline(t, src1, s))
	}
	// Foo renamed to Bar (same size), Moved moved to a new file c.go.
	v2 := fstest.MapFS{
		"a.go": {Data: []byte("package p\n\nfunc Bar(x int) int {\n\treturn x * 7\n}\n\nfunc Keep() int { return 1 }\n")},
		"b.go": {Data: []byte("package p\n")},
		"c.go": {Data: []byte("package p\n\nfunc Moved(s string) string {\n\treturn s + s + s\n}\n")},
	}
	src2, err := anchors.NewSource(v2, anchors.SourceOptions{Index: store})
	if err != nil {
		t.Fatal(err)
	}
	defer src2.Close()
	v, err := anchors.NewVerifier(src2, anchors.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs := v.VerifyAll(ctx, as)
	want := []string{"valid renamed a.go::Bar", "valid none a.go::Keep", "valid moved c.go::Moved"}
	for i, r := range rs {
		got := string(r.Status) + " " + string(r.Change)
		if r.To != nil {
			got += " " + r.To.FQName
		}
		if got != want[i] {
			t.Errorf("%s: got %q, want %q (%s)", as[i].Symbol, got, want[i], r.Reason)
		}
	}
}

func TestLinesInRenamedFileEdited(t *testing.T) {
	text := "package p\n\nfunc F() {\n\ta := 1\n\tb := 2\n\tc := a + b\n\tprintln(c)\n}\n"
	before := srcOf(t, "-- a.go --\n"+text)
	a := baseline(t, before, "a.go#L4-L7")
	fsys, err := txtar.FS(txtar.Parse([]byte("-- b.go --\n" + strings.Replace(text, "b := 2", "b := 3", 1))))
	if err != nil {
		t.Fatal(err)
	}
	after, err := anchors.NewSource(fsys, anchors.SourceOptions{Renames: map[string]string{"a.go": "b.go"}})
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	r := verify(t, after, anchors.Options{Base: before}, a)
	if r.Status != anchors.Drifted || r.To == nil || r.To.Path != "b.go" || !strings.Contains(r.Reason, "renamed to b.go") {
		t.Errorf("got %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
}

// TestLinesFuzzyLargeFile keeps the fuzzy search of a large file cheap.
func TestLinesFuzzyLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	var b strings.Builder
	b.WriteString("package p\n\n")
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&b, "func F%d(x int) int {\n\treturn x + %d\n}\n\n", i, i)
	}
	text := b.String()
	before := srcOf(t, "-- a.go --\n"+text)
	a := baseline(t, before, "a.go#L3001-L3020")
	edited := strings.Replace(text, "return x + 750\n", "return x - 750\n", 1)
	after := srcOf(t, "-- a.go --\n"+edited)
	start := time.Now()
	r := verify(t, after, anchors.Options{Base: before}, a)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("fuzzy search took %v", d)
	}
	if r.Status != anchors.Drifted || r.To == nil {
		t.Errorf("got %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
}

func TestFixAndAcceptRecordSketch(t *testing.T) {
	before := srcOf(t, `
-- a.go --
package p

func Sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
`)
	a := baseline(t, before, "a.go::Sum")
	a.Sketch = "" // recorded by an older lore
	after := srcOf(t, `
-- a.go --
package p

func Total(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
`)
	r := verify(t, after, anchors.Options{}, a)
	fixed, ok := anchors.Fix(r)
	if !ok || fixed.Symbol != "a.go::Total" {
		t.Fatalf("Fix = %+v, %v (%s/%s: %s)", fixed, ok, r.Status, r.Change, r.Reason)
	}
	want := baseline(t, after, "a.go::Total")
	if fixed.Sketch == "" || fixed.Sketch != want.Sketch {
		t.Errorf("fixed sketch %q, want %q", fixed.Sketch, want.Sketch)
	}
	acc, ok := anchors.Accept(r)
	if !ok || acc.Sketch != want.Sketch {
		t.Errorf("accepted sketch %q, want %q", acc.Sketch, want.Sketch)
	}
	// A rename alone keeps the sketch.
	if old := baseline(t, before, "a.go::Sum"); old.Sketch != want.Sketch {
		t.Errorf("sketch changed by a rename: %s → %s", old.Sketch, want.Sketch)
	}
}

// A tiny body moved and renamed into a file of the same directory is
// followed when the anchor has a sketch; an older anchor only gets a
// candidate. Tiny bodies elsewhere are never compared by sketch.
func TestTinyMovedRenamedNextDoor(t *testing.T) {
	before := srcOf(t, `
-- p/a.go --
package p

func (h *handler) Available() bool { return h.ready && !h.closed }
-- q/c.go --
package q

func (h *handler) Ready() bool { return h.ready && !h.closed }
`)
	a := baseline(t, before, "p/a.go::handler::Available")
	after := srcOf(t, `
-- p/a.go --
package p
-- p/b.go --
package p

func (h *handler) Usable() bool { return h.ready && !h.closed }
-- q/c.go --
package q

func (h *handler) Ready() bool { return h.ready && !h.closed }
`)
	r := verify(t, after, anchors.Options{}, a)
	if r.Status != anchors.Valid || r.Change != anchors.ChangeMovedRenamed || r.To == nil || r.To.Path != "p/b.go" {
		t.Errorf("with a sketch: %s/%s %+v: %s %v", r.Status, r.Change, r.To, r.Reason, r.Candidates)
	}
	old := a
	old.Sketch = ""
	r = verify(t, after, anchors.Options{}, old)
	if r.Status != anchors.Invalid || r.To != nil {
		t.Errorf("without a sketch: %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
}

// TestIndexedShapes verifies through an index, which keeps symbol hashes
// only: baselines still record shapes and sigs, and reformatted, re-signed
// and rewritten symbols are told apart as when the files are parsed, with
// many anchors of one file verified at once (the file is parsed for its
// shapes once; run with -race).
func TestIndexedShapes(t *testing.T) {
	ctx := context.Background()
	var before, after strings.Builder
	before.WriteString("package p\n\n")
	after.WriteString("package p\n\n")
	var specs []string
	want := map[string]string{}
	for i := range 40 {
		fmt.Fprintf(&before, "func F%d(x int) int {\n\treturn x + %d\n}\n\n", i, i)
		specs = append(specs, fmt.Sprintf("a.go::F%d", i))
		switch i % 4 {
		case 0: // untouched
			fmt.Fprintf(&after, "func F%d(x int) int {\n\treturn x + %d\n}\n\n", i, i)
			want[specs[i]] = "valid none"
		case 1: // reformatted, with a comment
			fmt.Fprintf(&after, "func F%d(x int) int { // doubled\n\treturn x +\n\t\t%d\n}\n\n", i, i)
			want[specs[i]] = "valid reformatted"
		case 2:
			fmt.Fprintf(&after, "func F%d(x, y int) int {\n\treturn x + %d\n}\n\n", i, i)
			want[specs[i]] = "drifted signature-changed"
		case 3:
			fmt.Fprintf(&after, "func F%d(x int) int {\n\treturn x - %d\n}\n\n", i, i)
			want[specs[i]] = "drifted body-changed"
		}
	}
	store, err := graph.Open(t.TempDir(), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	index := func(fsys fstest.MapFS) *anchors.Source {
		t.Helper()
		if _, err := analyzer.Update(ctx, store, fsys, analyzer.Options{}); err != nil {
			t.Fatal(err)
		}
		src, err := anchors.NewSource(fsys, anchors.SourceOptions{Index: store})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(src.Close)
		return src
	}
	v1 := fstest.MapFS{"a.go": {Data: []byte(before.String())}}
	src1 := index(v1)
	if f, err := src1.File(ctx, "a.go"); err != nil || len(f.Symbols) != 40 || f.Symbols[0].Hash == "" || f.Symbols[0].Shape != "" {
		t.Fatalf("indexed symbols: want hashes without shapes, got %v %+v", err, f)
	}
	parsed := srcOf(t, "-- a.go --\n"+before.String())
	var as []anchors.Anchor
	for _, s := range specs {
		a := baseline(t, src1, s)
		if p := baseline(t, parsed, s); a != p || a.Shape == "" || a.Sig == "" {
			t.Fatalf("%s: baseline through the index %+v, parsed %+v", s, a, p)
		}
		as = append(as, a)
	}
	src2 := index(fstest.MapFS{"a.go": {Data: []byte(after.String())}})
	v, err := anchors.NewVerifier(src2, anchors.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs := v.VerifyAll(ctx, as)
	for i, r := range rs {
		if got := string(r.Status) + " " + string(r.Change); got != want[specs[i]] {
			t.Errorf("%s: got %q, want %q (%s)", specs[i], got, want[specs[i]], r.Reason)
		}
	}
	// Fix and Accept re-baseline with shapes, also once the source that
	// found the symbols is closed (as lore verify --fix does).
	src2.Close()
	reparsed := srcOf(t, "-- a.go --\n"+after.String())
	for i, r := range rs {
		a, ok := anchors.Accept(r)
		if want := baseline(t, reparsed, specs[i]); !ok || a.Hash != want.Hash || a.Shape != want.Shape || a.Sig != want.Sig {
			t.Errorf("%s: accepted %+v, want the fingerprints of %+v", specs[i], a, want)
		}
	}
}

// TestSourceClosedWhileParsing closes a Source while other goroutines read
// files through it: parses under way finish, later ones fail, none hangs.
func TestSourceClosedWhileParsing(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range 64 {
		fsys[fmt.Sprintf("f%d.go", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("package p\n\nfunc F%d() int { return %d }\n", i, i))}
	}
	src, err := anchors.NewSource(fsys, anchors.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < 64; i += 4 {
				if _, err := src.File(context.Background(), fmt.Sprintf("f%d.go", i)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	src.Close()
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("reads through a closed source hang")
	}
	src.Close() // twice is harmless
}

// A baseline recorded by a lore whose canonical stream lacked a rule (its
// shape and sig stand for that older reading here) is compared with its
// text read as this lore reads it, when Options.Base still holds that
// text: a formatter's run right after the upgrade is reformatted, not
// drifted. Without the text, the recorded reading is all there is.
func TestUpgradedCanonicalReading(t *testing.T) {
	before := srcOf(t, `
-- A.java --
class A {
    boolean ok(int a, int b) {
        return (a > 0 && b > 0);
    }
}
`)
	a := baseline(t, before, "A.java::A::ok")
	a.Shape, a.Sig = "s2:"+strings.Repeat("0", 64), "s2:"+strings.Repeat("1", 64)
	after := srcOf(t, `
-- A.java --
class A {
  boolean ok(int a, int b) {
    return a > 0 && b > 0;
  }
}
`)
	if r := verify(t, after, anchors.Options{Base: before}, a); r.Status != anchors.Valid || r.Change != anchors.ChangeReformatted {
		t.Errorf("with the baseline's text: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	if r := verify(t, after, anchors.Options{}, a); r.Status != anchors.Drifted {
		t.Errorf("without it: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	// A file anchor alike.
	f := baseline(t, before, "A.java")
	f.Shape = "s2:" + strings.Repeat("0", 64)
	if r := verify(t, after, anchors.Options{Base: before}, f); r.Status != anchors.Valid || r.Change != anchors.ChangeReformatted {
		t.Errorf("file, with the baseline's text: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	if r := verify(t, after, anchors.Options{}, f); r.Status != anchors.Drifted {
		t.Errorf("file, without it: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	// And lines.
	l := baseline(t, before, "A.java#L2-L4")
	l.Shape = "s2:" + strings.Repeat("0", 64)
	if r := verify(t, after, anchors.Options{Base: before}, l); r.Status != anchors.Valid || r.Change != anchors.ChangeReformatted {
		t.Errorf("lines, with the baseline's text: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
	if r := verify(t, after, anchors.Options{}, l); r.Status == anchors.Valid {
		t.Errorf("lines, without it: %s/%s: %s", r.Status, r.Change, r.Reason)
	}
}
