"""Each text's token rows summed, in bulk, bit for bit as ``numpy.add.reduceat`` sums them.

The static embedder's vectors were the rows ``np.add.reduceat(rows, starts, axis=0)`` gives.
That call reduces one text and one column at a time, walking down the rows (1 KB apart), with
numpy's pairwise summation: 1.6 s on one core for medusa's 1.87M tokens, most of it cache
misses. Here texts of one length are summed together, a slice of a few hundred rows at a
time, with whole-row additions in the same order numpy's pairwise sum adds them, so every
vector keeps its bytes (the vector cache, keyed by text, stays valid) at a third of the cost
(``tests/embed/test_pooling.py`` holds it to ``reduceat`` for every length up to 600).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# Token rows gathered per step: a step's float32 rows (x dim x 4 bytes, ~1 MB) stay in cache
# for the additions that follow.
_ROWS_PER_STEP = 1024
# numpy's pairwise summation: below this many values a block is summed with 8 accumulators,
# above it split in two (PW_BLOCKSIZE in numpy's loops_utils.h)
_BLOCK = 128


def summed_rows(
    id_lists: list[list[int]], rows: Callable[[np.ndarray], np.ndarray], dim: int
) -> np.ndarray:
    """One float32 row per text: the sum of ``rows(ids)`` over its token ids, as
    ``np.add.reduceat`` sums a text's rows; a text without tokens gives a zero row.
    ``rows`` maps an int array of ids (any shape) to their float32 rows (shape + (dim,))."""
    import numpy as np

    out = np.zeros((len(id_lists), dim), dtype=np.float32)
    by_length: dict[int, list[int]] = {}
    for i, ids in enumerate(id_lists):
        if ids:
            by_length.setdefault(len(ids), []).append(i)
    for length, members in by_length.items():
        step = max(1, _ROWS_PER_STEP // length)
        for start in range(0, len(members), step):
            texts = members[start : start + step]
            block = rows(np.array([id_lists[i] for i in texts], dtype=np.intp))
            # reduceat copies a segment's first row, then adds the pairwise sum of the rest
            total = block[:, 0].copy()
            if length > 1:
                total += _pairwise(block[:, 1:])
            out[texts] = total
    return out


def _pairwise(x: np.ndarray) -> np.ndarray:
    """numpy's pairwise sum of ``x`` (texts, n, dim) along n, for all texts and columns at once:
    the order of additions of ``pairwise_sum`` in numpy's loops_utils.h."""
    n = x.shape[1]
    if n < 8:
        total = x[:, 0].copy()  # numpy starts from -0.0, and -0.0 + v is v
        for i in range(1, n):
            total += x[:, i]
        return total
    if n <= _BLOCK:
        acc = x[:, 0:8].copy()  # eight accumulators
        end = n - n % 8
        for i in range(8, end, 8):
            acc += x[:, i : i + 8]
        total = (acc[:, 0] + acc[:, 1]) + (acc[:, 2] + acc[:, 3])
        total += (acc[:, 4] + acc[:, 5]) + (acc[:, 6] + acc[:, 7])
        for i in range(end, n):
            total += x[:, i]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(x[:, :half]) + _pairwise(x[:, half:])
