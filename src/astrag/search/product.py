"""Dense search's matrix-vector product on both cores, and its exact top k.

The product of a query with every vector is bound by memory, not arithmetic: on a 495k-line
repository it reads a 35 MB float32 matrix (more than a 32 MB cache holds) in 2.5 ms, two
thirds of a warm ``search``. One core cannot draw the memory's bandwidth; two can: the rows
are cut into chunks that this thread and one helper thread take in turn, while the query's
thread also ranks lexically, so the product costs what is left of it after that. With both
cores busy with other work there is no bandwidth to gain, and the query's thread does the
chunks itself, never waiting for a helper that lost its core (see :class:`Product`).

Every score is bit-identical to one product over the whole matrix: OpenBLAS (one thread,
``astrag/__init__.py``) computes a row's dot product the same way wherever the row lies, as
long as a chunk starts where the whole product's blocks of rows start (4 rows on AVX2; a chunk
here starts at a multiple of 64). ``tests/search/test_product.py`` checks it on this machine.

The best ``k`` of the scores are those numpy's ``argpartition`` would select, without
partitioning every score: the ``k``-th best of the maxima of blocks of 64 scores is a score
with ``k`` scores at or above it, so the best ``k`` are among the scores at or above it (a few
hundred). When the ``k``-th and the next score are equal, which of them is kept was
``argpartition``'s choice, and it is made by ``argpartition`` (see :func:`best`).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from itertools import count
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

CHUNK = 2048  # rows a chunk (2 MB of float32 at 256 dimensions); a multiple of BLOCK
BLOCK = 64  # rows a block of scores; a multiple of every OpenBLAS kernel's block of rows
RESTS = 8  # products made without the helper after one it did not help
_resting = 0  # products still to be made without it
_helper: ThreadPoolExecutor | None = None
_helper_lock = threading.Lock()


def bounds(rows: int, chunk: int = CHUNK) -> list[tuple[int, int]]:
    """The chunks of ``rows`` rows: [start, end), each start a multiple of ``chunk``."""
    return [(start, min(start + chunk, rows)) for start in range(0, rows, chunk)]


class Product:
    """``matrix @ query`` begun at once: the helper thread takes chunks as it gets a core, and
    :meth:`scores` has the calling thread take the rest. The calling thread never waits for
    the helper: a chunk the helper has taken and not finished is computed again (each chunk's
    scores are a new array, published whole, and both copies are the same numbers), so a
    helper that lost its core to another process costs at most one chunk, never a stall.
    A helper that did less than a quarter of the chunks had no core to run on: the next
    :data:`RESTS` products are made without it (a thread that only competes with the query's
    own for a core and for memory costs more than it brings), then it is tried again."""

    def __init__(self, matrix: np.ndarray, query: np.ndarray, chunk: int = CHUNK) -> None:
        global _resting
        self._matrix = matrix
        self._query = query
        self._chunks = bounds(len(matrix), chunk)
        self._next = count()  # the next chunk to take: next() is atomic under the GIL
        # each chunk's scores once computed; a slot is set once, by whichever thread is first
        self._parts: list[np.ndarray | None] = [None] * len(self._chunks)
        self._helped = 0  # chunks the helper set first
        self._helper = len(self._chunks) > 1 and not _resting
        if self._helper:
            _pool().submit(self._take, True)
        elif len(self._chunks) > 1:
            _resting -= 1

    def scores(self) -> np.ndarray:
        """Every row's score."""
        global _resting
        import numpy as np

        self._take(False)
        parts = self._parts
        for i, part in enumerate(parts):
            if part is None:  # the helper's, still being computed: not waited for
                parts[i] = self._product(i)
        if self._helper and self._helped * 4 < len(parts):
            _resting = RESTS
        if not parts:
            return np.zeros(0, dtype=np.float32)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)  # type: ignore[arg-type]

    def _take(self, helper: bool) -> None:
        parts, total = self._parts, len(self._chunks)
        while (i := next(self._next)) < total:
            part = self._product(i)
            if parts[i] is None:
                parts[i] = part
                self._helped += helper

    def _product(self, i: int) -> np.ndarray:
        import numpy as np

        start, end = self._chunks[i]
        return np.matmul(self._matrix[start:end], self._query)


def _pool() -> ThreadPoolExecutor:
    """The one helper thread of this process, started at its first product."""
    global _helper
    with _helper_lock:
        if _helper is None:
            _helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="astrag-dense")
        return _helper


def best(scores: np.ndarray, limit: int) -> np.ndarray:
    """The indices of the ``limit`` best scores, as ``np.argpartition(-scores, limit - 1)``
    selects them (in no particular order)."""
    import numpy as np

    n = len(scores)
    limit = min(limit, n)
    if limit <= 0:
        return np.zeros(0, dtype=np.intp)
    whole = n // BLOCK * BLOCK
    maxima = scores[:whole].reshape(-1, BLOCK).max(axis=1)
    if whole < n:
        maxima = np.append(maxima, scores[whole:].max())
    if len(maxima) <= limit or np.isnan(maxima).any():
        return _argpartition(scores, limit)
    # limit blocks have their maximum at or above floor: limit scores are, so the best limit
    # scores are all at or above it
    floor = np.partition(maxima, len(maxima) - limit)[len(maxima) - limit]
    found = np.flatnonzero(scores >= floor)
    order = np.argsort(-scores[found], kind="stable")
    if len(found) > limit and scores[found[order[limit - 1]]] == scores[found[order[limit]]]:
        return _argpartition(scores, limit)  # a tie at the cut: argpartition's own choice
    return found[order[:limit]]


def _argpartition(scores: np.ndarray, limit: int) -> np.ndarray:
    import numpy as np

    return np.argpartition(-scores, limit - 1)[:limit]
