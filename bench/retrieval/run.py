"""The retrieval benchmark, end to end: tasks -> index -> systems x budgets -> tables.

    bench/retrieval/get_data.sh                       # base checkouts + history
    python -m bench.retrieval.run [--systems bm25,vector,astrag] [--budgets 2000,4000,8000]
        [--repos click,...] [--embedder local] [--no-index] [--refresh-tasks]
        [--json FILE] [--markdown FILE]

Run from the repository root. Everything derived is cached under bench/data/retrieval/
(tasks JSON, chunks, chunk embeddings per embedder), so a rerun costs the queries only.

Aggregates are macro averages over tasks: per repository, over all tasks ("all"), and per
split ("tune": the repositories astrag's retrieval constants were tuned on, "heldout": the
others); the ratio and target tables are given for each.
"""

from __future__ import annotations

import argparse
import json
import random
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

METRICS = ("file_recall", "function_recall", "needed_coverage", "mrr", "shown_mrr")
LABELS = {
    "file_recall": "file recall",
    "function_recall": "function recall",
    "needed_coverage": "needed coverage",
    "mrr": "MRR",
    "shown_mrr": "shown MRR",
}
RATIO_BUDGET = "4000"
GROUPS = ("all", *task_set.SPLITS)  # pooled aggregates, before the per-repository ones
# the targets at RATIO_BUDGET: (metric, baseline, minimum ratio astrag / baseline)
TARGETS = (
    ("needed_coverage", "vector", 2.5),
    ("needed_coverage", "bm25", 1.5),
    ("function_recall", "bm25", 1.3),
)
BOOTSTRAP = 2000  # task resamples for the targets' 95 % intervals (seeded: reproducible)


def _targets(rows: list[dict[str, Any]]) -> list[Target]:
    return [Target(r["path"], r["start_line"], r["end_line"]) for r in rows]


def indexed_paths(root: Path) -> list[str]:
    from astrag.config import load_config
    from astrag.store.sqlite import SqliteStore

    with SqliteStore(root / load_config(root).index_dir, readonly=True) as store:
        return sorted(store.file_records())


def run_repo(
    entry: dict[str, Any], args: argparse.Namespace
) -> tuple[list[dict[str, Any]], dict[str, list[float]]]:
    """Per-task scores of every system and budget, and each system's query times (seconds;
    astrag: one per context call, i.e. per budget; baselines: one ranking per task)."""
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
                        "split": entry["split"],
                        "commit": task["commit"],
                        "system": run,
                        "budget": label if label != "top10" else "-",
                        **score(task["gold_files"], gold, needed, items),
                    }
                )
    seconds = {system.name: list(system.seconds) for system in systems}
    for system in systems:
        if system.seconds:
            print(
                f"{name}: {system.name} median query "
                f"{statistics.median(system.seconds) * 1000:.1f} ms",
                file=sys.stderr,
            )
        if isinstance(system, AstragSystem):
            system.close()
    return rows, seconds


