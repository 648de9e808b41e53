"""Keys asked for in ``IN (...)`` lists of bounded length, and the hint a damaged SQLite
index gives: what the SQLite store's modules share.

SQLite binds at most 32,766 parameters a statement; 500 keys a list stays far below that and
keeps each statement's text (and the plan SQLite makes of it) small.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

CHUNK = 500  # keys per IN (...) list
REBUILD_HINT = "run `astrag index --rebuild` to rebuild the index"

T = TypeVar("T")


def marks(n: int) -> str:
    """``?,?,…`` for ``n`` parameters."""
    return ",".join("?" * n)


def chunks(items: Sequence[T]) -> Iterator[Sequence[T]]:
    """``items`` in slices of at most :data:`CHUNK`."""
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


def rows_in(
    conn: sqlite3.Connection, query: str, keys: Sequence[Any], *extra: Any
) -> Iterator[tuple[Any, ...]]:
    """The rows of ``query`` (one ``{}`` where the IN list's marks go) over ``keys`` a chunk
    at a time, with ``extra`` parameters after each chunk's keys."""
    for chunk in chunks(keys):
        yield from conn.execute(query.format(marks(len(chunk))), (*chunk, *extra))
