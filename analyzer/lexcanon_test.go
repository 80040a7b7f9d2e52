package analyzer

import (
	"strings"
	"testing"
)

// canonCase is a pair of sources and whether their format 2 shapes must
// be equal (a formatter's rewrite) or differ (a change of behaviour).
type canonCase struct {
	lang, a, b string
	same       bool
	why        string
}

// TestCanonicalFormatting checks, per language, the rewrites formatters
// make (equal shapes) next to the changes of behaviour that look like
// them (different shapes): what a too lax normalisation would miss.
func TestCanonicalFormatting(t *testing.T) {
	cases := []canonCase{
		// Go
		{"go", "x := []int{1, 2}", "x := []int{\n\t1,\n\t2,\n}", true, "trailing comma"},
		{"go", "func f(a int, b int) {}", "func f(a, b int) {}", true, "grouped parameters"},
		{"go", "func f(a int, b int) {}", "func f(a, b int64) {}", false, "a parameter's type"},
		{"go", "f := func(a, b int) {}", "f := func(a int, b int) {}", true, "grouped parameters of a literal"},
		{"go", "f(a, b)", "f(a int, b)", false, "a call is not a parameter list"},
		{"go", "func f() {\n\tvar x = g()\n}", "func f() {\n\tx := g()\n}", true, "short variable declaration"},
		{"go", "func f() {\n\tx = g()\n}", "func f() {\n\tx := g()\n}", false, "assignment is not declaration"},
		{"go", "var (\n\tx = 1\n)", "var x = 1", true, "a group of one"},
		{"go", "var (\n\tx = 1\n\ty = 2\n)", "var x = 1\nvar y = 2x", false, "a group of two"},
		{"go", "var (\n\tx = 1\n\ty = 2\n)", "var x = 1\nvar y = 2", true, "a group of two, ungrouped"},
		{"go", "const A = \"a\"\nconst B = \"b\"\n", "const (\n\tA = \"a\"\n\tB = \"b\"\n)\n", true, "adjacent constants grouped (gofumpt)"},
		{"go", "type (\n\tT int\n\tU string\n)", "type T int\ntype U string", true, "a type group"},
		{"go", "const (\n\tA = iota\n\tB\n)", "const A = iota\nconst B", false, "iota counts in a group"},
		{"go", "const (\n\tA = 1\n\tB\n)", "const A = 1\nconst B = 1", false, "a constant that repeats the one before"},
		{"go", "const (\n\tA = iota\n\tB = iota\n)", "const A = iota\nconst B = iota", false, "iota is the spec's index"},
		{"go", "os.Chmod(p, 0755)", "os.Chmod(p, 0o755)", true, "octal prefix"},
		{"go", "os.Chmod(p, 0755)", "os.Chmod(p, 755)", false, "octal is not decimal"},
		{"go", "x := 0XFF + 1E3", "x := 0xff + 1e3", true, "letter case in numbers"},
		{"go", "x := 1e3", "x := 1000", false, "a float is not an int"},
		{"go", "x := 1_000", "x := 1000", true, "digit separators"},
		{"go", "func f() (n int, err error) {\n\treturn\n}", "func f() (n int, err error) {\n\treturn n, err\n}", true, "bare return of named results"},
		{"go", "func f() (n int, err error) {\n\treturn\n}", "func f() (n int, err error) {\n\treturn err, n\n}", false, "results swapped"},
		{"go", "func f() {\n\treturn\n\tg()\n}", "func f() {\n\treturn g()\n}", false, "a line break after return"},
		{"go", "if x { a() }", "if x {\n\ta()\n}", true, "a one-line block"},
		{"go", "x := (a + b) * c", "x := a + b*c", false, "precedence parentheses"},
		{"go", `s := "a\tb"`, `s := "a	b"`, false, "an escape is not its character"},
		{"go", "// doc\nfunc f() {}", "// reworded doc\nfunc f() {}", true, "comments"},

		// JavaScript and TypeScript
		{"javascript", "var ex = async ? f(async) : g();", "var ex = async\n  ? f(async)\n  : g();", true, "async, a name, before a line break"},
		{"javascript", "class A {\n  async\n  foo() {}\n}", "class A {\n  async foo() {}\n}", false, "async before a line break in a class: a field"},
		{"javascript", "class A {\n  async\n  [k]() {}\n}", "class A {\n  async [k]() {}\n}", false, "async before a line break in a class: a field, then a computed name"},
		{"javascript", "for (;;) max = v, i = j;", "for (;;) (max = v), (i = j);", true, "assignments in a sequence, after a loop's head"},
		{"javascript", "f();\nstart <<= 2, stop <<= 2;", "f();\n(start <<= 2), (stop <<= 2);", true, "assignments in a sequence, after a statement"},
		{"javascript", "if (r) a = 1, b = 2;", "if (r) (a = 1), (b = 2);", true, "a sequence after an if's head"},
		{"javascript", "g(r) (a = 1), (b = 2);", "g(r) a = 1, b = 2;", false, "a call's arguments are not an if's head"},
		{"javascript", "x.if(r) (a = 1), b;", "x.if(r) a = 1, b;", false, "a method named if"},
		{"javascript", "f()\n;({ a } = b), c;", "f()\n;{ a } = b, c;", false, "a block is not an object pattern"},
		{"javascript", "f()\n;(function () {}), c;", "f()\nfunction () {}, c;", false, "a declaration is not a function expression"},
		{"javascript", "x = [a, (b = c)];", "x = [a, b = c];", true, "an element's parentheses"},
		{"javascript", "x = (a, b), c;", "x = a, b, c;", false, "a group with a comma after an assignment"},
		{"javascript", "f();\n(a, b), c;", "f();\na, b, c;", true, "a sequence in a sequence"},
		{"javascript", "f();\n((max = v), (i = j));", "f();\nmax = v, i = j;", true, "a sequence statement's parentheses"},
		{"javascript", "f(((max = v), (i = j)));", "f(max = v, i = j);", false, "one argument is not two"},
		{"javascript", "x = y\n;((max = v), (i = j))", "x = y\nmax = v, i = j", true, "a sequence statement's parentheses without semicolons"},
		{"javascript", "x = y\n;((a)(b), c)", "x = y\n(a)(b), c", false, "a statement beginning with a group keeps its semicolon"},
		{"typescript", "interface I {\n  (a): void\n}", "interface I {\n  a: void\n}", false, "a call signature"},
		{"javascript", "for (x; (a = 1), b; ) {}", "for (x; a = 1, b; ) {}", true, "a sequence in a loop's head"},
		{"javascript", "if (a);\n(b = 1), c;", "if (a)\nb = 1, c;", false, "an if's empty body before a sequence"},
		{"javascript", "function f() {\n  return\n  (a = 1), b;\n}", "function f() {\n  return a = 1, b;\n}", false, "a return's line break before a sequence"},
		{"javascript", "x = y\n;(a = 1), b", "x = y\na = 1, b", true, "a statement's semicolon written for its parentheses"},
		{"javascript", "x = y\n;(a = 1)\n", "x = y\na = 1\n", true, "a whole statement's parentheses"},
		{"javascript", "var h = f(\"Hole\", {\n  doc: 1,\n  value: function () {}(),\n});", "var h = f(\"Hole\", {\n  doc: 1,\n  value: (function () {})(),\n});", true, "a property's called function"},
		{"javascript", "switch (x) {\n  case a, b: (function () {})();\n}", "switch (x) {\n  case a, b: function () {}();\n}", false, "a case's statement is not a property's value"},
		{"javascript", "{\n  a: (function () {})();\n}", "{\n  a: function () {}();\n}", false, "a label's statement is not a property's value"},
		{"javascript", "function f() {\n  return [a, b] = x, g();\n}", "function f() {\n  return ([a, b] = x), g();\n}", true, "an assignment in a returned sequence"},
		{"javascript", "function f() {\n  return a = (b, c);\n}", "function f() {\n  return (a = b), c;\n}", false, "a sequence assigned is not a sequence returned"},
		{"javascript", "function f() {\n  return [a, b] = x, g();\n}", "function f() {\n  return (([a, b] = x), g());\n}", true, "a returned sequence's parentheses"},
		{"javascript", "x = () => (a, b);", "x = () => a, b;", false, "an arrow function's sequence body"},
		{"typescript", "export class C<T> implements I, J<T> {\n  m() {\n    a()\n    b()\n  }\n}", "export class C<T>\n  implements I, J<T>\n{\n  m() {\n    a();\n    b();\n  }\n}", true, "a class header broken before implements"},
		{"typescript", "p.catch(() => {})\nmap[k] = v", "p.catch(() => {});\nmap[k] = v;", true, "a method named catch is no catch clause"},
		{"typescript", "p.catch(() => {});\n[k] = v", "p.catch(() => {})\n[k] = v", false, "a line beginning with [ continues the statement"},
		{"typescript", "export function f<E>(): Fn<\n  void,\n  {}\n> {\n  return function () {\n    g()\n  }\n}", "export function f<E>(): Fn<void, {}> {\n  return function () {\n    g();\n  };\n}", true, "an object type in a return type's arguments is no body"},
		{"javascript", "x += (a ? b : c);", "x += a ? b : c;", true, "a compound assignment's whole right operand"},
		{"javascript", "x ??= (a || b);", "x ??= a || b;", true, "a logical assignment's whole right operand"},
		{"javascript", "x += (a, b);", "x += a, b;", false, "a comma inside the right operand"},
		{"javascript", "x = y - (a - b);", "x = y - a - b;", false, "a part of the right operand"},
		{"javascript", "x <= (a ? b : c);", "x <= a ? b : c;", false, "a comparison is not an assignment"},
		{"javascript", "var b = v._b;;\nthis._v = v;", "var b = v._b;\nthis._v = v;", true, "an empty statement after a statement"},
		{"javascript", "for (;;b) {}", "for (;b;) {}", false, "a for loop's update is not its condition"},
		{"javascript", "if (a);\nb();", "if (a)\nb();", false, "an if's empty body"},
		{"javascript", "while (a);;\nb();", "while (a);\nb();", true, "an empty statement after an empty body"},
		{"typescript", "f('a')", `f("a")`, true, "quote style"},
		{"typescript", `f('it\'s')`, `f("it's")`, true, "quote style with an escaped quote"},
		{"typescript", "f('a')", "f('b')", false, "a string's content"},
		{"typescript", "f('a')", "f(`a`)", false, "a template is not a string"},
		{"typescript", "x = `a ${b + c}`", "x = `a ${\n  b +\n  c\n}`", true, "a line split inside a substitution"},
		{"typescript", "x = `a ${b}`", "x = `a  ${b}`", false, "a template's text"},
		{"typescript", "a();\nb()", "a()\nb()", true, "optional semicolon"},
		{"typescript", "a();\n(b || c).d()", "a()\n;(b || c).d()", true, "a semicolon before a line starting with ("},
		{"typescript", "a();\n(b || c).d()", "a()\n(b || c).d()", false, "a removed semicolon that joins two statements"},
		{"typescript", "a = b;\n[c, d] = e", "a = b\n[c, d] = e", false, "a removed semicolon before ["},
		{"typescript", "function f() {\n  return;\n  x\n}", "function f() {\n  return x\n}", false, "return; x"},
		{"typescript", "function f() {\n  return\n  x\n}", "function f() {\n  return x\n}", false, "a line break after return"},
		{"typescript", "a\n++b", "a++\nb", false, "++ after a line break"},
		{"typescript", "if (x);\ny()", "if (x)\ny()", false, "an empty statement as the body"},
		{"typescript", "if (x) {}\n(a || b).c()", "if (x) {}\n;(a || b).c()", true, "a semicolon after a block"},
		{"typescript", "x = {}\n(a || b).c()", "x = {};\n(a || b).c()", false, "a semicolon after an object literal"},
		{"typescript", "f(a, b,)", "f(a, b)", true, "trailing comma"},
		{"typescript", "x = [a,,]", "x = [a,]", false, "an array hole"},
		{"typescript", "x = [,]", "x = []", false, "an array of one hole"},
		{"typescript", "x = (a * b) + c", "x = a * b + c", true, "redundant parentheses"},
		{"typescript", "x = (a && b) || c", "x = a && b || c", true, "prettier's clarifying parentheses"},
		{"typescript", "x = (a + b) * c", "x = a + b * c", false, "parentheses that group"},
		{"typescript", "x = { B: (1 << 0) as D }", "x = { B: 1 << 0 as D }", true, "prettier's parentheses before as"},
		{"typescript", "x = (a < b) satisfies T", "x = a < b satisfies T", true, "equal precedence before satisfies"},
		{"typescript", "x = (a || b) as T", "x = a || b as T", false, "|| binds less than as"},
		{"typescript", "x = (a ?? b) as T", "x = a ?? b as T", false, "?? binds less than as"},
		{"typescript", "export const K = (Impl as any) as {\n  new (): T\n}", "export const K = Impl as any as {\n  new (): T\n}", true, "an assertion asserted again (prettier 2.3)"},
		{"typescript", "x = size((this as unknown) as C, true)", "x = size(this as unknown as C, true)", true, "an assertion asserted again, as an argument"},
		{"typescript", "k = ((c.config as any) as L).keyCodes", "k = (c.config as any as L).keyCodes", true, "an assertion asserted again, in a member's group"},
		{"typescript", "x = (y as Record<K, V>) satisfies T", "x = y as Record<K, V> satisfies T", true, "an assertion to a generic type asserted again"},
		{"typescript", "x = a + (b as T) as U", "x = a + b as T as U", false, "+ binds more tightly than as"},
		{"typescript", "x = (a < b as T) as U", "x = a < b as T as U", false, "an assertion of a comparison, left alone"},
		{"typescript", "x = !(b as T) as U", "x = !b as T as U", false, "a negated assertion"},
		{"typescript", "type U<T> = (T extends any ? (k: T) => void : never) extends ((k: infer I) => void) ? I : never", "type U<T> = (T extends any ? (k: T) => void : never) extends (k: infer I) => void ? I : never", true, "a conditional type's tested type (prettier 2.3)"},
		{"typescript", "type D<T> = { [K in keyof T]?: T[K] extends (\n | A\n | Function) ? T[K] : B }", "type D<T> = { [K in keyof T]?: T[K] extends\n | A\n | Function ? T[K] : B }", true, "a conditional type's tested union"},
		{"typescript", "type U<T> = (T extends any ? A : B) extends C ? I : never", "type U<T> = T extends any ? A : B extends C ? I : never", false, "a conditional type tested"},
		{"typescript", "type X<T> = T extends (A extends B ? C : D) ? E : F", "type X<T> = T extends A extends B ? C : D ? E : F", false, "a conditional type tested against"},
		{"typescript", "type R = | A\n  | (A)[]", "type R = | A\n  | A[]", true, "an array of a parenthesised name"},
		{"typescript", "x = (a.b)[0]", "x = a.b[0]", true, "a member's element"},
		{"typescript", "type K = (keyof T)[]", "type K = keyof T[]", false, "an array of keys"},
		{"typescript", "type K = (A | B)[]", "type K = A | B[]", false, "an array of a union"},
		{"typescript", "x = (a?.b)[0]", "x = a?.b[0]", false, "an optional chain's element"},
		{"typescript", "x = y\n(a)[0]", "x = y\na[0]", false, "a call's parentheses"},
		{"typescript", "type L = { group: typeof groups[number]['name'] }", "type L = { group: (typeof groups)[number]['name'] }", true, "a type query indexed (prettier 2.8)"},
		{"typescript", "type L = typeof a.b[number]", "type L = (typeof a.b)[number]", true, "a type query of a member indexed"},
		{"typescript", "type V = typeof C[keyof typeof C]", "type V = (typeof C)[keyof typeof C]", true, "a type query indexed by its keys"},
		{"typescript", "x = typeof a[0]", "x = (typeof a)[0]", false, "an expression's typeof indexed"},
		{"typescript", "const fn = a ||\u00a0(b && c)", "const fn = a || b && c", true, "a no-break space"},
		{"typescript", "interface S {\n  a?: number\n  'xlinkHref'?: string\n  'x-height'?: number\n}", "interface S {\n  a?: number\n  xlinkHref?: string\n  'x-height'?: number\n}", true, "quoted keys of optional type members"},
		{"typescript", "x = c ? 'k' : d", "x = c ? k : d", false, "a string in a conditional"},
		{"typescript", "x = { ...(a && !b || c ? m : {}), d: m }", "x = { ...((a && !b) || c ? m : {}), d: m }", true, "clarifying parentheses after a spread"},
		{"typescript", "type T = [...(A | B)[]]", "type T = [...A | B[]]", false, "a spread array of a union"},
		{"typescript", "x = a\u00a0b", "x = ab", false, "a no-break space between names"},
		{"typescript", "x = a - (b - c)", "x = a - b - c", false, "a right operand's parentheses"},
		{"typescript", "x = 'a' + (1 + 2)", "x = 'a' + 1 + 2", false, "string concatenation order"},
		{"typescript", "x = (a ?? b) || c", "x = a ?? b || c", false, "?? does not mix with ||"},
		{"typescript", "x = (a, b)", "x = a, b", false, "a comma expression"},
		{"typescript", "return (\n  a && b\n)", "return a && b", true, "parentheses around a return value"},
		{"typescript", "x = a && (!b)", "x = a && !b", true, "parentheses around a prefix operation"},
		{"typescript", "x = (typeof a) === 'b'", "x = typeof a === 'b'", true, "parentheses around typeof"},
		{"typescript", "x = (-a) ** 2", "x = -a ** 2", false, "a prefix operation before **"},
		{"typescript", "x = (!a).b", "x = !a.b", false, "a prefix operation before a member"},
		{"typescript", "f(a, (b = c))", "f(a, b = c)", true, "parentheses around an argument"},
		{"typescript", "f(a, (b, c))", "f(a, b, c)", false, "a comma expression as an argument"},
		{"typescript", "f(a, (b) => c)", "f(a, b => c)", true, "an arrow function's parameter"},
		{"typescript", "f(a, (b) => c)", "f(a, b) => c", false, "an argument is not a parameter"},
		{"typescript", "x = a >= (b & c)", "x = a >= b & c", false, "the = of >= is no assignment"},
		{"typescript", "x >>= (b & c)", "x >>= b & c", true, "the right side of >>="},

		// C: clang-format
		{"c", "#define M(a) \\\n  f(a); g(a)", "#define M(a) f(a); \\\n  g(a)", true, "a macro's line continuations"},
		{"c", "#define M(a) f(a); g(a)", "#define M(a) f(a); \\\n  h(a)", false, "a macro's statement"},
		{"c", "s = \"a b\";", "s = \"a \"\n    \"b\";", true, "a string literal split"},
		{"c", "s = \"\\x12\";", "s = \"\\x1\" \"2\";", false, "a hexadecimal escape is not continued"},
		{"c", "s = \"ab\";", "s = \"a\" \"c\";", false, "a joined literal's content"},
		{"c", "#include <sys/types.h>\n\n#include \"tmux.h\"\n#include <errno.h>\nint x;", "#include <errno.h>\n#include <sys/types.h>\n\n#include \"tmux.h\"\nint x;", true, "#include lines sorted and regrouped"},
		{"c", "#include <a.h>\n#include <b.h>", "#include <a.h>\n#include <c.h>", false, "what a line includes"},
		{"c", "#include <unistd.h>\n#include <net/if.h>\n#include <sys/socket.h>", "#include <unistd.h>\n#include <sys/socket.h>\n#include <net/if.h> // after sys/socket.h", false, "a header moved where a comment says why (htop 347084b8b8)"},
		{"c", "#include <b.h>\n#define X 1\n#include <a.h>", "#include <a.h>\n#define X 1\n#include <b.h>", false, "an include moved past a #define"},
		{"c", "#include <b.h>\nint x;\n#include <a.h>", "#include <a.h>\nint x;\n#include <b.h>", false, "an include moved past a declaration"},

		// Java: prettier's Java plugin
		{"java", "package p;\nimport java.io.InputStream;\nimport java.io.IOException;\nimport static java.lang.Math.max;\nclass A {}", "package p;\n\nimport static java.lang.Math.max;\n\nimport java.io.IOException;\nimport java.io.InputStream;\n\nclass A {}", true, "imports sorted, static ones first"},
		{"java", "import java.io.InputStream;\nimport java.io.IOException;\nclass A { InputStream in; IOException e; }", "import java.io.InputStream;\nimport java.io.OutputStream;\nclass A { InputStream in; OutputStream e; }", false, "what is imported"},
		{"java", "import java.util.Date;\nimport java.util.List;\nclass A { List<String> l; }", "import java.util.List;\nclass A { List<String> l; }", true, "an unused import removed (google-java-format)"},
		{"java", "import java.util.Date;\nclass A { Date d; }", "class A { Date d; }", false, "a used import removed"},
		{"java", "package java.util;\nimport java.util.Date;\nclass A { Date d; }", "package java.util;\nclass A { Date d; }", true, "an import from the file's own package removed"},
		{"java", "package p;\nimport X;\nimport static Y;\nimport;\nclass A { X x; }", "package p;\nimport X;\nimport static Y;\nimport;\nclass A { X x; }", true, "imports without a qualifier (not Java, but read)"},
		{"java", "interface G { default void f() { g(); };\n int h(); }", "interface G { default void f() { g(); }\n int h(); }", true, "an empty declaration after a method (prettier's Java plugin)"},
		{"java", "import a.B;\nimport static a.B.c;\nclass A { B b = c(); }", "import a.B;\nimport a.B.c;\nclass A { B b = c(); }", false, "a static import is not a type's"},
		{"java", "import b.C;\nclass A {}\nimport a.B;", "import a.B;\nclass A {}\nimport b.C;", false, "an import moved past a class"},
		{"java", "x += (a ? 1 : 2);", "x += a ? 1 : 2;", true, "a compound assignment's whole right operand"},
		{"java", "x -= (a - b);", "x -= a - b;", true, "a compound assignment's whole right operand, an operation"},
		{"java", "x = y - (a - b);", "x = y - a - b;", false, "a part of an assignment's right operand"},
		{"java", "return (\n  a && b\n);", "return a && b;", true, "parentheses around a return value"},
		{"java", "long x = (A * 5L) - (B * 3L);", "long x = A * 5L - (B * 3L);", true, "prettier-java's clarifying parentheses"},
		{"java", "long x = a - (b - c);", "long x = a - b - c;", false, "a right operand's parentheses"},
		{"java", "String s = \"a\" + (b + c);", "String s = \"a\" + b + c;", false, "string concatenation order"},
		{"java", "if ((a & b) != 0) {}", "if (a & b != 0) {}", false, "== binds tighter than &"},
		{"java", "if ((t % 10) == 0) {}", "if (t % 10 == 0) {}", true, "% binds tighter than =="},
		{"java", "x = (a >> 2) + b;", "x = a >> 2 + b;", false, "+ binds tighter than >>"},
		{"java", "x = (a + b) >>> 2;", "x = a + b >>> 2;", true, "a shift binds less than +"},
		{"java", "return (o instanceof Map.Entry<?, ?> e && e.getKey() == k);", "return o instanceof Map.Entry<?, ?> e && e.getKey() == k;", true, "a type argument's comma"},
		{"java", "x = (T) y;", "x = T y;", false, "a cast"},
		{"java", "x = (List<T>) y;", "x = List<T> y;", false, "a cast to a generic type"},
		{"java", "x = (int) (a + b);", "x = (int) a + b;", false, "a cast's operand"},
		{"java", "f(h, (t = h.next));", "f(h, t = h.next);", true, "an assignment as an argument"},
		{"java", "f(this, (v ? 1 : 0));", "f(this, v ? 1 : 0);", true, "a conditional as an argument"},
		{"java", "if (a && (!b)) {}", "if (a && !b) {}", true, "a negation's parentheses"},
		{"java", "x = a ? (b) : c;", "x = a ? b : c;", true, "a conditional's middle"},
		{"java", "case 2 -> (a.b() ? 29 : 28);", "case 2 -> a.b() ? 29 : 28;", true, "a switch rule's value"},
		{"java", "return (v) -> test(v);", "return v -> test(v);", true, "a lambda's one parameter"},
		{"java", "return (a, b) -> a + b;", "return a, b -> a + b;", false, "a lambda's two parameters"},
		{"java", "x = a >= (b & c);", "x = a >= b & c;", false, "the = of >= is no assignment"},
		{"java", "x = a == (b == c);", "x = a == b == c;", false, "equality is not associative"},
		{"java", "throw new E(\"no value is present for this key\");", "throw new E(\"no value is present\"\n    + \" for this key\");", true, "google-java-format's long string split"},
		{"java", "f(\"ab\");", "f(\"a\" + \"b\" + \"\");", true, "literals joined"},
		{"java", "f(\"ab\");", "f(\"a\" + \"c\");", false, "a joined literal's content"},
		{"java", "f(\"ab\".length());", "f(\"a\" + \"b\".length());", false, "a method of the last literal"},
		{"java", "f(\"\\12\");", "f(\"\\1\" + \"2\");", false, "an octal escape is not continued"},
		{"java", "f(x + \"ab\");", "f(x + \"a\" + \"b\");", true, "literals joined after another operand"},
		{"java", "static abstract sealed class A {}", "abstract static sealed class A {}", true, "modifier order"},
		{"java", "final static int X = 1;", "static final int X = 1;", true, "modifier order of a constant"},
		{"java", "static int X = 1;", "final int X = 1;", false, "another modifier"},
		{"java", "int f(byte b[], int n) {}", "int f(byte[] b, int n) {}", true, "an array declarator's brackets"},
		{"java", "int[] a[];", "int[][] a;", true, "brackets on both sides"},
		{"java", "void f() { try (final InputStream in = open(); @A final Out o = out()) { g(); } }", "void f() { try (InputStream in = open(); @A Out o = out()) { g(); } }", true, "a resource's redundant final"},
		{"java", "void f() { try (In in = open()) { final int x = 1; } }", "void f() { try (In in = open()) { int x = 1; } }", false, "a final in the try block counts"},
		{"java", "class A { K a, b; V c; }", "class A { K a; K b; V c; }", true, "fields declared together"},
		{"java", "class A { @Ann static Map<K, V> a = f(1, 2), b[] = {1, 2}; }", "class A { @Ann static Map<K, V> a = f(1, 2); @Ann static Map<K, V>[] b = {1, 2}; }", true, "declarators with annotations, type arguments, brackets, initialisers"},
		{"java", "void f() { int a = 1, b; g(); }", "void f() { int a = 1; int b; g(); }", true, "local variables declared together"},
		{"java", "class A { int a, b; }", "class A { int a; long b; }", false, "each declarator keeps the one type"},
		{"java", "class A { int f() { return 1; } int a, b; }", "class A { int f() { return 1; } int a; int f() b; }", false, "a method's head is not a field's"},
		{"java", "int f(byte b[]) {}", "int f(byte b) {}", false, "an array is not its element"},
		{"java", "assert (x > 0) : \"neg\";", "assert x > 0 : \"neg\";", true, "an assertion's condition"},
		{"java", "x = a || (b || c);", "x = a || b || c;", true, "|| associates"},
		{"java", "x = a - (b - c);", "x = a - b - c;", false, "- does not associate"},
		{"java", "if (!((boolean) p.invoke(x))) {}", "if (!(boolean) p.invoke(x)) {}", true, "a cast after !"},
		{"java", "x = (int) -y;", "x = int - y;", false, "a cast of a negation"},
		{"java", "if (q != (s.length())) {}", "if (q != s.length()) {}", true, "a call's parentheses"},
		{"java", "x = (a.b) + c;", "x = a.b + c;", true, "a member's parentheses"},
		{"java", "x = ((Foo) a).b;", "x = (Foo) a.b;", false, "a cast's parentheses before a member"},
		{"java", "x = (a + b).c;", "x = a + b.c;", false, "a sum's parentheses before a member"},
		{"java", "x = (T) (e.getSource());", "x = (T) e.getSource();", true, "a cast's operand"},
		{"java", "x = (T) (-y);", "x = (T) -y;", false, "a cast's signed operand (T - y)"},
		{"java", "t = (new URL(a, b)).toURI();", "t = new URL(a, b).toURI();", true, "a new object's member"},
		{"java", "x = ((T) a).b();", "x = (T) a.b();", false, "a cast's member"},
		{"java", "x = (-a).b();", "x = -a.b();", false, "a negation's member"},
		{"java", "if (n >= (min)) {}", "if (n >= min) {}", true, "an operand of >="},
		{"java", "if (n >= (a & b)) {}", "if (n >= a & b) {}", false, "& after >="},
		{"java", "enum E { A, B, ; void f() {} }", "enum E { A, B; void f() {} }", true, "an enum's trailing comma"},
		{"java", "enum E { A, B; }", "enum E { A, B }", true, "the semicolon after an enum's constants"},
		{"typescript", "x = a || (b || c)", "x = a || b || c", true, "|| associates"},
		{"javascript", "r = /^(.*?):$/mg", "r = /^(.*?):$/gm", true, "a regular expression's flags in order"},
		{"javascript", "var p = c ? t(type) : type\nfunction parse() {}", "var p = c ? t(type) : type;\nfunction parse() {}", true, "a variable named type before a function"},
		{"javascript", "this.type = type\nthis.n = 1", "this.type = type;\nthis.n = 1", true, "a variable named type before this"},
		{"typescript", "type\nX = 1", "type;\nX = 1", false, "type before an alias's name"},
		{"typescript", "namespace\na.b {}", "namespace;\na.b {}", false, "namespace before a dotted name and a body"},
		{"javascript", "return ((function () { return 1 })()).reverse()", "return (function () { return 1 })().reverse()", true, "a call's parentheses before its member"},
		{"javascript", "return (/^a/).test(x)", "return /^a/.test(x)", true, "a literal's parentheses before its member"},
		{"javascript", "x = (new F).m", "x = new F.m", false, "new without arguments before a member"},
		{"javascript", "x = (a?.b).c", "x = a?.b.c", false, "an optional chain before a member"},
		{"javascript", "x = (await a).b", "x = await a.b", false, "await before a member"},
		{"javascript", "x = ({}).a", "x = {}.a", false, "an object literal before a member"},
		{"javascript", "x = (a, b).c", "x = a, b.c", false, "a comma expression before a member"},
		{"javascript", "x = y || (s = new Stack)", "x = y || (s = new Stack())", true, "new's empty arguments"},
		{"javascript", "m = { map: new (Map || List) }", "m = { map: new (Map || List)() }", true, "new's empty arguments after a group"},
		{"javascript", "x = new a.B().c", "x = new a.B.c", false, "new's arguments before a member"},
		{"javascript", "x = new B()()", "x = new B()", false, "a call of the new object"},
		{"javascript", "var k = function () { return 1 }()", "var k = (function () { return 1 })()", true, "a called function's parentheses"},
		{"javascript", "(function () { f() })()", "function () { f() }()", false, "a called function at a statement's start"},
		{"javascript", "return !!m && (m in f)", "return !!m && m in f", true, "in binds tighter than &&"},
		{"javascript", "x = (k in o) ? 1 : 2", "x = k in o ? 1 : 2", true, "in binds tighter than ?:"},
		{"javascript", "x = k in (o === false)", "x = k in o === false", false, "in binds tighter than ==="},
		{"javascript", "x = { \"delete\": f, \"0\": y }", "x = { delete: f, 0: y }", true, "quoted keys that need no quotes"},
		{"javascript", "x = { \"a-b\": f }", "x = { a-b: f }", false, "a key that needs its quotes"},
		{"javascript", "x = { \"01\": f }", "x = { 01: f }", false, "\"01\" is not 01"},
		{"javascript", "switch (x) { case \"a\": f() }", "switch (x) { case a: f() }", false, "a case's string"},
		{"javascript", "x = c ? \"a\" : b", "x = c ? a : b", false, "a conditional's string"},
		{"javascript", "d.ns = namespace\nd.t = false", "d.ns = namespace;\nd.t = false", true, "a variable named namespace"},
		{"javascript", "r = /^(.*?):$/mg", "r = /^(.*?):$/g", false, "a regular expression's flag"},
		{"javascript", "r = /a/g", "r = /A/g", false, "a regular expression's body"},
		{"typescript", "x = a ?? (b || c)", "x = a ?? b || c", false, "?? does not mix with || on the right"},
		{"typescript", "f = (a) => a", "f = a => a", true, "arrow parameter parentheses"},
		{"typescript", "f = () => ({})", "f = () => {}", false, "an object literal body is not a block"},
		{"typescript", "f = (a) => (a ? b : c)", "f = (a) => a ? b : c", true, "an arrow body's parentheses"},
		{"typescript", "x = 0XFF + 1.50 + .5", "x = 0xff + 1.5 + 0.5", true, "number spelling"},
		{"typescript", "x = 1.5", "x = 1.6", false, "a number's value"},
		{"typescript", "x = 010", "x = 10", false, "010 is octal"},
		{"typescript", "x = 08", "x = 8", true, "08 is decimal"},
		{"typescript", "interface I { a: string, b: number }", "interface I {\n  a: string\n  b: number\n}", true, "type member separators"},
		{"typescript", "type T = { a: string; b: number }", "type T = {\n  a: string\n  b: number\n}", true, "type literal separators"},
		{"typescript", "let x: | A | B", "let x: A | B", true, "a union's leading bar"},
		{"typescript", "x = /'/.test(s)", "x = /\"/.test(s)", false, "a regular expression is not a string"},
		{"typescript", "/** Does f. */\nfunction f() {}", "/**\n * Does f, reworded.\n */\nfunction f() {}", true, "JSDoc"},

		// Python
		{"python", "def f():\n    \"\"\"Doc.\"\"\"\n    return 1\n", "def f():\n    '''Reworded doc.'''\n    return 1\n", true, "a docstring"},
		{"python", "def f():\n    \"\"\"Doc.\"\"\"\n    return 1\n", "def f():\n    x = \"\"\"Doc.\"\"\"\n    return 1\n", false, "a docstring turned into code"},
		{"python", "def f():\n    f\"{g()}\"\n", "def f():\n    pass\n", false, "an f-string statement runs its fields"},
		{"python", "if x: y()\n", "if x:\n    y()\n", true, "a one-line body"},
		{"python", "if a:\n    b()\nc()\n", "if a:\n    b()\n    c()\n", false, "indentation"},
		{"python", "a(); b()\n", "a()\nb()\n", true, "semicolons"},
		{"python", "x = (a,)\n", "x = (a)\n", false, "a one-element tuple"},
		{"python", "x = d[a,]\n", "x = d[a]\n", false, "a tuple index"},
		{"python", "f(a,)\n", "f(a)\n", true, "trailing comma in a call"},
		{"python", "setattr(o, n, lambda r, t=t: m(r, t))\n", "setattr(\n    o,\n    n,\n    lambda r, t=t: (\n        m(r, t)\n    ),\n)\n", true, "a lambda's body wrapped in parentheses (ruff)"},
		{"python", "f(lambda: (a, b))\n", "f(lambda: a, b)\n", false, "a lambda returning a tuple"},
		{"python", "f(lambda: (a), b)\n", "f(lambda: a, b)\n", true, "a lambda's body before the next argument"},
		{"python", "x = [\n    a,\n    b,\n]\n", "x = [a, b]\n", true, "magic trailing comma"},
		{"python", "return (\n    a and b\n)\n", "return a and b\n", true, "black's invisible parentheses"},
		{"python", "x = (a + b) * c\n", "x = a + b * c\n", false, "parentheses that group"},
		{"python", "assert (a, b)\n", "assert a, b\n", false, "assert of a tuple"},
		{"python", "x = a, (b, c)\n", "x = a, b, c\n", false, "a nested tuple"},
		{"python", "(x): int = 1\n", "x: int = 1\n", false, "a parenthesised annotated target"},
		{"python", "for (x, y) in z:\n    pass\n", "for x, y in z:\n    pass\n", true, "a for loop's target"},
		{"python", "try:\n    a()\nexcept (E):\n    pass\n", "try:\n    a()\nexcept E:\n    pass\n", true, "one exception in parentheses"},
		{"python", "class A():\n    pass\n", "class A:\n    pass\n", true, "empty class parentheses"},
		{"python", "x = 'a'\n", "x = \"a\"\n", true, "quote style"},
		{"python", "x = 'a'\n", "x = 'b'\n", false, "a string's content"},
		{"python", "x = r'\\n'\n", "x = '\\n'\n", false, "a raw string"},
		{"python", "x = re.compile(r'\\d+\\s')\n", "x = re.compile('\\d+\\s')\n", true, "a backslash that starts no escape"},
		{"python", "x = r'abc'\n", "x = 'abc'\n", true, "a raw string without a backslash"},
		{"python", "x = rb'\\d'\n", "x = b'\\d'\n", true, "bytes: a backslash that starts no escape"},
		{"python", "x = rb'\\u0041'\n", "x = b'\\u0041'\n", true, "bytes: \\u is no escape"},
		{"python", "x = r'\\u0041'\n", "x = '\\u0041'\n", false, "\\u is an escape in a string"},
		{"python", "x = r'\\d\\1'\n", "x = '\\d\\1'\n", false, "an octal escape beside a backslash that starts none"},
		{"python", "x = b'a'\n", "x = 'a'\n", false, "bytes"},
		{"python", "x = f'{a}'\n", "x = '{a}'\n", false, "an f-string"},
		{"python", "x = U'a' + F'{b}'\n", "x = 'a' + f'{b}'\n", true, "prefix case and u"},
		{"python", "x = 0XABCDEF + 1E5 + 10J\n", "x = 0xABCDEF + 1e5 + 10j\n", true, "number spelling"},
		{"python", "x = 'ab cd'\n", "x = (\n    'ab '  # first\n    \"cd\"\n)\n", true, "a string split in two"},
		{"python", "f('a' 'b', c)\n", "f('ab', c)\n", true, "adjacent strings in a call"},
		{"python", "x = 'a' \\\n    'b'\n", "x = 'ab'\n", true, "adjacent strings across a backslash"},
		{"python", "x = r'\\d' R'+'\n", "x = r'\\d+'\n", true, "adjacent raw strings"},
		{"python", "x = f'{a}' f'{b}'\n", "x = f'{a}{b}'\n", true, "adjacent f-strings"},
		{"python", "f('a' 'b')\n", "f('a', 'b')\n", false, "two arguments are not one string"},
		{"python", "x = 'a' 'b'\n", "x = 'a' + 'b'\n", false, "a + is an operator"},
		{"python", "x = f'{a}: ' 'b {c}'\n", "x = f'{a}: b {{c}}'\n", true, "an f-string and a string, its braces escaped"},
		{"python", "x = f'{a}: ' 'b {c}'\n", "x = f'{a}: b {c}'\n", false, "a string's braces are no field"},
		{"python", "x = 'a' b'b'\n", "x = 'ab'\n", false, "a string and bytes stay apart"},
		{"python", "x = '\\1' '2'\n", "x = '\\12'\n", false, "an octal escape does not run on"},
		{"python", "x = 'a'\n'b'\n", "x = 'ab'\n", false, "strings on two lines are two statements"},
		{"python", "while ((a and b)):\n    pass\n", "while (a and b):\n    pass\n", true, "a statement's expression in two pairs of parentheses"},
		{"python", "d = {k: (\n    'a long message'\n), j: 1}\n", "d = {k: 'a long message', j: 1}\n", true, "a dict's value in parentheses"},
		{"python", "f(x, ('a' 'b'))\n", "f(x, 'ab')\n", true, "an argument in parentheses"},
		{"python", "f(x, ('a',))\n", "f(x, 'a')\n", false, "a one-element tuple of a literal"},
		{"python", "x = f('a')\n", "x = f 'a'\n", false, "a call's parentheses"},
		{"python", "s = 'hello\\x1A\\u00E9\\N{bullet}'\n", "s = 'hello\\x1a\\u00e9\\N{BULLET}'\n", true, "the case of escapes' hex digits and names"},
		{"python", "s = 'hello\\x1A'\n", "s = 'hello\\x1b'\n", false, "another escaped character"},
		{"python", "s = 'a\\\\xAB'\n", "s = 'a\\\\xab'\n", false, "an escaped backslash before x is no escape"},
		{"python", "if a:\n    x()\nelse:\n    if b:\n        y()\n    elif c:\n        z()\n    else:\n        w()\nv()\n", "if a:\n    x()\nelif b:\n    y()\nelif c:\n    z()\nelse:\n    w()\nv()\n", true, "an else block that is one if"},
		{"python", "if a:\n    x()\nelse:\n    if b:\n        y()\n    z()\n", "if a:\n    x()\nelif b:\n    y()\nz()\n", false, "an else block with more than its if"},
		{"python", "if a:\n    x()\nelse:\n    if b:\n        y()\n    z()\n", "if a:\n    x()\nelif b:\n    y()\n    z()\n", false, "a statement after the if is not in its body"},
		{"python", "if a:\n    x()\nelse:\n    if b:\n        if c:\n            y()\n    else:\n        z()\n", "if a:\n    x()\nelif b:\n    if c:\n        y()\nelse:\n    z()\n", true, "nested blocks in the collapsed if"},
		{"python", "for a in b:\n    x()\nelse:\n    if c:\n        y()\n", "for a in b:\n    x()\n    if c:\n        y()\n", false, "a loop's else"},
		{"python", "f(msg, ('utf-8' if smtputf8 else 'ascii'))\n", "f(msg, 'utf-8' if smtputf8 else 'ascii')\n", true, "an argument in parentheses"},
		{"python", "def f():\n    yield (a, (b, c))\n", "def f():\n    yield a, (b, c)\n", true, "a yield's tuple in parentheses"},
		{"python", "from m import (\n    a,\n)\n", "from m import a\n", true, "one imported name in parentheses"},
		{"python", "from m import (a, b,)\n", "from m import a, b\n", true, "imported names in parentheses"},
		{"python", "from m import (a, b)\n", "from m import a\n", false, "an imported name more"},
		{"python", "x = f'{a+1}'\n", "x = f'{a + 1}'\n", true, "an f-string field's expression"},
		{"python", "x = f'{n,}'\n", "x = f'{(n,)}'\n", true, "an f-string field's tuple"},
		{"python", "x = f\"{d['k']!r:>{w}}\"\n", "x = f'{d[\"k\"]!r:>{w}}'\n", true, "quotes in an f-string field"},
		{"python", "x = f\"{d['}']} \\N{bullet}\"\n", "x = f\"{d[ '}' ]} \\N{BULLET}\"\n", true, "a brace in a field's string, a named escape"},
		{"python", "x = f'{a+1}'\n", "x = f'{a-1}'\n", false, "an f-string field's operator"},
		{"python", "x = f'{a=}'\n", "x = f'{a = }'\n", false, "a debug field prints its text"},
		{"python", "x = f\"{a+1!r:'>9}\"\n", "x = f\"{a + 1!r:'>9}\"\n", true, "a quote as the fill of a converted field's spec"},
		{"python", "x = f'{{a+1}}'\n", "x = f'{{a + 1}}'\n", false, "doubled braces are text"},
		{"python", "def f():\n    x = yield (a, b)\n", "def f():\n    x = yield a, b\n", true, "a yield's tuple in parentheses, assigned"},
		{"python", "def f():\n    g((yield (a, b)))\n", "def f():\n    g((yield a), b)\n", false, "a yield in a call"},
		{"python", "d = {'k': (\n    self.get_fullname()\n), 'j': 1}\n", "d = {'k': self.get_fullname(), 'j': 1}\n", true, "a dict's value in parentheses"},
		{"python", "f(k=(a or b), j=(c))\n", "f(k=a or b, j=c)\n", true, "keyword arguments in parentheses"},
		{"python", "x = [(a), (b + c)]\n", "x = [a, b + c]\n", true, "list items in parentheses"},
		{"python", "f(x, (a, b))\n", "f(x, a, b)\n", false, "a tuple argument"},
		{"python", "d = {k: (v for v in w)}\n", "d = {k: v for v in w}\n", false, "a generator value is no comprehension"},
		{"python", "f(x, (a)[0])\n", "f(x, a)[0]\n", false, "parentheses before a subscript"},
		{"python", "x = [lambda: (a), b]\n", "x = [lambda: (a, b)]\n", false, "a lambda's body"},
		{"python", "x = 1\n", "x = 1.0\n", false, "an int is not a float"},

		// Rust
		{"rust", "let x = (a,);", "let x = (a);", false, "a one-element tuple"},
		{"rust", "f(a, b,);", "f(a, b);", true, "trailing comma"},
		{"rust", "match x {\n    A => { f(a) }\n    B => g(b),\n}", "match x {\n    A => f(a),\n    B => {\n        g(b)\n    }\n}", true, "match arm blocks"},
		{"rust", "match x {\n    A => { f(a); }\n}", "match x {\n    A => f(a),\n}", false, "a statement is not an expression"},
		{"rust", "v.map(|a| { a + 1 })", "v.map(|a| a + 1)", true, "a closure's block"},
		{"rust", "v.map(|a| -> u8 { a + 1 })", "v.map(|a| a + 1)", false, "a closure with a return type"},
		{"rust", "let y = ((a));", "let y = (a);", true, "nested parentheses"},
		{"rust", "fn f() {\n    if (a && b) {\n        g();\n    }\n    while (c) {}\n    for i in (0..n) {}\n    match (x) {\n        A => (1),\n        _ => { (2) }\n    }\n}",
			"fn f() {\n    if a && b {\n        g();\n    }\n    while c {}\n    for i in 0..n {}\n    match x {\n        A => 1,\n        _ => 2,\n    }\n}", true, "unused parentheses around a condition, a scrutinee, an arm"},
		{"rust", "let x = (y + 1);\nn += (2);\nif let Some(v) = (o) {}\nf((a), b);\nv[(i)];\nfn g() -> u8 { return (3); }\nfn h() -> u8 { (4) }",
			"let x = y + 1;\nn += 2;\nif let Some(v) = o {}\nf(a, b);\nv[i];\nfn g() -> u8 { return 3; }\nfn h() -> u8 { 4 }", true, "unused parentheses around a value, an argument, an index"},
		{"rust", "let f = |x| (x || y);\nv.map(|x| (x + 1));\nspawn(move || (run()));\nlet Some(w) = (o) else { return };\nfn t(x: (u8)) -> (u16) { let y: (u16) = x; y }",
			"let f = |x| x || y;\nv.map(|x| x + 1);\nspawn(move || run());\nlet Some(w) = o else { return };\nfn t(x: u8) -> u16 { let y: u16 = x; y }", true, "unused parentheses around a closure's body, a let-else value, a type"},
		{"rust", "let x = a | (b || c);", "let x = a | b || c;", false, "a binary or is no closure"},
		{"rust", "let x = (a + b) * c;", "let x = a + b * c;", false, "parentheses that group"},
		{"rust", "let x = a >= (b || c);", "let x = a >= b || c;", false, "a comparison's right side"},
		{"rust", "let t = (a,);", "let t = a;", false, "a one-element tuple"},
		{"rust", "quote! { (x) }", "quote! { x }", false, "a macro's tokens"},
		{"rust", "m!(f((a), b));", "m!(f(a, b));", false, "a macro's arguments"},
		{"rust", "#[cfg(any(unix, (windows)))]\nfn f() {}", "#[cfg(any(unix, windows))]\nfn f() {}", false, "an attribute's tokens"},
		{"rust", "macro_rules! m { ($x:expr) => { ($x) } }", "macro_rules! m { ($x:expr) => { $x } }", false, "a macro's rules"},
		{"rust", "let x = (-a).abs();", "let x = -a.abs();", false, "a method of a negation"},
		{"rust", "if a && b {}", "if a & &b {}", false, "&& is not & &"},
		{"rust", "let c = 'a';", "let c = \"a\";", false, "a char is not a string"},
		{"rust", "let x = 1u8;", "let x = 1u16;", false, "a literal's type"},
		{"rust", "let x = 0x1F;", "let x = 31;", true, "number spelling"},
		{"rust", "/// Doc.\nfn f() {}", "/// Reworded doc.\nfn f() {}", true, "doc comments"},
	}
	checkCanon(t, cases)
}

