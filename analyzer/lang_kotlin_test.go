package analyzer

import (
	"bytes"
	"testing"
)

// TestMaskKotlin checks that maskKotlin blanks the fun of fun interface
// declarations, the = of compound assignments and of assignments through
// a call, and the delegations of object expressions only, keeping the
// length and every newline.
func TestMaskKotlin(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"top level", "fun interface A {\n    fun a()\n}\n", "    interface A {\n    fun a()\n}\n"},
		{"member", "class C {\n    fun interface A { fun a() }\n    fun b() = 1\n}\n",
			"class C {\n        interface A { fun a() }\n    fun b() = 1\n}\n"},
		{"modifiers", "public fun interface A\ninternal\tfun  interface B\nexpect fun interface C\nactual fun interface D\n",
			"public     interface A\ninternal\t     interface B\nexpect     interface C\nactual     interface D\n"},
		{"annotations", "@Suppress(\"x)\") private @a.B @get:C fun interface A {}\n@F fun interface B {}\n",
			"@Suppress(\"x)\") private @a.B @get:C     interface A {}\n@F     interface B {}\n"},
		{"byte order mark", "\xef\xbb\xbffun interface A {}\n", "\xef\xbb\xbf    interface A {}\n"},
		{"line comment", "// fun interface A {}\n  // fun interface B\n", ""},
		{"block comment", "/* a\nfun interface A {}\n/* nested */\nfun interface B {}\n*/\nfun interface C\n",
			"/* a\nfun interface A {}\n/* nested */\nfun interface B {}\n*/\n    interface C\n"},
		{"string", "val s = \"fun interface A\"\nval t = \"\"\"\nfun interface B {\n\"\"\"\nfun interface C\n",
			"val s = \"fun interface A\"\nval t = \"\"\"\nfun interface B {\n\"\"\"\n    interface C\n"},
		{"quotes in a string", "val q = \"/*\" + '\"' + \"\\\"\"\nfun interface A\n", "val q = \"/*\" + '\"' + \"\\\"\"\n    interface A\n"},
		{"not a declaration", "val f = fun interface\nfun interfaces()\nfun `interface`()\nopen fun interface X\nfun\ninterface Y\n", ""},
		{"unclosed annotation", "@A(1,\n  2) fun interface A\n", ""},
		{"compound assignments", "m.getOrPut(k) { l() }\n  .second += v\nf().x -= 1; a*=2; b /= 3; c %= 4\n",
			"m.getOrPut(k) { l() }\n  .second +  v\nf().x -  1; a* 2; b /  3; c %  4\n"},
		{"assignments through a call", "    getView<TextView>(viewId).text = value\nm.g { a }.y[0] = z\nf()!!.x = \"=\"\n",
			"    getView<TextView>(viewId).text + value\nm.g { a }.y[0] + z\nf()!!.x + \"=\"\n"},
		{"not assignments through a call", "val x = f().y\nfun f() = g().x\nget() = field\nx = f().y\na.b = 1\n" +
			"f(x).y == z\nf(a = 1).b\nf(x).y // = z\nf(x) = 1\nv.f(a, b).c\n  = 1\n", ""},
		{"object delegations", "reg(object : X by noOp() {\n  return object : Source by real, Y<Int>, Z by z(\"{\") {\nf(object : A by a)\n",
			"reg(object : X           {\n  return object : Source        , Y<Int>, Z           {\nf(object : A     )\n"},
		{"not object delegations", "class A : X by y {\nval b = object : X by y\n{\nobject A : X by y {\n" +
			"object : X by y // {\nobjects : X by y {\n", ""},
		{"not compound assignments", "a == b; a != b; a <= b; a >= b; a === b; x = y; f(a = 1)\n" +
			"s = \"a += b\" // a += b\n/* a += b */ c = '+'\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			got, masked := maskKotlin(src, nil)
			if c.want == "" {
				if masked {
					t.Fatalf("masked %q as %q", c.src, got)
				}
				return
			}
			if !masked {
				t.Fatalf("%q not masked", c.src)
			}
			if string(got) != c.want {
				t.Fatalf("maskKotlin(%q)\n got %q\nwant %q", c.src, got, c.want)
			}
			if len(got) != len(src) || bytes.Count(got, []byte("\n")) != bytes.Count(src, []byte("\n")) {
				t.Fatalf("offsets or lines changed")
			}
			for i := range src {
				if (src[i] == '\n') != (got[i] == '\n') {
					t.Fatalf("newline moved at %d", i)
				}
			}
			if string(src) != c.src {
				t.Fatalf("source written over")
			}
		})
	}
}
