"""``astrag mcp --transport http``: the SDK's streamable-HTTP client against the server in a
subprocess, a fresh answer after an edit, and the bearer token required off loopback."""

from __future__ import annotations

import os
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


def refused(repo: Path, *extra: str) -> str:
    """``astrag mcp --transport http`` with ``extra`` (and no token in the environment) must
    exit 2 with a message and no traceback; returns its stderr."""
    command = astrag_command(
        "mcp", "--repo", str(repo), "--transport", "http", "--port", str(free_port()), *extra
    )  # fmt: skip
    env = {**os.environ, "ASTRAG_MCP_TOKEN": ""}
    done = subprocess.run(command, capture_output=True, text=True, timeout=30, env=env)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_non_loopback_without_token_is_refused(repo: Path) -> None:
    stderr = refused(repo, "--host", "0.0.0.0")
    assert "refusing to serve on 0.0.0.0 without a bearer token" in stderr
    assert "--token" in stderr


@pytest.mark.parametrize("via", ["option", "environment"])
def test_non_loopback_requires_the_token(repo: Path, via: str) -> None:
    token = "s3cret-token-0123456789"
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
        # the token does not lift the Host check: a rebinding page could reuse a leaked one
        rebound = {"Authorization": f"Bearer {token}", "Host": "attacker.example"}
        assert httpx2.post(url, json=hello, headers=rebound, timeout=10).status_code == 421

        async def scenario() -> None:
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
            async with http, Client(streamable_http_client(url, http_client=http)) as client:
                callers = await ok(client, "find_callers", symbol="describe")
                assert ids(callers) == ["pkg/report.py::main"]

        anyio.run(scenario)
    finally:
        stop(proc)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def post(url: str, **headers: str) -> int:
    return httpx2.post(
        url, json=INITIALIZE, headers={**MCP_HEADERS, **headers}, timeout=10
    ).status_code


def test_loopback_checks_host_and_origin(repo: Path) -> None:
    proc, port = start_http(repo)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        assert post(url) == 200
        assert post(url, Host=f"localhost:{port}") == 200
        assert post(url, Host="attacker.example") == 421
        assert post(url, Host=f"attacker.example:{port}") == 421
        assert post(url, Origin="http://attacker.example") == 403
        assert post(url, Origin=f"http://localhost:{port}") == 200
    finally:
        stop(proc)


def test_another_loopback_address_needs_a_token_and_checks_host(repo: Path) -> None:
    stderr = refused(repo, "--host", "127.0.0.2")
    assert "refusing to serve on 127.0.0.2 without a bearer token" in stderr

    token = "0123456789abcdef0123456789abcdef"
    proc, port = start_http(repo, "--host", "127.0.0.2", "--token", token)
    url = f"http://127.0.0.2:{port}/mcp"
    auth = f"Bearer {token}"
    try:
        assert post(url) == 401
        assert post(url, Authorization=auth) == 200
        assert post(url, Authorization=auth, Host="attacker.example") == 421
        assert post(url, Authorization=auth, Host=f"127.0.0.1:{port}") == 421  # not bound there
        assert post(url, Authorization=auth, Origin="http://attacker.example") == 403

        async def scenario() -> None:
            http = create_mcp_http_client(headers={"Authorization": auth})
            async with http, Client(streamable_http_client(url, http_client=http)) as client:
                assert ids(await ok(client, "find_callers", symbol="describe")) == [
                    "pkg/report.py::main"
                ]

        anyio.run(scenario)
    finally:
        stop(proc)


@pytest.mark.parametrize(
    ("token", "message"),
    [("", "token is empty"), (" ", "token is blank"), ("a b", "header cannot carry")],
)
def test_unusable_tokens_are_refused(repo: Path, token: str, message: str) -> None:
    assert message in refused(repo, "--token", token)


def test_a_short_token_is_warned_about(repo: Path) -> None:
    proc, _ = start_http(repo, "--token", "a")
    stop(proc)
    stderr = proc.stderr.read() if proc.stderr else ""
    assert "warning: the bearer token has only 1 characters" in stderr
