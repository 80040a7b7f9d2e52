package analyzer

import "testing"

// TestCanonicalFormattingPHP pairs what PHP_CodeSniffer's fixers rewrite
// with the changes of behaviour that look like them.
func TestCanonicalFormattingPHP(t *testing.T) {
	checkCanon(t, []canonCase{
		{"php", "<?php\n$shell = $input->getArgument('shell') ?? 1;", "<?php\n$shell = ($input->getArgument('shell') ?? 1);", true, "an assignment's whole right side"},
		{"php", "<?php\n$x .= $a . $b;", "<?php\n$x .= ($a . $b);", true, "a compound assignment's whole right side"},
		{"php", "<?php\n$x = $a and $b;", "<?php\n$x = ($a and $b);", false, "and binds looser than an assignment"},
		{"php", "<?php\n$x = $a or $b;", "<?php\n$x = ($a or $b);", false, "or binds looser than an assignment"},
		{"php", "<?php\n$x .= $a xor $b;", "<?php\n$x .= ($a xor $b);", false, "xor binds looser than a compound assignment"},
		{"php", "<?php\nstrtr($line ?? 1, $map);", "<?php\nstrtr(($line ?? 1), $map);", true, "a whole argument"},
		{"php", "<?php\nreturn $this->a ?? $this->b;", "<?php\nreturn ($this->a ?? $this->b);", true, "a whole return operand"},
		{"php", "<?php\nif (false === $e = f()) {}", "<?php\nif (false === ($e = f())) {}", true, "an assignment inside a comparison: PHP reads it whole (php-ast)"},
		{"php", "<?php\n$x = $a ? $b : $c . $d;", "<?php\n$x = ($a ? $b : $c) . $d;", false, "a part of the right side"},
		{"php", "<?php\nf();\n$string ?? $string = '';", "<?php\nf();\n($string ?? $string = '');", true, "a whole expression statement"},
		{"php", "<?php\nf();\n$a = $b;", "<?php\nf();\n($a) = $b;", false, "a part of a statement"},
		{"php", "<?php\nif ($a) {\n} elseif ($b) {\n}", "<?php\nif ($a) {\n} else if ($b) {\n}", true, "else if"},
		{"php", "<?php\nif ($a) {\n}\nif ($b) {\n}", "<?php\nif ($a) {\n} elseif ($b) {\n}", false, "an if after an if is not elseif"},
		{"php", "<?php\n$a = '{^';", "<?php\n$a = \"{^\";", true, "quotes around a brace without a dollar"},
		{"php", "<?php\n$a = '{$b}';", "<?php\n$a = \"{$b}\";", false, "an interpolation in double quotes"},
		{"php", "<?php\n$a = '\\n';", "<?php\n$a = \"\\n\";", false, "an escape in double quotes"},
	})
}
