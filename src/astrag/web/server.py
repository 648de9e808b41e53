"""``astrag web``: bind, say where, serve until stopped.

The socket is bound here, before the server starts, so ``--port 0`` (any free port) prints
the port it got and a second server on a taken port fails with a clear message.
"""

from __future__ import annotations

import os
import socket
import sys
import webbrowser
from pathlib import Path

from astrag.errors import AstragError
from astrag.serve.auth import allowed_hosts, check_exposure
from astrag.serve.state import RepoState
from astrag.web.app import Worker, build_app

TOKEN_ENV = "ASTRAG_WEB_TOKEN"
HOSTS_ENV = "ASTRAG_WEB_ALLOWED_HOSTS"  # more Host names browsers use (a DNS name, a proxy)
DEFAULT_PORT = 8766


def check_options(host: str, token: str | None) -> str | None:
    """Refuse to show the repository beyond this machine without a token, and a token no
    browser could send (``astrag mcp``'s rules); return a warning for a weak one."""
    return check_exposure(host, token, token_env=TOKEN_ENV, what="a token")


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as error:
        sock.close()
        raise AstragError(
            f"cannot listen on {host}:{port}: {error.strerror or error}",
            "pass another --port (0 picks a free one)",
        ) from None
    sock.listen(128)
    return sock


def serve(
    root: Path,
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    token: str | None = None,
    open_browser: bool = False,
) -> None:
    if token is None:
        token = os.environ.get(TOKEN_ENV) or None  # an empty variable is unset
    warning = check_options(host, token)
    if warning:
        print(f"astrag web: warning: {warning}", file=sys.stderr, flush=True)
    sock = bind(host, port)
    worker = Worker(RepoState(root))
    try:
        # build or update the index now, not on the first page, on the thread that owns it
        worker.pool.submit(worker.state.open).result()
    except BaseException:
        worker.shutdown()
        sock.close()
        raise
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/" + (f"?token={token}" if token else "")
    print(f"astrag web: serving {root} on {url}", file=sys.stderr, flush=True)
    extra = [h for h in os.environ.get(HOSTS_ENV, "").split(",") if h.strip()]
    app = build_app(worker, hosts=allowed_hosts(host, extra), token=token)
    if open_browser:
        webbrowser.open(url)
    import uvicorn  # only this command needs it

    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        worker.shutdown()
        sock.close()
