"""The server store: one PostgreSQL database (with pgvector) shared by many repositories.

Why it is shaped this way:

* **Same answers as SQLite.** Every read returns what :class:`~astrag.store.sqlite.SqliteStore`
  returns for the same index, in the same order: symbol ids are interned to per-repository
  integers assigned exactly as SQLite assigns rowids; ``edges``/``files`` keep an identity
  column for SQLite's insertion (rowid) order; text is sorted in byte order (``COLLATE "C"``);
  id lists are queried in the same chunks of 500 and each chunk ordered the way SQLite's plan
  orders it. Lexical search is FTS5's BM25 reproduced bit for bit (``store/lexical.py``).
* **Repositories side by side.** Every row carries ``repo``, an id from ``repos`` keyed by
  (name, branch); see ``store/open.py`` for how a checkout's key is chosen.
* **Atomic updates.** :meth:`PostgresStore.apply` is one transaction; MVCC gives readers on
  other connections the index before or after it. A killed indexer's connection drops and the
  server rolls the transaction back. ``--rebuild`` deletes the repository's rows *inside* that
  transaction, so even a rebuild is never seen half done.
* **One writer per repository.** A session-level advisory lock keyed by the repository id,
  taken with ``pg_try_advisory_lock`` so a second indexer fails at once, naming the holder; the
  server releases it when the holder's connection ends, so a killed run leaves no stale lock.
* **Graph walks load on demand**, one indexed query per frontier (as SQLite does), not
  recursive CTEs: the walks are bounded (2 hops, a budget) and need per-edge kinds, weights and
  reasons in Python; measured in docs/BENCHMARKS.md ("PostgreSQL store").
* **Credentials never leave.** Error messages and ``where`` strings carry the URL with its
  password replaced by ``***``; any text from the driver is scrubbed of the password too.
"""

from __future__ import annotations

import contextlib
import functools
import marshal
import os
import socket
import struct
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar

import numpy as np
import psycopg
from psycopg import pq
from psycopg.adapt import Dumper, Loader
from psycopg.types import TypeInfo

from astrag import lifeline
from astrag.graph.facts import Edge, FileFacts, Resolution, Symbol
from astrag.search.documents import SearchDoc
from astrag.store import lexical
from astrag.store.base import (
    FileRecord,
    IndexCorrupt,
    IndexIncompatible,
    IndexLocked,
    IndexMissing,
    IndexUpdate,
    StoreError,
    suffix_pattern,
)
from astrag.store.codec import (
    EDGE_KINDS,
    FACTS_FORMAT,
    RESOLUTION_CODE,
    RESOLUTION_CODES,
    RESOLUTION_TEXT_CODE,
    LazyFacts,
    encode_depends,
    encode_facts,
    gc_paused,
    new_edge,
    new_symbol,
)
from astrag.store.depends import decode_ids
from astrag.store.open import password_of, redact
from astrag.store.pg_schema import BOOTSTRAP, LATEST, MIGRATIONS, REPO_TABLES
from astrag.store.sqlite import CALL_TARGET_SQL

# the format of a repository's rows, checked against each generation's meta: SQLite's index
# went to version 4 when its dependency sets became ids, and this store keeps them as paths
SCHEMA_VERSION = 3

_CHUNK = 500  # ids per query, as SqliteStore chunks them (the order of results follows)
_LOCK_SPACE = 0x61737472  # "astr": the advisory-lock namespace; key 2 is the repository id
_MIGRATION_KEY = 0  # repository ids start at 1
_RESERVED_META = frozenset({"schema_version", "facts_format"})
_REBUILD_HINT = "run `astrag index --rebuild` to rebuild this repository's index"
_CONNECT_TIMEOUT_S = 10
# Every session: an orphaned transaction is ended by the server, a lock wait is bounded.
# Writers never idle inside a transaction (apply() resolves everything before BEGIN), so a
# minute only ends a frozen client's; readers' statements are small lookups.
_SESSION_OPTIONS = "-c jit=off -c idle_in_transaction_session_timeout=60s -c lock_timeout=10s"
_READER_OPTIONS = " -c statement_timeout=60s"
# A table that a commit grew by this many rows, and by a tenth of its size, is ANALYZEd at once:
# autovacuum gets to it only up to a minute later, and until then the planner sizes the new
# generation from statistics that had never seen it (a few rows): on the test suite's shared
# server that chose a nested loop which re-scanned `names` per edge, 1,300 edges took > 60 s.
_ANALYZE_MIN_ROWS = 500
_RETIRED_GRACE_S = 600  # a reader still on a replaced generation: ten minutes to move on

_SYMBOL_COLUMNS = (
    "n.name, s.kind, s.name, s.qualname, s.path, s.start_line, s.end_line, s.parent, "
    "s.language, s.signature, s.docstring, s.decorators, s.exported, s.visibility, s.modifiers"
)
_SYMBOL_SELECT = (
    f"SELECT {_SYMBOL_COLUMNS} FROM symbols s "
    "JOIN names n ON n.repo = s.repo AND n.nid = s.nid WHERE s.repo = %(repo)s"
)
_EDGE_SELECT = (
    "SELECT sn.name, dn.name, e.kind, pn.name, e.line, e.col, e.res FROM edges e "
    "JOIN names sn ON sn.repo = e.repo AND sn.nid = e.src "
    "JOIN names dn ON dn.repo = e.repo AND dn.nid = e.dst "
    "JOIN names pn ON pn.repo = e.repo AND pn.nid = e.path WHERE e.repo = %(repo)s"
)

