"""Vectors of search documents: filled in after an index run, searched exactly in memory.

Embedding is its own step after the graph is written, in transactions of a few thousand
texts: the graph is usable at once, a killed run keeps what it embedded, and the next run
embeds only texts no vector is cached for (keyed by the text's hash, so an unchanged symbol is
never embedded twice, and a reverted edit finds its old vector if it is still cached).
Vectors are stored as float16: half the bytes, and cosine rankings do not move measurably.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_all_start_methods, get_context
from typing import TYPE_CHECKING

from astrag.embed import Embedder, EmbeddingError, load_embedder
from astrag.store.base import GraphStore

if TYPE_CHECKING:  # numpy is imported where vectors are read: an index run without
    # embeddings (--no-embed) never imports it (0.1 s before a cold run's parsers start)
    import numpy as np

    from astrag.search.product import Product
    from astrag.search.sketch import Sketch

ProgressFn = Callable[[str, int, int], None]
_BATCH = 4096  # texts per embed call: the static embedder sums texts of one length together
_COMMIT_EVERY = 8192  # texts per transaction: a killed run loses at most this much work
_DTYPE = "float16"  # numpy's name: numpy is imported only where vectors are made or read
#: meta: the embedder whose vectors cover every document text; an index run that writes
#: documents sets it to "" in its own transaction, and embedding sets it once all are done
VECTORS_COMPLETE = "vectors_complete"


def embed_missing(
    store: GraphStore,
    spec: str,
    progress: ProgressFn | None = None,
    *,
    written: Collection[str] | None = None,
    complete_before: str = "",
    jobs: int = 1,
) -> tuple[str, int]:
    """Embed every document text without a cached vector; returns (embedder name, count).
    With the spec "none" nothing is embedded and existing vectors stay as they are.

    ``written`` are the text hashes of the documents the run wrote and ``complete_before`` the
    index's :data:`VECTORS_COMPLETE` as the run began: when that names this embedder, every
    other text had its vector already, and only those are looked up (an edit's few texts
    instead of every document: 0.02 s on medusa). With ``jobs`` > 1, an embedder that
    computes locally (``embeds_in_forks``) embeds every other batch in forked processes."""
    embedder = load_embedder(spec)
    if embedder is None:
        return "none", 0
    before = store.meta()
    previous = before.get("embedder", "")
    meta = {"embedder": embedder.name, "embedder_spec": spec}
    if previous != embedder.name:
        # vectors of another model live in another space: none of them can be reused
        store.put_vectors([], clear=True, meta=meta)
    scoped = previous == complete_before == embedder.name and written is not None
    missing = store.texts_without_vectors(written if scoped else None)
    total = len(missing)
    if progress and total:
        progress("embed", 0, total)
    done = 0
    # batches of equal size, none larger than _BATCH: a fork shares the work evenly
    size = -(-total // -(-total // _BATCH)) if total else _BATCH
    batches = [missing[b : b + size] for b in range(0, total, size)]
    rows: list[tuple[str, bytes]] = []
    for batch, blob in zip(batches, _embedded(embedder, batches, jobs), strict=True):
        width = len(blob) // len(batch)  # bytes a vector
        rows.extend((h, blob[i * width : (i + 1) * width]) for i, (h, _) in enumerate(batch))
        done += len(batch)
        if progress:
            progress("embed", done, total)
        if len(rows) >= _COMMIT_EVERY or done == total:
            # complete only with the last part: a run killed before it leaves the mark unset
            last = done == total
            store.put_vectors(
                rows, meta={**meta, VECTORS_COMPLETE: embedder.name} if last else meta
            )
            rows = []
    if not total and before.get(VECTORS_COMPLETE) != embedder.name:
        store.set_meta({**meta, VECTORS_COMPLETE: embedder.name})
    return embedder.name, total


def warm(spec: str) -> None:
    """Let the embedder ``spec`` names start loading what embedding an edit's few texts needs
    (the static embedder: a thread), while the run resolves; a run calls it once it has
    re-parsed files, whose new texts are embedded after the commit."""
    try:
        embedder = load_embedder(spec)
    except EmbeddingError:
        return  # embed_missing reports it, after the graph is written
    start = getattr(embedder, "warm", None)
    if start is not None:
        start()


def _embedded(
    embedder: Embedder, batches: list[list[tuple[str, str]]], jobs: int
) -> Iterator[bytes]:
    """Each batch's vectors as float16 bytes, in order. After an index run the other core is
    idle: with ``jobs`` > 1 the batches are shared round-robin between this process and
    ``jobs - 1`` forked ones (medusa's 34k texts: 1.5 CPU s of embedding on each core's share)."""
    forks = jobs > 1 and len(batches) > 1 and getattr(embedder, "embeds_in_forks", False)
    if not forks or "fork" not in get_all_start_methods():
        for batch in batches:
            yield _embed_batch(embedder, batch)
        return
    # the first batch here, before forking: the model it loads (and the table it unpacks) is
    # inherited, not loaded again in the fork (0.25 CPU s)
    yield _embed_batch(embedder, batches[0])
    global _forked
    _forked = embedder, batches  # what the forked processes inherit (texts are not pickled)
    pool = ProcessPoolExecutor(max_workers=jobs - 1, mp_context=get_context("fork"))
    try:
        # the last batch to a fork too: this process has embedded the first, and writes
        last = len(batches) - 1
        far = {
            i: pool.submit(_embed_forked, i) for i in range(1, last + 1) if i % jobs or i == last
        }
        for i in range(1, len(batches)):
            yield far.pop(i).result() if i in far else _embed_batch(embedder, batches[i])
    finally:
        _forked = None
        pool.shutdown(cancel_futures=True)


_forked: tuple[Embedder, list[list[tuple[str, str]]]] | None = None


def _embed_forked(index: int) -> bytes:
    assert _forked is not None
    embedder, batches = _forked
    return _embed_batch(embedder, batches[index])


def _embed_batch(embedder: Embedder, batch: list[tuple[str, str]]) -> bytes:
    texts = [text for _, text in batch]
    # the static embedder makes a few texts' float16 rows without numpy (embed/few.py)
    as_stored = getattr(embedder, "float16_bytes", None) if _DTYPE == "float16" else None
    if as_stored is not None:
        return bytes(as_stored(texts))
    return embedder.embed(texts).astype(_DTYPE).tobytes()


@dataclass(slots=True)
class DenseIndex:
    """All vectors of an index as one matrix, for exact cosine search."""

    ids: list[str]
    matrix: np.ndarray  # (n, dim) float32, rows L2-normalised
    embedder_name: str
    # the matrix's sketch (search/sketch.py), made at the second search: a process that
    # searches once (the CLI) never pays for it (0.4-0.5 s on a 495k-line repository)
    searches: int = 0
    sketch: Sketch | None = None

    @classmethod
    def load(cls, store: GraphStore) -> DenseIndex | None:
        name = store.meta().get("embedder", "")
        if not name or name == "none":
            return None
        ids, blobs = store.vectors()
        if not ids:
            return None
        import numpy as np

        matrix = np.frombuffer(b"".join(blobs), dtype=_DTYPE).reshape(len(ids), -1)
        return cls(ids, matrix.astype(np.float32), name)

    def search(self, query: np.ndarray, limit: int) -> list[tuple[str, float]]:
        return self.begin(query, limit)()

    def begin(self, query: np.ndarray, limit: int) -> Callable[[], list[tuple[str, float]]]:
        """:meth:`search` begun on the other core (``search/product.py``): the returned
        function finishes it, with the same hits and scores, bit for bit. From the second
        search on, a large matrix is searched through its sketch (``search/sketch.py``):
        the product begun is the sketch's, half the bytes, and only rows that can be among
        the best are scored with the matrix; the hits and scores are the same."""
        import numpy as np

        from astrag.search import sketch
        from astrag.search.product import Product

        query = query.astype(np.float32)
        self.searches += 1
        if self.searches == 2:
            self.sketch = sketch.build(self.matrix)
        if self.sketch is not None and sketch.usable(len(self.matrix), query, limit):
            weights, slack = sketch.weights(self.sketch, query)
            reach = Product(self.sketch.rows, weights)

            def finish_sketched() -> list[tuple[str, float]]:
                found = sketch.top(self.matrix, query, reach.scores(), slack, limit)
                if found is None:  # the whole product decides
                    return self._best(Product(self.matrix, query), limit)
                return self._ranked(*found)

            return finish_sketched

        product = Product(self.matrix, query)
        return lambda: self._best(product, limit)

    def _best(self, product: Product, limit: int) -> list[tuple[str, float]]:
        """The ``limit`` best rows of ``product``'s scores, ranked."""
        from astrag.search.product import best

        scores = product.scores()
        top = best(scores, limit)
        return self._ranked(top, scores[top])

    def _ranked(self, rows: np.ndarray, scores: np.ndarray) -> list[tuple[str, float]]:
        """``rows`` with their ``scores``, best first, ties broken by id so that equal scores
        rank the same way on every run."""
        ids = self.ids
        order = sorted(zip((-scores).tolist(), [ids[i] for i in rows.tolist()], strict=True))
        return [(sid, -score) for score, sid in order]


def query_embedder(meta: dict[str, str]) -> Embedder | None:
    """The embedder that made an index's vectors, to embed queries in the same space; None if
    this installation cannot load the same one (then dense search is left out, not wrong)."""
    name, spec = meta.get("embedder", ""), meta.get("embedder_spec", "")
    if not name or name == "none" or not spec:
        return None
    embedder = load_embedder(spec)
    return embedder if embedder is not None and embedder.name == name else None
