"""How the command line names a bad ``--repo`` and shows an error as JSON: shared by every
command (``cli_shared``) and by the fast ``check --changed`` (``cli_check``), which must not
import typer or rich to use them."""

from __future__ import annotations

from pathlib import Path

from astrag.arguments import path_argument
from astrag.errors import AstragError


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
