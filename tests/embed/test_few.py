"""few.py: a few texts embedded without numpy give the numpy path's float16 bytes exactly."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest
from tokenizers import Tokenizer

from astrag.embed import few, static
from astrag.embed.static import MAX_TOKENS, MODEL_DIR, StaticEmbedder, prepare
from astrag.embed.wordpiece import VocabPieces
from tests.offline import run_offline

WORDS = (
    "get user by id parse json config http server render progress bar self return "
    "antidisestablishmentarianism qzxv jjjjq tokenisation astrag speed probe check circle"
).split()


def _texts() -> list[str]:
    """Texts of 0 to 600 tokens (past 8, 128 and 256: every branch of the pairwise sum),
    identifiers, punctuation, words the vocabulary lacks."""
    rng = random.Random(0)
    texts = ["", "   ", "(): ->", "x", "HTTPServer getUserById __init__", "a" * 100, "b" * 101]
    texts += [" ".join(rng.choice(WORDS) for _ in range(n)) for n in range(0, 300, 7)]
    texts += [" ".join(rng.choice(WORDS) for _ in range(n)) for n in (127, 128, 129, 256, 600)]
    return texts


def _numpy_bytes(embedder: StaticEmbedder, texts: list[str]) -> bytes:
    return bytes(embedder.embed(texts).astype("float16").tobytes())


def _few_bytes(model_dir: Path, texts: list[str]) -> bytes | None:
    vocabulary = few.Vocabulary(model_dir, MAX_TOKENS)
    id_lists = vocabulary.ids([prepare(t) for t in texts], 10**9)
    return None if id_lists is None else few.float16_bytes(few.Table(model_dir), id_lists)


def test_every_text_gives_the_numpy_paths_bytes() -> None:
    texts = _texts()
    embedder = StaticEmbedder()
    assert _few_bytes(MODEL_DIR, texts) == _numpy_bytes(embedder, texts)
    # one at a time too: a text's row does not depend on its neighbours
    assert b"".join(_few_bytes(MODEL_DIR, [t]) or b"" for t in texts[:20]) == _numpy_bytes(
        embedder, texts[:20]
    )


def test_the_vocabulary_splits_words_as_the_tokenizers_wordpiece_model() -> None:
    tokenizer = Tokenizer.from_file(str(MODEL_DIR / "tokenizer.json"))
    spec = json.loads((MODEL_DIR / "tokenizer.json").read_text(encoding="utf-8"))["model"]
    pieces = VocabPieces(spec["vocab"], spec["vocab"]["[UNK]"], "##", 100)
    rng = random.Random(1)
    words = [w for w in spec["vocab"] if w.isascii() and w.isalnum()][::7]
    words += ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(n))
              for n in range(1, 40) for _ in range(20)]  # fmt: skip
    words += ["a" * 100, "a" * 101, "zzzzzzzzzq", "42"]
    for word in words:
        assert pieces[word] == [t.id for t in tokenizer.model.tokenize(word)], word


def test_what_few_py_does_not_take_returns_none() -> None:
    vocabulary = few.Vocabulary(MODEL_DIR, MAX_TOKENS)
    assert vocabulary.ids(["café"], 100) is None  # non-ASCII: the tokenizer's
    assert vocabulary.ids(["[CLS] x"], 100) is None  # an added token
    assert vocabulary.ids(["tab\x0bvt"], 100) is None  # a control character
    assert vocabulary.ids(["user " * 60], 59) is None  # more tokens than the call may hold
    assert vocabulary.ids(["user " * 60], 60) == [[vocabulary.words["user"][0]] * 60]


def test_float16_bytes_falls_back_to_numpy_with_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = ["café naïve", "get user", "[MASK] x"]
    embedder = StaticEmbedder()
    assert embedder.float16_bytes(texts) == _numpy_bytes(embedder, texts)
    many = [" ".join(["user"] * 300)] * 10  # past few.MAX_TOKENS
    assert embedder.float16_bytes(many) == _numpy_bytes(embedder, many)
    assert embedder.float16_bytes([]) == b""


def test_a_stored_member_reads_as_a_deflated_one(tmp_path: Path) -> None:
    model = tmp_path / "model"
    shutil.copytree(MODEL_DIR, model)
    with (
        zipfile.ZipFile(MODEL_DIR / "vectors.npz") as src,
        zipfile.ZipFile(model / "vectors.npz", "w", zipfile.ZIP_STORED) as dst,
    ):
        for name in src.namelist():
            dst.writestr(name, src.read(name))
    texts = _texts()[:12]
    assert _few_bytes(model, texts) == _few_bytes(MODEL_DIR, texts)


def test_a_float_table_is_left_to_numpy(tmp_path: Path) -> None:
    """A model of float rows without scales (the embedder benchmark's) is not few.py's."""
    model = tmp_path / "model"
    model.mkdir()
    shutil.copy(MODEL_DIR / "tokenizer.json", model)
    config = json.loads((MODEL_DIR / "config.json").read_text(encoding="utf-8"))
    vectors = np.random.default_rng(0).standard_normal((config["vocab_size"], 8))
    np.savez(model / "vectors.npz", vectors=vectors.astype(np.float32))
    (model / "config.json").write_text(json.dumps({**config, "dims": 8}), encoding="utf-8")
    with pytest.raises(ValueError):
        few.Table(model)
    embedder = StaticEmbedder(model)
    texts = ["get user by id", "render"]
    assert embedder.float16_bytes(texts) == _numpy_bytes(embedder, texts)
    assert static._few(model).usable is False


def test_a_few_texts_import_neither_numpy_nor_tokenizers() -> None:
    texts = ["function astragSpeedProbe(): void", "check circle icon", ""]
    run = run_offline(
        f"""
        import hashlib, sys
        from astrag.embed import load_embedder

        embedder = load_embedder("local")
        embedder.warm()
        blob = embedder.float16_bytes({texts!r})
        print(hashlib.sha256(blob).hexdigest(), "numpy" in sys.modules, "tokenizers" in sys.modules)
        """,
        dict(os.environ),
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    digest = hashlib.sha256(_numpy_bytes(StaticEmbedder(), texts)).hexdigest()
    assert run.stdout.split() == [digest, "False", "False"]


def test_warm_does_nothing_once_the_numpy_model_is_loaded() -> None:
    embedder = StaticEmbedder()
    embedder.embed(["load the numpy model"])
    before = dict(static._fews)
    embedder.warm()
    assert static._fews == before
