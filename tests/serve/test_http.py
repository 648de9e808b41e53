"""``astrag mcp --transport http``: the SDK's streamable-HTTP client against the server in a
subprocess, a fresh answer after an edit, and the bearer token required off loopback."""

from __future__ import annotations

import subprocess
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.serve.conftest import astrag_command, free_port, start_http, stop
from tests.serve.test_stdio import TOOLS, ids, ok


def test_loopback_http_answers_and_stays_fresh(repo: Path) -> None:
    proc, port = start_http(repo)
    try:

        async def scenario() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS
                callers = await ok(client, "find_callers", symbol="describe")
                assert ids(callers) == ["pkg/report.py::main"]
                with (repo / "pkg/report.py").open("a") as fh:
                    fh.write("\n\ndef summary() -> str:\n    return describe(Square(3))\n")
                callers = await ok(client, "find_callers", symbol="describe")
                assert ids(callers) == ["pkg/report.py::main", "pkg/report.py::summary"]
                assert callers["index"]["updated_files"] == ["pkg/report.py"]
                result = await client.call_tool("get_symbol", {"symbol": "../../etc/passwd"})
                assert result.is_error
                shown = await ok(client, "get_symbol", symbol="summary")
                assert shown["symbol"]["path"] == "pkg/report.py"

        anyio.run(scenario)
    finally:
        stop(proc)


def test_non_loopback_without_token_is_refused(repo: Path) -> None:
    command = astrag_command(
        "mcp", "--repo", str(repo), "--transport", "http", "--host", "0.0.0.0",
        "--port", str(free_port()),
    )  # fmt: skip
    env = {"PATH": "/usr/bin:/bin", "ASTRAG_MCP_TOKEN": ""}
    done = subprocess.run(command, capture_output=True, text=True, timeout=30, env=env)
    assert done.returncode == 2
    assert "refusing to serve on 0.0.0.0 without a bearer token" in done.stderr
    assert "--token" in done.stderr


@pytest.mark.parametrize("via", ["option", "environment"])
def test_non_loopback_requires_the_token(repo: Path, via: str) -> None:
    token = "s3cret-token"
    extra = ("--host", "0.0.0.0", *(("--token", token) if via == "option" else ()))
    proc, port = start_http(
        repo, *extra, env={"ASTRAG_MCP_TOKEN": token} if via != "option" else None
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": token}):
            response = httpx2.post(url, json=hello, headers=headers, timeout=10)
            assert response.status_code == 401, headers
            assert response.json()["error"] == "unauthorized"

        async def scenario() -> None:
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
            async with http, Client(streamable_http_client(url, http_client=http)) as client:
                callers = await ok(client, "find_callers", symbol="describe")
                assert ids(callers) == ["pkg/report.py::main"]

        anyio.run(scenario)
    finally:
        stop(proc)
