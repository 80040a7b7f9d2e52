package anchors_test

import (
	"strings"
	"testing"

	"github.com/lorehq/lore/anchors"
)

// Siblings whose names pair them otherwise than their bodies are not
// followed (see the scenario java-renamed-siblings-names-contradict),
// but both new names are offered, the one the names tell among them,
// with the reason, so that the person can take it with anchor accept
// --to.
func TestDoubtedSiblingsAreOffered(t *testing.T) {
	before, after := scenarioSides(t, "../testdata/anchors/java-renamed-siblings-names-contradict.txtar")
	const file = "src/test/java/org/example/CaptorTest.java"
	a := baseline(t, before, file+"::CaptorTest::should_capture_all_vararg")
	r := verify(t, after, anchors.Options{Base: before}, a)
	if r.Status != anchors.Invalid || r.To != nil {
		t.Fatalf("got %s/%s %+v: %s", r.Status, r.Change, r.To, r.Reason)
	}
	found := map[string]string{}
	for _, c := range r.Candidates {
		found[c.Location.FQName] = c.Reason
	}
	for _, want := range []string{"should_capture_all_vararg_with_captor", "should_capture_all_vararg_with_array_captor"} {
		reason, ok := found[file+"::CaptorTest::"+want]
		if !ok {
			t.Errorf("candidates %v: %s not offered", found, want)
			continue
		}
		if !strings.Contains(reason, "pair them otherwise than their bodies") {
			t.Errorf("%s offered as %q: no word of the names", want, reason)
		}
	}
}
