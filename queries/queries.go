package queries

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed */*.scm
var files embed.FS

// FS returns the embedded query tree: <lang>/<name>.scm.
func FS() fs.FS { return files }

// Languages lists the languages that have query files, sorted.
func Languages() []string {
	ents, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Files lists the query file names (without directory) of lang, sorted.
func Files(lang string) []string {
	ents, _ := fs.ReadDir(files, lang)
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".scm") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Read returns the query file queries/<lang>/<name>.
func Read(lang, name string) ([]byte, error) {
	b, err := files.ReadFile(path.Join(lang, name))
	if err != nil {
		return nil, fmt.Errorf("queries/%s/%s: %w", lang, name, err)
	}
	return b, nil
}

// Version is a short digest of all query files of lang; it changes when
// any of them changes and is "" for a language without queries.
func Version(lang string) string {
	names := Files(lang)
	if len(names) == 0 {
		return ""
	}
	h := sha256.New()
	for _, n := range names {
		b, _ := files.ReadFile(path.Join(lang, n))
		h.Write(fmt.Appendf(nil, "%s\x00%d\x00", n, len(b))) // a hash.Hash's Write never fails
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
