"""How the SQLite store writes a whole index in one apply: indexes it puts off and builds once
(the edges' after the last edges or at a pause, the symbols' and documents' once the files are
in), no garbage collection where nothing can be garbage, and the file synced in the background
as it grows (store/flush.py)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from astrag.graph.facts import Edge, EdgeKind
from astrag.store import IndexUpdate, SqliteStore
from astrag.store.flush import BackgroundFlush
from tests.test_store_sqlite import base_update, full_facts, record, snapshot_of, sym


def _indexes(store: SqliteStore) -> set[str]:
    rows = store._db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    )
    return {name for (name,) in rows}


ALL_INDEXES = {"symbols_name", "symbols_qualname", "symbols_path", "docs_path", "docs_hash"}
ALL_INDEXES |= {"edges_src", "edges_dst", "edges_path"}


def _parts(update: IndexUpdate) -> tuple[IndexUpdate, IndexUpdate]:
    """``update`` as the cold pipeline writes it: the files first, then the edges."""
    files = dataclasses.replace(update, edges_for=(), edges=(), placeholders=(), depends={})
    edges = IndexUpdate(
        edges_for=update.edges_for,
        edges=update.edges,
        placeholders=update.placeholders,
        depends=update.depends,
        meta=update.meta,
    )
    return files, edges


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[tuple[SqliteStore, SqliteStore]]:
    one, two = SqliteStore(tmp_path / "one"), SqliteStore(tmp_path / "two")
    one.open()
    two.open()
    yield one, two
    one.close()
    two.close()


def test_a_fresh_index_written_in_parts_equals_one_apply_with_every_index(
    stores: tuple[SqliteStore, SqliteStore],
) -> None:
    whole, parted = stores
    whole.apply(base_update())
    seen: list[set[str]] = []

    def then() -> Iterator[IndexUpdate]:
        files, edges = _parts(base_update())
        yield files
        seen.append(_indexes(parted))  # while the files are written: none of them
        yield edges
        seen.append(_indexes(parted))  # the files' indexes built before the edges came

    parted.apply(IndexUpdate(), then=then)
    assert seen == [set(), ALL_INDEXES - {"edges_src", "edges_dst", "edges_path"}]
    assert _indexes(parted) == _indexes(whole) == ALL_INDEXES
    assert snapshot_of(parted) == snapshot_of(whole)
    assert parted._db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_an_index_with_files_keeps_its_indexes_while_it_is_written(
    stores: tuple[SqliteStore, SqliteStore],
) -> None:
    store, _ = stores
    store.apply(base_update())
    seen: list[set[str]] = []

    def then() -> Iterator[IndexUpdate]:
        yield IndexUpdate(files=((record("c.py"), full_facts("c.py")),))
        seen.append(_indexes(store))

    store.apply(IndexUpdate(), then=then)
    assert seen == [ALL_INDEXES]


def test_a_pause_builds_the_edge_indexes_and_later_edges_go_into_them(
    stores: tuple[SqliteStore, SqliteStore],
) -> None:
    paused, straight = stores
    files, edges = _parts(base_update())
    more = IndexUpdate(
        edges_for=("c.py",),
        edges=(Edge("c.py::h", "b.py::g", EdgeKind.CALLS, "c.py", 7, 3),),
        depends={"c.py": frozenset({"b.py"})},
    )
    c_file = IndexUpdate(files=((record("c.py"), full_facts("c.py")),))
    c_file = dataclasses.replace(c_file, symbols_for=("c.py",), symbols=(sym("c.py", "h"),))
    seen: list[set[str]] = []

    def then(pause: bool) -> Iterator[IndexUpdate]:
        yield dataclasses.replace(files, files=files.files + c_file.files)
        yield dataclasses.replace(c_file, files=())
        yield edges
        if pause:
            yield IndexUpdate(pause=True)
            seen.append(_indexes(paused))
        yield more

    paused.apply(IndexUpdate(), then=lambda: then(True))
    straight.apply(IndexUpdate(), then=lambda: then(False))
    assert seen == [ALL_INDEXES]
    assert snapshot_of(paused) == snapshot_of(straight)
    callers = {e.source for e in paused.edges_to(["b.py::g"])}
    assert callers == {"a.py::f", "c.py::h"}  # the edge written after the pause is indexed
    assert paused._db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_pause_in_an_index_with_edges_changes_nothing(
    stores: tuple[SqliteStore, SqliteStore],
) -> None:
    store, _ = stores
    store.apply(base_update())
    before = snapshot_of(store)
    store.apply(IndexUpdate(), then=lambda: iter([IndexUpdate(pause=True)]))
    assert _indexes(store) == ALL_INDEXES
    assert snapshot_of(store)[:4] == before[:4]


def test_nothing_is_left_to_collect_after_a_fresh_index(
    stores: tuple[SqliteStore, SqliteStore],
) -> None:
    """A write into an index without files skips the garbage collection: every placeholder it
    writes is an edge's target and every name it interns is in a row."""
    store, _ = stores
    files, edges = _parts(base_update())
    store.apply(IndexUpdate(), then=lambda: iter([files, edges]))
    counted = store.counts()
    tables = ("names", "symbols")
    sizes = [store._db.execute(f"SELECT count(*) FROM {t}").fetchone() for t in tables]
    with store._db:  # what the skipped collection would have deleted: nothing
        store._collect_garbage(store._db, None)
    assert [store._db.execute(f"SELECT count(*) FROM {t}").fetchone() for t in tables] == sizes
    assert store.counts() == counted


