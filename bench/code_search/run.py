"""Score code search on semble's benchmark: astrag's symbol search (hybrid and, when the API
takes ``mode=``, its lexical and dense rankers alone), BM25 over files, and the figures semble
published for the same repositories.

    python3 bench/code_search/run.py [--repo NAME ...] [--language LANG ...]
        [--systems hybrid,lexical,dense,bm25] [--no-index] [--rebuild] [--examples N]
        [--json FILE]

Every system yields a ranked list of (repository-relative path, start line, end line) items
cut at 10 and is scored by ``metrics.score_query``: astrag items are the hits' symbols (the
symbol's own line span), BM25 items are whole files. See docs/BENCHMARKS.md section 5.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from code_search.bm25 import BM25, enrich, tokenize
from code_search.data import (
    LANGUAGES,
    SEMBLE_DIR,
    Item,
    RepoSpec,
    Task,
    load_repo_specs,
    load_tasks,
    select_specs,
)
from code_search.metrics import K, QueryScore, mean, score_query

ASTRAG_MODES = ("hybrid", "lexical", "dense")
# Families whose means are reported apart: the 15 repositories of the first report, and the
# Go and Java ones added when those languages became resolved.
FAMILIES = (("python", "javascript", "typescript"), ("go", "java"))
WIDE_ITEM = 200  # lines; a wider item (a whole file or module) covers most span targets in it

# Published per-repository NDCG@10 in semble's benchmarks/results (file, mode or None, label).
PUBLISHED: tuple[tuple[str, str | None, str], ...] = (
    ("semble-hybrid-0332378809c5.json", None, "semble (hybrid)"),
    ("coderankembed-0332378809c5.json", "hybrid", "CodeRankEmbed Hybrid"),
    ("coderankembed-0332378809c5.json", "semantic", "CodeRankEmbed"),
    ("colgrep-c8a40fab2235.json", None, "ColGREP"),
    ("grepai-715563a812c3.json", None, "grepai"),
    ("probe-715563a812c3.json", None, "probe (BM25)"),
    ("ripgrep-fixed-strings-0332378809c5.json", None, "ripgrep"),
    ("semble-ablations-1ea77add4c1b.json", "bm25", "semble BM25 raw (chunks)"),
    ("semble-ablations-1ea77add4c1b.json", "semantic", "semble potion-code-16M raw"),
)

Ranker = Callable[[str], list[Item]]


@dataclass
class RepoRun:
    repo: str
    language: str
    queries: int
    corpus_files: int
    missing_targets: int
    index_seconds: float | None = None
    scores: dict[str, list[QueryScore]] = field(default_factory=dict)
    items: dict[str, list[list[Item]]] = field(default_factory=dict)


def corpus_files(root: Path) -> list[str]:
    """The files astrag would index under ``root`` (same discovery for every system)."""
    from astrag.config import load_config
    from astrag.discover import discover

    return sorted(f.path for f in discover(root, load_config(root)).files)


def n_relevant(task: Task, files: set[str]) -> int:
    """Targets that exist in the corpus (semble counts targets its index covers)."""
    return sum(1 for t in task.targets if t.path in files)


def bm25_ranker(spec: RepoSpec, root: Path, files: list[str]) -> Ranker:
    docs: list[tuple[str, list[str]]] = []
    lines: dict[str, int] = {}
    for rel in files:
        text = (root / rel).read_text(encoding="utf-8", errors="replace")
        lines[rel] = text.count("\n") + 1
        docs.append((rel, tokenize(enrich(spec.root_prefix + rel, text))))
    index = BM25.build(docs)

    def rank(query: str) -> list[Item]:
        return [
            Item(spec.root_prefix + rel, 1, lines[rel])
            for rel, _ in index.search(tokenize(query), K)
        ]

    return rank


def astrag_rankers(spec: RepoSpec, idx: Any, modes: Sequence[str]) -> dict[str, Ranker]:
    params = inspect.signature(idx.search).parameters
    takes_mode = "mode" in params
    rankers: dict[str, Ranker] = {}
    for mode in modes:
        if mode != "hybrid" and not takes_mode:
            print(f"  astrag search takes no mode=: {mode} skipped", file=sys.stderr)
            continue

        def rank(query: str, mode: str = mode) -> list[Item]:
            kwargs = {"mode": mode} if takes_mode else {}
            hits = idx.search(query, limit=K, **kwargs)
            return [
                Item(
                    spec.root_prefix + h.symbol.path if h.symbol.path else "",
                    h.symbol.start_line,
                    h.symbol.end_line,
                )
                for h in hits[:K]
            ]

        rankers[f"astrag-{mode}"] = rank
    return rankers


def run_repo(spec: RepoSpec, systems: Sequence[str], *, do_index: bool, rebuild: bool) -> RepoRun:
    tasks = load_tasks(spec.name)
    root = spec.index_root()
    files = corpus_files(root)
    present = {spec.root_prefix + f for f in files}
    missing = sum(1 for t in tasks for tg in t.targets if tg.path not in present)
    run = RepoRun(spec.name, spec.language, len(tasks), len(files), missing)
    rankers: dict[str, Ranker] = {}
    if "bm25" in systems:
        rankers["bm25-files"] = bm25_ranker(spec, root, files)
    modes = [m for m in ASTRAG_MODES if m in systems]
    idx = None
    if modes:
        from astrag import api

        if do_index:
            started = time.perf_counter()
            api.index(root, rebuild=rebuild)
            run.index_seconds = time.perf_counter() - started
        idx = api.open_index(root)
        rankers.update(astrag_rankers(spec, idx, modes))
    try:
        for name, rank in rankers.items():
            run.scores[name] = []
            run.items[name] = []
            for task in tasks:
                items = rank(task.query)
                run.items[name].append(items)
                run.scores[name].append(score_query(items, task.targets, n_relevant(task, present)))
    finally:
        if idx is not None:
            idx.close()
    return run


def published(semble_dir: Path = SEMBLE_DIR) -> dict[str, dict[str, float]]:
    """label -> repo -> NDCG@10 from semble's results files."""
    table: dict[str, dict[str, float]] = {}
    for filename, mode, label in PUBLISHED:
        path = semble_dir / "results" / filename
        if not path.is_file():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        table[label] = {
            r["repo"]: float(r["ndcg10"])
            for r in data["repos"]
            if mode is None or r.get("mode") == mode
        }
    return table


def fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def groups(runs: list[RepoRun]) -> list[tuple[str, list[RepoRun]]]:
    """The means a report shows: per language (when the run holds several), per family of
    languages (Python/JS/TS, the 15 repositories of the first report, and Go/Java, added for
    issue 16) when the run holds both, and over every repository run."""
    out: list[tuple[str, list[RepoRun]]] = []
    languages = [lang for lang in LANGUAGES if any(r.language == lang for r in runs)]
    if len(languages) > 1:
        out += [(lang, [r for r in runs if r.language == lang]) for lang in languages]
    families = [[r for r in runs if r.language in fam] for fam in FAMILIES]
    if all(families):
        out += [("/".join(f), g) for f, g in zip(FAMILIES, families, strict=True)]
    out.append(("all", runs))
    return out


def mean_row(
    label: str, group: list[RepoRun], systems: list[str], pub: dict[str, dict[str, float]]
) -> list[str]:
    """A group's mean over its repositories, for each system run and each published one (a
    published figure missing for one repository leaves the mean out)."""
    cells = [f"**mean of {len(group)} repos ({label})**", "", str(sum(r.queries for r in group))]
    for s in systems:
        cells.append(f"**{mean([mean([q.ndcg for q in r.scores[s]]) for r in group]):.3f}**")
    for by_repo in pub.values():
        values = [by_repo[r.repo] for r in group if r.repo in by_repo]
        cells.append(f"**{mean(values):.3f}**" if len(values) == len(group) else "—")
    return cells


