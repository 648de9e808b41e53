"""What only the SQLite store has to get right: its file's format and versions, garbage, foreign
or damaged files, and WAL snapshots that hold while a writer's uncommitted pages are on disk.

What every store promises (round trips, queries, update semantics, the writer lock, a SIGKILL
mid-apply) is checked on SQLite and PostgreSQL alike in tests/store/test_contract.py, which
builds its inputs with the builders below (as does tests/store/test_postgres.py).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import astrag
from astrag.graph.facts import (
    Binding,
    Definition,
    DefKind,
    Edge,
    EdgeKind,
    FileFacts,
    Import,
    Param,
    Reference,
    RefKind,
    Resolution,
    Symbol,
)
from astrag.store import (
    SCHEMA_VERSION,
    FileRecord,
    IndexCorrupt,
    IndexIncompatible,
    IndexMissing,
    IndexOutdated,
    IndexUpdate,
    SqliteStore,
    StoreError,
)
from astrag.store.codec import encode_depends
from astrag.store.depends import decode_ids
from astrag.store.index_dir import claim as claim_dir

SRC_DIR = str(Path(astrag.__file__).resolve().parent.parent)


# ---------------------------------------------------------------------------- builders


def full_facts(path: str) -> FileFacts:
    """Facts where every field of every class differs from its default."""
    definition = Definition(
        kind=DefKind.METHOD,
        name="login",
        qualname="AuthService.login",
        parent="AuthService",
        start_line=3,
        end_line=9,
        start_byte=40,
        end_byte=200,
        signature="async def login(self, user: User, *, remember=True) -> Session",
        docstring="Log a user in.\nWith a second line: ünïcode ✓",
        decorators=("staticmethod", 'app.route(\n  "/x")'),
        exported=False,
        visibility="private",
        modifiers=("async", "static"),
        bases=(("base", "Base"), ("Mixin",)),
        implements=(("IAuth",),),
        params=(
            Param("self"),
            Param("user", ("models", "User"), True, "positional_only"),
            Param("remember", None, True, "keyword_only"),
        ),
        returns=("Session",),
        type=("int",),
        value=("make_app()", "run"),
    )
    return FileFacts(
        path=path,
        language="python",
        lines=42,
        errors=2,
        definitions=(definition,),
        references=(
            Reference(
                RefKind.CALL, ("self", "db", "get()"), "A.f", 7, 12, 2, ("k",), (("x",), None)
            ),
        ),
        imports=(Import("m.sub", "f", "g", 1, 2, "A.f", True, True),),
        bindings=(Binding("A.f", "x", 5, ("int",), ("y",), (4, 6)),),
        exports=(("a", "default"),),
        docstring="Module doc.",
        all_names=("login",),
    )


def record(path: str, digest: str = "h1") -> FileRecord:
    return FileRecord(path, "python", digest, 123, 456_789, 42, 2, note="big file")


def sym(path: str, qualname: str, kind: str = "function") -> Symbol:
    return Symbol(
        id=f"{path}::{qualname}",
        kind=kind,
        name=qualname.rsplit(".", 1)[-1],
        qualname=qualname,
        path=path,
        start_line=1,
        end_line=2,
        parent=path,
        language="python",
    )


def placeholder(name: str, kind: str = "external") -> Symbol:
    return Symbol(
        id=f"{kind}::{name}", kind=kind, name=name.rsplit(".", 1)[-1], qualname=name, path=""
    )


def base_update() -> IndexUpdate:
    """a.py calls b.py's g and os.getcwd; b.py calls an unresolved name and reads json."""
    a_f, b_g = sym("a.py", "f"), sym("b.py", "g")
    return IndexUpdate(
        files=((record("a.py"), full_facts("a.py")), (record("b.py"), full_facts("b.py"))),
        symbols_for=("a.py", "b.py"),
        symbols=(a_f, b_g),
        edges_for=("a.py", "b.py"),
        edges=(
            Edge(a_f.id, b_g.id, EdgeKind.CALLS, "a.py", 3, 5),
            Edge(a_f.id, "external::os.getcwd", EdgeKind.CALLS, "a.py", 4, 1),
            Edge(b_g.id, "unresolved::frob", EdgeKind.CALLS, "b.py", 2, 9),
            Edge(b_g.id, "external::json", EdgeKind.REFERENCES, "b.py", 2, 1),
        ),
        placeholders=(
            placeholder("os.getcwd"),
            placeholder("frob", "unresolved"),
            placeholder("json"),
        ),
        depends={"a.py": frozenset({"b.py"}), "b.py": frozenset()},
        meta={"repo": "demo"},
    )


