"""What only the server store has to get right: repositories side by side, migrations, a
rebuild nobody sees half done, dropped connections, and credentials that never leak."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from test_store_sqlite import base_update, snapshot_of, sym

from astrag import api
from astrag.config import Config, load_config
from astrag.errors import ConfigError
from astrag.graph.facts import Edge, EdgeKind
from astrag.store import IndexIncompatible, IndexMissing, IndexUpdate, StoreError
from astrag.store.open import redact, repo_key, store_url
from astrag.store.pg_schema import LATEST
from astrag.store.postgres import PostgresStore


def test_repositories_and_branches_never_mix(pg_url: str, tmp_path: Path) -> None:
    name = str(tmp_path)
    main, feature = PostgresStore(pg_url, name, "main"), PostgresStore(pg_url, name, "feature")
    with main, feature:
        main.apply(base_update())
        feature.apply(IndexUpdate(symbols=(sym("only.py", "here"),)))
        assert {s.id for s in feature.all_symbols()} == {"only.py::here"}
        assert "a.py::f" in {s.id for s in main.all_symbols()}
        assert feature.edges_to(["b.py::g"]) == [] and main.edges_to(["b.py::g"])
        assert main.counts()["files"] == 2 and feature.counts()["files"] == 0
    with pytest.raises(IndexMissing, match="branch 'other'"):
        PostgresStore(pg_url, name, "other", readonly=True).open()


def test_schema_migrations_are_recorded_and_a_newer_database_is_refused(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations")]
        assert versions == list(range(1, LATEST + 1))
        conn.execute("INSERT INTO schema_migrations VALUES (999, 'from the future')")
        try:
            with pytest.raises(IndexIncompatible, match="migration 999") as err:
                PostgresStore(pg_url, "any", "").open()
            assert "upgrade astrag" in err.value.hint
        finally:
            conn.execute("DELETE FROM schema_migrations WHERE version = 999")


def test_a_rebuild_takes_no_table_lock_another_repository_waits_on(
    pg_url: str, tmp_path: Path
) -> None:
    """The swap and the vector index build never lock the tables repositories share: while
    one repository's rebuild is open (written aside, not yet published), another repository's
    reader and writer go on at once."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = PostgresStore(pg_url, str(tmp_path / "one"))
    two = PostgresStore(pg_url, str(tmp_path / "two"))
    with one, two:
        one.apply(base_update())
        two.apply(base_update())
        two.put_vectors([("h1", b"\x00<" * 4)], meta={"embedder": "t"})
        with one.acquire_writer():
            one.start_fresh()
            one.apply(IndexUpdate(symbols=(sym("new.py", "n"),)))
            one.put_vectors([("h2", b"\x00<" * 4)], clear=True, meta={"embedder": "u"})
            with psycopg.connect(pg_url, autocommit=True) as other:
                other.execute("SET lock_timeout = '1s'")
                granted = other.execute(
                    "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                    "WHERE c.relname IN ('vectors', 'edges', 'symbols', 'names') "
                    "AND l.mode IN ('AccessExclusiveLock', 'ExclusiveLock', 'ShareLock')"
                ).fetchone()
                assert granted == (0,)
            reader = PostgresStore(pg_url, str(tmp_path / "two"), readonly=True)
            with reader:
                assert snapshot_of(reader) == snapshot_of(two)  # type: ignore[arg-type]
            two.apply(IndexUpdate(removed=("b.py",)))  # a second repository writes meanwhile
            one.publish()
        assert [s.id for s in one.all_symbols()] == ["new.py::n"]


def _last_analyze(url: str) -> dict[str, object]:
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT relname, last_analyze FROM pg_stat_user_tables "
            "WHERE relname IN ('edges', 'names', 'symbols', 'meta')"
        )
        return dict(rows.fetchall())


@pytest.fixture
def empty_database(pg_url: str) -> Iterator[str]:
    """A database of its own on the test server: its tables hold only what the test writes."""
    name = f"astrag_stats_{os.getpid()}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(pg_url)
    yield urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def test_a_commit_that_grows_a_table_by_much_refreshes_its_statistics(
    empty_database: str, tmp_path: Path
) -> None:
    """The planner must not size a new generation from statistics that never saw it: a
    commit of 1,300 edges into small tables ANALYZEs the tables it grew; a one-row commit
    leaves them to autovacuum."""
    symbols = tuple(sym("big.py", f"f{i}") for i in range(1300))
    edges = tuple(
        Edge(s.id, symbols[0].id, EdgeKind.CALLS, "big.py", i, 1) for i, s in enumerate(symbols)
    )
    with PostgresStore(empty_database, str(tmp_path)) as store:
        store.apply(IndexUpdate(symbols=(sym("small.py", "g"),)))
        before = _last_analyze(empty_database)
        assert before["edges"] is None and before["names"] is None
        store.apply(IndexUpdate(symbols=symbols, edges=edges))
        after = _last_analyze(empty_database)
        assert all(after[t] is not None for t in ("edges", "names", "symbols")), after
        assert after["meta"] is None  # a few rows: not worth a scan of a shared table
        store.apply(IndexUpdate(symbols=(sym("small2.py", "h"),)))
        assert _last_analyze(empty_database) == after
        assert len(store.edges_to([symbols[0].id])) == 1300


