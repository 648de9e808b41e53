"""Query speed of ``search`` and ``context``: warm inside one process, and cold as a CLI.

    python3 bench/retrieval_speed.py DIR [--queries N] [--budget 8000] [--json FILE]

DIR must be indexed (``astrag index DIR``). Queries are made from the index itself, so any
repository works: for every N-th function or method, "how is <name> used", "<split words of
its name>" and "refactor <Class> to ..." style tasks, a fixed mix. Warm: one process opens the
index, runs one untimed query (loads the vectors and the embedder, as a running MCP server
would have), then times each query; p50/p90/p95 of wall time, p50 of the process's CPU time and
the least CPU time of any query are reported (on a shared machine the CPU time is the steadier
figure). Cold: ``astrag search`` and ``astrag context`` spawned as fresh processes, timed from
spawn to exit, median of 5.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from percentiles import percentile

from astrag import api
from astrag.search.text import split_identifier


def make_queries(idx: api.Index, n: int) -> list[str]:
    symbols = [s for s in idx.graph()[0] if s.path and s.kind in ("function", "method", "class")]
    symbols.sort(key=lambda s: s.id)
    step = max(len(symbols) // n, 1)
    queries: list[str] = []
    for i, s in enumerate(symbols[::step][:n]):
        words = " ".join(split_identifier(s.name))
        form = i % 4
        if form == 0:
            queries.append(f"how is {s.name} used")
        elif form == 1:
            queries.append(f"where do we {words}")
        elif form == 2:
            queries.append(f"refactor {s.qualname} and update its callers")
        else:
            queries.append(f"{words} {s.kind}")
    return queries


def warm(root: Path, queries: list[str], budget: int) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    with api.open_index(root) as idx:
        idx.context(queries[0], budget)  # load vectors + embedder once, as a server has
        for name, run in (
            ("search", lambda q: idx.search(q, 10)),
            ("context", lambda q: idx.context(q, budget)),
        ):
            times, cpu = [], []
            for q in queries:
                t, c = time.perf_counter(), time.process_time()
                run(q)
                times.append((time.perf_counter() - t) * 1000)
                cpu.append((time.process_time() - c) * 1000)
            out[name] = {
                "p50_ms": round(percentile(times, 0.5), 1),
                "p90_ms": round(percentile(times, 0.9), 1),
                "p95_ms": round(percentile(times, 0.95), 1),
                "max_ms": round(max(times), 1),
                # CPU time of this process: what the query costs, whatever else the machine
                # is doing (the wall times above include waiting for a core)
                "cpu_p50_ms": round(percentile(cpu, 0.5), 1),
                # the least a query took: what the code costs with the fewest interruptions
                "cpu_min_ms": round(min(cpu), 1),
                "queries": len(times),
            }
    return out


def cold(root: Path, query: str, budget: int, repeat: int = 5) -> dict[str, float]:
    commands = {
        "search": ["astrag", "search", query, "--repo", str(root), "--format", "json"],
        "context": [
            "astrag", "context", query, "--repo", str(root), "--budget", str(budget),
            "--format", "json",
        ],
    }  # fmt: skip
    out = {}
    for name, cmd in commands.items():
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times.append(time.perf_counter() - t)
        out[f"{name}_s"] = round(statistics.median(times), 3)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--budget", type=int, default=8000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    root = args.root.resolve()
    with api.open_index(root) as idx:
        stats = idx.store.counts()
        queries = make_queries(idx, args.queries)
    result = {
        "root": str(root),
        "files": stats.get("files"),
        "lines": stats.get("lines"),
        "symbols": sum(stats.get("symbols", {}).values()),
        "warm": warm(root, queries, args.budget),
        "cold": cold(root, queries[1], args.budget),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
