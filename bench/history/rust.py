# The Rust oracle of bench/history: rustc's own parser, through its
# printing of the syntax tree before macro expansion (rustc
# -Zunpretty=ast-tree, unstable, so run with RUSTC_BOOTSTRAP=1).
# argv[1] is rustc. One request a line on stdin, a JSON object {"path":
# ..., "src": base64 of the file}; one answer a line on stdout, {"ok":
# false} when rustc cannot read the file, else {"ok": true, "decls":
# [[name, tree], ...]}: every function, struct, enum, union and trait
# the file writes, and every function of an impl block or a trait,
# inside inline modules too, named as lore names them ("f", "S::f",
# "inner::S::f"; an impl's functions belong to the type it is for, by
# its last path segment, through references and pointers; an impl for
# another kind of type, a slice or a tuple, is left out).
#
# Each file is read alone: `mod x;` is not followed (the tree is read
# before expansion, which would load it), and what a macro writes is not
# there, as it is not for lore.
#
# A tree is rustc's printing of the item without its positions, node ids,
# doc comments or the spacing of a macro's tokens; without parentheses
# around an expression, a type or a pattern (the tree's shape holds what
# they group: rustc's unused_parens lint says which change nothing); and
# without what lore's hash defines as layout (docs/fingerprints.md): a
# block around a match arm's or a closure's lone expression; a trailing
# comma in a macro's tokens; the order of a run of use declarations and
# of the names in a use's braces; a number's underscores; blanks at a
# line's end in a string.
import base64
import json
import os
import re
import subprocess
import sys
import tempfile

RUSTC = sys.argv[1]
FIELD = re.compile(r'([a-z_][a-z0-9_]*): (.*)$')
SPAN = re.compile(r'\S+:\d+:\d+: \d+:\d+ \(#\d+\)$|no-location \(#\d+\)$')
SPACING = {'Joint', 'Alone', 'JointHidden'}
IDENT = re.compile(r'#\d+$')
BLANKS = re.compile(r'(?: |\\t)+(?=\\n)')


class Node:
    __slots__ = ('field', 'label', 'kids')

    def __init__(self, field, label, kids):
        self.field, self.label, self.kids = field, label, kids


class Leaf:
    __slots__ = ('field', 'text')

    def __init__(self, field, text):
        self.field, self.text = field, text


def parse(text):
    # rustc's {:#?} printing: one field or element a line, a container
    # opened at a line's end ("Name {", "Name(", "[") and closed on a
    # line of its own.
    root = Node('', '', [])
    stack = [root]
    for line in text.split('\n'):
        s = line.strip()
        if s.endswith(','):
            s = s[:-1]
        if not s:
            continue
        if s in ('}', ')', ']'):
            stack.pop()
            continue
        field, v = '', s
        m = FIELD.match(s)
        if m:
            field, v = m.group(1), m.group(2)
        if v.endswith(' {'):
            n = Node(field, v[:-2], [])
        elif v.endswith('(') and not v.startswith('"'):
            n = Node(field, v[:-1], [])
        elif v == '[':
            n = Node(field, '[', [])
        else:
            stack[-1].kids.append(Leaf(field, v))
            continue
        stack[-1].kids.append(n)
        stack.append(n)
    return root


def child(n, field):
    for k in n.kids:
        if k.field == field:
            return k
    return None


def lone_expr(block):
    # The expression a block holds alone, or None: Block(Block{stmts:
    # [Stmt{kind: Expr(E)}], rules: Default}, no label).
    if not isinstance(block, Node) or block.label != 'Block' or len(block.kids) != 2:
        return None
    b, label = block.kids
    if not (isinstance(label, Leaf) and label.text == 'None' and isinstance(b, Node)):
        return None
    stmts, rules = child(b, 'stmts'), child(b, 'rules')
    if not isinstance(stmts, Node) or len(stmts.kids) != 1 or not isinstance(rules, Leaf) or rules.text != 'Default':
        return None
    kind = child(stmts.kids[0], 'kind') if isinstance(stmts.kids[0], Node) else None
    if isinstance(kind, Node) and kind.label == 'Expr' and len(kind.kids) == 1:
        return kind.kids[0]
    if isinstance(kind, Node) and kind.label == 'MacCall' and len(kind.kids) == 1:
        # A braced macro call ending the block ({ quote! {…} }) is read as
        # a statement, and is the block's value as the bare call is.
        st = kind.kids[0]
        mac, style, attrs = child(st, 'mac'), child(st, 'style'), child(st, 'attrs')
        if isinstance(mac, Node) and isinstance(style, Leaf) and style.text == 'Braces' and isinstance(attrs, Leaf) and attrs.text == '[]':
            return Node('', 'Expr', [Node('kind', 'MacCall', [Node('', mac.label, mac.kids)]), Leaf('attrs', '[]')])
    return None