// checkCanon requires each case's two texts to have equal shapes when it
// says same, different ones otherwise.
func checkCanon(t *testing.T, cases []canonCase) {
	t.Helper()
	for _, c := range cases {
		a, b := ShapeOf(c.lang, []byte(c.a)), ShapeOf(c.lang, []byte(c.b))
		if (a == b) != c.same {
			want := "equal"
			if !c.same {
				want = "different"
			}
			t.Errorf("%s: %s: shapes should be %s:\n%q\n  %s\n%q\n  %s", c.lang, c.why, want,
				c.a, strings.Join(ShapeCanonical.Stream(c.lang, []byte(c.a)).Tokens(0, 0), " "),
				c.b, strings.Join(ShapeCanonical.Stream(c.lang, []byte(c.b)).Tokens(0, 0), " "))
		}
	}
}

func TestNumberCanon(t *testing.T) {
	for _, c := range []struct {
		lit  string
		lang langCode
		want string
	}{
		{"0xFF", langGo, "255"}, {"0o17", langGo, "15"}, {"017", langGo, "15"}, {"0b101", langGo, "5"},
		{"1_000_000", langGo, "1000000"}, {"1.50", langGo, "1.5"}, {"1.", langGo, "1.0"}, {".5", langGo, "0.5"},
		{"1e3", langGo, "1000.0"}, {"1E+03", langGo, "1000.0"}, {"15e-1", langGo, "1.5"}, {"0755i", langGo, "755i"},
		{"0x1p-2", langGo, "0x1p-2"}, {"1e30", langGo, "1e30"}, {"0.000001", langGo, "0.000001"}, {"1e-7", langGo, "0.0000001"}, {"1e-8", langGo, "1e-8"},
		{"0xFFFFFFFFFFFFFFFFFF", langGo, "4722366482869645213695"},
		{"5.", langJS, "5"}, {"1.0", langJS, "1"}, {"10n", langJS, "10n"}, {"08", langJS, "8"}, {"010", langJS, "8"},
		{"1J", langPython, "1j"}, {"0XABCDEF", langPython, "11259375"}, {"0755", langRust, "755"},
		{"1u8", langRust, "1u8"}, {"1f32", langRust, "1.0f32"}, {"1_000_u32", langRust, "1000u32"}, {"0xFFu8", langRust, "255u8"},
		{"1e999999999999", langGo, "1e999999999999"},
	} {
		if got := string(appendNumber(nil, []byte(c.lit), c.lang)); got != c.want {
			t.Errorf("appendNumber(%q, %d) = %q, want %q", c.lit, c.lang, got, c.want)
		}
	}
}