def test_an_update_of_an_index_with_files_still_collects_garbage(
    stores: tuple[SqliteStore, SqliteStore],
) -> None:
    store, _ = stores
    store.apply(base_update())
    store.apply(
        IndexUpdate(),
        then=lambda: iter([IndexUpdate(edges_for=("b.py",), depends={"b.py": frozenset()})]),
    )
    assert store.get_symbol("external::json") is None  # b.py's edges were its only users
    assert store.get_symbol("external::os.getcwd") is not None


def _flush_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "astrag-flush"]


def test_a_file_grown_a_step_is_synced_in_the_background(tmp_path: Path) -> None:
    path = tmp_path / "grows.db"
    path.write_bytes(b"")
    with BackgroundFlush(path, step=4096) as flush:
        path.write_bytes(b"x" * 4095)
        flush.poke()
        assert _flush_threads() == []  # not a step yet: no thread, no sync
        path.write_bytes(b"x" * 8192)
        flush.poke()
        assert len(_flush_threads()) == 1
    assert _flush_threads() == []  # joined when the write ends


def test_a_new_generation_is_written_with_background_syncs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real = BackgroundFlush.poke

    def poke(self: BackgroundFlush) -> None:
        synced.append(1)
        real(self)

    monkeypatch.setattr(BackgroundFlush, "poke", poke)
    store = SqliteStore(tmp_path / ".astrag")
    with store.acquire_writer():
        store.start_fresh()
        files, edges = _parts(base_update())
        store.apply(IndexUpdate(), then=lambda: iter([files, edges]))
        store.publish()
    store.close()
    assert len(synced) == 2  # poked after each part
    published = SqliteStore(tmp_path / ".astrag")
    published.open()
    edges_of_a = {e.target for e in published.edges_from(["a.py::f"])}
    published.close()
    assert edges_of_a == {"b.py::g", "external::os.getcwd"}
    assert _flush_threads() == []


def test_a_symbol_tuple_field_is_written_as_json_once_per_distinct_list() -> None:
    """Modifier and decorator lists go to the row as JSON; the few distinct lists are encoded
    once and reused, with the same text json.dumps gives, and no text for an empty list."""
    import json

    from astrag.store import sqlite

    sqlite._json_tuple.cache_clear()
    lists = [("export",), ("async", "export"), ('@app.route("/a,b")',), ("export",)]
    assert [sqlite._encode_tuple(v) for v in lists] == [json.dumps(v) for v in lists]
    assert sqlite._json_tuple.cache_info().hits == 1  # the repeated ("export",)
    assert sqlite._encode_tuple(()) == ""
    assert sqlite._json_tuple.cache_info().currsize == 3  # the empty list is never encoded
    assert sqlite._decode_tuple(sqlite._encode_tuple(lists[2])) == lists[2]
