"""Per-query metrics over a ranked list of :class:`Item`, in semble's protocol.

* A target's rank is the 1-based rank of the first item covering it (``data.target_matches``).
  Several items covering one target count once (the first); one item covering several targets
  counts for each of them.
* NDCG@k: binary gains at the ranks of the covered targets (a rank shared by two targets counts
  once), ideal DCG of ``min(k, n_relevant)`` ones. ``n_relevant`` is the number of targets that
  exist in the corpus (duplicates in an annotation count twice, as in semble).
* recall@k: share of those targets covered in the top k. MRR@k: 1 / the best target rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from code_search.data import Item, Target, target_matches

K = 10


def target_rank(items: Sequence[Item], target: Target) -> int | None:
    for rank, item in enumerate(items, 1):
        if target_matches(item, target):
            return rank
    return None


def dcg(gains: Sequence[int]) -> float:
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def ndcg_at_k(ranks: Sequence[int], n_relevant: int, k: int = K) -> float:
    if n_relevant <= 0:
        return 0.0
    gains = [0] * k
    for rank in ranks:
        if 1 <= rank <= k:
            gains[rank - 1] = 1
    return dcg(gains) / dcg([1] * min(k, n_relevant))


@dataclass(frozen=True, slots=True)
class QueryScore:
    ndcg: float
    recall: float
    mrr: float
    ranks: tuple[int | None, ...]  # per judged target, in annotation order


def score_query(
    items: Sequence[Item], targets: Sequence[Target], n_relevant: int, k: int = K
) -> QueryScore:
    top = list(items[:k])
    ranks = tuple(target_rank(top, t) for t in targets)
    found = [r for r in ranks if r is not None]
    return QueryScore(
        ndcg=ndcg_at_k(found, n_relevant, k),
        recall=min(1.0, len(found) / n_relevant) if n_relevant else 0.0,
        mrr=1.0 / min(found) if found else 0.0,
        ranks=ranks,
    )


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
