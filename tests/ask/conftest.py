"""A small indexed Python repository, and a real HTTP server on 127.0.0.1 that speaks the
OpenAI chat-completions and Anthropic messages wire formats with scripted replies."""

from __future__ import annotations

import textwrap
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from astrag import api
from tests.json_server import json_server

KEY = "sk-test-0123456789abcdefSECRETKEY"

FILES: dict[str, str] = {
    "app/__init__.py": "",
    "app/models.py": """
        class User:
            def __init__(self, name: str, email: str = "") -> None:
                self.name = name
                self.email = email

            def rename(self, name: str) -> None:
                self.name = name
    """,
    "app/repository.py": """
        from app.models import User


        class UserRepository:
            \"\"\"Users kept in memory, looked up by email.\"\"\"

            def __init__(self) -> None:
                self.users: dict[str, User] = {}

            def add(self, user: User) -> None:
                self.users[user.email] = user

            def find_by_email(self, email: str) -> User | None:
                return self.users.get(email)
    """,
    "app/service.py": """
        from app.models import User
        from app.repository import UserRepository


        class UserService:
            def __init__(self, repo: UserRepository) -> None:
                self.repo = repo

            def register(self, name: str, email: str) -> User:
                user = User(name, email)
                self.repo.add(user)
                return user
    """,
}


@pytest.fixture(scope="session")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("askrepo")
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    api.index(root, embedder="none")
    return root


@dataclass
class Reply:
    """One scripted answer: the assistant's text in the route's wire format, or an error."""

    text: str = "Nothing to change."
    status: int = 200
    body: dict[str, object] | None = None  # a raw JSON body instead of a wrapped text
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering (a client timeout shorter than this fires)
    usage: tuple[int, int] = (120, 30)  # input, output tokens
    finish: str = "stop"


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, object]


@dataclass
class LLMServer:
    url: str  # http://127.0.0.1:PORT (no path)
    script: list[Reply]
    requests: list[Seen]

    def reply(self, *replies: Reply) -> None:
        self.script.extend(replies)


def _wire(path: str, reply: Reply, model: str) -> dict[str, object]:
    if reply.body is not None:
        return reply.body
    if reply.status != 200:
        return {"error": {"type": "error", "message": f"scripted HTTP {reply.status}"}}
    if path.endswith("/messages"):
        return {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": reply.text}],
            "stop_reason": "max_tokens" if reply.finish == "length" else "end_turn",
            "usage": {"input_tokens": reply.usage[0], "output_tokens": reply.usage[1]},
        }
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.text},
                "finish_reason": reply.finish,
            }
        ],
        "usage": {
            "prompt_tokens": reply.usage[0],
            "completion_tokens": reply.usage[1],
            "total_tokens": sum(reply.usage),
        },
    }


@pytest.fixture
def llm() -> Iterator[LLMServer]:
    state = LLMServer("", [], [])

    def respond(path: str, headers: Mapping[str, str], body: Any) -> tuple[int, Any, Any]:
        state.requests.append(Seen(path, dict(headers), body))
        if path not in ("/v1/chat/completions", "/v1/messages"):
            reply = Reply(status=404, body={"error": {"message": "no such route"}})
        elif state.script:
            reply = state.script.pop(0)
        else:
            reply = Reply(status=500, body={"error": {"message": "the script ran out"}})
        time.sleep(reply.delay)
        return reply.status, reply.headers, _wire(path, reply, str(body.get("model")))

    with json_server(respond) as url:
        state.url = url
        yield state
