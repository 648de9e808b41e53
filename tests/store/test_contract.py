"""What every index store promises, checked on SQLite and on a real PostgreSQL server.

Same inputs, same answers: each test runs on both stores (``store_url`` from tests/conftest.py),
and the crash and concurrency tests use real processes killed with SIGKILL and real second
connections, because that is how an index run dies and how readers meet it.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from test_store_sqlite import (
    base_update,
    full_facts,
    placeholder,
    read_line,
    record,
    snapshot_of,
    sym,
)

import astrag
from astrag.config import Config
from astrag.graph.facts import DefKind, Edge, EdgeKind, RefKind, Resolution
from astrag.search.documents import SearchDoc
from astrag.store import GraphStore, IndexLocked, IndexUpdate
from astrag.store.depends import encode_ids, number, numbering
from astrag.store.open import make_store
from astrag.store.postgres import SCHEMA_VERSION as POSTGRES_VERSION
from astrag.store.sqlite import SCHEMA_VERSION as SQLITE_VERSION

SRC_DIR = str(Path(astrag.__file__).resolve().parent.parent)
WEIGHTS = (10.0, 4.0, 2.0, 2.0, 3.0)


def new_store(root: Path, url: str, *, readonly: bool = False) -> GraphStore:
    return make_store(root, Config(), readonly=readonly, url=url or "sqlite")


@pytest.fixture
def store(tmp_path: Path, store_url: str) -> Iterator[GraphStore]:
    s = new_store(tmp_path, store_url)
    s.open()
    yield s
    s.close()


def doc(sid: str, name: str, body: str = "", docstring: str = "") -> SearchDoc:
    path = sid.split("::")[0]
    return SearchDoc(sid, path, name, f"{name} {path}", "", docstring, body, f"text of {sid}")


# ---------------------------------------------------------------------------- round trips


def test_every_field_round_trips(tmp_path: Path, store_url: str) -> None:
    facts = full_facts("src/a.py")
    symbol = dataclasses.replace(
        sym("src/a.py", "A.f", "method"),
        signature="def f(self)", docstring="Doc ✓", decorators=("property", "x\ny"),
        exported=False, visibility="protected", modifiers=("static",),
    )  # fmt: skip
    # A field left at its default would round-trip even if a store dropped it: guard the inputs.
    exercised = (facts, *facts.definitions, facts.definitions[0].params[1], *facts.references)
    for obj in (*exercised, *facts.imports, *facts.bindings, symbol):
        for f in dataclasses.fields(obj):
            default = f.default if f.default is not dataclasses.MISSING else object()
            assert getattr(obj, f.name) != default, f"{type(obj).__name__}.{f.name} not exercised"
    edge = Edge(symbol.id, "external::os.path.join", EdgeKind.CALLS, "src/a.py", 7, 12, "name")
    update = IndexUpdate(
        files=((record("src/a.py"), facts),),
        symbols=(symbol,),
        edges=(edge,),
        placeholders=(placeholder("os.path.join"),),
    )
    with new_store(tmp_path, store_url) as writer:  # type: ignore[attr-defined]
        writer.apply(update)
    with new_store(tmp_path, store_url, readonly=True) as reader:  # type: ignore[attr-defined]
        assert reader.file_records() == {"src/a.py": record("src/a.py")}
        loaded = reader.load_facts(["src/a.py", "nope.py"])
        assert loaded == {"src/a.py": facts}
        # StrEnum members compare equal to plain strings, so == alone would not catch a decoder
        # that hands back str; callers dispatch on the enum type.
        assert type(loaded["src/a.py"].definitions[0].kind) is DefKind
        assert type(loaded["src/a.py"].references[0].kind) is RefKind
        assert hash(loaded["src/a.py"]) == hash(facts)  # hashable all the way down, as built
        assert reader.get_symbol(symbol.id) == symbol
        assert reader.all_edges() == [edge]
        assert type(reader.all_edges()[0].kind) is EdgeKind
        assert type(reader.all_edges()[0].resolution) is Resolution
        assert reader.edges_from([symbol.id]) == [edge]
        assert reader.get_symbol("external::os.path.join") == placeholder("os.path.join")


def test_store_satisfies_protocol(store: GraphStore) -> None:
    assert isinstance(store, GraphStore)


def test_queries_and_counts(store: GraphStore, store_url: str) -> None:
    update = base_update()
    store.apply(update)
    a_f, b_g = update.symbols
    assert store.symbols_named("g") == [b_g]
    assert store.symbols_by_qualname("f") == [a_f]
    assert store.symbols_in_file("a.py") == [a_f]
    assert store.get_symbol("missing::x") is None
    assert [e.target for e in store.edges_from([a_f.id])] == [b_g.id, "external::os.getcwd"]
    assert store.edges_from([b_g.id], kinds=[EdgeKind.REFERENCES]) == [update.edges[3]]
    assert store.edges_to([b_g.id, "external::json"]) == [update.edges[0], update.edges[3]]
    assert store.edges_to([b_g.id], kinds=["inherits"]) == []
    assert store.neighbours([a_f.id], ["calls"], incoming=False) == [
        (a_f.id, b_g.id, "calls", "resolved")
    ]
    assert store.get_symbols([b_g.id, "nope", a_f.id]) == {a_f.id: a_f, b_g.id: b_g}
    assert store.meta()["repo"] == "demo"
    # each store's own: SQLite's went to 4 with its dependency sets as ids
    assert store.schema_version() == (POSTGRES_VERSION if store_url else SQLITE_VERSION)
    assert store.counts() == {
        "files": 2,
        "lines": 84,
        "parse_errors": 4,
        "files_with_errors": 2,
        "symbols": {"function": 2},
        "placeholders": {"external": 2, "unresolved": 1},
        "edges": {"calls": 3, "references": 1},
        "calls": {"resolved": 1, "external": 1, "unresolved": 1},
        "languages": {"python": 2},
    }


def test_name_matched_edges_are_kept_and_counted_apart(store: GraphStore) -> None:
    a_f, b_g = sym("a.py", "f"), sym("b.py", "g")
    edges = (
        Edge(a_f.id, b_g.id, EdgeKind.CALLS, "a.py", 3, 5, Resolution.NAME),
        Edge(b_g.id, a_f.id, EdgeKind.CALLS, "b.py", 2, 1),
    )
    store.apply(IndexUpdate(symbols=(a_f, b_g), edges=edges))
    assert store.all_edges() == list(edges)
    assert store.edges_to([b_g.id])[0].resolution is Resolution.NAME
    assert store.neighbours([b_g.id], ["calls"], incoming=True) == [
        (b_g.id, a_f.id, "calls", Resolution.NAME)
    ]
    assert store.counts()["calls"] == {"name": 1, "resolved": 1}
    assert store.calls_by_file() == {"a.py": {"name": 1}, "b.py": {"resolved": 1}}


def test_edges_given_as_rows_are_written_as_the_same_edges(store: GraphStore) -> None:
    """``edge_rows`` (the resolver process's rows, kind and resolution as text) replace a file's
    edges as ``edges`` do, beside them in one update, and count alike."""
    a_f, b_g = sym("a.py", "f"), sym("b.py", "g")
    store.apply(IndexUpdate(symbols=(a_f, b_g)))
    old = Edge(a_f.id, a_f.id, EdgeKind.CALLS, "a.py", 1, 1)  # replaced by the rows below
    store.apply(IndexUpdate(edges_for=("a.py",), edges=(old,)))
    store.apply(
        IndexUpdate(
            edges_for=("a.py", "b.py"),
            edges=(Edge(b_g.id, a_f.id, EdgeKind.CALLS, "b.py", 2, 1),),
            edge_rows=(
                (a_f.id, b_g.id, "calls", "a.py", 3, 5, "name"),
                (a_f.id, "external::os.getcwd", "calls", "a.py", 4, 9, "resolved"),
                (a_f.id, b_g.id, "references", "a.py", 6, 0, "resolved"),
            ),
            placeholders=(placeholder("os.getcwd"),),
        )
    )
    assert sorted(store.all_edges()) == sorted(
        [
            Edge(b_g.id, a_f.id, EdgeKind.CALLS, "b.py", 2, 1),
            Edge(a_f.id, b_g.id, EdgeKind.CALLS, "a.py", 3, 5, Resolution.NAME),
            Edge(a_f.id, "external::os.getcwd", EdgeKind.CALLS, "a.py", 4, 9),
            Edge(a_f.id, b_g.id, EdgeKind.REFERENCES, "a.py", 6, 0),
        ]
    )
    counts = store.counts()
    assert counts["calls"] == {"name": 1, "resolved": 1, "external": 1}
    assert counts["edges"] == {"calls": 3, "references": 1}
    assert store.calls_by_file() == {"a.py": {"name": 1, "external": 1}, "b.py": {"resolved": 1}}


def test_many_ids_are_chunked(store: GraphStore) -> None:
    symbols = tuple(sym("big.py", f"f{i}") for i in range(1300))
    edges = tuple(
        Edge(s.id, symbols[0].id, EdgeKind.CALLS, "big.py", i, 1) for i, s in enumerate(symbols)
    )
    store.apply(IndexUpdate(symbols=symbols, edges=edges))
    assert len(store.edges_from([s.id for s in symbols])) == 1300
    assert len(store.edges_to([symbols[0].id, *(f"nope{i}" for i in range(999))])) == 1300
    assert len(store.get_symbols(s.id for s in symbols)) == 1300


# ---------------------------------------------------------------------------- apply semantics


def test_removed_file_takes_everything_it_owns(store: GraphStore) -> None:
    store.apply(base_update())
    store.apply(
        IndexUpdate(
            removed=("b.py",),
            edges_for=("a.py",),
            edges=(Edge("a.py::f", "external::os.getcwd", EdgeKind.CALLS, "a.py", 4, 1),),
            depends={"a.py": frozenset()},
        )
    )
    assert set(store.file_records()) == {"a.py"}
    assert set(store.load_facts()) == {"a.py"}
    assert store.symbols_in_file("b.py") == []
    assert {s.id for s in store.all_symbols()} == {"a.py::f", "external::os.getcwd"}
    assert [e.path for e in store.all_edges()] == ["a.py"]
    # json and frob were only targeted by b.py's edges: collected; os.getcwd is still used.
    assert store.get_symbol("external::json") is None
    assert store.get_symbol("unresolved::frob") is None
    assert store.dependents(["b.py"]) == set()
    assert store.counts()["placeholders"] == {"external": 1}


def test_dependents_and_upserts(store: GraphStore) -> None:
    store.apply(
        IndexUpdate(
            depends={
                "a.py": frozenset({"b.py", "c.py"}),
                "b.py": frozenset({"c.py"}),
                "d.py": frozenset({"a.py"}),
            }
        )
    )
    assert store.dependents(["c.py"]) == {"a.py", "b.py"}
    assert store.dependents(["a.py", "b.py"]) == {"a.py", "d.py"}
    assert store.dependents([]) == set()
    store.apply(IndexUpdate(depends={"a.py": frozenset({"b.py"})}))  # replaces a.py's rows only
    assert store.dependents(["c.py"]) == {"b.py"}

    store.apply(base_update())
    new_g = dataclasses.replace(sym("b.py", "g"), start_line=10, end_line=20)
    store.apply(IndexUpdate(symbols_for=("b.py",), symbols=(new_g,)))
    # a.py was not re-resolved; its edge into b.py must still resolve to the new symbol.
    assert [e.source for e in store.edges_to(["b.py::g"], kinds=["calls"])] == ["a.py::f"]
    assert store.get_symbol("b.py::g") == new_g
    assert len(store.all_edges()) == 4

    store.apply(IndexUpdate(removed=("b.py",)))
    assert store.dependents(["b.py"]) == {"a.py"}  # how the indexer finds what to re-resolve
    assert store.get_symbol("external::json") is None  # b.py's edges went, so did its targets
    facts = dataclasses.replace(full_facts("a.py"), lines=7, references=())
    store.apply(IndexUpdate(files=((record("a.py", "h2"), facts),)))
    assert store.file_records()["a.py"].hash == "h2"
    assert store.load_facts(["a.py"]) == {"a.py": facts}


def test_dependency_sets_given_as_ids_read_back_as_paths(store: GraphStore) -> None:
    """The cold run's resolver process sends each set as ids of its numbering of the paths
    (store/depends.py); a store answers as if it had been given the paths, whether its own
    ids are the sender's (written from nothing) or not (a later update's numbering)."""
    paths = numbering(["lib/ü.py", "c.py", "a.py", "b.py", "c.py"])
    assert paths == ("a.py", "b.py", "c.py", "lib/ü.py")
    ids = number(paths)
    store.apply(
        IndexUpdate(
            depends={
                "a.py": encode_ids([ids["b.py"], ids["lib/ü.py"]]),
                "b.py": encode_ids([]),
                "d.py": frozenset({"c.py"}),  # given as paths beside them
            },
            depends_paths=paths,
        )
    )
    assert store.all_depends() == {
        "a.py": frozenset({"b.py", "lib/ü.py"}),
        "b.py": frozenset(),
        "d.py": frozenset({"c.py"}),
    }
    assert store.dependents(["lib/ü.py"]) == {"a.py"}
    assert store.dependents(["c.py", "b.py"]) == {"a.py", "d.py"}
    later = numbering(["b.py", "e.py", "lib/ü.py"])
    ids = number(later)
    store.apply(
        IndexUpdate(
            depends={"c.py": encode_ids([ids["e.py"], ids["lib/ü.py"]])}, depends_paths=later
        )
    )
    assert store.all_depends()["c.py"] == frozenset({"e.py", "lib/ü.py"})
    assert store.dependents(["e.py"]) == {"c.py"}
    assert store.dependents(["lib/ü.py"]) == {"a.py", "c.py"}
    assert store.dependents(["b.py"]) == {"a.py"}


def test_reserved_meta_and_failed_apply_roll_back(store: GraphStore) -> None:
    store.apply(base_update())
    before = snapshot_of(store)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="schema_version"):
        store.apply(IndexUpdate(meta={"schema_version": "9"}))
    bad = IndexUpdate(removed=("a.py",), files=((record("x.py"), full_facts("y.py")),))
    with pytest.raises(ValueError, match="paired with facts"):
        store.apply(bad)

    def fails_midway() -> Iterator[IndexUpdate]:
        yield IndexUpdate(removed=("b.py",))
        raise RuntimeError("resolver crashed")

    with pytest.raises(RuntimeError, match="resolver crashed"):
        store.apply(IndexUpdate(removed=("a.py",)), then=fails_midway)
    assert snapshot_of(store) == before  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- search data


def test_lexical_search_and_vectors(store: GraphStore) -> None:
    docs = (
        doc("a.py::get_user_by_id", "get user by id getuserbyid", "fetch users database rows"),
        doc("a.py::save_user", "save user saveuser", "write users", "Stores the user's row."),
        doc("b.py::parse", "parse", "tokens syntax users", "Ünïcode prose, users and more"),
    )
    symbols = tuple(sym(d.path, d.id.split("::")[1]) for d in docs)
    store.apply(IndexUpdate(symbols=symbols, docs_for=("a.py", "b.py"), docs=docs))
    found = store.search_text(["user", "users", "database"], WEIGHTS, 10)
    assert [sid for sid, _ in found] == ["a.py::get_user_by_id", "a.py::save_user", "b.py::parse"]
    assert store.search_text(["unicode"], WEIGHTS, 10) == store.search_text(["unicod"], WEIGHTS, 5)
    assert store.search_text(["nothing"], WEIGHTS, 10) == []
    texts = store.texts_without_vectors()
    assert sorted(h for h, _ in texts) == sorted({d.hash for d in docs})
    vectors = {h: np.arange(8, dtype=np.float16) * (i + 1) for i, (h, _) in enumerate(texts)}
    store.put_vectors([(h, v.tobytes()) for h, v in vectors.items()], meta={"embedder": "t"})
    ids, blobs = store.vectors()
    assert sorted(ids) == sorted(d.id for d in docs)
    by_hash = {d.id: vectors[d.hash].tobytes() for d in docs}
    assert dict(zip(ids, blobs, strict=True)) == by_hash
    assert store.texts_without_vectors() == []
    assert store.meta()["embedder"] == "t"


def test_texts_without_vectors_among_given_hashes(store: GraphStore) -> None:
    docs = tuple(doc(f"a.py::f{i}", f"f{i}", f"body words {i}") for i in range(4))
    store.apply(IndexUpdate(symbols=tuple(sym(d.path, d.id.split("::")[1]) for d in docs),
                            docs_for=("a.py",), docs=docs))  # fmt: skip
    hashes = [d.hash for d in docs]
    store.put_vectors([(hashes[0], bytes(16))], meta={"embedder": "t"})
    # only the texts asked about, each once, and only those still without a vector
    assert store.texts_without_vectors([hashes[0], hashes[2], hashes[2]]) == [
        (hashes[2], docs[2].text)
    ]
    assert store.texts_without_vectors(["no-such-hash"]) == []
    assert store.texts_without_vectors([]) == []
    assert sorted(store.texts_without_vectors()) == sorted(
        (h, d.text) for h, d in zip(hashes[1:], docs[1:], strict=True)
    )


def test_vector_hashes_are_those_of_the_given_hashes_with_a_vector(store: GraphStore) -> None:
    docs = tuple(doc(f"a.py::f{i}", f"f{i}", f"body words {i}") for i in range(3))
    store.apply(IndexUpdate(symbols=tuple(sym(d.path, d.id.split("::")[1]) for d in docs),
                            docs_for=("a.py",), docs=docs))  # fmt: skip
    hashes = [d.hash for d in docs]
    store.put_vectors([(h, bytes(16)) for h in hashes[:2]], meta={"embedder": "t"})
    assert store.vector_hashes([hashes[0], hashes[2], hashes[0]]) == {hashes[0]}
    assert store.vector_hashes([hashes[2], "no-such-hash"]) == set()
    assert store.vector_hashes([]) == set()


def test_a_vector_no_document_uses_is_dropped_by_the_next_put(store: GraphStore) -> None:
    docs = tuple(doc(f"a.py::f{i}", f"f{i}", f"body words {i}") for i in range(2))
    store.apply(IndexUpdate(symbols=tuple(sym(d.path, d.id.split("::")[1]) for d in docs),
                            docs_for=("a.py",), docs=docs))  # fmt: skip
    hashes = [d.hash for d in docs]
    store.put_vectors([(hashes[0], bytes(16)), ("orphan", bytes(16))], meta={"embedder": "t"})
    assert store.vector_hashes([hashes[0], "orphan"]) == {hashes[0]}
    store.apply(IndexUpdate(docs_for=("a.py",), docs=docs[1:]))  # f0's text goes
    assert store.vector_hashes([hashes[0]]) == {hashes[0]}  # kept until the next put
    store.put_vectors([(hashes[1], bytes(16))], meta={"embedder": "t"})
    assert store.vector_hashes(hashes) == {hashes[1]}


def test_lexical_ranking_is_identical_on_both_stores(tmp_path: Path, pg_url: str) -> None:
    words = "user users id database row parse token write store get save name".split()
    docs = tuple(
        doc(f"m{i % 7}.py::f{i}", " ".join(words[i % 5 : i % 5 + 2]),
            " ".join(words[(i * 3) % 9 : (i * 3) % 9 + 1 + i % 4]), "users " * (i % 3))
        for i in range(120)
    )  # fmt: skip
    update = IndexUpdate(
        symbols=tuple(sym(d.path, d.id.split("::")[1]) for d in docs),
        docs_for=tuple(sorted({d.path for d in docs})),
        docs=docs,
    )
    results = []
    for url in ("", pg_url):
        with new_store(tmp_path / (url and "pg"), url) as s:  # type: ignore[attr-defined]
            s.apply(update)
            results.append(
                [s.search_text(q, WEIGHTS, 50) for q in (["user"], ["get", "users", "row"],
                                                        ["store", "name", "parse", "id"])]
            )  # fmt: skip
    assert results[0] == results[1]  # same ids, same order, same float scores to the bit
    assert all(len(r) > 5 for r in results[0])


# ---------------------------------------------------------------------------- concurrency


def test_readers_see_the_old_index_until_the_commit(tmp_path: Path, store_url: str) -> None:
    writer = new_store(tmp_path, store_url)
    writer.open()
    writer.apply(base_update())
    reader = new_store(tmp_path, store_url, readonly=True)
    reader.open()
    old = snapshot_of(reader)  # type: ignore[arg-type]
    seen = []

    def edges() -> Iterator[IndexUpdate]:
        new_symbols = tuple(sym("c.py", f"f{i}") for i in range(300))
        yield IndexUpdate(symbols=new_symbols)
        seen.append(snapshot_of(reader))  # type: ignore[arg-type]
        yield IndexUpdate(
            edges_for=("c.py",),
            edges=tuple(
                Edge(s.id, "external::os.getcwd", EdgeKind.CALLS, "c.py", i, 1)
                for i, s in enumerate(new_symbols)
            ),
        )
        seen.append(snapshot_of(reader))  # type: ignore[arg-type]

    writer.apply(IndexUpdate(removed=("b.py",)), then=edges)
    assert seen == [old, old]
    assert set(reader.file_records()) == {"a.py"}
    assert len(reader.edges_to(["external::os.getcwd"])) == 301
    reader.close()
    writer.close()


def test_a_rebuild_is_written_aside_and_swapped_in_whole(tmp_path: Path, store_url: str) -> None:
    writer = new_store(tmp_path, store_url)
    with writer:  # type: ignore[attr-defined]
        writer.apply(base_update())
        before = snapshot_of(writer)  # type: ignore[arg-type]
        reader = new_store(tmp_path, store_url, readonly=True)
        reader.open()  # a reader holding a connection when the swap happens
        with writer.acquire_writer():
            writer.start_fresh()
            assert writer.file_records() == {}  # the writer sees its own fresh start
            writer.apply(IndexUpdate(symbols=(sym("new.py", "n"),)))
            assert snapshot_of(reader) == before  # type: ignore[arg-type]
            late = new_store(tmp_path, store_url, readonly=True)
            with late:  # type: ignore[attr-defined]
                assert snapshot_of(late) == before  # type: ignore[arg-type]
            writer.publish()
        assert snapshot_of(reader) == before  # type: ignore[arg-type]  # still whole
        assert reader.reopen_if_replaced() is True
        assert [s.id for s in reader.all_symbols()] == ["new.py::n"]
        assert reader.reopen_if_replaced() is False
        with writer.acquire_writer():
            writer.start_fresh()  # a rebuild that never publishes (a run that failed)
            writer.apply(IndexUpdate(symbols=(sym("lost.py", "x"),)))
        assert [s.id for s in reader.all_symbols()] == ["new.py::n"]
        reader.close()
    with new_store(tmp_path, store_url, readonly=True) as again:  # type: ignore[attr-defined]
        assert [s.id for s in again.all_symbols()] == ["new.py::n"]


def test_second_writer_is_refused_at_once(tmp_path: Path, store_url: str) -> None:
    first, second = new_store(tmp_path, store_url), new_store(tmp_path, store_url)
    with first.acquire_writer():
        with pytest.raises(IndexLocked) as err, second.acquire_writer():
            pass
        assert f"pid {os.getpid()}" in str(err.value)
        assert err.value.hint
        with first.acquire_writer():  # re-entrant for the holder
            pass
    with second.acquire_writer():
        pass
    first.close()
    second.close()


CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from astrag.config import Config
    from astrag.graph.facts import Edge, EdgeKind, Symbol
    from astrag.store import IndexUpdate
    from astrag.store.open import make_store

    root, url = Path(sys.argv[1]), sys.argv[2]
    paths = [f"gen/m{i}.py" for i in range(100)]
    symbols = tuple(
        Symbol(f"{p}::f{i}", "function", f"f{i}", f"f{i}", p) for p in paths for i in range(50)
    )
    store = make_store(root, Config(), readonly=False, url=url)
    def rest():
        yield IndexUpdate(
            edges_for=tuple(paths),
            edges=tuple(Edge(s.id, symbols[0].id, EdgeKind.CALLS, s.path, 1, 1) for s in symbols),
        )
        print("MID", flush=True)
        time.sleep(600)
    with store.acquire_writer():
        store.open()
        print("LOCKED", flush=True)
        store.apply(IndexUpdate(removed=("b.py",), symbols=symbols), then=rest)
    print("FINISHED", flush=True)
    """
)


