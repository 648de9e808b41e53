"""The systems under test, each turning (query, budget) into ranked ``metrics.Item`` lists."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .baselines import BM25, VectorRAG, chunk_vectors, fill_budget, ranking
from .chunks import Chunk
from .metrics import Item

TOP_K = 10  # the blueprint's "exact top-10" of the vector baseline


def chunk_items(chunks: Sequence[Chunk]) -> list[Item]:
    return [Item(c.path, c.start_line, c.end_line, True, c.tokens) for c in chunks]


class ChunkSystem:
    """A chunk ranker (BM25 or vector) filled up to each budget."""

    def __init__(self, name: str, chunks: Sequence[Chunk], ranker: BM25 | VectorRAG) -> None:
        self.name = name
        self.chunks = chunks
        self.ranker = ranker
        self.seconds: list[float] = []

    def retrieve(self, query: str, budgets: Sequence[int]) -> dict[str, list[Item]]:
        """Items per run label: ``"<budget>"`` for each budget, ``"top10"`` for the top-k."""
        started = time.perf_counter()
        order = ranking(self.ranker.scores(query))
        self.seconds.append(time.perf_counter() - started)
        out = {str(b): chunk_items(fill_budget(self.chunks, order, b)) for b in budgets}
        out["top10"] = chunk_items([self.chunks[i] for i in order[:TOP_K]])
        return out


def bm25_system(chunks: Sequence[Chunk]) -> ChunkSystem:
    return ChunkSystem("bm25", chunks, BM25([c.search_text for c in chunks]))


def vector_system(chunks: Sequence[Chunk], cache_dir: Path, key: str, spec: str) -> ChunkSystem:
    from astrag.embed import load_embedder

    embedder = load_embedder(spec)
    if embedder is None:
        raise SystemExit(f"embedder {spec!r} gives no embeddings")
    vectors = chunk_vectors(chunks, embedder, cache_dir, key)
    return ChunkSystem("vector", chunks, VectorRAG(vectors, embedder))


class AstragSystem:
    """``astrag.api.open_index(root).context(query, budget)``; items in the Context's order."""

    name = "astrag"

    def __init__(self, root: Path) -> None:
        from astrag import api

        self.index: Any = api.open_index(root)
        self.seconds: list[float] = []

    def retrieve(self, query: str, budgets: Sequence[int]) -> dict[str, list[Item]]:
        out = {}
        for budget in budgets:
            started = time.perf_counter()
            context = self.index.context(query, budget)
            self.seconds.append(time.perf_counter() - started)
            out[str(budget)] = [
                Item(i.path, i.start_line, i.end_line, bool(i.full), int(i.tokens))
                for i in context.items
            ]
        return out

    def close(self) -> None:
        self.index.close()
