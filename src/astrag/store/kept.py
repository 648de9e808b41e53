"""A whole table read into memory for one state of the index, and when it is worth reading.

A warm process (the MCP server, the web view, a benchmark) asks the same index many times;
reading a table whole (the search postings, the edges) answers those asks from memory, but
costs a second or so that a one-shot CLI process must never pay. A :class:`Kept` holds such a
value for the state of the index it was read from and decides when to read it again: only in a
process that has asked twice, and after a change only once asking SQLite for the new state has
cost as long as reading took last time. A process that asks once between two re-indexes keeps
asking SQLite; one that asks on pays at most twice what knowing the future would have cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Kept(Generic[T]):
    """One value read from the index, kept for the state (``stamp``) it was read from."""

    def __init__(self) -> None:
        self.held: tuple[Hashable, T] | None = None  # (the state read from, the value)
        self._state: Hashable | None = None  # the state ``_asked`` is counted for
        self._asked = 0.0  # SQLite's time answering that state without the value
        self.read_seconds = 0.0  # how long the value took to read, the last time

    def now(self, stamp: Hashable) -> T | None:
        """The value if it was read from the state ``stamp``, else None."""
        held = self.held
        return held[1] if held is not None and held[0] == stamp else None

    def get(self, stamp: Hashable, asks: int, read: Callable[[], T]) -> T | None:
        """The value for the state ``stamp``, reading it when it pays (``asks``: how often this
        process has asked so far), or None to ask SQLite."""
        held = self.held
        if held is not None and held[0] == stamp:
            return held[1]
        self.held = None
        if stamp != self._state:  # SQLite's time is counted per state of the index
            self._state, self._asked = stamp, 0.0
        if asks < 2 or self._asked < self.read_seconds:
            return None
        started = time.perf_counter()
        value = read()
        self.held = (stamp, value)
        self.read_seconds = time.perf_counter() - started
        return value

    def asked(self, seconds: float) -> None:
        """Count ``seconds`` that SQLite spent answering the state last asked about."""
        self._asked += seconds

    def drop(self) -> None:
        self.held = None
