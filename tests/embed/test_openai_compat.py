"""The OpenAI-compatible provider against a real HTTP server on 127.0.0.1 with scripted replies."""

from __future__ import annotations

import socket
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from astrag.embed import EmbeddingError, load_embedder
from astrag.embed.openai_compat import OpenAICompatEmbedder
from tests.json_server import json_server

KEY = "sk-test-0123456789abcdefSECRET"


@dataclass
class Reply:
    status: int = 200
    body: dict[str, object] | None = None  # None: embeddings of the request's inputs
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Endpoint:
    base_url: str
    script: list[Reply]  # replies in order; when empty, every request succeeds
    requests: list[dict[str, object]]
    auth: list[str]


def fake_vector(text: str) -> list[float]:
    """A deterministic, unnormalised 4-d vector so normalisation is observable."""
    return [float(len(text)), 3.0, 0.0, 4.0]


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    state = Endpoint("", [], [], [])

    def respond(path: str, headers: Mapping[str, str], payload: Any) -> tuple[int, Any, Any]:
        state.requests.append(payload)
        state.auth.append(headers.get("authorization", ""))
        reply = state.script.pop(0) if state.script else Reply()
        if path != "/v1/embeddings":
            reply = Reply(404, {"error": {"message": "no such route"}})
        body = reply.body
        if body is None:
            data = [
                {"object": "embedding", "index": i, "embedding": fake_vector(t)}
                for i, t in enumerate(payload["input"])
            ]
            body = {"object": "list", "data": data[::-1], "model": payload["model"]}
        return reply.status, reply.headers, body

    with json_server(respond) as url:
        state.base_url = f"{url}/v1"
        yield state


def make(endpoint: Endpoint, **kwargs: object) -> OpenAICompatEmbedder:
    return OpenAICompatEmbedder(endpoint.base_url, "test-model", KEY, **kwargs)  # type: ignore[arg-type]


def test_embeds_in_order_normalised_and_batched(endpoint: Endpoint) -> None:
    embedder = make(endpoint, batch_size=2)
    texts = ["a", "bbb", "", "cc", "dddd"]
    vectors = embedder.embed(texts)
    assert vectors.shape == (5, 4) and vectors.dtype == np.float32
    assert embedder.dim == 4
    # the server answers in reverse order; rows follow the request's "index"
    for row, text in zip(vectors, texts, strict=True):
        if text:
            expected = np.array(fake_vector(text)) / np.linalg.norm(fake_vector(text))
            np.testing.assert_allclose(row, expected, rtol=1e-6)
    assert np.all(vectors[2] == 0.0)  # blank text: zero row, never sent
    assert [r["input"] for r in endpoint.requests] == [["a", "bbb"], ["cc", "dddd"]]
    assert endpoint.requests[0]["model"] == "test-model"
    assert endpoint.auth[0] == f"Bearer {KEY}"


def test_429_with_retry_after_is_retried(endpoint: Endpoint) -> None:
    waits: list[float] = []
    endpoint.script = [Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": "0"})]
    vectors = make(endpoint, sleep=waits.append).embed(["hello"])
    assert vectors.shape == (1, 4)
    assert len(endpoint.requests) == 2 and waits == [0.0]


def test_server_errors_back_off_exponentially(endpoint: Endpoint) -> None:
    waits: list[float] = []
    endpoint.script = [Reply(503, {}), Reply(502, {}), Reply(500, {})]
    make(endpoint, sleep=waits.append).embed(["hello"])
    assert waits == [0.5, 1.0, 2.0] and len(endpoint.requests) == 4


def test_gives_up_after_max_retries(endpoint: Endpoint) -> None:
    endpoint.script = [Reply(503, {}) for _ in range(5)]
    with pytest.raises(EmbeddingError, match="failed 3 times: HTTP 503"):
        make(endpoint, max_retries=2, sleep=lambda _: None).embed(["hello"])


def test_401_is_a_clear_error_without_the_key(endpoint: Endpoint) -> None:
    # servers often echo the key they were given; it must not reach the message
    message = f"Incorrect API key provided: {KEY}"
    endpoint.script = [Reply(401, {"error": {"message": message}})]
    with pytest.raises(EmbeddingError) as info:
        make(endpoint).embed(["hello"])
    text = f"{info.value} {info.value.hint}"
    assert "refused the API key (HTTP 401)" in text and "ASTRAG_EMBED_API_KEY" in text
    assert KEY not in text and "SECRET" not in text
    assert len(endpoint.requests) == 1  # not retried


def test_connection_refused_is_retried_then_reported() -> None:
    with socket.socket() as probe:  # a port with nobody listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    waits: list[float] = []
    embedder = OpenAICompatEmbedder(
        f"http://127.0.0.1:{port}/v1", "m", KEY, max_retries=2, sleep=waits.append
    )
    with pytest.raises(EmbeddingError, match="cannot connect") as info:
        embedder.embed(["hello"])
    assert waits == [0.5, 1.0] and KEY not in str(info.value)


def test_load_embedder_reads_the_environment(
    endpoint: Endpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASTRAG_EMBED_BASE_URL", endpoint.base_url)
    monkeypatch.setenv("ASTRAG_EMBED_API_KEY", KEY)
    monkeypatch.setenv("ASTRAG_EMBED_MODEL", "env-model")
    embedder = load_embedder("openai:spec-model")
    assert embedder is not None and KEY not in embedder.name
    assert embedder.embed(["x"]).shape == (1, 4)
    assert endpoint.requests[-1]["model"] == "spec-model"
    default = load_embedder("openai")
    assert default is not None and default.name.endswith(":env-model")
    assert default.name != embedder.name


def test_openai_fallback_variables_and_missing_config(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "ASTRAG_EMBED_BASE_URL",
        "ASTRAG_EMBED_API_KEY",
        "ASTRAG_EMBED_MODEL",
        "ASTRAG_EMBED_DIMENSIONS",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(EmbeddingError, match="no embeddings endpoint is configured"):
        load_embedder("openai")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    embedder = OpenAICompatEmbedder.from_env()
    assert embedder.url == "https://api.openai.com/v1/embeddings"
    assert embedder.model == "text-embedding-3-small"
