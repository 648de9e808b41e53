"""``load_embedder`` specs and the optional MiniLM provider's failure mode."""

from __future__ import annotations

import importlib.util

import pytest

from astrag.embed import DEFAULT_EMBEDDER, Embedder, EmbeddingError, load_embedder
from astrag.errors import AstragError


def test_default_is_the_local_static_embedder() -> None:
    assert DEFAULT_EMBEDDER == "local"
    embedder = load_embedder()
    assert isinstance(embedder, Embedder)
    assert embedder.name.startswith("static-") and embedder.dim > 0
    assert load_embedder("local").name == embedder.name  # type: ignore[union-attr]


def test_none_means_no_embedder() -> None:
    assert load_embedder("none") is None


def test_unknown_spec_lists_the_valid_ones() -> None:
    with pytest.raises(EmbeddingError) as info:
        load_embedder("bert-large")
    assert isinstance(info.value, AstragError)
    assert "bert-large" in str(info.value)
    for spec in ("local", "minilm", "openai", "openai:<model>", "none"):
        assert spec in info.value.hint


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is not None,
    reason="sentence-transformers is installed, so the missing-package error cannot occur",
)
def test_minilm_without_its_packages_says_how_to_install() -> None:
    with pytest.raises(EmbeddingError) as info:
        load_embedder("minilm")
    assert "sentence-transformers" in str(info.value)
    assert "astrag[minilm]" in info.value.hint and "torch==2.13.0" in info.value.hint
