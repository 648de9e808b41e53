"""``astrag map``, ``astrag outline`` and ``astrag references``: the answers people reach for
before they have a question, over ``astrag.api`` like every other command."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from astrag import api, present, present_text
from astrag.cli_shared import Fmt, RepoOpt, emit_json, errors, open_index

FormatOpt = Annotated[Fmt, typer.Option("--format", "-f", help="Output format.")]


def _write(text: str) -> None:
    # plain text, never wrapped or cut: whole paths and names for whoever reads a pipe
    sys.stdout.write(text.rstrip("\n") + "\n")


def repo_map(
    repo: RepoOpt = None,
    budget: Annotated[int, typer.Option("--budget", "-b", help="Token budget.", min=1)] = 4000,
    fmt: FormatOpt = Fmt.text,
) -> None:
    """An overview of the repository: its most central definitions by file, within a budget."""
    with errors(fmt), open_index(repo) as idx:
        m = idx.repo_map(budget)
        if fmt == Fmt.json:
            emit_json(present.map_json(m))
        else:
            _write(present_text.repo_map(m))


def outline(
    file: Annotated[str, typer.Argument(help="A file of the repository (its path).")],
    repo: RepoOpt = None,
    fmt: FormatOpt = Fmt.text,
) -> None:
    """A file's definitions in order, nested, with signatures and line ranges."""
    with errors(fmt), open_index(repo) as idx:
        found = idx.outline(_repository_path(file, idx))
        if fmt == Fmt.json:
            emit_json(present.outline_json(found))
        else:
            _write(present_text.outline(found))


def _repository_path(file: str, idx: api.Index) -> str:
    """A path as the user typed it, relative to the current directory when it names a file
    there inside the repository, else as given (repository-relative or a suffix)."""
    here = Path(file)
    if not here.is_absolute() and here.exists():
        full = here.resolve()
        if full.is_relative_to(idx.root):
            return full.relative_to(idx.root).as_posix()
    return file


def references(
    symbol: Annotated[str, typer.Argument(help="Symbol id, qualified name, or plain name.")],
    repo: RepoOpt = None,
    fmt: FormatOpt = Fmt.text,
) -> None:
    """Every use of SYMBOL, grouped by kind: calls, constructions, reads, type annotations,
    imports, subclasses, implementations, overrides, dispatch and unverified candidates."""
    with errors(fmt), open_index(repo) as idx:
        s = idx.resolve(symbol)
        found = idx.references(s.id)
        if fmt == Fmt.json:
            emit_json(present.references_json(s, found))
        else:
            _write(present_text.references(s, found))


def register(app: typer.Typer) -> None:
    app.command("map")(repo_map)
    app.command()(outline)
    app.command()(references)
