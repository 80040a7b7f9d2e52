package anchors_test

import (
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
