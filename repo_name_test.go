package lore

import "testing"

func TestRepoNameOfURL(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://github.com/lorehq/lore.git", "github.com/lorehq/lore"},
		{"https://github.com/lorehq/lore", "github.com/lorehq/lore"},
		{"https://github.com/lorehq/lore/", "github.com/lorehq/lore"},
		{"git@github.com:lorehq/lore.git", "github.com/lorehq/lore"},
		{"ssh://git@git.example.org:2222/team/pay.git", "git.example.org/team/pay"},
		{"https://user:secret@git.example.org:8443/team/pay.git", "git.example.org/team/pay"},
		{"file:///srv/git/pay.git", "srv/git/pay"},
		{"/srv/git/pay.git", "pay"},
		{"../pay", "pay"},
		{"", ""},
		{"https://example.org/a b", ""},
	} {
		if got := repoNameOfURL(c.url); got != c.want {
			t.Errorf("repoNameOfURL(%q) = %q, want %q", c.url, got, c.want)
		}
	}
}
