package lore

import (
	"slices"
	"testing"
)

func TestCodeWords(t *testing.T) {
	got := codeWords("validateToken must run before `Retry`; parse_header() and Store.Open, AuthService::login; not Retry or the or x_")
	want := []string{"validateToken", "Retry", "parse_header", "Store.Open", "AuthService::login"}
	if !slices.Equal(got, want) {
		t.Errorf("codeWords = %q, want %q", got, want)
	}
}
