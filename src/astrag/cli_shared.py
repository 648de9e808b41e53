"""What every ``astrag`` command module shares: the consoles, the text/json format switch, the
``--repo`` option, tables that become one record a line in a pipe, and how astrag's errors
become a message and exit status 2."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from astrag import api, present
from astrag.arguments import path_argument
from astrag.cli_errors import checked_dir, error_json
from astrag.errors import AstragError

# emoji=False: ":memo:" in a name or path stays as written.
out = Console(emoji=False)
# In a pipe or a file, a line is never wrapped at 80 columns (an agent or a script reads
# whole lines); on a terminal rich lays text out to the window.
out.soft_wrap = not out.is_terminal
# soft wrap: an error or hint stays one line, whole, for whoever greps a log or a pipe
err = Console(stderr=True, soft_wrap=True, emoji=False)


class Fmt(StrEnum):
    text = "text"
    json = "json"


RepoOpt = Annotated[
    Path | None,
    typer.Option("--repo", help="Repository root (default: nearest indexed or git directory)."),
]


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def piped() -> bool:
    """Whether stdout is a pipe or a file rather than a terminal: text is then plain records."""
    return not out.is_terminal


def table(
    title: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    styles: dict[str, str] | None = None,
    right: Sequence[str] = (),
    header: bool = True,
) -> None:
    """Rows for a person or for a pipe: a table on a terminal (long names fold onto the next
    line, never cut); in a pipe or a file one record a line, fields separated by a tab, whole
    paths and names, no title, so ``cut -f`` and ``grep`` work."""
    if piped():
        for row in rows:
            sys.stdout.write("\t".join(field.replace("\t", " ") for field in row) + "\n")
        return
    styles = styles or {}
    grid = Table(title=escape(title), title_justify="left", show_header=header)
    for name in columns:
        justify = "right" if name in right else "left"
        grid.add_column(name, style=styles.get(name), overflow="fold", justify=justify)
    for row in rows:
        grid.add_row(*(escape(field) for field in row))
    out.print(grid)


def note(text: str) -> None:
    """A remark about the answer (no match, nothing found): on stderr, so a pipe that reads
    records gets none instead of a sentence."""
    err.print(text, markup=False, highlight=False)


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
            emit_json(error_json(e))
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
    if repo is None:
        return api.find_root(None)
    return checked_dir(repo, "--repo")


def decoded(data: bytes, what: str) -> str:
    """``data`` as UTF-8 text (a byte-order mark is dropped), or one error naming the first
    byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise AstragError(
            f"{what} is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start:,}, "
            f"line {line})",
            "pass UTF-8 text (re-encode it with iconv -t utf-8, or check it is not binary)",
        ) from None


def writable_file(path: Path) -> Path:
    """``path`` if a file can be written there: its folder exists and it is not a folder."""
    path_argument(str(path), "--output")
    if path.is_dir():
        raise AstragError(f"{path} is a directory", "pass -o with a file name, e.g. -o graph.jsonl")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise AstragError(
            f"cannot write {path}: the folder {folder} does not exist",
            f"create it first (mkdir -p {folder}) or pass -o with a path in an existing folder",
        )
    return path


def write_atomically(path: Path, chunks: Iterable[str]) -> None:
    """Write ``chunks`` to a temporary file beside ``path`` and rename it into place: an
    error or an interrupt halfway leaves the previous file as it was, never half a file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, _mode_for(path))  # mkstemp makes 0600; keep what the file had
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            for chunk in chunks:
                fh.write(chunk)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
