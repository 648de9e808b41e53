"""The default embedder: a static token-vector table distilled from all-MiniLM-L6-v2.

A text's vector is the sum of its wordpiece tokens' rows in a 30,522-row table, L2-normalised.
The rows were scaled at distillation by how rare each token is in code (SIF weights), so the
sum is a weighted mean in which ``self`` or ``return`` count little. No network, no torch, no
attention: tokenising and a gather, so it embeds thousands of texts a second on one core, at a
quality below the full transformer and, on its own, below BM25 (numbers: docs/BENCHMARKS.md,
"Embedders: speed and quality"). The table was made by ``scripts/distill_embedder.py``;
``model/README.md`` says how.

Text preparation, before the BERT (uncased) tokenizer:

* camelCase and PascalCase are split into words (``HTTPServer`` -> ``HTTP Server``), because
  the tokenizer lowercases first and would cut ``httpserver`` into meaningless pieces;
  snake_case needs nothing (the tokenizer splits on punctuation and ``_`` is blanked below).
* Texts are cut at :data:`MAX_TOKENS` wordpieces. A symbol's name, signature and first
  identifiers come first, and a mean over more tokens barely moves; the cap bounds the time
  and memory of a pathological text (a 10k-line generated function).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Sequence
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from astrag.embed.base import EmbeddingError, normalise_rows

MODEL_DIR = Path(__file__).resolve().parent / "model"
#: Wordpieces kept per text; the rest of a longer text is ignored.
MAX_TOKENS = 512
# Version of the text preparation below; part of the name, since changing it changes vectors.
_PREP_VERSION = 1
# Token rows gathered per step. Small enough that the gathered block (x dim x 4 bytes, ~2 MB)
# stays in cache for the sum that follows: 4-5x faster than one gather of a whole batch.
_GATHER_TOKENS = 2048

# A lower/digit then an upper, or an upper then upper+lower (the "PS" in "HTTPServer"); matching
# two or three characters without lookarounds is ~3x faster than a zero-width split.
_CAMEL = re.compile(r"[a-z0-9][A-Z]|[A-Z][A-Z][a-z]")


def _split_camel(match: re.Match[str]) -> str:
    text = match.group(0)
    return f"{text[0]} {text[1:]}"


def prepare(text: str) -> str:
    """Split camelCase/PascalCase and blank underscores so identifiers tokenise as words."""
    return _CAMEL.sub(_split_camel, text).replace("_", " ")


class StaticEmbedder:
    """Mean of distilled token vectors; loads its table lazily on first use.

    ``model_dir`` defaults to the table bundled with astrag; the benchmark passes others.
    Thread-safe: the table is loaded once under a lock and only read afterwards.
    """

    def __init__(self, model_dir: Path | None = None) -> None:
        self.model_dir = model_dir or MODEL_DIR
        config = self._read_config()
        self.dim: int = int(config["dims"])
        self.name: str = (
            f"static-minilm-l6-v2-d{self.dim}-{config['quantisation']}"
            f"-r{config['recipe_version']}-p{_PREP_VERSION}-{config['vectors_sha256'][:12]}"
        )
        self._lock = threading.Lock()
        self._tokenizer: Any = None
        self._table: np.ndarray | None = None

    def _read_config(self) -> dict[str, Any]:
        path = self.model_dir / "config.json"
        try:
            config: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise EmbeddingError(
                f"the bundled embedding model is missing or unreadable: {path} ({exc})",
                "reinstall astrag (pip install --force-reinstall astrag), "
                "or rebuild it with scripts/distill_embedder.py",
            ) from exc
        return config

    def _load(self) -> tuple[Any, np.ndarray]:
        with self._lock:
            if self._table is None:
                from tokenizers import Tokenizer

                tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
                # The teacher's tokenizer pads and truncates to 128 for the transformer; here
                # padding would add [PAD] rows and the cap is ours.
                tokenizer.no_padding()
                tokenizer.enable_truncation(MAX_TOKENS)
                with np.load(self.model_dir / "vectors.npz") as data:
                    table = data["vectors"].astype(np.float32)
                    if "scales" in data:  # int8 rows with one float scale each
                        table *= data["scales"][:, None]
                self._tokenizer = tokenizer
                self._table = table
            return self._tokenizer, self._table

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit row per text (zero row for a text without known tokens)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        tokenizer, table = self._load()
        prepared = [prepare(t) for t in texts]
        # encode_batch_fast skips offset tracking, which we do not need.
        encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)
        id_lists = [e.ids for e in encode(prepared, add_special_tokens=False)]
        return normalise_rows(self._pool(id_lists, table))

    @staticmethod
    def _pool(id_lists: list[list[int]], table: np.ndarray) -> np.ndarray:
        """Each text's token rows summed (normalising later makes sum == mean)."""
        lengths = np.fromiter(map(len, id_lists), dtype=np.intp, count=len(id_lists))
        bounds = np.zeros(len(id_lists) + 1, dtype=np.intp)
        np.cumsum(lengths, out=bounds[1:])
        ids = np.fromiter(chain.from_iterable(id_lists), dtype=np.intp, count=int(bounds[-1]))
        out = np.zeros((len(id_lists), table.shape[1]), dtype=np.float32)
        buffer = np.empty((_GATHER_TOKENS + MAX_TOKENS, table.shape[1]), dtype=np.float32)
        start = 0
        while start < len(id_lists):
            # Texts start..stop-1 hold at most _GATHER_TOKENS tokens (or are one long text).
            stop = int(np.searchsorted(bounds, bounds[start] + _GATHER_TOKENS, side="right")) - 1
            stop = min(max(stop, start + 1), len(id_lists))
            lo, hi = int(bounds[start]), int(bounds[stop])
            if hi > lo:
                rows = np.take(table, ids[lo:hi], axis=0, out=buffer[: hi - lo])
                # reduceat on an empty segment returns the next row instead of zero, so sum
                # only the non-empty texts of the step.
                keep = lengths[start:stop] > 0
                out[start:stop][keep] = np.add.reduceat(rows, bounds[start:stop][keep] - lo, axis=0)
            start = stop
        return out