def snapshot_of(store: SqliteStore) -> tuple[object, ...]:
    with store.snapshot():
        return (
            store.file_records(),
            store.load_facts(),
            store.all_symbols(),
            store.all_edges(),
            store.counts(),
            store.meta(),
        )


@pytest.fixture
def store(empty_store: SqliteStore) -> SqliteStore:
    return empty_store


# ---------------------------------------------------------------------------- opening


def test_newer_schema_is_incompatible(tmp_path: Path) -> None:
    SqliteStore(tmp_path).open()
    with sqlite3.connect(tmp_path / "index.db") as raw:
        raw.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(99),))
    for readonly in (False, True):
        with pytest.raises(IndexIncompatible) as err:
            SqliteStore(tmp_path, readonly=readonly).open()
        assert "99" in str(err.value) and str(SCHEMA_VERSION) in str(err.value)
        assert "astrag index --rebuild" in err.value.hint
        assert "upgrade astrag" in err.value.hint


def _as_version_3_wrote_it(db: Path) -> None:
    """Rewrite an index as schema version 3 kept it: each dependency set its sorted paths,
    marshalled, and no paths table."""
    with sqlite3.connect(db) as raw:
        path_of = dict(raw.execute("SELECT pid, path FROM paths"))
        rows = raw.execute("SELECT file, deps FROM depends").fetchall()
        raw.executemany(
            "UPDATE depends SET deps = ? WHERE file = ?",
            [(encode_depends(path_of[i] for i in decode_ids(d)), f) for f, d in rows],
        )
        raw.execute("DROP TABLE paths")
        raw.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")


_DEPENDS = {
    "a.py": frozenset({"b.py", "pkg/ü.py"}),
    "b.py": frozenset(),
    "c.py": frozenset({"b.py", "gone.py"}),
}


def test_a_version_2_index_is_upgraded_in_place_by_a_writer(tmp_path: Path) -> None:
    """Version 3 added each edge's resolution; every edge of an older index was resolved."""
    with SqliteStore(tmp_path) as s:
        s.apply(dataclasses.replace(base_update(), depends=_DEPENDS))
        before = snapshot_of(s)
    _as_version_3_wrote_it(tmp_path / "index.db")
    with sqlite3.connect(tmp_path / "index.db") as raw:  # the index as version 2 wrote it
        raw.execute("ALTER TABLE edges DROP COLUMN res")
        raw.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    with pytest.raises(IndexIncompatible) as err:
        SqliteStore(tmp_path, readonly=True).open()  # a reader cannot write the upgrade
    assert err.value.hint == "run `astrag index` to upgrade it in place"
    with SqliteStore(tmp_path) as s:
        assert s.schema_version() == SCHEMA_VERSION
        assert s.notes == [f"upgraded the index from schema version 2 to {SCHEMA_VERSION}"]
        assert snapshot_of(s) == before
        assert s.all_depends() == _DEPENDS
    with SqliteStore(tmp_path, readonly=True) as s:
        assert {e.resolution for e in s.all_edges()} == {"resolved"}


def test_a_version_3_index_gets_its_dependency_sets_as_ids_in_place(tmp_path: Path) -> None:
    """Version 4 keeps each dependency set as ids of the paths table: a writer converts a
    version 3 index's marshalled paths, and every dependents look-up answers as before."""
    with SqliteStore(tmp_path) as s:
        s.apply(dataclasses.replace(base_update(), depends=_DEPENDS))
        before = snapshot_of(s)
    _as_version_3_wrote_it(tmp_path / "index.db")
    with pytest.raises(IndexIncompatible) as err:
        SqliteStore(tmp_path, readonly=True).open()
    assert "schema version 3, older than version 4" in str(err.value)
    assert err.value.hint == "run `astrag index` to upgrade it in place"
    with SqliteStore(tmp_path) as s:
        assert s.notes == ["upgraded the index from schema version 3 to 4"]
        assert snapshot_of(s) == before
        assert s.all_depends() == _DEPENDS
        assert s.dependents(["b.py"]) == {"a.py", "c.py"}
        assert s.dependents(["gone.py", "pkg/ü.py"]) == {"a.py", "c.py"}
        assert s.dependents(["a.py", "pkg/"]) == set()
        paths = s._db.execute("SELECT pid, path FROM paths ORDER BY pid").fetchall()
        assert paths == [(1, "b.py"), (2, "gone.py"), (3, "pkg/ü.py")]
    with SqliteStore(tmp_path, readonly=True) as s:
        assert s.dependents(["gone.py"]) == {"c.py"}


