"""The web view over plain HTTP against a real ``astrag web`` process: who may read it (token,
Host, Origin), arguments that try to leave the repository, freshness on every page."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from tests.web.conftest import WebServer
from tests.web.fixture import SECRET

TOKEN = "0123456789abcdef0123"


def get(base: str, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    conn.close()
    return response


def body(response: http.client.HTTPResponse) -> str:
    return response.body.decode()  # type: ignore[attr-defined]


def test_pages_answer_with_security_headers_and_server_timing(server: WebServer) -> None:
    for path in ("/search?q=cart", "/index", "/file/shop/cart.py", "/map", "/context"):
        r = get(server.base, path)
        assert r.status == 200, path
        assert "script-src 'self'" in r.getheader("content-security-policy", ""), path
        assert r.getheader("x-frame-options") == "DENY"
        assert r.getheader("referrer-policy") == "no-referrer"
        assert "page;dur=" in r.getheader("server-timing", ""), path
        assert 'index <b class="fresh">fresh</b>' in body(r), path


def test_a_foreign_host_or_origin_is_refused(server: WebServer) -> None:
    assert get(server.base, "/index", {"Host": "evil.example"}).status == 421
    assert get(server.base, "/index", {"Host": "evil.example:80"}).status == 421
    assert get(server.base, "/index", {"Origin": "http://evil.example"}).status == 403
    assert (
        get(server.base, "/index", {"Host": f"localhost:{urlsplit(server.base).port}"}).status
        == 200
    )


@pytest.mark.parametrize(
    "path",
    [
        "/file/..%2F..%2F..%2Fetc%2Fpasswd",
        "/file/%2Fetc%2Fpasswd",
        "/file/shop/..%2F..%2Foutside.py",
        "/symbol/..%2F..%2Fetc%2Fpasswd",
        "/symbol/" + quote("../../etc/passwd::x", safe=""),
    ],
)
def test_paths_and_ids_cannot_leave_the_repository(server: WebServer, path: str) -> None:
    r = get(server.base, path)
    assert r.status == 400, path
    assert "outside the repository" in body(r) or "not a path inside" in body(r)
    assert "root:" not in body(r)


def test_a_symlink_out_of_the_repository_is_not_served(server: WebServer, shop: Path) -> None:
    outside = shop.parent / "outside.py"
    outside.write_text("SECRET = 'hunter2'\n")
    (shop / "shop" / "leak.py").symlink_to(outside)
    try:
        r = get(server.base, "/file/shop/leak.py")
        assert r.status == 400
        assert "hunter2" not in body(r)
    finally:
        (shop / "shop" / "leak.py").unlink()


def test_every_page_is_fresh_after_an_edit(server: WebServer, shop: Path) -> None:
    cart = shop / "shop" / "cart.py"
    cart.write_text(cart.read_text() + "\n\ndef refund(cart: Cart) -> int:\n    return 0\n")
    r = get(server.base, "/search?q=refund")
    assert r.status == 200
    text = body(r)
    assert "re-indexed before this page: shop/cart.py" in text
    assert "shop/cart.py:29" in text  # the new definition, found by the page that followed it


def start(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "astrag.cli", "web", "--repo", str(repo), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize("host", ["0.0.0.0", "127.0.0.2"])
def test_beyond_loopback_it_refuses_to_start_without_a_token(shop: Path, host: str) -> None:
    done = start(shop, "--host", host, "--port", "0")
    assert done.returncode == 2
    assert f"refusing to serve on {host} without a token" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_token_no_browser_could_send_is_refused(shop: Path) -> None:
    done = start(shop, "--host", "127.0.0.2", "--port", "0", "--token", "has space")
    assert done.returncode == 2
    assert "cannot carry" in done.stderr


def test_with_a_token_every_request_must_carry_it(shop: Path, tmp_path: Path) -> None:
    running = WebServer(shop, "--host", "127.0.0.2", "--token", TOKEN, log=tmp_path / "web.log")
    try:
        assert running.url.endswith(f"/?token={TOKEN}")
        assert get(running.base, "/index").status == 401
        assert get(running.base, "/index?token=wrong").status == 401
        assert get(running.base, "/index", {"Authorization": "Bearer wrong"}).status == 401
        assert get(running.base, "/index", {"Authorization": f"Bearer {TOKEN}"}).status == 200
        first = get(running.base, f"/symbol/Cart.total?token={TOKEN}")
        assert first.status == 303
        assert first.getheader("location") == "/symbol/Cart.total"  # out of the address bar
        cookie = first.getheader("set-cookie", "")
        assert cookie == f"astrag_token={TOKEN}; Path=/; HttpOnly; SameSite=Strict"
        again = get(running.base, "/index", {"Cookie": cookie.split(";")[0]})
        assert again.status == 200
        assert get(running.base, "/static/app.css").status == 401  # files too
    finally:
        running.stop()
    deadline = time.monotonic() + 5
    while running.proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running.proc.returncode is not None


def test_a_credential_in_the_code_is_masked_on_every_page(server: WebServer) -> None:
    pages = [
        "/file/shop/settings.py",
        "/symbol/" + quote("shop/settings.py::GITHUB_TOKEN", safe=""),
        "/symbol/" + quote("shop/settings.py::token", safe=""),
        "/search?q=GITHUB_TOKEN",
        "/api/search?q=GITHUB_TOKEN",
        "/context?q=" + quote("where is the github token"),
    ]
    for path in pages:
        r = get(server.base, path)
        assert r.status == 200, path
        assert SECRET not in body(r) and SECRET[4:20] not in body(r), path
    assert "GITHUB_TOKEN" in body(get(server.base, "/file/shop/settings.py"))
    export = subprocess.run(
        [sys.executable, "-m", "astrag.cli", "export", "--repo", str(server.repo),
         "--format", "mermaid", "--around", "GITHUB_TOKEN"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    assert export.returncode == 0 and SECRET not in export.stdout
