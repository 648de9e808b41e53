"""Dense search through the matrix's sketch gives the hits and scores, bit for bit, of the
whole product (search/sketch.py): the bound holds for every row, and only a tie at the cut
leaves the choice to the whole product."""

from __future__ import annotations

import numpy as np
import pytest

from astrag.search import sketch
from astrag.search.product import Product, best
from astrag.search.vectors import DenseIndex


def _vectors(rows: int, seed: int = 5) -> np.ndarray:
    """Unit rows as an embedder makes them: most of their length on a few axes (the spectrum
    falls off, as a static embedder's principal components do), float16 widened to float32."""
    rng = np.random.default_rng(seed)
    spread = np.exp(-np.arange(256) / 40.0)
    basis, _ = np.linalg.qr(rng.standard_normal((256, 256)))
    matrix = (rng.standard_normal((rows, 256)) * spread) @ basis.T
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix.astype(np.float16).astype(np.float32)


def _queries(matrix: np.ndarray, count: int, seed: int = 9) -> list[np.ndarray]:
    """Queries like a search's (near some rows), a row itself, and one far from every axis
    the sketch keeps (its whole length in the residual)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        q = matrix[rng.integers(len(matrix))] + 0.5 * rng.standard_normal(256) / 16
        out.append((q / np.linalg.norm(q)).astype(np.float32))
    out.append(matrix[17].copy())
    index = sketch.build(matrix)
    assert index is not None
    far = rng.standard_normal(256)
    far -= index.axes @ (index.axes.T @ far)
    out.append((far / np.linalg.norm(far)).astype(np.float32))
    return out


@pytest.fixture(scope="module")
def matrix() -> np.ndarray:
    return _vectors(6003)  # 6003 % 4 == 3: three rows past the last group of four


@pytest.fixture(scope="module")
def built(matrix: np.ndarray) -> sketch.Sketch:
    index = sketch.build(matrix)
    assert index is not None
    return index


def test_every_rows_score_is_within_its_reach_plus_the_slack(
    matrix: np.ndarray, built: sketch.Sketch
) -> None:
    for query in _queries(matrix, 30):
        weights, slack = sketch.weights(built, query)
        reach = built.rows @ weights
        whole = matrix @ query
        assert np.all(whole.astype(np.float64) <= reach.astype(np.float64) + slack)
        # the residual's term is what makes it a bound: without it some rows score above
        without = built.rows[:, :-1] @ weights[:-1]
        assert np.any(whole.astype(np.float64) > without.astype(np.float64) + slack)


def test_rescored_rows_have_the_whole_products_bits() -> None:
    rng = np.random.default_rng(2)
    for rows in (4096, 4097, 4098, 4099):
        matrix = _vectors(rows, seed=rows)
        query = rng.standard_normal(256).astype(np.float32)
        whole = Product(matrix, query).scores()
        for chosen in ([0], [rows - 1], [1, 2, 3, 5, rows - 3, rows - 2, rows - 1], range(rows)):
            picked = np.array(sorted(set(chosen)), dtype=np.intp)
            assert np.array_equal(sketch.rescore(matrix, picked, query), whole[picked])


@pytest.mark.parametrize("limit", [1, 10, 46])
def test_the_best_are_the_whole_products(
    matrix: np.ndarray, built: sketch.Sketch, limit: int
) -> None:
    decided = 0
    for query in _queries(matrix, 40):
        weights, slack = sketch.weights(built, query)
        found = sketch.top(matrix, query, built.rows @ weights, slack, limit)
        whole = Product(matrix, query).scores()
        if found is None:
            ordered = np.sort(whole)[::-1]
            assert ordered[limit - 1] == ordered[limit]  # only a tie at the cut says None
            continue
        rows, scores = found
        assert sorted(rows.tolist()) == sorted(best(whole, limit).tolist())
        assert np.array_equal(scores, whole[rows])
        decided += 1
    assert decided >= 40


def test_a_tie_at_the_cut_is_left_to_the_whole_product(matrix: np.ndarray) -> None:
    tied = matrix.copy()
    query = tied[100].copy()
    # nine rows above every other, then three copies of one row tied for the tenth place
    tied[200:209] = query
    tied[[3000, 4000, 5000]] = 0.9 * query + 0.1 * tied[7]
    index = sketch.build(tied)
    assert index is not None
    weights, slack = sketch.weights(index, query)
    assert sketch.top(tied, query, index.rows @ weights, slack, 11) is None
    ids = [f"m{i:05d}.py::f" for i in range(len(tied))]
    dense = DenseIndex(ids, tied, "test")
    for _ in range(3):  # the sketch is made at the second search
        scores = tied @ query
        top = np.argpartition(-scores, 10)[:11]
        expected = sorted(zip((-scores[top]).tolist(), [ids[i] for i in top], strict=True))
        assert dense.search(query, 11) == [(sid, -s) for s, sid in expected]
    assert dense.sketch is not None


def test_dense_search_through_the_sketch_equals_the_whole_product(matrix: np.ndarray) -> None:
    ids = [f"m{i:05d}.py::f" for i in range(len(matrix))]
    dense = DenseIndex(ids, matrix, "test")
    for i, query in enumerate(_queries(matrix, 20)):
        for limit in (10, 40):
            scores = matrix @ query
            top = best(scores, limit)
            expected = sorted(zip((-scores[top]).tolist(), [ids[j] for j in top], strict=True))
            assert dense.search(query, limit) == [(sid, -s) for s, sid in expected], i
    assert dense.sketch is not None and dense.searches > 2


def test_a_small_or_narrow_matrix_has_no_sketch() -> None:
    assert sketch.build(_vectors(sketch.MIN_ROWS - 1)) is None
    assert sketch.build(np.ones((5000, sketch.DIMS), dtype=np.float32)) is None
