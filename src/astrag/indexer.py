"""Build or update one repository's index: discover, parse what changed, resolve what it
affects, and write it all in one store transaction.

Incremental by construction: a file whose size and mtime match its record is not even read; a
file whose content hash matches is not parsed; only changed files are parsed (on every core),
and only they, the files whose resolution consulted them, and files that may now find a newly
added module are re-resolved. The previous index stays readable until the single commit.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from multiprocessing import get_context
from pathlib import Path, PurePosixPath

from astrag.config import Config, load_config
from astrag.discover import Skipped, SourceFile, discover, read_source
from astrag.graph import resolver_fingerprint
from astrag.graph.edges import placeholders_for
from astrag.graph.facts import FileFacts
from astrag.graph.interface import interface_of
from astrag.graph.run import start_resolution
from astrag.graph.tables import TableCache
from astrag.lang import extract_facts, extractor_fingerprint
from astrag.project_layout import layout_fingerprint, read_layout
from astrag.search.documents import (
    SearchDoc,
    decode_documents,
    documents,
    encode_documents,
)
from astrag.search.vectors import embed_missing
from astrag.store.base import (
    FileRecord,
    GraphStore,
    IndexCorrupt,
    IndexIncompatible,
    IndexUpdate,
)
from astrag.store.codec import LazyFacts, decode_facts, encode_facts
from astrag.store.open import make_store, mark_indexed, reset_store

ProgressFn = Callable[[str, int, int], None]  # (stage, done, total)

_PARALLEL_MIN_FILES = 48
_CHUNK = 16


@dataclass(frozen=True, slots=True)
class _Parsed:
    path: str
    record: FileRecord | None
    blob: bytes | None  # the facts, codec-encoded: cheap to ship between processes and to store
    docs: bytes | None = None  # the file's search documents, encoded the same way
    skipped: Skipped | None = None
    unchanged: bool = False  # content hash equals the known one: nothing to re-parse


@dataclass(slots=True)
class IndexSummary:
    root: str
    files: int = 0
    lines: int = 0
    symbols: int = 0
    edges: dict[str, int] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)  # resolved / external / unresolved
    parse_errors: int = 0
    embedded: int = 0  # texts embedded by this run (the rest came from the vector cache)
    embedder: str = ""
    files_with_errors: int = 0
    parsed: int = 0
    removed: int = 0
    resolved_files: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)  # seconds per phase
    rebuilt_because: str = ""

    @property
    def call_resolution_rate(self) -> float:
        """Share of call edges whose target is known: a repository symbol or an external one."""
        total = sum(self.calls.values())
        known = self.calls.get("resolved", 0) + self.calls.get("external", 0)
        return known / total if total else 1.0


def content_hash(source: bytes) -> str:
    return hashlib.blake2b(source, digest_size=16).hexdigest()


def _parse_one(root: str, sf: SourceFile, known_hash: str | None) -> _Parsed:
    result = read_source(Path(root), sf)
    if result.source is None:
        return _Parsed(sf.path, None, None, skipped=result.skipped)
    digest = content_hash(result.source)
    if digest == known_hash:
        return _Parsed(sf.path, None, None, unchanged=True)
    try:
        facts = extract_facts(sf.path, result.source)
    except Exception as exc:  # a frontend bug on one file must not cost the whole index
        reason = f"parse_failed: {type(exc).__name__}: {exc}"[:200]
        return _Parsed(sf.path, None, None, skipped=Skipped(sf.path, reason))
    record = FileRecord(
        path=sf.path,
        language=facts.language,
        hash=digest,
        size=sf.size,
        mtime_ns=sf.mtime_ns,
        lines=facts.lines,
        errors=facts.errors,
        note=result.note or "",
    )
    return _Parsed(
        sf.path, record, encode_facts(facts), encode_documents(documents(facts, result.source))
    )


def _parse_chunk(root: str, items: list[tuple[SourceFile, str | None]]) -> list[_Parsed]:
    return [_parse_one(root, sf, known) for sf, known in items]


def parse_files(
    root: Path,
    items: list[tuple[SourceFile, str | None]],
    jobs: int,
    progress: ProgressFn | None = None,
) -> Iterator[_Parsed]:
    """Read and parse files, on ``jobs`` processes when there are enough of them. Results
    stream in order, so the caller can decode them while later files are still parsing."""
    total = len(items)
    if jobs <= 1 or total < _PARALLEL_MIN_FILES:
        for i, item in enumerate(items, 1):
            yield _parse_one(str(root), *item)
            if progress and (i % 64 == 0 or i == total):
                progress("parse", i, total)
        return
    chunks = [items[i : i + _CHUNK] for i in range(0, total, _CHUNK)]
    done = 0
    # fork: workers inherit the loaded grammars and compiled queries instead of rebuilding them
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork")) as pool:
        for parsed in pool.map(_parse_chunk, [str(root)] * len(chunks), chunks):
            yield from parsed
            done += len(parsed)
            if progress:
                progress("parse", done, total)


def _open_store(store: GraphStore, rebuild: bool) -> str:
    """Open the store under the writer lock; an incompatible or corrupt index (or --rebuild)
    starts from a fresh one. Returns why the index was rebuilt, if it was."""
    if rebuild:
        reset_store(store)
    try:
        store.open()
        return ""
    except (IndexIncompatible, IndexCorrupt) as err:
        store.close()
        reset_store(store)
        store.open()
        return str(err)


def index_repository(
    root: Path,
    *,
    config: Config | None = None,
    rebuild: bool = False,
    jobs: int | None = None,
    progress: ProgressFn | None = None,
    embedder: str | None = None,
    store_url: str | None = None,
) -> IndexSummary:
    """Index ``root``; ``embedder`` (a :func:`astrag.embed.load_embedder` spec, default the
    config's) embeds the search documents that have no cached vector yet; "none" skips it.
    ``store_url`` overrides the configured store (see store/open.py)."""
    started = time.perf_counter()
    root = root.resolve()
    config = config or load_config(root)
    store = make_store(root, config, readonly=False, url=store_url)
    summary = IndexSummary(root=str(root))
    try:
        # the lock comes first: resetting a database another run is writing would lose it
        with store.acquire_writer():
            summary.rebuilt_because = _open_store(store, rebuild)
            _run(root, config, store, jobs or os.cpu_count() or 1, progress, summary)
            clock = _Clock(summary.timings)
            spec = embedder or config.embedder
            summary.embedder, summary.embedded = embed_missing(store, spec, progress)
            index_vectors = getattr(store, "index_vectors", None)  # the server's ANN index
            if index_vectors is not None:
                index_vectors()
            clock.lap("embed")
            _summarise(store, summary)
        mark_indexed(root, config, store_url)
    finally:
        store.close()
    summary.seconds = time.perf_counter() - started
    return summary


def _run(
    root: Path,
    config: Config,
    store: GraphStore,
    jobs: int,
    progress: ProgressFn | None,
    summary: IndexSummary,
) -> None:
    stored = store.file_records()
    old_meta = store.meta()
    records = stored
    if stored and old_meta.get("extractor") != _parse_fingerprint():
        records = {}  # another astrag version parsed these files: their facts may differ
        summary.rebuilt_because = summary.rebuilt_because or "the parsers changed"
    clock = _Clock(summary.timings)
    found = discover(root, config)
    summary.skipped.extend(found.skipped)
    current = {sf.path: sf for sf in found.files}
    removed = {p for p in stored if p not in current}
    to_read = [
        (sf, records[sf.path].hash if sf.path in records else None)
        for sf in found.files
        if sf.path not in records
        or (records[sf.path].size, records[sf.path].mtime_ns) != (sf.size, sf.mtime_ns)
    ]
    clock.lap("discover")
    keep = [p for p in records if p not in removed]
    facts = store.lazy_facts(keep) if keep else LazyFacts({})
    tables = TableCache(facts)
    changed, touched, docs = _take_parsed(
        parse_files(root, to_read, jobs, progress), facts, tables, stored, removed, summary
    )
    facts.drop(removed)
    summary.parsed = len(changed)
    summary.removed = len(removed)
    clock.lap("parse")

    layout = read_layout(root, current)
    fingerprint = layout_fingerprint(layout)
    full = (
        not records
        or old_meta.get("layout") != fingerprint
        or old_meta.get("resolver") != resolver_fingerprint()
    )
    if not (full or changed or removed or touched):
        return  # nothing to do: the index is current
    clock.lap("layout")
    affected = set(facts) if full else _affected(store, facts, changed, removed, records)
    if progress:
        progress("resolve", 0, len(affected))
    pending = start_resolution(facts, layout, only=affected, jobs=jobs, tables=tables)
    summary.resolved_files = len(pending.targets)
    # a full re-resolve may follow a change in how symbols are named: rewrite them all
    renamed = pending.targets if full else sorted(changed)
    refreshed = [
        (_refresh(records[p], current[p]), facts[p]) for p in touched if p in records and p in facts
    ]
    files_and_symbols = IndexUpdate(
        removed=tuple(sorted(removed)),
        files=tuple(changed.values()) + tuple(refreshed),
        symbols_for=tuple(renamed),
        symbols=tuple(s for p in renamed for s in pending.symbols(p)),
        docs_for=tuple(changed),
        docs=tuple(docs),
    )
    meta = {
        "layout": fingerprint,
        "extractor": _parse_fingerprint(),
        "resolver": resolver_fingerprint(),
        "indexed_at": str(time.time()),
        "root": str(root),
    }

    def edges() -> Iterator[IndexUpdate]:
        """Each batch of resolved files as it arrives, then the placeholders they point at."""
        targets: set[str] = set()
        done = 0
        for batch in pending.batches():
            edges = tuple(e for r in batch.values() for e in r.edges)
            targets.update(e.target for e in edges)
            yield IndexUpdate(
                edges_for=tuple(batch),
                edges=edges,
                depends={p: frozenset(r.depends_on) for p, r in batch.items()},
            )
            done += len(batch)
            if progress:
                progress("resolve", done, len(affected))
        clock.lap("resolve+write")
        yield IndexUpdate(placeholders=tuple(placeholders_for(targets)), meta=meta)

    if progress:
        progress("write", 0, 1)
    # files and symbols are written while the edges are still being resolved
    store.apply(files_and_symbols, then=edges)
    clock.lap("write")
    if progress:
        progress("write", 1, 1)


def _take_parsed(
    parsed: Iterable[_Parsed],
    facts: LazyFacts,
    tables: TableCache,
    stored: dict[str, FileRecord],
    removed: set[str],
    summary: IndexSummary,
) -> tuple[dict[str, tuple[FileRecord, bytes]], list[str], list[SearchDoc]]:
    """Sort parse results into changed files (decoded and tabled here, while the parser
    processes work on later files, with their search documents) and touched ones (same
    content, new mtime: only the record is refreshed); files that became unreadable join
    ``removed``."""
    changed: dict[str, tuple[FileRecord, bytes]] = {}
    touched: list[str] = []
    docs: list[SearchDoc] = []
    for p in parsed:
        if p.skipped is not None:
            summary.skipped.append(p.skipped)
            if p.path in stored:
                removed.add(p.path)
        elif p.unchanged:
            touched.append(p.path)
        elif p.record is not None and p.blob is not None:
            changed[p.path] = (p.record, p.blob)
            facts.add(p.path, p.blob, decode_facts(p.blob))
            tables.refresh(p.path)
            if p.docs is not None:
                docs.extend(decode_documents(p.docs))
    return changed, touched, docs


class _Clock:
    def __init__(self, laps: dict[str, float]) -> None:
        self.laps = laps
        self.last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round(now - self.last, 3)
        self.last = now


@cache
def _parse_fingerprint() -> str:
    """What decides whether stored facts and documents are still valid: the parsers, and the
    code that makes search documents (any edit to it re-makes them, as for the parsers)."""
    digest = hashlib.blake2b(digest_size=12)
    search = resources.files("astrag.search")
    for name in ("documents.py", "text.py"):
        digest.update(search.joinpath(name).read_bytes())
    return f"{extractor_fingerprint()}+docs{digest.hexdigest()}"


def _refresh(record: FileRecord, sf: SourceFile) -> FileRecord:
    return replace(record, size=sf.size, mtime_ns=sf.mtime_ns)


def _affected(
    store: GraphStore,
    facts: Mapping[str, FileFacts],
    changed: dict[str, tuple[FileRecord, bytes]],
    removed: set[str],
    records: dict[str, FileRecord],
) -> set[str]:
    """Files whose edges may differ after this change."""
    affected = set(changed)
    # an edit inside bodies (the usual one) leaves what other files can see unchanged
    before = store.lazy_facts([p for p in changed if p in records])
    reshaped = {
        p for p in changed if p not in before or interface_of(before[p]) != interface_of(facts[p])
    }
    if reshaped or removed:
        affected |= store.dependents(reshaped | removed)
    added = [p for p in changed if p not in records]
    if added or removed:
        affected |= _files_naming_modules(facts, [*added, *removed])
    return affected & set(facts)


def _files_naming_modules(facts: Mapping[str, FileFacts], paths: Iterable[str]) -> set[str]:
    """Files with an import that could name one of ``paths`` (a module that appeared or went:
    its importers' unresolved imports may now resolve, or their resolved ones break)."""
    stems = set()
    for path in paths:
        p = PurePosixPath(path)
        stem = p.name.split(".")[0]
        stems.add(p.parent.name if stem in ("__init__", "index") else stem)
    hits = set()
    for path, f in facts.items():
        for imp in f.imports:
            last = imp.module.replace("/", ".").rsplit(".", 1)[-1]
            if last in stems or (imp.name in stems) or (not imp.module and imp.level):
                hits.add(path)
                break
    return hits


def _summarise(store: GraphStore, summary: IndexSummary) -> None:
    counts = store.counts()
    summary.files = int(counts.get("files", 0))
    summary.lines = int(counts.get("lines", 0))
    summary.symbols = int(sum(counts.get("symbols", {}).values()))
    summary.edges = dict(counts.get("edges", {}))
    summary.calls = dict(counts.get("calls", {}))
    summary.parse_errors = int(counts.get("parse_errors", 0))
    summary.files_with_errors = int(counts.get("files_with_errors", 0))
