"""``astrag mcp`` and ``astrag watch``: the serving commands, registered onto the main app by
``cli.py`` (kept apart so the serving code and the query commands change independently)."""

from __future__ import annotations

import contextlib
import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from astrag.cli_shared import Fmt, errors, repo_root
from astrag.errors import AstragError


class Transport(StrEnum):
    stdio = "stdio"
    http = "http"


def mcp(
    repo: Annotated[
        Path | None,
        typer.Option("--repo", help="Repository root (default: nearest indexed or git directory)."),
    ] = None,
    transport: Annotated[
        Transport, typer.Option("--transport", help="stdio (default) or streamable HTTP.")
    ] = Transport.stdio,
    host: Annotated[str, typer.Option("--host", help="HTTP: address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="HTTP: port.")] = 8765,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            help="HTTP: bearer token clients must send (or ASTRAG_MCP_TOKEN); required when "
            "--host is not a loopback address.",
        ),
    ] = None,
) -> None:
    """Serve the repository's symbol graph to coding agents over MCP (stdio or HTTP), keeping
    the index fresh before every answer."""
    from astrag.serve.server import serve  # the MCP SDK loads only for this command

    with errors(), contextlib.suppress(KeyboardInterrupt):
        serve(repo_root(repo), transport=transport.value, host=host, port=port, token=token)


def watch(
    path: Annotated[Path, typer.Argument(help="Repository root.")] = Path("."),
    fmt: Annotated[Fmt, typer.Option("--format", "-f", help="Output format.")] = (Fmt.text),
    interval: Annotated[
        float, typer.Option("--interval", min=0.05, max=3600, help="Seconds between checks.")
    ] = 0.5,
) -> None:
    """Keep the index fresh as files change (edits, new and deleted files, branch switches),
    printing one line per update."""
    from astrag.serve.watch import describe
    from astrag.serve.watch import watch as run

    as_json = fmt == Fmt.json

    def emit(event: dict[str, object]) -> None:
        line = json.dumps(event, ensure_ascii=False) if as_json else describe(event)
        print(line, flush=True)

    with errors(), contextlib.suppress(KeyboardInterrupt):
        try:
            run(repo_root(path), emit, interval=interval)
        except AstragError as error:
            if not as_json:
                raise
            # a watcher's JSON output is a stream of events: its error is one of them
            line = {"event": "error", "message": error.message, "hint": error.hint}
            sys.stdout.write(json.dumps(line) + "\n")
            raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp)
    app.command("watch")(watch)
