"""A file's dependency set (the files its resolution consulted) as integer ids of paths.

A store keeps one set per file and reads them back to find the files to re-resolve after an
edit (``dependents``). medusa's 5.7k sets name 812k paths of 4.3k distinct files: as sorted
path strings (``marshal``) they were 45 MB of a 145 MB index, 0.14 CPU s for SQLite to write
in a cold index, 0.17 s for the resolver process to sort and marshal, and an interface edit's
look-up read all 45 MB. As ids of a path table, each four bytes, they are 3.2 MB.

A set is its ids sorted, each an unsigned 32-bit integer, little-endian, one after the other
(``array`` bytes: built and read in C). Ids start at 1. Which path an id names is the store's
business (SQLite: its ``paths`` table); a sender that numbers paths itself (the cold run's
resolver process) numbers them with :func:`number` and says which numbering it used
(``IndexUpdate.depends_paths``), and the store translates when its ids differ.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Mapping

ID_BYTES = 4
_TYPE = next(t for t in "IL" if array(t).itemsize == ID_BYTES)
_SWAP = sys.byteorder == "big"  # stored little-endian, so an index reads the same anywhere
# ids asked about above which decoding every set is cheaper than searching its bytes for each
_NEEDLES_MAX = 16


def numbering(paths: Iterable[str]) -> tuple[str, ...]:
    """The paths a sender numbers, in the order :func:`number` numbers them (each once,
    sorted): the same whichever order or repetition they are given in."""
    return tuple(sorted(set(paths)))


def number(paths: tuple[str, ...]) -> dict[str, int]:
    """Ids of ``paths`` (a :func:`numbering`): the i-th path (from 0) is id i + 1."""
    return {p: i for i, p in enumerate(paths, 1)}


def encode_ids(ids: Iterable[int]) -> bytes:
    """A set of ids (no id twice) as a store keeps it."""
    values = array(_TYPE, sorted(ids))
    if _SWAP:
        values.byteswap()
    return values.tobytes()


def decode_ids(blob: bytes) -> array[int]:
    """The ids of an encoded set, ascending."""
    values = array(_TYPE)
    values.frombytes(blob)
    if _SWAP:
        values.byteswap()
    return values


def encode_paths(ids: Mapping[str, int], paths: Iterable[str]) -> bytes | None:
    """``paths`` encoded by their ids in ``ids``; None when one of them has none."""
    try:
        return encode_ids([ids[p] for p in paths])
    except KeyError:
        return None


def holds_any_id(ids: Iterable[int]) -> Callable[[bytes], bool]:
    """A test of an encoded set: does it hold one of ``ids``? Each id's four bytes are
    searched for in the set's bytes (in C) and count only where an id starts; past a few ids,
    each set is decoded instead."""
    wanted = frozenset(ids)
    if len(wanted) > _NEEDLES_MAX:
        return lambda blob: not wanted.isdisjoint(decode_ids(blob))
    needles = [encode_ids((i,)) for i in wanted]

    def holds(blob: bytes) -> bool:
        for needle in needles:
            at = blob.find(needle)
            while at >= 0:
                if at % ID_BYTES == 0:
                    return True
                at = blob.find(needle, at + 1)
        return False

    return holds
