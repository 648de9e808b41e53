"""Any OpenAI-compatible ``POST {base}/embeddings`` endpoint (OpenAI, Azure-style proxies,
vLLM, llama.cpp, Ollama, LM Studio, ...), with the standard library only.

Configuration, from the environment (an ``openai:<model>`` spec overrides the model):

======================  ====================================  ================================
what                    variables, first set wins             default
======================  ====================================  ================================
base URL                ``ASTRAG_EMBED_BASE_URL``,            ``https://api.openai.com/v1``
                        ``OPENAI_BASE_URL``
API key                 ``ASTRAG_EMBED_API_KEY``,             none (fine for local servers)
                        ``OPENAI_API_KEY``
model                   ``ASTRAG_EMBED_MODEL``                ``text-embedding-3-small``
dimensions (optional)   ``ASTRAG_EMBED_DIMENSIONS``           the model's own
======================  ====================================  ================================

Texts go in batches of :data:`BATCH_SIZE`; each is cut at :data:`MAX_CHARS` characters (the
endpoints' per-input token limits are ~8k tokens). Empty or blank texts are not sent (OpenAI
rejects them) and get zero rows. Rate limits (429), server errors (5xx), timeouts and refused
or dropped connections are retried with exponential backoff, honouring ``Retry-After``. Every
error message is scrubbed of the API key.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from astrag.embed.base import EmbeddingError, normalise_rows
from astrag.httperrors import error_detail, retry_after

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "text-embedding-3-small"
BATCH_SIZE = 128
MAX_CHARS = 16_000
MAX_RETRIES = 5
TIMEOUT_SECONDS = 60.0
_BACKOFF_START = 0.5  # seconds; doubles per retry
_BACKOFF_CAP = 30.0  # and never waits longer than this, whatever Retry-After says
_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
_KEY_LIKE = re.compile(r"\b(?:sk|pk|key)-[A-Za-z0-9_\-]{6,}")
_CONFIG_HINT = (
    "set ASTRAG_EMBED_BASE_URL, ASTRAG_EMBED_API_KEY and ASTRAG_EMBED_MODEL "
    "(or OPENAI_BASE_URL / OPENAI_API_KEY), or use the default embedder: local"
)


class OpenAICompatEmbedder:
    """Embeddings from an OpenAI-compatible HTTP endpoint.

    ``dim`` is known once the endpoint has answered: reading it before the first ``embed``
    (or without ``dimensions`` set) sends one short probe request.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        dimensions: int | None = None,
        batch_size: int = BATCH_SIZE,
        timeout: float = TIMEOUT_SECONDS,
        max_retries: int = MAX_RETRIES,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise EmbeddingError(
                f"not an http(s) URL for the embeddings endpoint: {base_url!r}", _CONFIG_HINT
            )
        self.url = base_url.rstrip("/") + "/embeddings"
        self.model = model
        self._key = api_key or None
        self._dimensions = dimensions
        self._dim = dimensions
        self.batch_size = max(1, batch_size)
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self._sleep = sleep
        # The endpoint and the model decide the vectors; never the key.
        suffix = f"-d{dimensions}" if dimensions else ""
        self.name = f"openai-compat:{parsed.netloc}{parsed.path.rstrip('/')}:{model}{suffix}"

    @classmethod
    def from_env(
        cls, model: str | None = None, env: Mapping[str, str] | None = None
    ) -> OpenAICompatEmbedder:
        """Configured from ``ASTRAG_EMBED_*`` / ``OPENAI_*`` variables (see the module doc)."""
        env = os.environ if env is None else env

        def first(*names: str) -> str | None:
            return next((env[n].strip() for n in names if env.get(n, "").strip()), None)

        base_url = first("ASTRAG_EMBED_BASE_URL", "OPENAI_BASE_URL")
        key = first("ASTRAG_EMBED_API_KEY", "OPENAI_API_KEY")
        if base_url is None and key is None:
            raise EmbeddingError("no embeddings endpoint is configured", _CONFIG_HINT)
        raw_dims = first("ASTRAG_EMBED_DIMENSIONS")
        try:
            dimensions = int(raw_dims) if raw_dims else None
        except ValueError:
            raise EmbeddingError(
                f"ASTRAG_EMBED_DIMENSIONS must be a whole number, not {raw_dims!r}", _CONFIG_HINT
            ) from None
        return cls(
            base_url or DEFAULT_BASE_URL,
            model or first("ASTRAG_EMBED_MODEL") or DEFAULT_MODEL,
            key,
            dimensions=dimensions,
        )

    @property
    def dim(self) -> int:
        if self._dim is None:
            self.embed(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit row per text; blank texts give zero rows without being sent."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        wanted = [i for i, t in enumerate(texts) if t.strip()]
        rows: list[np.ndarray] = []
        for start in range(0, len(wanted), self.batch_size):
            batch = [texts[i][:MAX_CHARS] for i in wanted[start : start + self.batch_size]]
            rows.append(self._embed_batch(batch))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if rows:
            out[wanted] = np.vstack(rows)
        return normalise_rows(out)

    def _embed_batch(self, batch: list[str]) -> np.ndarray:
        payload: dict[str, Any] = {"model": self.model, "input": batch, "encoding_format": "float"}
        if self._dimensions:
            payload["dimensions"] = self._dimensions
        reply = self._post(json.dumps(payload).encode("utf-8"))
        try:
            items = sorted(reply["data"], key=lambda item: item.get("index", 0))
            vectors = np.array([item["embedding"] for item in items], dtype=np.float32)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise EmbeddingError(
                f"{self.url} answered without a list of embeddings ({type(exc).__name__})",
                "check that the base URL points at an OpenAI-compatible API (usually .../v1)",
            ) from None
        if vectors.ndim != 2 or len(vectors) != len(batch):
            raise EmbeddingError(
                f"{self.url} returned {len(vectors)} embeddings for {len(batch)} texts",
                "check that the endpoint and model serve embeddings",
            )
        if self._dim is None:
            self._dim = int(vectors.shape[1])
        elif vectors.shape[1] != self._dim:
            raise EmbeddingError(
                f"{self.url} returned {vectors.shape[1]}-dimensional vectors, expected {self._dim}",
                "the model behind the endpoint changed; re-index",
            )
        return vectors

    def _post(self, body: bytes) -> dict[str, Any]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        attempt = 0
        while True:
            request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as exc:
                detail = self._scrub(error_detail(exc, 200))
                if exc.code in _RETRY_STATUS or exc.code >= 500:
                    failure = f"HTTP {exc.code}{detail}"
                    wait = retry_after(exc.headers.get("Retry-After"))
                else:
                    raise self._http_error(exc.code, detail) from None
            except TimeoutError as exc:
                failure, wait = f"timed out after {self.timeout:g}s ({type(exc).__name__})", None
            except urllib.error.URLError as exc:
                failure, wait = f"cannot connect: {self._scrub(str(exc.reason))}", None
            except (ConnectionError, http.client.HTTPException) as exc:
                # a connection dropped mid-answer (reset, RemoteDisconnected, IncompleteRead)
                failure, wait = f"connection failed: {type(exc).__name__}", None
            except ValueError:  # the body was not JSON
                raise EmbeddingError(
                    f"{self.url} did not answer with JSON",
                    "check that the base URL points at an OpenAI-compatible API",
                ) from None
            if attempt >= self.max_retries:
                raise EmbeddingError(
                    f"the embeddings endpoint {self.url} failed {attempt + 1} times: {failure}",
                    "try again later, or check ASTRAG_EMBED_BASE_URL",
                )
            backoff = min(_BACKOFF_CAP, _BACKOFF_START * 2**attempt)
            self._sleep(min(_BACKOFF_CAP, wait) if wait is not None else backoff)
            attempt += 1

    def _http_error(self, code: int, detail: str) -> EmbeddingError:
        if code in (401, 403):
            return EmbeddingError(
                f"the embeddings endpoint {self.url} refused the API key (HTTP {code}){detail}",
                "check ASTRAG_EMBED_API_KEY (or OPENAI_API_KEY)",
            )
        if code == 404:
            return EmbeddingError(
                f"no embeddings endpoint at {self.url} (HTTP 404){detail}",
                "check ASTRAG_EMBED_BASE_URL (it usually ends in /v1) and ASTRAG_EMBED_MODEL",
            )
        return EmbeddingError(
            f"the embeddings endpoint {self.url} rejected the request (HTTP {code}){detail}",
            "check ASTRAG_EMBED_MODEL and ASTRAG_EMBED_DIMENSIONS",
        )

    def _scrub(self, text: str) -> str:
        """``text`` with the API key, and anything shaped like one, replaced by ***."""
        if self._key:
            text = text.replace(self._key, "***")
        return _KEY_LIKE.sub("***", text)