def test_a_query_upgrades_an_older_index_unless_refreshing_is_off(tmp_path: Path) -> None:
    """A user who installs a newer astrag and asks a question gets the answer: the query's
    refresh writes anyway, so it upgrades the index first; with refreshing off it says what
    to run, and the index stays as it was."""
    from astrag import api

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "a.py").write_text("def f():\n    return g()\n\n\ndef g():\n    return 1\n")
    api.index(tmp_path, jobs=1, embedder="none")
    with api.open_index(tmp_path) as idx:
        db = idx.store.db_path
    _as_version_3_wrote_it(db)
    with pytest.raises(IndexOutdated) as err:
        api.open_fresh(tmp_path, refresh=False)
    assert err.value.hint == "run `astrag index` to upgrade it in place"
    idx, _ = api.open_fresh(tmp_path)
    with idx:
        assert idx.store.schema_version() == SCHEMA_VERSION
        assert [r.symbol.qualname for r in idx.callers(idx.resolve("g").id)] == ["f"]


def test_a_version_3_index_with_an_unreadable_dependency_set_is_rebuilt_not_crashed_on(
    tmp_path: Path,
) -> None:
    with SqliteStore(tmp_path) as s:
        s.apply(dataclasses.replace(base_update(), depends=_DEPENDS))
    _as_version_3_wrote_it(tmp_path / "index.db")
    with sqlite3.connect(tmp_path / "index.db") as raw:
        raw.execute("UPDATE depends SET deps = x'ff00' WHERE file = 'a.py'")
    with pytest.raises(IndexCorrupt, match="dependency set is unreadable") as err:
        SqliteStore(tmp_path).open()
    assert "astrag index --rebuild" in err.value.hint
    with sqlite3.connect(tmp_path / "index.db") as raw:  # rolled back: left as it was
        assert raw.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
            "3",
        )


def test_changed_facts_format_is_incompatible(tmp_path: Path) -> None:
    SqliteStore(tmp_path).open()
    with sqlite3.connect(tmp_path / "index.db") as raw:
        raw.execute("UPDATE meta SET value = 'marshal4-old' WHERE key = 'facts_format'")
    with pytest.raises(IndexIncompatible, match="marshal4-old"):
        SqliteStore(tmp_path).open()


@pytest.mark.parametrize("readonly", [False, True])
def test_garbage_file_is_corrupt_and_a_fresh_generation_recovers(
    tmp_path: Path, readonly: bool
) -> None:
    claim_dir(tmp_path)  # astrag's own directory: a broken index in it may be replaced
    (tmp_path / "index.db").write_bytes(b"this is not sqlite at all" * 200)
    with pytest.raises(IndexCorrupt) as err:
        SqliteStore(tmp_path, readonly=readonly).open()
    assert "astrag index --rebuild" in err.value.hint
    assert not isinstance(err.value, sqlite3.Error)
    s = SqliteStore(tmp_path)
    with s.acquire_writer():
        s.start_fresh()
        s.apply(base_update())
        s.publish()
    s.close()
    with SqliteStore(tmp_path, readonly=True) as again:
        assert len(again.all_edges()) == 4
    assert (tmp_path / "index.db").is_symlink()


def test_a_database_astrag_did_not_make_is_never_replaced(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "index.db") as raw:
        raw.execute("CREATE TABLE precious (x)")
    before = (tmp_path / "index.db").read_bytes()
    s = SqliteStore(tmp_path)
    with (
        pytest.raises(StoreError, match="refusing to write an astrag index") as err,
        s.acquire_writer(),
    ):
        pass
    assert "index_dir" in err.value.hint
    assert (tmp_path / "index.db").read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["index.db"]


