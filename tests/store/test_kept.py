"""When a table read whole is read again: the rule the postings and the edges share."""

from __future__ import annotations

from astrag.store.kept import Kept


def test_read_at_the_second_ask_and_kept_for_its_state() -> None:
    reads: list[str] = []
    kept: Kept[str] = Kept()

    def read() -> str:
        reads.append("x")
        return f"read {len(reads)}"

    assert kept.get("a", 1, read) is None  # a process that asks once never reads it
    assert kept.get("a", 2, read) == "read 1"
    assert kept.get("a", 3, read) == "read 1"  # the same state: no second read
    assert kept.now("a") == "read 1" and kept.now("b") is None
    assert len(reads) == 1


def test_after_a_change_read_again_only_once_sqlite_cost_as_much() -> None:
    reads: list[int] = []
    kept: Kept[int] = Kept()
    assert kept.get("a", 2, lambda: len(reads)) == 0
    kept.read_seconds = 1.0  # as if reading had taken a second
    assert kept.get("b", 3, lambda: reads.append(1) or 1) is None  # a new state: ask SQLite
    assert kept.held is None
    kept.asked(0.6)
    assert kept.get("b", 4, lambda: reads.append(1) or 1) is None  # 0.6 s < 1 s
    kept.asked(0.6)
    assert kept.get("b", 5, lambda: reads.append(1) or 1) == 1  # 1.2 s >= 1 s: read
    assert reads == [1]


def test_time_asked_of_an_older_state_does_not_count_for_a_newer_one() -> None:
    kept: Kept[int] = Kept()
    kept.read_seconds = 1.0
    assert kept.get("a", 2, lambda: 1) is None
    kept.asked(5.0)  # counted for "a"
    assert kept.get("b", 3, lambda: 2) is None  # "b" starts at nothing asked
    kept.drop()
    assert kept.held is None