// The canonical stream reads arbitrary text in every language: no panic,
// tokens in the order of their places, inside the text, and a shape for
// every line range.
func FuzzCanonTokens(f *testing.F) {
	f.Add([]byte("func f(a, b int) (n int) { var x = 0755; return }"))
	f.Add([]byte("x = `a ${ {b: 1}[`c${d}`] }`; if (a) {}\n;(b) => (c)"))
	f.Add([]byte("if x: y; z\nclass A():\n  '''d'''\n  def f(self,): return (a,)\n"))
	f.Add([]byte("match x { A => { f(a) }, B => |b| { b }, } r#\"raw\"# b'x' 'a"))
	f.Add([]byte("x = <<~EOS\n  a #{b}\nEOS\n%w[a b] /re/ =begin\nc\n=end\n"))
	f.Add([]byte("def self.[](k) = g(h(a), b) if %r{a#{b}\\/}i =~ %q(c)\ndef f a\n  (x = y(z))\nend\n%x{ls} %r|a| /#{"))
	f.Add([]byte("<?php $a = \"{$b}\"; <<<X\n t\n X;\n?>\n<p> #[A] R\"d(x)d\" @\"a\"\"b\" $\"{c}\""))
	f.Add([]byte("<?php class A { static public function f() { if (!isset($a) && (null !== $b = f())) { list($x) = array((int)(g())); } return 'a' . \"b\" . <<<E\n  x\n  E; } var $v; }"))
	f.Add([]byte("f() { [[ $a =~ ^(x)$ ]] && cat <<-E\n\tb\n\tE\n}; a=() ; --[==[ x ]==] [[s]] #\"r\"#"))
	f.Add([]byte("using a::b;\nusing c::d;\nA<B<C>> x = \"a\" \"b\"_s >> 1;\n#define M(a) \\\n  G(a)\nusing E::k; x >>= operator>>"))
	f.Add([]byte("package p;\nimport X;\nimport static a.B.c;\nimport a.b.*;\nclass A { B b = c(); };\n#include <b.h>\n#include \"a.h\" // c\n"))
	f.Add([]byte("const (\n\tA = iota\n\tB\n)\nvar (\n\tx = 1\n\ty int\n)\ntype (T int; U = T)\nf(lambda r: (m(r)), x)\n"))
	f.Add([]byte("type F = <O extends X = { a: T }>(o?: O) => | ({ b: U } & (V))\ninterface I extends\n  A<B>, C { f(): D; }\nopt(:d) { (defined?(R) && x?) ? 1 : 2 }"))
	f.Add([]byte("x = %r%\n  a#{b} [ c]\n%xm if a or (b) ? c : d\ndef f a, b:\n  @h.alias(<<~E)\n    #{c+1}}\n  E\nend\n"))
	f.Add([]byte("r=($(a -W \"$(b |\n  c -F'\"' \"${d:-\"e\"}\")\"))\ncase $x in\n(y) cat <<-E\n\t\tz\n\tE\n;;\nesac\n"))
	f.Add([]byte("def f(x)\n  if x then y = 1 end\n  until q.e? do\n    g do |z| begin; z; rescue; end end\n  end\nend\nwhile a do b end if c\nif d\n  e\nend unless f\n"))
	f.Add([]byte("def f a = 1\n  x.each do |c|\n    begin\n      return c if c.ok?\n    rescue E\n    end\n  end\n  case a when 1 then return g b, c else begin; return d; ensure; e; end end\nend\ndef g(x) = x.begin if x\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, lang := range []string{"go", "typescript", "tsx", "javascript", "python", "rust", "java", "c",
			"cpp", "csharp", "ruby", "php", "kotlin", "swift", "scala", "bash", "lua", ""} {
			ct := canonTokens(nil, lang, src, lexSpec(lang).tokens(src, nil), nil)
			for i, tok := range ct {
				if tok.start < 0 || tok.end < tok.start || int(tok.end) > len(src) || int(tok.pos) > len(src) {
					t.Fatalf("%s: token %d out of the text: %+v", lang, i, tok)
				}
				if i > 0 && tok.pos < ct[i-1].pos {
					t.Fatalf("%s: token %d at %d before token %d at %d", lang, i, tok.pos, i-1, ct[i-1].pos)
				}
				appendCanon(nil, src, tok)
			}
			s := ShapeCanonical.Stream(lang, src)
			for l := 1; l <= s.Lines(); l++ {
				s.Shape(l, l)
			}
		}
	})
}

