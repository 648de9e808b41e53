"""The embedded index store: one SQLite file, ``<index_dir>/index.db``, in WAL mode.

Why it is shaped this way:

* **Atomic updates.** :meth:`SqliteStore.apply` runs in one ``BEGIN IMMEDIATE`` transaction. In
  WAL mode a reader keeps the snapshot its read transaction started with, so readers on other
  connections see the old index or the new one, never a mix; a writer killed mid-transaction
  leaves only uncommitted WAL frames, which SQLite ignores on the next open.
* **One writer.** ``index.lock`` beside the database is held with ``flock`` for a whole index
  run (parse, resolve, apply), not just the final transaction, so two runs never interleave.
  The kernel drops an ``flock`` when the last descriptor of it closes; forked workers drop
  their copies at once (``astrag.lifeline``), so a killed run never leaves a lock behind, and
  the next run takes it over with a note.
* **Generations.** A first index and a rebuild are written into a new file beside the index
  readers use, and swapped in by one rename of the ``index.db`` link (see :class:`SqliteStore`).
  No reader opens such a file before then, so it is written with its rollback journal in
  memory, each page once, and turned to WAL mode when published.
* **Astrag's own directory.** Nothing is written into a directory astrag did not create or mark
  (``store/index_dir.py``), so ``index_dir`` can never make it replace someone else's file.
* **Interned ids.** Symbol ids (``path::Qualified.Name``) are long and every edge names two of
  them plus a file path. Edges therefore store integers from a ``names`` table. Measured with
  40k symbols and 400k edges: edges with their three indexes take 26 MB (+4 MB for ``names``)
  instead of 110 MB as text. A name keeps its integer while anything refers to it, so edges from
  unchanged files stay valid when the file that defines their target is re-indexed.
* **Facts as blobs.** Parsed :class:`FileFacts` are only ever loaded whole, so each is one
  ``marshal`` blob (see ``store/codec.py`` for the measurements behind that choice).
* **No raw sqlite3 errors.** Every ``sqlite3.DatabaseError`` leaves this module as a
  :class:`~astrag.store.base.StoreError` subclass that says what to do next.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from astrag import lifeline
from astrag.graph.facts import Edge, FileFacts, Resolution, Symbol
from astrag.graph.slots import fast_constructor
from astrag.search.documents import SearchDoc
from astrag.store import lexical
from astrag.store.base import (
    FileRecord,
    IndexCorrupt,
    IndexIncompatible,
    IndexLocked,
    IndexMissing,
    IndexOutdated,
    IndexUpdate,
    StoreError,
    suffix_pattern,
)
from astrag.store.codec import (
    EDGE_KIND_TEXT,
    EDGE_KINDS,
    FACTS_FORMAT,
    RESOLUTION_CODE,
    RESOLUTION_CODES,
    RESOLUTION_TEXT_CODE,
    LazyFacts,
    encode_facts,
    gc_paused,
    new_edge,
    new_symbol,
)
from astrag.store.flush import BackgroundFlush
from astrag.store.index_dir import claim as claim_dir
from astrag.store.kept import Kept
from astrag.store.sqlite_batches import CHUNK, REBUILD_HINT, marks, rows_in
from astrag.store.sqlite_counts import CALL_TARGET_SQL, CountDeltas, recount
from astrag.store.sqlite_depends import (
    PATHS_TABLE,
    PathIds,
    all_depends,
    collect_paths,
    dependents,
    ids_from_marshalled,
    replace_depends,
)

if TYPE_CHECKING:
    from astrag.store.adjacency import Adjacency
    from astrag.store.postings import Postings

SCHEMA_VERSION = 4
# what a writer does to an index of an older schema version to bring it to the next one (an
# index older than the oldest of these is rebuilt), each step a statement or a function of the
# connection: version 3 added each edge's resolution, and every edge of an older index was
# resolved (only the resolved languages existed then); version 4 keeps each dependency set
# as ids of the paths table instead of marshalled paths (store/sqlite_depends.py)
_MIGRATIONS: dict[int, tuple[str | Callable[[sqlite3.Connection], None], ...]] = {
    2: ("ALTER TABLE edges ADD COLUMN res INTEGER NOT NULL DEFAULT 0",),
    3: (ids_from_marshalled,),
}
DB_NAME = "index.db"
LOCK_NAME = "index.lock"
_PREVIOUS_NAME = "index.previous"  # a link to the generation the last publish replaced
_GENERATION = re.compile(r"index\.[0-9a-f]+\.db")
_DEAD_HOLDER_TRIES = 30  # x 0.1 s: the kernel drops a dead process's flock almost at once
BUSY_TIMEOUT_MS = 10_000
_new_file_record = fast_constructor(FileRecord)  # its slots filled, not through __init__
_SEEN_SYMBOLS = 50_000  # symbols a warm process keeps read (forgotten all at once past it)
# the summary counts, rewritten by every apply in its own transaction: a no-op re-index of a
# large repository read them with a COUNT over every edge (0.13 s of 0.4 s on medusa)
COUNTS_META = "counts"
_TABLES_SELECT = "SELECT name FROM sqlite_master WHERE type = 'table'"
_RESERVED_META = frozenset({"schema_version", "facts_format", COUNTS_META})

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS names (nid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, language TEXT NOT NULL, hash TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, lines INTEGER NOT NULL, errors INTEGER NOT NULL,
    note TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS facts (path TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS symbols (
    nid INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, qualname TEXT NOT NULL,
    path TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
    parent TEXT NOT NULL, language TEXT NOT NULL, signature TEXT NOT NULL,
    docstring TEXT NOT NULL, decorators TEXT NOT NULL, exported INTEGER NOT NULL,
    visibility TEXT NOT NULL, modifiers TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS edges (
    src INTEGER NOT NULL, dst INTEGER NOT NULL, kind TEXT NOT NULL, path INTEGER NOT NULL,
    line INTEGER NOT NULL, col INTEGER NOT NULL, res INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS depends (file TEXT PRIMARY KEY, deps BLOB NOT NULL) WITHOUT ROWID;
{PATHS_TABLE};
CREATE TABLE IF NOT EXISTS docs (
    nid INTEGER PRIMARY KEY, path TEXT NOT NULL, hash TEXT NOT NULL, text TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(
    name, qual, sig, doc, body, tokenize = 'porter unicode61');
CREATE TABLE IF NOT EXISTS vectors (hash TEXT PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID;
"""
# Indexes on rows every file writes once; an index without files writes them without these and
# builds them once they are all in (IndexUpdate: files come before edges), in one sort each
# instead of at random pages row by row (medusa's 38k symbols and 34k documents: 0.24 CPU s
# of inserts with them, 0.11 without and 0.06 to build them).
_FILE_INDEXES = {
    "symbols_name": "CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name)",
    "symbols_qualname": "CREATE INDEX IF NOT EXISTS symbols_qualname ON symbols(qualname)",
    "symbols_path": "CREATE INDEX IF NOT EXISTS symbols_path ON symbols(path)",
    "docs_path": "CREATE INDEX IF NOT EXISTS docs_path ON docs(path)",
    "docs_hash": "CREATE INDEX IF NOT EXISTS docs_hash ON docs(hash)",
}
_EDGE_INDEXES = {
    "edges_src": "CREATE INDEX IF NOT EXISTS edges_src ON edges(src)",
    "edges_dst": "CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst)",
    "edges_path": "CREATE INDEX IF NOT EXISTS edges_path ON edges(path)",
}
_BULK_EDGES = 20_000  # below this, dropping and rebuilding the edge indexes does not pay
_TABLES = frozenset(
    {"meta", "names", "files", "facts", "symbols", "edges", "depends", "paths"}
    | {"docs", "docs_fts", "vectors"}
)

