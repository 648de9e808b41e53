"""The bundled static embedder: real model files, real tokenizer, no network."""

from __future__ import annotations

import os

import numpy as np
import pytest

from astrag.embed import load_embedder
from astrag.embed.static import MAX_TOKENS, StaticEmbedder, prepare
from tests.offline import run_offline


@pytest.fixture(scope="module")
def embedder() -> StaticEmbedder:
    return StaticEmbedder()


def cos(embedder: StaticEmbedder, a: str, b: str) -> float:
    va, vb = embedder.embed([a, b])
    return float(va @ vb)


def test_shape_dtype_and_unit_rows(embedder: StaticEmbedder) -> None:
    vectors = embedder.embed(["parse a json file", "render a table", "x"])
    assert vectors.shape == (3, embedder.dim) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_empty_input_and_texts_without_tokens(embedder: StaticEmbedder) -> None:
    assert embedder.embed([]).shape == (0, embedder.dim)
    # nothing to embed (empty, blank, punctuation only) -> a zero row, never NaN
    vectors = embedder.embed(["", "   \n", "(): ->", "open file"])
    assert not np.isnan(vectors).any()
    assert np.all(vectors[:3] == 0.0)
    assert np.linalg.norm(vectors[3]) == pytest.approx(1.0, abs=1e-5)


def test_deterministic_across_instances(embedder: StaticEmbedder) -> None:
    texts = ["method console print ( self objects sep end )", "function load config"]
    np.testing.assert_array_equal(embedder.embed(texts), StaticEmbedder().embed(texts))


def test_batch_equals_one_by_one(embedder: StaticEmbedder) -> None:
    # long and short texts mixed, so the batch spans several gather steps
    words = "get user by id parse json config http server render progress bar self".split()
    texts = [" ".join(words[: i % 13] * (i % 7 + 1) * 9) for i in range(120)]
    batch = embedder.embed(texts)
    single = np.vstack([embedder.embed([t]) for t in texts])
    np.testing.assert_allclose(batch, single, atol=1e-6)


def test_related_pair_scores_above_unrelated(embedder: StaticEmbedder) -> None:
    query = "read the configuration file from disk"
    related = "function load config ( path ) open read parse settings file"
    unrelated = "method render progress bar ( self width ) draw terminal color"
    assert cos(embedder, query, related) > cos(embedder, query, unrelated) + 0.1


def test_camel_and_snake_case_read_as_words(embedder: StaticEmbedder) -> None:
    assert prepare("getUserById HTTPServer") == "get User By Id HTTP Server"
    words = embedder.embed(["get user by id"])[0]
    for ident in ("getUserById", "get_user_by_id", "GetUserByID"):
        assert float(words @ embedder.embed([ident])[0]) > 0.95, ident


def test_long_text_is_truncated_at_max_tokens(embedder: StaticEmbedder) -> None:
    head = " ".join(["user"] * MAX_TOKENS)
    a, b = embedder.embed([head, head + " rendering colour terminal" * 50])
    np.testing.assert_allclose(a, b, atol=1e-6)


def test_name_is_stable_and_describes_the_model(embedder: StaticEmbedder) -> None:
    assert embedder.name == StaticEmbedder().name
    assert f"d{embedder.dim}" in embedder.name and embedder.name.startswith("static-minilm")


def test_default_works_with_the_network_off() -> None:
    # Any connection attempt raises; the default embedder must not need one.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_"))}
    run = run_offline(
        """
        from astrag.embed import load_embedder

        vectors = load_embedder("local").embed(["open a file", "draw a table"])
        print(vectors.shape, round(float((vectors ** 2).sum()), 3))
        """,
        env,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["(2,", f"{load_embedder().dim})", "2.0"]


def test_scaled_rows_and_the_unpacked_table_give_the_same_bytes(
    embedder: StaticEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from astrag.embed import static

    words = "get user by id parse json config http server render progress bar".split()
    texts = [" ".join(words[i % 7 :] * (i % 5 + 1)) for i in range(200)]
    model = static._model(embedder.model_dir)
    monkeypatch.setattr(model, "_table", None)
    monkeypatch.setattr(static, "_UNPACK_FROM_TOKENS", 10**9)  # int8 rows scaled as gathered
    scaled = embedder.embed(texts)
    assert model._table is None
    monkeypatch.setattr(static, "_UNPACK_FROM_TOKENS", 1)  # the whole table unpacked once
    unpacked = embedder.embed(texts)
    assert model._table is not None and model._table.dtype == np.float32
    assert scaled.tobytes() == unpacked.tobytes()


def test_the_model_loads_once_per_process_and_directory(embedder: StaticEmbedder) -> None:
    from astrag.embed import static

    embedder.embed(["load it"])
    other = StaticEmbedder()
    other.embed(["again"])
    assert static._model(other.model_dir) is static._model(embedder.model_dir)


def test_embedding_nothing_imports_no_numpy() -> None:
    # a run whose texts all have cached vectors asks for the embedder and never embeds
    run = run_offline(
        """
        import sys
        from astrag.embed import load_embedder

        embedder = load_embedder("local")
        print(embedder.dim, "numpy" in sys.modules)
        """,
        dict(os.environ),
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["256", "False"]


def test_a_fork_gets_the_model_with_its_lock_free(embedder: StaticEmbedder) -> None:
    # a thread of the parent may hold the model's lock as another forks: the child's copy
    # would stay locked for ever
    run = run_offline(
        """
        import os
        from astrag.embed import static

        embedder = static.StaticEmbedder()
        first = embedder.embed(["open a file"])
        model = static._model(embedder.model_dir)
        with model.lock:  # held, as by another thread, while forking
            pid = os.fork()
            if pid == 0:
                same = (embedder.embed(["open a file"]) == first).all()
                os._exit(0 if same and static._model(embedder.model_dir) is model else 1)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status))
        """,
        dict(os.environ),
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["0"]
