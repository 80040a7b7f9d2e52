package anchors

import (
	"path"
	"strings"
)

// matchGlob returns the paths that pattern matches. Segments match as in
// path.Match; a "**" segment matches any number of directories, including
// none.
func matchGlob(pattern string, paths []string) []string {
	pat := strings.Split(pattern, "/")
	var out []string
	for _, p := range paths {
		if globMatch(pat, strings.Split(p, "/")) {
			out = append(out, p)
		}
	}
	return out
}

func globMatch(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if globMatch(rest, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		seg := pat[0]
		if strings.Contains(seg, "**") { // "a**b": treat ** like *
			seg = strings.ReplaceAll(seg, "**", "*")
		}
		if ok, err := path.Match(seg, name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
