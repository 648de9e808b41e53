"""A process that expands often reads the edges around its seeds from memory
(store/adjacency.py): the same rows as the store's SQL query, in the same order; read from the
second search on, and read again once the index changed. While they are held, the symbols it
reads are kept too, and forgotten with them."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from astrag.graph.facts import Edge, EdgeKind, Resolution, Symbol
from astrag.indexer import index_repository
from astrag.search.engine import FIELD_WEIGHTS
from astrag.store import IndexUpdate
from astrag.store.sqlite import _SYMBOL_SELECT, SqliteStore, _symbol_from_row


def warm(store: SqliteStore) -> None:
    """Two searches: the store now reads neighbours from memory."""
    store.search_text(["store"], FIELD_WEIGHTS, 1)
    store.search_text(["store"], FIELD_WEIGHTS, 1)
    store.neighbours(["no::such"], ["calls"], incoming=False)
    assert store._adjacency.held is not None


def test_neighbours_from_memory_are_the_sql_rows_in_order(store: SqliteStore) -> None:
    db = store._db
    ids = [name for (name,) in db.execute("SELECT name FROM names ORDER BY nid")]
    kinds = [k for (k,) in db.execute("SELECT DISTINCT kind FROM edges ORDER BY kind")]
    assert {"calls", "contains", "imports"} <= set(kinds)
    warm(store)
    rng = random.Random(15)
    asks = [(ids, kinds), (ids[::-1], kinds[::-1])]  # every id: chunked, placeholders too
    for size in (1, 2, 5, 20, 80, 499, 500, 501, 1200):
        for _ in range(6):
            chosen = rng.sample(ids, min(size, len(ids)))
            asks.append(([*chosen, "no/such.py::nothing", *chosen[:3]], rng.sample(kinds, 2)))
            asks.append((chosen, [*rng.sample(kinds, 1), "no-such-kind"]))
    rows = 0
    for keys, wanted in asks:
        for incoming in (False, True):
            got = store.neighbours(keys, wanted, incoming=incoming)
            sql = store._neighbours_sql(list(dict.fromkeys(keys)), wanted, incoming=incoming)
            assert got == sql
            rows += len(got)
    assert rows > 10_000
    assert store.neighbours(ids[:10], [], incoming=False) == []
    assert store.neighbours([], ["calls"], incoming=True) == []


def test_kept_symbols_are_the_rows_of_the_index(store: SqliteStore) -> None:
    ids = [name for (name,) in store._db.execute("SELECT name FROM names ORDER BY nid")]
    query = _SYMBOL_SELECT + " WHERE n.name IN ({})"
    warm(store)
    rng = random.Random(15)
    for size in (1, 7, 120, 600, len(ids)):
        keys = [*rng.sample(ids, size), "no/such.py::nothing"]
        got = store.get_symbols(keys)
        assert got == store.get_symbols(keys)  # the second time from the kept ones
        assert list(got) == [k for k in dict.fromkeys(keys) if k in got]
        assert got == {r[0]: _symbol_from_row(r) for r in store._rows_for(query, keys)}
    assert len(got) > 1000  # every id: placeholders and modules among them


def test_the_first_search_asks_sqlite_and_a_change_is_seen(indexed: Path, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    shutil.copytree(indexed, root)
    reader = SqliteStore(root / ".astrag", readonly=True)
    reader.open()
    ask = ("zoo.py::feed",)
    try:
        reader.search_text(["zebracorn"], FIELD_WEIGHTS, 5)
        assert reader.neighbours(ask, ["calls"], incoming=False) == []
        assert reader._adjacency.held is None  # a process that searches once never reads them
        reader.search_text(["zebracorn"], FIELD_WEIGHTS, 5)
        assert reader.neighbours(ask, ["calls"], incoming=False) == []
        assert reader._adjacency.held is not None
        (root / "zoo.py").write_text("def feed():\n    groom()\n\ndef groom():\n    pass\n")
        index_repository(root, jobs=1, embedder="none")  # another connection commits
        calls = reader.neighbours(ask, ["calls"], incoming=False)
        assert calls == [("zoo.py::feed", "zoo.py::groom", "calls", Resolution.RESOLVED)]
        assert list(reader.get_symbols(["zoo.py::groom", "zoo.py::brush"])) == ["zoo.py::groom"]
        # the new state's first ask goes to SQLite: it has cost nothing yet
        assert reader._adjacency.held is None
        reader._adjacency.read_seconds = 0.0  # as if reading them had been free: read at once
        assert reader.neighbours(ask, ["calls"], incoming=False) == calls
        assert reader._adjacency.held is not None

        # a rebuild publishes a new generation: this store reads the old one until it
        # follows the new one; its edges are those of the file it reads
        (root / "zoo.py").write_text("def feed():\n    brush()\n\ndef brush():\n    pass\n")
        index_repository(root, jobs=1, embedder="none", rebuild=True)
        assert reader.neighbours(ask, ["calls"], incoming=False) == calls
        assert reader.reopen_if_replaced()
        assert reader._adjacency.held is None
        reader._adjacency.read_seconds = 0.0
        moved = reader.neighbours(ask, ["calls"], incoming=False)
        assert moved == [("zoo.py::feed", "zoo.py::brush", "calls", Resolution.RESOLVED)]
        assert list(reader.get_symbols(["zoo.py::groom", "zoo.py::brush"])) == ["zoo.py::brush"]
        assert reader._adjacency.held is not None
        assert moved == reader._neighbours_sql(list(ask), ["calls"], incoming=False)
    finally:
        reader.close()


def _every_symbol(store: SqliteStore) -> dict[str, Symbol]:
    """Every symbol of the store's state, as its SQL query reads them."""
    return {r[0]: _symbol_from_row(r) for r in store._db.execute(_SYMBOL_SELECT)}


