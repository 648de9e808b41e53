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
import os
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from astrag.embed.base import EmbeddingError, normalise_rows
from astrag.embed.few import MAX_TOKENS as FEW_TOKENS
from astrag.embed.few import Table, Vocabulary, float16_bytes
from astrag.embed.pooling import summed_rows
from astrag.embed.wordpiece import WordpieceIds

if TYPE_CHECKING:  # numpy is imported on the first embed: a run that embeds nothing (every
    # text's vector cached) never pays for it
    import numpy as np

MODEL_DIR = Path(__file__).resolve().parent / "model"
#: Wordpieces kept per text; the rest of a longer text is ignored.
MAX_TOKENS = 512
# Version of the text preparation below; part of the name, since changing it changes vectors.
_PREP_VERSION = 1
# Tokens in one call from which the whole table is unpacked to float32 once (31 MB, ~0.1 s),
# and kept, rather than each gathered int8 row scaled as it is used (~0.2 us a token more:
# an edit's few texts never unpack it, a first index's batches of 4,096 texts do).
_UNPACK_FROM_TOKENS = 100_000

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
    """Mean of distilled token vectors; the model loads on first use, once per process.

    ``model_dir`` defaults to the table bundled with astrag; the benchmark passes others.
    Thread-safe: the model is loaded and used under a lock (its word cache grows as it goes).
    """

    #: It computes in this process alone (no threads, no sockets): batches may be embedded in
    #: forked processes as well (search/vectors.py).
    embeds_in_forks = True

    def __init__(self, model_dir: Path | None = None) -> None:
        self.model_dir = model_dir or MODEL_DIR
        config = self._read_config()
        self.dim: int = int(config["dims"])
        self.name: str = (
            f"static-minilm-l6-v2-d{self.dim}-{config['quantisation']}"
            f"-r{config['recipe_version']}-p{_PREP_VERSION}-{config['vectors_sha256'][:12]}"
        )

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

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit row per text (zero row for a text without known tokens)."""
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = _model(self.model_dir)
        with model.lock:
            id_lists = model.words.ids([prepare(t) for t in texts])
            tokens = sum(map(len, id_lists))
            return normalise_rows(summed_rows(id_lists, model.rows_for(tokens), self.dim))

    def warm(self) -> None:
        """Start reading what :meth:`float16_bytes` needs for a few texts, in a thread: an
        index run that re-parsed files calls this before resolving them, and the table's
        inflation (0.06 s, zlib without the GIL) overlaps the resolution instead of following
        it. Nothing for a process that has the numpy model loaded."""
        with _models_lock:
            if self.model_dir in _models or self.model_dir in _fews:
                return
        threading.Thread(target=_few(self.model_dir).warm, daemon=True).start()

    def float16_bytes(self, texts: Sequence[str]) -> bytes:
        """``embed(texts).astype("float16").tobytes()``, the rows as the vector cache keeps
        them. While this process has not loaded the numpy model, a call of few tokens is made
        without numpy (few.py: an edit's texts), bit for bit the same."""
        if not texts:
            return b""
        with _models_lock:
            numpy_model = _models.get(self.model_dir)
        if numpy_model is None:
            made = _few(self.model_dir).float16_bytes(texts)
            if made is not None:
                return made
        return bytes(self.embed(texts).astype("float16").tobytes())


class _Few:
    """A model directory's vocabulary and int8 table for few.py, each read on first use."""

    def __init__(self, model_dir: Path) -> None:
        self.lock = threading.Lock()
        self.model_dir = model_dir
        self.usable = True  # False: a model few.py cannot read (a float table)
        self._vocabulary: Vocabulary | None = None
        self._table: Table | None = None

    def float16_bytes(self, texts: Sequence[str]) -> bytes | None:
        """The texts' rows, or None when few.py does not make them: a text the tokenizer must
        take whole, more than ``FEW_TOKENS`` tokens, a model of another kind."""
        with self.lock:
            if not self.usable:
                return None
            try:
                if self._vocabulary is None:
                    self._vocabulary = Vocabulary(self.model_dir, MAX_TOKENS)
                id_lists = self._vocabulary.ids([prepare(t) for t in texts], FEW_TOKENS)
                return None if id_lists is None else float16_bytes(self._loaded(), id_lists)
            except (OSError, ValueError, KeyError):
                self.usable = False
                return None

    def warm(self) -> None:
        """Read the table (the vocabulary, a JSON parse that holds the GIL, is left to the
        first call)."""
        with self.lock:  # a call waits for it here
            if self.usable:
                try:
                    self._loaded()
                except (OSError, ValueError, KeyError):
                    self.usable = False

    def _loaded(self) -> Table:
        if self._table is None:
            self._table = Table(self.model_dir)
        return self._table


class _Model:
    """A model directory's tokenizer and table, loaded once per process and kept (an MCP
    server or a watcher re-indexes again and again): its int8 rows and their scales as
    stored, unpacked to one float32 table only for a call with many tokens."""

    def __init__(self, model_dir: Path) -> None:
        import numpy as np
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        # The teacher's tokenizer pads and truncates to 128 for the transformer; here
        # padding would add [PAD] rows and the cap is ours.
        tokenizer.no_padding()
        tokenizer.enable_truncation(MAX_TOKENS)
        self.lock = threading.Lock()
        self.words = WordpieceIds(tokenizer, MAX_TOKENS)
        with np.load(model_dir / "vectors.npz") as data:
            self._stored: np.ndarray = data["vectors"]
            # int8 rows with one float scale each; a float table (the benchmark's) has none
            self._scales: np.ndarray | None = data.get("scales")
        self._table: np.ndarray | None = None
        if self._scales is None:
            self._table = self._stored.astype(np.float32, copy=False)

    def rows_for(self, tokens: int) -> Callable[[np.ndarray], np.ndarray]:
        """How to gather float32 rows for a call that embeds ``tokens`` tokens in all."""
        if self._table is None and tokens >= _UNPACK_FROM_TOKENS:
            self._table = self._unpacked()
        if self._table is not None:
            return self._table.__getitem__
        return self._scaled_rows

    def _unpacked(self) -> np.ndarray:
        assert self._scales is not None
        table = self._stored.astype("float32")
        table *= self._scales[:, None]
        return table

    def _scaled_rows(self, ids: np.ndarray) -> np.ndarray:
        # the product the unpacked table holds, made for the gathered rows only: the same
        # float32 of each int8 times the same float32 scale
        import numpy as np

        assert self._scales is not None
        rows = self._stored[ids].astype(np.float32)
        rows *= self._scales[ids][..., None]
        return rows


_T = TypeVar("_T")
_models: dict[Path, _Model] = {}
_fews: dict[Path, _Few] = {}
_models_lock = threading.Lock()


def _model(model_dir: Path) -> _Model:
    return _kept(_models, model_dir, _Model)


def _few(model_dir: Path) -> _Few:
    return _kept(_fews, model_dir, _Few)


def _kept(kept: dict[Path, _T], model_dir: Path, make: Callable[[Path], _T]) -> _T:
    """The process's one ``make(model_dir)``, made on first use (under the lock: an MCP
    server's threads may ask at once)."""
    with _models_lock:
        found = kept.get(model_dir)
        if found is None:
            found = kept[model_dir] = make(model_dir)
        return found


def _fresh_locks() -> None:
    """In a forked child: another thread of the parent may have held a lock as it forked (an
    MCP server embedding a query while a re-index forks), and would never release the copy."""
    global _models_lock
    _models_lock = threading.Lock()
    for model in _models.values():
        model.lock = threading.Lock()
    for few in _fews.values():
        few.lock = threading.Lock()


os.register_at_fork(after_in_child=_fresh_locks)