def aggregate(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Macro averages per (repo, system, budget), and over the tasks of all repos and of each
    split as repos "all", "tune", "heldout" (listed first, in that order)."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        for repo in (r["repo"], "all", r["split"]):
            groups[(repo, r["system"], r["budget"])].append(r)
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
    repos = list(dict.fromkeys(r["repo"] for r in rows))  # first seen = manifest order
    rank = {name: i for i, name in enumerate((*GROUPS, *repos))}
    return sorted(
        out,
        key=lambda a: (
            rank[a["repo"]],
            order.get(a["system"], 9),
            int(a["budget"]) if a["budget"] != "-" else 10**9,
        ),
    )


def _pct(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:.1f}"


def median_ms(seconds: dict[str, dict[str, list[float]]]) -> dict[str, dict[str, float]]:
    """Median query time in ms per repo and system (``seconds``: repo -> system -> times)."""
    return {
        repo: {system: 1000 * statistics.median(t) for system, t in by_system.items() if t}
        for repo, by_system in seconds.items()
    }


def timing_table(ms: dict[str, dict[str, float]]) -> str:
    systems = list(dict.fromkeys(s for by_system in ms.values() for s in by_system))
    out = [
        "Median query time, ms (astrag: per context call; baselines: one ranking per task):",
        "",
        "| repo | " + " | ".join(systems) + " |",
        "| --- |" + " ---: |" * len(systems),
    ]
    for repo, by_system in ms.items():
        cells = [f"{by_system[s]:.1f}" if s in by_system else "—" for s in systems]
        out.append(f"| {repo} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def markdown(
    aggs: list[dict[str, Any]],
    ms: dict[str, dict[str, float]] | None = None,
    rows: list[dict[str, Any]] | None = None,
) -> str:
    lines = []
    for repo in dict.fromkeys(a["repo"] for a in aggs):
        members = [a for a in aggs if a["repo"] == repo]
        n_needed = max(a["needed_coverage_n"] for a in members)
        lines += [
            f"**{repo}** ({members[0]['tasks']} tasks, {n_needed} with needed definitions)",
            "",
            "| system | budget | file recall | function recall | needed coverage | MRR "
            "| shown MRR | mean tokens |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for a in members:
            lines.append(
                f"| {a['system']} | {a['budget']} | {_pct(a['file_recall'])} | "
                f"{_pct(a['function_recall'])} | {_pct(a['needed_coverage'])} | "
                f"{a['mrr']:.3f} | {a['shown_mrr']:.3f} | {a['tokens']:.0f} |"
            )
        lines.append("")
    lines += [ratios(aggs), "", targets(aggs, rows)]
    if ms:
        lines += ["", timing_table(ms)]
    return "\n".join(lines)


def _ratio(aggs: list[dict[str, Any]], repo: str, metric: str, base: str) -> float | None:
    at = {(a["repo"], a["system"]): a for a in aggs if a["budget"] == RATIO_BUDGET}
    mine, other = at.get((repo, "astrag")), at.get((repo, base))
    if mine is None or other is None or not other[metric] or mine[metric] is None:
        return None
    return float(mine[metric] / other[metric])


def ratio_interval(
    rows: list[dict[str, Any]], group: str, metric: str, base: str, seed: int = 0
) -> tuple[float, float] | None:
    """95 % percentile-bootstrap interval of astrag's macro ``metric`` over ``base``'s at
    RATIO_BUDGET, resampling the tasks of ``group`` ("all", a split or a repo)."""
    per_task: dict[tuple[str, str], dict[str, Any]] = defaultdict(dict)
    for r in rows:
        if r["budget"] == RATIO_BUDGET and group in ("all", r["split"], r["repo"]):
            per_task[(r["repo"], r["commit"])][r["system"]] = r[metric]
    pairs = [
        (t["astrag"], t[base])
        for t in per_task.values()
        if t.get("astrag") is not None and t.get(base) is not None
    ]
    if not pairs:
        return None
    rnd, ratios_ = random.Random(seed), []
    for _ in range(BOOTSTRAP):
        sample = [pairs[rnd.randrange(len(pairs))] for _ in pairs]
        other = sum(b for _, b in sample)
        if other:
            ratios_.append(sum(a for a, _ in sample) / other)
    ratios_.sort()
    if not ratios_:
        return None
    return ratios_[int(0.025 * len(ratios_))], ratios_[int(0.975 * len(ratios_)) - 1]


def targets(aggs: list[dict[str, Any]], rows: list[dict[str, Any]] | None = None) -> str:
    """Which targets hold at RATIO_BUDGET, for "all" and each split present; with ``rows``
    (per-task scores) each ratio has its 95 % bootstrap interval over tasks."""
    groups = [g for g in GROUPS if any(a["repo"] == g for a in aggs)]
    out = [
        f"Targets at {RATIO_BUDGET} tokens (astrag ÷ baseline ≥ minimum"
        + (f"; [95 % interval, {BOOTSTRAP} task resamples]" if rows else "")
        + "):",
        "",
        "| target | " + " | ".join(groups) + " |",
        "| --- |" + " ---: |" * len(groups),
    ]
    for metric, base, minimum in TARGETS:
        cells = []
        for group in groups:
            r = _ratio(aggs, group, metric, base)
            ci = ratio_interval(rows, group, metric, base) if rows and r is not None else None
            span = f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else ""
            cells.append(
                "—" if r is None else f"{r:.2f}×{span} {'met' if r >= minimum else 'missed'}"
            )
        name = "BM25" if base == "bm25" else base
        out.append(f"| {LABELS[metric]} ≥ {minimum}× {name} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def ratios(aggs: list[dict[str, Any]]) -> str:
    if not any(a["system"] == "astrag" and a["budget"] == RATIO_BUDGET for a in aggs):
        return "(no astrag run: no ratios)"
    out = [
        f"Ratios at {RATIO_BUDGET} tokens (astrag ÷ baseline):",
        "",
        "| repo | metric | ÷ vector | ÷ BM25 |",
        "| --- | --- | ---: | ---: |",
    ]
    for repo in dict.fromkeys(a["repo"] for a in aggs):
        for m in METRICS:
            cells = []
            for base in ("vector", "bm25"):
                r = _ratio(aggs, repo, m, base)
                cells.append("—" if r is None else f"{r:.2f}×")
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
    seconds: dict[str, dict[str, list[float]]] = {}
    for entry in task_set.load_manifest():
        if not wanted or entry["name"] in wanted:
            repo_rows, seconds[entry["name"]] = run_repo(entry, args)
            rows.extend(repo_rows)
    aggs = aggregate(rows)
    ms = median_ms(seconds)
    text = markdown(aggs, ms, rows)
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
            "median_query_ms": ms,
        }
        args.json.write_text(
            json.dumps({"meta": meta, "aggregates": aggs, "tasks": rows}, indent=1)
        )


if __name__ == "__main__":
    main()
