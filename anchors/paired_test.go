package anchors

import "testing"

// pairVote takes a pairing when the bodies and the names do not oppose
// it and together lean its way; names tell near copies apart; when the
// two oppose each other it doubts.
func TestPairVote(t *testing.T) {
	for _, tc := range []struct {
		name        string
		body, names float64
		want        int
	}{
		{"bodies clearly, names silent", 0.12, 0, pairStraight},
		{"bodies clearly the other way, names silent", -0.13, 0.02, pairCrossed},
		{"both lean a little", 0.06, 0.06, pairStraight},
		{"names tell near copies", -0.06, 0.75, pairStraight},
		{"names tell near copies the other way", 0.06, -0.75, pairCrossed},
		{"bodies and names opposed", -0.106, 0.195, pairDoubt},
		{"bodies and names opposed the other way", 0.3, -0.1, pairDoubt},
		{"neither leans enough", 0.05, 0.02, pairNone},
		{"names against, bodies not clear", 0.09, -0.1, pairNone},
	} {
		if got := pairVote(tc.body, tc.names); got != tc.want {
			t.Errorf("%s: pairVote(%.3f, %.3f) = %d, want %d", tc.name, tc.body, tc.names, got, tc.want)
		}
	}
}
