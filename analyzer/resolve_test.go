package analyzer

import (
	"slices"
	"testing"
	"testing/fstest"
)

// TestResolveGoPackages checks Go resolution on a repository of two
// modules: a whole package's non-test files in name order with its
// directory kept, a one-file package without it, the nested module
// winning for its files, vendor before the module, relative imports,
// and a module path that is only a prefix of the import's first element.
func TestResolveGoPackages(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":              {Data: []byte("module example.com/m\n")},
		"tools/go.mod":        {Data: []byte("module example.com/m/tools\n")},
		"a/b.go":              {},
		"a/a.go":              {},
		"a/a_test.go":         {},
		"one/one.go":          {},
		"tools/x/x.go":        {},
		"tools/x/y.go":        {},
		"tools/vendor/v/v.go": {},
		"mx/mx.go":            {},
		"rel/r.go":            {},
		"rel/sub/s1.go":       {},
		"rel/sub/s2.go":       {},
		"vendor/v/v.go":       {},
		"vendor/v/w.go":       {},
		"tools/cmd/main.go":   {},
	}
	paths := make([]string, 0, len(fsys))
	for p := range fsys {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	r := newResolver(fsys, paths)
	goLang := NewTable().Lookup("go")
	for _, c := range []struct {
		from, spec string
		targets    []string
		pkgDir     string
	}{
		{"one/one.go", "example.com/m/a", []string{"a/a.go", "a/b.go"}, "a"},
		{"a/a.go", "example.com/m/one", []string{"one/one.go"}, ""},
		{"tools/cmd/main.go", "example.com/m/tools/x", []string{"tools/x/x.go", "tools/x/y.go"}, "tools/x"},
		{"a/a.go", "example.com/m/tools/x", []string{"tools/x/x.go", "tools/x/y.go"}, "tools/x"},
		{"a/a.go", "example.com/mx", nil, ""},
		{"a/a.go", "v", []string{"vendor/v/v.go", "vendor/v/w.go"}, "vendor/v"},
		{"tools/cmd/main.go", "v", []string{"tools/vendor/v/v.go"}, ""},
		{"rel/r.go", "./sub", []string{"rel/sub/s1.go", "rel/sub/s2.go"}, "rel/sub"},
		{"rel/r.go", "../../outside", nil, ""},
		{"a/a.go", "fmt", nil, ""},
	} {
		im := Import{Path: c.from, Spec: c.spec}
		r.resolve(goLang, &im)
		if !slices.Equal(im.Targets, c.targets) || im.pkgDir != c.pkgDir {
			t.Errorf("%s imports %q: targets %q in %q, want %q in %q", c.from, c.spec, im.Targets, im.pkgDir, c.targets, c.pkgDir)
		}
	}
}
