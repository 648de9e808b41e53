"""Dense search's best ``k`` from half the matrix, exactly: a sketch, a bound, a rescoring.

The product of a query with every vector reads the whole float32 matrix (35 MB on a 495k-line
repository, 48 MB on an 800k-line one), more than the cache holds beside anything else, so
every query pays for it in memory traffic (search/product.py). The rows projected on the
matrix's 127 principal axes, each with its residual's norm beside them, are half the bytes;
one product of them with the query gives every row an upper bound on the score the whole
product would give it (its reach plus one number), and only the rows whose bound reaches the
best scores are scored with the matrix (a few hundred to a few thousand of 34k-47k). The hits
and scores are those of the whole product, bit for bit, or the sketch says it cannot tell and
the whole product is made.

The bound, for a query ``q`` and a row ``m`` (real arithmetic on the stored numbers): with any
``W`` (dim x k, the principal axes in float64), ``P = float32(W^T m)`` and the residual
``r = m - W P``, and any ``z``,

    q.m = (W^T q).P + q.r    and    q.r = (q - W z).r + z.(W^T r)

so with ``p`` the float64 ``W^T q`` (``z = p``), ``p32`` its float32 rounding and ``w`` a
float32 at or above ``|q - W p|``,

    q.m <= p32.P + w |r| + |p| |W^T r| + |p - p32| |P|

(Cauchy-Schwarz on each product), and the reach ``fl(p32.P + w |r|)``, one float32 dot product
of k + 1 terms, is within ``g(k + 1) (|p32| |P| + w |r|)`` of ``p32.P + w |r|``, as the whole
product's float32 score is within ``g(dim) |q| |m|`` of ``q.m``, whatever the order of the
sums (``g(n) = n u / (1 - n u)``, ``u = 2^-24``; Higham, *Accuracy and Stability of Numerical
Algorithms*, 3.1). ``W`` need not be orthogonal for this to hold; being the principal axes
makes ``|r|`` small. Every term but the reach is bounded by its largest value over the rows,
so a query adds one number to every reach (:func:`weights`' slack).

The best ``limit`` (:func:`top`): the ``2 * limit`` rows of the best reach are scored with the
matrix and the ``limit``-th best of those is a score ``limit`` rows have, so every row of the
best ``limit`` scores at least that floor; a row whose reach plus the slack is below it is not
one of them. The rest are scored and the best ``limit`` of them are the whole product's,
unless the ``limit``-th and the next are equal: which of tied rows numpy's ``argpartition``
keeps depends on every score, so then the whole product decides.

Scoring a row alone gives it the bits of the whole product only where OpenBLAS computes it
with the same kernel: on this x86-64 build a row's dot product is the same in any group of
four rows, and differs in the last ``rows % 4`` (a kernel for the leftovers). So the rows are
gathered in a matrix whose length is a multiple of four and the leftover rows are scored at
the end of the matrix as the last chunk of search/product.py scores them; :func:`build` checks
this on random queries and gives no sketch where it does not hold.
``tests/search/test_sketch.py`` checks the bound, the bits and the hits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

DIMS = 127  # axes kept: with |r| beside them a row of the sketch is half of one of 256
GROUP = 4  # rows OpenBLAS's gemv kernel scores together (x86-64, Haswell and later)
MIN_ROWS = 4096  # below this the whole matrix is a few MB: the product is as cheap
BLOCK = 64  # rows whose best sketched score picks the rows scored first
_U = 2.0**-24  # unit roundoff of float32
_SLACK = 1e-9  # covers the float64 rounding of the bound's own terms (< 1e-12 here)
_CHUNK = 4096  # rows a step while building, to keep the float64 residuals small


def _gamma(n: int) -> float:
    """Higham's gamma_n for float32: the relative error of an n-term dot product."""
    return n * _U / (1 - n * _U)


