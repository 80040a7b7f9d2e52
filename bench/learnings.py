#!/usr/bin/env python3
"""Writes N synthetic learning files into .lore/learnings of the current
directory, as a git pull would bring them (seeded: the same N gives the
same files).

usage: bench/learnings.py N [symbol|graph]
  symbol  a method anchor and a README file anchor each (bench/learn)
  graph   one file anchor into the generated graph of bench/graph (cli.sh)
"""
import random
import sys

n = int(sys.argv[1])
layout = sys.argv[2] if len(sys.argv) > 2 else "symbol"
random.seed(1)
alpha = "0123456789abcdefghjkmnpqrstvwxyz"
for i in range(n):
    lid = random.choice(alpha[10:]) + "".join(random.choice(alpha) for _ in range(9))
    if layout == "graph":
        j = i * 10 + 2
        anchors = f"""  - file: src/module{j % 97:03d}/pkg{j % 13:02d}/file{j:06d}.go
    hash: sha256:{'c' * 64}
"""
    else:
        anchors = f"""  - symbol: src/pkg{i % 50}/file{i % 20}.go::Type{i}::Method
    kind: method
    lines: {i + 1}-{i + 21}
    hash: sha256:{'a' * 64}
    shape: sha256:{'b' * 64}
  - file: README.md
    hash: sha256:{'c' * 64}
"""
    with open(f".lore/learnings/{lid}.md", "w") as f:
        f.write(f"""---
id: {lid}
title: learning {i} about the retry budget of package {i % 50}
tags: [t{i % 7}, area{i % 13}]
anchors:
{anchors}created: 2026-11-21T10:00:00Z
updated: 2026-11-21T10:00:00Z
---
Body of learning {i}: what we learned and why it matters.
""")
