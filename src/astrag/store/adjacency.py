"""The edges between repository symbols held in memory, for a process that expands often.

A warm ``context`` reads the edges around its seeds about four times a query (two hops, both
directions): some 1,900 rows on a 495k-line repository, each joined to its two names and its
target's symbol row by SQLite and decoded by Python, about a fifth of the query. A process
that keeps the index open reads every edge once instead, as numpy arrays grouped by the symbol
an edge is read from, and answers ``neighbours()`` from them: the same rows in the same order
as the store's query (edges whose other end is a repository symbol, by rowid within each chunk
of asked ids).

Built from rows the store reads (``build``), answered without I/O (``neighbours``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from astrag.graph.facts import Resolution


@dataclass(frozen=True, slots=True)
class Side:
    """The edges read from one end (``src`` outgoing, ``dst`` incoming), by that end's id."""

    starts: np.ndarray  # (ids + 1,) int64: the edges of id i are [starts[i], starts[i + 1])
    rowids: np.ndarray  # int64: each edge's rowid, ascending within an id
    others: np.ndarray  # int64: the name id of the edge's other end
    kinds: np.ndarray  # int8: the edge's kind, as its index in Adjacency.kinds
    res: np.ndarray  # int8: the edge's resolution code

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.starts, self.rowids, self.others, self.kinds, self.res))


@dataclass(frozen=True, slots=True)
class Adjacency:
    """Every edge whose other end is a repository symbol, from both ends."""

    out: Side
    into: Side
    kinds: tuple[str, ...]  # edge kinds, by code
    nids: dict[str, int]  # symbol id -> name id
    names: list[str | None]  # name id -> symbol id

    @property
    def nbytes(self) -> int:
        """Memory of the arrays (the name dictionary and list add about as much again)."""
        return self.out.nbytes + self.into.nbytes


def build(
    edges: Iterable[tuple[int, int, int, str, int]],
    names: Iterable[tuple[int, str]],
    symbols: Iterable[int],
) -> Adjacency:
    """The adjacency from what the store reads: every edge (rowid, src, dst, kind, resolution
    code), every name (name id, symbol id), and the name ids of the repository's symbols (a
    symbol row with a path)."""
    nids: dict[str, int] = {}
    table: list[str | None] = []
    for nid, name in names:
        nids[name] = nid
        if nid >= len(table):
            table.extend([None] * (nid + 1 - len(table)))
        table[nid] = name
    kind_code: dict[str, int] = {}
    rowid_list: list[int] = []
    src_list: list[int] = []
    dst_list: list[int] = []
    kind_list: list[int] = []
    res_list: list[int] = []
    for rowid, src, dst, kind, res in edges:
        rowid_list.append(rowid)
        src_list.append(src)
        dst_list.append(dst)
        code = kind_code.get(kind)
        if code is None:
            code = kind_code[kind] = len(kind_code)
        kind_list.append(code)
        res_list.append(res)
    size = len(table)
    known = np.zeros(size + 1, dtype=bool)  # a name id with a repository symbol (and a name)
    repo = np.fromiter(symbols, dtype=np.int64)
    repo = repo[(repo >= 0) & (repo < size)]
    named = np.fromiter((n is not None for n in table), dtype=bool, count=size)
    known[repo] = named[repo]
    rowids = np.array(rowid_list, dtype=np.int64)
    src = np.array(src_list, dtype=np.int64)
    dst = np.array(dst_list, dtype=np.int64)
    kinds = np.array(kind_list, dtype=np.int8)
    res = np.array(res_list, dtype=np.int8)
    del rowid_list, src_list, dst_list, kind_list, res_list
    # an edge is read from an id the names hold, to a repository symbol; any other id
    # (a placeholder, a name missing from the table) is sent to the slot past the last
    outside = np.int64(size)
    src = np.where((src >= 0) & (src < size), src, outside)
    dst = np.where((dst >= 0) & (dst < size), dst, outside)

    def side(here: np.ndarray, there: np.ndarray) -> Side:
        keep = known[there]
        h, r = here[keep], rowids[keep]
        order = np.lexsort((r, h))
        h = h[order]
        starts = np.searchsorted(h, np.arange(size + 2, dtype=np.int64))
        return Side(starts, r[order], there[keep][order], kinds[keep][order], res[keep][order])

    return Adjacency(side(src, dst), side(dst, src), tuple(kind_code), nids, table)


def neighbours(
    adjacency: Adjacency,
    keys: Sequence[str],
    kinds: Sequence[str],
    *,
    incoming: bool,
    chunk: int,
    levels: Sequence[Resolution],
) -> list[tuple[str, str, str, Resolution]]:
    """(id, neighbour id, edge kind, resolution) as the store's query answers them: ``keys``
    (distinct) asked ``chunk`` at a time, each chunk's edges by rowid."""
    side = adjacency.into if incoming else adjacency.out
    wanted = [i for i, k in enumerate(adjacency.kinds) if k in set(kinds)]
    if not wanted:
        return []
    every_kind = len(wanted) == len(adjacency.kinds)
    names = adjacency.names
    kind_names = adjacency.kinds
    starts = side.starts
    out: list[tuple[str, str, str, Resolution]] = []
    for first in range(0, len(keys), chunk):
        spans: list[np.ndarray] = []
        heres: list[np.ndarray] = []
        for key in keys[first : first + chunk]:
            nid = adjacency.nids.get(key)
            if nid is None:
                continue
            a, b = int(starts[nid]), int(starts[nid + 1])
            if a < b:
                spans.append(np.arange(a, b))
                heres.append(np.full(b - a, nid, dtype=np.int64))
        if not spans:
            continue
        at = np.concatenate(spans)
        here = np.concatenate(heres)
        if not every_kind:
            keep = np.isin(side.kinds[at], wanted)
            at, here = at[keep], here[keep]
        order = np.argsort(side.rowids[at], kind="stable")
        at, here = at[order], here[order]
        # the rows made by zip over lookups, in C: a generator building each tuple was a
        # twentieth of a warm context (some 1,600 rows a query on medusa)
        out.extend(
            zip(  # type: ignore[arg-type]
                map(names.__getitem__, here.tolist()),
                map(names.__getitem__, side.others[at].tolist()),
                map(kind_names.__getitem__, side.kinds[at].tolist()),
                map(levels.__getitem__, side.res[at].tolist()),
                strict=True,
            )
        )
    return out
