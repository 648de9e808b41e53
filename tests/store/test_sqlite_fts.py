"""How the SQLite store writes search documents into FTS5: in rowid order, one segment.

FTS5 starts a new segment whenever a rowid is lower than the last one it buffered, and the
store's integer ids come out of a set, in no order. Written unsorted, a full index of django
made a segment per few documents and spent 2.2 s more CPU merging them.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from astrag.search.documents import SearchDoc
from astrag.store import IndexUpdate
from astrag.store.sqlite import SqliteStore

WEIGHTS = (10.0, 4.0, 2.0, 2.0, 3.0)


@pytest.fixture
def store(empty_store: SqliteStore) -> SqliteStore:
    return empty_store


def docs(count: int, files: int) -> tuple[SearchDoc, ...]:
    return tuple(
        SearchDoc(
            id=f"pkg/m{i % files}.py::handler_{i}",
            path=f"pkg/m{i % files}.py",
            name=f"handler {i} handler{i}",
            qual=f"handler {i} pkg m{i % files}",
            sig=f"def handler_{i}(request)",
            doc="Answer one request." if i % 3 == 0 else "",
            body=f"request response word{i} shared",
            text=f"function handler {i}",
        )
        for i in range(count)
    )


def fts_segments(db: Path) -> int:
    """Segments of docs_fts, read from FTS5's structure record (rowid 10 of the data table):
    a 4-byte cookie, then varints of the level count and the segment count. (The version-2
    record, with a marker after the cookie, is only for contentless_delete tables.)"""
    conn = sqlite3.connect(db)
    try:
        (block,) = conn.execute("SELECT block FROM docs_fts_data WHERE id = 10").fetchone()
    finally:
        conn.close()
    levels, segments = block[4], block[5]
    assert levels < 0x80 and segments < 0x80, "one-byte varints expected at this size"
    return int(segments)


def test_one_update_of_many_documents_writes_one_fts_segment(store: SqliteStore) -> None:
    written = docs(3000, 40)
    store.apply(IndexUpdate(docs_for=tuple(sorted({d.path for d in written})), docs=written))

    assert fts_segments(store.db_path) == 1
    hits = store.search_text(["handler2999"], WEIGHTS, 5)
    assert [sid for sid, _ in hits] == ["pkg/m39.py::handler_2999"]
    assert len(store.search_text(["shared"], WEIGHTS, 5000)) == 3000


def test_replacing_a_file_keeps_its_documents_searchable(store: SqliteStore) -> None:
    written = docs(600, 6)
    store.apply(IndexUpdate(docs_for=tuple(sorted({d.path for d in written})), docs=written))
    again = tuple(d for d in docs(600, 6) if d.path == "pkg/m1.py")
    store.apply(IndexUpdate(docs_for=("pkg/m1.py",), docs=again))

    assert len(store.search_text(["shared"], WEIGHTS, 5000)) == 600
    assert [sid for sid, _ in store.search_text(["handler601"], WEIGHTS, 5)] == []
    assert [sid for sid, _ in store.search_text(["handler595"], WEIGHTS, 5)] == [
        "pkg/m1.py::handler_595"
    ]
