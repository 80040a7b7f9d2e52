package main

import (
	"math"
	"testing"
)

func TestBagLikeness(t *testing.T) {
	old := words("java", []byte(`long freeSpace(String path, int os) { return parse(run("df", path), os); }`))
	for _, c := range []struct {
		now  string
		want float64
	}{
		{`long freeSpace(String path, int os) { return parse(run("df", path), os); }`, 1},
		{`long getFreeSpace(String path) { return Files.getFileStore(Paths.get(path)).getUsableSpace(); }`, 2 * 5.0 / 23}, // long String path path return, of 12 and 11
		{`{ ; }`, 0},
	} {
		if got := bagLikeness(old, words("java", []byte(c.now))); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("bagLikeness(old, %q) = %.3f, want %.3f", c.now, got, c.want)
		}
	}
}
