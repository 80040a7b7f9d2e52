# The C oracle of bench/history: clang's parser, through libclang's
# Python bindings (Debian: python3-clang-14). argv[1] is the libclang
# shared library. One request a line on stdin, a JSON object {"path":
# ..., "src": base64 of the file}; one answer a line on stdout, {"ok":
# false} when clang cannot read the file, else {"ok": true, "decls":
# [[name, tree], ...]}: every function with a body and every struct,
# union and enum with one that the file itself writes, named as lore
# names them (flat: "f", "point").
#
# The other files of the repository are not at hand, so #include lines
# are blanked (a missing header would end clang's reading of the file)
# and what they declared reads as unknown: clang recovers, and a
# declaration whose name is not where clang places it (a macro made it)
# is left out, as is a name the file writes twice (#if branches). Only
# the file's top level is read: a struct inside another is the outer's.
#
# A tree is the declaration's tokens as clang's lexer reads them: no
# comments, no layout, a line continuation spliced, a number by its value
# and type, string literals written next to each other as the one the
# compiler makes, a trailing comma before a closing brace dropped: what
# the compiler reads the same.
import base64
import json
import re
import sys

import clang.cindex as ci

ci.Config.set_library_file(sys.argv[1])
K = ci.CursorKind
T = ci.TokenKind
FUNCS = {K.FUNCTION_DECL}
RECORDS = {K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL}
index = ci.Index.create()
INCLUDE = re.compile(r'^[ \t]*#[ \t]*(include|import)\b.*$', re.M)


def number(s):
    # The value, and the suffix that gives it its type (100000 is an int,
    # 100000L a long): U and L in any case or order.
    m = re.fullmatch(r'(.*?)([uUlL]*)', s)
    t, suffix = m.group(1), ''.join(sorted(m.group(2).upper()))
    try:
        if re.fullmatch(r'0[0-7]+', t):
            return str(int(t, 8)) + suffix
        if re.fullmatch(r'0[xX][0-9a-fA-F]+|[0-9]+|0[bB][01]+', t):
            return str(int(t, 0)) + suffix
        f = re.fullmatch(r'(.*?)([fFlL]?)', s)
        return repr(float(f.group(1))) + f.group(2).upper()
    except ValueError:
        return s


def tree(tu, cur):
    # The extent read as offsets in the file: a declaration that starts
    # with a macro (zlib's `local`, defined as static) has its first
    # token where the macro's body is written, and clang would tokenize
    # from there.
    f = cur.extent.start.file
    rng = ci.SourceRange.from_locations(ci.SourceLocation.from_offset(tu, f, cur.extent.start.offset),
                                        ci.SourceLocation.from_offset(tu, f, cur.extent.end.offset))
    out = []
    for tok in tu.get_tokens(extent=rng):
        k, s = tok.kind, tok.spelling
        if k == T.COMMENT:
            continue
        if k == T.LITERAL and s[:1].isdigit() or k == T.LITERAL and s[:1] == '.' and s[1:2].isdigit():
            s = number(s)
        elif k == T.LITERAL and s.endswith('"') and s.startswith('"') and out and out[-1].startswith('"') and not re.search(r'\\x[0-9a-fA-F]*"$|\\[0-7]{1,2}"$', out[-1]):
            out[-1] = out[-1][:-1] + s[1:]
            continue
        elif s == '}' and out and out[-1] == ',':
            out.pop()
        out.append(s)
    return ' '.join(out)


def answer(req):
    path = req['path']
    src = base64.b64decode(req['src']).decode('utf-8', 'replace')
    src = INCLUDE.sub('', src)
    try:
        tu = index.parse(path, args=['-x', 'c', '-std=gnu11', '-w'], unsaved_files=[(path, src)])
    except ci.TranslationUnitLoadError:
        return {'ok': False}
    lines = src.split('\n')
    decls, seen = [], {}

    def walk(c):
        for k in c.get_children():
            f = k.location.file
            if f is None or f.name != path:
                continue
            if (k.kind in FUNCS or k.kind in RECORDS) and k.spelling and k.is_definition():
                line, col = k.location.line, k.location.column
                written = 0 < line <= len(lines) and lines[line - 1][col - 1:].startswith(k.spelling)
                if written:
                    seen[k.spelling] = seen.get(k.spelling, 0) + 1
                    decls.append([k.spelling, tree(tu, k)])

    walk(tu.cursor)
    return {'ok': True, 'decls': [d for d in decls if seen[d[0]] == 1]}


for line in sys.stdin:
    try:
        ans = answer(json.loads(line))
    except Exception:
        ans = {'ok': False}
    print(json.dumps(ans), flush=True)
