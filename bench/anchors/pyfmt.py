"""Reformat Python files without changing their meaning, for lore's
relocation benchmark: halve every indentation (outside multi-line strings)
and put a comment line before every statement. A file whose syntax tree
changes is written back unchanged and reported on stderr.

usage: python3 pyfmt.py SRC_DIR DST_DIR FILE...
"""
import ast
import io
import os
import sys
import tokenize


def reformat(src):
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    in_string = set()
    for t in toks:
        if t.type == tokenize.STRING or t.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            in_string.update(range(t.start[0] + 1, t.end[0] + 1))
    starts = set()
    boundary = True
    for t in toks:
        if t.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
            continue
        if t.type == tokenize.NEWLINE:
            boundary = True
            continue
        if boundary:
            starts.add(t.start[0])
            boundary = False
    out = []
    for i, line in enumerate(src.splitlines(keepends=True), 1):
        if i in in_string:
            out.append(line)
            continue
        body = line.lstrip(" ")
        n = len(line) - len(body)
        if body.startswith("\t"):
            out.append(line)
            continue
        indent = " " * (n // 2)
        if i in starts:
            out.append(indent + "# lore-bench: reformatted\n")
        out.append(indent + body)
    return "".join(out)


def main():
    src_dir, dst_dir = sys.argv[1], sys.argv[2]
    for rel in sys.argv[3:]:
        with open(os.path.join(src_dir, rel), encoding="utf-8") as f:
            src = f.read()
        new = src
        try:
            cand = reformat(src)
            if ast.dump(ast.parse(cand)) == ast.dump(ast.parse(src)):
                new = cand
            else:
                print("unchanged (tree differs):", rel, file=sys.stderr)
        except (SyntaxError, tokenize.TokenError, ValueError) as e:
            print("unchanged:", rel, e, file=sys.stderr)
        dst = os.path.join(dst_dir, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w", encoding="utf-8") as f:
            f.write(new)


if __name__ == "__main__":
    main()
