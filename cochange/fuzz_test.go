package cochange

import "testing"

// Stored change-sets, paths and pairs are binary formats of our own:
// decoding arbitrary bytes must fail cleanly, never panic.
func FuzzDecodeStored(f *testing.F) {
	f.Add([]byte{1, 2, 3}, 4)
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f}, 1000)
	f.Fuzz(func(t *testing.T, b []byte, npaths int) {
		if npaths < 0 || npaths > 1<<16 {
			return
		}
		decodeChangeSet(b, npaths)
		decodePaths(b)
		decodePairs(b)
	})
}
