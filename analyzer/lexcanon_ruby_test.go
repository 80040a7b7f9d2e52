package analyzer

import "testing"

// TestCanonicalFormattingRuby pairs each rewrite RuboCop's layout and
// spelling cops make (internal/roundtrip TestRuboCop) with the change of
// behaviour that looks most like it.
func TestCanonicalFormattingRuby(t *testing.T) {
	checkCanon(t, []canonCase{
		// Interpolated code is code: spaced and broken as code.
		{"ruby", `x = "a#{ b }c"`, `x = "a#{b}c"`, true, "blanks inside #{…}"},
		{"ruby", `x = "a#{b}c"`, `x = "a#{b} c"`, false, "the text around #{…}"},
		{"ruby", `x = "a#{b}c"`, `x = "a#{d}c"`, false, "the code inside #{…}"},
		{"ruby", "x = \"#{a.map { |r|\n  r }}\"", `x = "#{a.map { |r| r }}"`, true, "a line broken inside #{…}"},
		{"ruby", "x = \"#{a}\"\n-1", `x = "#{a}" - 1`, false, "a line end after an interpolated string ends the statement"},
		{"ruby", "x = a.match(/b(#{ c(d) })e/x)", "x = a.match(/b(#{c(d)})e/x)", true, "blanks inside a regular expression's #{…}"},
		{"ruby", "x = a.match(/b(#{c})e/x)", "x = a.match(/b(#{c})f/x)", false, "a regular expression's text"},
		{"ruby", "x = a.match(/b(#{c})e/x)", "x = a.match(/b(#{c})e/m)", false, "a regular expression's flags"},
		// Quote style: a string by its value.
		{"ruby", `x = 'can\'t'`, `x = "can't"`, true, "an escaped single quote"},
		{"ruby", `x = '\\'`, `x = "\\"`, true, "an escaped backslash"},
		{"ruby", `x = '\d'`, `x = "\\d"`, true, "a backslash that escapes nothing between single quotes"},
		{"ruby", `x = '\d'`, `x = "\d"`, false, "\\d between double quotes is an escape"},
		{"ruby", `x = '#{a}'`, `x = "\#{a}"`, true, "an escaped # interpolates nothing"},
		{"ruby", `x = 'a"b'`, `x = "a\"b"`, true, "an escaped double quote"},
		{"ruby", `x = 'a"b'`, `x = "a'b"`, false, "a different quote inside"},
		{"ruby", "x = '#<state>'", `x = "#<state>"`, true, "a # that interpolates nothing"},
		{"ruby", "x = '#@a'", `x = "#@a"`, false, "#@ interpolates in double quotes"},
		{"ruby", "x = '#$a'", `x = "#$a"`, false, "#$ interpolates in double quotes"},
		// Heredocs: <<- and <<~ by the text they make.
		{"ruby", "x = <<-EOS\nab\n      EOS\n", "x = <<-EOS\nab\nEOS\n", true, "a <<- terminator's indentation"},
		{"ruby", "x = <<-EOS\nab\nEOS\n", "x = <<~EOS\n  ab\n  EOS\n", true, "<<- to <<~, the body indented"},
		{"ruby", "x = <<-EOS\n  ab\nEOS\n", "x = <<~EOS\n  ab\nEOS\n", false, "<<~ removes the indentation <<- keeps"},
		{"ruby", "x = <<~EOS\n  a\n    b\n\n  EOS\n", "x = <<~EOS\n      a\n        b\n\n    EOS\n", true, "a <<~ body reindented"},
		{"ruby", "x = <<~EOS\n  a\n    b\nEOS\n", "x = <<~EOS\n  a\n  b\nEOS\n", false, "a <<~ body's relative indentation"},
		{"ruby", "x = <<~EOS\n\ta\nEOS\n", "x = <<-EOS\na\nEOS\n", false, "tabs are not undone"},
		{"ruby", "x = <<~EOS\n    a \\\n    b\nEOS\n", "x = <<~EOS\n  a \\\n  b\nEOS\n", true, "a <<~ body with a continued line, reindented"},
		{"ruby", "x = <<~EOS\n    a \\\n  b\nEOS\n", "x = <<~EOS\n  a \\\n  b\nEOS\n", false, "a continued line's indentation counts"},
		{"ruby", "x = <<~EOS\n    a #{1 +\n  2}\nEOS\n", "x = <<~EOS\n  a #{1 +\n  2}\nEOS\n", false, "code across lines: kept as written"},
		{"ruby", "x = <<EOS\nab\nEOS\n", "x = <<-EOS\nab\nEOS\n", true, "<< and <<- with the same body"},
		{"ruby", "x = <<~'EOS'\n  #{a}\nEOS\n", "x = <<~EOS\n  #{a}\nEOS\n", false, "a quoted heredoc interpolates nothing"},
		// %w and %i by their words.
		{"ruby", "x = %w[a b\n  c]", "x = %w[a b c]", true, "a %w literal's words broken over lines"},
		{"ruby", "x = %i[ a  b ]", "x = %i[a b]", true, "blanks between a %i literal's words"},
		{"ruby", "x = %w[a b c]", "x = %w[a bc]", false, "a %w literal's words"},
		{"ruby", `x = %w[a\ b]`, "x = %w[a b]", false, "an escaped blank is part of its word"},
		{"ruby", "x = %W[a\n#{b}]", "x = %W[a #{b}]", false, "%W is kept as written"},
		// Regular expressions and percent literals are operands.
		{"ruby", "x = /a/\n-1", "x = /a/ - 1", false, "a line end after a regular expression"},
		{"ruby", "x = %r{a}\n-1", "x = %r{a} - 1", false, "a line end after a percent literal"},
		{"ruby", "x = !%w[a b\n  c].f", "x = !%w[a b c].f", true, "a %w literal after !"},
		{"ruby", "x = !%w[a b c].f", "x = !%w[a bc].f", false, "a %w literal's words after !"},
		// An instance variable is a name: a line end after it ends the statement.
		{"ruby", "x = if @a then\n  b\nend", "x = if @a\n  b\nend", true, "then after an instance variable"},
		{"ruby", "x = @a\n-1", "x = @a - 1", false, "a line end after an instance variable"},
		{"ruby", "x = @@a\n-1", "x = @@a - 1", false, "a line end after a class variable"},
		// do and then that end a line.
		{"ruby", "f do\n  |x|\n  x\nend", "f do |x|\n  x\nend", true, "a block's parameters on the line after do"},
		{"ruby", "x.do\ny", "x.do y", false, "a method named do"},
		{"ruby", "if a =~ /x/ then\n  b\nend", "if a =~ /x/\n  b\nend", true, "then closing a line"},
		{"ruby", "x.then\ny", "x.then y", false, "a method named then"},
		// def f() is def f.
		{"ruby", "def f()\n  1\nend", "def f\n  1\nend", true, "an empty parameter list"},
		{"ruby", "def self.f()\n  1\nend", "def self.f\n  1\nend", true, "a class method's empty parameter list"},
		{"ruby", "def f() 1 end", "def f 1 end", false, "parentheses before the body on their line"},
		{"ruby", "x = f()\n", "x = f\n", false, "a call's empty parentheses (f may be a variable)"},
		// Hash keys: :a => is a:.
		{"ruby", "f(:a => 1, :b => 2)", "f(a: 1, b: 2)", true, "hash rockets to labels"},
		{"ruby", "x = { :Big => nil }", "x = { Big: nil }", true, "a constant-like symbol key"},
		{"ruby", `f(:"a b" => 1)`, `f("a b": 1)`, true, "a quoted symbol key"},
		{"ruby", "f :a => 1", "f a: 1", true, "a command's arguments"},
		{"ruby", `f("a" => 1)`, `f("a": 1)`, false, "a string key is no symbol"},
		{"ruby", "f(:a => 1)", "f(a => 1)", false, "a variable's value as key"},
		{"ruby", "case x\nin :a => y\nend", "case x\nin a: y\nend", false, "a pattern binding y"},
		{"ruby", "case x\nin 1, :a => y\nend", "case x\nin 1, a: y\nend", false, "a pattern binding y after a comma"},
		{"ruby", "x = [:a => 1]", "x = [a: 1]", false, "inside brackets (a pattern's too): left as written"},
		{"ruby", "f(:a? => 1)", "f(a?: 1)", false, "a symbol no label can spell"},
	})
}
