package learnfile

import (
	"crypto/rand"
	"fmt"
)

// idAlphabet is Crockford's base32 in lower case: no i, l, o or u, so ids
// read aloud and typed by hand survive.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// idLen characters of 5 random bits each: 50 bits, so two branches minting
// ids independently collide with negligible probability (about 1 in 2^30
// for a million learnings).
const idLen = 10

// NewID returns a fresh random learning id. It starts with a letter so it
// is never mistaken for a number in YAML or on a command line.
func NewID() (string, error) {
	var b [idLen]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("new id: %w", err)
	}
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	b[0] = idAlphabet[10+int(b[0])%(len(idAlphabet)-10)]
	return string(b[:]), nil
}

// ValidID accepts ids lore writes and hand-made ones of the same alphabet:
// 2 to 32 characters of a-z and 0-9.
func ValidID(id string) bool {
	if len(id) < 2 || len(id) > 32 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