def test_an_incompatible_repository_is_rebuilt_with_a_reason(pg_url: str, tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    api.index(tmp_path, store=pg_url, embedder="none")
    name, branch = repo_key(tmp_path, Config())
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE meta SET value = 'old-format' WHERE key = 'facts_format' AND repo = "
            "(SELECT g.id FROM generations g JOIN repos r ON r.id = g.repo "
            "WHERE r.name = %s AND r.branch = %s AND g.state = 'live')",
            (name, branch),
        )
    with pytest.raises(IndexIncompatible):
        api.open_index(tmp_path, store=pg_url)
    summary = api.index(tmp_path, store=pg_url, embedder="none")
    assert "old-format" in summary.rebuilt_because and summary.parsed == 1
    with api.open_index(tmp_path, store=pg_url) as idx:
        assert [s.id for s in idx.lookup("f")] == ["m.py::f"]


def _kill_backend(pg_url: str, store: PostgresStore) -> None:
    pid = store._db.info.backend_pid
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_dropped_connection_is_retried_for_reads_and_clear_for_writes(
    pg_url: str, tmp_path: Path
) -> None:
    store = PostgresStore(pg_url, str(tmp_path))
    with store:
        store.apply(base_update())
        before = snapshot_of(store)  # type: ignore[arg-type]
        _kill_backend(pg_url, store)
        assert snapshot_of(store) == before  # type: ignore[arg-type]  # reconnected, re-read

        def dies() -> object:
            _kill_backend(pg_url, store)
            yield IndexUpdate(symbols=(sym("late.py", "x"),))

        with pytest.raises(StoreError) as err:
            store.apply(IndexUpdate(removed=("a.py", "b.py")), then=dies)  # type: ignore[arg-type]
        assert "lost the connection" in err.value.message and "retry" in err.value.hint
    with PostgresStore(pg_url, str(tmp_path), readonly=True) as reader:
        assert snapshot_of(reader) == before  # type: ignore[arg-type]  # nothing half-written


def test_credentials_never_appear(tmp_path: Path) -> None:
    url = "postgresql://alice:s3cr%40t-pw@127.0.0.1:1/astrag?sslmode=disable"
    assert redact(url) == "postgresql://alice:***@127.0.0.1:1/astrag?sslmode=disable"
    assert "s3cr" not in redact("postgresql://h/db?password=s3cr3t&user=a")
    with pytest.raises(StoreError) as err:
        PostgresStore(url, "x").open()
    shown = f"{err.value.message} {err.value.hint} {err.value!r}"
    assert "s3cr" not in shown and "***" in shown
    (tmp_path / "m.py").write_text("x = 1\n")
    with pytest.raises(StoreError) as err:
        api.index(tmp_path, store=url)
    assert "s3cr" not in str(err.value)


def test_store_is_chosen_by_flag_env_and_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ASTRAG_STORE", raising=False)
    assert store_url(load_config(tmp_path)) == ""
    (tmp_path / ".astrag.toml").write_text('store = "postgresql://db.example/astrag"\n')
    config = load_config(tmp_path)
    assert store_url(config) == "postgresql://db.example/astrag"
    monkeypatch.setenv("ASTRAG_STORE", "sqlite")
    assert store_url(config) == ""
    assert store_url(config, "postgres://x/y") == "postgres://x/y"
    (tmp_path / ".astrag.toml").write_text('store = "mysql://db/astrag"\n')
    with pytest.raises(ConfigError, match=r"\.astrag\.toml:1"):
        load_config(tmp_path)
    (tmp_path / ".astrag.toml").write_text('repo = "shop@release"\n')
    assert repo_key(tmp_path, load_config(tmp_path)) == ("shop", "release")


def test_repository_key_comes_from_git_without_credentials(tmp_path: Path) -> None:
    git = tmp_path / ".git"
    git.mkdir()
    (git / "HEAD").write_text("ref: refs/heads/feature/x\n")
    (git / "config").write_text(
        '[remote "origin"]\n\turl = https://bob:ghp_token@github.com/acme/shop.git\n'
    )
    assert repo_key(tmp_path, Config()) == ("https://github.com/acme/shop", "feature/x")


def test_forked_resolution_workers_read_on_their_own_connections(
    pg_url: str, tmp_path: Path
) -> None:
    # enough dependents that re-resolution runs in forked workers, which load facts lazily
    (tmp_path / "base.py").write_text("def helper():\n    return 1\n")
    for i in range(60):
        (tmp_path / f"m{i}.py").write_text(
            f"from base import helper\n\n\ndef f{i}():\n    return helper()\n"
        )
    api.index(tmp_path, store=pg_url, jobs=2, embedder="none")
    (tmp_path / "base.py").write_text("def helper():\n    return 1\n\n\ndef extra():\n    pass\n")
    summary = api.index(tmp_path, store=pg_url, jobs=2, embedder="none")
    assert summary.resolved_files == 61
    with api.open_index(tmp_path, store=pg_url) as idx:
        callers = idx.callers("base.py::helper")
        assert len(callers) == 60


def test_sessions_bound_idle_transactions_lock_waits_and_reader_statements(
    pg_url: str, tmp_path: Path
) -> None:
    writer = PostgresStore(pg_url, str(tmp_path))
    reader = PostgresStore(pg_url, str(tmp_path), readonly=True)
    with writer:
        writer.apply(base_update())
        reader.open()
        for store, statement in ((writer, "0"), (reader, "1min")):
            conn = store._db
            show = {
                name: conn.execute(f"SHOW {name}").fetchone()[0]  # type: ignore[index]
                for name in (
                    "idle_in_transaction_session_timeout",
                    "lock_timeout",
                    "statement_timeout",
                    "client_connection_check_interval",
                )
            }
            assert show == {
                "idle_in_transaction_session_timeout": "1min",
                "lock_timeout": "10s",
                "statement_timeout": statement,
                "client_connection_check_interval": "1s",
            }
        reader.close()
