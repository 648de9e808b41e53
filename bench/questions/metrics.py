"""Scoring a ranked list against graded definitions: precision@3 and NDCG@10.

An item is a ranked result with a line span: a symbol hit (its own lines), a context item, or a
whole file (BM25 over files). It **covers** a labelled definition when both are in the same
file and their lines overlap: a method covers the labelled class around it, a class covers
its labelled methods, a whole file covers every definition in it (the leniency file-level
judging gives any coarse unit). One item is one answer: it is credited with the best-graded
definition it covers that no earlier item was credited with, and its gain is that grade
(2 relevant, 1 secondary). A second hit on an already credited definition gains nothing; a
file (or a class) holding four answers gains once, and leaves the other three to the items
that point at them.

* **precision@3**: the items among the first three that gain anything, over
  ``min(3, number of labelled definitions)`` — a question with one answer is answered
  perfectly by a list that puts it first;
* **NDCG@10**: DCG of the gains over the first ten items (``gain / log2(rank + 1)``), over
  the DCG of the labels' own grades in the best order;
* **MRR@10**: one over the rank of the first item that covers a relevant (grade 2)
  definition.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

K = 10
P_AT = 3


@dataclass(frozen=True, slots=True)
class Span:
    path: str
    start: int
    end: int

    def overlaps(self, other: Span) -> bool:
        return self.path == other.path and self.start <= other.end and other.start <= self.end


@dataclass(frozen=True, slots=True)
class QueryScore:
    precision: float
    ndcg: float
    mrr: float
    gains: tuple[int, ...]  # per item of the first K


def gains(items: Sequence[Span], labels: Mapping[str, tuple[Span, int]]) -> list[int]:
    """The gain of each of the first ``K`` items (see the module docstring)."""
    credited: set[str] = set()
    out: list[int] = []
    for item in items[:K]:
        new = [
            sid for sid, (span, _) in labels.items() if sid not in credited and item.overlaps(span)
        ]
        best = max(
            new, key=lambda sid: (labels[sid][1], _narrow(labels[sid][0], item)), default=None
        )
        if best is not None:
            credited.add(best)
        out.append(labels[best][1] if best is not None else 0)
    return out


def _narrow(label: Span, item: Span) -> float:
    """Among equal grades, the definition closest in size to the item: a method hit is
    credited with the labelled method it is, not the labelled class around it."""
    return -abs((label.end - label.start) - (item.end - item.start))


def score(items: Sequence[Span], labels: Mapping[str, tuple[Span, int]]) -> QueryScore:
    if not labels:
        raise ValueError("a question without labelled definitions cannot be scored")
    g = gains(items, labels)
    precision = sum(1 for x in g[:P_AT] if x) / min(P_AT, len(labels))
    dcg = sum(x / math.log2(rank + 2) for rank, x in enumerate(g))
    ideal = sorted((grade for _, grade in labels.values()), reverse=True)[:K]
    idcg = sum(x / math.log2(rank + 2) for rank, x in enumerate(ideal))
    relevant = [span for span, grade in labels.values() if grade == 2]
    first = next(
        (rank for rank, item in enumerate(items[:K], 1) if any(item.overlaps(s) for s in relevant)),
        None,
    )
    return QueryScore(precision, dcg / idcg, 1 / first if first else 0.0, tuple(g))


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


# Files that support the code rather than being it, by path: what the "context keeps tests
# and examples out" columns count. The bench's own rule, so the measure does not move with
# astrag's.
_SUPPORT_DIRS = {
    "test": "test", "tests": "test", "__tests__": "test", "spec": "test", "testing": "test",
    "example": "example", "examples": "example", "demo": "example", "demos": "example",
    "sample": "example", "samples": "example", "bench": "bench", "benchmark": "bench",
    "benchmarks": "bench", "performance": "bench", "fixtures": "test", "docs": "docs",
    "documentation": "docs", "website": "docs", "__performance_tests__": "bench",
}  # fmt: skip


def support_kind(path: str) -> str:
    """``test``, ``example``, ``bench``, ``docs`` or ``""`` (the code itself)."""
    parts = path.split("/")
    name = parts[-1]
    if name.startswith("test_") or name.endswith(("_test.py", "conftest.py", "_test.go")):
        return "test"
    if any(f".{w}." in name for w in ("test", "spec", "test-d", "tst")):
        return "test"
    for part in parts[:-1]:
        if part in _SUPPORT_DIRS:
            return _SUPPORT_DIRS[part]
    return ""
