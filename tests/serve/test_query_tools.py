"""The query tools through the MCP SDK's own client over stdio: callers with dispatch and
unverified candidates, references, outline, the repository map and a callers context that
says what it did not find; the structured results are the CLI's JSON and the text says the
same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from astrag import api
from tests.query.conftest import ROUTING, write
from tests.serve.test_stdio import connect

R = "app/routing.py::"


@pytest.fixture
def routing(tmp_path: Path) -> Path:
    root = write(tmp_path / "routing", ROUTING)
    api.index(root, jobs=1, embedder="none")
    return root


async def call(client: Client, tool: str, **args: Any) -> tuple[dict[str, Any], str]:
    result = await client.call_tool(tool, args)
    text = result.content[0].text  # type: ignore[union-attr]
    assert not result.is_error, text
    assert result.structured_content is not None
    return result.structured_content, text


def test_query_tools_over_stdio(routing: Path) -> None:
    async def scenario() -> None:
        async with connect(routing) as client:
            callers, text = await call(client, "find_callers", symbol="Route.matches")
            assert [(r["id"], r["link"]) for r in callers["results"]] == [
                (R + "BaseRoute.__call__", "dispatch"),
                (R + "Router.app", "dispatch"),
                (R + "Router.first", "candidate"),
                ("tests/test_routing.py::test_route", "candidate"),
            ]
            assert callers["counts"] == {"direct": 0, "dispatch": 2, "candidate": 2, "alias": 0}
            assert (callers["total"], callers["truncated"]) == (4, False)
            lines = text.splitlines()
            assert lines[0] == f"note: {callers['notes'][0]}"
            assert lines[1] == f"callers of {R}Route.matches (4):"
            assert lines[3] == (
                "Router.app  method  app/routing.py:35-39  at app/routing.py:37"
                "  [via BaseRoute.matches]"
            )
            assert lines[4].endswith("at app/routing.py:43  [unverified (?.matches)]")

            none, text = await call(client, "find_callers", symbol="Router.first")
            assert none["results"] == []
            assert text.splitlines()[0] == (
                "note: no callers of Router.first in the index, and no unresolved call of "
                "`first` that could be one"
            )

            uses, text = await call(client, "find_references", symbol="BaseRoute")
            assert uses["counts"] == {"read": 1, "type": 3, "import": 1, "inherit": 2}
            assert (uses["total"], uses["truncated"]) == (7, False)
            assert text.splitlines()[0] == (
                f"uses of {R}BaseRoute (7): reads 1, type annotations 3, imports 1, subclasses 2"
            )

            outline, text = await call(client, "get_outline", path="app/plugins.py")
            assert [(s["qualname"], s["depth"]) for s in outline["symbols"]] == [
                ("Plugin", 0),
                ("Plugin.run", 1),
                ("Cache", 0),
                ("Cache.setup", 1),
            ]
            assert text.splitlines()[1] == "        1-3  class Plugin"
            refused = await client.call_tool("get_outline", {"path": "../outside.py"})
            assert refused.is_error

            repo_map, text = await call(client, "get_repo_map", budget=200)
            assert repo_map["tokens"] <= 200
            assert text.startswith(repo_map["text"])

            context, text = await call(
                client, "get_context", query="who calls Settings.setup", budget=1500
            )
            note = (
                "no callers of Settings.setup in the index, and no unresolved call of `setup` "
                "that could be one"
            )
            assert context["notes"] == [note]
            assert text.startswith(f"Note: {note}\n\n")

    anyio.run(scenario)