# Connections a forked child inherited: referenced for the child's life so their finalizer
# never runs there (see PostgresStore._after_fork).
_INHERITED: list[Any] = []

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _translate_errors(
    method: Callable[Concatenate[PostgresStore, _P], _R],
) -> Callable[Concatenate[PostgresStore, _P], _R]:
    """Turn driver failures into errors that say what to do; retry a read once on a new
    connection when the old one broke outside any transaction (nothing could be half done)."""

    @functools.wraps(method)
    def wrapper(self: PostgresStore, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except psycopg.OperationalError as err:
            if not self._retryable():
                raise self._store_error(err) from None
        except psycopg.Error as err:
            raise self._store_error(err) from None
        self._reconnect()
        try:
            return method(self, *args, **kwargs)
        except psycopg.Error as err:
            raise self._store_error(err) from None

    return wrapper


class _VectorDumper(Dumper):
    """numpy float vectors to pgvector's binary form: dims, unused, big-endian float4."""

    format = pq.Format.BINARY

    def dump(self, obj: Any) -> bytes:
        arr = np.asarray(obj)
        return struct.pack(">HH", arr.shape[0], 0) + arr.astype(">f4").tobytes()


class _VectorLoader(Loader):
    """pgvector's binary form back to the float16 bytes search/vectors.py stores."""

    format = pq.Format.BINARY

    def load(self, data: Any) -> bytes:
        return np.frombuffer(bytes(data)[4:], dtype=">f4").astype(np.float16).tobytes()


class PostgresStore:
    """The index of one repository (``name``, ``branch``) in a PostgreSQL database;
    implements ``GraphStore`` with the same results as ``SqliteStore``."""

    def __init__(self, url: str, name: str, branch: str = "", *, readonly: bool = False) -> None:
        self.url = url
        self.name = name
        self.branch = branch
        self.readonly = readonly
        self.where = f"{redact(url)} (repository {name!r}" + (
            f", branch {branch!r})" if branch else ")"
        )
        self.notes: list[str] = []
        self._conn: psycopg.Connection[Any] | None = None
        self._repo_id: int | None = None  # the repository: the writer lock's key
        self._repo: int | None = None  # its generation being read or written: every row's key
        self._aside = False  # self._repo is a generation start_fresh() began, not yet live
        self._locked = False
        self._run_tx = False  # a reset opened the run's transaction; apply() commits it
        self._close_pending = False
        self._pid = os.getpid()  # the process the connection belongs to
        self._vector_oid: int | None = None
        self._grown: dict[str, int] = {}  # rows COPYed per table since the last commit

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> PostgresStore:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:
        """Connect, migrate the schema (writers), find the repository and check its format.
        A writer opening a repository without an index creates an empty one, live at once."""
        if self._conn is None:
            self._connect()
        if self._repo is None:
            self._new_generation("live")
        self._check_repo()

    def exists(self) -> bool:
        """Whether the repository has a live index."""
        if self._conn is None:
            self._connect()
        return self._repo is not None

    def close(self) -> None:
        if self._locked:
            # the advisory lock lives in this session: closing now would hand the repository to
            # another writer mid-run (the indexer closes and reopens around a reset)
            self._close_pending = True
            return
        self._close_pending = False
        conn, self._conn = self._conn, None
        self._locked = False
        self._run_tx = False
        if conn is not None:
            if not conn.closed:
                lifeline.release(conn.pgconn.socket)
            with contextlib.suppress(psycopg.Error):
                conn.close()

    def _connect(self) -> None:
        try:
            conn = psycopg.connect(
                self.url,
                autocommit=True,
                connect_timeout=_CONNECT_TIMEOUT_S,
                application_name=f"astrag pid {os.getpid()} on {socket.gethostname()}"[:63],
                # JIT may reorder float arithmetic; BM25 scores must be SQLite's to the bit
                options=_SESSION_OPTIONS + (_READER_OPTIONS if self.readonly else ""),
            )
        except psycopg.Error as err:
            raise StoreError(
                f"cannot connect to the PostgreSQL store {redact(self.url)}: "
                f"{self._scrub(str(err)).strip()}",
                hint="check the URL (`--store`, `store =` in .astrag.toml or ASTRAG_STORE), "
                "that the server is running, and the credentials (PGPASSWORD or ~/.pgpass)",
            ) from None
        # a forked worker must not keep this session alive after this process dies
        lifeline.parent_only(conn.pgconn.socket)
        # and the server notices a dead client within a second even mid-statement (14+;
        # older servers only notice when they next read or write the socket)
        with contextlib.suppress(psycopg.Error):
            conn.execute("SET client_connection_check_interval = '1s'")
        try:
            self._conn = conn
            self._pid = os.getpid()
            self._migrate()
            self._find_repo()
            self._register_vector()
        except BaseException:
            self._conn = None
            conn.close()
            raise

    def _reconnect(self) -> None:
        self.close()
        self._connect()

    def _retryable(self) -> bool:
        """A broken connection outside a transaction: a read can simply run again."""
        return (
            not self._locked
            and not self._run_tx
            and (self._conn is None or self._conn.closed or self._conn.broken)
        )

    @property
    def _db(self) -> psycopg.Connection[Any]:
        if self._conn is None:
            raise RuntimeError("PostgresStore is not open; call open() or use it as a context")
        if self._pid != os.getpid():
            self._after_fork()
        return self._conn  # type: ignore[return-value]

    def _after_fork(self) -> None:
        """A forked worker (the indexer's resolution shards read facts lazily) must not speak
        on its parent's socket: the two would read each other's replies. It gets its own
        read-only connection; the inherited one is kept referenced and never closed, since
        closing it would send the server a Terminate for the parent's session."""
        _INHERITED.append(self._conn)
        self._conn = None
        self._locked = False
        self._run_tx = False
        self._close_pending = False
        self.readonly = True
        self._connect()

    def _migrate(self) -> None:
        conn = self._db
        exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
        if self.readonly:
            if not exists or not exists[0]:
                raise IndexMissing(
                    f"no astrag index in {self.where}",
                    hint="run `astrag index` with this store first",
                )
            self._check_schema(conn)
            return
        with conn.transaction():
            # one migrator at a time across every client of this database
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_LOCK_SPACE, _MIGRATION_KEY))
            conn.execute(BOOTSTRAP)
            done = self._check_schema(conn)
            for version, description, sql in MIGRATIONS:
                if version in done:
                    continue
                try:
                    conn.execute(sql)
                except psycopg.errors.FeatureNotSupported as err:
                    raise StoreError(
                        f"{redact(self.url)} cannot run migration {version}: {err}",
                        hint="install the pgvector extension on the server",
                    ) from None
                conn.execute(
                    "INSERT INTO schema_migrations (version, description) VALUES (%s, %s)",
                    (version, description),
                )

    def _check_schema(self, conn: psycopg.Connection[Any]) -> set[int]:
        done = {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
        newest = max(done, default=0)
        if newest > LATEST:
            raise IndexIncompatible(
                f"the database {redact(self.url)} has schema migration {newest}, newer than "
                f"migration {LATEST} that this astrag knows",
                hint="upgrade astrag on this machine (the database is shared; it is not rebuilt)",
            )
        if self.readonly and newest < LATEST:
            raise IndexIncompatible(
                f"the database {redact(self.url)} has schema migration {newest}; this astrag "
                f"needs {LATEST}",
                hint="run `astrag index` with this astrag once to migrate it",
            )
        return done

    def _find_repo(self) -> None:
        conn = self._db
        row = conn.execute(
            "SELECT id FROM repos WHERE name = %s AND branch = %s", (self.name, self.branch)
        ).fetchone()
        if row is None and not self.readonly:
            conn.execute(
                "INSERT INTO repos (name, branch) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                (self.name, self.branch),
            )
            row = conn.execute(
                "SELECT id FROM repos WHERE name = %s AND branch = %s", (self.name, self.branch)
            ).fetchone()
        if row is None:
            raise IndexMissing(
                f"no astrag index in {self.where}", hint="run `astrag index` with this store first"
            )
        self._repo_id = int(row[0])
        self._repo = self._live_generation()
        if self._repo is None and self.readonly:
            raise IndexMissing(
                f"no astrag index in {self.where}" + self._interrupted(),
                hint="run `astrag index` with this store first",
            )

    def _live_generation(self) -> int | None:
        row = self._db.execute(
            "SELECT id FROM generations WHERE repo = %s AND state = 'live'", (self._repo_id,)
        ).fetchone()
        return int(row[0]) if row else None

    def _interrupted(self) -> str:
        row = self._db.execute(
            "SELECT 1 FROM generations WHERE repo = %s AND state = 'building'", (self._repo_id,)
        ).fetchone()
        if row is None:
            return ""
        holder = self._lock_holder()
        if holder != "pid unknown":
            return f" yet: the first index run ({holder}) is still building it"
        return " yet: the first index run was interrupted before it finished"

    def _new_generation(self, state: str) -> None:
        """Start an empty generation of this repository's index (``live`` at once, or
        ``building`` until :meth:`publish`) and point this store at it."""
        conn = self._db
        (gen,) = conn.execute(
            "INSERT INTO generations (repo, state) VALUES (%s, %s) RETURNING id",
            (self._repo_id, state),
        ).fetchone()  # type: ignore[misc]
        conn.execute(
            "INSERT INTO meta (repo, key, value) VALUES (%s, 'schema_version', %s), "
            "(%s, 'facts_format', %s) ON CONFLICT DO NOTHING",
            (gen, str(SCHEMA_VERSION), gen, FACTS_FORMAT),
        )
        self._repo = int(gen)

    def _register_vector(self) -> None:
        info = TypeInfo.fetch(self._db, "vector")
        if info is None:
            raise StoreError(
                f"the pgvector type is missing in {redact(self.url)}",
                hint="install the pgvector extension (CREATE EXTENSION vector)",
            )
        self._vector_oid = info.oid
        dumper = type("VectorDumper", (_VectorDumper,), {"oid": info.oid})
        self._db.adapters.register_dumper(np.ndarray, dumper)
        self._db.adapters.register_loader(info.oid, _VectorLoader)

    def _check_repo(self) -> None:
        meta = self._meta_rows()
        raw = meta.get("schema_version", "")
        if not raw.isdigit():
            raise IndexCorrupt(f"{self.where} has no valid schema_version ({raw!r})", _REBUILD_HINT)
        if int(raw) != SCHEMA_VERSION or meta.get("facts_format") != FACTS_FORMAT:
            newer = int(raw) > SCHEMA_VERSION
            raise IndexIncompatible(
                f"the index of {self.where} has format {raw}/{meta.get('facts_format')!r}; "
                f"this astrag writes {SCHEMA_VERSION}/{FACTS_FORMAT!r}",
                hint=("upgrade astrag, or " if newer else "") + _REBUILD_HINT,
            )

    def start_fresh(self) -> None:
        """Write the next updates into a new, empty generation beside the live one; readers
        keep the live one until :meth:`publish` swaps them in one short transaction. A run
        killed before that leaves a ``building`` generation the next writer deletes. Other
        repositories in the database are untouched. Needs :meth:`acquire_writer`."""
        if self.readonly:
            raise StoreError("this index store was opened read-only", "open it without readonly")
        if not self._locked:
            raise RuntimeError("start_fresh() needs acquire_writer()")
        self._new_generation("building")
        self._aside = True

    def publish(self) -> None:
        """Make the generation :meth:`start_fresh` began live: one transaction of two row
        updates, so no reader waits and none sees anything but a whole index."""
        if not self._aside:
            return
        conn = self._db
        with conn.transaction():
            conn.execute(
                "UPDATE generations SET state = 'retired', retired_at = now() "
                "WHERE repo = %s AND state = 'live'",
                (self._repo_id,),
            )
            conn.execute("UPDATE generations SET state = 'live' WHERE id = %s", (self._repo,))
        self._aside = False
        self._collect_generations()

    def reopen_if_replaced(self) -> bool:
        """Follow a rebuild another process published: read the live generation from now on.
        True when it changed."""
        if self._conn is None or self._aside or self._in_tx():
            return False
        live = self._live_generation()
        if live is None or live == self._repo:
            return False
        self._repo = live
        return True

    def _collect_generations(self) -> None:
        """Delete generations nobody reads any more: unfinished ones (their writer is dead:
        this one holds the lock) and replaced ones but the latest, which readers still on it
        get ten minutes to leave. Statement by statement: row locks on those rows only."""
        conn = self._db
        rows = conn.execute(
            "SELECT id FROM generations g WHERE repo = %(repo)s AND id <> %(current)s AND ("
            "state = 'building' OR (state = 'retired' AND (retired_at < now() - "
            "make_interval(secs => %(grace)s) OR id <> (SELECT max(id) FROM generations "
            "WHERE repo = %(repo)s AND state = 'retired'))))",
            {"repo": self._repo_id, "current": self._repo or -1, "grace": _RETIRED_GRACE_S},
        ).fetchall()
        for (gen,) in rows:
            for table in REPO_TABLES:
                conn.execute(f"DELETE FROM {table} WHERE repo = %s", (gen,))
            conn.execute("DELETE FROM generations WHERE id = %s", (gen,))
        # HNSW indexes of generations that are gone (a drop that met a reader is retried here)
        orphans = conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'vectors' AND indexname ~ "
            "'^vectors_hnsw_r[0-9]+_d[0-9]+$' AND substring(indexname FROM "
            "'^vectors_hnsw_r([0-9]+)_')::int NOT IN (SELECT id FROM generations)"
        ).fetchall()
        for (name,) in orphans:
            self._drop_index(name)

    def drop_repository(self) -> None:
        """Delete this repository and everything it owns from the database, now."""
        with self.acquire_writer():
            conn = self._db
            gens = [
                r[0]
                for r in conn.execute(
                    "SELECT id FROM generations WHERE repo = %s", (self._repo_id,)
                ).fetchall()
            ]
            with conn.transaction():
                for table in REPO_TABLES:
                    conn.execute(f"DELETE FROM {table} WHERE repo = ANY(%s)", (gens,))
                conn.execute("DELETE FROM repos WHERE id = %s", (self._repo_id,))
            for gen in gens:  # after the commit: DROP INDEX CONCURRENTLY needs no transaction
                self._drop_ann_indexes(gen)
            self._repo = None

    # ------------------------------------------------------------------ errors

    def _scrub(self, text: str) -> str:
        secret = password_of(self.url)
        return text.replace(secret, "***") if secret else text

    def _store_error(self, err: psycopg.Error) -> StoreError:
        detail = self._scrub(str(err)).strip().splitlines()[0] if str(err).strip() else ""
        detail = detail or type(err).__name__
        if isinstance(err, psycopg.OperationalError):
            return StoreError(
                f"lost the connection to the PostgreSQL store {self.where}: {detail}",
                hint="nothing half-written was kept (the server rolled the transaction back); "
                "check the server, then retry",
            )
        if isinstance(err, psycopg.errors.UniqueViolation):
            return StoreError(
                f"the index update broke a uniqueness rule ({detail}); a symbol id is duplicated",
                hint="this is a bug in astrag's resolver; please report it",
            )
        if isinstance(err, psycopg.errors.UndefinedTable | psycopg.errors.UndefinedColumn):
            return IndexCorrupt(
                f"{self.where} is missing part of its schema ({detail})", hint=_REBUILD_HINT
            )
        return StoreError(
            f"PostgreSQL failed on {self.where}: {detail}",
            hint="check the server's log and the database user's permissions",
        )

    # ------------------------------------------------------------------ writer lock

    @contextmanager
    def acquire_writer(self) -> Iterator[None]:
        """Hold this repository's advisory lock, or raise :class:`IndexLocked` at once.
        Re-entrant within one store; connects if needed (the indexer locks before opening)."""
        if self.readonly:
            raise StoreError(
                "this index store was opened read-only", hint="open it without readonly=True"
            )
        if self._locked:
            yield
            return
        if self._conn is None:
            self._connect()
        conn = self._db
        try:
            (got,) = conn.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (_LOCK_SPACE, self._repo_id)
            ).fetchone()  # type: ignore[misc]
        except psycopg.Error as err:
            raise self._store_error(err) from None
        if not got:
            raise IndexLocked(
                f"another astrag index run ({self._lock_holder()}) is writing {self.where}",
                hint="wait for it to finish; the lock is released as soon as it exits",
            )
        self._locked = True
        try:
            self._note_dead_runs()
            self._collect_generations()
            yield
        finally:
            self._locked = False
            if self._run_tx:  # an apply() that did not finish: the old index stays
                self._rollback()
            if self._aside:  # never published: the live generation stays
                self._aside = False
                with contextlib.suppress(psycopg.Error):
                    self._collect_generations_after_abort()
            if self._conn is not None and not self._conn.closed and not self._conn.broken:
                # a failure means the session is gone, and its lock with it
                with contextlib.suppress(psycopg.Error):
                    conn.execute("SELECT pg_advisory_unlock(%s, %s)", (_LOCK_SPACE, self._repo_id))
            if self._close_pending:
                self.close()

    def _note_dead_runs(self) -> None:
        """Under the lock, an unfinished generation is a run that died holding it (the
        server released its lock with its session): say so; it is deleted next."""
        row = self._db.execute(
            "SELECT count(*) FROM generations WHERE repo = %s AND state = 'building' AND id <> %s",
            (self._repo_id, self._repo or -1),
        ).fetchone()
        if row and row[0]:
            self.notes.append(
                "took over from an astrag index run that died before it finished; "
                "its unfinished work was discarded"
            )

    def _collect_generations_after_abort(self) -> None:
        self._repo = self._live_generation()
        self._collect_generations()

    def _lock_holder(self) -> str:
        row = self._db.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s AND l.granted",
            (_LOCK_SPACE, self._repo_id),
        ).fetchone()
        name = row[0] if row else ""
        return name.removeprefix("astrag ") if name.startswith("astrag pid") else "pid unknown"

    # ------------------------------------------------------------------ transactions

    def _in_tx(self) -> bool:
        return self._db.info.transaction_status != pq.TransactionStatus.IDLE

    def _rollback(self) -> None:
        self._run_tx = False
        self._grown.clear()  # what was COPYed is gone with the transaction
        conn = self._conn
        if conn is not None and not conn.closed and not conn.broken:
            with contextlib.suppress(psycopg.Error):
                conn.execute("ROLLBACK")

    @contextmanager
    def _writing(self) -> Iterator[psycopg.Connection]:
        """The run's write transaction (begun here unless a rebuild already began it):
        committed when the block ends, rolled back if it raises."""
        conn = self._db
        try:
            if not self._run_tx:
                conn.execute("BEGIN")
                self._run_tx = True
            yield conn
            conn.execute("COMMIT")
            self._run_tx = False
        except psycopg.Error as err:
            self._rollback()
            raise self._store_error(err) from None
        except BaseException:
            self._rollback()
            raise
        self._refresh_statistics()

    def _refresh_statistics(self) -> None:
        """ANALYZE the tables the last commit grew by much (see _ANALYZE_MIN_ROWS). Only
        statistics: a lock another session holds (its own ANALYZE, an index build) or any
        other failure leaves them to autovacuum, and never fails the run that wrote."""
        grown, self._grown = self._grown, {}
        big = [t for t, n in grown.items() if n >= _ANALYZE_MIN_ROWS]
        if not big:
            return
        conn = self._db
        try:
            with conn.transaction():
                conn.execute("SET LOCAL lock_timeout = '1s'")  # autovacuum may be at it
                sizes = dict(
                    conn.execute(
                        "SELECT relname, reltuples FROM pg_class WHERE relname = ANY(%s)", (big,)
                    )
                )
                for table in sorted(big):
                    if grown[table] * 10 >= sizes.get(table, 0):
                        conn.execute(f"ANALYZE {table}")
        except psycopg.Error:
            pass  # rolled back by the block; autovacuum will analyze

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Make all reads inside the block see one consistent state of the index."""
        conn = self._db
        if self._in_tx():
            yield
            return
        try:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        except psycopg.OperationalError as err:
            if not self._retryable():
                raise self._store_error(err) from None
            self._reconnect()  # nothing was read yet: a new connection serves the block
            conn = self._db
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        try:
            yield
        finally:
            if self._conn is not None and not conn.closed and not conn.broken:
                conn.execute("COMMIT")

    def apply(
        self, update: IndexUpdate, then: Callable[[], Iterable[IndexUpdate]] | None = None
    ) -> None:
        """Apply ``update`` (and what ``then`` yields) in one transaction; see SqliteStore."""
        self._check_meta(update)
        with self.acquire_writer():
            self._apply_locked(update, then)

    @staticmethod
    def _check_meta(update: IndexUpdate) -> None:
        bad_meta = _RESERVED_META & update.meta.keys()
        if bad_meta:
            raise ValueError(f"meta keys {sorted(bad_meta)} are managed by the store")

    def _apply_locked(
        self, update: IndexUpdate, then: Callable[[], Iterable[IndexUpdate]] | None
    ) -> None:
        if self._in_tx() and not self._run_tx:
            raise RuntimeError("apply() cannot run inside snapshot()")
        # every part first, then the transaction: it never idles while resolution runs, so a
        # session idle in a transaction is a frozen client's and the server may end it
        parts = list(then()) if then is not None else None
        with self._writing() as conn:
            nids = dict(conn.execute("SELECT name, nid FROM names WHERE repo = %s", (self._repo,)))
            self._apply_parts(update, nids)
            if parts is not None:
                empty = conn.execute(
                    "SELECT NOT EXISTS (SELECT 1 FROM edges WHERE repo = %s)", (self._repo,)
                ).fetchone()
                for part in parts:
                    self._check_meta(part)
                    self._apply_parts(part, nids, fresh_edges=bool(empty and empty[0]))
            self._collect_garbage()
            self._update_doc_stats()

    def _apply_parts(
        self, update: IndexUpdate, nids: dict[str, int], fresh_edges: bool = False
    ) -> None:
        self._remove_files(update.removed)
        self._upsert_files(update.files)
        self._intern(update, nids)
        self._replace_symbols(update, nids)
        self._replace_edges(update, nids, fresh_edges)
        self._replace_depends(update.depends, update.depends_paths)
        self._replace_docs(update, nids)
        self._set_meta(update.meta)

    # ------------------------------------------------------------------ apply steps

    def _copy(self, table: str, columns: str, rows: Iterable[Sequence[Any]]) -> None:
        n = 0
        with self._db.cursor() as cur, cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                n += 1
        self._grown[table] = self._grown.get(table, 0) + n

    def _set_meta(self, meta: dict[str, str]) -> None:
        if meta:
            self._db.cursor().executemany(
                "INSERT INTO meta (repo, key, value) VALUES (%s, %s, %s) "
                "ON CONFLICT (repo, key) DO UPDATE SET value = excluded.value",
                [(self._repo, k, v) for k, v in meta.items()],
            )

    def _paths_nids(self, paths: Sequence[str]) -> str:
        return "SELECT nid FROM names WHERE repo = %(repo)s AND name = ANY(%(paths)s)"

    def _remove_files(self, removed: tuple[str, ...]) -> None:
        if not removed:
            return
        conn, args = self._db, {"repo": self._repo, "paths": list(removed)}
        for table, column in (("files", "path"), ("facts", "path"), ("symbols", "path")):
            conn.execute(
                f"DELETE FROM {table} WHERE repo = %(repo)s AND {column} = ANY(%(paths)s)", args
            )
        conn.execute(
            f"DELETE FROM edges WHERE repo = %(repo)s AND path IN ({self._paths_nids(removed)})",
            args,
        )
        self._delete_docs(removed)
        # rows of *other* files that depend on a removed one stay (see SqliteStore)
        conn.execute("DELETE FROM depends WHERE repo = %(repo)s AND file = ANY(%(paths)s)", args)

    def _upsert_files(self, files: tuple[tuple[FileRecord, FileFacts | bytes], ...]) -> None:
        if not files:
            return
        for record, facts in files:
            if isinstance(facts, FileFacts) and record.path != facts.path:
                raise ValueError(f"FileRecord {record.path!r} paired with facts of {facts.path!r}")
        # delete + insert, not an update: like SQLite's INSERT OR REPLACE, a replaced record
        # moves to the end of the insertion order file_records() lists
        paths = list(dict.fromkeys(r.path for r, _ in files))
        args = {"repo": self._repo, "paths": paths}
        self._db.execute("DELETE FROM files WHERE repo = %(repo)s AND path = ANY(%(paths)s)", args)
        self._db.execute("DELETE FROM facts WHERE repo = %(repo)s AND path = ANY(%(paths)s)", args)
        last: dict[str, tuple[FileRecord, FileFacts | bytes]] = {}
        for record, facts in files:  # a path given twice: the last one wins, as in SQLite
            last.pop(record.path, None)
            last[record.path] = (record, facts)
        self._copy(
            "files", "repo, path, language, hash, size, mtime_ns, lines, errors, note",
            [(self._repo, r.path, r.language, r.hash, r.size, r.mtime_ns, r.lines, r.errors,
              r.note) for r, _ in last.values()],
        )  # fmt: skip
        self._copy(
            "facts", "repo, path, data",
            [(self._repo, r.path, f if isinstance(f, bytes) else encode_facts(f))
             for r, f in last.values()],
        )  # fmt: skip

    def _intern(self, update: IndexUpdate, nids: dict[str, int]) -> None:
        """Integer ids for every symbol id and edge path the update writes, assigned exactly as
        SqliteStore's rowids are (same set, same iteration order, max + 1 onwards)."""
        names: set[str] = {s.id for s in update.symbols}
        names.update(d.id for d in update.docs)
        names.update(s.id for s in update.placeholders)
        for e in update.edges:
            names.add(e.source)
            names.add(e.target)
            names.add(e.path)
        for s, t, _, p, *_ in update.edge_rows:
            names.add(s)
            names.add(t)
            names.add(p)
        new = [n for n in names if n not in nids]
        if not new:
            return
        (before,) = self._db.execute(
            "SELECT coalesce(max(nid), 0) FROM names WHERE repo = %s", (self._repo,)
        ).fetchone()  # type: ignore[misc]
        added = {name: before + i for i, name in enumerate(new, 1)}
        self._copy("names", "repo, nid, name", [(self._repo, n, s) for s, n in added.items()])
        nids.update(added)

    def _replace_symbols(self, update: IndexUpdate, nids: dict[str, int]) -> None:
        if update.symbols_for:
            self._db.execute(
                "DELETE FROM symbols WHERE repo = %s AND path = ANY(%s)",
                (self._repo, list(update.symbols_for)),
            )
        columns = (
            "repo, nid, kind, name, qualname, path, start_line, end_line, parent, language, "
            "signature, docstring, decorators, exported, visibility, modifiers"
        )
        if update.symbols:
            self._copy(
                "symbols", columns, [self._symbol_row(nids[s.id], s) for s in update.symbols]
            )
        for p in update.placeholders:
            if p.path:
                raise ValueError(f"placeholder {p.id!r} has a path ({p.path!r})")
        if update.placeholders:
            keep = ", ".join(f"{c} = excluded.{c}" for c in columns.split(", ")[2:])
            self._db.cursor().executemany(
                f"INSERT INTO symbols ({columns}) VALUES ({', '.join(['%s'] * 16)}) "
                f"ON CONFLICT (repo, nid) DO UPDATE SET {keep}",
                [self._symbol_row(nids[s.id], s) for s in update.placeholders],
            )

    def _symbol_row(self, nid: int, s: Symbol) -> tuple[object, ...]:
        return (
            self._repo, nid, s.kind, s.name, s.qualname, s.path, s.start_line, s.end_line,
            s.parent, s.language, s.signature, s.docstring, _encode_tuple(s.decorators),
            bool(s.exported), s.visibility, _encode_tuple(s.modifiers),
        )  # fmt: skip

    def _replace_edges(self, update: IndexUpdate, nids: dict[str, int], fresh: bool) -> None:
        if update.edges_for and not fresh:
            self._db.execute(
                f"DELETE FROM edges WHERE repo = %(repo)s AND path IN "
                f"({self._paths_nids(update.edges_for)})",
                {"repo": self._repo, "paths": list(update.edges_for)},
            )
        if update.edges:
            repo, codes = self._repo, RESOLUTION_CODE
            self._copy(
                "edges", "repo, src, dst, kind, path, line, col, res",
                [(repo, nids[e.source], nids[e.target], e.kind.value, nids[e.path], e.line,
                  e.column, codes[e.resolution]) for e in update.edges],
            )  # fmt: skip
        if update.edge_rows:
            repo, codes_of = self._repo, RESOLUTION_TEXT_CODE
            self._copy(
                "edges", "repo, src, dst, kind, path, line, col, res",
                [(repo, nids[s], nids[t], k, nids[p], ln, c, codes_of[how])
                 for s, t, k, p, ln, c, how in update.edge_rows],
            )  # fmt: skip

    def _replace_depends(
        self, depends: Mapping[str, frozenset[str] | bytes], paths: tuple[str, ...]
    ) -> None:
        if depends:
            self._db.execute(
                "DELETE FROM depends WHERE repo = %s AND file = ANY(%s)",
                (self._repo, list(depends)),
            )
            self._copy(
                "depends", "repo, file, deps",
                [(self._repo, f, encode_depends(_paths_of(d, paths))) for f, d in depends.items()],
            )  # fmt: skip

    def _delete_docs(self, paths: Iterable[str]) -> None:
        paths = list(paths)
        if not paths:
            return
        args = {"repo": self._repo, "paths": paths}
        self._db.execute(
            "DELETE FROM postings WHERE repo = %(repo)s AND nid IN "
            "(SELECT nid FROM docs WHERE repo = %(repo)s AND path = ANY(%(paths)s))",
            args,
        )
        self._db.execute("DELETE FROM docs WHERE repo = %(repo)s AND path = ANY(%(paths)s)", args)

    def _replace_docs(self, update: IndexUpdate, nids: dict[str, int]) -> None:
        self._delete_docs(update.docs_for)
        if not update.docs:
            return
        last = {d.id: d for d in update.docs}  # INSERT OR REPLACE: the last one of an id wins
        ids = [nids[i] for i in last]
        args = {"repo": self._repo, "nids": ids}
        self._db.execute("DELETE FROM postings WHERE repo = %(repo)s AND nid = ANY(%(nids)s)", args)
        self._db.execute("DELETE FROM docs WHERE repo = %(repo)s AND nid = ANY(%(nids)s)", args)
        docs = list(last.values())
        tokens = lexical.tokenize_docs(docs)
        repo = self._repo
        self._copy(
            "docs", "repo, nid, path, hash, text, ntok, f_name, f_qual, f_sig, f_doc, f_body",
            [(repo, nids[d.id], d.path, d.hash, d.text, n, d.name, d.qual, d.sig, d.doc, d.body)
             for d, (n, _) in zip(docs, tokens, strict=True)],
        )  # fmt: skip
        self._copy(
            "postings", "repo, term, nid, t_name, t_qual, t_sig, t_doc, t_body",
            [(repo, term, nids[d.id], *counts)
             for d, (_, postings) in zip(docs, tokens, strict=True)
             for term, counts in postings.items()],
        )  # fmt: skip

    def _collect_garbage(self) -> None:
        args = {"repo": self._repo}
        self._db.execute(
            "DELETE FROM symbols s WHERE s.repo = %(repo)s AND s.path = '' AND NOT EXISTS "
            "(SELECT 1 FROM edges e WHERE e.repo = %(repo)s AND e.dst = s.nid)",
            args,
        )
        self._db.execute(
            "DELETE FROM names n WHERE n.repo = %(repo)s "
            "AND NOT EXISTS (SELECT 1 FROM symbols x WHERE x.repo = n.repo AND x.nid = n.nid) "
            "AND NOT EXISTS (SELECT 1 FROM edges x WHERE x.repo = n.repo AND x.src = n.nid) "
            "AND NOT EXISTS (SELECT 1 FROM edges x WHERE x.repo = n.repo AND x.dst = n.nid) "
            "AND NOT EXISTS (SELECT 1 FROM edges x WHERE x.repo = n.repo AND x.path = n.nid) "
            "AND NOT EXISTS (SELECT 1 FROM docs x WHERE x.repo = n.repo AND x.nid = n.nid)",
            args,
        )

    def _update_doc_stats(self) -> None:
        # FTS5 keeps the row count and token total of its table; BM25 needs both per query
        self._db.execute(
            "UPDATE generations SET (doc_rows, doc_tokens) = (SELECT count(*), "
            "coalesce(sum(ntok), 0) FROM docs WHERE repo = %(repo)s) WHERE id = %(repo)s",
            {"repo": self._repo},
        )

    # ------------------------------------------------------------------ reads

    def _meta_rows(self) -> dict[str, str]:
        rows = self._db.execute(
            "SELECT key, value FROM meta WHERE repo = %s ORDER BY key", (self._repo,)
        )
        return dict(rows)  # type: ignore[arg-type]

    @_translate_errors
    def schema_version(self) -> int:
        return int(self.meta()["schema_version"])

    @_translate_errors
    def meta(self) -> dict[str, str]:
        return self._meta_rows()

    @_translate_errors
    def set_meta(self, meta: dict[str, str]) -> None:
        """Set ``meta`` keys alone, in one small transaction (a run that changed nothing)."""
        self._check_meta(IndexUpdate(meta=meta))
        with self.acquire_writer(), self._writing():
            self._set_meta(meta)

    @_translate_errors
    def file_records(self) -> dict[str, FileRecord]:
        rows = self._db.execute(
            "SELECT path, language, hash, size, mtime_ns, lines, errors, note FROM files "
            "WHERE repo = %s ORDER BY seq",
            (self._repo,),
        )
        return {r[0]: FileRecord(*r) for r in rows}

    @_translate_errors
    def load_facts(self, paths: Iterable[str] | None = None) -> dict[str, FileFacts]:
        lazy = self.lazy_facts(paths)
        with gc_paused():
            return {path: lazy[path] for path in lazy}

    @_translate_errors
    def lazy_facts(self, paths: Iterable[str] | None = None) -> LazyFacts:
        """Like :meth:`load_facts`, decoded when first used; listed in SqliteStore's order."""
        if paths is None:
            found = [
                r[0]
                for r in self._db.execute(
                    "SELECT path FROM facts WHERE repo = %s ORDER BY path", (self._repo,)
                )
            ]
        else:
            found = []
            keys = list(dict.fromkeys(paths))
            for chunk in _chunks(keys):
                found.extend(
                    r[0]
                    for r in self._db.execute(
                        "SELECT path FROM facts WHERE repo = %s AND path = ANY(%s) ORDER BY path",
                        (self._repo, chunk),
                    )
                )
        return LazyFacts(dict.fromkeys(found), where=self.where, fetch=self._facts_blob)

    @_translate_errors
    def _facts_blob(self, path: str) -> bytes:
        row = self._db.execute(
            "SELECT data FROM facts WHERE repo = %s AND path = %s", (self._repo, path)
        ).fetchone()
        if row is None:
            raise IndexCorrupt(f"no stored facts for {path} in {self.where}", _REBUILD_HINT)
        return bytes(row[0])

    @_translate_errors
    def dependents(self, paths: Iterable[str]) -> set[str]:
        wanted = set(paths)
        rows = self._db.execute("SELECT file, deps FROM depends WHERE repo = %s", (self._repo,))
        return {file for file, deps in rows if wanted.intersection(marshal.loads(deps))}

    @_translate_errors
    def facts_blob(self, path: str) -> bytes:
        """The stored (codec-encoded) facts of ``path``, for copying an index."""
        return self._facts_blob(path)

    @_translate_errors
    def all_depends(self) -> dict[str, frozenset[str]]:
        rows = self._db.execute(
            "SELECT file, deps FROM depends WHERE repo = %s ORDER BY file", (self._repo,)
        )
        return {f: frozenset(marshal.loads(d)) for f, d in rows}

    @_translate_errors
    def all_docs(self) -> list[SearchDoc]:
        rows = self._db.execute(
            "SELECT n.name, d.path, d.f_name, d.f_qual, d.f_sig, d.f_doc, d.f_body, d.text "
            "FROM docs d JOIN names n ON n.repo = d.repo AND n.nid = d.nid "
            "WHERE d.repo = %s ORDER BY d.nid",
            (self._repo,),
        )
        return [SearchDoc(*r) for r in rows]

    @_translate_errors
    def get_symbol(self, symbol_id: str) -> Symbol | None:
        row = self._db.execute(
            _SYMBOL_SELECT + " AND n.name = %(id)s", {"repo": self._repo, "id": symbol_id}
        ).fetchone()
        return _symbol_from_row(row) if row else None

    @_translate_errors
    def get_symbols(self, symbol_ids: Iterable[str]) -> dict[str, Symbol]:
        keys = list(dict.fromkeys(symbol_ids))
        out: dict[str, Symbol] = {}
        for chunk in _chunks(keys):
            rows = self._db.execute(
                _SYMBOL_SELECT + " AND n.name = ANY(%(ids)s) ORDER BY n.name",
                {"repo": self._repo, "ids": chunk},
            )
            out.update((r[0], _symbol_from_row(r)) for r in rows)
        return out

    @_translate_errors
    def symbols_named(self, name: str) -> list[Symbol]:
        return self._symbols_where("s.name = %(v)s", name)

    @_translate_errors
    def symbols_by_qualname(self, qualname: str) -> list[Symbol]:
        return self._symbols_where("s.qualname = %(v)s", qualname)

    @_translate_errors
    def symbols_in_file(self, path: str) -> list[Symbol]:
        return self._symbols_where("s.path = %(v)s", path)

    @_translate_errors
    def all_symbols(self) -> list[Symbol]:
        rows = self._db.execute(
            _SYMBOL_SELECT + " ORDER BY s.path, s.start_line, n.name", {"repo": self._repo}
        )
        with gc_paused():
            return [_symbol_from_row(r) for r in rows]

    @_translate_errors
    def all_edges(self) -> list[Edge]:
        """Every edge, in insertion order."""
        with self.snapshot():
            names = dict(
                self._db.execute("SELECT nid, name FROM names WHERE repo = %s", (self._repo,))
            )
            rows = self._db.execute(
                "SELECT src, dst, kind, path, line, col, res FROM edges WHERE repo = %s "
                "ORDER BY seq",
                (self._repo,),
            )
            kinds, levels = EDGE_KINDS, RESOLUTION_CODES
            with gc_paused():
                return [
                    new_edge(names[s], names[t], kinds.get(k, k), names[p], line, col, levels[r])
                    for s, t, k, p, line, col, r in rows
                ]

    @_translate_errors
    def edges_from(self, ids: Iterable[str], kinds: Iterable[str] | None = None) -> list[Edge]:
        return self._edges_touching("e.src", ids, kinds)

    @_translate_errors
    def edges_to(self, ids: Iterable[str], kinds: Iterable[str] | None = None) -> list[Edge]:
        return self._edges_touching("e.dst", ids, kinds)

    # ------------------------------------------------------------------ search

    @_translate_errors
    def all_modules_ending(self, path: str) -> list[Symbol]:
        pattern = suffix_pattern(path)
        rows = self._db.execute(
            _SYMBOL_SELECT + " AND s.kind = 'module' AND (s.path = %(p)s OR s.path LIKE %(l)s)",
            {"repo": self._repo, "p": path, "l": pattern},
        )
        found = [s for s in map(_symbol_from_row, rows) if s.path.endswith(path)]
        return sorted(found, key=lambda s: s.path)

    @_translate_errors
    def search_text(
        self, words: Sequence[str], weights: tuple[float, ...], limit: int
    ) -> list[tuple[str, float]]:
        """FTS5's ``bm25()`` ranking (see store/lexical.py): best first, ties by id."""
        if not words:
            return []
        terms = lexical.query_terms(words)
        wanted = [t for t in terms if t is not None]
        if not wanted:
            return []
        w = (tuple(float(x) for x in weights) + (1.0,) * 5)[:5]  # FTS5: missing weights are 1
        with self.snapshot():
            conn = self._db
            stats = conn.execute(
                "SELECT doc_rows, doc_tokens FROM generations WHERE id = %s", (self._repo,)
            ).fetchone()
            rows, tokens = (int(stats[0]), int(stats[1])) if stats else (0, 0)
            if rows == 0:
                return []
            hits = dict(
                conn.execute(
                    "SELECT term, count(*) FROM postings WHERE repo = %s AND term = ANY(%s) "
                    "GROUP BY term",
                    (self._repo, wanted),
                )
            )
            phrases = [(t, lexical.idf(rows, hits.get(t, 0))) for t in terms if t is not None]
            result = conn.execute(
                _BM25_QUERY,
                {
                    "repo": self._repo,
                    "terms": [t for t, _ in phrases],
                    "idfs": [i for _, i in phrases],
                    "w0": w[0],
                    "w1": w[1],
                    "w2": w[2],
                    "w3": w[3],
                    "w4": w[4],
                    "k1": lexical.K1,
                    "k1p1": lexical.K1_PLUS_1,
                    "b": lexical.B,
                    "omb": lexical.ONE_MINUS_B,
                    "avgdl": tokens / rows,
                    "limit": limit,
                },
            )
            return [(sid, float(score)) for sid, score in result]

    @_translate_errors
    def vectors(self) -> tuple[list[str], list[bytes]]:
        """Every symbol that has a vector, and its vector as float16 bytes."""
        with self._db.cursor(binary=True) as cur:
            cur.execute(
                "SELECT n.name, v.vec FROM docs d "
                "JOIN vectors v ON v.repo = d.repo AND v.hash = d.hash "
                "JOIN names n ON n.repo = d.repo AND n.nid = d.nid "
                "WHERE d.repo = %s ORDER BY d.nid",
                (self._repo,),
            )
            rows = cur.fetchall()
        return [r[0] for r in rows], [r[1] for r in rows]

    @_translate_errors
    def texts_without_vectors(self, hashes: Collection[str] | None = None) -> list[tuple[str, str]]:
        scope = "" if hashes is None else "hash = ANY(%(hashes)s) AND "
        params: dict[str, Any] = {"repo": self._repo}
        if hashes is not None:
            params["hashes"] = list(hashes)
        rows = self._db.execute(
            f"SELECT hash, min(text) FROM docs WHERE repo = %(repo)s AND {scope}NOT EXISTS "
            "(SELECT 1 FROM vectors v WHERE v.repo = %(repo)s AND v.hash = docs.hash) "
            "GROUP BY hash ORDER BY hash",
            params,
        )
        return [(h, t) for h, t in rows]

    @_translate_errors
    def vector_hashes(self, hashes: Collection[str]) -> set[str]:
        """Those of the text ``hashes`` a vector is cached for."""
        rows = self._db.execute(
            "SELECT hash FROM vectors WHERE repo = %s AND hash = ANY(%s)",
            (self._repo, list(set(hashes))),
        )
        return {h for (h,) in rows}

    @_translate_errors
    def put_vectors(
        self, rows: Iterable[tuple[str, bytes]], *, clear: bool = False, meta: dict[str, str]
    ) -> None:
        """Cache float16 vectors by text hash in one transaction (see SqliteStore). The HNSW
        index is built by :meth:`index_vectors` once the batches are in: one build instead of
        graph inserts row by row (typeorm: 35 s of inserts vs a 4.5 s build)."""
        self._check_meta(IndexUpdate(meta=meta))
        with self.acquire_writer():
            self._put_vectors_locked(rows, clear, meta)
            if clear:  # after the commit: a DROP INDEX inside it would lock the shared table
                self._drop_ann_indexes(self._repo)

    def _put_vectors_locked(
        self, rows: Iterable[tuple[str, bytes]], clear: bool, meta: dict[str, str]
    ) -> None:
        with self._writing() as conn:
            if clear:
                conn.execute("DELETE FROM vectors WHERE repo = %s", (self._repo,))
            batch = [
                (self._repo, h, len(v) // 2, np.frombuffer(v, dtype=np.float16)) for h, v in rows
            ]
            if batch:
                conn.cursor().executemany(
                    "INSERT INTO vectors (repo, hash, dims, vec) VALUES (%s, %s, %s, %b) "
                    "ON CONFLICT (repo, hash) DO UPDATE SET dims = excluded.dims, "
                    "vec = excluded.vec",
                    batch,
                )
            conn.execute(
                "DELETE FROM vectors v WHERE v.repo = %(repo)s AND NOT EXISTS "
                "(SELECT 1 FROM docs d WHERE d.repo = %(repo)s AND d.hash = v.hash)",
                {"repo": self._repo},
            )
            self._set_meta(meta)

    @_translate_errors
    def index_vectors(self) -> None:
        """Build the missing HNSW index of each vector dimension this repository has."""
        with self.acquire_writer():
            dims = [
                r[0]
                for r in self._db.execute(
                    "SELECT DISTINCT dims FROM vectors WHERE repo = %s", (self._repo,)
                )
            ]
            for d in dims:
                self._ensure_ann_index(d)

    def _ann_index(self, dims: int) -> str:
        return f"vectors_hnsw_r{int(self._repo or 0)}_d{int(dims)}"

    def _ensure_ann_index(self, dims: int) -> None:
        # Per generation and dimension, partial: an ANN scan of a shared index would return
        # other repositories' neighbours and filter them out afterwards, losing recall. Built
        # after the first bulk insert (one build instead of row-by-row graph inserts).
        # CONCURRENTLY: a plain CREATE INDEX holds a SHARE lock on the table all repositories
        # share, stopping their writes for the whole build. It waits for older transactions
        # instead, bounded by lock_timeout; an interrupted build leaves an invalid index that
        # is dropped and built again by the next run. The literals are integers this store
        # made, never user text.
        name = self._ann_index(dims)
        valid = self._db.execute(
            "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE c.relname = %s",
            (name,),
        ).fetchone()
        if valid is not None and valid[0]:
            return
        try:
            if valid is not None:
                self._db.execute(f'DROP INDEX CONCURRENTLY IF EXISTS "{name}"')
            self._db.execute(
                f'CREATE INDEX CONCURRENTLY IF NOT EXISTS "{name}" ON vectors USING hnsw '
                f"((vec::vector({int(dims)})) vector_cosine_ops) "
                f"WHERE repo = {int(self._repo or 0)} AND dims = {int(dims)}"
            )
        except (psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled) as err:
            self.notes.append(
                f"the vector index was not built this time ({self._scrub(str(err)).strip()}); "
                "the next index run builds it (search does not need it)"
            )

    def _drop_ann_indexes(self, gen: int | None) -> None:
        """Drop a generation's HNSW indexes, CONCURRENTLY (outside any transaction): a plain
        DROP INDEX takes an ACCESS EXCLUSIVE lock on the shared ``vectors`` table, which stops
        every repository's searches until the dropping transaction ends."""
        rows = self._db.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'vectors' AND indexname LIKE %s",
            (f"vectors\\_hnsw\\_r{int(gen or 0)}\\_d%",),
        ).fetchall()
        for (name,) in rows:
            self._drop_index(name)

    def _drop_index(self, name: str) -> None:
        # someone still using it makes the drop time out: the next run drops it
        with contextlib.suppress(psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled):
            self._db.execute(f'DROP INDEX CONCURRENTLY IF EXISTS "{name}"')

    @_translate_errors
    def nearest(
        self, query: np.ndarray, limit: int, *, ef_search: int = 40
    ) -> list[tuple[str, float]]:
        """Approximate nearest symbols by cosine similarity through the HNSW index (for a
        repository too large to hold its vectors in memory; search/ uses exact search)."""
        dims = int(query.shape[0])
        vector = np.asarray(query, dtype=np.float32)
        with self.snapshot():
            self._db.execute(f"SET LOCAL hnsw.ef_search = {int(ef_search)}")
            rows = self._db.execute(
                f"SELECT n.name, 1 - (v.vec::vector({dims}) <=> %(q)b) AS score FROM "
                f"(SELECT hash, vec FROM vectors WHERE repo = {int(self._repo or 0)} AND "
                f"dims = {dims} ORDER BY vec::vector({dims}) <=> %(q)b LIMIT %(k)s) v "
                "JOIN docs d ON d.repo = %(repo)s AND d.hash = v.hash "
                "JOIN names n ON n.repo = d.repo AND n.nid = d.nid "
                "ORDER BY score DESC, n.name",
                {"q": vector, "k": limit, "repo": self._repo},
            ).fetchall()
        return [(sid, float(score)) for sid, score in rows][:limit]

    @_translate_errors
    def neighbours(
        self, ids: Iterable[str], kinds: Iterable[str], *, incoming: bool
    ) -> list[tuple[str, str, str, Resolution]]:
        keys = list(dict.fromkeys(ids))
        kind_list = [str(k) for k in kinds]
        here, there = ("dst", "src") if incoming else ("src", "dst")
        query = (
            f"SELECT hn.name, tn.name, e.kind, e.res FROM edges e "
            f"JOIN names hn ON hn.repo = e.repo AND hn.nid = e.{here} "
            f"JOIN names tn ON tn.repo = e.repo AND tn.nid = e.{there} "
            f"JOIN symbols t ON t.repo = e.repo AND t.nid = e.{there} "
            f"WHERE e.repo = %(repo)s AND e.{here} = ANY(%(nids)s) "
            f"AND e.kind = ANY(%(kinds)s) AND t.path != '' ORDER BY e.seq"
        )
        out: list[tuple[str, str, str, Resolution]] = []
        levels = RESOLUTION_CODES
        with self.snapshot():
            for chunk in _chunks(keys):
                args = {"repo": self._repo, "nids": self._nids(chunk), "kinds": kind_list}
                out.extend((h, t, k, levels[r]) for h, t, k, r in self._db.execute(query, args))
        return out

    def warm_adjacency(self) -> None:
        """None: the server's edges are read per walk, through :meth:`neighbours`."""
        return None

    @_translate_errors
    def counts(self) -> dict[str, Any]:
        """Sizes for status output, as SqliteStore.counts() gives them."""
        args = {"repo": self._repo}
        with self.snapshot():
            conn = self._db
            files, lines, errors, with_errors = conn.execute(
                "SELECT count(*), coalesce(sum(lines), 0), coalesce(sum(errors), 0), "
                "count(*) FILTER (WHERE errors > 0) FROM files WHERE repo = %(repo)s",
                args,
            ).fetchone()  # type: ignore[misc]
            by_kind = (
                "SELECT kind, count(*) FROM symbols WHERE repo = %(repo)s AND path {} '' "
                "GROUP BY kind ORDER BY kind"
            )
            symbols = dict(conn.execute(by_kind.format("!="), args))
            placeholders = dict(conn.execute(by_kind.format("="), args))
            edges = dict(
                conn.execute(
                    "SELECT kind, count(*) FROM edges WHERE repo = %(repo)s "
                    "GROUP BY kind ORDER BY kind",
                    args,
                )
            )
            calls = dict(
                conn.execute(
                    f'SELECT {CALL_TARGET_SQL} COLLATE "C" AS k, count(*) FROM edges e '
                    "LEFT JOIN symbols s ON s.repo = e.repo AND s.nid = e.dst "
                    "WHERE e.repo = %(repo)s AND e.kind = 'calls' GROUP BY 1 ORDER BY 1",
                    args,
                )
            )
            languages = dict(
                conn.execute(
                    "SELECT language, count(*) FROM files WHERE repo = %(repo)s "
                    "GROUP BY language ORDER BY language",
                    args,
                )
            )
        return {
            "files": int(files),
            "lines": int(lines),
            "parse_errors": int(errors),
            "files_with_errors": int(with_errors),
            "symbols": symbols,
            "placeholders": placeholders,
            "edges": edges,
            "calls": calls,
            "languages": languages,
        }

    @_translate_errors
    def calls_by_file(self) -> dict[str, dict[str, int]]:
        """``calls`` edges per file of their site, as SqliteStore.calls_by_file() gives them."""
        out: dict[str, dict[str, int]] = {}
        with self.snapshot():
            rows = self._db.execute(
                f'SELECT pn.name, {CALL_TARGET_SQL} COLLATE "C" AS k, count(*) FROM edges e '
                "JOIN names pn ON pn.repo = e.repo AND pn.nid = e.path "
                "LEFT JOIN symbols s ON s.repo = e.repo AND s.nid = e.dst "
                "WHERE e.repo = %(repo)s AND e.kind = 'calls' GROUP BY 1, 2 ORDER BY 1, 2",
                {"repo": self._repo},
            )
            for path, target, n in rows:
                out.setdefault(path, {})[target] = int(n)
        return out

    # ------------------------------------------------------------------ read helpers

    def _symbols_where(self, condition: str, value: str) -> list[Symbol]:
        rows = self._db.execute(
            f"{_SYMBOL_SELECT} AND {condition} ORDER BY s.path, s.start_line, n.name",
            {"repo": self._repo, "v": value},
        )
        return [_symbol_from_row(r) for r in rows]

    def _nids(self, names: list[str]) -> list[int]:
        """The name ids of ``names`` (those it has), looked up on their own: an
        ``IN (SELECT ... name = ANY(...))`` inside the edge query let the planner re-test the
        whole list against every row of a nested loop when its statistics were stale."""
        rows = self._db.execute(
            "SELECT nid FROM names WHERE repo = %s AND name = ANY(%s)", (self._repo, names)
        )
        return [r[0] for r in rows]

    def _edges_touching(
        self, column: str, ids: Iterable[str], kinds: Iterable[str] | None
    ) -> list[Edge]:
        keys = list(dict.fromkeys(ids))
        kind_filter = " AND e.kind = ANY(%(kinds)s)" if kinds is not None else ""
        kind_list = [str(k) for k in kinds] if kinds is not None else []
        query = f"{_EDGE_SELECT} AND {column} = ANY(%(nids)s){kind_filter} ORDER BY e.seq"
        rows: list[tuple[Any, ...]] = []
        with self.snapshot():
            for chunk in _chunks(keys):
                args = {"repo": self._repo, "nids": self._nids(chunk), "kinds": kind_list}
                rows.extend(self._db.execute(query, args))
        kinds_map, levels = EDGE_KINDS, RESOLUTION_CODES
        with gc_paused():
            return [
                new_edge(s, t, kinds_map.get(k, k), p, ln, c, levels[r])
                for s, t, k, p, ln, c, r in rows
            ]


