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
		// line ends
		{"php", "<?php\r\ninterface A\r\n{\r\n    /**\r\n     * d\r\n     */\r\n    public function f(array $r);\r\n}\r\n", "<?php\ninterface A\n{\n    /**\n     * d\n     */\n    public function f(array $r);\n}\n", true, "CRLF line ends"},
	})
}
