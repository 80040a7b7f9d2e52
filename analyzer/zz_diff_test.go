package analyzer

import (
	"os"
	"strings"
	"testing"
)

func TestZZDiff(t *testing.T) {
	oldP, newP, syms := os.Getenv("D_OLD"), os.Getenv("D_NEW"), os.Getenv("D_SYM")
	if oldP == "" {
		t.Skip()
	}
	path := os.Getenv("D_PATH")
	p := NewParser(nil)
	defer p.Close()
	for _, sym := range strings.Split(syms, ",") {
		toks := func(file string) []string {
			src, _ := os.ReadFile(file)
			f, _ := p.Parse(path, src)
			for _, s := range f.Symbols {
				if s.FQName == path+"::"+sym {
					return ShapeCanonical.Stream(f.Lang, src).Tokens(s.StartLine, s.EndLine)
				}
			}
			return nil
		}
		x, y := toks(oldP), toks(newP)
		i := 0
		for i < len(x) && i < len(y) && x[i] == y[i] {
			i++
		}
		c := func(ts []string) string { return strings.Join(ts[max(0, i-8):min(len(ts), i+8)], " ") }
		t.Logf("%s:\n  old …%s…\n  new …%s…", sym, c(x), c(y))
	}
}