@dataclass(frozen=True, slots=True)
class Sketch:
    """The rows on ``dims`` principal axes and each row's ``|r|`` beside them, and the largest
    values of what bounds the rest of their scores."""

    axes: np.ndarray  # (dim, k) float64: W
    rows: np.ndarray  # (n, k + 1) float32: P, then |r| rounded up to float32
    most_rows: float  # max |P|
    most_rest: float  # max |r|
    most_rest_on_axes: float  # max |W^T r|
    most_norm: float  # max |m|


def build(matrix: np.ndarray, dims: int = DIMS) -> Sketch | None:
    """The sketch of ``matrix`` (float32, rows by dimensions), or None where it cannot help
    (a small or narrow matrix) or rescoring alone would not give the whole product's bits."""
    import numpy as np

    n, dim = matrix.shape
    if n < MIN_ROWS or dim <= dims or not _rescoring_holds(matrix):
        return None
    gram = (matrix.T @ matrix).astype(np.float64)  # any W is sound; this one makes |r| small
    _, vectors = np.linalg.eigh(gram)
    axes = np.ascontiguousarray(vectors[:, ::-1][:, :dims])
    rows = np.empty((n, dims + 1), dtype=np.float32)
    most = np.zeros(4)  # |P|, |r|, |W^T r|, |m|
    for start in range(0, n, _CHUNK):
        part = matrix[start : start + _CHUNK].astype(np.float64)
        sketch = (part @ axes).astype(np.float32)
        residual = part - sketch.astype(np.float64) @ axes.T
        rest = np.linalg.norm(residual, axis=1) * (1 + _SLACK)
        rest32 = rest.astype(np.float32)
        low = rest32.astype(np.float64) < rest  # rounded down: the next float32 up
        rest32[low] = np.nextafter(rest32[low], np.float32(np.inf))
        rows[start : start + len(part), :dims] = sketch
        rows[start : start + len(part), dims] = rest32
        found = (
            np.linalg.norm(sketch.astype(np.float64), axis=1).max(),
            float(rest32.max()),
            np.linalg.norm(residual @ axes, axis=1).max(),
            np.linalg.norm(part, axis=1).max(),
        )
        most = np.maximum(most, found)
    return Sketch(axes, rows, *(float(x) * (1 + _SLACK) for x in most))


def weights(sketch: Sketch, query: np.ndarray) -> tuple[np.ndarray, float]:
    """The query as the sketch's rows are multiplied by (float32: the query on the axes and
    the weight of ``|r|``, ``|q - W p|``), and the one number every row adds: a row's
    whole-product score is at most its product with these weights (its reach) plus that."""
    import numpy as np

    q = query.astype(np.float64)
    p = sketch.axes.T @ q
    off = float(np.linalg.norm(q - sketch.axes @ p)) * (1 + _SLACK)
    weighted = np.empty(len(p) + 1, dtype=np.float32)
    weighted[:-1] = p
    weighted[-1] = _above(off)
    p32 = weighted[:-1].astype(np.float64)
    k, dim = sketch.rows.shape[1], sketch.axes.shape[0]
    # the reach's own rounding: its k + 1 terms sum to at most |p32| |P| + weight |r|
    terms = float(np.linalg.norm(p32)) * sketch.most_rows + float(weighted[-1]) * sketch.most_rest
    slack = (
        _gamma(k) * terms
        + float(np.linalg.norm(p - p32)) * sketch.most_rows
        + float(np.linalg.norm(p)) * sketch.most_rest_on_axes
        + _gamma(dim) * float(np.linalg.norm(q)) * sketch.most_norm
    )
    return weighted, slack * (1 + _SLACK) + _SLACK


def usable(rows: int, query: np.ndarray, limit: int) -> bool:
    """:func:`top` can answer: enough blocks of rows for the first pick, a finite query."""
    import numpy as np

    return limit > 0 and 2 * limit * BLOCK < rows and bool(np.isfinite(query).all())


