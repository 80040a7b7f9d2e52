package analyzer

import "testing"

// TestCanonicalFormattingCpp pairs what clang-format rewrites in C++ with
// the changes of behaviour that look most like it.
func TestCanonicalFormattingCpp(t *testing.T) {
	checkCanon(t, []canonCase{
		// Template argument lists closed by >> and by > > (clang-format's
		// C++03 styles, GNU's among them, write the second).
		{"cpp", "return static_cast<A<T>>(x);", "return static_cast<A<T> >(x);", true, ">> closing two template argument lists"},
		{"cpp", "std::vector<std::pair<int, B<C>>> v;", "std::vector<std::pair<int, B<C> > > v;", true, ">>> closing three"},
		{"cpp", "return static_cast<A<T>>(x);", "return static_cast<A<T>>=(x);", false, ">>= is no closer"},
		{"cpp", "return a >> b;", "return a > b;", false, "a shift is not a comparison"},
		{"cpp", "return a >> b;", "return a >= b;", false, "a shift is not >="},
		{"cpp", "x >>= 2;", "x > >= 2;", false, ">>= stays one operator"},
		{"cpp", "S operator>>(S a, int b);", "S operator>(S a, int b);", false, "operator>> is not operator>"},
		{"cpp", "f(&operator>>, x);", "f(&operator> > x);", false, "operator>> names the shift"},
		{"cpp", "return a >> b >> c;", "return a >> (b >> c);", false, "a shift's grouping"},
		// Line continuations in a macro, which clang-format moves as it
		// rewraps; the directive's end is kept.
		{"cpp", "#define M(m, ...) G(, , m, 2, __VA_ARGS__)", "#define M(m, ...) \\\n  G(, , m, 2, __VA_ARGS__)", true, "a macro's body continued on the next line"},
		{"cpp", "#define M(m) G(m)\nint x;", "#define M(m) G(m) \\\nint x;", false, "a continuation that takes in the next line"},
		// String literals written next to each other are the one literal
		// the compiler makes: clang-format splits a long one.
		{"cpp", `f("a hierarchy that already has a "` + "\n" + `  "modifier");`, `f("a hierarchy that "` + "\n" + `  "already has a "` + "\n" + `  "modifier");`, true, "a string literal split elsewhere"},
		{"cpp", `f("ab");`, `f("a", "b");`, false, "two arguments are not one literal"},
		{"cpp", `f("ab");`, `f("a" "c");`, false, "a joined literal's content"},
		{"cpp", `s = "\x12";`, `s = "\x1" "2";`, false, "a hexadecimal escape is not continued"},
		{"cpp", `s = "a\n" "b";`, `s = R"(a\n)" "b";`, false, "a raw string's backslash is no escape"},
		{"cpp", `s = "a" "b"_s;`, `s = "ab"_s;`, true, "a user-defined literal's string split"},
		{"cpp", `s = "a" "b"_s;`, `s = "ab"_t;`, false, "a user-defined literal's suffix"},
		// #include lines, which clang-format sorts (and Google's styles
		// regroup).
		{"cpp", "#include <vector>\n\n#include \"a.h\"\n#include <map>\nint x;", "#include \"a.h\"\n\n#include <map>\n#include <vector>\nint x;", true, "#include lines regrouped"},
		{"cpp", "#include <vector>\n#include <map>\nint x;", "#include <map>\n#include <vector>\nint x;", true, "a block sorted"},
		{"cpp", "#include <vector> // before map\n#include <map>\nint x;", "#include <map>\n#include <vector> // before map\nint x;", false, "a commented run keeps its order"},
		{"cpp", "#include <vector>\n#include <map>", "#include <vector>\n#include <set>", false, "what a line includes"},
		{"cpp", "#include <b>\n#if X\n#include <a>\n#endif", "#include <a>\n#if X\n#include <b>\n#endif", false, "an include moved into a conditional"},
		// Runs of using-declarations, which clang-format sorts.
		{"cpp", "void f(int a) {\n  using std::swap;\n  using std::begin;\n  swap(a, a);\n}", "void f(int a) {\n  using std::begin;\n  using std::swap;\n  swap(a, a);\n}", true, "using-declarations sorted in a block"},
		{"cpp", "struct D : B, A {\n  using B::g;\n  using A::f;\n};", "struct D : B, A {\n  using A::f;\n  using B::g;\n};", true, "using-declarations sorted in a class"},
		{"cpp", "void f(int a) {\n  using std::swap;\n  swap(a, a);\n  using std::begin;\n}", "void f(int a) {\n  using std::begin;\n  swap(a, a);\n  using std::swap;\n}", false, "a using-declaration moved past a call"},
		{"cpp", "using std::swap;\nusing std::begin;", "using std::sort;\nusing std::begin;", false, "a using-declaration's name"},
		{"cpp", "using ns::E;\nusing E::kRed;", "using E::kRed;\nusing ns::E;", false, "an enumerator through an enumeration brought in before"},
		{"cpp", "using A = B;\nusing B = int;", "using B = int;\nusing A = B;", false, "aliases keep their order"},
	})
}
