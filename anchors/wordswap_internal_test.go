package anchors

import "testing"

func TestSwap(t *testing.T) {
	for _, tc := range []struct {
		a, b     string
		old, new string
		ok       bool
	}{
		{"expectThrowsUsesCanonicalName", "assertThrowsUsesCanonicalName", "expect", "assert", true},
		{"extractLibrariesAndCreatesRunner", "extractLibrariesAndCreatesApplication", "runner", "application", true},
		{"runner_contains_entries", "applicationContainsEntries", "runner", "application", true},
		{"getStartPos", "getEndOffset", "", "", false},  // two words differ
		{"getValue", "getValueAsString", "", "", false}, // a word added, not swapped
		{"readAll", "readAll", "", "", false},           // nothing differs
		{"parse", "format", "", "", false},              // one word: a name, not a swap
		{"isEnabledByDefault", "isDisabledByDefault", "enabled", "disabled", true},
	} {
		k, ok := swap(words(tc.a), words(tc.b))
		if ok != tc.ok || ok && (k[0] != tc.old || k[1] != tc.new) {
			t.Errorf("swap(%s, %s) = %v, %v; want %s→%s, %v", tc.a, tc.b, k, ok, tc.old, tc.new, tc.ok)
		}
	}
}
