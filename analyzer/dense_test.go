package analyzer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// denseShape is a file made of n repeated units: head, n opening units,
// mid, n closing units (nesting, when close is set), tail.
type denseShape struct {
	name, path   string
	head, open   string // open may hold one %d, the unit's number
	mid, close   string
	tail         string
	wantTooDense bool // past the parser's bounds at both sizes
	// most is the ratio of times allowed (0: 8). Quadratic work makes it
	// 16 either way.
	most float64
}

func (s denseShape) build(size int) []byte {
	var b bytes.Buffer
	b.WriteString(s.head)
	n := 0
	for ; b.Len()+len(s.close)*n < size; n++ {
		if strings.Contains(s.open, "%d") {
			fmt.Fprintf(&b, s.open, n)
		} else {
			b.WriteString(s.open)
		}
	}
	b.WriteString(s.mid)
	for range n {
		b.WriteString(s.close)
	}
	b.WriteString(s.tail)
	return b.Bytes()
}

// denseShapes are the inputs that cost the parser most per byte: minified
// code (many declarations on one long line) and deep nesting.
var denseShapes = []denseShape{
	{name: "JavaScript functions on one line", path: "x.js", open: "function f%d(a,b){return a+b*%[1]d}var v%[1]d=f%[1]d(1,2);", wantTooDense: true},
	{name: "JavaScript class methods on one line", path: "x.js", head: "class C{", open: "m%d(a){return this.x+%[1]d}", tail: "}", wantTooDense: true},
	{name: "JavaScript minified closure", path: "x.js", head: "!function(){", open: "var a%d=function(b){return b*%[1]d},", mid: "z=0", tail: "}();"},
	{name: "JavaScript minified module factory", path: "x.js", head: "module.exports=function(C){", open: "C.a%d=function(b){return b*%[1]d};", mid: "C.z=0", tail: "};"},
	{name: "JavaScript minified object of methods", path: "x.js", head: "module.exports={", open: "m%d:function(b){return b*%[1]d},", mid: "z:0", tail: "};"},
	{name: "JavaScript nested objects of methods", path: "x.js", head: "x = ", open: "{a:\n", mid: "function() {}", close: "\n}", tail: ";\n"},
	{name: "JavaScript nested arrays", path: "x.js", head: "x=", open: "[", close: "]", tail: ";"},
	{name: "JavaScript nested calls", path: "x.js", head: "x=", open: "f(", close: ")", tail: ";"},
	{name: "TypeScript nested generics", path: "x.ts", head: "type T = ", open: "A<", mid: "B", close: ">", tail: ";\n"},
	{name: "Python nested lists", path: "x.py", head: "x = ", open: "[", close: "]", tail: "\n"},
	{name: "Python functions", path: "x.py", open: "def f%d(a):\n    return a + %[1]d\n"},
	{name: "TypeScript nested namespaces", path: "x.ts", open: "namespace N%d { ", close: "} ", tail: "\n", wantTooDense: true},
	{name: "Go nested literals", path: "x.go", head: "package p\nvar x = ", open: "[]any{", close: "}", tail: "\n"},
	// go/parser's recursion, 64 Ki frames deep at 128 KB, outgrows the
	// caches: 7 to 11 times on a loaded two-core machine, lore's own work
	// on it linear.
	{name: "Go nested parentheses", path: "x.go", head: "package p\nconst c = ", open: "(", mid: "1", close: ")", tail: "\n", most: 12},
	{name: "Go functions on one line", path: "x.go", head: "package p;", open: "func f%d() int { return %[1]d };", wantTooDense: true},
	{name: "Rust nested modules", path: "x.rs", open: "mod m%d { ", close: "}", tail: "\n", wantTooDense: true},
	{name: "C nested blocks", path: "x.c", head: "int f(void) ", open: "{ ", close: "} ", tail: "\n"},
	{name: "Java classes on one line", path: "x.java", open: "class C%d { int f() { return %[1]d; } } ", wantTooDense: true},
}

