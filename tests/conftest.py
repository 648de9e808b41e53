"""Fixtures shared by the store-level and end-to-end tests: the two stores.

``store_url`` is parametrized over the embedded SQLite store ("") and a real PostgreSQL 16 +
pgvector server, started once per test session from the ``pgserver`` wheel (no root, no system
packages; as root it runs the server as its own ``pgserver`` user). ``ASTRAG_TEST_PG_URL``
points the tests at another server instead (they create their own repositories in it and
touch nothing else).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

STORES = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    external = os.environ.get("ASTRAG_TEST_PG_URL", "").strip()
    if external:
        yield external
        return
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        import pgserver  # the dev extra installs it; a missing one must fail, not skip

    # Not under pytest's tmp_path: that tree is private to root (0700) and the server runs as
    # its own user when the tests run as root. A short path also keeps the Unix socket, which
    # lives in the data directory, under its 108-byte limit. Deleted when the session ends.
    data = Path(tempfile.mkdtemp(prefix="astrag-pg-"))
    server = pgserver.get_server(data, cleanup_mode="delete")
    # pgserver's own cleanup runs only at a normal exit; the watchdog covers a killed session
    watchdog = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("pg_watchdog.py")), str(data)],
        stdin=subprocess.PIPE,
        start_new_session=True,
    )
    yield server.get_uri()
    server.cleanup()
    assert watchdog.stdin is not None
    watchdog.stdin.close()  # the server is gone: the watchdog finds nothing to stop
    watchdog.wait(timeout=30)


@pytest.fixture(scope="session", params=STORES)
def store_url(request: pytest.FixtureRequest) -> str:
    """ "" for SQLite, else the PostgreSQL URL; tests index with ``store=store_url or None``."""
    if request.param == "sqlite":
        return ""
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def use_store(store_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Make every api call, CLI run and child process of the test use ``store_url``."""
    monkeypatch.setenv("ASTRAG_STORE", store_url or "sqlite")
    return store_url


@pytest.fixture
def empty_store(tmp_path: Path) -> Iterator[object]:
    """A new, empty SQLite index in the test's own folder, closed after the test."""
    from astrag.store.sqlite import SqliteStore

    store = SqliteStore(tmp_path / ".astrag")
    store.open()
    yield store
    store.close()
