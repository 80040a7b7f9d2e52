package anchors

import (
	"strings"
	"testing"

	"github.com/lorehq/lore/analyzer"
)

// Names a reviewer would read as the old one renamed, taken from real
// renames whose code changed too much to be found; and names that only
// share what most names of their type say.
func TestNamesake(t *testing.T) {
	for _, tc := range []struct {
		old, now string
		common   string // the words common in old's type
		want     bool
	}{
		{"queryNodeInstanceLogs", "queryLogs", "", true},
		{"freeSpaceOS", "getFreeSpace", "", true},
		{"startGroup", "newGroup", "", true},
		{"getQueryData", "getQueryWhere", "", true}, // in AbstractQueryBuilderImpl: its name says query, few of its methods do
		{"tenantFilterOrNull", "appendTenantAndRoutingFilters", "", true},
		{"getInvocationUsagePercentage", "invocationsUsedPercentage", "", true},
		{"registerAnnotatedMethodsAsExtensions", "registerMethodsAsExtensions", "", true},
		{"AbstractBuilder", "Builder", "", true},
		{"PositionEmbedderTest", "EmbedderTest", "test", true},
		{"print", "rawPrint", "", true},
		{"parseDate", "parseDateStrictly", "", true},
		{"parseDate", "parseTime", "", true}, // a hint, as it would be to a reviewer
		// Shared words too short, or common in the type.
		{"addResultOrBase", "addObject", "", false},
		{"testParseDate", "testFormatTime", "test", false},
		{"testParseDate", "testParseTime", "test parse", false},
		{"toString", "render", "", false},
		{"newCollector", "queryTimeout", "", false},
		{"run", "run", "", false},
	} {
		common := map[string]bool{}
		for _, w := range strings.Fields(tc.common) {
			common[w] = true
		}
		if _, got := namesake(tc.old, tc.now, common); got != tc.want {
			t.Errorf("namesake(%s, %s, common %q) = %v, want %v", tc.old, tc.now, tc.common, got, tc.want)
		}
	}
}

// The words of more than half of a type's names are common; a type of
// fewer than three names has none.
func TestCommonWords(t *testing.T) {
	sym := func(fq string) analyzer.Symbol {
		return analyzer.Symbol{FQName: "DateTest.java::" + fq, Name: fq[strings.LastIndex(fq, ":")+1:]}
	}
	f := &File{Path: "DateTest.java", Symbols: []analyzer.Symbol{
		sym("DateTest"), sym("DateTest::testParseDates"), sym("DateTest::testParseTime"),
		sym("DateTest::testFormat"), sym("DateTest::setUp"), sym("DateTest::Fixture"), sym("DateTest::Fixture::parseAll"),
	}}
	got := commonWords(f, "DateTest")
	if len(got) != 1 || !got["test"] {
		t.Errorf("common words of DateTest = %v, want test only", got)
	}
	if got := commonWords(f, "DateTest::Fixture"); len(got) != 0 {
		t.Errorf("common words of a one-method type = %v, want none", got)
	}
}
