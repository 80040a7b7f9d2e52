package analyzer

import (
	"strings"
	"testing"
)

// TestMaskCppMacros checks which upper-case macros maskCpp blanks before
// the C++ grammar reads a file, and which it leaves alone.
func TestMaskCppMacros(t *testing.T) {
	for _, c := range []struct {
		src, word string
		masked    bool
		why       string
	}{
		{"namespace std {\n_GLIBCXX_BEGIN_NAMESPACE_VERSION\nint f();\n}", "_GLIBCXX_BEGIN_NAMESPACE_VERSION", true, "a macro line at the top of a namespace"},
		{"namespace std {\n  int f();\n  _GLIBCXX_END_NAMESPACE_VERSION\n}", "_GLIBCXX_END_NAMESPACE_VERSION", true, "an indented macro line before the close"},
		{"template<typename _Tp>\n  _GLIBCXX20_CONSTEXPR\n  inline _Tp* f();", "_GLIBCXX20_CONSTEXPR", true, "a macro line after a template header"},
		{"namespace std _GLIBCXX_VISIBILITY(default)\n{\n}", "_GLIBCXX_VISIBILITY(default)", true, "a macro after a namespace's name"},
		{"_GLIBCXX_NODISCARD inline int f();", "_GLIBCXX_NODISCARD", true, "a macro word before a declaration"},
		{"enum E {\n  FIRST_ONE,\n  LAST_ONE\n};", "LAST_ONE", false, "an enumerator after a comma"},
		{"enum E {\n  ONLY_ONE\n};", "ONLY_ONE", false, "an enumerator alone in braces"},
		{"int g() {\n  return a +\n    MAX_VALUE\n    ;\n}", "MAX_VALUE", false, "an operand"},
		{"#define M(m, ...) GMOCK_INTERNAL_MOCK_METHODN(, , m, 0, __VA_ARGS__)\n#define N 1", "GMOCK_INTERNAL_MOCK_METHODN", false, "a macro's body"},
		{"#define M(m) \\\n  GTEST_X(m)\nint f();", "GTEST_X", false, "a macro's continued body"},
		{"void f() const GTEST_LOCK_EXCLUDED_(mu);", "GTEST_LOCK_EXCLUDED_(mu)", true, "a macro after a declarator"},
	} {
		out, _ := maskCpp([]byte(c.src), nil)
		if len(out) != len(c.src) {
			t.Errorf("%s: the masked copy has %d bytes, the source %d", c.why, len(out), len(c.src))
		}
		if got := !strings.Contains(string(out), c.word); got != c.masked {
			t.Errorf("%s: %q masked = %v, want %v:\n%s", c.why, c.word, got, c.masked, out)
		}
	}
}
