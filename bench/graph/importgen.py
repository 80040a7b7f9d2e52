#!/usr/bin/env python3
"""Writes a graph for `lore graph import`, and the same edges as CSV for
SQLite's `.import`: EDGES edges among NODES files (IMPORTS, and one in four
CO_CHANGES_WITH with a weight), with preferential attachment so that some
files are hubs, as in a real repository. Only edges a workspace imports
(not learnings' anchors or links, which come from the learning files).

usage: bench/graph/importgen.py OUT.json OUT.csv [EDGES] [NODES]
       (defaults 1,000,000 and 100,000; seeded, so every run writes the same)
"""
import random
import sys


def main():
    out_json, out_csv = sys.argv[1], sys.argv[2]
    edges = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    nodes = int(sys.argv[4]) if len(sys.argv) > 4 else 100_000
    rnd = random.Random(34)
    names = ["file:src/m%03d/p%02d/f%06d.go" % (i % 997, i % 89, i) for i in range(nodes)]
    seen = set()
    pool = []  # endpoints so far: drawing from it favours hubs
    with open(out_json, "w") as js, open(out_csv, "w") as cs:
        js.write('{"nodes":[')
        for i, n in enumerate(names):
            js.write(("," if i else "") + '\n{"id":"%s","attrs":{"lang":"go"}}' % n)
        js.write('],"edges":[')
        cs.write("type,src,dst,relation,weight\n")
        k = 0
        while k < edges:
            a = rnd.randrange(nodes)
            b = rnd.choice(pool) if pool and rnd.random() < 0.7 else rnd.randrange(nodes)
            if a == b:
                continue
            typ, w = "IMPORTS", 1.0
            if k % 4 == 3:
                typ, w = "CO_CHANGES_WITH", round(rnd.uniform(0.3, 1.0), 3)
                a, b = min(a, b), max(a, b)
            key = (typ, a, b)
            if key in seen or (typ == "CO_CHANGES_WITH" and ("CO_CHANGES_WITH", b, a) in seen):
                continue
            seen.add(key)
            pool.append(b)
            js.write(("," if k else "") + '\n{"type":"%s","from":"%s","to":"%s","weight":%s}' % (typ, names[a], names[b], w))
            cs.write("%s,%s,%s,,%s\n" % (typ, names[a], names[b], w))
            k += 1
        js.write("]}\n")


if __name__ == "__main__":
    main()
