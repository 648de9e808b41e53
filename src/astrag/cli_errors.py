"""How the command line names a bad ``--repo``, shows an error as JSON and reports a bug as
one line: shared by every command (``cli_shared``, ``cli_main``) and by the fast ``check
--changed`` (``cli_check``), which must not import typer or rich to use them."""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path

from astrag.arguments import path_argument, shown
from astrag.errors import AstragError

DEBUG_ENV = "ASTRAG_DEBUG"  # set: a bug prints its traceback too


def write_error(message: str, hint: str | None) -> None:
    """What went wrong and what to do, a line each, on stderr."""
    sys.stderr.write(f"error: {message}\n" + (f"hint: {hint}\n" if hint else ""))


def write_bug(e: Exception) -> None:
    """An exception astrag did not expect, as one error and hint, never a wall of Python
    (the traceback too when ``ASTRAG_DEBUG`` is set, for a report)."""
    if os.environ.get(DEBUG_ENV):
        traceback.print_exc()
    write_error(
        f"internal error: {type(e).__name__}: {shown(str(e), 300)}",
        f"this is a bug in astrag; run it again with {DEBUG_ENV}=1 and report the traceback",
    )


def error_json(e: AstragError) -> dict[str, object]:
    data: dict[str, object] = {"error": type(e).__name__, "message": e.message, "hint": e.hint}
    suggestions = getattr(e, "suggestions", None)
    if suggestions:
        data["suggestions"] = list(suggestions)
    return data


def checked_dir(path: Path, what: str) -> Path:
    """``path`` resolved, if it names a directory; otherwise one clear error (a missing
    folder, a file, a name the filesystem refuses)."""
    path_argument(str(path), what)
    try:
        is_dir = path.is_dir()
    except OSError as e:
        raise AstragError(f"cannot use {what} {path}: {e.strerror}", f"pass {what} DIR") from e
    if not is_dir:
        raise AstragError(f"{path} is not a directory", "pass --repo with a repository root")
    return path.resolve()
