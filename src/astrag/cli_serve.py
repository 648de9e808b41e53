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

from astrag import api
from astrag.cli_shared import Fmt, checked_dir, errors, note
from astrag.errors import AstragError
from astrag.project_root import refuse_non_project


class Transport(StrEnum):
    stdio = "stdio"
    http = "http"


def mcp(
    repo: Annotated[
        Path | None,
        typer.Option(
            "--repo",
            help="Repository root (default: the project the current folder is in: an index, "
            "a git work tree or a folder with pyproject.toml, package.json, go.mod, ...).",
        ),
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
        root = served_root(repo, "--repo")
        serve(root, transport=transport.value, host=host, port=port, token=token)


def watch(
    path: Annotated[
        Path | None,
        typer.Argument(help="Repository root (default: the project the current folder is in)."),
    ] = None,
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
            run(served_root(path, "PATH"), emit, interval=interval)
        except AstragError as error:
            if not as_json:
                raise
            # a watcher's JSON output is a stream of events: its error is one of them
            line = {"event": "error", "message": error.message, "hint": error.hint}
            sys.stdout.write(json.dumps(line) + "\n")
            raise typer.Exit(2) from None


def served_root(repo: Path | None, what: str) -> Path:
    """The folder a server or watcher keeps indexed: the one named, else the nearest project
    around the current folder; never the home directory or the filesystem root, which an
    editor may start it in and which would index everything below."""
    if repo is not None and "${" in str(repo):
        # a client that does not expand ${workspaceFolder} passes it through as written
        note(f"astrag: {repo} was not expanded by the client; serving the current project")
        repo = None
    if repo is None:
        return api.find_project()
    return refuse_non_project(checked_dir(repo, what))


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp)
    app.command("watch")(watch)
