"""The two chunk baselines: the blueprint's vector RAG and BM25, over the same chunks.

Both rank every chunk of the repository for a query and index ``Chunk.search_text`` (the
file path, then the chunk). What the model is given, and what the budget counts, is the chunk
text alone.

- **Vector RAG** (the blueprint's "standard RAG"): the chunks and the query embedded with the
  same embedder astrag uses (``astrag.embed.load_embedder``), cosine similarity (rows are
  L2-normalised, so a dot product). Chunk embeddings are cached as ``.npy`` keyed by the chunk
  set and the embedder's name.
- **BM25** (Okapi, k1 = 1.2, b = 0.75) with code-aware tokens, so that the lexical baseline is
  the strong one: identifiers are split at camelCase, PascalCase, digit and snake_case
  boundaries and both the parts and the whole identifier are terms (``getEntityValueMap`` ->
  ``getentityvaluemap get entity value map``), lower-cased; English stop words and one-letter
  terms are dropped.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from .chunks import Chunk

_WORD = re.compile(r"[A-Za-z0-9_]+")
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
STOP_WORDS = frozenset(
    """a an and are as at be but by for from has have if in into is it its of on or so that
    the their then there these this to was were when where which while will with add fix
    feat chore refactor perf""".split()
)


def code_terms(text: str) -> list[str]:
    """Lower-cased terms of ``text`` with identifiers split into their words (and kept whole)."""
    terms: list[str] = []
    for word in _WORD.findall(text):
        parts = [p.lower() for piece in word.split("_") for p in _PARTS.findall(piece)]
        whole = word.lower().strip("_")
        if len(parts) > 1 and whole:
            terms.append(whole)
        terms.extend(parts)
    return [t for t in terms if len(t) > 1 and t not in STOP_WORDS]


class BM25:
    def __init__(self, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.tfs = [Counter(code_terms(d)) for d in docs]
        self.lengths = np.array([sum(tf.values()) for tf in self.tfs], dtype=np.float64)
        self.avg = float(self.lengths.mean()) if len(docs) else 0.0
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, tf in enumerate(self.tfs):
            for term, n in tf.items():
                self.postings.setdefault(term, []).append((i, n))
        n_docs = len(docs)
        self.idf = {
            t: math.log(1 + (n_docs - len(p) + 0.5) / (len(p) + 0.5))
            for t, p in self.postings.items()
        }

    def scores(self, query: str) -> np.ndarray:
        out = np.zeros(len(self.tfs))
        norm = self.k1 * (1 - self.b + self.b * self.lengths / (self.avg or 1.0))
        for term in set(code_terms(query)):
            for i, n in self.postings.get(term, ()):
                out[i] += self.idf[term] * n * (self.k1 + 1) / (n + norm[i])
        return out


class Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def chunk_vectors(
    chunks: Sequence[Chunk], embedder: Embedder, cache_dir: Path, key: str
) -> np.ndarray:
    """Embeddings of the chunks' search texts, cached by chunk-set key and embedder name."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", embedder.name)
    cache = cache_dir / f"vectors-{key}-{safe}.npy"
    if cache.is_file():
        return np.load(cache)
    vectors = np.asarray(embedder.embed([c.search_text for c in chunks]), dtype=np.float32)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.save(cache, vectors)
    return vectors


class VectorRAG:
    def __init__(self, vectors: np.ndarray, embedder: Embedder) -> None:
        self.vectors = vectors
        self.embedder = embedder

    def scores(self, query: str) -> np.ndarray:
        q = np.asarray(self.embedder.embed([query]), dtype=np.float32)[0]
        return self.vectors @ q


def ranking(scores: np.ndarray) -> list[int]:
    """Chunk indices best first; ties keep chunk order (stable), zero scores included."""
    return [int(i) for i in np.argsort(-scores, kind="stable")]


def fill_budget(chunks: Sequence[Chunk], order: Sequence[int], budget: int) -> list[Chunk]:
    """Top chunks in rank order until the next one would overflow ``budget`` tokens."""
    out: list[Chunk] = []
    used = 0
    for i in order:
        if used + chunks[i].tokens > budget:
            break
        out.append(chunks[i])
        used += chunks[i].tokens
    return out