def unblock(expr):
    # expr, or the lone expression of the block it is.
    if isinstance(expr, Node) and expr.label == 'Expr':
        attrs = child(expr, 'attrs')
        inner = lone_expr(child(expr, 'kind'))
        if inner is not None and isinstance(attrs, Leaf) and attrs.text == '[]':
            return inner
    return expr


def clean(n):
    # n without what is no part of the code's meaning, or None.
    if isinstance(n, Leaf):
        if n.field in ('span', 'id') or SPAN.match(n.text) or n.text in SPACING:
            return None
        if n.field == 'tokens' and n.text == 'None':
            return None
        return n
    if n.field in ('span', 'id', 'dspan') or n.label in ('DelimSpacing', 'DelimSpan', 'ModSpans'):
        return None
    if n.field == 'tokens' and n.label != 'TokenStream':
        return None
    if n.label == 'Attribute':
        kind = child(n, 'kind')
        if isinstance(kind, Node) and kind.label == 'DocComment':
            return None
    kids = [c for c in (clean(k) for k in n.kids) if c is not None]
    out = Node(n.field, n.label, kids)
    if n.label in ('Expr', 'Ty', 'Pat'):
        kind = child(out, 'kind')
        if isinstance(kind, Node) and kind.label == 'Paren' and len(kind.kids) == 1 and isinstance(kind.kids[0], Node):
            inner = kind.kids[0]
            return Node(n.field, inner.label, inner.kids)
    if n.label == 'Arm':
        body = child(out, 'body')
        if isinstance(body, Node) and body.label == 'Some' and len(body.kids) == 1:
            e = unblock(body.kids[0])
            if isinstance(e, Node):
                body.kids = [Node(body.kids[0].field, e.label, e.kids)]
    if n.label == 'Closure':
        decl, body = child(out, 'fn_decl'), child(out, 'body')
        output = child(decl, 'output') if isinstance(decl, Node) else None
        if isinstance(output, Node) and output.label == 'Default' and isinstance(body, Node):
            e = unblock(body)
            if e is not body and isinstance(e, Node):
                out.kids = [Node('body', e.label, e.kids) if k is body else k for k in out.kids]
    if n.label == 'Lit':
        clean_lit(out)
    if n.label == 'Nested':
        items = child(out, 'items')
        if isinstance(items, Node):
            items.kids.sort(key=text)
    if n.label == 'Block':
        stmts = child(out, 'stmts')
        if isinstance(stmts, Node):
            stmts.kids = sort_uses(stmts.kids)
    if n.label == '[' and out.kids and n.field == '' and is_comma(out.kids[-1]):
        # A TokenStream's list: a trailing comma dropped.
        out.kids.pop()
    if n.label == '[' and not out.kids:
        # A list emptied (of doc comments) is the empty list rustc prints.
        return Leaf(n.field, '[]')
    return out


def clean_lit(lit):
    # A number by its digits (10_240 is 10240); blanks at a line's end in
    # a string do not count.
    kind, sym = child(lit, 'kind'), child(lit, 'symbol')
    if not isinstance(kind, Leaf) or not isinstance(sym, Leaf):
        return
    if kind.text in ('Integer', 'Float'):
        sym.text = sym.text.replace('_', '')
    else:
        sym.text = BLANKS.sub('', sym.text)


def is_use(stmt):
    kind = child(stmt, 'kind') if isinstance(stmt, Node) else None
    item = kind.kids[0] if isinstance(kind, Node) and kind.label == 'Item' and kind.kids else None
    k = child(item, 'kind') if isinstance(item, Node) else None
    return isinstance(k, Node) and k.label == 'Use'