def test_foreign_database_is_corrupt(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "index.db") as raw:
        raw.execute("CREATE TABLE something_else (x)")
    with pytest.raises(IndexCorrupt, match="missing tables"):
        SqliteStore(tmp_path).open()


def test_damaged_facts_blob_is_corrupt(store: SqliteStore) -> None:
    store.apply(base_update())
    store._db.execute("UPDATE facts SET data = x'00ff00' WHERE path = 'b.py'")
    with pytest.raises(IndexCorrupt, match=r"b\.py"):
        store.load_facts()


def test_readonly_without_index_is_missing(tmp_path: Path) -> None:
    with pytest.raises(IndexMissing) as err:
        SqliteStore(tmp_path / ".astrag", readonly=True).open()
    assert err.value.hint == "run `astrag index`"
    assert not (tmp_path / ".astrag").exists()


# ---------------------------------------------------------------------------- concurrency


def test_reader_sees_old_snapshot_during_write_and_new_after(tmp_path: Path) -> None:
    # The contract looks between the chunks of an apply; this looks inside its statements,
    # while the writer's connection holds 1000+ uncommitted changes.
    with SqliteStore(tmp_path) as writer:
        writer.apply(base_update())
        reader = SqliteStore(tmp_path, readonly=True)
        reader.open()
        old = snapshot_of(reader)
        new_symbols = tuple(sym("c.py", f"f{i}") for i in range(2000))
        big = IndexUpdate(
            removed=("b.py",),
            files=((record("c.py"), full_facts("c.py")),),
            symbols=new_symbols,
            edges=tuple(
                Edge(s.id, "external::os.getcwd", EdgeKind.CALLS, "c.py", i, 1)
                for i, s in enumerate(new_symbols)
            ),
        )
        seen: list[tuple[bool, int, tuple[object, ...]]] = []
        calls = 0

        def observe() -> int:
            # Runs inside the writer's statements, i.e. in the middle of apply's transaction.
            nonlocal calls
            calls += 1
            if calls % 25 == 0:
                conn = writer._db
                seen.append((conn.in_transaction, conn.total_changes, snapshot_of(reader)))
            return 0

        changes_before = writer._db.total_changes
        writer._db.set_progress_handler(observe, 200)
        writer.apply(big)
        writer._db.set_progress_handler(None, 0)
        assert len(seen) > 5
        assert all(in_tx for in_tx, _, _ in seen)
        assert max(changes for _, changes, _ in seen) > changes_before + 1000
        assert all(state == old for _, _, state in seen)
        assert snapshot_of(reader) != old
        assert set(reader.file_records()) == {"a.py", "c.py"}
        assert len(reader.edges_to(["external::os.getcwd"])) == 2001
        reader.close()


CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from astrag.graph.facts import Edge, EdgeKind, Symbol
    from astrag.store import IndexUpdate, SqliteStore

    index_dir, paths = Path(sys.argv[1]), [f"gen/m{i}.py" for i in range(200)]
    symbols = tuple(
        Symbol(f"{p}::f{i}", "function", f"f{i}", f"f{i}", p) for p in paths for i in range(50)
    )
    edges = tuple(
        Edge(s.id, symbols[(i * 7919) % len(symbols)].id, EdgeKind.CALLS, s.path, i, 1)
        for i, s in enumerate(symbols) for _ in range(8)
    )
    update = IndexUpdate(removed=("b.py",), symbols=symbols, edges=edges, edges_for=("a.py",))
    store = SqliteStore(index_dir)
    store.open()
    with store.acquire_writer():
        print("LOCKED", flush=True)
        store._db.execute("PRAGMA cache_size = 20")  # spill uncommitted pages into the WAL
        calls = 0
        def stall():
            global calls
            calls += 1
            if calls == 3000:
                print("MID", flush=True)
                time.sleep(600)
            return 0
        store._db.set_progress_handler(stall, 100)
        store.apply(update)
    print("FINISHED", flush=True)
    """
)


_UNREAD: dict[int, bytes] = {}  # a child's pid -> what its pipe gave past the last line


def read_line(proc: subprocess.Popen[str], timeout: float = 60) -> str:
    """The child's next output line; fails instead of hanging if the child stalls.

    Reads the pipe's bytes itself: a buffered ``readline()`` takes every line already in the
    pipe into its buffer, where a later ``select()`` cannot see them, so a child that printed
    two lines before the parent read the first (a loaded machine) seemed to print nothing more.
    """
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    got = _UNREAD.pop(proc.pid, b"")
    deadline = time.monotonic() + timeout
    while b"\n" not in got:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"child printed nothing for {timeout} s"
        chunk = os.read(fd, 65536)
        if not chunk:  # the child is gone: what it printed last, if anything
            break
        got += chunk
    line, _, _UNREAD[proc.pid] = got.partition(b"\n")
    return line.decode().strip()


def test_sigkill_with_uncommitted_pages_in_the_wal_leaves_previous_index(tmp_path: Path) -> None:
    with SqliteStore(tmp_path) as s:
        s.apply(base_update())
        before = snapshot_of(s)
    env = {**os.environ, "PYTHONPATH": SRC_DIR}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert read_line(proc) == "LOCKED"
        assert read_line(proc) == "MID", "child never reached the middle of apply"
        # Unlike the contract's crash, uncommitted pages are on disk: recovery must skip them.
        assert Path(f"{(tmp_path / 'index.db').resolve()}-wal").stat().st_size > 100_000
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    with SqliteStore(tmp_path, readonly=True) as reader:
        assert snapshot_of(reader) == before
    after_crash = SqliteStore(tmp_path)
    with after_crash.acquire_writer():  # the kernel released the dead child's flock
        after_crash.open()
        assert snapshot_of(after_crash) == before
        after_crash.apply(IndexUpdate(removed=("b.py",)))
        assert set(after_crash.file_records()) == {"a.py"}
    after_crash.close()


# ---------------------------------------------------------------------------- summary counts


def _recount(store: SqliteStore) -> dict[str, object]:
    """The counts straight from the tables, as an index without kept counts has them."""
    store._db.execute("DELETE FROM meta WHERE key = 'counts'")
    return store.counts()


def test_counts_are_kept_in_meta_by_apply(store: SqliteStore) -> None:
    store.apply(base_update())
    kept = store.counts()
    assert json.loads(store.meta()["counts"]) == kept
    # the kept copy is what counts() answers: a no-op re-index reads it instead of counting
    store._db.execute("UPDATE meta SET value = '{\"files\": 7}' WHERE key = 'counts'")
    assert store.counts() == {"files": 7}
    assert _recount(store) == kept


def test_kept_counts_stay_exact_after_a_file_is_removed(store: SqliteStore) -> None:
    store.apply(base_update())
    store.apply(IndexUpdate(removed=("b.py",), edges_for=("a.py",), edges=()))
    kept = store.counts()
    assert kept["files"] == 1 and kept["edges"] == {} and kept["symbols"] == {"function": 1}
    assert _recount(store) == kept


def _random_update(rng: random.Random, files: list[str]) -> IndexUpdate:
    """Some files replaced whole (record, symbols, edges), others removed, some only re-resolved
    (edges), plus placeholders; calls of every kind of target, dangling ones included."""
    changed = rng.sample(files, rng.randint(0, 3))
    removed = [f for f in files if f not in changed and rng.random() < 0.15]
    relinked = [f for f in files if f not in changed and f not in removed and rng.random() < 0.3]
    symbols = [
        sym(f, q, rng.choice(("function", "class", "method")))
        for f in changed
        for q in rng.sample(["f", "g", "h", "K", "K.m"], rng.randint(0, 4))
    ]
    targets = [f"{f}::{q}" for f in files for q in ("f", "g", "h", "K", "K.m")]
    targets += ["external::os.sep", "unresolved::?.run", "unresolved::zap", "gone.py::x"]
    edges = [
        Edge(
            f"{f}::f",
            rng.choice(targets),
            rng.choice((EdgeKind.CALLS, EdgeKind.CALLS, EdgeKind.REFERENCES)),
            f,
            line,
            1,
            rng.choice((Resolution.RESOLVED, Resolution.NAME)),
        )
        for f in changed + relinked
        for line in range(rng.randint(0, 5))
    ]
    placeholders = [
        placeholder(name, kind)
        for name, kind in (("os.sep", "external"), ("?.run", "unresolved"), ("zap", "unresolved"))
        if rng.random() < 0.5
    ]
    lines = rng.randint(1, 50)
    return IndexUpdate(
        removed=tuple(removed),
        files=tuple(
            (FileRecord(f, rng.choice(("python", "go")), "h", 1, 1, lines, rng.randint(0, 2)), full)
            for f in changed
            for full in [full_facts(f)]
        ),
        symbols_for=tuple(changed),
        symbols=tuple(symbols),
        edges_for=tuple(changed + relinked),
        edges=tuple(edges),
        placeholders=tuple(placeholders),
    )


@pytest.mark.parametrize("seed", range(8))
def test_kept_counts_equal_a_recount_after_every_kind_of_update(
    store: SqliteStore, seed: int
) -> None:
    """The counts an apply keeps by deltas (rows it deletes and writes, calls whose target's
    symbol came, went or changed kind) are what counting the tables gives, update after update,
    and when edges arrive in later parts of one apply (as an index run writes them)."""
    rng = random.Random(seed)
    files = [f"m{i}.py" for i in range(6)]
    for step in range(12):
        update = _random_update(rng, files)
        if step % 3 == 2:  # symbols first, then the edges in batches, then the placeholders
            head = dataclasses.replace(update, edges_for=(), edges=(), placeholders=())
            half = len(update.edges_for) // 2
            parts = [
                IndexUpdate(
                    edges_for=update.edges_for[:half],
                    edges=tuple(e for e in update.edges if e.path in update.edges_for[:half]),
                ),
                IndexUpdate(
                    edges_for=update.edges_for[half:],
                    edges=tuple(e for e in update.edges if e.path in update.edges_for[half:]),
                ),
                IndexUpdate(placeholders=update.placeholders),
            ]
            store.apply(head, then=lambda parts=parts: iter(parts))
        else:
            store.apply(update)
        kept = store.counts()
        assert _recount(store) == kept, f"step {step}"
        store._db.execute("INSERT INTO meta (key, value) VALUES ('counts', ?)", (json.dumps(kept),))


def test_counts_meta_is_managed_by_the_store(store: SqliteStore) -> None:
    with pytest.raises(ValueError, match="counts"):
        store.apply(IndexUpdate(meta={"counts": "{}"}))


def test_the_writer_keeps_counts_an_older_index_lacks(store: SqliteStore) -> None:
    store.apply(base_update())
    kept = _recount(store)
    assert "counts" not in store.meta()  # as an index written before counts were kept
    with store.acquire_writer():
        assert store.counts() == kept
    assert json.loads(store.meta()["counts"]) == kept


def test_dependents_pass_over_a_path_held_only_inside_another(store: SqliteStore) -> None:
    deps = {"a.py": frozenset({"pkg/mod.pyi"}), "b.py": frozenset({"pkg/mod.py", "c.py"})}
    store.apply(dataclasses.replace(base_update(), depends=deps))
    assert store.dependents(["pkg/mod.py"]) == {"b.py"}
    assert store.dependents(["pkg/mod.pyi"]) == {"a.py"}
    assert store.dependents(["pkg/mod"]) == set()


def test_a_renamed_symbols_name_is_collected_and_a_name_still_in_use_kept(
    store: SqliteStore,
) -> None:
    """The names collection (``nid NOT IN`` the symbols' keys, then the edges' and documents'
    references): b.py's g renamed to h drops the name of g; the file names (edge paths) and
    the placeholders a.py's and b.py's edges point at stay."""
    store.apply(base_update())

    def names() -> set[str]:
        return {n for (n,) in store._db.execute("SELECT name FROM names")}

    before = names()
    assert "b.py::g" in before
    b_h = sym("b.py", "h")
    store.apply(
        IndexUpdate(
            symbols_for=("b.py",),
            symbols=(b_h,),
            edges_for=("a.py", "b.py"),
            edges=(
                Edge("a.py::f", b_h.id, EdgeKind.CALLS, "a.py", 3, 5),
                Edge(b_h.id, "external::json", EdgeKind.REFERENCES, "b.py", 2, 1),
            ),
            placeholders=(placeholder("json"),),
        )
    )
    after = names()
    assert "b.py::g" not in after and "b.py::h" in after
    assert {"a.py::f", "a.py", "b.py", "external::json"} <= after
    assert "unresolved::frob" not in after and "external::os.getcwd" not in after
