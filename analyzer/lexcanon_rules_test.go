package analyzer

import (
	"strings"
	"testing"
)

// TestCanonicalFormattingRules is TestCanonicalFormatting for the
// languages of the rules scanner: each formatter's rewrite (equal shapes)
// next to the change of behaviour that looks most like it (different).
func TestCanonicalFormattingRules(t *testing.T) {
	cases := []canonCase{
		// C++
		{"cpp", "int f() { return 1; } // one", "int f() {\n  return 1;\n}", true, "comments and line splits"},
		{"cpp", "f(a, b,);", "f(a, b);", true, "trailing comma"},
		{"cpp", "int x = 0x1F + 1'000;", "int x = 31 + 1000;", true, "number spelling and digit separators"},
		{"cpp", "int x = 010;", "int x = 10;", false, "010 is octal"},
		{"cpp", `auto s = "a";`, `auto s = 'a';`, false, "a char is not a string"},
		{"cpp", `auto s = R"(a  b)";`, `auto s = R"(a b)";`, false, "a raw string's text"},
		{"cpp", "#define X 1\nint y;", "#define X 1 int y;", false, "a directive ends with its line"},
		{"cpp", "#define X(a) \\\n  (a)", "#define X(a) (a)", true, "a directive's continued line"},
		{"cpp", "/* a */ int f();", "int f();", true, "block comments"},

		// C#
		{"csharp", "var x = new List<int> { 1, 2, };", "var x = new List<int>\n{\n    1,\n    2\n};", true, "trailing comma and braces on their lines"},
		{"csharp", `var s = @"a ""b""";`, `var s = @"a ""b"" ";`, false, "a verbatim string's text"},
		{"csharp", `var s = $"a {b + c}";`, `var s = $"a {b+c}";`, false, "an interpolated string is kept as written"},
		{"csharp", `var s = $"{x}"; // "`, `var s = $"{x}";`, true, "a comment after an interpolated string"},
		{"csharp", "#if DEBUG\nLog();\n#endif", "#if DEBUG Log();\n#endif", false, "a directive ends with its line"},
		{"csharp", "var x = 1_000UL;", "var x = 1000ul;", true, "number spelling"},

		// Ruby
		{"ruby", "x = 'a'", `x = "a"`, true, "quote style of a plain string"},
		{"ruby", `x = 'a\n'`, `x = "a\n"`, false, "an escape only double quotes read"},
		{"ruby", `x = '#{a}'`, `x = "#{a}"`, false, "interpolation only double quotes read"},
		{"ruby", "f(a,\n  b)", "f(a, b)", true, "a line split after a comma"},
		{"ruby", "a = b +\n  c", "a = b + c", true, "a line split after an operator"},
		{"ruby", "a = b\n+ c", "a = b + c", false, "a line break before + ends the statement"},
		{"ruby", "foo\n  .bar\n  .baz", "foo.bar.baz", true, "leading-dot method chains"},
		{"ruby", "def f\n  return\n  x\nend", "def f\n  return x\nend", false, "a line break after return"},
		{"ruby", "a; b", "a\nb", true, "a semicolon is a line break"},
		{"ruby", "x = [\n  1,\n  2,\n]", "x = [1, 2]", true, "trailing comma"},
		{"ruby", "x = <<~EOS\n  a  b\nEOS\n", "x = <<~EOS\n  a b\nEOS\n", false, "a heredoc's text"},
		{"ruby", "x = %q[a  b]", "x = %q[a b]", false, "a percent string is kept as written"},
		{"ruby", "=begin\nnotes\n=end\nx = 1", "x = 1", true, "=begin comments"},
		{"ruby", "x = a / b / c", "x = a/b/c", true, "division is no regular expression"},
		{"ruby", "x = f /a  b/", "x = f /a b/", false, "a regular expression's text"},
		{"ruby", "x = 0755", "x = 0o755", true, "octal spelling"},
		{"ruby", "if a then b end", "if a\n  b\nend", true, "then before code is a line break"},

		// PHP
		{"php", "<?php $a = 'x';", `<?php $a = "x";`, true, "quote style of a plain string"},
		{"php", `<?php $a = '$x';`, `<?php $a = "$x";`, false, "interpolation only double quotes read"},
		{"php", "<?php f($a, $b,);", "<?php f(\n    $a,\n    $b\n);", true, "trailing comma and line splits"},
		{"php", "<?php # note\n$a = 1;", "<?php $a = 1;", true, "hash comments"},
		{"php", "<?php #[Attr]\nfunction f() {}", "<?php function f() {}", false, "#[ is an attribute, not a comment"},
		{"php", "<p>a  b</p><?php f(); ?>", "<p>a b</p><?php f(); ?>", false, "text outside PHP is output"},
		{"php", "<?php $s = <<<EOT\n  a  b\n  EOT;\n", "<?php $s = <<<EOT\n  a b\n  EOT;\n", false, "a heredoc's text"},

		// Kotlin
		{"kotlin", "val x = listOf(\n    1,\n    2,\n)", "val x = listOf(1, 2)", true, "trailing comma and line splits in a call"},
		{"kotlin", "val x = a\n    ?: b", "val x = a ?: b", true, "a line starting with ?:"},
		{"kotlin", "val x = a\n    .b()", "val x = a.b()", true, "leading-dot chains"},
		{"kotlin", "fun f() {\n    return\n    g()\n}", "fun f() {\n    return g()\n}", false, "a line break after return"},
		{"kotlin", "val x = a\n- b", "val x = a - b", false, "a line break before - ends the statement"},
		{"kotlin", "a(); b()", "a()\nb()", true, "a semicolon is a line break"},
		{"kotlin", `val s = "a ${b + c}"`, `val s = "a ${b+c}"`, false, "a template is kept as written"},
		{"kotlin", "/* a /* nested */ b */ val x = 1", "val x = 1", true, "nested comments"},
		{"kotlin", "val c = 'a'", `val c = "a"`, false, "a char is not a string"},

		// Swift
		{"swift", "let x = [\n    1,\n    2,\n]", "let x = [1, 2]", true, "trailing comma and line splits"},
		{"swift", "let x = a\n    .map { $0 }", "let x = a.map { $0 }", true, "leading-dot chains"},
		{"swift", "func f() {\n    return\n    g()\n}", "func f() {\n    return g()\n}", false, "a line break after return"},
		{"swift", `let s = "a \(b + c)"`, `let s = "a \(b+c)"`, false, "an interpolation is kept as written"},
		{"swift", `let s = #"a "b""#`, `let s = #"a "b" "#`, false, "a raw string's text"},

		// Scala
		{"scala", "val x = List(\n  1,\n  2,\n)", "val x = List(1, 2)", true, "trailing comma and line splits"},
		{"scala", "val x = a\n  .map(f)", "val x = a.map(f)", true, "leading-dot chains"},
		{"scala", "def f =\n  a\n  b", "def f =\n  a\nb", false, "indentation places a statement in a block"},
		{"scala", "object A {\n  def f = 1\n}", "object A {\n    def f = 1\n}", true, "an indentation's width"},
		{"scala", `val s = "${x}"`, `val s = "${ x }"`, false, "without a prefix, ${ is a string's text"},
		{"scala", `val s = "${" + x`, `val s = "${" + y`, false, "without a prefix, ${ opens no code"},
		{"scala", `val s = s"${x}"`, `val s = s"${ x }"`, false, "an interpolated string is kept as written"},

		// Bash
		{"bash", "echo 'a'", `echo "a"`, true, "quote style of a plain word"},
		{"bash", `echo '$a'`, `echo "$a"`, false, "expansion only double quotes read"},
		{"bash", "a=1", "a = 1", false, "an assignment is not a command"},
		{"bash", "a && \\\n  b", "a && b", true, "a continued line"},
		{"bash", "a &&\n  b", "a && b", true, "a line break after &&"},
		{"bash", "a; b", "a\nb", true, "a semicolon is a line break"},
		{"bash", "a\nb", "a b", false, "a line break ends a command"},
		{"bash", "f() {\n  a\n}", "f() { a; }", true, "a function on one line"},
		{"bash", "echo a#b", "echo a", false, "# inside a word is no comment"},
		{"bash", "cat <<EOF\n a  b\nEOF\n", "cat <<EOF\n a b\nEOF\n", false, "a heredoc's text"},
		{"bash", "x=$(a  b)", "x=$(a b)", true, "a command substitution is read as code"},

		// Lua
		{"lua", "local x = 'a'", `local x = "a"`, true, "quote style"},
		{"lua", `local x = 'it\'s'`, `local x = "it's"`, true, "an escaped quote"},
		{"lua", "local x = [[a  b]]", "local x = [[a b]]", false, "a long string's text"},
		{"lua", "--[[ note ]] local x = 1", "local x = 1", true, "long comments"},
		{"lua", "local t = {\n  1,\n  2,\n}", "local t = {1, 2}", true, "trailing comma and line splits"},
		{"lua", "local x = 0xff", "local x = 255", true, "number spelling"},
		{"lua", "local x = a // b", "local x = a", false, "// is floor division, not a comment"},
	}
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
