"""Refusals over a real stdio connection: path escapes (``..``, absolute paths, symlinks out
of the repository), oversize and malformed inputs each get an error result with a message,
the server keeps answering, and nothing is written outside ``<repo>/.astrag/``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from astrag.serve import guard
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
            typo = await client.call_tool("get_symbol", {"symbol": "describ"})
            assert typo.is_error and typo.structured_content is not None
            assert typo.structured_content["suggestions"] == ["describe"]
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


def test_arguments_no_tool_can_use_get_one_line_refusals(repo: Path) -> None:
    """NUL characters anywhere, values of the wrong type or range: an error result of one line
    and a hint (never "internal error", never pydantic's report), and the server serves on."""

    (repo / "loop1").symlink_to("loop2")  # a cycle of links: resolving it raises
    (repo / "loop2").symlink_to("loop1")

    async def scenario() -> None:
        async with connect(repo) as client:
            for tool, args, message in (
                ("check_code", {"code": "x = 1\n", "path": "pkg/\x00x.py"}, "argument path"),
                ("check_code", {"diff": "--- a/p\x00\n+++ b/p\x00\n"}, "argument diff"),
                ("get_symbol", {"symbol": "pkg/\x00::x"}, "argument symbol"),
                ("search_symbols", {"query": "a\x00b"}, "argument query"),
            ):
                text = await refused(client, tool, **args)
                assert text.startswith(f"error: {message} holds a NUL character"), text
            for tool, args, message in (
                ("search_symbols", {"query": 5}, "query: Input should be a valid string (got 5)"),
                ("find_callers", {"symbol": "area", "depth": 10**30}, "depth: Input should be"),
                ("search_symbols", {"query": "area", "limit": 1.5}, "limit: Input should be"),
                ("check_code", {"code": "x\n", "lang": "cobol"}, "lang: Input should be"),
            ):
                text = await refused(client, tool, **args)
                first, hint = text.split("\n")
                assert first.startswith(f"error: {tool} refused its arguments: {message}"), text
                assert hint.startswith("hint: send arguments of the types and ranges")
            long_name = await refused(client, "check_code", code="x\n", path="p/" + "n" * 300)
            assert "a name longer than 255 bytes" in long_name
            for path in ("loop1", "loop1/x.py"):
                text = await refused(client, "check_code", code="x = 1\n", path=path)
                assert text.startswith(f"error: {path} cannot be resolved"), text

    anyio.run(scenario)


def test_unencodable_text_never_stops_the_server(repo: Path) -> None:
    """JSON may carry a lone surrogate ("\\ud800"), which no answer can echo back. The SDK's
    parser drops such a request; the calls around it are answered."""
    guarded = guard.argument_problem({"query": "\ud800", "nested": {"k": ["ok"]}})
    assert guarded is not None and guarded.message == "argument query is not valid UTF-8: \\ud800"
    assert guard.argument_problem({"query": "fine", "depth": 2, "x": [None]}) is None
    proc = subprocess.Popen(
        [sys.executable, "-m", "astrag.cli", "mcp", "--repo", str(repo)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ),
    )
    assert proc.stdin is not None and proc.stdout is not None

    def send(line: str) -> None:
        proc.stdin.write(line.encode() + b"\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]

    def call(n: int, arguments: str) -> str:
        return (
            f'{{"jsonrpc":"2.0","id":{n},"method":"tools/call",'
            f'"params":{{"name":"search_symbols","arguments":{arguments}}}}}'
        )

    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}))
        assert json.loads(proc.stdout.readline())["id"] == 1
        send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
        send(call(2, '{"query":"\\ud800"}'))
        send(call(3, '{"query":"area"}'))
        answer = json.loads(proc.stdout.readline())
        assert answer["id"] == 3 and not answer["result"]["isError"]
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
