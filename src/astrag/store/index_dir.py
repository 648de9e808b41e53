"""The index directory (``.astrag/``) is astrag's own, and astrag writes only into its own.

A repository's ``.astrag.toml`` chooses ``index_dir``; a cloned repository's configuration must
never make astrag replace or delete a user's files. So a directory becomes an index directory
only when astrag creates it, finds it empty, or finds an earlier astrag index in it; astrag then
marks it with two files:

* ``CACHEDIR.TAG`` (the Cache Directory Tagging convention, which backup tools honour) naming
  astrag: the marker every later run recognises;
* ``.gitignore`` containing ``*``: the index never shows in ``git status``.

A directory holding anything else is refused with a clear error, and nothing in it is touched.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from astrag.store.base import StoreError

TAG_NAME = "CACHEDIR.TAG"
TAG_TEXT = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This directory holds an astrag index (https://bford.info/cachedir/).\n"
    "# astrag rebuilds everything in it; delete it to drop the index.\n"
)
GITIGNORE_TEXT = "# astrag's index: never commit it\n*\n"
# What an earlier astrag (before the marker) left in its directory.
_KNOWN = ("index.db", "index.lock", "store", ".gitignore", TAG_NAME, "index.previous")


def is_marked(directory: Path) -> bool:
    try:
        return "astrag" in (directory / TAG_NAME).read_text("utf-8", errors="replace")
    except OSError:
        return False


def claim(directory: Path) -> None:
    """Make ``directory`` astrag's (create and mark it), or raise :class:`StoreError` when it
    holds files astrag did not write. Idempotent; call before writing anything into it."""
    if is_marked(directory):
        return
    if directory.exists():
        if not directory.is_dir() or directory.is_symlink():
            raise _refusal(directory, "it is not a plain directory")
        foreign = sorted(name for name in os.listdir(directory) if not _ours(name))
        if foreign:
            raise _refusal(directory, f"it holds files astrag did not create ({foreign[0]}, ...)")
        db = directory / "index.db"
        if db.exists() and not looks_like_astrag_index(db):
            raise _refusal(directory, f"{db.name} there is not an astrag index")
    directory.mkdir(parents=True, exist_ok=True)
    _write_new(directory / ".gitignore", GITIGNORE_TEXT)
    (directory / TAG_NAME).write_text(TAG_TEXT, encoding="utf-8")


def _ours(name: str) -> bool:
    if name in _KNOWN:
        return True
    base = name
    for suffix in ("-wal", "-shm", "-journal"):
        base = base.removesuffix(suffix)
    return base == "index.db" or (base.startswith("index.") and base.endswith(".db"))


def looks_like_astrag_index(path: Path) -> bool:
    """Whether ``path`` is an SQLite database with astrag's ``meta`` table (read-only look)."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return row is not None
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def _write_new(path: Path, text: str) -> None:
    if not path.exists():
        path.write_text(text, encoding="utf-8")


def _refusal(directory: Path, why: str) -> StoreError:
    return StoreError(
        f"refusing to write an astrag index into {directory}: {why}",
        hint="set [index] index_dir in .astrag.toml to a new folder inside the repository "
        "(the default is .astrag), or empty that folder yourself",
    )