func TestCanonicalReordering(t *testing.T) {
	for _, c := range []canonCase{
		{"go", "import (\n\t\"os\"\n\t\"fmt\"\n)", "import (\n\t\"fmt\"\n\t\"os\"\n)", true, "import order"},
		{"go", "import (\n\t\"os\"\n\tf \"fmt\"\n)", "import (\n\t\"os\"\n\t\"fmt\"\n)", false, "an import's name"},
		{"go", "x := (T)(y)", "x := T(y)", true, "a parenthesised type converted"},
		{"go", "x := (*T)(y)", "x := *T(y)", false, "a pointer type converted"},
		{"go", "x := v.(T)(y)", "x := v.T(y)", false, "a type assertion called"},
		{"rust", "fn f() {\n    use std::io::{Read, BufReader};\n    use std::fs::File;\n}", "fn f() {\n    use std::fs::File;\n    use std::io::{BufReader, Read};\n}", true, "use order"},
		{"rust", "use a::{b::{d, c}, e};", "use a::{e, b::{c, d}};", true, "nested use lists"},
		{"rust", "use a::{b, c};", "use a::{b, d};", false, "a used name"},
		{"rust", "fn f<T>(x: T) where T: Clone, {}", "fn f<T>(x: T) where T: Clone {}", true, "a where clause's comma"},
		{"rust", "f(a, { b })", "f(a { b })", false, "a block argument's comma"},
		{"typescript", "type A<P extends & { a: 1 }> = P", "type A<P extends { a: 1 }> = P", true, "a leading &"},
		{"typescript", "type A = B | C", "type A = B C", false, "a union's bar"},
		{"typescript", "const f = (a: T): (() => void) => g", "const f = (a: T): () => void => g", true, "a return type's parentheses"},
		{"typescript", "x = [...(yield* a), b]", "x = [...yield* a, b]", true, "a spread's operand"},
		{"typescript", "let x: A | (B & Record<K, (v: V) => R>) | C", "let x: A | B & Record<K, (v: V) => R> | C", true, "a union member's parentheses"},
		{"typescript", "let x: (() => void) | C", "let x: () => void | C", false, "a function type in a union"},
		{"typescript", "let x: (A | B) & C", "let x: A | B & C", false, "a union in an intersection"},
		{"typescript", "x = a | (b || c)", "x = a | b || c", false, "|| is looser than |"},
		{"typescript", "type T<P extends { a: 1; b: 2 }> = P", "type T<P extends {\n  a: 1\n  b: 2\n}> = P", true, "a constraint's type literal"},
		{"typescript", "function f(g: ((a: T) => R)) {}", "function f(g: (a: T) => R) {}", true, "a function type's parentheses"},
		{"typescript", "function f(g: (a: T) => R) {}", "function f(g: a: T => R) {}", false, "a function type's parameters"},
		{"typescript", "x = [...(a, b)]", "x = [...a, b]", false, "a spread of a comma expression"},
	} {
		a, b := ShapeOf(c.lang, []byte(c.a)), ShapeOf(c.lang, []byte(c.b))
		if (a == b) != c.same {
			t.Errorf("%s: %s: same = %v, want %v:\n  %s\n  %s", c.lang, c.why, a == b, c.same,
				strings.Join(ShapeCanonical.Stream(c.lang, []byte(c.a)).Tokens(0, 0), " "),
				strings.Join(ShapeCanonical.Stream(c.lang, []byte(c.b)).Tokens(0, 0), " "))
		}
	}
}