def sort_uses(stmts):
    # Each run of use declarations in its order by text: their order
    # means nothing, and rustfmt sorts them.
    out, run = [], []
    for st in stmts + [None]:
        if st is not None and is_use(st):
            run.append(st)
            continue
        out.extend(sorted(run, key=text))
        run = []
        if st is not None:
            out.append(st)
    return out


def is_comma(k):
    if not (isinstance(k, Node) and k.label == 'Token' and k.kids):
        return False
    tok = k.kids[0]
    kind = child(tok, 'kind') if isinstance(tok, Node) else None
    return isinstance(kind, Leaf) and kind.text == 'Comma'


def text(n):
    if isinstance(n, Leaf):
        return (n.field + '=' if n.field else '') + n.text
    return (n.field + '=' if n.field else '') + n.label + '(' + ','.join(text(k) for k in n.kids) + ')'


def ident(leaf):
    return IDENT.sub('', leaf.text) if isinstance(leaf, Leaf) else None


def self_name(ty):
    # The name lore gives an impl's type: a path's last segment, through
    # references and pointers.
    while isinstance(ty, Node):
        kind = child(ty, 'kind')
        if not isinstance(kind, Node):
            return None
        if kind.label == 'Path':
            path = kind.kids[-1]
            segs = child(path, 'segments') if isinstance(path, Node) else None
            if not isinstance(segs, Node) or not segs.kids:
                return None
            return ident(child(segs.kids[-1], 'ident'))
        if kind.label in ('Ref', 'Ptr'):
            mt = kind.kids[-1]
            ty = child(mt, 'ty') if isinstance(mt, Node) else None
            continue
        return None
    return None


def items(lst, scope, in_type, out):
    for it in lst.kids:
        if not isinstance(it, Node) or it.label != 'Item':
            continue
        kind = child(it, 'kind')
        if not isinstance(kind, Node):
            continue
        k = kind.label
        body = kind.kids[0] if kind.kids and isinstance(kind.kids[0], Node) else None
        if k == 'Fn' and body is not None:
            name = ident(child(body, 'ident'))
            if name:
                out.append([scope + name, text(clean(it))])
        elif in_type:
            continue
        elif k in ('Struct', 'Enum', 'Union'):
            name = ident(kind.kids[0]) if kind.kids else None
            if name:
                out.append([scope + name, text(clean(it))])
        elif k == 'Trait' and body is not None:
            name = ident(child(body, 'ident'))
            if name:
                out.append([scope + name, text(clean(it))])
                members = child(body, 'items')
                if isinstance(members, Node):
                    items(members, scope + name + '::', True, out)
        elif k == 'Impl' and body is not None:
            name = self_name(child(body, 'self_ty'))
            members = child(body, 'items')
            if name and isinstance(members, Node):
                items(members, scope + name + '::', True, out)
        elif k == 'Mod' and len(kind.kids) >= 3:
            name, loaded = ident(kind.kids[1]), kind.kids[2]
            if name and isinstance(loaded, Node) and loaded.label == 'Loaded' and loaded.kids and isinstance(loaded.kids[0], Node):
                items(loaded.kids[0], scope + name + '::', False, out)


def answer(req, tmp):
    src = base64.b64decode(req['src'])
    f = os.path.join(tmp, 'x.rs')
    with open(f, 'wb') as w:
        w.write(src)
    env = dict(os.environ, RUSTC_BOOTSTRAP='1')
    r = subprocess.run([RUSTC, '-Zunpretty=ast-tree', '--edition', '2021', f], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if r.returncode != 0:
        return {'ok': False}
    root = parse(r.stdout.decode('utf-8', 'replace'))
    crate = root.kids[0] if root.kids else None
    lst = child(crate, 'items') if isinstance(crate, Node) else None
    out = []
    if isinstance(lst, Node):
        items(lst, '', False, out)
    return {'ok': True, 'decls': out}


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for line in sys.stdin:
            print(json.dumps(answer(json.loads(line), tmp)), flush=True)


main()