_SYMBOL_SELECT = """
SELECT n.name, s.kind, s.name, s.qualname, s.path, s.start_line, s.end_line, s.parent,
       s.language, s.signature, s.docstring, s.decorators, s.exported, s.visibility, s.modifiers
FROM symbols s JOIN names n ON n.nid = s.nid"""
_EDGE_SELECT = """
SELECT sn.name, dn.name, e.kind, pn.name, e.line, e.col, e.res
FROM edges e JOIN names sn ON sn.nid = e.src JOIN names dn ON dn.nid = e.dst
     JOIN names pn ON pn.nid = e.path"""

# per term, the rowid and the field (0-4, docs_fts's column order) of each occurrence
_TERMS_SELECT = """
SELECT term, group_concat(doc), group_concat(
    CASE col WHEN 'name' THEN 0 WHEN 'qual' THEN 1 WHEN 'sig' THEN 2 WHEN 'doc' THEN 3 ELSE 4 END,
    '')
FROM temp.docs_terms GROUP BY term"""

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _translate_errors(
    method: Callable[Concatenate[SqliteStore, _P], _R],
) -> Callable[Concatenate[SqliteStore, _P], _R]:
    """Turn ``sqlite3`` failures into errors that tell the user what to do."""

    @functools.wraps(method)
    def wrapper(self: SqliteStore, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.ProgrammingError, sqlite3.InterfaceError):
            raise  # misuse of the API is a bug in astrag, not something a user can fix
        except sqlite3.DatabaseError as err:
            raise self._store_error(err) from err

    return wrapper


def _encode_tuple(values: tuple[str, ...]) -> str:
    # JSON, not a separator join: decorators are source text and may contain any character.
    return _json_tuple(values) if values else ""


@functools.lru_cache(maxsize=4096)
def _json_tuple(values: tuple[str, ...]) -> str:
    # cached: a few modifier lists (("export",), ("async",)) are most rows' (medusa: 12k
    # json.dumps calls per cold index for a few dozen distinct lists)
    return json.dumps(values)


@functools.lru_cache(maxsize=4096)
def _decode_tuple(text: str) -> tuple[str, ...]:
    # cached: a few modifier and decorator lists ('["export"]', '["async"]') are most rows'
    return tuple(json.loads(text)) if text else ()


# fmt: off
def _symbol_row(nid: int, s: Symbol) -> tuple[object, ...]:
    return (
        nid, s.kind, s.name, s.qualname, s.path, s.start_line, s.end_line, s.parent, s.language,
        s.signature, s.docstring, _encode_tuple(s.decorators), int(s.exported), s.visibility,
        _encode_tuple(s.modifiers),
    )


def _symbol_from_row(r: tuple[Any, ...]) -> Symbol:
    return new_symbol(  # type: ignore[no-any-return]
        r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10],
        _decode_tuple(r[11]), bool(r[12]), r[13], _decode_tuple(r[14]),
    )
# fmt: on


def _edge_rows(rows: Iterable[tuple[Any, ...]], nids: dict[str, int]) -> list[tuple[Any, ...]]:
    """The edges table's rows of ``IndexUpdate.edge_rows`` (the kind is the stored text already;
    the resolution's text becomes its code)."""
    codes = RESOLUTION_TEXT_CODE
    return [(nids[s], nids[t], k, nids[p], ln, c, codes[how]) for s, t, k, p, ln, c, how in rows]


def _edges_from_rows(rows: Iterable[tuple[Any, ...]]) -> list[Edge]:
    kinds, levels = EDGE_KINDS, RESOLUTION_CODES
    with gc_paused():
        return [
            new_edge(s, t, kinds.get(k, k), p, line, col, levels[how])
            for s, t, k, p, line, col, how in rows
        ]


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: committed when the block ends, rolled back if it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _set_meta(conn: sqlite3.Connection, meta: dict[str, str]) -> None:
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        meta.items(),
    )


def _kept_counts(conn: sqlite3.Connection) -> dict[str, Any] | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (COUNTS_META,)).fetchone()
    return json.loads(row[0]) if row else None


class _Names(dict[str, int]):
    """The integer ids of names, read from the ``names`` table as they are asked for."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__()
        self.conn = conn
        self.stored = conn.execute("SELECT 1 FROM names LIMIT 1").fetchone() is not None

    def missing(self, names: Iterable[str]) -> list[str]:
        """Of ``names``, the ones with no id yet, after reading the stored ones' ids."""
        unknown = [n for n in names if n not in self]
        if self.stored:
            query = "SELECT name, nid FROM names WHERE name IN ({})"
            self.update(rows_in(self.conn, query, unknown))
            unknown = [n for n in unknown if n not in self]
        return unknown


def _build(conn: sqlite3.Connection, put_off: dict[str, str], names: Iterable[str]) -> None:
    """Create the indexes of ``names`` that are still in ``put_off`` (name: statement)."""
    for name in [n for n in names if n in put_off]:
        conn.execute(put_off.pop(name))


class _NoFlush(nullcontext["_NoFlush"]):
    def __init__(self) -> None:
        super().__init__(self)

    def poke(self) -> None:
        pass


