"""Scoring one retrieval against one task. Pure functions, no I/O.

A retrieval is the list of items a system gives the model within its token budget, in rank
order; each item is a line range of one file (1-based, inclusive) and says whether it is the
range's full source (chunks always are; astrag items may be a signature and docstring only).

- **File recall**: gold files with at least one retrieved item / gold files.
- **Function recall**: gold functions whose body is retrieved — at least 50 % of their lines
  (base-checkout spans) lie inside the ranges of *full* items of their file — / gold functions.
- **Needed-definition coverage**: needed definitions whose header line (``start_line``) lies
  inside some retrieved range of their file, full or not (a signature is enough not to invent
  an API) / needed definitions.
- **MRR**: 1 / rank of the first item whose range holds a gold function's header line, 0 if
  no item does. A class or module shown by its signature alone holds its methods' headers.
- **Shown MRR**: the same, counting only an item that shows the header: a full item that holds
  it, or the gold function's own signature. A class's header line does not show a method.

A metric is undefined (None) for a task with nothing to find (no needed definitions, say);
:func:`macro` averages over the tasks where it is defined.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

FUNCTION_BODY_SHARE = 0.5


@dataclass(frozen=True)
class Item:
    path: str
    start_line: int
    end_line: int
    full: bool = True
    tokens: int = 0


@dataclass(frozen=True)
class Target:
    path: str
    start_line: int
    end_line: int


def _holds(item: Item, path: str, line: int) -> bool:
    return item.path == path and item.start_line <= line <= item.end_line


def file_recall(gold_files: Sequence[str], items: Sequence[Item]) -> float | None:
    if not gold_files:
        return None
    seen = {i.path for i in items}
    return sum(f in seen for f in gold_files) / len(gold_files)


def body_retrieved(target: Target, items: Iterable[Item]) -> bool:
    lines = set(range(target.start_line, target.end_line + 1))
    covered: set[int] = set()
    for item in items:
        if item.full and item.path == target.path:
            covered.update(range(max(item.start_line, target.start_line),
                                 min(item.end_line, target.end_line) + 1))  # fmt: skip
    return len(covered & lines) >= FUNCTION_BODY_SHARE * len(lines)


def function_recall(gold: Sequence[Target], items: Sequence[Item]) -> float | None:
    if not gold:
        return None
    return sum(body_retrieved(t, items) for t in gold) / len(gold)


def needed_coverage(needed: Sequence[Target], items: Sequence[Item]) -> float | None:
    if not needed:
        return None
    hit = sum(any(_holds(i, t.path, t.start_line) for i in items) for t in needed)
    return hit / len(needed)


def reciprocal_rank(gold: Sequence[Target], items: Sequence[Item]) -> float | None:
    if not gold:
        return None
    for rank, item in enumerate(items, 1):
        if any(_holds(item, t.path, t.start_line) for t in gold):
            return 1.0 / rank
    return 0.0


def shown_rank(gold: Sequence[Target], items: Sequence[Item]) -> float | None:
    if not gold:
        return None
    for rank, item in enumerate(items, 1):
        for t in gold:
            if item.path == t.path and (
                (item.full and _holds(item, t.path, t.start_line))
                or item.start_line == t.start_line
            ):
                return 1.0 / rank
    return 0.0


def score(
    gold_files: Sequence[str],
    gold: Sequence[Target],
    needed: Sequence[Target],
    items: Sequence[Item],
) -> dict[str, float | None]:
    return {
        "file_recall": file_recall(gold_files, items),
        "function_recall": function_recall(gold, items),
        "needed_coverage": needed_coverage(needed, items),
        "mrr": reciprocal_rank(gold, items),
        "shown_mrr": shown_rank(gold, items),
        "tokens": float(sum(i.tokens for i in items)),
    }


def macro(values: Iterable[float | None]) -> tuple[float | None, int]:
    """Mean over the defined values, and how many there were."""
    defined = [v for v in values if v is not None]
    return (sum(defined) / len(defined) if defined else None), len(defined)