// TestParseLinear parses each dense shape at a size and at four times it:
// the time grows about fourfold (linear), not sixteenfold (quadratic).
// Times are the parsing thread's CPU time (on Linux), the fastest of a few
// parses, so that other work on a busy machine does not count; a ratio
// past the bound is measured again before it fails the test.
func TestParseLinear(t *testing.T) {
	const size = 32 << 10
	p := NewParser(nil)
	defer p.Close()
	timeOf := func(s denseShape, src []byte) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range 3 {
			var err error
			best = min(best, timeThread(func() { _, err = p.Parse(s.path, src) }))
			if tooDense := errors.Is(err, ErrTooDense); tooDense != s.wantTooDense || (err != nil && !tooDense) {
				t.Fatalf("%s (%d bytes): err = %v, want too dense: %v", s.name, len(src), err, s.wantTooDense)
			}
		}
		return best
	}
	for _, s := range denseShapes {
		small, large := s.build(size), s.build(4*size)
		timeOf(s, small) // warm up the language
		var t1, t4 time.Duration
		var ratio float64
		most := s.most
		if most == 0 {
			most = 8
		}
		for range 3 { // a busy machine can slow all runs of one size: ask again
			t1, t4 = timeOf(s, small), timeOf(s, large)
			if ratio = float64(t4) / float64(max(t1, time.Microsecond)); ratio <= most {
				break
			}
		}
		t.Logf("%-38s %4d KB %8v, %4d KB %8v: ×%.1f", s.name, len(small)>>10, t1.Round(time.Microsecond), len(large)>>10, t4.Round(time.Microsecond), ratio)
		if ratio > most {
			t.Errorf("%s: four times the input took %.1f times as long (linear: about 4)", s.name, ratio)
		}
	}
}

// TestParseTooDense checks both bounds and that Update skips a file past
// them with the reason, indexing the rest.
func TestParseTooDense(t *testing.T) {
	p := NewParser(nil)
	defer p.Close()
	tokens := denseShape{head: "x=", open: "[", close: "]", tail: ";"}.build(MaxTokens + 10)
	if _, err := p.Parse("x.js", tokens); !errors.Is(err, ErrTooDense) || !strings.Contains(err.Error(), "tokens") {
		t.Errorf("%d tokens: err = %v, want ErrTooDense for the tokens", MaxTokens+10, err)
	}
	oneLine := denseShapes[0].build(64 << 10)
	if _, err := p.Parse("x.js", oneLine); !errors.Is(err, ErrTooDense) || !strings.Contains(err.Error(), "symbols") {
		t.Errorf("symbols on one line: err = %v, want ErrTooDense for the symbols", err)
	}
	// Just within the bounds: parsed.
	if _, err := p.Parse("x.js", tokens[:MaxTokens-10]); err != nil && !errors.Is(err, ErrTooDense) {
		t.Fatal(err)
	} else if err != nil {
		t.Errorf("a file of fewer than MaxTokens tokens: %v", err)
	}
	if f, err := p.Parse("x.js", []byte("class C { a() {} b() {} }\n")); err != nil || len(f.Symbols) != 3 {
		t.Errorf("a short line of symbols: %v, %v", f, err)
	}

	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"dense.min.js": string(oneLine), "ok.js": "export function ok() {}\n"})
	sum := mustUpdate(t, openStore(t), dir, Options{})
	if sum.Files != 1 || sum.Symbols != 1 {
		t.Errorf("indexed %d files, %d symbols; want the file within the bounds only", sum.Files, sum.Symbols)
	}
	if len(sum.Skipped) != 1 || sum.Skipped[0].Path != "dense.min.js" || !strings.HasPrefix(sum.Skipped[0].Reason, "too dense to parse") {
		t.Errorf("skipped %+v, want dense.min.js as too dense", sum.Skipped)
	}
}

// TestParseMemoryBounded parses, in a process of its own, the densest
// shape (one token a byte, nested) just within MaxTokens and at the
// default size limit: the process's peak memory stays bounded.
func TestParseMemoryBounded(t *testing.T) {
	if os.Getenv("LORE_DENSE_CHILD") == "1" {
		denseChild(t)
		return
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status to read the peak memory from")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestParseMemoryBounded$", "-test.v")
	cmd.Env = append(os.Environ(), "LORE_DENSE_CHILD=1")
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil {
		t.Fatalf("child: %v", err)
	}
}

func denseChild(t *testing.T) {
	nested := denseShape{head: "x=", open: "[", close: "]", tail: ";"}
	p := NewParser(nil)
	defer p.Close()
	for _, size := range []int{MaxTokens - 10, DefaultMaxFileSize} {
		src := nested.build(size)
		before := statusKB(t, "VmRSS")
		_, err := p.Parse("x.js", src)
		if err != nil && !errors.Is(err, ErrTooDense) {
			t.Fatal(err)
		}
		grew := statusKB(t, "VmHWM") - before
		t.Logf("%d KB of nested brackets: parsed=%v, peak memory +%d MB", len(src)>>10, err == nil, grew>>10)
		if grew > 160<<10 {
			t.Errorf("%d KB of nested brackets: peak memory grew by %d MB", len(src)>>10, grew>>10)
		}
	}
}

// statusKB reads a field of /proc/self/status, in KB.
func statusKB(t *testing.T, field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}
