"""Dense search on two threads gives the hits and scores, bit for bit, of one product over the
whole matrix and numpy's argpartition (search/product.py)."""

from __future__ import annotations

import numpy as np
import pytest

from astrag.search.product import Product, best, bounds
from astrag.search.vectors import DenseIndex


def _vectors(rows: int, seed: int = 7) -> np.ndarray:
    """Unit rows as the index holds them: float16 widened to float32, some rows repeated (a
    text shared by several symbols has one vector)."""
    rng = np.random.default_rng(seed)
    matrix = rng.standard_normal((rows, 256)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix[rows // 2 : rows // 2 + 40] = matrix[:40]
    return matrix.astype(np.float16).astype(np.float32)


def _reference(index: DenseIndex, query: np.ndarray, limit: int) -> list[tuple[str, float]]:
    """Dense search as one product and argpartition (the code before search/product.py)."""
    scores = index.matrix @ query.astype(np.float32)
    limit = min(limit, len(scores))
    top = np.argpartition(-scores, limit - 1)[:limit]
    ids = index.ids
    order = sorted(zip((-scores[top]).tolist(), [ids[i] for i in top.tolist()], strict=True))
    return [(sid, -score) for score, sid in order]


def test_chunks_start_at_multiples_of_the_chunk_and_cover_every_row() -> None:
    assert bounds(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert bounds(8, 4) == [(0, 4), (4, 8)]
    assert bounds(0, 4) == []


@pytest.mark.parametrize(("rows", "chunk"), [(1000, 128), (1031, 64), (130, 4096), (1, 64)])
def test_scores_are_those_of_one_product(rows: int, chunk: int) -> None:
    matrix = _vectors(rows)
    for seed in range(5):
        query = np.random.default_rng(seed).standard_normal(256).astype(np.float32)
        assert np.array_equal(Product(matrix, query, chunk).scores(), matrix @ query)


def test_best_selects_what_argpartition_selects() -> None:
    rng = np.random.default_rng(3)
    # from 201 blocks of 64 on, the blocks' maxima choose; below, argpartition itself
    for size, limit in ((20000, 200), (20000, 1), (64 * 201, 200), (300, 200), (10, 50)):
        scores = rng.standard_normal(size).astype(np.float32)
        expected = np.argpartition(-scores, min(limit, size) - 1)[: min(limit, size)]
        assert sorted(best(scores, limit).tolist()) == sorted(expected.tolist())


def test_a_tie_at_the_cut_is_broken_as_argpartition_breaks_it() -> None:
    rng = np.random.default_rng(0)
    scores = rng.uniform(0, 0.5, 20000).astype(np.float32)
    scores[:199] = 0.9  # the best 199, then five scores tied for the 200th place
    # argpartition keeps 14900 of them here: not the first, as a stable sort would
    scores[[700, 1500, 2300, 3100, 14900]] = 0.8
    chosen = best(scores, 200).tolist()
    expected = np.argpartition(-scores, 199)[:200].tolist()
    assert sorted(chosen) == sorted(expected)
    assert len(set(chosen) & {700, 1500, 2300, 3100, 14900}) == 1


def test_dense_search_equals_one_product_and_argpartition() -> None:
    matrix = _vectors(20001)  # five chunks, the last partly filled
    index = DenseIndex([f"m{i:05d}.py::f" for i in range(len(matrix))], matrix, "test")
    rng = np.random.default_rng(11)
    queries = [rng.standard_normal(256).astype(np.float32) for _ in range(20)]
    queries += [matrix[0], matrix[10000]]  # a repeated row: its copies tie
    for query in queries:
        for limit in (200, 10):
            assert index.search(query, limit) == _reference(index, query, limit)


def test_a_helper_without_a_core_rests_for_the_next_products() -> None:
    import threading

    import astrag.search.product as product

    matrix = _vectors(1000)
    query = np.random.default_rng(1).standard_normal(256).astype(np.float32)
    busy = threading.Event()
    product._pool().submit(busy.wait)  # the helper thread has no time for the next product
    try:
        product._resting = 0
        first = Product(matrix, query, 128)
        assert np.array_equal(first.scores(), matrix @ query)  # all computed by this thread
        assert product._resting == product.RESTS
        rested = [Product(matrix, query, 128) for _ in range(product.RESTS)]
        assert not any(p._helper for p in rested)
        assert all(np.array_equal(p.scores(), matrix @ query) for p in rested)
        assert product._resting == 0
        assert Product(matrix, query, 128)._helper  # and then it is tried again
    finally:
        busy.set()
