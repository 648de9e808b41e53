"""The SQLite index's dependency sets: each file's row in ``depends`` holds the ids
(``store/depends.py``) of the files its resolution consulted, from the ``paths`` table.

A path keeps its id while a set names it, so the sets of unchanged files stay valid whatever
else is written; a path is dropped once no set names it (checked when files are removed: a
removed file stays in the sets of the files that consulted it until they are re-resolved,
which is how the indexer finds them). Ids are never reused while a set holds them.
"""

from __future__ import annotations

import marshal
import sqlite3
from collections.abc import Iterable, Mapping

from astrag.store.base import IndexCorrupt
from astrag.store.depends import decode_ids, encode_ids, holds_any_id, number, numbering
from astrag.store.sqlite_batches import REBUILD_HINT, rows_in

PATHS_TABLE = (
    "CREATE TABLE IF NOT EXISTS paths (pid INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)"
)
_PREFILTER_MAX = 16  # paths whose sets SQLite picks out before they are read


class PathIds(dict[str, int]):
    """The ids of paths for one apply, read from ``paths`` as they are asked for."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__()
        self.conn = conn
        # whether the table may hold ids this dict lacks (an empty one holds none)
        self.stored = conn.execute("SELECT 1 FROM paths LIMIT 1").fetchone() is not None
        self._numbered: tuple[tuple[str, ...], list[int] | None] | None = None
        self.removed = False  # whether the apply removed files (their paths may be unused)

    def read(self, paths: Iterable[str]) -> None:
        """Add the stored ids of ``paths`` that this dict lacks."""
        unknown = [p for p in dict.fromkeys(paths) if p not in self]
        if self.stored:
            query = "SELECT path, pid FROM paths WHERE path IN ({})"
            self.update(rows_in(self.conn, query, unknown))

    def intern(self, paths: Iterable[str]) -> None:
        """Give every one of ``paths`` an id, adding those the table lacks."""
        paths = list(paths)
        self.read(paths)
        new = [(p,) for p in sorted({p for p in paths if p not in self})]
        if not new:
            return
        (before,) = self.conn.execute("SELECT coalesce(max(pid), 0) FROM paths").fetchone()
        self.conn.executemany("INSERT INTO paths (path) VALUES (?)", new)
        self.update(self.conn.execute("SELECT path, pid FROM paths WHERE pid > ?", (before,)))

    def translation(self, paths: tuple[str, ...]) -> list[int] | None:
        """For sets a sender encoded with ``number(paths)``: the store's id of each of its ids
        (a list indexed by the sender's id), or None when they are the same. Into an empty
        table (a first index, a rebuild) the sender's numbering is taken as it is."""
        if self._numbered is not None and self._numbered[0] is paths:
            return self._numbered[1]
        table: list[int] | None = None
        if not self.stored and not self:
            ids = number(paths)
            self.conn.executemany(
                "INSERT INTO paths (pid, path) VALUES (?, ?)", [(i, p) for p, i in ids.items()]
            )
            self.update(ids)
        else:
            self.intern(paths)
            table = [0, *(self[p] for p in paths)]
            if table == list(range(len(table))):
                table = None
        self._numbered = (paths, table)
        return table


def replace_depends(
    conn: sqlite3.Connection,
    depends: Mapping[str, frozenset[str] | bytes],
    paths: tuple[str, ...],
    ids: PathIds,
) -> None:
    """Write each file's set: given as paths, or as ids of the numbering ``paths``."""
    if not depends:
        return
    sets = [d for d in depends.values() if not isinstance(d, bytes)]
    table = None
    if len(sets) < len(depends):
        if not paths:
            raise ValueError("dependency sets given as ids need depends_paths")
        table = ids.translation(paths)
    if sets:
        ids.intern(set().union(*sets))
    rows = []
    for file, deps in depends.items():
        if not isinstance(deps, bytes):
            blob = encode_ids([ids[p] for p in deps])
        elif table is None:
            blob = deps  # the sender's ids are the store's (a cold index): written as they came
        else:
            blob = encode_ids([table[i] for i in decode_ids(deps)])
        rows.append((file, blob))
    # One row per file, not a row per pair: a full index writes ~20 pairs per file, and a
    # row each cost more than the edges (measured: 0.5 s of 2.7 s on typeorm).
    conn.executemany("INSERT OR REPLACE INTO depends (file, deps) VALUES (?, ?)", rows)


def dependents(conn: sqlite3.Connection, paths: Iterable[str]) -> set[str]:
    """Files whose set names any of ``paths``."""
    ids = PathIds(conn)
    wanted = list(dict.fromkeys(paths))
    ids.read(wanted)
    found = [ids[p] for p in wanted if p in ids]
    if not found:
        return set()  # no set names a path the table does not hold
    holds = holds_any_id(found)
    query = "SELECT file, deps FROM depends"
    needles: list[bytes] = []
    if len(found) <= _PREFILTER_MAX:
        # the sets whose bytes hold an id's bytes anywhere, found by SQLite (instr on a blob
        # compares bytes, in C): the rest never become Python objects (medusa 9.3 -> 6.2 ms)
        needles = [encode_ids((i,)) for i in found]
        query += " WHERE " + " OR ".join(["instr(deps, ?) > 0"] * len(needles))
    return {file for file, deps in conn.execute(query, needles) if holds(deps)}


def all_depends(conn: sqlite3.Connection) -> dict[str, frozenset[str]]:
    """Every file's set as paths."""
    path_of = dict(conn.execute("SELECT pid, path FROM paths"))
    rows = conn.execute("SELECT file, deps FROM depends ORDER BY file")
    return {file: frozenset(path_of[i] for i in decode_ids(deps)) for file, deps in rows}


def collect_paths(conn: sqlite3.Connection) -> None:
    """Drop the paths no set names any more."""
    named: set[int] = set()
    for (deps,) in conn.execute("SELECT deps FROM depends"):
        named.update(decode_ids(deps))
    unused = [(pid,) for (pid,) in conn.execute("SELECT pid FROM paths") if pid not in named]
    conn.executemany("DELETE FROM paths WHERE pid = ?", unused)


def ids_from_marshalled(conn: sqlite3.Connection) -> None:
    """Schema version 3 to 4: the sets were each a ``marshal`` list of sorted paths."""
    conn.execute(PATHS_TABLE)
    rows = conn.execute("SELECT file, deps FROM depends").fetchall()
    try:
        sets = [(file, marshal.loads(deps)) for file, deps in rows]
    except (ValueError, EOFError, TypeError) as err:
        raise IndexCorrupt(f"a dependency set is unreadable ({err})", REBUILD_HINT) from err
    ids = number(numbering(p for _, deps in sets for p in deps))
    conn.executemany(
        "INSERT INTO paths (pid, path) VALUES (?, ?)", [(i, p) for p, i in ids.items()]
    )
    conn.executemany(
        "UPDATE depends SET deps = ? WHERE file = ?",
        [(encode_ids([ids[p] for p in deps]), file) for file, deps in sets],
    )
