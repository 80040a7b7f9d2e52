package learnfile

import (
	"strings"
	"testing"
)

func TestMerge(t *testing.T) {
	orig := []byte(sample)
	edit := func(from []byte, fn func(*Learning)) *Learning {
		t.Helper()
		l, err := Parse("x.md", from)
		if err != nil {
			t.Fatal(err)
		}
		fn(l)
		return l
	}
	marshal := func(l *Learning) []byte {
		t.Helper()
		b, err := l.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Theirs changed the tags, ours the title: both are kept, and the
	// comment and unknown key of the file survive.
	theirs := marshal(edit(orig, func(l *Learning) { l.Tags = []string{"auth"} }))
	ours := edit(orig, func(l *Learning) { l.Title = "a new title" })
	got, err := Merge("x.md", orig, theirs, ours)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "a new title" || strings.Join(got.Tags, ",") != "auth" || got.Path != "x.md" {
		t.Errorf("merged: title %q, tags %q, path %q", got.Title, got.Tags, got.Path)
	}
	out := string(marshal(got))
	if !strings.Contains(out, "owner:   team-auth") || !strings.Contains(out, "# the anchors below") {
		t.Errorf("merge lost front matter lore does not own:\n%s", out)
	}

	// Both changed the title differently: a conflict that names it.
	theirs = marshal(edit(orig, func(l *Learning) { l.Title = "theirs" }))
	if _, err := Merge("x.md", orig, theirs, ours); err == nil || !strings.Contains(err.Error(), "both changed title") {
		t.Errorf("conflicting titles: %v", err)
	}
	// The file now holds another learning, or does not parse.
	other := marshal(edit(orig, func(l *Learning) { l.ID = "zz99" }))
	if _, err := Merge("x.md", orig, other, ours); err == nil || !strings.Contains(err.Error(), "now holds learning zz99") {
		t.Errorf("other id: %v", err)
	}
	if _, err := Merge("x.md", orig, []byte("not a learning"), ours); err == nil || !strings.Contains(err.Error(), "no longer parses") {
		t.Errorf("broken file: %v", err)
	}
	// Both changed the front matter lore does not own.
	theirsOwner := []byte(strings.Replace(sample, "team-auth", "team-a", 1))
	oursOwner := edit([]byte(strings.Replace(sample, "team-auth", "team-b", 1)), func(*Learning) {})
	if _, err := Merge("x.md", orig, theirsOwner, oursOwner); err == nil || !strings.Contains(err.Error(), "beyond lore's keys") {
		t.Errorf("both changed other keys: %v", err)
	}
}
