"""SQLite vs PostgreSQL store: index time, query latency under 8 concurrent clients, sizes,
HNSW build time and recall, graph walks on demand vs a recursive CTE.

    python bench/store_bench.py --repo bench/data/ts-speed/typeorm [--clients 8] [--rounds 3]

The repository is copied to a scratch directory first (its own ``.astrag`` is left alone);
PostgreSQL is a private pgserver instance (PostgreSQL 16 + pgvector) in that directory, or
``--pg-url``. Prints JSON; docs/BENCHMARKS.md ("PostgreSQL store") quotes one run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import shutil
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from percentiles import percentile

from astrag import api

QUERIES = (
    "where is the repository for an entity created",
    "who calls createQueryBuilder",
    "what does SelectQueryBuilder.getMany call",
    "how are migrations run inside a transaction",
    "EntityManager.save",
    "refactor DataSource to take a logger and update all consumers",
    "escape identifiers for postgres driver",
    "soft delete and restore of entities",
    "tree repository find descendants",
    "connection options validation error",
    "lazy relation loading",
    "column metadata transformer",
)


def _client(args: tuple[str, str, str, int, Any]) -> dict[str, list[float]]:
    root, store, _, rounds, barrier = args
    out: dict[str, list[float]] = {"search": [], "context": []}
    with api.open_index(Path(root), store=store) as idx:
        idx.search(QUERIES[0], 10)  # loads vectors and the query embedder once per client
        barrier.wait()
        for _ in range(rounds):
            for q in QUERIES:
                t = time.perf_counter()
                idx.search(q, 10)
                out["search"].append(time.perf_counter() - t)
                t = time.perf_counter()
                idx.context(q, 8000)
                out["context"].append(time.perf_counter() - t)
    return out


def latency(root: Path, store: str, clients: int, rounds: int) -> dict[str, Any]:
    ctx = mp.get_context("fork")
    with ctx.Manager() as manager:
        barrier = manager.Barrier(clients)
        with ctx.Pool(clients) as pool:
            started = time.perf_counter()
            parts = pool.map(
                _client, [(str(root), store, "", rounds, barrier)] * clients, chunksize=1
            )
            wall = time.perf_counter() - started
    result: dict[str, Any] = {"clients": clients, "wall_s": round(wall, 1)}
    for what in ("search", "context"):
        values = [v for p in parts for v in p[what]]
        result[what] = {
            "n": len(values),
            "p50_ms": round(percentile(values, 0.5) * 1000, 1),
            "p95_ms": round(percentile(values, 0.95) * 1000, 1),
            "mean_ms": round(statistics.fmean(values) * 1000, 1),
        }
    return result


def index_times(root: Path, store: str) -> dict[str, float]:
    t = time.perf_counter()
    cold = api.index(root, store=store, rebuild=True)
    out = {"cold_s": round(time.perf_counter() - t, 1), "symbols": cold.symbols}
    out["phases"] = cold.timings  # type: ignore[assignment]
    t = time.perf_counter()
    api.index(root, store=store)
    out["noop_s"] = round(time.perf_counter() - t, 2)
    victim = next(root.glob("src/query-builder/SelectQueryBuilder.ts"), None)
    if victim is not None:
        victim.write_text(
            victim.read_text() + "\nexport function benchEdit(): number { return 1 }\n"
        )
        t = time.perf_counter()
        api.index(root, store=store)
        out["one_file_edit_s"] = round(time.perf_counter() - t, 2)
    return out


def server_facts(url: str, root: Path) -> dict[str, Any]:
    """Table sizes, HNSW build time and recall@10 against exact search, walks vs CTE."""
    import psycopg

    from astrag.store.postgres import PostgresStore

    out: dict[str, Any] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        sizes = {}
        for table in ("files", "facts", "symbols", "names", "edges", "depends", "docs",
                      "postings", "vectors", "meta"):  # fmt: skip
            total, rows = conn.execute(
                f"SELECT pg_total_relation_size('{table}'), (SELECT count(*) FROM {table})"
            ).fetchone()
            sizes[table] = {"rows": rows, "mb": round(total / 2**20, 1)}
        out["tables"] = sizes
        out["database_mb"] = round(
            conn.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 2**20, 1
        )
        index_name = conn.execute(
            "SELECT indexname FROM pg_indexes WHERE indexname LIKE 'vectors_hnsw_%'"
        ).fetchone()[0]
        definition = conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname = %s", (index_name,)
        ).fetchone()[0]
        out["hnsw_mb"] = round(
            conn.execute("SELECT pg_relation_size(%s)", (index_name,)).fetchone()[0] / 2**20, 1
        )
        conn.execute(f"DROP INDEX {index_name}")
        t = time.perf_counter()
        conn.execute(definition)
        out["hnsw_build_s"] = round(time.perf_counter() - t, 1)
    from astrag.config import load_config
    from astrag.store.open import repo_key

    name, branch = repo_key(root, load_config(root))
    store = PostgresStore(url, name, branch, readonly=True)
    with store:
        ids, blobs = store.vectors()
        matrix = np.frombuffer(b"".join(blobs), dtype=np.float16).reshape(len(ids), -1)
        matrix = matrix.astype(np.float32)
        rng = np.random.default_rng(7)
        picks = rng.choice(len(ids), size=200, replace=False)
        out["vectors"] = len(ids)
        for ef in (40, 100):
            recalls, times = [], []
            for i in picks:
                q = matrix[i] + rng.normal(0, 0.02, matrix.shape[1]).astype(np.float32)
                q /= np.linalg.norm(q)
                exact = {ids[j] for j in np.argsort(-(matrix @ q))[:10]}
                t = time.perf_counter()
                got = {sid for sid, _ in store.nearest(q, 10, ef_search=ef)}
                times.append(time.perf_counter() - t)
                recalls.append(len(exact & got) / 10)
            out[f"recall@10_ef{ef}"] = round(statistics.fmean(recalls), 3)
            out[f"ann_p50_ms_ef{ef}"] = round(percentile(times, 0.5) * 1000, 2)
        t = time.perf_counter()
        for _ in range(20):
            scores = matrix @ matrix[picks[0]]
            np.argpartition(-scores, 10)[:10]
        out["exact_numpy_ms"] = round((time.perf_counter() - t) / 20 * 1000, 2)
        out["walks"] = walks(store, url)
    return out


def walks(store: Any, url: str) -> dict[str, Any]:
    """Callers to depth 3 of the most-called symbols: one indexed query per frontier (what
    astrag does) vs one recursive CTE returning the same set."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        hubs = [r[0] for r in conn.execute(
            "SELECT n.name FROM edges e JOIN names n ON n.repo = e.repo AND n.nid = e.dst "
            "JOIN symbols s ON s.repo = e.repo AND s.nid = e.dst WHERE e.kind = 'calls' "
            "AND s.path != '' GROUP BY n.name ORDER BY count(*) DESC, n.name LIMIT 20"
        )]  # fmt: skip
        on_demand, cte, sizes = [], [], []
        for hub in hubs:
            t = time.perf_counter()
            seen, frontier = {hub}, [hub]
            for _ in range(3):
                found = store.neighbours(frontier, ["calls"], incoming=True)
                frontier = [o for _, o, _, _ in found if o not in seen]
                seen.update(frontier)
                if not frontier:
                    break
            on_demand.append(time.perf_counter() - t)
            t = time.perf_counter()
            rows = conn.execute(
                """WITH RECURSIVE walk(nid, depth) AS (
                     SELECT nid, 0 FROM names WHERE repo = %(r)s AND name = %(h)s
                   UNION
                     SELECT e.src, w.depth + 1 FROM walk w JOIN edges e
                       ON e.repo = %(r)s AND e.dst = w.nid AND e.kind = 'calls'
                     JOIN symbols s ON s.repo = e.repo AND s.nid = e.src AND s.path != ''
                     WHERE w.depth < 3)
                   SELECT DISTINCT n.name FROM walk w JOIN names n ON n.repo = %(r)s
                     AND n.nid = w.nid""",
                {"r": store._repo, "h": hub},
            ).fetchall()
            cte.append(time.perf_counter() - t)
            sizes.append((len(seen), len(rows)))
    return {
        "hubs": len(hubs),
        "reached_mean": round(statistics.fmean(s for s, _ in sizes), 1),
        "same_sets": all(a == b for a, b in sizes),
        "on_demand_p50_ms": round(percentile(on_demand, 0.5) * 1000, 2),
        "on_demand_max_ms": round(max(on_demand) * 1000, 2),
        "cte_p50_ms": round(percentile(cte, 0.5) * 1000, 2),
        "cte_max_ms": round(max(cte) * 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, default=Path("bench/data/ts-speed/typeorm"))
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pg-url", default="")
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="astrag-store-bench-"))
    root = work / "repo"
    if not root.exists():
        shutil.copytree(args.repo, root, ignore=shutil.ignore_patterns(".astrag", ".git"))
    url = args.pg_url
    if not url:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pgserver
        url = pgserver.get_server(work / "pg", cleanup_mode="stop").get_uri()
    lines = sum(p.read_bytes().count(b"\n") for p in root.rglob("*") if p.suffix in (".ts", ".js"))
    report: dict[str, Any] = {"repo": str(args.repo), "ts_js_lines": lines}
    for name, store in (("sqlite", "sqlite"), ("postgresql", url)):
        report[name] = {"index": index_times(root, store)}
        report[name]["latency"] = latency(root, store, args.clients, args.rounds)
        print(json.dumps({name: report[name]}), flush=True)
    report["sqlite"]["file_mb"] = round((root / ".astrag" / "index.db").stat().st_size / 2**20, 1)
    report["server"] = server_facts(url, root)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