def _update(path: str, callee: str) -> IndexUpdate:
    """``run`` calls ``callee``, proven, and ``guess``, by name only."""
    names = ("run", callee, "guess")
    symbols = tuple(Symbol(f"{path}::{n}", "function", n, n, path, 1, 2, path) for n in names)
    edges = (
        Edge(f"{path}::run", f"{path}::{callee}", EdgeKind.CALLS, path, 1, 0),
        Edge(f"{path}::run", f"{path}::guess", EdgeKind.CALLS, path, 2, 0, Resolution.NAME),
    )
    return IndexUpdate(symbols_for=(path,), symbols=symbols, edges_for=(path,), edges=edges)


def test_this_stores_own_writes_are_seen(tmp_path: Path) -> None:
    """A write through this connection leaves data_version as it is; the store counts it."""
    store = SqliteStore(tmp_path / ".astrag")
    store.open()
    try:
        store.apply(_update("a.py", "walk"))
        warm(store)
        assert store.neighbours(["a.py::run"], ["calls"], incoming=False) == [
            ("a.py::run", "a.py::walk", "calls", Resolution.RESOLVED),
            ("a.py::run", "a.py::guess", "calls", Resolution.NAME),
        ]
        assert set(store.get_symbols(["a.py::walk", "a.py::jump"])) == {"a.py::walk"}
        store.apply(_update("a.py", "jump"))
        assert store._adjacency.held is None
        assert set(store.get_symbols(["a.py::walk", "a.py::jump"])) == {"a.py::jump"}
        expected = [
            ("a.py::run", "a.py::jump", "calls", Resolution.RESOLVED),
            ("a.py::run", "a.py::guess", "calls", Resolution.NAME),
        ]
        assert store.neighbours(["a.py::run"], ["calls"], incoming=False) == expected
        store._adjacency.read_seconds = 0.0
        assert store.neighbours(["a.py::run"], ["calls"], incoming=False) == expected
        assert store._adjacency.held is not None
    finally:
        store.close()


def test_a_process_that_only_searches_keeps_symbols_and_sees_a_change(
    indexed: Path, tmp_path: Path
) -> None:
    """The symbols are kept while the search postings are held too, for their state."""
    root = tmp_path / "copy"
    shutil.copytree(indexed, root)
    (root / "zoo.py").write_text("def feed():\n    pass\n")
    index_repository(root, jobs=1, embedder="none")
    reader = SqliteStore(root / ".astrag", readonly=True)
    reader.open()
    keys = ["zoo.py::feed", "zoo.py::groom"]
    try:
        reader.search_text(["feed"], FIELD_WEIGHTS, 5)
        assert reader._seen_symbols() is None  # a process that searches once keeps nothing
        reader.search_text(["feed"], FIELD_WEIGHTS, 5)
        assert reader._postings.held is not None and reader._adjacency.held is None
        # every symbol of the state is kept, read with the postings: asked without SQL
        assert reader._seen_symbols() == _every_symbol(reader)
        asked: list[str] = []
        reader._db.set_trace_callback(asked.append)
        first = reader.get_symbols(keys)
        assert list(first) == ["zoo.py::feed"]
        assert reader.get_symbols(keys[::-1]) == first
        reader._db.set_trace_callback(None)
        assert not [a for a in asked if "SELECT" in a]
        (root / "zoo.py").write_text("def feed():\n    groom()\n\ndef groom():\n    pass\n")
        index_repository(root, jobs=1, embedder="none")  # another connection commits
        assert reader._seen_symbols() is None  # the postings held are of the old state
        after = reader.get_symbols(keys)
        assert list(after) == keys and after["zoo.py::feed"].end_line == 2
        reader._postings.read_seconds = 0.0  # as if reading them had been free: read at once
        reader.search_text(["feed"], FIELD_WEIGHTS, 5)
        assert reader._postings.held is not None
        assert reader._seen_symbols() == _every_symbol(reader)  # the new state's
        assert reader.get_symbols(keys) == after
    finally:
        reader.close()
