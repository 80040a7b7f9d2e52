#!/usr/bin/env python3
"""The peer of bench/graph: the same generated graph in SQLite, an edge
table with an index for each direction, measured as bench/graph measures
lore's store: bulk load, bytes per edge on disk, and depth-2
neighbourhoods in both directions, best 100 by the product of weights.

usage: go run ./bench/graph -json graph.json    # the graph, as lore's graph JSON
       bench/graph/sqlite.py graph.json [QUERIES]  (default 1000)

SQLite has no best-first search: the recursive query reaches the whole
depth-2 neighbourhood and keeps the best 100, which is more work on hubs
than lore's search, which stops once its first 100 results are certain.
Latencies are of the query alone, in process (Python's sqlite3 module).
"""
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time

QUERY = """
WITH RECURSIVE reach(node, depth, score) AS (
  SELECT ?, 0, 1.0
  UNION ALL
  SELECT e.dst, r.depth + 1, r.score * e.weight FROM reach r JOIN edges e ON e.src = r.node WHERE r.depth < 2
  UNION ALL
  SELECT e.src, r.depth + 1, r.score * e.weight FROM reach r JOIN edges e ON e.dst = r.node WHERE r.depth < 2
)
SELECT node, max(score) AS s, min(depth) AS d FROM reach WHERE depth > 0
GROUP BY node ORDER BY s DESC, d, node LIMIT 100
"""


def main():
    path = sys.argv[1]
    queries = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    doc = json.load(open(path))
    ids = {n["id"]: i for i, n in enumerate(doc["nodes"])}
    rows = [(ids[e["from"]], ids[e["to"]], e["type"], e.get("relation", ""), e.get("weight", 1.0)) for e in doc["edges"]]
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "graph.db")
        start = time.perf_counter()
        con = sqlite3.connect(db)
        con.executescript("""
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            CREATE TABLE nodes (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);
            CREATE TABLE edges (src INTEGER NOT NULL, dst INTEGER NOT NULL, type TEXT NOT NULL,
                                relation TEXT NOT NULL, weight REAL NOT NULL,
                                PRIMARY KEY (src, type, dst, relation)) WITHOUT ROWID;
        """)
        with con:
            con.executemany("INSERT INTO nodes VALUES (?, ?)", ((i, n) for n, i in ids.items()))
            con.executemany("INSERT OR REPLACE INTO edges VALUES (?, ?, ?, ?, ?)", rows)
            con.execute("CREATE INDEX edges_in ON edges (dst, type, src)")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        load = time.perf_counter() - start
        size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
        rng = random.Random(1)
        seeds = rng.sample(range(len(ids)), min(queries, len(ids)))
        times = []
        for s in seeds:
            t0 = time.perf_counter()
            con.execute(QUERY, (s,)).fetchall()
            times.append(time.perf_counter() - t0)
        times.sort()
        print(f"SQLite {sqlite3.sqlite_version}: {len(ids):,} nodes, {len(rows):,} edges")
        print(f"bulk load (with both indexes): {load:.2f} s; {size / len(rows):.0f} bytes per edge on disk")
        print(f"depth-2 neighbourhood, both directions, best 100: p50 {statistics.median(times) * 1e3:.2f} ms,"
              f" p95 {times[int(len(times) * .95)] * 1e3:.2f} ms ({len(times)} random seeds)")


if __name__ == "__main__":
    main()
