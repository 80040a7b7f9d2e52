package lore

import (
	"crypto/rand"
	"fmt"
	"slices"
	"strings"
)

// idAlphabet is Crockford's base32 in lower case: no i, l, o or u, so ids
// read aloud and typed by hand survive.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// idLen characters of 5 random bits each: 50 bits, so two branches minting
// ids independently collide with negligible probability (about 1 in 2^30
// for a million learnings).
const idLen = 10

// newID returns a fresh random learning id. It starts with a letter so it
// is never mistaken for a number in YAML or on a command line.
func newID() (string, error) {
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

// validID accepts ids lore writes and hand-made ones of the same alphabet.
func validID(id string) bool {
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

// AmbiguousError reports an id prefix that matches several learnings.
type AmbiguousError struct {
	Prefix     string
	Candidates []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("id prefix %q is ambiguous: it matches %s; type more characters", e.Prefix, strings.Join(e.Candidates, ", "))
}

// resolveID finds the one id in ids (sorted) that equals or starts with
// prefix.
func resolveID(ids []string, prefix string) (string, error) {
	prefix = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(prefix, "learning:")))
	if prefix == "" {
		return "", fmt.Errorf("empty learning id: give an id or a unique prefix (see lore learn list)")
	}
	i, found := slices.BinarySearch(ids, prefix)
	if found {
		return prefix, nil
	}
	var cands []string
	for ; i < len(ids) && strings.HasPrefix(ids[i], prefix); i++ {
		cands = append(cands, ids[i])
	}
	switch len(cands) {
	case 0:
		return "", fmt.Errorf("no learning with id %q: see lore learn list: %w", prefix, ErrNotFound)
	case 1:
		return cands[0], nil
	}
	if len(cands) > 10 {
		cands = append(cands[:10], "…")
	}
	return "", &AmbiguousError{Prefix: prefix, Candidates: cands}
}
