"""Callers of what aliases hold, and what ``callers`` costs: one indexed repository, in process.

For every function, method or class that a ``references`` edge from an alias reaches (a
variable or field the room marked ``alias``: ``compat = real``, express's ``res.contentType =
res.type = function…``), prints its callers' counts by link (``counts`` of ``astrag callers
ID --format json``), or nothing for an index made before aliases were marked. Then times
``calls.callers`` at depth 1 and 2 on the 40 symbols with the most incoming calls ("hub") and
40 seeded functions and methods ("typical"), three rounds after a warm one, p50 and p95.

Run it once with each version of astrag on its own index of the same repository (the version
found first on ``PYTHONPATH`` is the one measured) to compare them:

    python3 bench/alias_callers.py /path/to/repo [--symbol ID ...] [--no-timing]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import time
from pathlib import Path

from astrag import api
from astrag.present import traversal_json
from astrag.query import calls

_HELD = """
SELECT DISTINCT dn.name FROM edges e
JOIN symbols s ON s.nid = e.src JOIN names dn ON dn.nid = e.dst JOIN symbols t ON t.nid = e.dst
WHERE e.kind = 'references' AND s.modifiers LIKE '%"alias"%'
  AND t.kind IN ('function', 'method', 'class')
ORDER BY dn.name"""
_HUBS = """
SELECT dn.name FROM edges e JOIN names dn ON dn.nid = e.dst JOIN symbols s ON s.nid = e.dst
WHERE e.kind = 'calls' AND s.kind IN ('function', 'method', 'class')
GROUP BY e.dst ORDER BY count(*) DESC, dn.name LIMIT 40"""
_TYPICAL = """
SELECT n.name FROM symbols s JOIN names n ON n.nid = s.nid
WHERE s.kind IN ('function', 'method') ORDER BY (s.nid * 2654435761) % 4294967291 LIMIT 40"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--symbol", action="append", default=[], help="also this symbol id")
    parser.add_argument("--no-timing", action="store_true")
    args = parser.parse_args()
    db = sqlite3.connect(args.root / ".astrag" / "index.db")
    held = [row[0] for row in db.execute(_HELD)] + args.symbol
    with api.open_index(args.root) as idx:
        store = idx.store
        for sid in dict.fromkeys(held):
            symbol = store.get_symbol(sid)
            if symbol is None:
                print(f"{sid}\tnot in this index")
                continue
            found = calls.callers(store, symbol, 1)
            counts = traversal_json(symbol, "callers", 1, found)["counts"]
            values = sum(1 for r in found if r.through == calls.AS_VALUE)
            shown = " ".join(f"{link}={n}" for link, n in counts.items())
            print(f"{sid}\t{shown} (of the candidates, {values} as a value)")
        if args.no_timing:
            return
        for label, query in (("hub", _HUBS), ("typical", _TYPICAL)):
            symbols = [store.get_symbol(row[0]) for row in db.execute(query)]
            for depth in (1, 2):
                for s in symbols:
                    calls.callers(store, s, depth)  # warm
                took = []
                for _ in range(3):
                    for s in symbols:
                        start = time.perf_counter()
                        calls.callers(store, s, depth)
                        took.append(time.perf_counter() - start)
                took.sort()
                p50, p95 = statistics.median(took), took[int(0.95 * len(took))]
                print(f"{label} depth {depth}: p50 {1000 * p50:.2f} ms, p95 {1000 * p95:.2f} ms")


if __name__ == "__main__":
    main()
