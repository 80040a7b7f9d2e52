package anchors_test

import (
	"context"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/txtar"

	"github.com/lorehq/lore/anchors"
)

// A method whose work went elsewhere while a new method with its
// parameters took its place is not followed (see the scenario
// python-successor-in-place), but the successor is offered among the
// candidates, so that the person can take it with anchor accept --to.
func TestSuccessorInPlaceIsOffered(t *testing.T) {
	before, after := scenarioSides(t, "../testdata/anchors/python-successor-in-place.txtar")
	a := baseline(t, before, "directive.py::EmbeddedShell::specialized_doctest")
	r := verify(t, after, anchors.Options{Base: before}, a)
	if r.Status != anchors.Invalid || r.To != nil {
		t.Fatalf("got %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
	var got []string
	for _, c := range r.Candidates {
		got = append(got, c.Location.FQName)
		if c.Location.FQName == "directive.py::EmbeddedShell::custom_doctest" && strings.Contains(c.Reason, "new in its place") {
			return
		}
	}
	t.Errorf("candidates %v: no successor in place: %s", got, r.Reason)
}

// scenarioSides reads the before/ and after/ files of a scenario (see
// TestScenarios) as two sources, without git: for tests that look at
// one anchor's result closer than a scenario's want lines do.
func scenarioSides(t *testing.T, path string) (before, after *anchors.Source) {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sides := map[string]fstest.MapFS{"before/": {}, "after/": {}}
	for _, f := range ar.Files {
		for prefix, fsys := range sides {
			if name, ok := strings.CutPrefix(f.Name, prefix); ok {
				fsys[name] = &fstest.MapFile{Data: f.Data}
			}
		}
	}
	source := func(fsys fstest.MapFS) *anchors.Source {
		s, err := anchors.NewSource(fsys, anchors.SourceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	return source(sides["before/"]), source(sides["after/"])
}

// scenarioChanged lists the files a scenario's change touched (those
// whose before/ and after/ differ, or that only one side holds), as
// Options.Changed gives them from git diff --name-only.
func scenarioChanged(t *testing.T, path string) func(context.Context) []string {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sides := map[string]map[string]string{"before/": {}, "after/": {}}
	for _, f := range ar.Files {
		for prefix, side := range sides {
			if name, ok := strings.CutPrefix(f.Name, prefix); ok {
				side[name] = string(f.Data)
			}
		}
	}
	var files []string
	for name, data := range sides["before/"] {
		if now, ok := sides["after/"][name]; !ok || now != data {
			files = append(files, name)
		}
	}
	for name := range sides["after/"] {
		if _, ok := sides["before/"][name]; !ok {
			files = append(files, name)
		}
	}
	sort.Strings(files)
	return func(context.Context) []string { return files }
}
