"""The retrieval benchmark, end to end: tasks -> index -> systems x budgets -> tables.

    bench/retrieval/get_data.sh                       # base checkouts + history
    python -m bench.retrieval.run [--systems bm25,vector,astrag] [--budgets 2000,4000,8000]
        [--repos click,...] [--embedder local] [--no-index] [--refresh-tasks]
        [--json FILE] [--markdown FILE]

Run from the repository root. Everything derived is cached under bench/data/retrieval/
(tasks JSON, chunks, chunk embeddings per embedder), so a rerun costs the queries only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from . import tasks as task_set
from .chunks import cached_chunks
from .metrics import Target, macro, score
from .systems import AstragSystem, bm25_system, vector_system

METRICS = ("file_recall", "function_recall", "needed_coverage", "mrr")
LABELS = {
    "file_recall": "file recall",
    "function_recall": "function recall",
    "needed_coverage": "needed coverage",
    "mrr": "MRR",
}
RATIO_BUDGET = "4000"


def _targets(rows: list[dict[str, Any]]) -> list[Target]:
    return [Target(r["path"], r["start_line"], r["end_line"]) for r in rows]


def indexed_paths(root: Path) -> list[str]:
    from astrag.config import load_config
    from astrag.store.sqlite import SqliteStore

    with SqliteStore(root / load_config(root).index_dir, readonly=True) as store:
        return sorted(store.file_records())


def run_repo(entry: dict[str, Any], args: argparse.Namespace) -> list[dict[str, Any]]:
    name = entry["name"]
    root = task_set.checkout_dir(name)
    stamp = root / ".stamp"
    if not stamp.is_file() or stamp.read_text().strip() != entry["base"]:
        raise SystemExit(f"{root} is not the base checkout: run bench/retrieval/get_data.sh")
    if not args.no_index:
        from astrag import api

        started = time.perf_counter()
        api.index(root)
        print(f"{name}: indexed in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    tasks = [t for t in task_set.build(entry, refresh=args.refresh_tasks) if "rejected" not in t]
    cache_dir = task_set.DATA / "cache" / name
    chunks, key = cached_chunks(root, indexed_paths(root), cache_dir)
    budgets = [int(b) for b in args.budgets.split(",")]
    systems: list[Any] = []
    for system in args.systems.split(","):
        if system == "bm25":
            systems.append(bm25_system(chunks))
        elif system == "vector":
            systems.append(vector_system(chunks, cache_dir, key, args.embedder))
        elif system == "astrag":
            systems.append(AstragSystem(root))
        else:
            raise SystemExit(f"unknown system {system!r}")
    print(f"{name}: {len(tasks)} tasks, {len(chunks)} chunks", file=sys.stderr)
    rows = []
    for task in tasks:
        gold, needed = _targets(task["gold_functions"]), _targets(task["needed"])
        for system in systems:
            for label, items in system.retrieve(task["query"], budgets).items():
                if label == "top10" and system.name != "vector":
                    continue
                run = f"{system.name}" + (" top-10" if label == "top10" else "")
                rows.append(
                    {
                        "repo": name,
                        "commit": task["commit"],
                        "system": run,
                        "budget": label if label != "top10" else "-",
                        **score(task["gold_files"], gold, needed, items),
                    }
                )
    for system in systems:
        if system.seconds:
            print(
                f"{name}: {system.name} median query "
                f"{statistics.median(system.seconds) * 1000:.1f} ms",
                file=sys.stderr,
            )
        if isinstance(system, AstragSystem):
            system.close()
    return rows


def aggregate(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Macro averages per (repo, system, budget), and over all repos as repo "all"."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(r["repo"], r["system"], r["budget"])].append(r)
        groups[("all", r["system"], r["budget"])].append(r)
    out = []
    for (repo, system, budget), members in groups.items():
        agg: dict[str, Any] = {
            "repo": repo,
            "system": system,
            "budget": budget,
            "tasks": len(members),
        }
        for m in (*METRICS, "tokens"):
            value, n = macro(r[m] for r in members)
            agg[m], agg[f"{m}_n"] = value, n
        out.append(agg)
    order = {"astrag": 0, "vector": 1, "bm25": 2, "vector top-10": 3}
    return sorted(
        out,
        key=lambda a: (
            a["repo"] != "all",
            a["repo"],
            order.get(a["system"], 9),
            int(a["budget"]) if a["budget"] != "-" else 10**9,
        ),
    )


def _pct(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:.1f}"


def markdown(aggs: list[dict[str, Any]]) -> str:
    lines = []
    for repo in dict.fromkeys(a["repo"] for a in aggs):
        members = [a for a in aggs if a["repo"] == repo]
        n_needed = max(a["needed_coverage_n"] for a in members)
        lines += [
            f"**{repo}** ({members[0]['tasks']} tasks, {n_needed} with needed definitions)",
            "",
            "| system | budget | file recall | function recall | needed coverage | MRR "
            "| mean tokens |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for a in members:
            lines.append(
                f"| {a['system']} | {a['budget']} | {_pct(a['file_recall'])} | "
                f"{_pct(a['function_recall'])} | {_pct(a['needed_coverage'])} | "
                f"{a['mrr']:.3f} | {a['tokens']:.0f} |"
            )
        lines.append("")
    lines.append(ratios(aggs))
    return "\n".join(lines)


def ratios(aggs: list[dict[str, Any]]) -> str:
    at = {(a["repo"], a["system"]): a for a in aggs if a["budget"] == RATIO_BUDGET}
    out = [
        f"Ratios at {RATIO_BUDGET} tokens (astrag ÷ baseline):",
        "",
        "| repo | metric | ÷ vector | ÷ BM25 |",
        "| --- | --- | ---: | ---: |",
    ]
    for repo in dict.fromkeys(a["repo"] for a in aggs):
        mine = at.get((repo, "astrag"))
        if mine is None:
            return "(no astrag run: no ratios)"
        for m in METRICS:
            cells = []
            for base in ("vector", "bm25"):
                other = at.get((repo, base))
                if other is None or not other[m] or mine[m] is None:
                    cells.append("—")
                else:
                    cells.append(f"{mine[m] / other[m]:.2f}×")
            out.append(f"| {repo} | {LABELS[m]} | {cells[0]} | {cells[1]} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repos", default="", help="comma-separated names (default: all)")
    p.add_argument("--systems", default="bm25,vector,astrag")
    p.add_argument("--budgets", default="2000,4000,8000")
    p.add_argument("--embedder", default="local", help="astrag.embed spec for the vector RAG")
    p.add_argument("--no-index", action="store_true", help="use the existing astrag indexes")
    p.add_argument("--refresh-tasks", action="store_true", help="re-derive the cached tasks")
    p.add_argument("--json", type=Path, help="per-task scores and aggregates")
    p.add_argument("--markdown", type=Path)
    args = p.parse_args(argv)
    wanted = set(filter(None, args.repos.split(",")))
    rows: list[dict[str, Any]] = []
    for entry in task_set.load_manifest():
        if not wanted or entry["name"] in wanted:
            rows.extend(run_repo(entry, args))
    aggs = aggregate(rows)
    text = markdown(aggs)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")
    if args.json:
        from astrag.embed import load_embedder

        embedder = load_embedder(args.embedder)
        meta = {
            "embedder": embedder.name if embedder else None,
            "budgets": args.budgets,
            "date": time.strftime("%Y-%m-%d"),
            "systems": args.systems,
        }
        args.json.write_text(
            json.dumps({"meta": meta, "aggregates": aggs, "tasks": rows}, indent=1)
        )


if __name__ == "__main__":
    main()
