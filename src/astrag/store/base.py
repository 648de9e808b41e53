"""The persistence interface every index store implements, and the values that cross it.

A store keeps four things for one repository: a :class:`FileRecord` plus the parsed
:class:`~astrag.graph.facts.FileFacts` of every indexed file (so an incremental update re-parses
only what changed), the resolved :class:`~astrag.graph.facts.Symbol` and
:class:`~astrag.graph.facts.Edge` graph, which files each file's resolution depended on (so a
change can be propagated to dependents), and a small string ``meta`` map.

Writes arrive as one :class:`IndexUpdate` and are applied atomically: a reader sees the index
before the update or after it, never in between. A rebuild (and a first index) goes further:
:meth:`GraphStore.start_fresh` sends the writes to a new, empty *generation* beside the one
readers use, and :meth:`GraphStore.publish` swaps it in at once; a run that dies before that
changes nothing readers can see, and :meth:`GraphStore.reopen_if_replaced` lets a long-lived
reader move to the new generation. The embedded implementation is
``store/sqlite.py``; the server store ``store/postgres.py`` (PostgreSQL + pgvector) implements the
same :class:`GraphStore` with the same results; ``store/open.py`` chooses between them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from astrag.errors import AstragError
from astrag.graph.facts import Edge, FileFacts, Resolution, Symbol
from astrag.search.documents import SearchDoc

if TYPE_CHECKING:
    from astrag.store.adjacency import Adjacency


@dataclass(frozen=True, slots=True)
class FileRecord:
    """What the indexer knows about a file without parsing it again."""

    path: str  # repository-relative, "/" separated
    language: str
    hash: str  # content hash; the key that decides whether a file must be re-parsed
    size: int  # bytes
    mtime_ns: int  # a cheap first check before hashing
    lines: int
    errors: int  # syntax-error nodes in the parse
    note: str = ""  # why a file was indexed specially (e.g. "too large: skipped body")


@dataclass(frozen=True, slots=True)
class IndexUpdate:
    """Everything one index run changes, applied by :meth:`GraphStore.apply` in one transaction.

    Order of application: ``removed`` files vanish with all they own (record, facts, symbols,
    edges whose ``path`` is the file, their dependency rows); ``files`` are upserted; symbols of
    ``symbols_for`` files are replaced by ``symbols``; edges whose ``path`` is in ``edges_for``
    are replaced by ``edges`` and ``edge_rows``; dependency rows of every key of ``depends`` are
    replaced;
    ``placeholders`` (symbols with ``path == ""``) are upserted, then every placeholder no edge
    targets any more is dropped; search documents of ``docs_for`` files are replaced by ``docs``
    (their vectors are cached by text hash and written separately, see ``put_vectors``);
    ``meta`` keys are set.

    ``pause`` says that the writer will wait for its next update and that few rows are still
    to come: a moment for work a store has put off (SQLite builds the edge indexes it dropped
    for a bulk write, so that they are not all built after the last edges).
    """

    removed: tuple[str, ...] = ()
    files: tuple[tuple[FileRecord, FileFacts | bytes], ...] = ()  # bytes: codec-encoded facts
    symbols_for: tuple[str, ...] = ()
    symbols: tuple[Symbol, ...] = ()
    edges_for: tuple[str, ...] = ()
    edges: tuple[Edge, ...] = ()
    # more edges of ``edges_for`` files, as the cold run's resolver process sends them
    # (graph/run.py's rows: source, target, kind, path, line, column, resolution, the kind and
    # the resolution as their text), written without becoming ``Edge``s first (medusa: 0.1 CPU
    # s of the writer's, which turned 400k rows into named tuples and back into rows)
    edge_rows: tuple[tuple[str, str, str, str, int, int, str], ...] = ()
    placeholders: tuple[Symbol, ...] = ()
    # bytes: the set encoded already as ids of ``depends_paths`` (store/depends.py), as the
    # cold run's resolver process sends it
    depends: dict[str, frozenset[str] | bytes] = field(default_factory=dict)
    # the paths encoded sets name: id i is depends_paths[i - 1] (depends.number's ids)
    depends_paths: tuple[str, ...] = ()
    docs_for: tuple[str, ...] = ()
    docs: tuple[SearchDoc, ...] = ()
    meta: dict[str, str] = field(default_factory=dict)
    pause: bool = False


def suffix_pattern(path: str) -> str:
    """A LIKE pattern (escape character ``\\``) for the paths that end with ``/path``; LIKE
    ignores ASCII case, so callers keep the rows whose path really ends with it."""
    return "%/" + path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class StoreError(AstragError):
    """The index could not be read or written (a database error that is not corruption)."""


class IndexMissing(StoreError):
    """A read-only open found no index."""


class IndexCorrupt(StoreError):
    """The index file is not a usable index: not a database, damaged, or missing its tables."""


class IndexIncompatible(StoreError):
    """The index was written by a different (usually newer) astrag schema."""


class IndexOutdated(IndexIncompatible):
    """The index was written by an older schema that a writer of this astrag upgrades in place
    (``astrag index``, or a query's refresh)."""


class IndexLocked(StoreError):
    """Another process holds the writer lock of this index."""


@runtime_checkable
class GraphStore(Protocol):
    """The operations astrag needs from an index store; see the module docstring."""

    notes: list[str]  # what a writer found and dealt with (a dead run's lock, ...)

    def open(self) -> None: ...

    def close(self) -> None: ...

    # generations: a rebuild is written beside the index readers use and swapped in whole
    def exists(self) -> bool: ...

    def start_fresh(self) -> None: ...

    def publish(self) -> None: ...

    def reopen_if_replaced(self) -> bool: ...

    def acquire_writer(self) -> AbstractContextManager[None]: ...

    def snapshot(self) -> AbstractContextManager[None]: ...

    def apply(
        self, update: IndexUpdate, then: Callable[[], Iterable[IndexUpdate]] | None = None
    ) -> None: ...

    def schema_version(self) -> int: ...

    def meta(self) -> dict[str, str]: ...

    def set_meta(self, meta: dict[str, str]) -> None: ...

    def file_records(self) -> dict[str, FileRecord]: ...

    def load_facts(self, paths: Iterable[str] | None = None) -> dict[str, FileFacts]: ...

    def lazy_facts(self, paths: Iterable[str] | None = None) -> Mapping[str, FileFacts]: ...

    def dependents(self, paths: Iterable[str]) -> set[str]: ...

    def get_symbol(self, symbol_id: str) -> Symbol | None: ...

    def symbols_named(self, name: str) -> list[Symbol]: ...

    def symbols_by_qualname(self, qualname: str) -> list[Symbol]: ...

    def symbols_in_file(self, path: str) -> list[Symbol]: ...

    def all_symbols(self) -> list[Symbol]: ...

    def all_edges(self) -> list[Edge]: ...

    def edges_from(self, ids: Iterable[str], kinds: Iterable[str] | None = None) -> list[Edge]: ...

    def edges_to(self, ids: Iterable[str], kinds: Iterable[str] | None = None) -> list[Edge]: ...

    def get_symbols(self, symbol_ids: Iterable[str]) -> dict[str, Symbol]: ...

    def all_modules_ending(self, path: str) -> list[Symbol]: ...

    def neighbours(
        self, ids: Iterable[str], kinds: Iterable[str], *, incoming: bool
    ) -> list[tuple[str, str, str, Resolution]]: ...

    # the edges neighbours() answers, as arrays held in memory for the index as it is now
    # (store/adjacency.py), or None where the store holds none: then ask neighbours()
    def warm_adjacency(self) -> Adjacency | None: ...

    # search: documents are written by apply(); vectors are cached by text hash
    def search_text(
        self, words: Sequence[str], weights: tuple[float, ...], limit: int
    ) -> list[tuple[str, float]]: ...

    def vectors(self) -> tuple[list[str], list[bytes]]: ...

    def texts_without_vectors(
        self, hashes: Collection[str] | None = None
    ) -> list[tuple[str, str]]: ...

    def vector_hashes(self, hashes: Collection[str]) -> set[str]: ...

    def put_vectors(
        self, rows: Iterable[tuple[str, bytes]], *, clear: bool = False, meta: dict[str, str]
    ) -> None: ...

    def counts(self) -> dict[str, Any]: ...

    def calls_by_file(self) -> dict[str, dict[str, int]]: ...
