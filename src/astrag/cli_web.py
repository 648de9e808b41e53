"""``astrag web``: the graph in a browser, registered onto the main app by ``cli.py``."""

from __future__ import annotations

import contextlib
from typing import Annotated

import typer

from astrag.cli_serve import served_root
from astrag.cli_shared import RepoOpt, errors


def web(
    repo: RepoOpt = None,
    host: Annotated[str, typer.Option("--host", help="Address to bind.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")
    ] = 8766,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            help="Token every request must carry (or ASTRAG_WEB_TOKEN); required when --host "
            "is not a loopback address.",
        ),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the address in the default browser.")
    ] = False,
) -> None:
    """A local web view of the symbol graph: search, symbols with their callers and an
    interactive neighbourhood, files, the index's health, contexts; fresh before every page."""
    from astrag.web.server import serve  # starlette and uvicorn load only for this command

    with errors(), contextlib.suppress(KeyboardInterrupt):
        root = served_root(repo, "--repo")  # a server's rules: never the home folder or /
        serve(root, host=host, port=port, token=token, open_browser=open_browser)


def register(app: typer.Typer) -> None:
    app.command("web")(web)
