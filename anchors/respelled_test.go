package anchors

import "testing"

func TestRespelling(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"shouldGiveExplantionOnStaticMocking", "shouldGiveExplanationOnStaticMocking", true},
		{"recieveMessage", "receiveMessage", true}, // two neighbours swapped
		{"getURLPath", "getUrlPath", true},
		{"get_url_path", "getUrlPath", true},
		{"testMaxSizeZeroDisablesMering", "testMaxSizeZeroDisablesMerging", true},
		{"recieveBufferdMessage", "receiveBufferedMessage", true}, // two words in a long name
		{"recieveBufferd", "receiveBuffered", false},              // two words in a shorter one
		{"ocurrenceCountOfNode", "occurrenceCountOfNodes", false}, // and a plural
		{"setValue", "getValue", false},                           // a short word is a word
		{"handleRequestAsync", "handleRequestSync", false},
		{"enableFeatureFlags", "disableFeatureFlags", false}, // two letters in one word
		{"parseValue", "parseValue", false},
		{"testQuery", "testQuery1", false},
		{"testQuery1", "testQuery2", false},
		{"getValue", "getValues", false},
		{"readHeaders", "readHeader", false},
		{"parseValue", "parseValid", false},
		{"handleRequest", "handleResponse", false},
	} {
		if got := respelling(c.a, c.b); got != c.want {
			t.Errorf("respelling(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 1, 2}, // over the limit: limit+1
		{"ab", "ba", 2, 1},
		{"", "abc", 5, 3},
		{"abc", "", 1, 2},
		{"same", "same", 0, 0},
	} {
		if got := editDistance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}
