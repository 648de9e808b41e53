"""``astrag mcp`` and ``astrag watch``: the serving commands, registered onto the main app by
``cli.py`` (kept apart so the serving code and the query commands change independently)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from astrag.cli_shared import Fmt, repo_root
from astrag.errors import AstragError


class Transport(StrEnum):
    stdio = "stdio"
    http = "http"


def _fail(error: AstragError, as_json: bool = False) -> typer.Exit:
    if as_json:
        line = {"event": "error", "message": error.message, "hint": error.hint}
        sys.stdout.write(json.dumps(line) + "\n")
    else:
        sys.stderr.write(f"error: {error.message}\n")
        if error.hint:
            sys.stderr.write(f"hint: {error.hint}\n")
    return typer.Exit(2)


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

    try:
        root = repo_root(repo)
        serve(root, transport=transport.value, host=host, port=port, token=token)
    except AstragError as error:
        raise _fail(error) from None
    except KeyboardInterrupt:
        pass


def watch(
    path: Annotated[Path, typer.Argument(help="Repository root.")] = Path("."),
    fmt: Annotated[Fmt, typer.Option("--format", "-f", help="Output format.")] = (
        Fmt.text
    ),
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

    try:
        run(repo_root(path), emit, interval=interval)
    except AstragError as error:
        raise _fail(error, as_json) from None
    except KeyboardInterrupt:
        pass


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp)
    app.command("watch")(watch)
