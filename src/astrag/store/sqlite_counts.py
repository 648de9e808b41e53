"""The summary counts an SQLite apply keeps in the index's meta, kept exact by deltas.

``counts()`` answers from a copy kept in meta (a no-op re-index must not count 700k edges).
Recounting that copy after every apply cost as much: a scan of every edge joined with its
target's symbol for the calls, 0.12 s on medusa for a one-file edit, 0.35 s of a cold sympy
index. An apply instead subtracts the rows it deletes (read through the indexes on ``path``
before deleting them) and adds the rows it writes (from the values in hand).

The one count that can change without a row of its own changing is a call's target class
(resolved / name / external / unresolved / dangling): it follows the target's symbol row. So
every symbol row an apply deletes, inserts or replaces has its first state remembered, and at
the end the calls that were neither deleted nor written but point at such a symbol move from
their class before to their class after. :func:`recount` is the same figures from the tables.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from astrag.graph.facts import Resolution, Symbol
from astrag.store.base import FileRecord
from astrag.store.codec import RESOLUTION_CODE
from astrag.store.sqlite_batches import chunks, marks

_NAME = RESOLUTION_CODE[Resolution.NAME]
# what a call edge's target is: resolved, name (matched by name only), external, unresolved,
# or dangling (a target with no symbol row)
CALL_TARGET_SQL = (
    "CASE WHEN s.nid IS NULL THEN 'dangling' WHEN s.path = '' THEN s.kind "
    f"WHEN e.res = {_NAME} THEN 'name' ELSE 'resolved' END"
)
_SCAN_ALL = 20_000  # more symbols to look up than this: read them all in one scan

SymbolState = tuple[bool, str] | None  # (a placeholder?, kind); None: no symbol row


def recount(conn: sqlite3.Connection) -> dict[str, Any]:
    """The counts :meth:`SqliteStore.counts` reports, counted from the tables."""
    files, lines, errors, with_errors = conn.execute(
        "SELECT count(*), coalesce(sum(lines), 0), coalesce(sum(errors), 0), "
        "count(*) FILTER (WHERE errors > 0) FROM files"
    ).fetchone()
    by_kind = "SELECT kind, count(*) FROM symbols WHERE path {} '' GROUP BY kind"
    symbols = dict(conn.execute(by_kind.format("!=")))
    placeholders = dict(conn.execute(by_kind.format("=")))
    edges = dict(conn.execute("SELECT kind, count(*) FROM edges GROUP BY kind"))
    languages = dict(conn.execute("SELECT language, count(*) FROM files GROUP BY language"))
    calls = dict(
        conn.execute(
            f"SELECT {CALL_TARGET_SQL}, count(*) FROM edges e LEFT JOIN symbols s "
            "ON s.nid = e.dst WHERE e.kind = 'calls' GROUP BY 1"
        )
    )
    return {
        "files": files,
        "lines": lines,
        "parse_errors": errors,
        "files_with_errors": with_errors,
        "symbols": symbols,
        "placeholders": placeholders,
        "edges": edges,
        "calls": calls,
        "languages": languages,
    }


def _category(state: SymbolState, res: int) -> str:
    if state is None:
        return "dangling"
    if state[0]:
        return state[1]
    return "name" if res == _NAME else "resolved"


class CountDeltas:
    """The kept counts of one apply, moved by what it deletes and writes; :meth:`finish`
    gives the counts after it. Call each ``*_deleting`` hook before the rows go."""

    def __init__(self, conn: sqlite3.Connection, kept: dict[str, Any]) -> None:
        self.conn = conn
        self.scalars = Counter(
            {k: kept.get(k, 0) for k in ("files", "lines", "parse_errors", "files_with_errors")}
        )
        self.groups = {
            k: Counter(kept.get(k, {}))
            for k in ("symbols", "placeholders", "edges", "calls", "languages")
        }
        self.no_edges_before = not any(self.groups["edges"].values())
        self.before: dict[int, SymbolState] = {}  # first state of every symbol row changed
        # the state of every row this apply wrote and has not deleted since: what the table
        # holds for it at the end, so finish() reads only the other rows' (a first index wrote
        # them all: medusa's 70k symbol rows were read back in one scan after the last edges)
        self.written: dict[int, SymbolState] = {}
        self.deleted_calls: Counter[tuple[int, int]] = Counter()  # (target, res) -> calls
        self.written_calls: Counter[tuple[int, int]] = Counter()

    # ---------------------------------------------------------------- files

    def files_deleting(self, paths: Iterable[str]) -> None:
        """Records about to be deleted or replaced."""
        keys = list(dict.fromkeys(paths))
        for chunk in chunks(keys):
            rows = self.conn.execute(
                f"SELECT language, lines, errors FROM files WHERE path IN ({marks(len(chunk))})",
                chunk,
            )
            for language, lines, errors in rows:
                self._file(language, lines, errors, -1)

    def files_written(self, records: Iterable[FileRecord]) -> None:
        for r in records:
            self._file(r.language, r.lines, r.errors, 1)

    def _file(self, language: str, lines: int, errors: int, sign: int) -> None:
        self.scalars["files"] += sign
        self.scalars["lines"] += sign * lines
        self.scalars["parse_errors"] += sign * errors
        self.scalars["files_with_errors"] += sign * (errors > 0)
        self.groups["languages"][language] += sign

    # ---------------------------------------------------------------- symbols

    def symbols_deleting(self, paths: Iterable[str]) -> None:
        """Every symbol of ``paths`` is about to be deleted."""
        keys = list(dict.fromkeys(paths))
        for chunk in chunks(keys):
            query = f"SELECT nid, path, kind FROM symbols WHERE path IN ({marks(len(chunk))})"
            self._forget(self.conn.execute(query, chunk))

    def symbols_replacing(self, nids: Iterable[int]) -> None:
        """The rows of ``nids`` are about to be written (an upsert: some may exist)."""
        keys = list(dict.fromkeys(nids))
        for chunk in chunks(keys):
            query = f"SELECT nid, path, kind FROM symbols WHERE nid IN ({marks(len(chunk))})"
            self._forget(self.conn.execute(query, chunk))

    def _forget(self, rows: Iterable[tuple[int, str, str]]) -> None:
        for nid, path, kind in rows:
            self._symbol(path, kind, -1)
            self.before.setdefault(nid, (path == "", kind))
            self.written.pop(nid, None)  # deleted or about to be replaced

    def symbols_written(self, rows: Iterable[tuple[int, Symbol]]) -> None:
        """Rows inserted or upserted, once each (an upsert's old row went to
        :meth:`symbols_replacing` first)."""
        written = self.written
        for nid, s in rows:
            self._symbol(s.path, s.kind, 1)
            self.before.setdefault(nid, None)  # not forgotten first: there was no row
            written[nid] = (s.path == "", str(s.kind))  # as _states reads it back

    def placeholders_collected(self, rows: Iterable[tuple[int, str]]) -> None:
        """Placeholders no edge points at any more, about to be deleted."""
        self._forget((nid, "", kind) for nid, kind in rows)

    def _symbol(self, path: str, kind: str, sign: int) -> None:
        self.groups["symbols" if path else "placeholders"][kind] += sign

    # ---------------------------------------------------------------- edges

    def edges_deleting(self, paths: Iterable[str]) -> None:
        """Every edge whose site is one of ``paths`` is about to be deleted."""
        keys = list(dict.fromkeys(paths))
        for chunk in chunks(keys):
            rows = self.conn.execute(
                "SELECT kind, dst, res, count(*) FROM edges WHERE path IN "
                f"(SELECT nid FROM names WHERE name IN ({marks(len(chunk))})) "
                "GROUP BY kind, dst, res",
                chunk,
            )
            for kind, dst, res, n in rows:
                self.groups["edges"][kind] -= n
                if kind == "calls":
                    self.deleted_calls[(dst, res)] += n

    def edges_written(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """Rows as written: (src, dst, kind, path, line, col, res)."""
        self.groups["edges"].update(r[2] for r in rows)
        self.written_calls.update((r[1], r[6]) for r in rows if r[2] == "calls")

    # ---------------------------------------------------------------- result

    def finish(self) -> dict[str, Any]:
        """The counts after the apply (call once every row is written)."""
        calls = self.groups["calls"]
        wanted = {dst for dst, _ in self.written_calls}
        wanted.update(dst for dst, _ in self.deleted_calls if dst not in self.before)
        needed = wanted | self.before.keys()
        written = self.written
        now = {nid: written[nid] for nid in needed if nid in written}
        now.update(self._states(needed - written.keys()))
        kept: Counter[tuple[int, int]] = Counter()
        # calls neither deleted nor written whose target's row changed state: all calls to
        # those targets now, less the ones this apply wrote. A row rewritten as it was (the
        # placeholders an edit's edges point at, upserted again) moves no call from one
        # category to another, so its calls are not counted (an interface edit on medusa
        # counted every call to `external::react...` and the like: 0.01 s of its commit)
        moved = [nid for nid, state in self.before.items() if now.get(nid) != state]
        if not self.no_edges_before and moved:
            for (dst, res), n in self._calls_to(moved).items():
                rest = n - self.written_calls.get((dst, res), 0)
                if rest:
                    kept[(dst, res)] = rest

        def original(dst: int) -> SymbolState:
            return self.before[dst] if dst in self.before else now.get(dst)

        for (dst, res), n in self.deleted_calls.items():
            calls[_category(original(dst), res)] -= n
        for (dst, res), n in self.written_calls.items():
            calls[_category(now.get(dst), res)] += n
        for (dst, res), n in kept.items():
            calls[_category(self.before[dst], res)] -= n
            calls[_category(now.get(dst), res)] += n
        out: dict[str, Any] = dict(self.scalars)
        for key, counter in self.groups.items():
            out[key] = {k: v for k, v in sorted(counter.items()) if v}
        return out

    def _calls_to(self, nids: list[int]) -> Counter[tuple[int, int]]:
        found: Counter[tuple[int, int]] = Counter()
        for chunk in chunks(nids):
            rows = self.conn.execute(
                "SELECT dst, res, count(*) FROM edges WHERE kind = 'calls' "
                f"AND dst IN ({marks(len(chunk))}) GROUP BY dst, res",
                chunk,
            )
            for dst, res, n in rows:
                found[(dst, res)] += n
        return found

    def _states(self, nids: set[int]) -> dict[int, SymbolState]:
        """The symbol rows of ``nids`` as they are now (absent ones left out)."""
        query = "SELECT nid, path = '', kind FROM symbols"
        if len(nids) > _SCAN_ALL:
            return {nid: (bool(p), k) for nid, p, k in self.conn.execute(query) if nid in nids}
        states: dict[int, SymbolState] = {}
        keys = list(nids)
        for chunk in chunks(keys):
            rows = self.conn.execute(f"{query} WHERE nid IN ({marks(len(chunk))})", chunk)
            states.update((nid, (bool(p), k)) for nid, p, k in rows)
        return states
