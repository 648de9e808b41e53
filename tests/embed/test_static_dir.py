"""The ``static:<dir>`` spec: a static table of the bundled layout from another directory."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from astrag.embed import EmbeddingError, load_embedder
from astrag.embed.static import StaticEmbedder

# a five-word vocabulary; rows are int8 with one scale each, as the bundled table stores them
_VOCAB = {"[PAD]": 0, "[UNK]": 1, "load": 2, "config": 3, "file": 4}
_ROWS = np.array([[0, 0, 0], [0, 0, 0], [127, 0, 0], [0, 127, 0], [0, 0, 127]], dtype=np.int8)
_SCALES = np.array([1.0, 1.0, 0.5, 0.25, 1.0], dtype=np.float32)


def write_model(out: Path) -> Path:
    from tokenizers import Tokenizer, normalizers, pre_tokenizers
    from tokenizers.models import WordPiece

    tokenizer = Tokenizer(WordPiece(_VOCAB, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    out.mkdir(parents=True)
    tokenizer.save(str(out / "tokenizer.json"))
    np.savez_compressed(out / "vectors.npz", vectors=_ROWS, scales=_SCALES)
    digest = hashlib.sha256((out / "vectors.npz").read_bytes()).hexdigest()
    config = {"dims": 3, "quantisation": "int8", "recipe_version": "t", "vectors_sha256": digest}
    (out / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return out


def test_a_static_dir_spec_embeds_with_that_table(tmp_path: Path) -> None:
    model = write_model(tmp_path / "model")
    embedder = load_embedder(f"static:{model}")
    assert isinstance(embedder, StaticEmbedder)
    assert embedder.model_dir == model and embedder.dim == 3
    digest = json.loads((model / "config.json").read_text())["vectors_sha256"]
    assert embedder.name.endswith(digest[:12])
    assert embedder.name != StaticEmbedder().name
    # loadConfig -> "load config": rows (63.5, 0, 0) + (0, 31.75, 0), normalised
    vectors = embedder.embed(["loadConfig", "file", "nothing known"])
    expected = np.array([63.5, 31.75, 0.0]) / np.hypot(63.5, 31.75)
    np.testing.assert_allclose(vectors[0], expected, rtol=1e-6)
    np.testing.assert_allclose(vectors[1], [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(vectors[2], [0.0, 0.0, 0.0])


def test_a_static_dir_spec_strips_spaces_and_expands_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_model(tmp_path / "model")
    monkeypatch.setenv("HOME", str(tmp_path))
    embedder = load_embedder(" static: ~/model ")
    assert isinstance(embedder, StaticEmbedder)
    assert embedder.model_dir == (tmp_path / "model").resolve()


def test_an_unknown_static_dir_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    with pytest.raises(EmbeddingError) as info:
        load_embedder(f"static:{missing}")
    assert str(missing) in str(info.value)
    assert "tokenizer.json, vectors.npz, config.json" in str(info.value)
    assert "scripts/train_code_table.py" in info.value.hint


def test_a_static_dir_without_its_table_names_the_missing_file(tmp_path: Path) -> None:
    model = write_model(tmp_path / "model")
    (model / "vectors.npz").unlink()
    with pytest.raises(EmbeddingError) as info:
        load_embedder(f"static:{model}")
    assert "missing vectors.npz" in str(info.value)


def test_a_static_spec_without_a_directory_is_a_clear_error() -> None:
    with pytest.raises(EmbeddingError) as info:
        load_embedder("static:")
    assert "names no directory" in str(info.value)
    assert "static:/path/to/model_dir" in info.value.hint


def test_the_unknown_spec_error_lists_the_static_dir_spec() -> None:
    with pytest.raises(EmbeddingError) as info:
        load_embedder("static")
    assert "static:<dir>" in info.value.hint
