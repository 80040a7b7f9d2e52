package anchors

import (
	"strings"
	"testing"

	"github.com/lorehq/lore/analyzer"
)

const sketchBody = `func Tokenize(s string) []string {
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
`

func goSketch(t *testing.T, src, fq string) sketch {
	t.Helper()
	sk, ok := parseSketch(symbolSketch("go", []byte(src), fq, 1, strings.Count(src, "\n")))
	if !ok {
		t.Fatalf("no sketch for %s", fq)
	}
	return sk
}

func TestSketchFormat(t *testing.T) {
	s := symbolSketch("go", []byte(sketchBody), "Tokenize", 1, 13)
	if !strings.HasPrefix(s, "m1:") || len(s) != 3+64 || strings.ToLower(s) != s {
		t.Fatalf("sketch %q: want m1: and 64 lower-case hex digits", s)
	}
	if again := symbolSketch("go", []byte(sketchBody), "Tokenize", 1, 13); again != s {
		t.Errorf("not deterministic: %s then %s", s, again)
	}
	sk, ok := parseSketch(s)
	if !ok || sk.String() != s {
		t.Errorf("parse(%s) = %v, %v", s, sk.String(), ok)
	}
	if got := symbolSketch("go", nil, "F", 1, 1); got != "" {
		t.Errorf("sketch of nothing = %q, want none", got)
	}
	for _, bad := range []string{"", "m1:", "m2:" + strings.Repeat("0", 64), "m1:" + strings.Repeat("0", 63),
		"m1:" + strings.Repeat("A", 64), "m1:" + strings.Repeat("g", 64), strings.Repeat("0", 67)} {
		if _, ok := parseSketch(bad); ok {
			t.Errorf("parseSketch(%q) accepted", bad)
		}
	}
}

func TestSketchIgnoresLayoutCommentsAndRename(t *testing.T) {
	base := goSketch(t, sketchBody, "Tokenize")
	variants := map[string]string{
		"reformatted": strings.ReplaceAll(sketchBody, "\t", "    "),
		"comments": strings.Replace(strings.Replace(sketchBody, "\tcur := \"\"\n", "\t// the word so far\n\tcur := \"\" // empty\n", 1),
			"continue\n", "continue /* next */\n", 1),
		"joined": strings.Replace(sketchBody, "{\n\t\t\tout", "{ out", 1),
	}
	for name, src := range variants {
		if got := goSketch(t, src, "Tokenize"); got != base {
			t.Errorf("%s: sketch changed: %s → %s", name, base, got)
		}
	}
	renamed := strings.Replace(sketchBody, "func Tokenize", "func Split", 1)
	if got := goSketch(t, renamed, "Split"); got != base {
		t.Errorf("renamed: sketch changed: %s → %s", base, got)
	}
	// A method keeps its sketch when its type is renamed too.
	method := strings.Replace(sketchBody, "func Tokenize(", "func (l *Lexer) Tokenize(", 1)
	methodRenamed := strings.ReplaceAll(strings.Replace(method, "Tokenize", "Split", 1), "Lexer", "Scanner")
	if a, b := goSketch(t, method, "Lexer::Tokenize"), goSketch(t, methodRenamed, "Scanner::Split"); a != b {
		t.Errorf("method renamed with its type: sketch changed: %s → %s", a, b)
	}
}

func TestSketchSimilarityFallsWithEdits(t *testing.T) {
	base := goSketch(t, sketchBody, "Tokenize")
	if s := base.similarity(base); s != 1 {
		t.Errorf("self similarity %.2f", s)
	}
	edits := []string{
		strings.Replace(sketchBody, "r == ' '", "r == ' ' || r == '\\t'", 1),
		strings.Replace(strings.Replace(sketchBody, "r == ' '", "r == ' ' || r == '\\t'", 1), "cur += string(r)", "cur = cur + string(r)", 1),
		strings.Replace(strings.Replace(strings.Replace(sketchBody, "r == ' '", "unicode.IsSpace(r)", 1),
			"cur += string(r)", "b.WriteRune(r)", 1), "cur = \"\"", "b.Reset()", 1),
	}
	prev := 1.0
	for i, src := range edits {
		s := base.similarity(goSketch(t, src, "Tokenize"))
		if s >= prev {
			t.Errorf("edit %d: similarity %.2f, not below %.2f", i+1, s, prev)
		}
		prev = s
	}
	if first := base.similarity(goSketch(t, edits[0], "Tokenize")); first < 0.7 {
		t.Errorf("one small edit: similarity %.2f, want ≥ 0.7", first)
	}
	other := goSketch(t, `func Sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
`, "Sum")
	if s := base.similarity(other); s > 0.4 {
		t.Errorf("unrelated function: similarity %.2f, want ≤ 0.4", s)
	}
}

func TestSketchTokensAllocations(t *testing.T) {
	toks := analyzer.Tokens("go", []byte(sketchBody))
	n := testing.AllocsPerRun(20, func() { sketchTokens(toks, "Tokenize", "") })
	if n != 0 {
		t.Errorf("sketchTokens allocates %.0f times per call", n)
	}
}

func BenchmarkSketchTokens(b *testing.B) {
	toks := analyzer.Tokens("go", []byte(strings.Repeat(sketchBody, 4)))
	b.ReportAllocs()
	for b.Loop() {
		sketchTokens(toks, "Tokenize", "")
	}
}

func FuzzParseSketch(f *testing.F) {
	f.Add(symbolSketch("go", []byte(sketchBody), "Tokenize", 1, 13))
	f.Add("m1:" + strings.Repeat("f", 64))
	f.Add("m1:zz")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		sk, ok := parseSketch(s)
		if !ok {
			return
		}
		if sk.String() != s {
			t.Errorf("parseSketch(%q) round-trips to %q", s, sk.String())
		}
		for _, v := range sk {
			if v > 15 {
				t.Fatalf("value %d out of range", v)
			}
		}
		if j := sk.jaccard(sk); j != 1 {
			t.Errorf("self jaccard %v", j)
		}
	})
}
