package anchors_test

import (
	"strings"
	"testing"

	"github.com/lorehq/lore/anchors"
)

// A method new in the anchored symbol's type is offered for a deleted one
// only when their names are alike: one sharing no word with it is not,
// nor with the rewritten methods deleted beside it.
func TestNamesakesOnlyLikeNames(t *testing.T) {
	const (
		file     = "src/main/java/org/example/audit/AuditLogService.java"
		newcomer = file + "::AuditLogService::registerListener"
	)
	before, after := scenarioSides(t, "../testdata/anchors/java-rewritten-under-a-like-name.txtar")
	for _, spec := range []string{
		file + "::AuditLogService::purgeOlderThan",
		file + "::AuditLogService::queryTaskEventLogs",
		file + "::AuditLogService::queryJobRunLogs",
	} {
		t.Run(spec, func(t *testing.T) {
			r := verify(t, after, anchors.Options{Base: before}, baseline(t, before, spec))
			if r.To != nil {
				t.Fatalf("followed to %s (%.2f): %s", r.To.FQName, r.Confidence, r.Reason)
			}
			for _, c := range r.Candidates {
				if c.Location.FQName == newcomer {
					t.Errorf("%s offered: %v", newcomer, r.Candidates)
				}
			}
		})
	}
}

// A method deleted outright, while methods with other names are added
// in the other files the change touched, has no namesake: none of them
// is offered for it.
func TestNoNamesakesForAMethodJustDeleted(t *testing.T) {
	const (
		path   = "../testdata/anchors/java-moved-into-parameter-type-rewritten.txtar"
		cursor = "src/main/java/org/example/graph/cursor/"
	)
	newcomers := map[string]bool{
		cursor + "NodeView.java::NodeView::hasLabel":                true,
		cursor + "NodeView.java::NodeView::Helper::hasLabel":        true,
		cursor + "EntityView.java::EntityView::hasProperty":         true,
		cursor + "EntityView.java::EntityView::getProperty":         true,
		cursor + "EntityView.java::EntityView::Helper::hasProperty": true,
		cursor + "EntityView.java::EntityView::Helper::getProperty": true,
	}
	before, after := scenarioSides(t, path)
	a := baseline(t, before, "src/main/java/org/example/graph/ops/EntityReads.java::EntityReads::nodeExists")
	r := verify(t, after, anchors.Options{Base: before, Changed: scenarioChanged(t, path)}, a)
	if r.To != nil {
		t.Fatalf("followed to %s (%.2f): %s", r.To.FQName, r.Confidence, r.Reason)
	}
	for _, c := range r.Candidates {
		if newcomers[c.Location.FQName] {
			t.Errorf("%s offered: %v", c.Location.FQName, r.Candidates)
		}
	}
}

// Beside a copy of the old code, a name is no hint: a class moved
// unchanged to two places offers both copies, and not the class added
// in the same change whose name is like its own (nor, for one of its
// methods, the new method whose name is like that method's).
func TestNoNamesakesBesideCopies(t *testing.T) {
	const (
		path   = "../testdata/anchors/java-copies-found-no-namesakes.txtar"
		old    = "core/src/main/java/org/example/codec/v1/ForUtil.java::ForUtil"
		moved  = "core/src/main/java/org/example/codec/v2/ForUtil.java::ForUtil"
		copied = "legacy/src/main/java/org/example/legacy/v1/ForUtil.java::ForUtil"
		like   = "core/src/main/java/org/example/codec/v2/ForDeltaUtil.java::ForDeltaUtil"
	)
	before, after := scenarioSides(t, path)
	for _, tc := range []struct{ spec, copies, namesake string }{
		{old, moved + " " + copied, like},
		{old + "::encode", moved + "::encode " + copied + "::encode", like + "::encodeDeltas"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			a := baseline(t, before, tc.spec)
			r := verify(t, after, anchors.Options{Base: before, Changed: scenarioChanged(t, path)}, a)
			if r.To != nil {
				t.Fatalf("followed to %s (%.2f): %s", r.To.FQName, r.Confidence, r.Reason)
			}
			found := map[string]bool{}
			for _, c := range r.Candidates {
				found[c.Location.FQName] = true
			}
			for _, c := range strings.Fields(tc.copies) {
				if !found[c] {
					t.Errorf("copy %s not among the candidates %v", c, r.Candidates)
				}
			}
			if found[tc.namesake] {
				t.Errorf("%s offered beside the copies: %v", tc.namesake, r.Candidates)
			}
		})
	}
}
