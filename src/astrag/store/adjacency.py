"""The edges between repository symbols held in memory, for a process that expands often.

A warm ``context`` reads the edges around its seeds about four times a query (two hops, both
directions): some 1,900 rows on a 495k-line repository, each joined to its two names and its
target's symbol row by SQLite and decoded by Python, about a fifth of the query. A process
that keeps the index open reads every edge once instead, as numpy arrays grouped by the symbol
an edge is read from, and answers ``neighbours()`` from them: the same rows in the same order
as the store's query (edges whose other end is a repository symbol, by rowid within each chunk
of asked ids).

Built from rows the store reads (``build``), answered without I/O: as arrays of name ids
(``edges``, what expansion walks, retrieve/neighbourhood.py) or as the store's rows of ids
(``neighbours``).
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
    chunk: int  # ids per query of the store's SQL: its edges come by rowid within each chunk

    @property
    def nbytes(self) -> int:
        """Memory of the arrays (the name dictionary and list add about as much again)."""
        return self.out.nbytes + self.into.nbytes


def build(
    edges: Iterable[tuple[int, int, int, str, int]],
    names: Iterable[tuple[int, str]],
    symbols: Iterable[int],
    chunk: int,
) -> Adjacency:
    """The adjacency from what the store reads: every edge (rowid, src, dst, kind, resolution
    code), every name (name id, symbol id), the name ids of the repository's symbols (a
    symbol row with a path), and how many ids its query asks at a time."""
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

    return Adjacency(side(src, dst), side(dst, src), tuple(kind_code), nids, table, chunk)


def numbers(adjacency: Adjacency, keys: Sequence[str]) -> np.ndarray:
    """The name id of each of ``keys``, -1 for one the names lack (it has no edges)."""
    get = adjacency.nids.get
    return np.fromiter((get(k, -1) for k in keys), dtype=np.int64, count=len(keys))


def kind_codes(adjacency: Adjacency, kinds: Iterable[str]) -> np.ndarray:
    """The codes of those of ``kinds`` that some edge has."""
    wanted = set(kinds)
    return np.array([i for i, k in enumerate(adjacency.kinds) if k in wanted], dtype=np.int8)


def edges(
    adjacency: Adjacency, heres: np.ndarray, codes: np.ndarray, *, incoming: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(name id, neighbour's name id, kind code, resolution code) of each edge of ``codes``
    from (``incoming``: into) the name ids ``heres`` (distinct; a negative one has none), as
    arrays in the order the store's query reads them: ``heres`` asked ``chunk`` at a time,
    each chunk's edges by rowid."""
    side = adjacency.into if incoming else adjacency.out
    empty = np.empty(0, dtype=np.int64)
    if not len(codes) or not len(heres):
        return empty, empty, empty.astype(np.int8), empty.astype(np.int8)
    heres = np.asarray(heres, dtype=np.int64)
    valid = heres >= 0
    first = np.where(valid, side.starts[np.where(valid, heres, 0)], 0)
    count = np.where(valid, side.starts[np.where(valid, heres, 0) + 1] - first, 0)
    # every edge of every id, in the ids' order: an id's span, its offset from the id's start
    total = int(count.sum())
    ends = np.cumsum(count)
    at = np.arange(total, dtype=np.int64) + np.repeat(first - (ends - count), count)
    here = np.repeat(heres, count)
    keep = None
    if len(codes) != len(adjacency.kinds):
        wanted = np.zeros(len(adjacency.kinds), dtype=bool)
        wanted[codes] = True
        keep = wanted[side.kinds[at]]
        at, here = at[keep], here[keep]
    # by chunk, then rowid (unique in a side: any sort gives the one order)
    if len(heres) <= adjacency.chunk:
        order = np.argsort(side.rowids[at])
    else:
        batch = np.repeat(np.arange(len(heres), dtype=np.int64) // adjacency.chunk, count)
        order = np.lexsort((side.rowids[at], batch if keep is None else batch[keep]))
    at, here = at[order], here[order]
    return here, side.others[at], side.kinds[at], side.res[at]


def neighbours(
    adjacency: Adjacency,
    keys: Sequence[str],
    kinds: Sequence[str],
    *,
    incoming: bool,
    levels: Sequence[Resolution],
) -> list[tuple[str, str, str, Resolution]]:
    """(id, neighbour id, edge kind, resolution) as the store's query answers them: ``keys``
    (distinct) asked ``chunk`` at a time, each chunk's edges by rowid."""
    here, there, kind, res = edges(
        adjacency, numbers(adjacency, keys), kind_codes(adjacency, kinds), incoming=incoming
    )
    names = adjacency.names
    # the rows made by zip over lookups, in C: a generator building each tuple was a
    # twentieth of a warm context (some 1,600 rows a query on medusa)
    return list(
        zip(  # type: ignore[arg-type]
            map(names.__getitem__, here.tolist()),
            map(names.__getitem__, there.tolist()),
            map(adjacency.kinds.__getitem__, kind.tolist()),
            map(levels.__getitem__, res.tolist()),
            strict=True,
        )
    )
