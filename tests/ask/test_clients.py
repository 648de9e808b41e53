"""The HTTP clients against a real server on 127.0.0.1: retries where a retry helps (429 with
Retry-After, 5xx, timeouts), one clear error where it does not, and the key never shown."""

from __future__ import annotations

import pytest

from astrag.ask.clients import LLMError, Message, make_client
from astrag.ask.config import LLMSettings

from .conftest import KEY, LLMServer, Reply

HELLO = [Message("user", "hello")]


def client(llm: LLMServer, provider: str = "openai", sleeps: list[float] | None = None, **kw):
    base = llm.url + ("/v1" if provider == "openai" else "")
    settings = LLMSettings(provider, "test-model", base, KEY, **{"timeout": 5.0, **kw})
    waits = sleeps if sleeps is not None else []
    return make_client(settings, sleep=waits.append, jitter=lambda: 1.0)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_rate_limit_is_retried_after_the_time_the_server_asks_for(
    llm: LLMServer, provider: str
) -> None:
    llm.reply(Reply(status=429, headers={"Retry-After": "3"}), Reply("fine"))
    sleeps: list[float] = []
    completion = client(llm, provider, sleeps).complete("be brief", HELLO)
    assert completion.text == "fine" and completion.input_tokens == 120
    assert sleeps == [3.0] and len(llm.requests) == 2


def test_a_timeout_is_retried(llm: LLMServer) -> None:
    llm.reply(Reply("too late", delay=0.6), Reply("in time"))
    sleeps: list[float] = []
    completion = client(llm, sleeps=sleeps, timeout=0.2).complete("s", HELLO)
    assert completion.text == "in time"
    assert sleeps == [1.0]  # exponential backoff starts at 1 s (jitter pinned to its top)


def test_repeated_server_errors_end_in_one_clear_error(llm: LLMServer) -> None:
    failure = {"error": {"message": f"overloaded; your key {KEY} is fine"}}
    llm.reply(*[Reply(status=500, body=failure)] * 3)
    sleeps: list[float] = []
    with pytest.raises(LLMError) as raised:
        client(llm, sleeps=sleeps, http_retries=2).complete("s", HELLO)
    message = raised.value.message
    assert message == (
        f"the LLM endpoint {llm.url}/v1/chat/completions failed 3 time(s); last: HTTP 500: "
        "overloaded; your key *** is fine"
    )
    assert "http_retries" in raised.value.hint
    assert sleeps == [1.0, 2.0] and len(llm.requests) == 3


def test_a_refused_key_fails_at_once_without_showing_it(llm: LLMServer) -> None:
    llm.reply(Reply(status=401, body={"error": {"message": f"Incorrect API key: {KEY}"}}))
    with pytest.raises(LLMError) as raised:
        client(llm, "anthropic").complete("s", HELLO)
    assert len(llm.requests) == 1
    assert "refused the API key (HTTP 401): Incorrect API key: ***" in raised.value.message
    assert KEY not in raised.value.message + raised.value.hint


def test_a_refused_connection_is_retried_then_reported() -> None:
    settings = LLMSettings("openai", "m", "http://127.0.0.1:9/v1", None, http_retries=1)
    sleeps: list[float] = []
    with pytest.raises(LLMError, match=r"failed 2 time.*cannot connect"):
        make_client(settings, sleep=sleeps.append, jitter=lambda: 0.0).complete("s", HELLO)
    assert sleeps == [0.5]  # backoff 1 s with the jitter at its bottom: half


def test_an_answer_in_the_wrong_shape_says_what_is_missing(llm: LLMServer) -> None:
    llm.reply(Reply(body={"unexpected": True}))
    with pytest.raises(LLMError, match="answered without choices"):
        client(llm).complete("s", HELLO)


def test_wire_payloads(llm: LLMServer) -> None:
    llm.reply(Reply("a", finish="length"), Reply("b", finish="length"))
    openai = client(llm, temperature=0.2, max_tokens=100).complete("sys", HELLO)
    anthropic = client(llm, "anthropic").complete("sys", HELLO)
    assert openai.truncated and anthropic.truncated
    sent_openai, sent_anthropic = (r.body for r in llm.requests)
    assert sent_openai == {
        "model": "test-model",
        "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hello"}],
        "max_tokens": 100,
        "temperature": 0.2,
    }
    assert sent_anthropic == {
        "model": "test-model",
        "max_tokens": 4096,
        "system": "sys",
        "messages": [{"role": "user", "content": "hello"}],
    }


def test_an_anthropic_base_url_with_v1_still_reaches_the_messages_route(llm: LLMServer) -> None:
    llm.reply(Reply("ok"))
    settings = LLMSettings("anthropic", "m", f"{llm.url}/v1", KEY)
    assert make_client(settings).complete("s", HELLO).text == "ok"
    assert [r.path for r in llm.requests] == ["/v1/messages"]
