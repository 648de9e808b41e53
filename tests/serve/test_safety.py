"""Refusals over a real stdio connection: path escapes (``..``, absolute paths, symlinks out
of the repository), oversize and malformed inputs each get an error result with a message,
the server keeps answering, and nothing is written outside ``<repo>/.astrag/``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from tests.serve.test_stdio import connect, ids, ok


def snapshot(root: Path) -> dict[str, int]:
    """Every file under ``root`` (not following links) with its mtime, outside .astrag."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".astrag"]
        for name in filenames:
            full = os.path.join(dirpath, name)
            out[full] = os.lstat(full).st_mtime_ns
    return out


async def refused(client: Client, tool: str, **args: Any) -> str:
    result = await client.call_tool(tool, args)
    text = result.content[0].text  # type: ignore[union-attr]
    assert result.is_error, text
    # and the server is still there, answering from a fresh index
    callers = await ok(client, "find_callers", symbol="describe")
    assert ids(callers) == ["pkg/report.py::main"]
    return text


def test_refusals_keep_the_server_serving(repo: Path) -> None:
    before = snapshot(repo.parent)

    async def scenario() -> None:
        async with connect(repo) as client:
            # paths out of the repository
            assert "outside the repository" in await refused(client, "get_symbol", symbol="../x")
            assert "not a path inside" in await refused(client, "get_symbol", symbol="/etc/passwd")
            assert "outside the repository" in await refused(
                client, "find_callers", symbol="../../etc/passwd::main"
            )
            code = "def f() -> int:\n    return 1\n"
            for path in ("../x.py", "/etc/passwd", "pkg/../../outside/secret.py"):
                text = await refused(client, "check_code", code=code, path=path)
                assert "repository" in text, text
            for link in ("pkg/leak.py", "pkg/outdir/secret.py"):
                text = await refused(client, "check_code", code=code, path=link)
                assert "resolves outside the repository" in text, text
            escape = "--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-root\n+toor\n"
            assert "outside" in await refused(client, "check_code", diff=escape)
            through_link = (
                "--- a/pkg/leak.py\n+++ b/pkg/leak.py\n@@ -1,2 +1,2 @@\n"
                " def secret() -> str:\n-    return 'hunter2'\n+    return 'x'\n"
            )
            assert "outside" in await refused(client, "check_code", diff=through_link)

            # oversize and malformed inputs
            huge = "x = 1\n" * 200_000  # 1.2 MB
            assert "1000000" in await refused(client, "check_code", code=huge, lang="python")
            assert "exactly one of code, diff and changed" in await refused(
                client, "check_code", code=code, diff="--- a/x\n+++ b/x\n"
            )
            assert "exactly one of code, diff and changed" in await refused(client, "check_code")
            # a FIFO named as the file would block the server forever if it were opened
            os.mkfifo(repo / "pkg" / "pipe.py")
            fifo = await refused(client, "check_code", code=code, path="pkg/pipe.py")
            assert "pkg/pipe.py is not a regular file (a FIFO)" in fifo
            os.unlink(repo / "pkg" / "pipe.py")
            assert "not in a git work tree" in await refused(client, "check_code", changed=True)
            assert "language" in await refused(client, "check_code", code=code)
            assert "lang" in await refused(client, "check_code", code=code, lang="cobol")
            assert "query is empty" in await refused(client, "search_symbols", query="   ")
            assert "limit" in await refused(client, "search_symbols", query="area", limit="x")
            assert "budget" in await refused(client, "get_context", query="area", budget=0)
            assert "budget" in await refused(client, "get_context", query="area", budget=10**9)
            assert "depth" in await refused(client, "find_callers", symbol="describe", depth=0)
            assert "depth" in await refused(client, "find_callees", symbol="main", depth=11)
            assert "symbol" in await refused(client, "get_symbol")
            assert "no symbol matches" in await refused(client, "get_symbol", symbol="nothing")
            result = await client.call_tool("get_symbol", {"symbol": "area"})
            assert result.is_error
            assert result.structured_content is not None
            assert result.structured_content["error"] == "ambiguous"
            assert [c["id"] for c in result.structured_content["candidates"]] == [
                "pkg/shapes.py::Shape.area",
                "pkg/shapes.py::Square.area",
                "pkg/shapes.py::Circle.area",
            ]
            assert "Unknown tool" in await refused(client, "drop_tables")

    anyio.run(scenario)
    assert snapshot(repo.parent) == before
