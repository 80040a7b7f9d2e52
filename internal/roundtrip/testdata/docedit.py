"""Reword every docstring of the given Python files: the docstrings of
modules, classes and functions (as Python's own ast finds them) become
a reworded single-line literal. The files keep their syntax tree but
for those strings; a file ast cannot read is left alone.

usage: python3 docedit.py FILE...
"""
import ast
import sys


def reword(value):
    words = value.split()
    return "Reworded: " + " ".join(reversed(words[:12]))


def edit(path):
    with open(path, encoding="utf-8") as f:
        src = f.read()
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return
    lines = src.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode("utf-8")))
    data = src.encode("utf-8")
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not node.body:
            continue
        first = node.body[0]
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
            continue
        c = first.value
        start = offsets[c.lineno - 1] + c.col_offset
        end = offsets[c.end_lineno - 1] + c.end_col_offset
        edits.append((start, end, repr(reword(c.value)).encode("utf-8")))
    for start, end, new in sorted(edits, reverse=True):
        data = data[:start] + new + data[end:]
    out = data.decode("utf-8")
    try:
        ast.parse(out)
    except SyntaxError:
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(out)


for p in sys.argv[1:]:
    edit(p)
