package learnfile

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lorehq/lore/anchors"
)

const sample = `---
id: k3v9q2x7mf
title: validateToken must check expiry before the signature
tags: [auth, security]
# the anchors below were reviewed in PR 12
anchors:
  - symbol: src/auth.ts::AuthService::validateToken
    kind: method
    lines: 40-62
    hash: sha256:aa
    shape: sha256:bb
  - lines: src/jwt.ts#L10-L24
    hash: sha256:cc
  - file: docs/auth.md
  - glob: src/auth/**/*.ts
links:
  - to: p8d2w1c4zz
    type: caused_by
    weight: 0.8
    note: the expiry race came from this
owner:   team-auth      # unknown keys survive
derived_from: [task:T-142, run:R-77]
created: 2026-11-21T10:00:00Z
updated: 2026-11-21T10:00:00Z
---
Body text with ünïcödé.

  Indented line, trailing spaces kept.   
`

func TestParse(t *testing.T) {
	l, err := Parse("x.md", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if l.ID != "k3v9q2x7mf" || len(l.Tags) != 2 || len(l.Anchors) != 4 || len(l.Links) != 1 || len(l.DerivedFrom) != 2 {
		t.Fatalf("parsed %+v", l)
	}
	if got := l.Anchors[0]; got.Type() != anchors.TypeSymbol || got.FQName() != "AuthService::validateToken" || got.Path() != "src/auth.ts" {
		t.Errorf("anchor 0 = %+v", got)
	}
	if s, e, ok := l.Anchors[1].Range(); !ok || s != 10 || e != 24 {
		t.Errorf("anchor 1 range = %d-%d %v", s, e, ok)
	}
	if l.Links[0].Weight != 0.8 || l.Links[0].Type != "caused_by" {
		t.Errorf("link = %+v", l.Links[0])
	}
	if !l.Created.Equal(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("created = %v", l.Created)
	}
}

func TestRoundTripUnchanged(t *testing.T) {
	for name, in := range map[string]string{
		"lf":                sample,
		"crlf":              strings.ReplaceAll(sample, "\n", "\r\n"),
		"empty":             "---\nid: ab12\ntitle: t\n---\n",
		"nobody-no-newline": "---\nid: ab12\ntitle: t\n---",
		"dots":              "---\nid: ab12\ntitle: t\n...\nbody\n",
	} {
		t.Run(name, func(t *testing.T) {
			l, err := Parse("x.md", []byte(in))
			if err != nil {
				t.Fatal(err)
			}
			out, err := l.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(in, "\n...\n", "\n---\n", 1)
			if name == "nobody-no-newline" {
				want += "\n"
			}
			if string(out) != want {
				t.Errorf("round trip changed the file:\n--- want\n%q\n--- got\n%q", want, out)
			}
		})
	}
}

func TestRewriteIsMinimal(t *testing.T) {
	l, err := Parse("x.md", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	l.Title = "validateToken: expiry first"
	l.Updated = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	l.Links = append(l.Links, Link{To: "zz99", Type: "implements", Weight: 1})
	out, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got := diffLines(sample, string(out))
	want := []string{
		"-title: validateToken must check expiry before the signature",
		"+title: 'validateToken: expiry first'",
		"+  - to: zz99",
		"+    type: implements",
		"+    weight: 1.0",
		"-updated: 2026-11-21T10:00:00Z",
		"+updated: 2026-11-22T08:00:00Z",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diff:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// And it parses back to the same values.
	back, err := Parse("x.md", out)
	if err != nil {
		t.Fatal(err)
	}
	if back.Title != l.Title || len(back.Links) != 2 || back.Body != l.Body {
		t.Errorf("reparsed %+v", back)
	}
	if !strings.Contains(string(out), "owner:   team-auth      # unknown keys survive") {
		t.Error("unknown key lost its formatting")
	}
}

func TestRewriteSeesInPlaceChanges(t *testing.T) {
	l, err := Parse("x.md", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	l.Links[0].Weight = 0.5
	l.Anchors[0].Hash = "sha256:new"
	l.Tags[0] = "authn"
	out, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"weight: 0.5", "hash: sha256:new", "tags: [authn, security]"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("rewrite lost in-place change %q:\n%s", want, out)
		}
	}
}

func TestNewLearningLayout(t *testing.T) {
	l := &Learning{ID: "k3v9q2x7mf", Title: "t", Tags: []string{"a"},
		Anchors: []anchors.Anchor{{Symbol: "a.go::F", Kind: "function", Lines: "1-3", Hash: "sha256:1", Shape: "sha256:2"}, {Glob: "**/*.go"}},
		Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Updated: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Body: "b\n"}
	out, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `---
id: k3v9q2x7mf
title: t
tags: [a]
anchors:
  - symbol: a.go::F
    kind: function
    lines: 1-3
    hash: sha256:1
    shape: sha256:2
  - glob: '**/*.go'
created: 2026-01-02T03:04:05Z
updated: 2026-01-02T03:04:05Z
---
b
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"no front matter\n", "x.md:1: missing front matter"},
		{"---\nid: ab12\ntitle: t\n", "x.md:1: front matter is not closed"},
		{"---\nid: ab12\ntitle: [unclosed\n---\n", "x.md:2: front matter: did not find expected"},
		{"---\ntitle: t\n---\n", "x.md:2: missing id"},
		{"---\nid: AB-12\ntitle: t\n---\n", "x.md:2: id \"AB-12\" is not a lore id"},
		{"---\nid: ab12\n---\n", "missing title"},
		{"---\nid: ab12\ntitle: t\nid: cd34\n---\n", "x.md:4: key \"id\" repeats"},
		{"---\nid: ab12\ntitle: t\ntags: auth\n---\n", "x.md:4: tags: want a list"},
		{"---\nid: ab12\ntitle: t\nlinks:\n  - to: cd34\n    type: Bad Tag\n---\n", "relation \"Bad Tag\""},
		{"---\nid: ab12\ntitle: t\nlinks:\n  - to: cd34\n    type: x\n    weight: 1.5\n---\n", "x.md:5: links: weight outside 0..1: 1.5"},
		{"---\nid: ab12\ntitle: t\nanchors:\n  - file: ../etc/passwd\n---\n", "escapes the repository"},
		{"---\nid: ab12\ntitle: t\nanchors:\n  - file: a\n    glob: b\n---\n", "exactly one of"},
		{"---\n- a\n- b\n---\n", "must be a mapping"},
		{"---\nid: ab12\ntitle: t\ncreated: yesterday\n---\n", "created: want a time"},
		{"---\r\nid: ab12\rtitle: t\r\n---\r\n", "x.md:2: front matter has a carriage return that does not end a line"},
	} {
		_, err := Parse("x.md", []byte(tc.in))
		var pe *ParseError
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want error containing %q", tc.in, err, tc.want)
		}
	}
}

// diffLines is a tiny line diff (LCS) for readable assertions.
func diffLines(a, b string) []string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	dp := make([][]int, len(x)+1)
	for i := range dp {
		dp[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			i++
			j++
		case i < len(x) && (j == len(y) || dp[i+1][j] >= dp[i][j+1]):
			out = append(out, "-"+x[i])
			i++
		default:
			out = append(out, "+"+y[j])
			j++
		}
	}
	return out
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("---\nid: ab12\ntitle: t\n---\n"))
	f.Add([]byte("---\r\nid: ab12\r\ntitle: t\r\n---\r\nbody\r\n"))
	f.Add([]byte("---\n{id: ab12, title: t}\n---\n"))
	f.Add([]byte("---\nid: ab12\ntitle: >\n  folded\n  title\n---\n"))
	f.Add([]byte("\xef\xbb\xbf---\nid: ab12\ntitle: t\nlinks:\n  - to: cd34\n    type: x\n    weight: 0.123456789\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse("f.md", data)
		if err != nil {
			return
		}
		out, err := l.Marshal()
		if err != nil {
			// What parses can be rewritten, but for front matter in flow
			// style, which lore says it cannot rewrite.
			if !strings.Contains(err.Error(), "flow style") {
				t.Fatalf("parses but cannot be rewritten: %v\n%q", err, data)
			}
			return
		}
		back, err := Parse("f.md", out)
		if err != nil {
			t.Fatalf("rewrite does not parse: %v\n%q", err, out)
		}
		if back.ID != l.ID || back.Title != l.Title || back.Body != l.Body || len(back.Anchors) != len(l.Anchors) {
			t.Fatalf("rewrite changed the learning:\n%q\n%q", data, out)
		}
		l.Title += " x"
		out, err = l.Marshal()
		if err != nil {
			return
		}
		back, err = Parse("f.md", out)
		if err != nil || back.Title != l.Title || back.Body != l.Body {
			t.Fatalf("changed rewrite: %v\n%q", err, out)
		}
	})
}
