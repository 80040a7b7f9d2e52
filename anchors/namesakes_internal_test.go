package anchors

import "testing"

// Names a reviewer would read as the old one renamed, taken from real
// renames whose code changed too much to be found; and names that only
// share what every name of their type says.
func TestNamesake(t *testing.T) {
	for _, tc := range []struct {
		old, now, outer string
		want            bool
	}{
		{"queryNodeInstanceLogs", "queryLogs", "JPAAuditLogService", true},
		{"freeSpaceOS", "getFreeSpace", "FileSystemUtils", true},
		{"startGroup", "newGroup", "QueryWhere", true},
		{"tenantFilterOrNull", "appendTenantAndRoutingFilters", "FullPredicateRequestContext", true},
		{"getInvocationUsagePercentage", "invocationsUsedPercentage", "InvocationRegistry", true},
		{"registerAnnotatedMethodsAsExtensions", "registerMethodsAsExtensions", "ExtensionRegistrar", true},
		{"AbstractBuilder", "Builder", "AbstractPojoTypeManager", true},
		{"PositionEmbedderTest", "EmbedderTest", "", true},
		{"print", "rawPrint", "ConsoleReader", true},
		// Shared words too short, or the type's own.
		{"addResultOrBase", "addObject", "PackWriter", false},
		{"testParseDate", "testFormatTime", "DateTest", false},
		{"parseDate", "parseDateStrictly", "DateParser", true},
		{"parseDate", "parseTime", "DateParser", true}, // a hint, as it would be to a reviewer
		{"toString", "render", "HealthMetrics", false},
		{"newCollector", "queryTimeout", "MultiCollectorManager", false},
		{"run", "run", "Task", false},
	} {
		if _, got := namesake(tc.old, tc.now, tc.outer); got != tc.want {
			t.Errorf("namesake(%s, %s, in %s) = %v, want %v", tc.old, tc.now, tc.outer, got, tc.want)
		}
	}
}
