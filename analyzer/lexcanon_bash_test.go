package analyzer

import "testing"

// TestCanonicalFormattingBash pairs each rewrite shfmt makes with the
// change of behaviour that looks most like it.
func TestCanonicalFormattingBash(t *testing.T) {
	checkCanon(t, []canonCase{
		// A function's { on a line of its own (shfmt -fn, and
		// bash-completion's style).
		{"bash", "f()\n{\n  a\n}\n", "f() {\n  a\n}\n", true, "a function's brace on the next line"},
		{"bash", "f ()\n\n{\n  a\n}\n", "f() {\n  a\n}\n", true, "blank lines after a function's header"},
		{"bash", "function f\n{\n  a\n}\n", "function f {\n  a\n}\n", true, "function f's brace on the next line"},
		{"bash", "function f()\n{\n  a\n}\n", "function f() {\n  a\n}\n", true, "function f()'s brace on the next line"},
		{"bash", "a=()\n{ b; }\n", "a=() { b; }\n", false, "an empty array, then a group"},
		{"bash", "echo function f\n{ b; }\n", "echo function f { b; }\n", false, "function as an argument"},
		{"bash", "f\n{ b; }\n", "f { b; }\n", false, "a command, then a group"},

		// Command substitutions are code: shfmt reindents them and drops
		// the blanks inside their parentheses.
		{"bash", "x=$( a |\n        b )\n", "x=$(a |\n  b)\n", true, "a substitution's layout"},
		{"bash", "x=\"$( a  \"$b\" )\"\n", "x=\"$(a \"$b\")\"\n", true, "a substitution's layout inside quotes"},
		{"bash", "x=$(a b)\n", "x=$(a) b\n", false, "a word after a substitution"},
		{"bash", "x=$(a)y\n", "x=$(a) y\n", false, "a substitution's word goes on"},
		{"bash", "x=$(a)\n", "x= $(a)\n", false, "a substitution after a blank"},
		{"bash", "x=$(a\nb)\n", "x=$(a b)\n", false, "a line break inside a substitution"},
		{"bash", "r=($(a -W \"$(b |\n    c -F'\"' 'd')\" -- e))\nf  g\n", "r=($(a -W \"$(b |\n\t\tc -F'\"' 'd')\" -- e))\nf g\n", true, "a quote inside a substitution inside quotes inside a substitution (gphoto2)"},
		{"bash", "x=$(a \"${b:-\"c  d\"}\")\n", "x=$(a \"${b:-\"c d\"}\")\n", false, "a string inside an expansion inside quotes"},
		{"bash", "x=$(a \"it's\")\ny  z\n", "x=$(a \"it's\")\ny z\n", true, "a ' inside quotes inside a substitution"},
		{"bash", "f() {\n\tcat <<-EOF\n\ta $b\n\t\tc\n\tEOF\n}\n", "f() {\n    cat <<-EOF\n\t\ta $b\n\t\t\tc\n\t\tEOF\n}\n", true, "a <<- heredoc's lines re-indented with tabs"},
		{"bash", "cat <<-EOF\n\ta\n\tEOF\n", "cat <<-EOF\n  a\n\tEOF\n", false, "blanks a <<- heredoc keeps"},
		{"bash", "cat <<EOF\n\ta\nEOF\n", "cat <<EOF\n\t\ta\nEOF\n", false, "a << heredoc's tabs"},
		{"bash", "case $a in\n(x | y) b ;;\n(z) c\nesac\n", "case $a in\nx | y) b ;;\nz) c ;;\nesac\n", true, "a case pattern's leading ( (git-sh-setup)"},
		{"bash", "case $a in\n(x) b ;;\nesac\n", "case $a in\n(x) (b) ;;\nesac\n", false, "a subshell after the pattern"},
		{"bash", "x=`a  b`\n", "x=$(a b)\n", true, "backquotes are $( )"},
		{"bash", "x=\"`a`\"\n", "x=\"$(a)\"\n", true, "backquotes inside quotes"},
		{"bash", "x=`a \\$b`\n", "x=$(a \\$b)\n", false, "a backslash inside backquotes"},
		{"bash", "x=`a`b\n", "x=$(a) b\n", false, "a backquote's word goes on"},

		// Arithmetic: shfmt spaces operators.
		{"bash", "x=$((a+1))\n", "x=$((a + 1))\n", true, "arithmetic expansion's spaces"},
		{"bash", "((i=0))\n", "(( i = 0 ))\n", true, "arithmetic command's spaces"},
		{"bash", "for ((i=0;i<n;i++)); do a; done\n", "for ((i = 0; i < n; i++)); do a; done\n", true, "arithmetic for"},
		{"bash", "x=$((a - -1))\n", "x=$((a--1))\n", false, "- - is not --"},
		{"bash", "((i=0))\n", "((i==0))\n", false, "= is not =="},
		{"bash", "x=$((a+0x10))\n", "x=$((a + 16))\n", true, "a number's spelling"},
		{"bash", "x=$((${a// /}+1))\n", "x=$((${a///}+1))\n", false, "a parameter expansion inside arithmetic is as written"},
		{"bash", "x=$((\"a  b\"))\n", "x=$((\"a b\"))\n", false, "a quoted arithmetic text is as written"},
		{"bash", "x=${COMP_WORDS[COMP_CWORD-1]}\n", "x=${COMP_WORDS[COMP_CWORD - 1]}\n", true, "a subscript of bash's own arrays"},
		{"bash", "x=\"${COMP_WORDS[i+1]}\"\n", "x=\"${COMP_WORDS[i + 1]}\"\n", true, "a subscript inside quotes"},
		{"bash", "x=${words[i-1]}\n", "x=${words[i - 1]}\n", false, "any other array may be associative: blanks are its key's"},

		// Line ends that mean nothing.
		{"bash", "a=(x\n  y)\n", "a=(x y)\n", true, "an array over lines"},
		{"bash", "a=(x $(b)\n  y)\n", "a=(x $(b) y)\n", true, "an array with a substitution over lines"},
		{"bash", "a=(x)\ny\n", "a=(x y)\n", false, "a command after an array"},
		{"bash", "case $x in\na) b;;\nc) d;;\nesac\n", "case $x in\n  a)\n    b\n    ;;\n  c) d ;;\nesac\n", true, "a case's layout"},
		{"bash", "case $x in a) b;; esac\n", "case $x in a) b\nesac\n", true, "the last item's ;;"},
		{"bash", "case $x in a) b;& c) d;; esac\n", "case $x in a) b;; c) d;; esac\n", false, ";& falls through"},
		{"bash", "case $x in @(a|b)) c;; esac\n", "case $x in\n@(a|b))\n  c ;;\nesac\n", true, "an extended glob pattern"},
		{"bash", "(a)\nb\n", "(a) && b\n", false, "a subshell's ) is no pattern's"},
		{"bash", "f() {\n  a\n} &&\n  g\n", "f() {\n  a\n} \\\n  && g\n", true, "&& starting a line (shfmt -bn)"},
		{"bash", "a &&\n  b\n", "a ||\n  b\n", false, "&& is not ||"},
		{"bash", "a 'b c'\\\n  -- d\n", "a 'b c' \\\n  -- d\n", true, "a word before a continued line"},
		{"bash", "a b\\\nc\n", "a b c\n", false, "a continued line that joins a word"},
	})
}

func TestCanonicalRedirectBash(t *testing.T) {
	checkCanon(t, []canonCase{
		{"bash", "a 2>/dev/null\n", "a 2> /dev/null\n", true, "a space after a redirection (shfmt -sr)"},
		{"bash", "a 2>/dev/null\n", "a 2 >/dev/null\n", false, "a file descriptor is no argument"},
		{"bash", "a 2>&1\n", "a 2 >&1\n", false, "a file descriptor is no argument (>&)"},
	})
}
