"""What every embedder provides, and the one error they raise.

An embedder turns texts into unit vectors whose dot product is their cosine similarity. The
search layer caches vectors under :attr:`Embedder.name`, so an implementation must change its
name whenever the vectors it would produce change (model, dimensions, quantisation, the way text
is prepared); two embedders with one name must give the same vectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from astrag.errors import AstragError

if TYPE_CHECKING:  # only named in annotations: importing astrag.embed must not import numpy
    import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Texts in, L2-normalised float32 rows out.

    ``embed(texts)`` returns an array of shape ``(len(texts), dim)``, one row per text, in order.
    Each row has unit length, except that a text with nothing to embed (empty, only whitespace,
    or nothing the model knows) gives an all-zero row: its similarity to everything is 0, which
    ranks it last rather than at random. ``embed([])`` returns shape ``(0, dim)``.
    """

    #: Stable id of model + dimensions + version; part of the vector cache key.
    name: str
    #: Length of every vector.
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class EmbeddingError(AstragError):
    """An embedder cannot be loaded or cannot embed (missing package, endpoint refused, ...)."""


def normalise_rows(vectors: np.ndarray) -> np.ndarray:
    """``vectors`` as float32 with unit-length rows; all-zero rows stay zero (no NaN)."""
    import numpy as np

    out = np.array(vectors, dtype=np.float32)  # a copy: callers keep their array
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out
