package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hand-written stretch of the oracle, read as two windows of one group
// and a window of another: a commit cut at the first window's start, one
// whole, one that closes only in the group's second window (with braces
// and an escaped quote inside a string), one without a relocation, and
// one cut at the end of the last window.
const sample = `ion": "TP"
    }],
    "refDiffExecutionTime": 3
}, {
    "id": 1,
    "repository": "https://github.com/acme/alpha.git",
    "sha1": "aaaa",
    "refactorings": [{
        "type": "Rename Method",
        "description": "Rename Method public a() : void renamed to public b() : void in class p.A",
        "validation": "TP"
    }]
}, {
    "id": 2,
    "repository": "https://github.com/acme/beta.git",
    "sha1": "bbbb",
    "refactorings": [{
        "type": "Move Class",
        "description": "Move Class p.B moved to q.B",
        "comment": "<p>a } and a \"{\" in a string</p>",
        "validation": "CTP"
    }, {
        "type": "Move Method",
        "description": "Move Method public m() : void from class p.C to public m() : void from class q.C",
        "validation": "FP"
    }]
}, {
    "id": 3,
    "repository": "https://github.com/acme/alpha.git",
    "sha1": "cccc",
    "refactorings": [{
        "type": "Extract Method",
        "description": "Extract Method private x() : void extracted from public y() : void in class p.A",
        "validation": "TP"
    }]
}, {
    "id": 4,
    "repository": "https://github.com/acme/alpha.git",
    "sha1": "dddd",
    "refactorings": [{
        "type": "Rename Class",`

func TestWindows(t *testing.T) {
	dir := t.TempDir()
	cut := strings.Index(sample, `"Move Class p.B`) // the second window starts inside commit 2
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	files := []string{
		write("00-0000100.txt", sample[:cut]),
		write("00-0016100.txt", sample[cut:]),
		write("01-0500000.txt", sample[cut:]), // another group: commit 2 opens before it
	}
	snapshots := filepath.Join(dir, "commits")
	if err := os.Mkdir(snapshots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alpha-aaaa.json", "beta-bbbb.json"} {
		write(filepath.Join("commits", name), "{}")
	}
	out := filepath.Join(dir, "data.json")
	var log strings.Builder
	if err := run(append([]string{"-o", out, "-commits", snapshots}, files...), &log); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []record
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("output is not a JSON array: %v\n%s", err, b)
	}
	var shas []string
	for _, c := range got {
		shas = append(shas, c.SHA1)
	}
	if strings.Join(shas, ",") != "aaaa,bbbb" {
		t.Errorf("kept %v, want aaaa,bbbb (cccc has no relocation, dddd is cut)\nlog:\n%s", shas, log.String())
	}
	for _, want := range []string{"4 whole commits (2 cut", "kept 2, 1 without a relocating TP", "Move Class               1", "relocating TP in kept    2"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}

	// A commit without snapshot or clone is left out when they are given.
	if err := os.Remove(filepath.Join(snapshots, "beta-bbbb.json")); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if err := run(append([]string{"-o", out, "-commits", snapshots}, files...), &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "no snapshot or clone: beta bbbb") || !strings.Contains(log.String(), "kept 1,") {
		t.Errorf("beta without a snapshot was not left out:\n%s", log.String())
	}
}

func TestWindowsBadName(t *testing.T) {
	p := filepath.Join(t.TempDir(), "window.txt")
	if err := os.WriteFile(p, []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	err := run([]string{"-o", p + ".out", p}, &log)
	if err == nil || !strings.Contains(err.Error(), "GROUP-OFFSET") {
		t.Errorf("a window without an offset in its name: %v", err)
	}
}

func TestClosing(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{`{"a": "}"}`, 10},
		{`{"a": "\"}"} tail`, 12},
		{`{"a": [{"b": 1}]}`, 17},
		{`{"a": "\\"}`, 11},
		{`{"a": [1, 2`, -1},
	} {
		if got := closing([]byte(c.text), 0); got != c.want {
			t.Errorf("closing(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}
