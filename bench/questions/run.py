"""Score astrag's search and context on questions people write (docs/BENCHMARKS.md section 7).

    python3 bench/questions/run.py [--split tune|held-out|fresh|blind|all] [--repo NAME ...]
        [--systems search,seeds,context,bm25-files,bm25-symbols] [--budget 8000]
        [--data DIR] [--no-index] [--examples N] [--json FILE] [--label NAME]

The default split is ``tune``: the held-out repositories (``held-out``, and ``fresh`` and
``blind``, the second and third held-out halves) are scored only when asked for by name or
with ``--split`` (once, at the end of a piece of work). Each repository under
``--data`` (default bench/data/questions, filled by prepare.py) is indexed incrementally with
the astrag on ``PYTHONPATH``, so the same command with another checkout's ``src`` scores that
version (use a separate ``--data`` copy for it: the two versions' indexes must not mix).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from questions.data import (
    DATA_DIR,
    SPLITS,
    Question,
    RepoSpec,
    load_questions,
    load_repos,
    select,
)
from questions.metrics import QueryScore, Span, mean, score, support_kind
from questions.systems import (
    ASTRAG,
    BASELINES,
    AstragRankers,
    bm25_files,
    bm25_symbols,
    corpus_files,
    span_of,
)

SYSTEMS = (*ASTRAG, *BASELINES)


@dataclass
class RepoRun:
    spec: RepoSpec
    questions: list[Question]
    missing: list[str]  # labelled ids the index does not hold
    scores: dict[str, list[QueryScore]] = field(default_factory=dict)
    items: dict[str, list[list[Span]]] = field(default_factory=dict)
    support: list[dict[str, int]] = field(default_factory=list)  # context items per kind


def labels_of(idx: Any, q: Question) -> dict[str, tuple[Span, int]]:
    found = idx.store.get_symbols(list(q.grades))
    return {sid: (span_of(found[sid]), g) for sid, g in q.grades.items() if sid in found}


def run_repo(spec: RepoSpec, data: Path, systems: list[str], budget: int, index: bool) -> RepoRun:
    from astrag import api

    root = data / spec.name
    if not (root / ".stamp").is_file():
        raise SystemExit(f"{spec.name}: not prepared; run bench/questions/prepare.py")
    if index:
        api.index(root)
    questions = load_questions(spec.name)
    with api.open_index(root) as idx:
        labels = [labels_of(idx, q) for q in questions]
        missing = sorted(
            {s for q, lab in zip(questions, labels, strict=True) for s in q.grades if s not in lab}
        )
        run = RepoRun(spec, questions, missing)
        rankers: dict[str, Any] = {}
        astrag = AstragRankers(idx, budget)
        for name in systems:
            if name in ASTRAG:
                rankers[name] = getattr(astrag, name)
            elif name == "bm25-files":
                rankers[name] = bm25_files(root, corpus_files(root))
            elif name == "bm25-symbols":
                rankers[name] = bm25_symbols(root, idx.store.all_symbols())
        for name, rank in rankers.items():
            run.items[name] = [rank(q.query) for q in questions]
            run.scores[name] = [
                score(it, lab) for it, lab in zip(run.items[name], labels, strict=True)
            ]
        if "context" in systems:
            for q in questions:
                kinds: dict[str, int] = defaultdict(int)
                for path in astrag.context_paths(q.query):
                    kinds[support_kind(path) or "code"] += 1
                run.support.append(dict(kinds))
    return run


# ------------------------------------------------------------------------------------ report


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _pair(scores: list[QueryScore]) -> str:
    return f"{mean([s.precision for s in scores]):.3f} / {mean([s.ndcg for s in scores]):.3f}"


def report(runs: list[RepoRun]) -> str:
    systems = list(runs[0].scores) if runs else []
    out = [
        "precision@3 / NDCG@10 per repository; splits are the mean of their repositories.",
        "",
        _row(["repo", "split", "lang", "questions", *systems]),
        _row(["---", "---", "---", "---:", *["---:"] * len(systems)]),
    ]
    for r in runs:
        cells = [r.spec.name, r.spec.split, r.spec.language, str(len(r.questions))]
        out.append(_row(cells + [_pair(r.scores[s]) for s in systems]))
    for split in SPLITS:
        group = [r for r in runs if r.spec.split == split]
        if not group:
            continue
        cells = [f"**{split}**", "", "", str(sum(len(r.questions) for r in group))]
        for s in systems:
            p = mean([mean([q.precision for q in r.scores[s]]) for r in group])
            n = mean([mean([q.ndcg for q in r.scores[s]]) for r in group])
            cells.append(f"**{p:.3f} / {n:.3f}**")
        out.append(_row(cells))
    out += ["", *_by_category(runs, systems), "", *_support(runs)]
    return "\n".join(out)


def _by_category(runs: list[RepoRun], systems: list[str]) -> list[str]:
    cats: dict[str, dict[str, list[QueryScore]]] = defaultdict(lambda: defaultdict(list))
    for r in runs:
        for i, q in enumerate(r.questions):
            for s in systems:
                cats[q.category][s].append(r.scores[s][i])
    out = [
        _row(["category", "questions", *systems]),
        _row(["---", "---:", *["---:"] * len(systems)]),
    ]
    for cat, by in sorted(cats.items()):
        out.append(_row([cat, str(len(by[systems[0]])), *[_pair(by[s]) for s in systems]]))
    return out


def _support(runs: list[RepoRun]) -> list[str]:
    """What a context is made of, on the questions that ask for neither tests nor examples."""
    rows = [r for r in runs if r.support]
    if not rows:
        return []
    kinds = ("code", "test", "example", "bench", "docs")
    out = [
        "Context items by kind of file, per question not about tests or examples (mean):",
        "",
        _row(["repo", *kinds]),
        _row(["---", *["---:"] * len(kinds)]),
    ]
    for r in rows:
        picked = [
            c
            for q, c in zip(r.questions, r.support, strict=True)
            if q.category not in ("tests", "examples")
        ]
        out.append(
            _row([r.spec.name, *[f"{mean([c.get(k, 0) for c in picked]):.1f}" for k in kinds]])
        )
    return out


def examples(runs: list[RepoRun], system: str, n: int) -> str:
    """The ``n`` worst questions of each repository for ``system``, with its top three."""
    out = []
    for r in runs:
        worst = sorted(range(len(r.questions)), key=lambda i: r.scores[system][i].ndcg)[:n]
        for i in worst:
            q, s = r.questions[i], r.scores[system][i]
            top = ", ".join(f"{it.path}:{it.start}" for it in r.items[system][i][:3])
            out.append(f"- {s.ndcg:.2f} [{r.spec.name}] {q.query!r}: {top}")
    return "\n".join(out)


def to_json(runs: list[RepoRun], label: str) -> dict[str, Any]:
    return {
        "label": label,
        "repos": [
            {
                "repo": r.spec.name,
                "split": r.spec.split,
                "missing_labels": r.missing,
                "systems": {
                    s: [
                        {
                            "query": q.query,
                            "precision3": sc.precision,
                            "ndcg10": sc.ndcg,
                            "gains": list(sc.gains),
                            "items": [[it.path, it.start, it.end] for it in r.items[s][i]],
                        }
                        for i, (q, sc) in enumerate(zip(r.questions, r.scores[s], strict=True))
                    ]
                    for s in r.scores
                },
            }
            for r in runs
        ],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--split", choices=(*SPLITS, "all"), default=None)
    ap.add_argument("--repo", action="append", default=[])
    ap.add_argument("--systems", default=",".join(SYSTEMS))
    ap.add_argument("--budget", type=int, default=8000)
    ap.add_argument("--data", type=Path, default=DATA_DIR)
    ap.add_argument("--no-index", action="store_true", help="use the existing indexes as they are")
    ap.add_argument("--examples", type=int, default=0, help="the N worst questions per repository")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--label", default="", help="a name for this run in the JSON")
    args = ap.parse_args(argv)
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = set(systems) - set(SYSTEMS)
    if unknown:
        raise SystemExit(f"unknown systems: {', '.join(sorted(unknown))}; use {', '.join(SYSTEMS)}")
    split = args.split or (None if args.repo else "tune")
    specs = select(load_repos(), args.repo, None if split == "all" else split)
    runs = []
    for spec in specs:
        started = time.perf_counter()
        run = run_repo(spec, args.data, systems, args.budget, not args.no_index)
        runs.append(run)
        if run.missing:
            print(
                f"{spec.name}: labels not in the index: {', '.join(run.missing)}", file=sys.stderr
            )
        summary = "  ".join(f"{s}={_pair(v)}" for s, v in run.scores.items())
        took = time.perf_counter() - started
        print(f"{spec.name:<11} {summary}  ({took:.1f} s)", file=sys.stderr)
    print(report(runs))
    if args.examples and runs:
        main_system = "search" if "search" in systems else systems[0]
        print(f"\nWorst questions ({main_system}):\n" + examples(runs, main_system, args.examples))
    if args.json:
        args.json.write_text(json.dumps(to_json(runs, args.label), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