def _replace_link(link: Path, target: str) -> None:
    """Point the symbolic link ``link`` at ``target`` (a name in the same directory) in one
    atomic rename, whatever ``link`` was before."""
    tmp = link.with_name(f"{link.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    os.symlink(target, tmp)
    os.replace(tmp, link)


def _alive(pid: str) -> bool:
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


def _lock_holder(lock_path: Path) -> str:
    """The pid of a live index run holding ``lock_path``, or ''. Reads the pid the holder
    wrote; never takes the lock (a reader's try would make a starting writer fail)."""
    try:
        pid = lock_path.read_text("utf-8", errors="replace").strip()
    except OSError:
        return ""
    return pid if _alive(pid) else ""


class SqliteStore:
    """The index of one repository in ``<index_dir>/index.db``; implements ``GraphStore``.

    Use as a context manager (``with SqliteStore(d) as store: ...``) or call :meth:`open` and
    :meth:`close`. An index run holds :meth:`acquire_writer` for its whole duration.

    ``index.db`` is a symbolic link to the current *generation*, ``index.<stamp>.db``, each with
    its own ``-wal`` and ``-shm``. A rebuild (:meth:`start_fresh`) writes a new generation
    beside the current one and :meth:`publish` swaps the link in one ``rename``: readers that
    already hold a connection keep reading the old generation, whole, with its own WAL; new
    ones open the new one. Swapping the database file itself would not be safe in WAL mode:
    the old file's ``-wal`` and ``-shm`` keep their names, and SQLite would replay the old WAL
    over the new file for the next reader. (An index made before generations, a plain
    ``index.db``, is read as it is and replaced by a link at its first rebuild.)
    """

    def __init__(self, index_dir: Path, *, readonly: bool = False) -> None:
        self.index_dir = Path(index_dir)
        self.readonly = readonly
        self.db_path = self.index_dir / DB_NAME
        self.lock_path = self.index_dir / LOCK_NAME
        self.notes: list[str] = []  # what a writer found and dealt with (a dead run's lock)
        self._conn: sqlite3.Connection | None = None
        self._lock_fd: int | None = None
        self._aside: Path | None = None  # a generation being written, not yet published
        self._identity: tuple[int, int] | None = None  # (device, inode) of the open file
        # the search postings and the edges between repository symbols in memory, each with
        # the state of the index it was read from (store/kept.py: from a process's second
        # search on)
        self._postings: Kept[Postings] = Kept()
        self._adjacency: Kept[Adjacency] = Kept()
        self._searches = 0
        self._writes = 0  # applies through this store (they leave data_version as it is)
        self._symbols_seen: dict[str, Symbol | None] = {}  # get_symbols' answers, that state
        self._symbols_state: tuple[object, ...] | None = None  # the state they were read in
        # the state whose every symbol is kept (read with the search postings)
        self._symbols_whole: tuple[object, ...] | None = None

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> SqliteStore:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def exists(self) -> bool:
        """Whether there is a published index (``index.db`` leads to a file)."""
        return self.db_path.is_file()

    def open(self) -> None:
        """Open (creating it unless read-only) and validate the index; idempotent."""
        if self._conn is not None:
            return
        target = self._aside
        if target is None:
            if not self.exists():
                if self.readonly:
                    raise IndexMissing(
                        f"no astrag index at {self.index_dir}", hint="run `astrag index`"
                    )
                claim_dir(self.index_dir)
                self._link(self._new_generation())  # an empty index, published at once
            target = self.db_path.resolve()
        mode = "ro" if self.readonly else "rwc"
        try:
            # isolation_level=None: this module issues BEGIN/COMMIT itself, so a transaction is
            # exactly the span the code says, never one the sqlite3 module opened implicitly.
            conn = sqlite3.connect(
                f"{target.as_uri()}?mode={mode}",
                uri=True,
                isolation_level=None,
                timeout=BUSY_TIMEOUT_MS / 1000,
            )
        except sqlite3.DatabaseError as err:
            raise self._store_error(err) from err
        try:
            self._configure(conn)
            self._prepare(conn)
            st = os.stat(target)
        except sqlite3.DatabaseError as err:
            conn.close()
            raise self._store_error(err) from err
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        self._identity = (st.st_dev, st.st_ino)

    def close(self) -> None:
        self._postings.drop()
        self._adjacency.drop()
        self._symbols_state = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def reopen_if_replaced(self) -> bool:
        """Follow a rebuild another process published: when ``index.db`` now leads to another
        file than the one this store reads, reopen on it. True when it did."""
        if self._conn is None or self._aside is not None:
            return False
        try:
            st = os.stat(self.db_path)
        except OSError:
            return False
        if (st.st_dev, st.st_ino) == self._identity:
            return False
        self.close()
        self.open()
        return True

    # ------------------------------------------------------------------ generations

    def start_fresh(self) -> None:
        """Point this store at a new, empty generation beside the current index; readers keep
        the current one until :meth:`publish`. A run killed before that leaves the current
        index serving (the unpublished file is removed by the next writer). Needs
        :meth:`acquire_writer`."""
        if self._lock_fd is None:
            raise RuntimeError("start_fresh() needs acquire_writer()")
        self.close()
        self._aside = self._new_generation()
        self.open()

    def publish(self) -> None:
        """Make the generation :meth:`start_fresh` began the index, in one atomic rename; the
        one it replaces stays on disk (for readers still on it) until the next publish."""
        aside = self._aside
        if aside is None:
            return
        conn = self._db
        # published, it is read while the next run writes: WAL mode from here on
        conn.execute("PRAGMA journal_mode = WAL")
        # fold the WAL into the file, so the generation is whole in one file
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        previous = self.db_path.resolve() if self.exists() else None
        self._link(aside)
        self._aside = None
        if previous is not None and _GENERATION.fullmatch(previous.name):  # not a plain file
            _replace_link(self.index_dir / _PREVIOUS_NAME, previous.name)
        self._remove_stale_generations()

    def _new_generation(self) -> Path:
        path = self.index_dir / f"index.{time.time_ns():x}.db"
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return path

    def _link(self, target: Path) -> None:
        _replace_link(self.db_path, target.name)

    def _remove_stale_generations(self) -> None:
        """Delete generations that are neither current nor the one just replaced (runs that
        were killed before publishing, and older ones). Holders of the writer lock only."""
        keep = {self._current_name(DB_NAME), self._current_name(_PREVIOUS_NAME)}
        if self._aside is not None:
            keep.add(self._aside.name)
        legacy_sidecars = self.db_path.is_symlink()
        for entry in os.listdir(self.index_dir):
            base = entry
            for suffix in ("-wal", "-shm", "-journal"):
                base = base.removesuffix(suffix)
            stale_generation = _GENERATION.fullmatch(base) is not None and base not in keep
            # a replaced plain index.db's -wal/-shm: open readers keep them by descriptor
            stale_legacy = legacy_sidecars and base == DB_NAME and entry != DB_NAME
            if stale_generation or stale_legacy:
                with contextlib.suppress(OSError):
                    (self.index_dir / entry).unlink()

    def _current_name(self, link: str) -> str:
        try:
            return os.readlink(self.index_dir / link)
        except OSError:
            return ""

    def interrupted_first_index(self) -> str:
        """When there is no published index: why (a first index still running or killed), or
        ''."""
        if self.exists() or not self.index_dir.is_dir():
            return ""
        if not any(_GENERATION.fullmatch(n) for n in os.listdir(self.index_dir)):
            return ""
        holder = _lock_holder(self.lock_path)
        if holder:
            return f"the first index run (pid {holder}) is still building it"
        return "the first index run was interrupted before it finished"

    def _configure(self, conn: sqlite3.Connection) -> None:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if self._aside is not None:
            # A generation no reader sees until publish() needs no WAL: its rollback journal is
            # kept in memory (a failed apply still rolls back) and every page goes to the file
            # once, not to the WAL and then again into the file (medusa: 140 MB written once).
            # A run killed meanwhile leaves a file no one reads, removed by the next writer.
            conn.execute("PRAGMA journal_mode = MEMORY")
        elif not self.readonly:
            conn.execute("PRAGMA journal_mode = WAL")
        # NORMAL is durable against crashes of the process in WAL mode; a power loss can lose
        # the last commit, which only means re-indexing a few files.
        conn.execute("PRAGMA synchronous = NORMAL")
        # 16 MiB. A bulk write drops the edge indexes and appends in key order, so it needs few
        # pages at hand; 64 MiB wrote a cold medusa index no faster and was an eighth of a
        # cold sympy index's peak memory. Re-writing a tenth of medusa's edges with the
        # indexes kept: 0.24 CPU s at 64 MiB, 0.25 s at 16 MiB.
        conn.execute("PRAGMA cache_size = -16384")
        conn.execute("PRAGMA temp_store = MEMORY")

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Create the schema in a fresh database, or check that an existing one is ours."""
        tables = {r[0] for r in conn.execute(_TABLES_SELECT)}
        if not tables and not self.readonly:
            self._create_schema(conn)
            return
        if not tables:
            raise IndexMissing(f"{self.db_path} holds no index", hint="run `astrag index`")
        if "meta" in tables:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            if not self.readonly:
                meta = self._migrate(conn, meta)
                tables = {r[0] for r in conn.execute(_TABLES_SELECT)}
            # before the tables: an older version's index lacks those its migrations add
            self._check_versions(meta)
        missing = _TABLES - tables
        if missing:
            raise IndexCorrupt(
                f"{self.db_path} is not an astrag index (missing tables: "
                f"{', '.join(sorted(missing))})",
                hint=REBUILD_HINT,
            )

    def _migrate(self, conn: sqlite3.Connection, meta: dict[str, str]) -> dict[str, str]:
        """Bring an index of an older schema version up to this one where a migration exists
        (in one transaction: all of it or none); an older one is left for a rebuild."""
        raw = meta.get("schema_version", "")
        version = int(raw) if raw.isdigit() else SCHEMA_VERSION
        if version >= SCHEMA_VERSION or version not in _MIGRATIONS:
            return meta
        with _transaction(conn):
            while version < SCHEMA_VERSION:
                for step in _MIGRATIONS[version]:
                    if isinstance(step, str):
                        conn.execute(step)
                    else:
                        step(conn)
                version += 1
            _set_meta(conn, {"schema_version": str(version)})
        self.notes.append(f"upgraded the index from schema version {raw} to {version}")
        return {**meta, "schema_version": str(version)}

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        with _transaction(conn):
            for statement in [
                *_SCHEMA.split(";"),
                *_FILE_INDEXES.values(),
                *_EDGE_INDEXES.values(),
            ]:
                if statement.strip():
                    conn.execute(statement)
            conn.executemany(
                "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
                [("schema_version", str(SCHEMA_VERSION)), ("facts_format", FACTS_FORMAT)],
            )
            # kept from the start, so every apply moves them by what it changes
            _set_meta(conn, {COUNTS_META: json.dumps(recount(conn), sort_keys=True)})

    def _check_versions(self, meta: dict[str, str]) -> None:
        raw = meta.get("schema_version", "")
        if not raw.isdigit():
            raise IndexCorrupt(
                f"{self.db_path} has no valid schema_version ({raw!r})", hint=REBUILD_HINT
            )
        found = int(raw)
        if found > SCHEMA_VERSION:
            raise IndexIncompatible(
                f"the index at {self.index_dir} has schema version {found}, newer than version "
                f"{SCHEMA_VERSION} that this astrag understands",
                hint=f"upgrade astrag, or {REBUILD_HINT} with this version",
            )
        if found < SCHEMA_VERSION:
            upgradable = found in _MIGRATIONS and self.readonly
            error = IndexOutdated if upgradable else IndexIncompatible
            raise error(
                f"the index at {self.index_dir} has schema version {found}, older than version "
                f"{SCHEMA_VERSION} that this astrag writes",
                hint="run `astrag index` to upgrade it in place" if upgradable else REBUILD_HINT,
            )
        if meta.get("facts_format") != FACTS_FORMAT:
            raise IndexIncompatible(
                f"the index at {self.index_dir} stores parsed files in format "
                f"{meta.get('facts_format')!r}; this astrag uses {FACTS_FORMAT!r}",
                hint=REBUILD_HINT,
            )

    def _store_error(self, err: sqlite3.DatabaseError) -> StoreError:
        code = getattr(err, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
            return IndexCorrupt(
                f"{self.db_path} is damaged or not an astrag index ({err})", hint=REBUILD_HINT
            )
        if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return IndexLocked(
                f"the index database at {self.db_path} stayed locked for "
                f"{BUSY_TIMEOUT_MS // 1000} s ({err})",
                hint="wait for the other astrag process to finish, then retry",
            )
        if isinstance(err, sqlite3.IntegrityError):
            return StoreError(
                f"the index update broke a uniqueness rule ({err}); a symbol id is duplicated",
                hint="this is a bug in astrag's resolver; please report it",
            )
        return StoreError(
            f"SQLite failed on {self.db_path}: {err}",
            hint="check disk space and permissions of the index directory",
        )

    @property
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("SqliteStore is not open; call open() or use it as a context")
        return self._conn

    # ------------------------------------------------------------------ writer lock

    @contextmanager
    def acquire_writer(self) -> Iterator[None]:
        """Hold the exclusive writer lock of this index, or raise :class:`IndexLocked` at once.

        Re-entrant within one store. The lock file holds the holder's pid while it runs and is
        emptied on release, so a pid found there on taking the lock is a run that died: the lock
        (which the kernel dropped with it) is taken over with a note. Forked workers never keep
        it (``lifeline``), so a dead run's lock is never reported as busy.
        """
        if self.readonly:
            raise StoreError(
                "this index store was opened read-only", hint="open it without readonly=True"
            )
        if self._lock_fd is not None:
            yield
            return
        claim_dir(self.index_dir)
        fd = self._take_lock()
        try:
            dead = os.pread(fd, 32, 0).decode(errors="replace").strip()
            if dead and dead != str(os.getpid()):
                self.notes.append(
                    f"took over the index lock of an astrag run (pid {dead}) that died "
                    "before it finished; its unfinished work was discarded"
                )
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            self._lock_fd = fd
            self._remove_stale_generations()
            yield
        finally:
            self._lock_fd = None
            if self._aside is not None:  # never published: the current index stays
                self.close()
                self._aside = None
                self._remove_stale_generations()
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)  # a clean release leaves no pid behind
            lifeline.release(fd)
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def _take_lock(self) -> int:
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        lifeline.parent_only(fd)  # before the flock: a fork in between must not inherit it
        for _ in range(_DEAD_HOLDER_TRIES):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
                if _alive(holder):
                    break
                # the holder is gone: the kernel is releasing its lock, or a process that
                # inherited the descriptor (an older astrag's worker) still has it
                time.sleep(0.1)
        lifeline.release(fd)
        os.close(fd)
        if _alive(holder):
            raise IndexLocked(
                f"another astrag index run (pid {holder or 'unknown'}) is writing this index",
                hint="wait for it to finish; the lock is released as soon as it exits",
            )
        raise IndexLocked(
            f"the index lock of a dead astrag run (pid {holder or 'unknown'}) is still held by "
            "a process it left behind",
            hint=f"end the leftover astrag processes (`fuser {self.lock_path}` lists them)",
        )

    # ------------------------------------------------------------------ transactions

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Make all reads inside the block see one consistent state of the index.

        Reads outside a snapshot are each consistent on their own; loading symbols and then
        edges for a graph needs both from the same version, hence this block.
        """
        conn = self._db
        if conn.in_transaction:
            yield
            return
        conn.execute("BEGIN")
        try:
            yield
        finally:
            conn.execute("COMMIT")

    def apply(
        self, update: IndexUpdate, then: Callable[[], Iterable[IndexUpdate]] | None = None
    ) -> None:
        """Apply ``update`` atomically, in the order :class:`IndexUpdate` documents.

        ``then``, if given, is called once ``update`` is written, and every update it yields is
        applied in the same transaction as it arrives: the indexer writes files and symbols,
        then each batch of edges, while later edges are still being resolved elsewhere. Readers
        see all of it or none of it. The updates ``then`` yields must replace edges of
        disjoint sets of files (each file's edges arrive once), and into an index without
        files, each file's symbols and documents too.
        """
        self._check_meta(update)
        with self.acquire_writer():
            self._apply_locked(update, then)

    @staticmethod
    def _check_meta(update: IndexUpdate) -> None:
        bad_meta = _RESERVED_META & update.meta.keys()
        if bad_meta:
            raise ValueError(f"meta keys {sorted(bad_meta)} are managed by the store")

    @_translate_errors
    def _apply_locked(
        self, update: IndexUpdate, then: Callable[[], Iterable[IndexUpdate]] | None
    ) -> None:
        conn = self._db
        if conn.in_transaction:
            raise RuntimeError("apply() cannot run inside snapshot()")
        self._postings.drop()
        self._adjacency.drop()
        self._writes += 1  # this connection's own writes leave data_version as it is
        with _transaction(conn):
            kept = _kept_counts(conn)
            # an index written before the counts were kept counts them once, below
            tally = CountDeltas(conn, kept) if kept is not None else None
            # names are read as an update needs them (an edit needs a few of medusa's 36k), none
            # at all when the table starts empty (a first index)
            nids = _Names(conn)
            pids = PathIds(conn)
            self._apply_parts(conn, update, nids, pids, tally)
            fresh = False
            if then is not None:
                # into an empty edge table, building the indexes once at the end beats keeping
                # them up to date row by row (measured: 400k edges, 1.5 s instead of 2.3 s CPU)
                bulk = conn.execute("SELECT 1 FROM edges LIMIT 1").fetchone() is None
                # into an index without files (a first index, a rebuild) each file's rows
                # arrive once, so nothing is looked for to delete first (medusa: 0.12 CPU s)
                fresh = bulk and conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is None
                put_off = {**(_FILE_INDEXES if fresh else {}), **(_EDGE_INDEXES if bulk else {})}
                for name in put_off:
                    conn.execute(f"DROP INDEX IF EXISTS {name}")
                with self._flushing() as flush:
                    for part in then():
                        self._check_meta(part)
                        if fresh and (part.edges or part.edge_rows or part.placeholders):
                            # the files are in: later rows (placeholders) go into the indexes
                            _build(conn, put_off, _FILE_INDEXES)
                        self._apply_parts(
                            conn, part, nids, pids, tally, indexes_managed=bulk, fresh=fresh
                        )
                        if part.pause:
                            # built now, while the writer would wait, over most of the edges;
                            # the last few are written into them (SQLite keeps an index)
                            _build(conn, put_off, list(put_off))
                        flush.poke()
                    _build(conn, put_off, list(put_off))  # whatever is not built yet
            if not fresh:
                # into an index without files nothing was deleted or replaced, so nothing can
                # be left unused: every name interned went into a row of its own update, and
                # every placeholder is an edge's target (medusa: 0.05 s after the last edges)
                self._collect_garbage(conn, tally)
            if pids.removed:
                collect_paths(conn)  # removed files' paths may be in no set any more
            counts = tally.finish() if tally is not None else recount(conn)
            _set_meta(conn, {COUNTS_META: json.dumps(counts, sort_keys=True)})

    def _flushing(self) -> BackgroundFlush | _NoFlush:
        """Pages synced in the background while a new generation is written (store/flush.py);
        an index readers see writes to its WAL, which its commits sync."""
        if self._aside is None:
            return _NoFlush()
        return BackgroundFlush(self._aside)

    def _apply_parts(
        self,
        conn: sqlite3.Connection,
        update: IndexUpdate,
        nids: dict[str, int],
        pids: PathIds,
        tally: CountDeltas | None,
        indexes_managed: bool = False,
        fresh: bool = False,
    ) -> None:
        pids.removed |= bool(update.removed)
        self._remove_files(conn, update.removed, tally)
        self._upsert_files(conn, update.files, tally)
        self._intern(conn, update, nids)
        self._replace_symbols(conn, update, nids, tally, fresh)
        self._replace_edges(conn, update, nids, tally, indexes_managed)
        replace_depends(conn, update.depends, update.depends_paths, pids)
        self._replace_docs(conn, update, nids, fresh)
        _set_meta(conn, update.meta)

    # ------------------------------------------------------------------ apply steps

    @staticmethod
    def _remove_files(
        conn: sqlite3.Connection, removed: tuple[str, ...], tally: CountDeltas | None
    ) -> None:
        if tally is not None and removed:
            tally.files_deleting(removed)
            tally.symbols_deleting(removed)
            tally.edges_deleting(removed)
        rows = [(p,) for p in removed]
        conn.executemany("DELETE FROM files WHERE path = ?", rows)
        conn.executemany("DELETE FROM facts WHERE path = ?", rows)
        conn.executemany("DELETE FROM symbols WHERE path = ?", rows)
        conn.executemany(
            "DELETE FROM edges WHERE path = (SELECT nid FROM names WHERE name = ?)", rows
        )
        SqliteStore._delete_docs(conn, removed)
        # Rows of *other* files that depend on a removed one stay: they are how the indexer
        # finds the files to re-resolve, and they are replaced when those files are.
        conn.executemany("DELETE FROM depends WHERE file = ?", rows)

    @staticmethod
    def _upsert_files(
        conn: sqlite3.Connection,
        files: tuple[tuple[FileRecord, FileFacts | bytes], ...],
        tally: CountDeltas | None,
    ) -> None:
        for record, facts in files:
            if isinstance(facts, FileFacts) and record.path != facts.path:
                raise ValueError(f"FileRecord {record.path!r} paired with facts of {facts.path!r}")
        if tally is not None and files:
            tally.files_deleting(r.path for r, _ in files)
            tally.files_written(r for r, _ in files)
        conn.executemany(
            "INSERT OR REPLACE INTO files (path, language, hash, size, mtime_ns, lines, errors, "
            "note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (r.path, r.language, r.hash, r.size, r.mtime_ns, r.lines, r.errors, r.note)
                for r, _ in files
            ],
        )
        conn.executemany(
            "INSERT OR REPLACE INTO facts (path, data) VALUES (?, ?)",
            # facts may arrive already encoded (by the parser processes, off the main one)
            [(r.path, f if isinstance(f, bytes) else encode_facts(f)) for r, f in files],
        )

    @staticmethod
    def _intern(conn: sqlite3.Connection, update: IndexUpdate, nids: _Names) -> None:
        """Add integer ids to ``nids`` for every symbol id and edge path the update writes."""
        names: set[str] = {s.id for s in update.symbols}
        names.update(d.id for d in update.docs)
        names.update(s.id for s in update.placeholders)
        for e in update.edges:
            names.add(e.source)
            names.add(e.target)
            names.add(e.path)
        rows = update.edge_rows
        if rows:  # a pass of C per column, not a Python loop per row
            names.update(map(itemgetter(0), rows))
            names.update(map(itemgetter(1), rows))
            names.update(map(itemgetter(3), rows))
        # sorted: ids then follow names, so each file's symbols get neighbouring ids and the
        # tables keyed by id are written in order instead of at random pages
        new = [(n,) for n in sorted(nids.missing(names))]
        if not new:
            return
        (before,) = conn.execute("SELECT coalesce(max(nid), 0) FROM names").fetchone()
        conn.executemany("INSERT OR IGNORE INTO names (name) VALUES (?)", new)
        # only rows this call added: re-reading the whole table for every batch would not scale
        nids.update(conn.execute("SELECT name, nid FROM names WHERE nid > ?", (before,)))

    @staticmethod
    def _replace_symbols(
        conn: sqlite3.Connection,
        update: IndexUpdate,
        nids: dict[str, int],
        tally: CountDeltas | None,
        fresh: bool = False,
    ) -> None:
        if not fresh:
            if tally is not None and update.symbols_for:
                tally.symbols_deleting(update.symbols_for)
            rows = [(p,) for p in update.symbols_for]
            conn.executemany("DELETE FROM symbols WHERE path = ?", rows)
        insert = "INSERT INTO symbols VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        rows = sorted((_symbol_row(nids[s.id], s) for s in update.symbols), key=itemgetter(0))
        conn.executemany(insert, rows)
        for p in update.placeholders:
            if p.path:
                raise ValueError(f"placeholder {p.id!r} has a path ({p.path!r})")
        upsert = insert.replace("INSERT", "INSERT OR REPLACE", 1)
        # one row per id, the last given winning, as the upsert leaves them
        placeholders = {nids[s.id]: s for s in update.placeholders}
        if tally is not None:
            tally.symbols_written((nids[s.id], s) for s in update.symbols)
            tally.symbols_replacing(placeholders)
            tally.symbols_written(placeholders.items())
        conn.executemany(upsert, [_symbol_row(nid, s) for nid, s in placeholders.items()])

    @staticmethod
    def _replace_edges(
        conn: sqlite3.Connection,
        update: IndexUpdate,
        nids: dict[str, int],
        tally: CountDeltas | None,
        indexes_managed: bool = False,
    ) -> None:
        text = EDGE_KIND_TEXT
        codes = RESOLUTION_CODE
        # unpacked (source, target, kind, path, line, column, resolution), not read by field
        # name: a quarter less per edge (25k of medusa's: 7.2 -> 5.4 ms)
        rows = [
            (nids[s], nids[t], text[k], nids[p], line, col, codes[how])
            for s, t, k, p, line, col, how in update.edges
        ]
        if update.edge_rows:
            rows += _edge_rows(update.edge_rows, nids)
        if indexes_managed:
            # the caller started from an empty edge table and feeds disjoint files: nothing to
            # delete, and without the path index each DELETE would scan the table
            bulk = False
        else:
            if tally is not None and update.edges_for:
                tally.edges_deleting(update.edges_for)
            conn.executemany(
                "DELETE FROM edges WHERE path = (SELECT nid FROM names WHERE name = ?)",
                [(p,) for p in update.edges_for],
            )
            (remaining,) = conn.execute("SELECT count(*) FROM edges").fetchone()
            # Building an index once over sorted keys beats maintaining it row by row (400k
            # edges: 1.5 s instead of 2.3 s CPU); worth it only when the insert dominates.
            bulk = len(rows) > max(_BULK_EDGES, remaining)
        if bulk:
            for name in _EDGE_INDEXES:
                conn.execute(f"DROP INDEX IF EXISTS {name}")
        conn.executemany(
            "INSERT INTO edges (src, dst, kind, path, line, col, res) VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        if tally is not None:
            tally.edges_written(rows)
        if bulk:
            for statement in _EDGE_INDEXES.values():
                conn.execute(statement)

    @staticmethod
    def _delete_docs(conn: sqlite3.Connection, paths: Iterable[str]) -> None:
        rows = [(p,) for p in paths]
        conn.executemany(
            "DELETE FROM docs_fts WHERE rowid IN (SELECT nid FROM docs WHERE path = ?)", rows
        )
        conn.executemany("DELETE FROM docs WHERE path = ?", rows)

    @staticmethod
    def _replace_docs(
        conn: sqlite3.Connection, update: IndexUpdate, nids: dict[str, int], fresh: bool = False
    ) -> None:
        if not fresh:
            SqliteStore._delete_docs(conn, update.docs_for)
        # in rowid order: FTS5 flushes its pending terms to a new segment whenever a rowid is
        # lower than the last one it took, and nids come out of _intern in set order. Unsorted,
        # a full index flushed every few documents and then merged the segments (django's 60k
        # documents: 3.7 s CPU for the FTS5 insert, 1.5 s sorted).
        docs = sorted(((nids[d.id], d) for d in update.docs), key=itemgetter(0))
        conn.executemany(
            "INSERT OR REPLACE INTO docs (nid, path, hash, text) VALUES (?, ?, ?, ?)",
            [(nid, d.path, d.hash, d.text) for nid, d in docs],
        )
        conn.executemany(
            "INSERT INTO docs_fts (rowid, name, qual, sig, doc, body) VALUES (?, ?, ?, ?, ?, ?)",
            [(nid, d.name, d.qual, d.sig, d.doc, d.body) for nid, d in docs],
        )

    @staticmethod
    def _collect_garbage(conn: sqlite3.Connection, tally: CountDeltas | None) -> None:
        unused = "path = '' AND NOT EXISTS (SELECT 1 FROM edges WHERE edges.dst = symbols.nid)"
        if tally is not None:
            tally.placeholders_collected(
                conn.execute(f"SELECT nid, kind FROM symbols WHERE {unused}")
            )
        conn.execute(f"DELETE FROM symbols WHERE {unused}")
        # Names nothing refers to any more (renamed or deleted symbols); without this the
        # table only grows across incremental updates.
        # (``nid NOT IN`` the symbols' own keys, not a correlated NOT EXISTS per name: the same
        # names, nid never NULL; medusa's 38.6k names 0.011 -> 0.004 s, on every write)
        conn.execute(
            "DELETE FROM names WHERE nid NOT IN (SELECT nid FROM symbols) "
            "AND NOT EXISTS (SELECT 1 FROM edges WHERE src = names.nid) "
            "AND NOT EXISTS (SELECT 1 FROM edges WHERE dst = names.nid) "
            "AND NOT EXISTS (SELECT 1 FROM edges WHERE path = names.nid) "
            "AND NOT EXISTS (SELECT 1 FROM docs WHERE nid = names.nid)"
        )

    # ------------------------------------------------------------------ reads

    @_translate_errors
    def schema_version(self) -> int:
        return int(self.meta()["schema_version"])

    @_translate_errors
    def meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta"))

    @_translate_errors
    def set_meta(self, meta: dict[str, str]) -> None:
        """Set ``meta`` keys alone, in one small transaction (a run that changed nothing)."""
        self._check_meta(IndexUpdate(meta=meta))
        with self.acquire_writer(), _transaction(self._db):
            _set_meta(self._db, meta)

    @_translate_errors
    def file_records(self) -> dict[str, FileRecord]:
        rows = self._db.execute(
            "SELECT path, language, hash, size, mtime_ns, lines, errors, note FROM files"
        )
        new = _new_file_record  # every run reads all of them: medusa's 5.7k, 0.016 -> 0.010 s
        return {r[0]: new(*r) for r in rows}

    @_translate_errors
    def load_facts(self, paths: Iterable[str] | None = None) -> dict[str, FileFacts]:
        """Parsed facts of ``paths`` (all files when None); unknown paths are left out."""
        lazy = self.lazy_facts(paths)
        with gc_paused():
            return {path: lazy[path] for path in lazy}

    @_translate_errors
    def lazy_facts(self, paths: Iterable[str] | None = None) -> LazyFacts:
        """Like :meth:`load_facts`, but a file's facts are read and decoded when first used:
        an incremental update consults a fraction of the files."""
        if paths is None:
            paths = [row[0] for row in self._db.execute("SELECT path FROM facts")]
        else:  # unknown paths are left out, as load_facts does
            keys = list(dict.fromkeys(paths))
            if len(keys) > CHUNK:
                # most of the files (an incremental run keeps every unchanged one): one scan
                # of the paths beats IN lists of them (medusa's 5.7k: 14 -> 4 ms)
                known = {row[0] for row in self._db.execute("SELECT path FROM facts")}
                paths = [p for p in keys if p in known]
            else:
                query = "SELECT path FROM facts WHERE path IN ({})"
                paths = [row[0] for row in self._rows_for(query, keys)]
        return LazyFacts(dict.fromkeys(paths), where=str(self.db_path), fetch=self._facts_blob)

    @_translate_errors
    def _facts_blob(self, path: str) -> bytes:
        row = self._db.execute("SELECT data FROM facts WHERE path = ?", (path,)).fetchone()
        if row is None:
            raise IndexCorrupt(f"no stored facts for {path} in {self.db_path}", REBUILD_HINT)
        return row[0]

    @_translate_errors
    def facts_blob(self, path: str) -> bytes:
        """The stored (codec-encoded) facts of ``path``, for copying an index."""
        return self._facts_blob(path)

    @_translate_errors
    def all_depends(self) -> dict[str, frozenset[str]]:
        """Every file's dependency row (for copying an index)."""
        return all_depends(self._db)

    @_translate_errors
    def all_docs(self) -> list[SearchDoc]:
        """Every search document, fields as written (for copying an index)."""
        rows = self._db.execute(
            "SELECT n.name, d.path, f.name, f.qual, f.sig, f.doc, f.body, d.text FROM docs d "
            "JOIN docs_fts f ON f.rowid = d.nid JOIN names n ON n.nid = d.nid ORDER BY d.nid"
        )
        return [SearchDoc(*r) for r in rows]

    @_translate_errors
    def dependents(self, paths: Iterable[str]) -> set[str]:
        """Files whose resolution consulted any of ``paths``."""
        return dependents(self._db, paths)

    @_translate_errors
    def get_symbol(self, symbol_id: str) -> Symbol | None:
        row = self._db.execute(_SYMBOL_SELECT + " WHERE n.name = ?", (symbol_id,)).fetchone()
        return _symbol_from_row(row) if row else None

    @_translate_errors
    def get_symbols(self, symbol_ids: Iterable[str]) -> dict[str, Symbol]:
        """The symbols of ``symbol_ids`` that exist, by id: one query per few hundred ids."""
        keys = list(dict.fromkeys(symbol_ids))
        seen = self._seen_symbols()
        if seen is not None and (
            self._symbols_whole == self._symbols_state or all(k in seen for k in keys)
        ):
            # all kept (or every symbol of the state is): one read of the state, no
            # transaction (a search's forty hits)
            return {k: symbol for k in keys if (symbol := seen.get(k)) is not None}
        query = _SYMBOL_SELECT + " WHERE n.name IN ({})"
        with self.snapshot():  # the state the kept symbols are checked against is the one read
            seen = self._seen_symbols()
            if seen is None:
                return {r[0]: _symbol_from_row(r) for r in self._rows_for(query, keys)}
            missing = [k for k in keys if k not in seen]
            if missing:
                if len(seen) + len(missing) > _SEEN_SYMBOLS:
                    seen.clear()
                seen.update(dict.fromkeys(missing))
                seen.update((r[0], _symbol_from_row(r)) for r in self._rows_for(query, missing))
        return {k: symbol for k in keys if (symbol := seen[k]) is not None}

    def _seen_symbols(self) -> dict[str, Symbol | None] | None:
        """The symbols read so far of the index as it is now (None: no such symbol), kept
        while the search postings or the edges are held in memory (a warm process, from its
        second search); None when neither is. Kept from the postings too: a process that
        only searches loaded each query's forty hits with SQL, an eighth of a warm search.
        Reading the postings reads every symbol of their state into it (``_symbols_whole``):
        a warm search's hits were still mostly ones no earlier query had read."""
        stamp = self._stamp()
        if self._postings.now(stamp) is None and self._adjacency.now(stamp) is None:
            return None
        if self._symbols_state != stamp:
            self._symbols_seen, self._symbols_state = {}, stamp
        return self._symbols_seen

    def _stamp(self) -> tuple[object, ...]:
        """The state of the index as this connection sees it: the file, another connection's
        commits (``data_version``) and this one's own (they leave ``data_version`` as it is)."""
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        return (self._identity, version, self._writes)

    @_translate_errors
    def symbols_named(self, name: str) -> list[Symbol]:
        return self._symbols_where("s.name = ?", name)

    @_translate_errors
    def symbols_by_qualname(self, qualname: str) -> list[Symbol]:
        return self._symbols_where("s.qualname = ?", qualname)

    @_translate_errors
    def symbols_in_file(self, path: str) -> list[Symbol]:
        return self._symbols_where("s.path = ?", path)

    @_translate_errors
    def all_symbols(self) -> list[Symbol]:
        rows = self._db.execute(_SYMBOL_SELECT + " ORDER BY s.path, s.start_line, n.name")
        with gc_paused():
            return [_symbol_from_row(r) for r in rows]

    @_translate_errors
    def all_edges(self) -> list[Edge]:
        """Every edge, in insertion order."""
        with self.snapshot():
            # Mapping integers through a dict in Python is twice as fast as three joins.
            names = dict(self._db.execute("SELECT nid, name FROM names"))
            rows = self._db.execute("SELECT src, dst, kind, path, line, col, res FROM edges")
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
        """Module symbols whose path is ``path`` or ends with ``/path``."""
        pattern = suffix_pattern(path)
        rows = self._db.execute(
            f"{_SYMBOL_SELECT} WHERE s.kind = 'module' AND (s.path = ? OR s.path LIKE ? "
            "ESCAPE '\\')",
            (path, pattern),
        )
        # LIKE ignores ASCII case; paths do not
        found = [s for s in map(_symbol_from_row, rows) if s.path.endswith(path)]
        return sorted(found, key=lambda s: s.path)

    @_translate_errors
    def search_text(
        self, words: Sequence[str], weights: tuple[float, ...], limit: int
    ) -> list[tuple[str, float]]:
        """Symbol ids whose document contains any of ``words``, best first, with a BM25 score
        (higher is better) weighting the fields name, qual, sig, doc, body."""
        if not words:
            return []
        # whole weights only: FTS5 adds a field's weight once per occurrence, and only then is
        # any order of that sum the same number (store/postings.py)
        if limit > 0 and all(float(w).is_integer() for w in weights):
            memory = self._warm_postings()
            if memory is not None:
                from astrag.store.postings import rank

                terms = lexical.query_terms(words)
                if all(t is not None for t in terms):
                    return rank(memory, terms, weights, limit)  # type: ignore[arg-type]
        started = time.perf_counter()
        try:
            return self._search_fts(words, weights, limit)
        finally:
            self._postings.asked(time.perf_counter() - started)

    def _search_fts(
        self, words: Sequence[str], weights: tuple[float, ...], limit: int
    ) -> list[tuple[str, float]]:
        """:meth:`search_text` asked of FTS5 itself."""
        # every word quoted: FTS5 would read AND/OR/NEAR or a stray '*' as syntax
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        bm25 = f"bm25(docs_fts, {', '.join(str(float(w)) for w in weights)})"
        # ranked inside the FTS table first and joined to the names only for the best: joining
        # every match (5,400 a query on a 495k-line repository) before sorting cost a fifth of
        # the query. Twice the limit is kept so that ties at the cut still break by name.
        rows = self._db.execute(
            f"SELECT n.name, s.r FROM (SELECT rowid AS nid, {bm25} AS r FROM docs_fts "
            "WHERE docs_fts MATCH ? ORDER BY r LIMIT ?) s JOIN names n ON n.nid = s.nid "
            "ORDER BY s.r, n.name LIMIT ?",
            (match, 2 * limit, limit),
        )
        return [(sid, -score) for sid, score in rows]

    def _warm_postings(self) -> Postings | None:
        """The search postings in memory (``store/postings.py``) for the index as it is now,
        or None to ask FTS5; when they are read is :class:`~astrag.store.kept.Kept`'s rule."""
        self._searches += 1
        return self._postings.get(self._stamp(), self._searches, self._read_postings)

    def _read_postings(self) -> Postings:
        from astrag.store.postings import build  # numpy: not for a process that asks once

        conn = self._db
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.docs_terms "
            "USING fts5vocab(main, docs_fts, 'instance')"
        )
        with self.snapshot():
            (rows,) = conn.execute("SELECT count(*) FROM docs_fts_docsize").fetchone()
            postings = build(
                rows,
                conn.execute(_TERMS_SELECT),
                conn.execute("SELECT d.nid, n.name FROM docs d JOIN names n ON n.nid = d.nid"),
            )
            # every symbol of this state, kept with the postings: a warm search's forty hits
            # are mostly symbols no earlier query read, and reading them with SQL was a tenth
            # of the search (0.5 ms on an 800k-line repository; 0.3 s and ~45 MB once here)
            with gc_paused():
                self._symbols_seen = {
                    r[0]: _symbol_from_row(r) for r in conn.execute(_SYMBOL_SELECT)
                }
            self._symbols_state = self._symbols_whole = self._stamp()
            return postings

    @_translate_errors
    def vectors(self) -> tuple[list[str], list[bytes]]:
        """Every symbol that has a vector, and its vector's bytes (the embedder's format)."""
        rows = self._db.execute(
            "SELECT n.name, v.vec FROM docs d JOIN vectors v ON v.hash = d.hash "
            "JOIN names n ON n.nid = d.nid ORDER BY d.nid"
        ).fetchall()
        return [r[0] for r in rows], [r[1] for r in rows]

    @_translate_errors
    def texts_without_vectors(self, hashes: Collection[str] | None = None) -> list[tuple[str, str]]:
        """(hash, text) of every document text no vector is cached for, each text once;
        with ``hashes``, only among those texts (a run that knows what it wrote)."""
        query = (
            "SELECT hash, min(text) FROM docs WHERE {}NOT EXISTS "
            "(SELECT 1 FROM vectors v WHERE v.hash = docs.hash) GROUP BY hash ORDER BY hash"
        )
        if hashes is None:
            return self._db.execute(query.format("")).fetchall()
        # sorted, so the chunks' rows come in hash order as the whole query's would
        return list(self._rows_for(query.format("hash IN ({}) AND "), sorted(set(hashes))))

    @_translate_errors
    def vector_hashes(self, hashes: Collection[str]) -> set[str]:
        """Those of the text ``hashes`` a vector is cached for."""
        query = "SELECT hash FROM vectors WHERE hash IN ({})"
        return {h for (h,) in self._rows_for(query, sorted(set(hashes)))}

    @_translate_errors
    def put_vectors(
        self, rows: Iterable[tuple[str, bytes]], *, clear: bool = False, meta: dict[str, str]
    ) -> None:
        """Cache vectors by text hash in one transaction, dropping those no document uses
        any more; ``clear`` first forgets every cached vector (another embedder made them)."""
        self._check_meta(IndexUpdate(meta=meta))
        with self.acquire_writer():
            conn = self._db
            with _transaction(conn):
                if clear:
                    conn.execute("DELETE FROM vectors")
                conn.executemany("INSERT OR REPLACE INTO vectors (hash, vec) VALUES (?, ?)", rows)
                # NOT IN the documents' hashes, not a correlated NOT EXISTS per vector: the same
                # rows (neither column is ever NULL); medusa's 34k vectors 0.013 -> 0.010 s
                conn.execute("DELETE FROM vectors WHERE hash NOT IN (SELECT hash FROM docs)")
                _set_meta(conn, meta)

    @_translate_errors
    def neighbours(
        self, ids: Iterable[str], kinds: Iterable[str], *, incoming: bool
    ) -> list[tuple[str, str, str, Resolution]]:
        """(id, neighbour id, edge kind, resolution) for every edge of ``kinds`` from (or,
        ``incoming``, into) ``ids`` whose other end is a repository symbol: what a graph walk
        can show, without building Edge objects or loading the placeholders it would drop."""
        keys = list(dict.fromkeys(ids))
        kind_list = [str(k) for k in kinds]
        memory = self._warm_adjacency()
        if memory is not None:
            from astrag.store.adjacency import neighbours

            return neighbours(memory, keys, kind_list, incoming=incoming, levels=RESOLUTION_CODES)
        started = time.perf_counter()
        try:
            return self._neighbours_sql(keys, kind_list, incoming=incoming)
        finally:
            self._adjacency.asked(time.perf_counter() - started)

    def _neighbours_sql(
        self, keys: list[str], kind_list: list[str], *, incoming: bool
    ) -> list[tuple[str, str, str, Resolution]]:
        """:meth:`neighbours` asked of SQLite itself."""
        here, there = ("dst", "src") if incoming else ("src", "dst")
        query = (
            f"SELECT hn.name, tn.name, e.kind, e.res FROM edges e "
            f"JOIN names hn ON hn.nid = e.{here} JOIN names tn ON tn.nid = e.{there} "
            f"JOIN symbols t ON t.nid = e.{there} "
            f"WHERE e.{here} IN (SELECT nid FROM names WHERE name IN ({{}})) "
            f"AND e.kind IN ({marks(len(kind_list))}) AND t.path != '' ORDER BY e.rowid"
        )
        levels = RESOLUTION_CODES
        with self.snapshot():
            rows = self._rows_for(query, keys, *kind_list)
            return [(h, t, k, levels[r]) for h, t, k, r in rows]

    @_translate_errors
    def warm_adjacency(self) -> Adjacency | None:
        """The edges between repository symbols in memory (``store/adjacency.py``) for the
        index as it is now, or None to ask :meth:`neighbours`: read, as the postings are, only
        in a process that has searched twice (the CLI asks once)."""
        return self._warm_adjacency()

    def _warm_adjacency(self) -> Adjacency | None:
        """:meth:`warm_adjacency`, for the store's own callers."""
        return self._adjacency.get(self._stamp(), self._searches, self._read_adjacency)

    def _read_adjacency(self) -> Adjacency:
        from astrag.store.adjacency import build  # numpy: not for a process that asks once

        conn = self._db
        with self.snapshot():
            found = build(
                conn.execute("SELECT rowid, src, dst, kind, res FROM edges"),
                conn.execute("SELECT nid, name FROM names"),
                (nid for (nid,) in conn.execute("SELECT nid FROM symbols WHERE path != ''")),
                CHUNK,  # the keys per query of _neighbours_sql (rows_in): its order of edges
            )
        if self._symbols_whole != self._symbols_state:
            self._symbols_state = None  # those kept are read again for this state
        return found

    @_translate_errors
    def counts(self) -> dict[str, Any]:
        """Sizes for status output; ``calls`` splits call edges by what their target is.

        Keys: files, lines, parse_errors, files_with_errors, symbols (by kind, placeholders
        excluded), placeholders (by kind), edges (by kind), calls (resolved / name /
        external / unresolved / dangling, the last for targets with no symbol row at all),
        languages (files of each).
        """
        conn = self._db
        if self._lock_fd is not None and not conn.in_transaction:
            # the writer of an index written before the counts were kept: count once, keep
            with _transaction(conn):
                if not _kept_counts(conn):
                    _set_meta(conn, {COUNTS_META: json.dumps(recount(conn), sort_keys=True)})
        with self.snapshot():
            return _kept_counts(conn) or recount(conn)

    @_translate_errors
    def calls_by_file(self) -> dict[str, dict[str, int]]:
        """``calls`` edges per file of their site, split as :meth:`counts` splits them
        (resolved / external / unresolved / dangling): resolution rates by folder or language."""
        out: dict[str, dict[str, int]] = {}
        with self.snapshot():
            rows = self._db.execute(
                f"SELECT pn.name, {CALL_TARGET_SQL}, count(*) FROM edges e "
                "JOIN names pn ON pn.nid = e.path LEFT JOIN symbols s ON s.nid = e.dst "
                "WHERE e.kind = 'calls' GROUP BY 1, 2 ORDER BY 1, 2"
            )
            for path, target, n in rows:
                out.setdefault(path, {})[target] = n
        return out

    # ------------------------------------------------------------------ read helpers

    def _rows_for(self, query: str, keys: list[str], *extra: str) -> Iterator[tuple[Any, ...]]:
        """Run ``query`` (with one ``{}`` for an IN list) over ``keys`` in bounded chunks."""
        return rows_in(self._db, query, keys, *extra)

    def _symbols_where(self, condition: str, value: str) -> list[Symbol]:
        rows = self._db.execute(
            f"{_SYMBOL_SELECT} WHERE {condition} ORDER BY s.path, s.start_line, n.name", (value,)
        )
        return [_symbol_from_row(r) for r in rows]

    def _edges_touching(
        self, column: str, ids: Iterable[str], kinds: Iterable[str] | None
    ) -> list[Edge]:
        keys = list(dict.fromkeys(ids))
        kind_list = [str(k) for k in kinds] if kinds is not None else []
        kind_filter = ""
        if kinds is not None:
            kind_filter = f" AND e.kind IN ({marks(len(kind_list))})"
        query = (
            f"{_EDGE_SELECT} WHERE {column} IN (SELECT nid FROM names WHERE name IN ({{}}))"
            f"{kind_filter} ORDER BY e.rowid"
        )
        with self.snapshot():
            return _edges_from_rows(list(self._rows_for(query, keys, *kind_list)))