def test_sigkill_mid_apply_leaves_previous_index_and_frees_lock(
    tmp_path: Path, store_url: str
) -> None:
    with new_store(tmp_path, store_url) as s:  # type: ignore[attr-defined]
        s.apply(base_update())
        before = snapshot_of(s)
    env = {**os.environ, "PYTHONPATH": SRC_DIR}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), store_url or "sqlite"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert read_line(proc) == "LOCKED"
        assert read_line(proc) == "MID", "child never reached the middle of apply"
        with (
            pytest.raises(IndexLocked, match=f"pid {proc.pid}"),
            new_store(tmp_path, store_url).acquire_writer(),
        ):
            pass
        with new_store(tmp_path, store_url, readonly=True) as reader:  # type: ignore[attr-defined]
            assert snapshot_of(reader) == before  # 5000 symbols written, none visible
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # A reader that opens after the crash (SQLite: recovers the WAL) sees the previous index.
    with new_store(tmp_path, store_url, readonly=True) as reader:  # type: ignore[attr-defined]
        assert snapshot_of(reader) == before
    after = new_store(tmp_path, store_url)
    deadline = 50
    while True:  # the server notices the dead client's socket at once; allow it a moment
        try:
            with after.acquire_writer():
                after.open()
                assert snapshot_of(after) == before  # type: ignore[arg-type]
                after.apply(IndexUpdate(removed=("b.py",)))
                assert set(after.file_records()) == {"a.py"}
            break
        except IndexLocked:
            deadline -= 1
            assert deadline, "the killed writer's lock was never released"
            import time

            time.sleep(0.1)
    after.close()
