"""What every ``astrag`` command module shares: the consoles, the text/json format switch, the
``--repo`` option and how astrag's errors become a message and exit status 2."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from astrag import api, present
from astrag.errors import AstragError

out = Console()
# soft wrap: an error or hint stays one line, whole, for whoever greps a log or a pipe
err = Console(stderr=True, soft_wrap=True)


class Fmt(StrEnum):
    text = "text"
    json = "json"


RepoOpt = Annotated[
    Path | None,
    typer.Option("--repo", help="Repository root (default: nearest indexed or git directory)."),
]


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


@contextmanager
def errors(fmt: Fmt = Fmt.text) -> Iterator[None]:
    """Turn astrag's own errors into a clear message and exit status 2, never a traceback."""
    try:
        yield
    except api.AmbiguousSymbol as e:
        if fmt == Fmt.json:
            emit_json(present.candidates_json(e.query, e.candidates))
        else:
            err.print(f"[yellow]{escape(e.message)}[/]; candidates:")
            for s in e.candidates:
                err.print(f"  {s.id}  [dim]{s.kind} {s.path}:{s.start_line}[/]")
        raise typer.Exit(2) from None
    except AstragError as e:
        if fmt == Fmt.json:
            emit_json({"error": type(e).__name__, "message": e.message, "hint": e.hint})
        else:
            # escaped: messages quote user input and TOML keys such as [index].exlude,
            # which rich would take for markup and drop
            err.print(f"[red]error:[/] {escape(e.message)}")
            if e.hint:
                err.print(f"[dim]hint:[/] {escape(e.hint)}")
        raise typer.Exit(2) from None


def open_index(repo: Path | None) -> api.Index:
    """The index a query command answers from: brought up to date first, or (refreshing
    off) as it is, with a warning on stderr naming what it does not reflect."""
    idx, status = api.open_fresh(repo_root(repo))
    if status.stale:
        err.print(f"[yellow]warning:[/] {escape(status.warning())}")
    return idx


def repo_root(repo: Path | None) -> Path:
    if repo is not None and not repo.is_dir():
        raise AstragError(f"{repo} is not a directory", "pass --repo with a repository root")
    return api.find_root(repo) if repo is None else repo.resolve()
