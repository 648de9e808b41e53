"""Chat clients over the standard library: OpenAI-compatible chat completions
(``POST {base}/chat/completions``) and Anthropic messages (``POST {base}/v1/messages``).

No SDKs: two small wire formats do not justify two dependency trees, and one transport gives
both the same behaviour on failure. Rate limits (429), overload and server errors (5xx, 529),
timeouts and refused or dropped connections are retried with exponential backoff and jitter,
honouring ``Retry-After``, a bounded number of times; then one clear :class:`LLMError`. Other
HTTP errors (a wrong key, an unknown model) fail at once: repeating them cannot help. Every
message is scrubbed of the API key, whatever the server echoed.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from astrag.ask.config import ENV_API_KEY, ENV_BASE_URL, ENV_MODEL, LLMSettings
from astrag.errors import AstragError
from astrag.httperrors import error_detail, retry_after

ANTHROPIC_VERSION = "2023-06-01"
_BACKOFF_START = 1.0  # seconds; doubles per retry
_BACKOFF_CAP = 30.0
_RETRY_AFTER_CAP = 60.0  # a server asking for longer is better answered with a clear error
_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})
_KEY_LIKE = re.compile(r"\b(?:sk|pk|key)-[A-Za-z0-9_\-]{6,}")


class LLMError(AstragError):
    """The LLM endpoint could not give an answer (after retries, where retrying helps)."""


@dataclass(frozen=True, slots=True)
class Message:
    role: Literal["user", "assistant"]
    content: str


@dataclass(frozen=True, slots=True)
class Completion:
    text: str
    input_tokens: int | None = None  # as the API reports them; None when it does not
    output_tokens: int | None = None
    truncated: bool = False  # stopped at max_tokens


class ChatClient(Protocol):
    provider: str
    model: str

    def complete(self, system: str, messages: Sequence[Message]) -> Completion: ...


Sleep = Callable[[float], None]


def make_client(
    settings: LLMSettings, *, sleep: Sleep = time.sleep, jitter: Callable[[], float] = random.random
) -> ChatClient:
    if settings.provider == "anthropic":
        return AnthropicMessages(settings, sleep=sleep, jitter=jitter)
    return OpenAIChat(settings, sleep=sleep, jitter=jitter)


class OpenAIChat:
    provider = "openai"

    def __init__(
        self, settings: LLMSettings, *, sleep: Sleep = time.sleep, jitter: Callable[[], float]
    ) -> None:
        self.model = settings.model
        self.settings = settings
        headers = {"Authorization": f"Bearer {settings.api_key}"} if settings.api_key else {}
        self.http = _Transport(
            settings.base_url + "/chat/completions", headers, settings, sleep=sleep, jitter=jitter
        )

    def complete(self, system: str, messages: Sequence[Message]) -> Completion:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}]
            + [{"role": m.role, "content": m.content} for m in messages],
        }
        # Sent only when configured: newer OpenAI models reject max_tokens and temperature,
        # while most compatible servers need neither.
        if self.settings.max_tokens is not None:
            payload["max_tokens"] = self.settings.max_tokens
        if self.settings.temperature is not None:
            payload["temperature"] = self.settings.temperature
        reply = self.http.post(payload)
        try:
            choice = reply["choices"][0]
            text = _text_of(choice["message"].get("content"))
        except (KeyError, IndexError, TypeError, AttributeError):
            raise self.http.shape_error("choices[0].message.content") from None
        usage = reply.get("usage") or {}
        return Completion(
            text,
            _int(usage.get("prompt_tokens")),
            _int(usage.get("completion_tokens")),
            choice.get("finish_reason") == "length",
        )


class AnthropicMessages:
    provider = "anthropic"

    def __init__(
        self, settings: LLMSettings, *, sleep: Sleep = time.sleep, jitter: Callable[[], float]
    ) -> None:
        self.model = settings.model
        self.settings = settings
        base = settings.base_url
        base = base[: -len("/v1")] if base.endswith("/v1") else base  # SDK style: no /v1
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        if settings.api_key:
            headers["x-api-key"] = settings.api_key
        self.http = _Transport(base + "/v1/messages", headers, settings, sleep=sleep, jitter=jitter)

    def complete(self, system: str, messages: Sequence[Message]) -> Completion:
        payload: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.settings.max_tokens or 4096,  # the messages API requires it
            "system": system,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
        }
        if self.settings.temperature is not None:
            payload["temperature"] = min(self.settings.temperature, 1.0)  # its range is 0..1
        reply = self.http.post(payload)
        try:
            text = _text_of(reply["content"])
        except (KeyError, TypeError, AttributeError):
            raise self.http.shape_error("content[].text") from None
        usage = reply.get("usage") or {}
        return Completion(
            text,
            _int(usage.get("input_tokens")),
            _int(usage.get("output_tokens")),
            reply.get("stop_reason") == "max_tokens",
        )


def _text_of(content: object) -> str:
    """A message's text: a string, or the text parts of a list of content blocks."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type", "text") == "text"
        )
    raise TypeError(type(content).__name__)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class _Transport:
    """POST JSON, get JSON, with bounded retries where a retry can help."""

    def __init__(
        self,
        url: str,
        headers: dict[str, str],
        settings: LLMSettings,
        *,
        sleep: Sleep,
        jitter: Callable[[], float],
    ) -> None:
        self.url = url
        self.headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": "astrag-ask",
            **headers,
        }
        self.key = settings.api_key
        self.model = settings.model
        self.timeout = settings.timeout
        self.retries = settings.http_retries
        self.sleep = sleep
        self.jitter = jitter

    def post(self, payload: dict[str, Any]) -> dict[str, Any]:
        body = json.dumps(payload).encode("utf-8")
        attempt = 0
        while True:
            request = urllib.request.Request(self.url, data=body, headers=self.headers)
            wait: float | None = None
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    raw = response.read()
                try:
                    reply = json.loads(raw.decode("utf-8"))
                except ValueError:
                    raise self.shape_error("a JSON body") from None
                if not isinstance(reply, dict):
                    raise self.shape_error("a JSON object")
                return reply
            except urllib.error.HTTPError as exc:
                detail = self.scrub(error_detail(exc))
                if exc.code not in _RETRY_STATUS and exc.code < 500:
                    raise self._refused(exc.code, detail) from None
                failure = "rate limited (HTTP 429)" if exc.code == 429 else f"HTTP {exc.code}"
                failure += detail
                wait = retry_after(exc.headers.get("Retry-After"))
            except TimeoutError:
                failure = f"no answer within {self.timeout:g} s"
            except urllib.error.URLError as exc:
                if isinstance(exc.reason, TimeoutError):
                    failure = f"no connection within {self.timeout:g} s"
                else:
                    failure = f"cannot connect: {self.scrub(str(exc.reason))}"
            except (ConnectionError, http.client.HTTPException) as exc:
                # dropped mid-answer: reset, RemoteDisconnected, IncompleteRead
                failure = f"the connection failed ({type(exc).__name__})"
            if attempt >= self.retries:
                raise LLMError(
                    f"the LLM endpoint {self.url} failed {attempt + 1} time(s); last: {failure}",
                    "try again later; check the endpoint and the network, or raise "
                    "[llm].http_retries / [llm].timeout in .astrag.toml",
                )
            backoff = min(_BACKOFF_CAP, _BACKOFF_START * 2**attempt)
            # full jitter in [backoff/2, backoff): many clients hitting one limit spread out
            delay = (
                min(wait, _RETRY_AFTER_CAP)
                if wait is not None
                else backoff * (0.5 + self.jitter() / 2)
            )
            self.sleep(delay)
            attempt += 1

    def _refused(self, code: int, detail: str) -> LLMError:
        if code in (401, 403):
            return LLMError(
                f"the LLM endpoint {self.url} refused the API key (HTTP {code}){detail}",
                f"check {ENV_API_KEY} (or OPENAI_API_KEY / ANTHROPIC_API_KEY)",
            )
        if code == 404:
            return LLMError(
                f"nothing at {self.url} for model {self.model!r} (HTTP 404){detail}",
                f"check {ENV_BASE_URL} (OpenAI-compatible URLs usually end in /v1) and {ENV_MODEL}",
            )
        return LLMError(
            f"the LLM endpoint {self.url} rejected the request (HTTP {code}){detail}",
            f"check {ENV_MODEL}; if the prompt is too long, pass a smaller --budget",
        )

    def shape_error(self, wanted: str) -> LLMError:
        return LLMError(
            f"{self.url} answered without {wanted}",
            "check that the base URL points at an OpenAI-compatible chat-completions API "
            "(provider openai) or the Anthropic messages API (provider anthropic)",
        )

    def scrub(self, text: str) -> str:
        """``text`` with the API key, and anything shaped like one, replaced by ***."""
        if self.key:
            text = text.replace(self.key, "***")
        return _KEY_LIKE.sub("***", text)