def report(runs: list[RepoRun], pub: dict[str, dict[str, float]], examples: int) -> str:
    systems = [s for s in runs[0].scores] if runs else []
    out: list[str] = []
    header = ["repo", "lang", "queries", *systems, *pub]
    out.append("| " + " | ".join(header) + " |")
    out.append("| " + " | ".join(["---", "---", "---:"] + ["---:"] * (len(header) - 3)) + " |")
    for run in runs:
        row = [run.repo, run.language, str(run.queries)]
        row += [fmt(mean([q.ndcg for q in run.scores[s]])) for s in systems]
        row += [fmt(by_repo.get(run.repo)) for by_repo in pub.values()]
        out.append("| " + " | ".join(row) + " |")
    for label, group in groups(runs):
        out.append("| " + " | ".join(mean_row(label, group, systems, pub)) + " |")

    out.append("")
    out.append(
        "| system | NDCG@10 (all queries) | recall@10 | MRR@10 | architecture | semantic "
        "| symbol | mean lines per item |"
    )
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    wide: dict[str, tuple[int, int]] = {}
    for s in systems:
        scores = [q for r in runs for q in r.scores[s]]
        cats: dict[str, list[float]] = defaultdict(list)
        for r in runs:
            for task, q in zip(load_tasks(r.repo), r.scores[s], strict=True):
                cats[task.category].append(q.ndcg)
        spans = [it.end_line - it.start_line + 1 for r in runs for lst in r.items[s] for it in lst]
        span_found = span_wide = 0
        for r in runs:
            for task, q, lst in zip(load_tasks(r.repo), r.scores[s], r.items[s], strict=True):
                for target, rank in zip(task.targets, q.ranks, strict=True):
                    if target.has_span and rank is not None:
                        span_found += 1
                        item = lst[rank - 1]
                        span_wide += item.end_line - item.start_line + 1 > WIDE_ITEM
        wide[s] = (span_found, span_wide)
        out.append(
            f"| {s} | {mean([q.ndcg for q in scores]):.3f} | {mean([q.recall for q in scores]):.3f}"
            f" | {mean([q.mrr for q in scores]):.3f} | {mean(cats['architecture']):.3f}"
            f" | {mean(cats['semantic']):.3f} | {mean(cats['symbol']):.3f}"
            f" | {mean([float(x) for x in spans]):.0f} |"
        )
    out.append("")
    n_span = sum(1 for r in runs for t in load_tasks(r.repo) for g in t.targets if g.has_span)
    out.append(
        f"Span targets found (of {n_span}),"
        f" and how many of them through an item wider than {WIDE_ITEM} lines: "
        + ", ".join(f"{s} {found} ({w})" for s, (found, w) in wide.items())
    )
    if examples and systems:
        main = "astrag-hybrid" if "astrag-hybrid" in systems else systems[0]
        out.append("")
        out.append(f"Worst queries for {main} (NDCG@10, top-3 items, targets):")
        worst = sorted(
            ((q.ndcg, r, i) for r in runs for i, q in enumerate(r.scores[main])),
            key=lambda x: x[0],
        )[:examples]
        for value, r, i in worst:
            task = load_tasks(r.repo)[i]
            top = ", ".join(
                f"{it.path}:{it.start_line}-{it.end_line}" for it in r.items[main][i][:3]
            )
            targets = ", ".join(
                t.path + (f":{t.start_line}-{t.end_line}" if t.has_span else "")
                for t in task.targets
            )
            out.append(
                f"- {value:.2f} [{r.repo}/{task.category}] {task.query!r}: {top} | {targets}"
            )
    return "\n".join(out)


def to_json(runs: list[RepoRun]) -> dict[str, Any]:
    return {
        "repos": [
            {
                "repo": r.repo,
                "language": r.language,
                "queries": r.queries,
                "corpus_files": r.corpus_files,
                "missing_targets": r.missing_targets,
                "index_seconds": r.index_seconds,
                "systems": {
                    s: {
                        "ndcg10": mean([q.ndcg for q in qs]),
                        "recall10": mean([q.recall for q in qs]),
                        "mrr10": mean([q.mrr for q in qs]),
                        "queries": [
                            {
                                "query": t.query,
                                "category": t.category,
                                "ndcg10": q.ndcg,
                                "ranks": list(q.ranks),
                                "items": [
                                    [it.path, it.start_line, it.end_line] for it in r.items[s][i]
                                ],
                            }
                            for i, (t, q) in enumerate(zip(load_tasks(r.repo), qs, strict=True))
                        ],
                    }
                    for s, qs in r.scores.items()
                },
            }
            for r in runs
        ]
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--repo", action="append", default=[])
    ap.add_argument(
        "--language", action="append", default=[], help=f"only these ({', '.join(LANGUAGES)})"
    )
    ap.add_argument("--systems", default="hybrid,lexical,dense,bm25")
    ap.add_argument("--no-index", action="store_true", help="use the existing astrag indexes")
    ap.add_argument("--rebuild", action="store_true", help="astrag index --rebuild")
    ap.add_argument("--examples", type=int, default=0, help="list the N worst queries")
    ap.add_argument("--json", type=Path, help="per-query ranks and items")
    args = ap.parse_args()
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    specs = select_specs(load_repo_specs(), args.repo or None, tuple(args.language or LANGUAGES))
    runs = []
    for spec in specs:
        if not (spec.checkout_dir() / ".stamp").is_file():
            raise SystemExit(f"{spec.name}: not prepared; run bench/code_search/prepare.py")
        started = time.perf_counter()
        run = run_repo(spec, systems, do_index=not args.no_index, rebuild=args.rebuild)
        runs.append(run)
        summary = "  ".join(f"{s}={mean([q.ndcg for q in qs]):.3f}" for s, qs in run.scores.items())
        print(
            f"{spec.name:<10} {run.queries} queries  {summary}  "
            f"({time.perf_counter() - started:.1f} s)",
            file=sys.stderr,
        )
    print(report(runs, published(), args.examples))
    if args.json:
        args.json.write_text(json.dumps(to_json(runs), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
