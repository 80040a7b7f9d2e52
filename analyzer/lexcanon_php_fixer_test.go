package analyzer

import "testing"

// TestCanonicalPHPFixer pairs what PHP-CS-Fixer's default rule sets
// rewrite (seen in real histories: Guzzle, Monolog, Symfony Console) with
// the changes of behaviour that look like them.
func TestCanonicalPHPFixer(t *testing.T) {
	checkCanon(t, []canonCase{
		// visibility_required, modifier order
		{"php", "<?php\nclass A {\n    const X = 1;\n}", "<?php\nclass A {\n    public const X = 1;\n}", true, "a constant is public unless said otherwise"},
		{"php", "<?php\nclass A {\n    function f() {}\n}", "<?php\nclass A {\n    public function f() {}\n}", true, "a method is public unless said otherwise"},
		{"php", "<?php\ninterface A {\n    function f();\n}", "<?php\ninterface A {\n    public function f();\n}", true, "an interface's method"},
		{"php", "<?php\nclass A {\n    var $x;\n}", "<?php\nclass A {\n    public $x;\n}", true, "var is public"},
		{"php", "<?php\nclass A {\n    static public function f() {}\n}", "<?php\nclass A {\n    public static function f() {}\n}", true, "modifiers in any order"},
		{"php", "<?php\nclass A {\n    static private $x;\n}", "<?php\nclass A {\n    private static $x;\n}", true, "a property's modifiers in any order"},
		{"php", "<?php\nclass A {\n    function f() {}\n}", "<?php\nclass A {\n    private function f() {}\n}", false, "private is not the default"},
		{"php", "<?php\nclass A {\n    function __construct($x) {}\n}", "<?php\nclass A {\n    function __construct(public $x) {}\n}", false, "a promoted parameter is not a parameter"},
		{"php", "<?php\nclass A {\n    static function f() {}\n}", "<?php\nclass A {\n    function f() {}\n}", false, "static is not the default"},
		// no_empty_statement
		{"php", "<?php\nf();\n;\ng();", "<?php\nf();\n\ng();", true, "an empty statement"},
		{"php", "<?php\n$f = function () {\n};;", "<?php\n$f = function () {\n};", true, "a doubled semicolon"},
		{"php", "<?php\nfor (;;) {}", "<?php\nfor (;) {}", false, "a for's clauses"},
		// ternary_operator_spaces, short ternary
		{"php", "<?php\n$a = $b ? : $c;", "<?php\n$a = $b ?: $c;", true, "the short ternary spelt apart"},
		// a ternary's condition in parentheses
		{"php", "<?php\n$a = (isset($b)) ? $b : 1;", "<?php\n$a = isset($b) ? $b : 1;", true, "a whole condition"},
		{"php", "<?php\nreturn ($this->ok()) ? 1 : 0;", "<?php\nreturn $this->ok() ? 1 : 0;", true, "a whole returned condition"},
		{"php", "<?php\n$a = ($b && $c) ? 1 : 0;", "<?php\n$a = $b && $c ? 1 : 0;", true, "&& binds tighter than ?:"},
		{"php", "<?php\n$a = ($b = f()) ? 1 : 0;", "<?php\n$a = $b = f() ? 1 : 0;", false, "an assignment in the condition"},
		{"php", "<?php\n$a = ($b or $c) ? 1 : 0;", "<?php\n$a = $b or $c ? 1 : 0;", false, "or binds looser than ?:"},
		{"php", "<?php\n$a = 1 + ($b ? 2 : 3);", "<?php\n$a = 1 + $b ? 2 : 3;", false, "a conditional in parentheses"},
		{"php", "<?php\nreturn (Closure::fromCallable($c))($r);", "<?php\nreturn Closure::fromCallable($c)($r);", true, "a call's result called"},
		{"php", "<?php\nreturn (A::$b)($r);", "<?php\nreturn A::$b($r);", false, "a static property called"},
		// array( and list( as [
		{"php", "<?php\n$a = array(1, array('b' => 2));", "<?php\n$a = [1, ['b' => 2]];", true, "array() is []"},
		{"php", "<?php\nlist($a, $b) = f();", "<?php\n[$a, $b] = f();", true, "list() is []"},
		{"php", "<?php\n$a = $b->list(1);", "<?php\n$a = $b->[1];", false, "a method named list"},
		{"php", "<?php\nfunction f(array $a) {}", "<?php\nfunction f([ $a) {}", false, "a type"},
		// parentheses around a primary
		{"php", "<?php\nif ( ! (chmod($a, $b[$c]))) {}", "<?php\nif ( ! chmod($a, $b[$c])) {}", true, "a call after !"},
		{"php", "<?php\nreturn (int)(pow(2, $r));", "<?php\nreturn (int) pow(2, $r);", true, "a cast's operand"},
		{"php", "<?php\nclass A {\n    function f($r) {\n        return (int)(pow(2, $r));\n    }\n}", "<?php\nclass A {\n    function f($r) {\n        return (int) pow(2, $r);\n    }\n}", true, "a returned cast's operand"},
		{"php", "<?php\nreturn (Boolean) $b;", "<?php\nreturn (bool) $b;", true, "a returned cast"},
		{"php", "<?php\n$a = ($b->c)();", "<?php\n$a = $b->c();", false, "a property called"},
		{"php", "<?php\n$a = f($b)($c);", "<?php\n$a = f($b)$c;", false, "a call's arguments after a call"},
		{"php", "<?php\n$a = !($b + 1);", "<?php\n$a = !$b + 1;", false, "an operation"},
		{"php", "<?php\n$a = (int) $b;", "<?php\n$a = int $b;", false, "a cast's parentheses"},
		{"php", "<?php\n$a = new ($b);", "<?php\n$a = new $b;", false, "new's expression"},
		{"php", "<?php\nif ($a) {}", "<?php\nif $a {}", false, "a condition's parentheses"},
		{"php", "<?php\n$a = (new A())->b();", "<?php\n$a = new A()->b();", true, "new with its arguments, then a member (PHP 8.4)"},
		{"php", "<?php\n$a = (new A)->b;", "<?php\n$a = new A()->b;", true, "new without arguments, then a member"},
		// parentheses by precedence (prettier's PHP plugin)
		{"php", "<?php\nif (!is_array($h) || ! $h[0] instanceof E) {}", "<?php\nif (!is_array($h) || ! ($h[0] instanceof E)) {}", true, "! binds looser than instanceof"},
		{"php", "<?php\nif ($a && $b || $c) {}", "<?php\nif (($a && $b) || $c) {}", true, "&& binds tighter than ||"},
		{"php", "<?php\nif (strlen($s) / 3 || '' !== $s && f($s)) {}", "<?php\nif (strlen($s) / 3 || ('' !== $s && f($s))) {}", true, "&& on the right of ||"},
		{"php", "<?php\nif (false !== $pos = strrpos($n, ':')) {}", "<?php\nif (false !== ($pos = strrpos($n, ':'))) {}", true, "an assignment as the right operand"},
		{"php", "<?php\n$a = !$b = f();", "<?php\n$a = !($b = f());", true, "an assignment after !"},
		{"php", "<?php\nif ($a && (null !== $b = f())) {}", "<?php\nif ($a && null !== ($b = f())) {}", true, "an operation whose right operand is an assignment"},
		{"php", "<?php\nif ((null !== $b = f()) || $c) {}", "<?php\nif (null !== $b = f() || $c) {}", false, "the assignment would take what follows"},
		{"php", "<?php\nif ($x && ($a ? $b : $c = 1)) {}", "<?php\nif ($x && $a ? $b : $c = 1) {}", false, "a conditional before the assignment"},
		{"php", "<?php\n$a = $b ?? $c['d'] ?? null;", "<?php\n$a = $b ?? ($c['d'] ?? null);", true, "?? groups to the right"},
		{"php", "<?php\n$a = ($b ?? $c) ?? null;", "<?php\n$a = $b ?? $c ?? null;", false, "?? on the left"},
		{"php", "<?php\nif (1 > $l = $l ?? 2) {}", "<?php\nif (1 > ($l = $l ?? 2)) {}", true, "an assignment of a ?? as the right operand"},
		{"php", "<?php\nif ($t === $f = $a ? 1 : 2) {}", "<?php\nif ($t === ($f = $a ? 1 : 2)) {}", true, "an assignment of a conditional as the right operand"},
		{"php", "<?php\n$a = ($b ? 1 : 2) . 'x';", "<?php\n$a = $b ? 1 : 2 . 'x';", false, "a conditional in parentheses before ."},
		{"php", "<?php\n$a = $b - ($c - $d);", "<?php\n$a = $b - $c - $d;", false, "- does not associate"},
		{"php", "<?php\n$a = ($b - $c) - $d;", "<?php\n$a = $b - $c - $d;", true, "- groups to the left"},
		{"php", "<?php\n$a = !($b && $c);", "<?php\n$a = !$b && $c;", false, "! binds tighter than &&"},
		{"php", "<?php\n$a = ($b || $c) && $d;", "<?php\n$a = $b || $c && $d;", false, "|| in an && operand"},
		{"php", "<?php\n$a = 'x' . ($b + 1);", "<?php\n$a = 'x' . $b + 1;", true, "+ binds tighter than . (PHP 8)"},
		{"php", "<?php\n$a = ($b . 'x') + 1;", "<?php\n$a = $b . 'x' + 1;", false, ". in a + operand"},
		{"php", "<?php\nif (($a = f()) && $b) {}", "<?php\nif ($a = f() && $b) {}", false, "an assignment followed by more"},
		{"php", "<?php\n$a = ($b and $c);", "<?php\n$a = $b and $c;", false, "and binds looser than ="},
		{"php", "<?php\n$a = f($b) && ($c);", "<?php\n$a = f($b) && $c;", true, "a primary"},
		// logical_operators
		{"php", "<?php\nif (null === $t or $t->expired()) {}", "<?php\nif (null === $t || $t->expired()) {}", true, "or in a condition"},
		{"php", "<?php\nif ($a and $b) {}", "<?php\nif ($a && $b) {}", true, "and in a condition"},
		{"php", "<?php\nif ($a or $b && $c) {}", "<?php\nif ($a || $b && $c) {}", true, "or beside &&"},
		{"php", "<?php\nif ($a and $b || $c) {}", "<?php\nif ($a && $b || $c) {}", false, "and beside ||: the groups differ"},
		{"php", "<?php\nif ($a = f() or $b) {}", "<?php\nif ($a = f() || $b) {}", false, "or after an assignment"},
		{"php", "<?php\n$a = f() or die();", "<?php\n$a = f() || die();", false, "or outside parentheses"},
		{"php", "<?php\nif ($a or $b ?? $c) {}", "<?php\nif ($a || $b ?? $c) {}", false, "?? between"},
		{"php", "<?php\nif ($a xor $b) {}", "<?php\nif ($a || $b) {}", false, "xor"},
		// braces of a block of one statement
		{"php", "<?php\nif ($a) {\n    return;\n}", "<?php\nif ($a) return;", true, "an if's one statement"},
		{"php", "<?php\nif ($a) {\n    f();\n} else {\n    g();\n}", "<?php\nif ($a) f(); else g();", true, "an else's one statement"},
		{"php", "<?php\nforeach ($a as $b) {\n    f($b);\n}", "<?php\nforeach ($a as $b) f($b);", true, "a loop's one statement"},
		{"php", "<?php\nif ($a) {\n    f();\n    g();\n}", "<?php\nif ($a) f();\n    g();", false, "two statements"},
		{"php", "<?php\nif ($a) {\n    if ($b) f();\n} else g();", "<?php\nif ($a) if ($b) f(); else g();", false, "an if in the block: the else would join it"},
		{"php", "<?php\nfunction f() {\n    return 1;\n}", "<?php\nfunction f() return 1;", false, "a function's body"},
		// casts: short_scalar_cast, lowercase_cast
		{"php", "<?php\n$a = (boolean) $b;", "<?php\n$a = (bool) $b;", true, "(boolean) is (bool)"},
		{"php", "<?php\n$a = (Boolean) $b;", "<?php\n$a = (bool) $b;", true, "a cast's case"},
		{"php", "<?php\n$a = (integer) $b;", "<?php\n$a = (int) $b;", true, "(integer) is (int)"},
		{"php", "<?php\n$a = (double) $b / 2;", "<?php\n$a = (float) $b / 2;", true, "(double) is (float)"},
		{"php", "<?php\n$a = (int) $b;", "<?php\n$a = (bool) $b;", false, "another cast"},
		{"php", "<?php\nf(Boolean);", "<?php\nf(bool);", false, "a constant in a call"},
		// native_type_declaration_casing, constant_case
		{"php", "<?php\nfunction f(Array $a) {}", "<?php\nfunction f(array $a) {}", true, "a type's case"},
		{"php", "<?php\n$a = TRUE;", "<?php\n$a = true;", true, "true's case"},
		{"php", "<?php\nfunction f(): ?String {}", "<?php\nfunction f(): ?string {}", true, "a return type's case"},
		{"php", "<?php\nf(INT);", "<?php\nf(int);", false, "a constant named like a type keeps its case"},
		{"php", "<?php\nclass A {\n    use T { f as public; }\n}", "<?php\nclass A {\n    use T { f as; }\n}", false, "a trait's method made public"},
		{"php", "<?php\nfunction f() {\n    static $a = 1;\n}", "<?php\nfunction f() {\n    $a = 1;\n}", false, "a static variable"},
		{"php", "<?php\nfunction f(): ?String {}", "<?php\nfunction f(): ?string {}", true, "a return type's case"},
		{"php", "<?php\nf(INT);", "<?php\nf(int);", false, "a constant named like a type keeps its case"},
		{"php", "<?php\nclass A {\n    use T { f as public; }\n}", "<?php\nclass A {\n    use T { f as; }\n}", false, "a trait's method made public"},
		{"php", "<?php\nfunction f() {\n    static $a = 1;\n}", "<?php\nfunction f() {\n    $a = 1;\n}", false, "a static variable"},
		{"php", "<?php\n$a = $b->TRUE;", "<?php\n$a = $b->true;", false, "a property named TRUE"},
		{"php", "<?php\n$a = A::NULL;", "<?php\n$a = A::null;", false, "a class constant named NULL"},
		// new_with_parentheses
		{"php", "<?php\n$a = new Foo;", "<?php\n$a = new Foo();", true, "new without arguments"},
		{"php", "<?php\n$a = new \\A\\Foo;", "<?php\n$a = new \\A\\Foo();", true, "a qualified name"},
		{"php", "<?php\n$a = new class extends B {};", "<?php\n$a = new class() extends B {};", true, "an anonymous class"},
		{"php", "<?php\n$a = new Foo;", "<?php\n$a = new Foo(1);", false, "an argument"},
		// include and echo operands in parentheses
		{"php", "<?php\nrequire_once(__DIR__.'/a.php');", "<?php\nrequire_once __DIR__.'/a.php';", true, "a whole include operand"},
		{"php", "<?php\nrequire_once('a') . 'b';", "<?php\nrequire_once 'a' . 'b';", false, "a part of the operand"},
		// strings by value; literals joined by .
		{"php", "<?php\nf('a' . 'b');", "<?php\nf('ab');", true, "two literals joined"},
		{"php", "<?php\nf('a'\n    . 'b'\n    . 'c');", "<?php\nf(\n    'abc'\n);", true, "a literal split over lines"},
		{"php", "<?php\nf('a\nb');", "<?php\nf('a'.\"\\n\".'b');", true, "a line end in the literal or escaped"},
		{"php", "<?php\nf(\"a \\\"b\\\" \\\\P\");", "<?php\nf('a \"b\" \\P');", true, "escapes of either quote"},
		{"php", "<?php\nf('a' . 'b' + 1);", "<?php\nf('ab' + 1);", false, "+ binds tighter than ."},
		{"php", "<?php\nf(1 + 'a' . 'b');", "<?php\nf(1 + 'ab');", false, "+ binds tighter than . before it too"},
		{"php", "<?php\nf('a' . 'b'[0]);", "<?php\nf('ab'[0]);", false, "an index binds tighter"},
		{"php", "<?php\nf(\"a$b\" . 'c');", "<?php\nf(\"a{$b}c\");", false, "an interpolation is not a literal"},
		{"php", "<?php\nf($a . 'b' . 'c');", "<?php\nf($a . 'bc');", true, "a run after an operand"},
		{"php", "<?php\nf('\\n');", "<?php\nf(\"\\n\");", false, "\\n in single quotes is two characters"},
		// heredoc and nowdoc
		{"php", "<?php\nf(<<<EOF\nabc\nEOF\n);", "<?php\nf(<<<'EOF'\nabc\nEOF\n);", true, "a heredoc without interpolation is a nowdoc"},
		{"php", "<?php\nf(<<<EOF\na$b\nEOF\n);", "<?php\nf(<<<'EOF'\na$b\nEOF\n);", false, "a heredoc's interpolation"},
		{"php", "<?php\nf(<<<EOF\nabc\n  d\nEOF\n);", "<?php\n    f(<<<EOF\n        abc\n          d\n        EOF);", true, "a heredoc indented with its terminator (PHP 7.3)"},
		{"php", "<?php\nf(<<<EOF\nabc\n  d\nEOF\n);", "<?php\n    f(<<<EOF\n        abc\n        d\n        EOF);", false, "a heredoc's line indented less"},
		// line ends
		{"php", "<?php\r\ninterface A\r\n{\r\n    /**\r\n     * d\r\n     */\r\n    public function f(array $r);\r\n}\r\n", "<?php\ninterface A\n{\n    /**\n     * d\n     */\n    public function f(array $r);\n}\n", true, "CRLF line ends"},
	})
}
