<?php
// The PHP oracle of bench/history: PHP's own parser, through the php-ast
// extension (ast\parse_code). One request a line on stdin, a JSON object
// {"path": ..., "src": base64 of the file}; one answer a line on stdout,
// {"ok": false} when the file does not parse, else {"ok": true, "decls":
// [[name, tree], ...]}: every class, interface, trait, enum, function and
// method, wherever it stands, named as lore names it ("C", "C::m", "f";
// a namespace is no part of a name, an anonymous class adds none).
//
// A tree is the node kinds, flags and values without positions: comments
// (doc comments too) are not in it, nor what the parser does not keep
// apart (quotes, parentheses, a heredoc's spelling), nor how string
// literals are split by "." (a concatenation is the list of its operands,
// adjacent literals joined: the parser joins only those it meets first),
// nor blanks at line ends inside strings (lore's hash drops them),
// nor the parser's own numbering of declarations (__declId). The parser
// keeps "else if" apart from "elseif" (an if inside the else), array()
// and list() from [], and the case of true, false and null; PHP does
// not, and neither does the tree.

function dump($n): string
{
    if ($n instanceof ast\Node) {
        if ($n->kind === ast\AST_IF) {
            $n = flatIf($n);
        } elseif ($n->kind === ast\AST_CONST && $n->children['name'] instanceof ast\Node
            && in_array(strtolower($n->children['name']->children['name']), ['true', 'false', 'null'], true)) {
            return '(AST_CONST ' . strtolower($n->children['name']->children['name']) . ')';
        }
        if ($n->kind === ast\AST_BINARY_OP && $n->flags === ast\flags\BINARY_CONCAT) {
            $ops = [];
            foreach (concatOperands($n) as $o) {
                if (is_string($o) && $ops !== [] && is_string(end($ops))) {
                    $ops[count($ops) - 1] .= $o;
                } else {
                    $ops[] = $o;
                }
            }
            return count($ops) === 1 ? dump($ops[0]) : '(CONCAT ' . implode(' ', array_map('dump', $ops)) . ')';
        }
        $s = '(' . ast\get_kind_name($n->kind);
        if ($n->flags !== 0 && $n->kind !== ast\AST_ARRAY) { // array(), list() and [] alike
            $s .= ' #' . $n->flags;
        }
        foreach ($n->children as $k => $c) {
            if ($k === 'docComment' || $k === '__declId') {
                continue;
            }
            $s .= ' ' . (is_string($k) ? $k . ':' : '') . dump($c);
        }
        return $s . ')';
    }
    if (is_array($n)) {
        return '[' . implode(' ', array_map('dump', $n)) . ']';
    }
    if (is_string($n)) {
        return json_encode(preg_replace('/[ \t]+\n/', "\n", $n), JSON_INVALID_UTF8_SUBSTITUTE);
    }
    return var_export($n, true);
}

// concatOperands lists the operands of a chain of concatenations.
function concatOperands($n): array
{
    if ($n instanceof ast\Node && $n->kind === ast\AST_BINARY_OP && $n->flags === ast\flags\BINARY_CONCAT) {
        return array_merge(concatOperands($n->children['left']), concatOperands($n->children['right']));
    }
    return [$n];
}

// flatIf writes an if whose else holds only another if as one chain of
// elseif.
function flatIf(ast\Node $n): ast\Node
{
    $elems = $n->children;
    $last = end($elems);
    if ($last !== false && $last->children['cond'] === null && $last->children['stmts'] instanceof ast\Node
        && count($last->children['stmts']->children) === 1) {
        $inner = $last->children['stmts']->children[0];
        if ($inner instanceof ast\Node && $inner->kind === ast\AST_IF) {
            array_pop($elems);
            $n = clone $n;
            $n->children = array_merge($elems, flatIf($inner)->children);
        }
    }
    return $n;
}

function walk($n, array $scope, array &$out): void
{
    if (is_array($n)) {
        foreach ($n as $c) {
            walk($c, $scope, $out);
        }
        return;
    }
    if (!($n instanceof ast\Node)) {
        return;
    }
    $decl = in_array($n->kind, [ast\AST_CLASS, ast\AST_FUNC_DECL, ast\AST_METHOD], true);
    if ($decl && is_string($n->children['name'] ?? null)) {
        $scope[] = $n->children['name'];
        $out[] = [implode('::', $scope), dump($n)];
    }
    foreach ($n->children as $c) {
        walk($c, $scope, $out);
    }
}

function answer(array $req): array
{
    try {
        $ast = ast\parse_code(base64_decode($req['src']), 90);
        $out = [];
        walk($ast, [], $out);
    } catch (Throwable $e) { // a parse error, a file nested too deep
        return ['ok' => false];
    }
    return ['ok' => true, 'decls' => $out];
}

while (($line = fgets(STDIN)) !== false) {
    $ans = json_encode(answer(json_decode($line, true)), JSON_INVALID_UTF8_SUBSTITUTE);
    echo ($ans === false ? '{"ok":false}' : $ans), "\n";
}
