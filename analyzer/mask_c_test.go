package analyzer

import (
	"strings"
	"testing"
)

// TestMaskC checks what maskC writes over before the C grammar reads a
// file, and what it leaves as written: each pass, and its look-alikes.
func TestMaskC(t *testing.T) {
	for _, c := range []struct {
		src  string
		gone []string // text the masked copy no longer holds
		kept []string // text it still holds
		why  string
	}{
		{"#ifdef __cplusplus\nextern \"C\"\n#endif\nvoid *alloca(size_t);", []string{`extern "C"`}, []string{"void *alloca"}, "a branch only C++ reads"},
		{"#if defined(__cplusplus)\nextern \"C\" {\n#else\nint c;\n#endif", []string{`extern "C"`}, []string{"int c;"}, "a defined(__cplusplus) branch, its #else kept"},
		{"#ifndef __cplusplus\nint c;\n#endif", nil, []string{"int c;"}, "a branch C reads"},
		{"void f(void) {\n  if (a) {\n#ifdef DEC\n    if (b) {\n#endif\n      g();\n#ifdef DEC\n    }\n#endif\n  }\n}", []string{"if (b) {"}, []string{"g();", "if (a) {"}, "a brace opened under one #ifdef, closed under another"},
		{"#ifndef NO_X\nvoid f(void) {\n#endif\n}", nil, []string{"void f(void) {"}, "a negated group, which a compiler reads"},
		{"#ifdef NAN_CHECK\nstatic int match(const char **sp) {\n  return 1;\n#ifndef NO_HEX\n}\n#endif\n#endif", nil, []string{"static int match"}, "a top-level group, unbalanced, that holds a definition"},
		{"#ifdef X\nint f(void) { return 1; }\n#endif", nil, []string{"int f(void)"}, "a balanced group of one branch"},
		{"int f(void) {\n  use = version() >=\n#if defined(__hppa__)\n    0x060133\n#else\n    0x050ABA\n#endif\n    ? 1 : -1;\n}", []string{"0x060133"}, []string{"0x050ABA"}, "an operand that differs by platform"},
		{"int f(void) {\n#ifdef _WIN32\n  if (localtime_s(tm, &t))\n#else\n  if (localtime_r(&t, tm) == NULL)\n#endif\n    t = 0;\n}", []string{"localtime_s"}, []string{"localtime_r"}, "an if's condition written twice"},
		{"#ifdef _WIN32\nint f(void) { return 1; }\n#else\nint f(void) { return 2; }\n#endif", nil, []string{"return 1", "return 2"}, "whole definitions in both branches"},
		{"#if DPUN==1\r\n  #define TABLE {0,1,  \\\r\n    2,3}\r\n#elif DPUN==2\r\n  #define TABLE {0,1}\r\n#endif\r\n", nil, []string{"{0,1,", "{0,1}"}, "a directive continued past a carriage return"},
		{"#if defined(__APPLE__) || \\\n    defined(__OpenBSD__)\n# define E_A (-1)\n#endif\n#if defined(E_B)\n# define E_B_ERR E(E_B)\n#else\n# define E_B_ERR (-2)\n#endif", nil, []string{"E(E_B)", "(-2)"}, "a directive continued on a line that ends with a parenthesis"},
		{"#ifdef _WIN32\nHANDLE open_it(void)\n#else\nint open_it(void)\n#endif\n{\n}", nil, []string{"HANDLE", "int open_it"}, "a top-level header per platform is left as written"},
		{"void f(void) {\n  list_for_each(p, &head) {\n    g(p);\n  }\n}", []string{"list_for_each"}, []string{"while        (p, &head) {"}, "a loop macro's name"},
		{"void f(void) {\n  EACH(p)\n  {\n    g(p);\n  }\n}", []string{"EACH"}, []string{"if  (p)"}, "a short loop macro, its block on the next line"},
		{"#ifdef __cplusplus\nextern \"C\"\n{\n#endif\n  static inline int\n  lookup (const T *self)\n  {\n    return 0;\n  }\n", nil, []string{"lookup (const T *self)"}, "a declarator after its return type, indented (GNU style in extern \"C\")"},
		{"void f(void) {\n  g(p);\n  if (x) {\n  }\n  while (y) {\n  }\n}", nil, []string{"g(p);", "if (x) {", "while (y) {"}, "calls and C's own statements"},
		{"#define FOREACH(x) \\\n  for_each(x) { \\\n  }", nil, []string{"for_each(x)"}, "a macro's body"},
		{"RB_GENERATE_STATIC(root, node, entry, cmp)\n\nstatic int f(void) {\n  return 0;\n}", []string{"RB_GENERATE_STATIC"}, []string{"static int f"}, "a top-level macro without its semicolon"},
		{"TAILQ_HEAD(queue, item);\nint x;", []string{"TAILQ_HEAD"}, []string{"int x;"}, "a top-level macro with it"},
		{"TEST_SETUP(Production)\n{\n  n = 0;\n}", nil, []string{"TEST_SETUP(Production)"}, "a top-level macro a block follows"},
		{"DEFINE_THING(a) = 1;", nil, []string{"DEFINE_THING(a) = 1;"}, "a macro in a declaration"},
		{"main(argc, argv) {\n}", nil, []string{"main(argc, argv)"}, "a K&R definition without its type"},
		{"#define BINOP(n) static int f_##n(int a) { \\\n  return a; \\\n}\nBINOPS\n#undef BINOP\nint x;", []string{"BINOPS"}, []string{"int x;"}, "an X-macro alone on its line"},
		{"enum e {\nA,\nB\n};", nil, []string{"A,", "B"}, "an enumerator"},
		{"static const struct f list[] = {\n  F(neg, 1),\n#define BINOP(n) F(n, 3),\nBINOPS\n#undef BINOP\n  F(dump, 1),\n};", []string{"BINOPS"}, []string{"F(dump, 1),"}, "an X-macro in a table"},
		{"int x;\nBOOL\nis_ready(void)\n{\n}", nil, []string{"BOOL"}, "a return type on its own line"},
		{"char *f(void);\n\nATTR_NONNULL\nstatic inline char *g(const char *s) {\n  return 0;\n}", nil, []string{"ATTR_NONNULL"}, "an attribute on the line above a declaration"},
		{"static const struct f list[] = {\n#include \"libm.h\"\n  F(neg, 1),\n#define B(n) \\\n  F(n, 3),\n#undef B\n};", []string{"#include", "#define", "F(n, 3)", "#undef"}, []string{"F(neg, 1),"}, "directives in a table"},
		{"#define TOP 1\n#include \"a.h\"\nint f(void) {\n  return \"{\";\n}\n#define AFTER 2", nil, []string{"#define TOP 1", "#include", "#define AFTER 2"}, "top-level directives, after a brace in a string"},
		{"int f(void) {\n#ifdef X\n  g();\n#endif\n}", nil, []string{"#ifdef X", "#endif"}, "a conditional in a body"},
	} {
		out, _ := maskC([]byte(c.src), nil)
		if len(out) != len(c.src) || strings.Count(string(out), "\n") != strings.Count(c.src, "\n") {
			t.Errorf("%s: the masked copy has %d bytes (%d lines), the source %d", c.why, len(out), strings.Count(string(out), "\n"), len(c.src))
		}
		for _, g := range c.gone {
			if strings.Contains(string(out), g) {
				t.Errorf("%s: %q not masked:\n%s", c.why, g, out)
			}
		}
		for _, k := range c.kept {
			if !strings.Contains(string(out), k) {
				t.Errorf("%s: %q masked:\n%s", c.why, k, out)
			}
		}
	}
}
