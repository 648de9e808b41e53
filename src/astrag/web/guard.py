"""Who may read the web view: the rules of ``astrag mcp`` (serve/auth.py) for a browser.

- Bound to a loopback address it serves this machine without a token; bound anywhere else it
  refuses to start without one (:func:`astrag.serve.auth.check_exposure`).
- With a token, every request must carry it: ``Authorization: Bearer …`` (scripts), or the
  cookie the server sets when the address it printed (``/?token=…``) is first opened. The
  cookie is HttpOnly and SameSite=Strict; the token is then dropped from the address bar by a
  redirect, and the Referrer-Policy keeps addresses from leaking to other sites anyway.
- ``Host`` must name the address bound (DNS rebinding: a page elsewhere cannot reach the
  server through a name that resolves to it), and an ``Origin``, when sent, must be one of
  those hosts.
- Every answer forbids framing and any script but the server's own files
  (Content-Security-Policy), so even markup that slipped through escaping could not run.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "astrag_token"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class Guard:
    """ASGI middleware: Host and Origin checks, the token, security headers on every answer."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str], token: str | None) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = _host_name(headers.get("host", ""))
        if host not in self.hosts:
            await _refuse(send, 421, "wrong host", f"this server answers to {self._names()}")
            return
        origin = headers.get("origin")
        if origin is not None and _host_name(urlsplit(origin).netloc) not in self.hosts:
            await _refuse(send, 403, "cross-origin request", "open the page from this server")
            return
        if self.token is not None:
            verdict = self._check_token(scope, headers)
            if verdict is None:
                await _refuse(
                    send, 401, "missing or wrong token",
                    "open the address astrag web printed (it ends with ?token=...)",
                )  # fmt: skip
                return
            if verdict:  # the token came in the query: keep it in a cookie, out of the URL
                await _redirect_with_cookie(send, scope, self.token)
                return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, secured)

    def _check_token(self, scope: Scope, headers: dict[str, str]) -> bool | None:
        """None: refused; False: accepted (header or cookie); True: accepted from the query."""
        expected = self.token or ""
        bearer = headers.get("authorization", "")
        if bearer and hmac.compare_digest(bearer.encode(), f"Bearer {expected}".encode()):
            return False
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # a malformed cookie header is no token
            cookie = SimpleCookie()
        held = cookie.get(COOKIE)
        if held is not None and hmac.compare_digest(held.value.encode(), expected.encode()):
            return False
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        given = query.get("token")
        if given is not None and hmac.compare_digest(given.encode(), expected.encode()):
            return True
        return None

    def _names(self) -> str:
        return ", ".join(sorted(self.hosts))


def _host_name(host: str) -> str:
    """A Host header's (or an origin's netloc's) name without its port, lower-cased."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def _refuse(send: Send, status: int, message: str, hint: str) -> None:
    body = f"{message}\n{hint}\n".encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _redirect_with_cookie(send: Send, scope: Scope, token: str) -> None:
    rest = [(k, v) for k, v in parse_qsl(scope.get("query_string", b"").decode("latin-1"))]
    query = urlencode([(k, v) for k, v in rest if k != "token"])
    raw = scope.get("raw_path") or scope.get("path", "/").encode("utf-8")
    target = raw.decode("latin-1") + (f"?{query}" if query else "")
    cookie = f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": [
                (b"location", target.encode("latin-1")),
                (b"set-cookie", cookie.encode("latin-1")),
                (b"content-length", b"0"),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})
