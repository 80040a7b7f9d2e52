package anchors_test

import "testing"

// notOffered fails the test for each of names among the candidates of
// spec in scenario (see offered).
func notOffered(t *testing.T, scenario, spec string, names ...string) {
	t.Helper()
	found, r := offered(t, scenario, spec)
	for _, n := range names {
		if found[n] > 0 {
			t.Errorf("%s offered: %v", n, r.Candidates)
		}
	}
}

// A method new in the anchored symbol's type is offered for a deleted one
// only when their names are alike: one sharing no word with it is not,
// nor with the rewritten methods deleted beside it.
func TestNamesakesOnlyLikeNames(t *testing.T) {
	const file = "src/main/java/org/example/audit/AuditLogService.java"
	for _, spec := range []string{
		file + "::AuditLogService::purgeOlderThan",
		file + "::AuditLogService::queryTaskEventLogs",
		file + "::AuditLogService::queryJobRunLogs",
	} {
		t.Run(spec, func(t *testing.T) {
			notOffered(t, "java-rewritten-under-a-like-name", spec, file+"::AuditLogService::registerListener")
		})
	}
}

// A method deleted outright, while methods with other names are added
// in the other files the change touched, has no namesake: none of them
// is offered for it.
func TestNoNamesakesForAMethodJustDeleted(t *testing.T) {
	const cursor = "src/main/java/org/example/graph/cursor/"
	notOffered(t, "java-moved-into-parameter-type-rewritten", "src/main/java/org/example/graph/ops/EntityReads.java::EntityReads::nodeExists",
		cursor+"NodeView.java::NodeView::hasLabel",
		cursor+"NodeView.java::NodeView::Helper::hasLabel",
		cursor+"EntityView.java::EntityView::hasProperty",
		cursor+"EntityView.java::EntityView::getProperty",
		cursor+"EntityView.java::EntityView::Helper::hasProperty",
		cursor+"EntityView.java::EntityView::Helper::getProperty")
}

// Beside a copy of the old code, a name is no hint: a class moved
// unchanged to two places offers both copies, and not the class added
// in the same change whose name is like its own (nor, for one of its
// methods, the new method whose name is like that method's).
func TestNoNamesakesBesideCopies(t *testing.T) {
	const (
		scenario = "java-copies-found-no-namesakes"
		old      = "core/src/main/java/org/example/codec/v1/ForUtil.java::ForUtil"
		moved    = "core/src/main/java/org/example/codec/v2/ForUtil.java::ForUtil"
		copied   = "legacy/src/main/java/org/example/legacy/v1/ForUtil.java::ForUtil"
		like     = "core/src/main/java/org/example/codec/v2/ForDeltaUtil.java::ForDeltaUtil"
	)
	for _, tc := range []struct{ spec, namesake string }{
		{old, like},
		{old + "::encode", like + "::encodeDeltas"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			suffix := tc.spec[len(old):]
			found, r := offered(t, scenario, tc.spec)
			for _, c := range []string{moved + suffix, copied + suffix} {
				if found[c] == 0 {
					t.Errorf("copy %s not among the candidates %v", c, r.Candidates)
				}
			}
			if found[tc.namesake] > 0 {
				t.Errorf("%s offered beside the copies: %v", tc.namesake, r.Candidates)
			}
		})
	}
}