def top(
    matrix: np.ndarray, query: np.ndarray, reached: np.ndarray, slack: float, limit: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows of the ``limit`` best whole-product scores of ``query`` (float32) and those
    scores, in no particular order, from each row's ``reached`` and the ``slack`` of
    :func:`weights`; None when the whole product must decide (a tie at the cut). Only when
    :func:`usable`."""
    import numpy as np

    n = len(matrix)
    # the 2 * limit rows of the best reach (found among the rows at or above the (2 * limit)-th
    # best of the maxima of blocks), scored exactly: their limit-th best is a score limit rows
    # have, so every row of the best limit scores at least that floor
    whole = n // BLOCK * BLOCK
    maxima = reached[:whole].reshape(-1, BLOCK).max(axis=1)
    cut = np.partition(maxima, len(maxima) - 2 * limit)[len(maxima) - 2 * limit]
    above = np.flatnonzero(reached >= cut)
    first = np.sort(above[np.argpartition(-reached[above], 2 * limit - 1)[: 2 * limit]])
    first_scores = rescore(matrix, first, query)
    floor = float(np.partition(first_scores, limit)[limit])  # the limit-th best of 2 * limit
    # a row below the floor by more than the slack cannot score the floor
    candidates = np.flatnonzero(reached >= _below(floor - slack))
    known = np.zeros(n, dtype=bool)
    known[first] = True
    others = candidates[~known[candidates]]
    rows = np.concatenate([first, others])
    scores = np.concatenate([first_scores, rescore(matrix, others, query)])
    order = np.argpartition(-scores, (limit - 1, limit))
    if scores[order[limit - 1]] == scores[order[limit]]:
        return None  # tied at the cut: which is kept is argpartition's choice over all rows
    chosen = order[:limit]
    return rows[chosen], scores[chosen]


def _above(value: float) -> np.float32:
    """The least float32 at or above ``value``."""
    import numpy as np

    near = np.float32(value)
    return near if float(near) >= value else np.nextafter(near, np.float32(np.inf))


def _below(value: float) -> np.float32:
    """The largest float32 at or below ``value``: a float32 array compared with it keeps
    every element at or above ``value``."""
    import numpy as np

    near = np.float32(value)
    return near if float(near) <= value else np.nextafter(near, np.float32(-np.inf))


def rescore(matrix: np.ndarray, rows: np.ndarray, query: np.ndarray) -> np.ndarray:
    """The whole product's scores of ``rows`` (sorted), bit for bit: the rows before the last
    ``n % GROUP`` gathered into a matrix of whole groups; those last ones scored at the end of
    a slice that ends where the matrix does and starts where a group of the whole product's
    last chunk starts (search/product.py), as that chunk scores them."""
    import numpy as np

    from astrag.search.product import CHUNK

    n = len(matrix)
    whole = n - n % GROUP
    cut = int(np.searchsorted(rows, whole))
    body = rows[:cut]
    out = np.empty(len(rows), dtype=np.float32)
    if len(body):
        padded = -(-len(body) // GROUP) * GROUP
        gather = np.empty(padded, dtype=np.intp)
        gather[: len(body)] = body
        gather[len(body) :] = body[0]
        out[:cut] = (matrix[gather] @ query)[: len(body)]
    if cut < len(rows):
        start = max(whole - GROUP, (n - 1) // CHUNK * CHUNK)
        tail = matrix[start:] @ query
        out[cut:] = tail[rows[cut:] - start]
    return out


def _rescoring_holds(matrix: np.ndarray, tries: int = 4) -> bool:
    """Rescored rows get the whole product's bits on this machine's OpenBLAS, for random
    queries and rows (the end of the matrix among them)."""
    import numpy as np

    from astrag.search.product import Product

    rng = np.random.default_rng(0)
    n = len(matrix)
    for _ in range(tries):
        query = rng.standard_normal(matrix.shape[1]).astype(np.float32)
        rows = np.unique(
            np.concatenate([rng.choice(n, min(n, 61), replace=False), np.arange(n - 7, n)])
        )
        whole = Product(matrix, query).scores()
        if not np.array_equal(rescore(matrix, rows, query), whole[rows]):
            return False
    return True