# FTS5's bm25() per document, phrase by phrase in query order (sum ... ORDER BY phrase), with
# the same double-precision operations as fts5_aux.c; field-weighted counts of integer weights
# are exact in any order. Ties by symbol id in byte order, as SQLite's ORDER BY r, n.name.
_BM25_QUERY = """
WITH q AS (
    SELECT t.term COLLATE "C" AS term, t.idf, t.i
    FROM unnest(%(terms)s::text[], %(idfs)s::float8[]) WITH ORDINALITY AS t(term, idf, i)),
scored AS (
    SELECT p.nid,
           sum(q.idf * ((f.f * %(k1p1)s::float8)
               / (f.f + %(k1)s::float8 * (%(omb)s::float8 + %(b)s::float8 * d.ntok
                                          / %(avgdl)s::float8))) ORDER BY q.i) AS score
    FROM q
    JOIN postings p ON p.repo = %(repo)s AND p.term = q.term
    JOIN docs d ON d.repo = p.repo AND d.nid = p.nid
    CROSS JOIN LATERAL (SELECT %(w0)s::float8 * p.t_name + %(w1)s::float8 * p.t_qual
        + %(w2)s::float8 * p.t_sig + %(w3)s::float8 * p.t_doc
        + %(w4)s::float8 * p.t_body AS f) f
    GROUP BY p.nid)
SELECT n.name, s.score FROM scored s
JOIN names n ON n.repo = %(repo)s AND n.nid = s.nid
ORDER BY s.score DESC, n.name
LIMIT %(limit)s
"""


def _chunks(keys: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(keys), _CHUNK):
        yield keys[start : start + _CHUNK]


def _encode_tuple(values: tuple[str, ...]) -> str:
    import json

    return json.dumps(values) if values else ""


def _decode_tuple(text: str) -> tuple[str, ...]:
    import json

    return tuple(json.loads(text)) if text else ()


# fmt: off
def _symbol_from_row(r: Sequence[Any]) -> Symbol:
    return new_symbol(  # type: ignore[no-any-return]
        r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10],
        _decode_tuple(r[11]), bool(r[12]), r[13], _decode_tuple(r[14]),
    )
# fmt: on


def _paths_of(deps: frozenset[str] | bytes, paths: tuple[str, ...]) -> Iterable[str]:
    """A dependency set as paths: given so, or as ids of ``paths`` (IndexUpdate.depends_paths)."""
    if not isinstance(deps, bytes):
        return deps
    return [paths[i - 1] for i in decode_ids(deps)]
