"""``astrag mcp`` over stdio, driven by the MCP SDK's own client: every tool on the fixture
repository with exact answers, then edits, additions and deletions seen by the next answer."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.serve.conftest import write

TOOLS = {
    "search_symbols",
    "get_context",
    "get_symbol",
    "find_callers",
    "find_callees",
    "find_references",
    "find_implementations",
    "get_outline",
    "get_repo_map",
    "check_code",
    "index_status",
}


@asynccontextmanager
async def connect(repo: Path) -> AsyncIterator[Client]:
    # the whole environment: the SDK passes only a few variables by default, and without
    # PYTHONPATH the server would run whichever astrag is installed, not the one under test
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "astrag.cli", "mcp", "--repo", str(repo)],
        env=dict(os.environ),
    )
    async with Client(params) as client:
        yield client


async def ok(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    text = result.content[0].text  # type: ignore[union-attr]
    assert not result.is_error, text
    data = result.structured_content
    assert data is not None
    assert data["index"]["fresh"] is True
    assert text.rstrip().splitlines()[-1].startswith("index: fresh")
    return data


def ids(data: dict[str, Any]) -> list[str]:
    return [r["id"] for r in data["results"]]


def test_every_tool_then_edits_over_stdio(repo: Path) -> None:
    async def scenario() -> None:
        async with connect(repo) as client:
            listed = (await client.list_tools()).tools
            assert {t.name for t in listed} == TOOLS
            schemas = {t.name: t.input_schema for t in listed}
            assert schemas["find_callers"]["properties"]["depth"]["maximum"] == 10
            assert schemas["get_context"]["properties"]["budget"]["minimum"] == 1
            assert all(t.description and t.annotations.read_only_hint for t in listed)

            found = await ok(client, "search_symbols", query="Square", limit=3)
            assert found["query"] == "Square"
            assert found["results"][0] == {
                "id": "pkg/shapes.py::Square",
                "path": "pkg/shapes.py",
                "start_line": 9,
                "end_line": 14,
                "symbol": "Square",
                "kind": "class",
                "score": found["results"][0]["score"],
                "signature": "class Square(Shape)",
                "snippet": (
                    "class Square(Shape):\n"
                    "    def __init__(self, side: float) -> None:\n"
                    "        self.side = side\n"
                    "\n"
                    "    def area(self) -> float:"
                ),
            }
            assert len(found["results"]) == 3

            shown = await ok(client, "get_symbol", symbol="describe")
            assert shown["symbol"]["id"] == "pkg/report.py::describe"
            assert shown["symbol"]["signature"] == "def describe(shape: Shape) -> str"
            assert shown["symbol"]["docstring"] == "Describe one shape."
            assert shown["source"] == (
                "def describe(shape: Shape) -> str:\n"
                '    """Describe one shape."""\n'
                '    return f"{type(shape).__name__}: {shape.area():.2f}"'
            )
            assert shown["incoming"] == [
                {
                    "source": "pkg/report.py",
                    "kind": "contains",
                    "path": "pkg/report.py",
                    "line": 8,
                    "column": 0,
                },
                {
                    "source": "pkg/report.py::main",
                    "kind": "calls",
                    "path": "pkg/report.py",
                    "line": 14,
                    "column": 11,
                },
            ]
            assert {e["target"] for e in shown["outgoing"]} == {
                "external::builtins.type",
                "external::builtins.str",
                "pkg/shapes.py::Shape",
                "pkg/shapes.py::Shape.area",
            }

            callers = await ok(client, "find_callers", symbol="describe")
            assert callers["relation"] == "callers"
            assert ids(callers) == ["pkg/report.py::main"]
            assert callers["results"][0]["via"] == {
                "kind": "calls",
                "path": "pkg/report.py",
                "line": 14,
                "column": 11,
            }
            callees = await ok(client, "find_callees", symbol="main", depth=2)
            assert ids(callees) == [
                "external::builtins.print",
                "pkg/report.py::describe",
                "pkg/shapes.py::Square",
                "pkg/report.py::total_area",
                "external::builtins.sum",  # depth 2, in site order: total_area's line 5
                "pkg/shapes.py::Shape.area",
                "external::builtins.type",  # describe's line 10
                "pkg/shapes.py::Circle.area",  # what the call of Shape.area may dispatch to
                "pkg/shapes.py::Square.area",
            ]
            assert [r["depth"] for r in callees["results"]] == [1, 1, 1, 1, 2, 2, 2, 2, 2]
            assert [r["link"] for r in callees["results"]][-3:] == [
                "direct",
                "dispatch",
                "dispatch",
            ]
            subclasses = await ok(client, "find_implementations", symbol="Shape")
            assert ids(subclasses) == ["pkg/shapes.py::Square", "pkg/shapes.py::Circle"]
            overriders = await ok(client, "find_implementations", symbol="Shape.area")
            assert ids(overriders) == ["pkg/shapes.py::Square.area", "pkg/shapes.py::Circle.area"]

            context = await ok(client, "get_context", query="who calls describe", budget=2000)
            assert context["intent"] == "callers"
            assert context["tokens"] <= 2000
            items = [i["id"] for i in context["items"]]
            assert {"pkg/report.py::describe", "pkg/report.py::main"} <= set(items)
            assert "def describe(shape: Shape) -> str:" in context["text"]

            snippet = "from pkg.shapes import Square\n\nSquare(1).perimeter()\n"
            checked = await ok(client, "check_code", code=snippet, lang="python")
            assert [(f["rule"], f["line"], f["column"]) for f in checked["findings"]] == [
                ("unknown-member", 3, 11)
            ]
            diff = (
                "--- a/pkg/report.py\n+++ b/pkg/report.py\n@@ -13,3 +13,4 @@\n"
                " def main() -> None:\n"
                "     print(describe(Square(2)))\n"
                "     print(total_area([Square(1)]))\n"
                '+    describe(Square(3), "extra")\n'
            )
            checked = await ok(client, "check_code", diff=diff)
            assert [(f["path"], f["rule"], f["line"]) for f in checked["findings"]] == [
                ("pkg/report.py", "wrong-arguments", 16)
            ]
            clean = await ok(
                client, "check_code", code="print(describe(Square(2)))\n", path="pkg/report.py"
            )
            assert clean["findings"] == []

            status = await ok(client, "index_status")
            assert status["files"] == 3  # pkg/leak.py points outside: never indexed
            assert status["symbols"]["class"] == 3

            # an edit: the next answer sees the new caller, and says which file it re-read
            original = (repo / "pkg/report.py").read_text()
            (repo / "pkg/report.py").write_text(
                original + "\n\ndef summary() -> str:\n    return describe(Square(3))\n"
            )
            callers = await ok(client, "find_callers", symbol="describe")
            assert ids(callers) == ["pkg/report.py::main", "pkg/report.py::summary"]
            assert callers["index"]["updated_files"] == ["pkg/report.py"]

            # a file added in a new directory
            write(
                repo,
                "pkg/extra/more.py",
                """
                from pkg.report import describe
                from pkg.shapes import Circle


                def show_circle() -> str:
                    return describe(Circle(1))
                """,
            )
            callers = await ok(client, "find_callers", symbol="pkg/report.py::describe")
            assert ids(callers) == [
                "pkg/extra/more.py::show_circle",
                "pkg/report.py::main",
                "pkg/report.py::summary",
            ]
            assert callers["index"]["updated_files"] == ["pkg/extra/more.py"]
            found = await ok(client, "search_symbols", query="show_circle", limit=1)
            assert ids(found) == ["pkg/extra/more.py::show_circle"]
            assert found["index"]["updated_files"] == []  # nothing changed since

            # deleted, then the edit reverted: back to the original graph
            (repo / "pkg/extra/more.py").unlink()
            callers = await ok(client, "find_callers", symbol="describe")
            assert ids(callers) == ["pkg/report.py::main", "pkg/report.py::summary"]
            assert callers["index"]["updated_files"] == ["pkg/extra/more.py"]
            (repo / "pkg/report.py").write_text(original)
            callers = await ok(client, "find_callers", symbol="describe")
            assert ids(callers) == ["pkg/report.py::main"]
            shown = await ok(client, "get_symbol", symbol="main")
            assert shown["source"].endswith("print(total_area([Square(1)]))")

    anyio.run(scenario)
