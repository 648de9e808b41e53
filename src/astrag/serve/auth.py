"""The HTTP transport's guards: a bearer token, compared in constant time, on every request;
which bind addresses may go without one; and which ``Host``/``Origin`` headers the SDK's
DNS-rebinding protection accepts for the address bound.

The SDK's own auth support is OAuth (an authorization server, token introspection); a local
tool needs one shared secret, so this is a small ASGI wrapper instead. Lifespan events pass
through untouched: the SDK's session manager starts on them.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import re
import socket
from collections.abc import Iterable

from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from astrag.errors import AstragError


class BearerToken:
    """Refuse any HTTP request whose ``Authorization`` is not ``Bearer <token>``."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"authorization", b"")
        if hmac.compare_digest(given, self.expected):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {"error": "unauthorized", "message": "missing or wrong bearer token"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b'Bearer realm="astrag"'),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


LOOPBACK = ("127.0.0.1", "::1", "localhost")
WILDCARD = ("0.0.0.0", "::", "")
MIN_TOKEN_CHARS = 16
# RFC 6750's b64token: what an Authorization header carries without quoting or escapes
_TOKEN_CHARS = re.compile(r"[A-Za-z0-9\-._~+/]+=*")


def is_loopback(host: str) -> bool:
    """Whether ``host`` may serve without a token: 127.0.0.1, ::1 and localhost only. The
    rest of 127.0.0.0/8 reaches this machine too, but nothing checks who binds it, and
    browsers and the SDK treat only these three as local."""
    return _bare(host).lower() in LOOPBACK


def _bare(host: str) -> str:
    return host.strip().removeprefix("[").removesuffix("]")


def check_token(token: str) -> str | None:
    """Refuse a token no client could send (empty, blank, whitespace or control characters
    inside); return a warning for a short one, else None."""
    if not token.strip():
        raise AstragError(
            "the bearer token is empty" if not token else "the bearer token is blank",
            'pass a random token: --token "$(openssl rand -hex 16)"',
        )
    if not _TOKEN_CHARS.fullmatch(token):
        raise AstragError(
            "the bearer token holds characters an Authorization header cannot carry "
            "(whitespace, quotes, control or non-ASCII characters)",
            'use letters, digits and -._~+/ only, e.g. --token "$(openssl rand -hex 16)"',
        )
    if len(token) < MIN_TOKEN_CHARS:
        return (
            f"the bearer token has only {len(token)} characters: anyone who can reach the "
            f"port can guess it; use at least {MIN_TOKEN_CHARS} (openssl rand -hex 16)"
        )
    return None


def check_exposure(host: str, token: str | None, *, token_env: str, what: str) -> str | None:
    """Refuse to serve beyond this machine without a token, and a token no client could
    send; return a warning for a weak one. ``what``: the token's name in the message
    ("a bearer token"), ``token_env``: the variable that can carry it."""
    warning = check_token(token) if token is not None else None
    if not is_loopback(host) and token is None:
        raise AstragError(
            f"refusing to serve on {host} without {what}",
            f"pass --token or set {token_env}, or bind 127.0.0.1",
        )
    return warning


def allowed_hosts(host: str, extra: Iterable[str] = ()) -> list[str]:
    """The names clients may use to reach a server bound to ``host`` (the ``Host`` header
    without its port): the bound name itself; for a wildcard bind, this machine's names and
    the loopback names; plus ``extra``."""
    bare = _bare(host)
    if bare in WILDCARD:
        names = [*LOOPBACK, *_machine_names()]
    elif is_loopback(bare):
        names = list(LOOPBACK)  # one machine: any of its loopback names reaches it
    else:
        names = [bare]
    names += [_bare(e) for e in extra if e.strip()]
    return list(dict.fromkeys(n.lower() for n in names))


def _machine_names() -> list[str]:
    names = [socket.gethostname(), socket.getfqdn()]
    with contextlib.suppress(OSError):
        for *_, address in socket.getaddrinfo(socket.gethostname(), None):
            names.append(str(address[0]))
    return [n for n in names if n]


def security_settings(host: str, extra: Iterable[str] = ()) -> TransportSecuritySettings:
    """The SDK's DNS-rebinding protection for a server bound to ``host``: a request whose
    ``Host`` is not one of :func:`allowed_hosts`, or whose ``Origin`` (sent by browsers) is not
    one of them over http(s), is refused (421 / 403) before it reaches a tool."""
    names = [f"[{n}]" if ":" in n else n for n in allowed_hosts(host, extra)]
    hosts = [h for n in names for h in (n, f"{n}:*")]
    origins = [f"{scheme}://{h}" for scheme in ("http", "https") for h in hosts]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )
