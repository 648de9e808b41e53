"""What a text or a path handed to astrag by a person or an agent must be before anything uses it.

Strings reach astrag from argv (undecodable bytes become lone surrogates), from stdin and from
JSON (``"\\ud800"`` and ``"\\u0000"`` are valid JSON). A lone surrogate cannot be encoded, so
it fails far from where it came in (SQLite, the tokenizer, the JSON of an answer), and a NUL
makes every path call raise ``ValueError``. Both are refused here, at the edge, with a message
that shows the value escaped rather than raw, since the raw value is what cannot be printed.
"""

from __future__ import annotations

from pathlib import Path

from astrag.errors import AstragError

MAX_PATH_BYTES = 4096  # PATH_MAX on Linux; longer paths fail in every system call
MAX_NAME_BYTES = 255  # NAME_MAX: one component of a path


class ArgumentError(AstragError):
    """A text or path argument astrag cannot use as it is."""


def shown(value: str, limit: int = 60) -> str:
    """``value`` escaped so it can always be printed and read: lone surrogates as ``\\udcff``,
    control characters as ``\\x00``, cut to ``limit`` characters."""
    text = value.encode("utf-8", "backslashreplace").decode("utf-8")
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
    return text if len(text) <= limit else text[:limit] + "..."


def text_argument(value: str, what: str) -> str:
    """``value`` if it is valid Unicode without NUL characters; else an ArgumentError naming
    ``what`` ("the query", "--path")."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ArgumentError(
            f"{what} is not valid UTF-8: {shown(value)}",
            "pass text encoded as UTF-8 (check the terminal's or the caller's encoding)",
        ) from None
    if "\x00" in value:
        raise ArgumentError(
            f"{what} holds a NUL character: {shown(value)}", "remove the NUL (\\0) from it"
        )
    return value


def path_argument(value: str, what: str) -> str:
    """``value`` if it can name a file: valid text, no NUL, within the system's path limits."""
    text_argument(value, what)
    size = len(value.encode("utf-8"))
    if size > MAX_PATH_BYTES:
        raise ArgumentError(
            f"{what} is {size:,} bytes long, more than a path can be ({MAX_PATH_BYTES:,})",
            "pass a shorter path",
        )
    for part in value.replace("\\", "/").split("/"):
        if len(part.encode("utf-8")) > MAX_NAME_BYTES:
            raise ArgumentError(
                f"{what} has a name longer than {MAX_NAME_BYTES} bytes: {shown(part)}",
                "pass a path whose file and folder names are shorter",
            )
    return value


def resolved_within(root: Path, rel: str) -> Path:
    """``root / rel`` with its links resolved, if that stays inside ``root``: a path out of
    the repository and a symlink loop are refused, not followed or raised as a crash."""
    try:
        full = (root / rel).resolve()
    except (OSError, RuntimeError) as e:  # RuntimeError: a symlink loop, before Python 3.13
        raise ArgumentError(
            f"{rel} cannot be resolved: {getattr(e, 'strerror', None) or e}",
            "pass the path of a file, not of a loop of symbolic links",
        ) from None
    if not full.is_relative_to(root):
        raise ArgumentError(f"{rel!r} resolves outside the repository", "use a path inside it")
    return full
