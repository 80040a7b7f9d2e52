package roundtrip

import (
	"os"
	"testing"

	"github.com/lorehq/lore/analyzer"
)

// TestClangFormatCpp formats googletest's sources, as Debian's googletest
// package installs them, in styles unlike their own (Google's): LLVM's,
// Mozilla's rewrapped to 60 columns (return types on lines of their own,
// braces after classes and functions), and GNU's (a space before every
// call's parenthesis, braces on lines of their own). Sample 0 is the
// development half; LORE_ROUNDTRIP_CPP_SAMPLE=1 measures the held-out one.
func TestClangFormatCpp(t *testing.T) {
	clangFormat := tool(t, "LORE_ROUNDTRIP_CLANG_FORMAT", "clang-format")
	c := googletestCpp(t, heldOut("LORE_ROUNDTRIP_CPP_SAMPLE"))
	clangFormatRuns(t, clangFormat, c, "LLVM", "{BasedOnStyle: Mozilla, ColumnLimit: 60}", "GNU")
}

// googletestCpp samples the C++ of googletest and googlemock (sources,
// headers, samples) where Debian installs them; LORE_ROUNDTRIP_GOOGLETEST
// names another copy (libstdc++'s bits directory makes a second corpus:
// .tcc files are read too). Headers read as C are left out.
func googletestCpp(t *testing.T, sample int) corpus {
	t.Helper()
	root := os.Getenv("LORE_ROUNDTRIP_GOOGLETEST")
	if root == "" {
		root = "/usr/src/googletest"
	}
	if _, err := os.Stat(root); err != nil {
		t.Skipf("googletest's sources not found at %s (apt-get install googletest, or set LORE_ROUNDTRIP_GOOGLETEST)", root)
	}
	c := sampleCorpus(root, []string{".cc", ".h", ".cpp", ".tcc"}, sample, 80)
	p := analyzer.NewParser(nil)
	defer p.Close()
	return c.keep(func(f string, src []byte) bool {
		return p.Table().ForFile(f, src).Name == "cpp"
	})
}
