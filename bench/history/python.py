# The Python oracle of bench/history: CPython's own parser reads the
# declarations of a file. One request a line on stdin, a JSON object
# {"path": ..., "src": base64 of the file}; one answer a line on stdout,
# {"ok": false} when the file does not parse, else {"ok": true, "decls":
# [[name, tree], ...]}: every function, class and method at module or
# class level (in if, try, with and loop blocks too, as lore names them),
# named as lore names them ("f", "C::m", "C::Inner::m"), and its tree.
#
# A tree is ast.dump without positions, less what lore's hash defines as
# layout (docs/fingerprints.md): comments (the ast has none), docstrings
# and other statements that are only a string (not bytes), blanks at line
# ends inside strings, the u prefix. Quotes, parentheses, trailing commas,
# adjacent strings and number spellings are not in the ast at all.
import ast
import base64
import json
import re
import sys
import warnings

TRAILING = re.compile(r"[ \t]+\n")


class Canon(ast.NodeTransformer):
    def visit_Expr(self, node):
        v = node.value
        if isinstance(v, ast.Constant) and isinstance(v.value, str):
            return None
        return self.generic_visit(node)

    def visit_Constant(self, node):
        if isinstance(node.value, str):
            node.value = TRAILING.sub("\n", node.value)
        node.kind = None
        return node


BLOCKS = (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)
if hasattr(ast, "TryStar"):
    BLOCKS += (ast.TryStar,)


def walk(body, prefix, out):
    for n in body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = prefix + n.name
            out.append([name, ast.dump(n, include_attributes=False)])
            if isinstance(n, ast.ClassDef):
                walk(n.body, name + "::", out)
        elif isinstance(n, BLOCKS):
            for field in ("body", "orelse", "finalbody"):
                walk(getattr(n, field, []), prefix, out)
            for h in getattr(n, "handlers", []):
                walk(h.body, prefix, out)


def answer(req):
    src = base64.b64decode(req["src"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(src, filename=req["path"])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {"ok": False}
    tree = Canon().visit(tree)
    out = []
    try:
        walk(tree.body, "", out)
    except RecursionError:
        return {"ok": False}
    return {"ok": True, "decls": out}


def main():
    sys.setrecursionlimit(10000)
    for line in sys.stdin:
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()


main()
