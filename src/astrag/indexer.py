"""Build or update one repository's index: discover, parse what changed, resolve what it
affects, and write it all in one store transaction.

Incremental by construction: a file whose size and mtime match its record is not even read; a
file whose content hash matches is not parsed; only changed files are parsed (on every core),
and only they, the files whose resolution consulted them, and files that may now find a newly
added module are re-resolved. The previous index stays readable until the single commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from itertools import chain
from multiprocessing import get_all_start_methods, get_context
from operator import itemgetter
from pathlib import Path, PurePosixPath

from astrag import lifeline  # noqa: F401  (forked workers die with this process)
from astrag.config import Config, load_config
from astrag.discover import GitListing, Skipped, SourceFile, content_hash, discover, read_source
from astrag.graph import resolver_fingerprint
from astrag.graph.edges import placeholders_for
from astrag.graph.facts import FileFacts
from astrag.graph.interface import interface_of
from astrag.graph.modules import ProjectLayout
from astrag.graph.run import start_resolution
from astrag.graph.symbols import file_symbols
from astrag.graph.tables import TableCache
from astrag.lang import extract_facts, extractor_fingerprint, prepare_grammars
from astrag.project_layout import (
    layout_fingerprint,
    layout_unchanged,
    read_layout_noting,
    stored_layout,
)
from astrag.redact import Secret, redact
from astrag.redact import note as redaction_note
from astrag.resolver_process import ResolverProcess
from astrag.search.documents import (
    decode_documents,
    documents,
    encode_documents,
)
from astrag.search.vectors import VECTORS_COMPLETE, embed_missing, warm
from astrag.store.base import (
    FileRecord,
    GraphStore,
    IndexCorrupt,
    IndexIncompatible,
    IndexUpdate,
)
from astrag.store.codec import (
    LazyFacts,
    decode_facts,
    decode_symbols,
    encode_facts,
    encode_symbols,
    gc_paused,
)
from astrag.store.open import make_store, mark_indexed

ProgressFn = Callable[[str, int, int], None]  # (stage, done, total)

_PARALLEL_MIN_FILES = 48
# Files a parser process takes at a time: large while much is left (each step of a chunk runs
# over all its files, _parse_batch), then shrinking, so that both processes finish together.
_CHUNK = 16  # the least
_CHUNK_MOST = 256
# ... and no more bytes of source than this once it has _CHUNK files: a chunk's sources and
# facts are all held until it is sent (16 files of up to max_file_bytes each, before)
_CHUNK_BYTES = 4 << 20
_CAN_FORK = "fork" in get_all_start_methods()  # the cold pipeline's processes inherit state
_WRITE_CHUNK = 256  # files written together (their search documents decoded together)
# Re-parsed files up to which a run lets the embedder load while it resolves (an edit's few)
_WARM_MAX_FILES = 16
# Files resolved and written before the store may do the work it put off for the last edges
# (IndexUpdate.pause), when the resolver has no batch ready: the rest is written into the edge
# indexes built meanwhile, which costs more per edge than building them over all edges.
_MOST = 2 / 3
# A directory changed this little before the scan may carry an mtime from before it (coarse
# file-system clocks): record the scan as starting earlier, so such a change still counts.
_SCAN_MARGIN_NS = 50_000_000
SCANNED_AT = "scanned_at_ns"  # meta: when the last index run listed the tree (freshness)
LAYOUT_INPUTS = "layout_inputs"  # meta: what the layout was read from (project_layout)


@dataclass(frozen=True, slots=True)
class _Parsed:
    path: str
    record: FileRecord | None
    blob: bytes | None  # the facts, codec-encoded: cheap to ship between processes and to store
    docs: bytes | None = None  # the file's search documents, encoded the same way
    symbols: bytes | None = None  # the file's symbols, encoded the same way
    skipped: Skipped | None = None
    unchanged: bool = False  # content hash equals the known one: nothing to re-parse


@dataclass(slots=True)
class IndexSummary:
    root: str
    files: int = 0
    lines: int = 0
    symbols: int = 0
    edges: dict[str, int] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)  # resolved / name / external / ...
    languages: dict[str, int] = field(default_factory=dict)  # files of each language
    parse_errors: int = 0
    embedded: int = 0  # texts embedded by this run (the rest came from the vector cache)
    embedder: str = ""
    files_with_errors: int = 0
    error_files: list[str] = field(default_factory=list)  # paths with syntax errors, sorted
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
        return resolution_rate(self.calls)


def resolution_rate(calls: Mapping[str, int]) -> float:
    """Share of call edges whose target is known: a repository symbol or an external one
    (``calls`` counts them by target: resolved / external / unresolved / dangling)."""
    total = sum(calls.values())
    known = calls.get("resolved", 0) + calls.get("external", 0)
    return known / total if total else 1.0


def _parse_one(root: str, sf: SourceFile, known_hash: str | None, max_bytes: int) -> _Parsed:
    return _parse_batch(root, [(sf, known_hash)], max_bytes)[0]


def _parse_batch(
    root: str, items: list[tuple[SourceFile, str | None]], max_bytes: int
) -> list[_Parsed]:
    """Read, redact, parse and extract ``items``, then encode their facts, documents and
    symbols, each step over all of them before the next: a step's code and tables (the
    grammar's parse tables and query, the room's extraction, the search documents' memos) stay
    in the core's caches across many files instead of being evicted by the other steps' after
    every file. Each file's result is the one it gets alone. (Parsing every file of the chunk
    before extracting any held all their trees at once: eslint's parser processes nearly
    doubled their peak memory.)"""
    out: list[_Parsed | None] = [None] * len(items)
    read: list[tuple[int, SourceFile, str | None, str]] = []  # index, file, read note, hash
    sources: list[bytes] = []
    for i, (sf, known_hash) in enumerate(items):
        result = read_source(Path(root), sf, max_bytes)
        if result.source is None:
            out[i] = _Parsed(sf.path, None, None, skipped=result.skipped)
            continue
        digest = content_hash(result.source)
        if digest == known_hash:
            out[i] = _Parsed(sf.path, None, None, unchanged=True)
            continue
        read.append((i, sf, result.note, digest))
        sources.append(result.source)
    # credentials masked in place before anything is made of the text (see astrag.redact)
    redacted = list(map(redact, sources))
    extracted: list[tuple[int, SourceFile, str | None, str, bytes, list[Secret], FileFacts]] = []
    for (i, sf, note, digest), (source, secrets) in zip(read, redacted, strict=True):
        try:
            facts = extract_facts(sf.path, source)
        except Exception as exc:  # a frontend bug on one file must not cost the whole index
            reason = f"parse_failed: {type(exc).__name__}: {exc}"[:200]
            out[i] = _Parsed(sf.path, None, None, skipped=Skipped(sf.path, reason))
            continue
        extracted.append((i, sf, note, digest, source, secrets, facts))
    blobs = [encode_facts(facts) for *_, facts in extracted]
    docs = [encode_documents(documents(facts, source)) for *_, source, _, facts in extracted]
    symbols = [encode_symbols(file_symbols(facts)[0]) for *_, facts in extracted]
    for (i, sf, note, digest, _, secrets, facts), blob, doc, sym in zip(
        extracted, blobs, docs, symbols, strict=True
    ):
        record = FileRecord(
            path=sf.path,
            language=facts.language,
            hash=digest,
            size=sf.size,
            mtime_ns=sf.mtime_ns,
            lines=facts.lines,
            errors=facts.errors,
            note="; ".join(filter(None, (note, redaction_note(secrets)))),
        )
        out[i] = _Parsed(sf.path, record, blob, doc, symbols=sym)
    return out  # type: ignore[return-value]  (every item has its result now)


def _parse_chunk(
    root: str, max_bytes: int, items: list[tuple[SourceFile, str | None]]
) -> list[tuple]:
    """A parser process's chunk, sent back as plain tuples (:func:`parsed_row`): a frozen
    dataclass pickles through ``dataclasses.fields()`` per object and unpickles field by field
    through ``object.__setattr__`` (medusa: 11.5k objects, ~0.05 CPU s more both ways)."""
    return [parsed_row(p) for p in _parse_batch(root, items, max_bytes)]


def parsed_row(p: _Parsed) -> tuple:
    """``p`` as nested plain tuples (:func:`parsed_from_row` reads them back)."""
    r, k = p.record, p.skipped
    record = (
        None
        if r is None
        else (r.path, r.language, r.hash, r.size, r.mtime_ns, r.lines, r.errors, r.note)
    )
    skipped = None if k is None else (k.path, k.reason)
    return (p.path, record, p.blob, p.docs, p.symbols, skipped, p.unchanged)


def parsed_from_row(row: tuple) -> _Parsed:
    """The inverse of :func:`parsed_row`."""
    path, record, blob, docs, symbols, skipped, unchanged = row
    return _Parsed(
        path,
        None if record is None else FileRecord(*record),
        blob,
        docs,
        symbols,
        None if skipped is None else Skipped(*skipped),
        unchanged,
    )


def parse_files(
    root: Path,
    items: list[tuple[SourceFile, str | None]],
    jobs: int,
    progress: ProgressFn | None = None,
    max_bytes: int = Config.max_file_bytes,
) -> Iterator[_Parsed]:
    """Read and parse files, on ``jobs`` processes when there are enough of them. Results
    stream in order, so the caller can decode them while later files are still parsing."""
    for parsed in parse_chunks(root, items, jobs, progress, max_bytes):
        yield from parsed


def parse_chunks(
    root: Path,
    items: list[tuple[SourceFile, str | None]],
    jobs: int,
    progress: ProgressFn | None = None,
    max_bytes: int = Config.max_file_bytes,
) -> Iterator[list[_Parsed]]:
    """:func:`parse_files` a few files at a time."""
    total = len(items)
    if jobs <= 1 or total < _PARALLEL_MIN_FILES:
        for i, item in enumerate(items, 1):
            yield [_parse_one(str(root), *item, max_bytes)]
            if progress and (i % 64 == 0 or i == total):
                progress("parse", i, total)
        return
    done = 0
    # fork: workers inherit the loaded grammars and compiled queries instead of rebuilding them
    prepare_grammars(sf.path for sf, _ in items)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork")) as pool:
        pending = deque(
            pool.submit(_parse_chunk, str(root), max_bytes, items[start:end])
            for start, end in chunk_bounds([sf.size for sf, _ in items], jobs)
        )
        try:
            while pending:
                # let the future go with its results
                parsed = list(map(parsed_from_row, pending.popleft().result()))
                yield parsed
                done += len(parsed)
                if progress:
                    progress("parse", done, total)
        finally:  # a caller that stops early (an error) does not wait for the rest
            for future in pending:
                future.cancel()


def chunk_bounds(sizes: list[int], jobs: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each chunk of the files of ``sizes`` (bytes each) for ``jobs``
    parser processes, in order: a share of what is left (a quarter of it per process), between
    _CHUNK and _CHUNK_MOST files and, past _CHUNK files, within _CHUNK_BYTES of source, so the
    chunks are large at first and shrink to _CHUNK at the end."""
    total = len(sizes)
    bounds: list[tuple[int, int]] = []
    start = 0
    while start < total:
        most = min(_CHUNK_MOST, max(_CHUNK, (total - start) // (4 * jobs)))
        end = min(total, start + _CHUNK)
        held = sum(sizes[start:end])
        while end < total and end - start < most and held + sizes[end] <= _CHUNK_BYTES:
            held += sizes[end]
            end += 1
        bounds.append((start, end))
        start = end
    return bounds


def _open_store(store: GraphStore, rebuild: bool) -> tuple[str, bool]:
    """Open the store under the writer lock. A first index, ``--rebuild`` and an index astrag
    cannot read are written aside, as a new generation that readers see only once it is
    published. Returns why the index was rebuilt, if it was, and whether the previous index is
    still serving readers meanwhile (then publishing waits until the new one is whole)."""
    if not store.exists():
        store.start_fresh()
        store.open()
        return "", False
    if rebuild:
        store.start_fresh()
        store.open()
        return "", True
    try:
        store.open()
        return "", False
    except (IndexIncompatible, IndexCorrupt) as err:
        store.close()
        store.start_fresh()
        store.open()
        return str(err), False


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
    # git lists the files in its own process while the store opens and its records are read
    listing = GitListing(os.fspath(root)) if root.is_dir() else None
    try:
        config = config or load_config(root)
        store = make_store(root, config, readonly=False, url=store_url)
    except BaseException:
        if listing is not None:
            listing.close()
        raise
    summary = IndexSummary(root=str(root))
    try:
        # the lock comes first: resetting a database another run is writing would lose it
        with store.acquire_writer():
            summary.rebuilt_because, serving = _open_store(store, rebuild)
            # The run builds millions of acyclic objects (facts, tables, memo entries, rows):
            # the cyclic collector would traverse the whole growing heap again and again for
            # nothing, in this process and in every forked worker (which inherit the pause).
            with gc_paused():
                jobs = jobs or os.cpu_count() or 1
                spec = embedder or config.embedder
                written = _run(root, config, store, jobs, progress, summary, spec, listing)
            if not serving:
                store.publish()  # nothing whole to keep serving: the graph is usable now
            clock = _Clock(summary.timings)
            summary.embedder, summary.embedded = embed_missing(
                store,
                spec,
                progress,
                written=written.hashes,
                complete_before=written.complete,
                jobs=jobs,
            )
            index_vectors = getattr(store, "index_vectors", None)  # the server's ANN index
            if index_vectors is not None:
                index_vectors()
            clock.lap("embed")
            store.publish()  # a rebuild of a working index: swapped in with its embeddings
            _summarise(store, summary)
            summary.notes.extend(store.notes)
        mark_indexed(root, config, store_url)
    finally:
        store.close()
        if listing is not None:
            listing.close()
    summary.seconds = time.perf_counter() - started
    return summary


@dataclass(frozen=True, slots=True)
class _Written:
    """What a run wrote for embedding to look at: the hashes of the document texts (None: too
    many to list, every text is looked at) and the index's VECTORS_COMPLETE before it."""

    hashes: set[str] | None
    complete: str


def _run(
    root: Path,
    config: Config,
    store: GraphStore,
    jobs: int,
    progress: ProgressFn | None,
    summary: IndexSummary,
    spec: str,
    listing: GitListing | None = None,
) -> _Written:
    """The graph part of an index run; ``spec`` is the embedder that embeds after it;
    ``listing`` git's listing of ``root``, started as the run began."""
    stored = store.file_records()
    old_meta = store.meta()
    written = _Written(set(), old_meta.get(VECTORS_COMPLETE, ""))
    records = stored
    if stored and old_meta.get("extractor") != _parse_fingerprint():
        records = {}  # another astrag version parsed these files: their facts may differ
        summary.rebuilt_because = summary.rebuilt_because or "the parsers changed"
    clock = _Clock(summary.timings)
    scanned_at = str(time.time_ns() - _SCAN_MARGIN_NS)
    found = discover(root, config, listing)
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
    if not records and jobs > 1 and len(to_read) >= _PARALLEL_MIN_FILES and _CAN_FORK:
        cold = _Cold(stored, current, to_read, scanned_at)
        _run_cold(root, config, store, jobs, progress, summary, clock, cold)
        return replace(written, hashes=None)
    keep = [p for p in records if p not in removed]
    facts = store.lazy_facts(keep) if keep else LazyFacts({})
    tables = TableCache(facts)
    changed, touched, docs = _take_parsed(
        parse_files(root, to_read, jobs, progress, config.max_file_bytes),
        facts,
        tables,
        stored,
        removed,
        summary,
    )
    facts.drop(removed)
    # the files with syntax errors once this run is written, for the summary
    errors = {p for p, r in stored.items() if r.errors and p not in removed and p not in changed}
    summary.error_files = sorted(errors | {p for p, (r, _) in changed.items() if r.errors})
    summary.parsed = len(changed)
    summary.removed = len(removed)
    _warm_embedder(store, spec, changed, docs)
    clock.lap("parse")

    layout: ProjectLayout | None = None
    inputs = old_meta.get(LAYOUT_INPUTS, "")
    quiet = bool(records) and not (changed or removed or touched)
    if quiet and old_meta.get("layout") and layout_unchanged(root, current, inputs):
        fingerprint = old_meta["layout"]  # no config file nor source directory changed
    else:
        # files edited in place, no config file nor source directory changed: the stored layout
        fingerprint = old_meta.get("layout", "")
        if records and not removed:
            layout = stored_layout(root, current, inputs, fingerprint)
        if layout is None:
            layout, inputs = read_layout_noting(root, current)
            fingerprint = layout_fingerprint(layout)
    full = (
        not records
        or old_meta.get("layout") != fingerprint
        or old_meta.get("resolver") != resolver_fingerprint()
    )
    skipped = skipped_meta(summary.skipped)
    if not (full or changed or removed or touched):
        # the index is current as of this scan; only a skipped file may have come or gone
        store.set_meta({SCANNED_AT: scanned_at, "skipped": skipped, LAYOUT_INPUTS: inputs})
        return written
    if layout is None:  # only the resolver changed: every file is resolved again
        layout, inputs = read_layout_noting(root, current)
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
    meta = {
        "layout": fingerprint,
        LAYOUT_INPUTS: inputs,
        "extractor": _parse_fingerprint(),
        "resolver": resolver_fingerprint(),
        "indexed_at": str(time.time()),
        SCANNED_AT: scanned_at,
        "root": str(root),
        "skipped": skipped,
    }
    if changed:  # documents written: their texts are embedded after the commit
        meta[VECTORS_COMPLETE] = ""

    def updates() -> Iterator[IndexUpdate]:
        """What needs no resolution (files, facts, symbols, search documents: written while
        the edges are still being resolved), then each batch of resolved files as it arrives,
        then the placeholders they point at."""
        yield IndexUpdate(
            removed=tuple(sorted(removed)),
            files=tuple(changed.values()) + tuple(refreshed),
            symbols_for=tuple(renamed),
            symbols=tuple(s for p in renamed for s in pending.symbols(p)),
        )
        # written: the encoded facts need not stay in memory while the edges come in (sympy:
        # 38 MB); the documents are decoded a few hundred files at a time, as they are written
        facts.forget_blobs(changed)
        paths = sorted(changed)
        changed.clear()
        for i in range(0, len(paths), _WRITE_CHUNK):
            chunk = paths[i : i + _WRITE_CHUNK]
            chunk_docs = tuple(d for p in chunk if p in docs for d in decode_documents(docs.pop(p)))
            if written.hashes is not None:
                written.hashes.update(d.hash for d in chunk_docs)
            yield IndexUpdate(docs_for=tuple(chunk), docs=chunk_docs)
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
    store.apply(IndexUpdate(), then=updates)
    clock.lap("write")
    if progress:
        progress("write", 1, 1)
    return written


def _warm_embedder(
    store: GraphStore, spec: str, changed: Mapping[str, object], docs: Mapping[str, bytes]
) -> None:
    """When a few files were re-parsed and some of their texts have no cached vector, let the
    embedder start loading while the run resolves and writes (they are embedded after it)."""
    if not changed or len(changed) > _WARM_MAX_FILES:
        return  # nothing to embed, or enough that the embedding dwarfs its loading
    hashes = {d.hash for p in changed if p in docs for d in decode_documents(docs[p])}
    if hashes and not hashes <= store.vector_hashes(hashes):
        warm(spec)


@dataclass(frozen=True, slots=True)
class _Cold:
    """What discovery found for a run that parses and resolves every file again."""

    stored: dict[str, FileRecord]  # the index's records before the run
    current: dict[str, SourceFile]  # the files found now
    to_read: list[tuple[SourceFile, str | None]]
    scanned_at: str  # meta SCANNED_AT: when the listing began


def _run_cold(
    root: Path,
    config: Config,
    store: GraphStore,
    jobs: int,
    progress: ProgressFn | None,
    summary: IndexSummary,
    clock: _Clock,
    cold: _Cold,
) -> None:
    """Every file parsed and resolved again (a first index, a rebuild, new parsers), as one
    pipeline: the parser processes send each file's facts, symbols and documents encoded; this
    process passes the facts on, undecoded, to a resolver process (``resolver_process.py``)
    that builds the tables meanwhile; once all are parsed it resolves them and sends the edges
    back, batch by batch, while this process writes the parsed files, then the edges."""
    stored, current = cold.stored, cold.current
    resolver = ResolverProcess(max(1, jobs - 1))  # this process writes on another core

    def updates() -> Iterator[IndexUpdate]:
        layout: ProjectLayout | None = None
        inputs = ""
        removed = sorted(p for p in stored if p not in current)
        if removed:
            yield IndexUpdate(removed=tuple(removed))
        # Nothing is written while the parsers work: they keep both cores busy, and writing
        # then would only take CPU from them. Once all are parsed, the resolver process
        # resolves on one core while this one writes on the other (medusa: 1.7 CPU s of
        # writing beside 1.9 of resolution, which had run with the other core half idle).
        unwritten: list[_Parsed] = []
        gone: list[str] = []
        errors: list[str] = []
        chunks = parse_chunks(root, cold.to_read, jobs, progress, config.max_file_bytes)
        for parsed in chunks:
            facts: list[tuple[str, bytes]] = []
            for p in parsed:
                if p.skipped is not None:
                    summary.skipped.append(p.skipped)
                    if p.path in stored:
                        gone.append(p.path)
                elif p.record is not None and p.blob is not None:
                    facts.append((p.path, p.blob))
                    unwritten.append(p)
                    if p.record.errors:
                        errors.append(p.path)
            resolver.add_all(facts)  # a chunk's files in one message
            if layout is None:
                # read once the parser processes have their first files, while they work on
                # the rest: read before starting them, it delayed them (medusa: 0.1 s); the
                # resolver process needs it only once all files are in
                layout, inputs = read_layout_noting(root, current)  # reads only the file list
        if layout is None:  # nothing came back from the parsers (cannot happen: files are many)
            layout, inputs = read_layout_noting(root, current)
        resolver.all_added(layout)
        for i in range(0, len(unwritten), _WRITE_CHUNK):
            yield _parsed_update(unwritten[i : i + _WRITE_CHUNK])
        unwritten.clear()
        if gone:
            yield IndexUpdate(removed=tuple(sorted(gone)))
        summary.parsed = summary.resolved_files = total = resolver.files
        summary.removed = len(removed) + len(gone)
        summary.error_files = sorted(errors)
        clock.lap("parse")
        if progress:
            progress("resolve", 0, total)
        targets: set[str] = set()
        done = 0
        paused = False
        numbered = resolver.numbering()  # the paths the sets name by id
        for shard in resolver.shards():
            # the rows as they came: the store writes them without making them Edges first
            edges = tuple(chain.from_iterable(rows for _, rows, _ in shard))
            # each placeholder written with the first batch that points at it, not all after
            # the last batch, when nothing else runs beside this process (medusa: 0.07 s)
            new = set(map(itemgetter(1), edges)) - targets
            targets |= new
            yield IndexUpdate(
                edges_for=tuple(path for path, _, _ in shard),
                edge_rows=edges,
                # encoded already (ids of numbered), or in the unforeseen case paths
                depends={
                    path: deps if isinstance(deps, bytes) else frozenset(deps)
                    for path, _, deps in shard
                },
                depends_paths=numbered,
                placeholders=tuple(placeholders_for(sorted(new))),
            )
            done += len(shard)
            if progress:
                progress("resolve", done, total)
            if not paused and done >= total * _MOST and not resolver.waiting():
                paused = True  # this process would wait for the resolver's last batches
                yield IndexUpdate(pause=True)
        clock.lap("resolve+write")
        if progress:
            progress("write", 0, 1)
        meta = {
            "layout": layout_fingerprint(layout),
            LAYOUT_INPUTS: inputs,
            "extractor": _parse_fingerprint(),
            "resolver": resolver_fingerprint(),
            "indexed_at": str(time.time()),
            SCANNED_AT: cold.scanned_at,
            "root": str(root),
            "skipped": skipped_meta(summary.skipped),
            VECTORS_COMPLETE: "",  # every text is embedded after the commit
        }
        yield IndexUpdate(meta=meta)

    try:
        store.apply(IndexUpdate(), then=updates)
    finally:
        resolver.close()
    clock.lap("write")
    if progress:
        progress("write", 1, 1)


def _parsed_update(parsed: list[_Parsed]) -> IndexUpdate:
    """Parsed files written whole: records, facts, symbols, search documents."""
    paths = tuple(p.path for p in parsed)
    return IndexUpdate(
        files=tuple((p.record, p.blob) for p in parsed if p.record and p.blob),
        symbols_for=paths,
        symbols=tuple(s for p in parsed if p.symbols for s in decode_symbols(p.symbols)),
        docs_for=paths,
        docs=tuple(d for p in parsed if p.docs for d in decode_documents(p.docs)),
    )


SKIPPED_LISTED = 2000  # skipped files named in the index's meta; the counts are of all


def skipped_meta(skipped: Iterable[Skipped]) -> str:
    """The files a run skipped, for the index's meta (``skipped``): counts by reason and the
    first SKIPPED_LISTED paths with theirs, as JSON (:func:`read_skipped` reads it back)."""
    ordered = sorted({(k.path, k.reason) for k in skipped})
    reasons: dict[str, int] = {}
    for _path, reason in ordered:
        reasons[reason] = reasons.get(reason, 0) + 1
    listed = [list(pair) for pair in ordered[:SKIPPED_LISTED]]
    return json.dumps({"total": len(ordered), "reasons": reasons, "files": listed})


def read_skipped(meta: Mapping[str, str]) -> tuple[int, dict[str, int], list[Skipped]]:
    """``(total, count by reason, listed files)`` from an index's meta; nothing for an index
    written before astrag recorded them."""
    try:
        data = json.loads(meta.get("skipped") or "{}")
        files = [Skipped(str(p), str(r)) for p, r in data.get("files", [])]
        return int(data.get("total", len(files))), dict(data.get("reasons", {})), files
    except (ValueError, TypeError, AttributeError):
        return 0, {}, []


def _take_parsed(
    parsed: Iterable[_Parsed],
    facts: LazyFacts,
    tables: TableCache,
    stored: dict[str, FileRecord],
    removed: set[str],
    summary: IndexSummary,
) -> tuple[dict[str, tuple[FileRecord, bytes]], list[str], dict[str, bytes]]:
    """Sort parse results into changed files (decoded and tabled here, while the parser
    processes work on later files; their search documents stay encoded until written) and
    touched ones (same content, new mtime: only the record is refreshed); files that became
    unreadable join ``removed``."""
    changed: dict[str, tuple[FileRecord, bytes]] = {}
    touched: list[str] = []
    docs: dict[str, bytes] = {}
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
                docs[p.path] = p.docs
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
    """What decides whether stored facts and documents are still valid: the parsers, the
    code that makes search documents and the redaction rules (any edit to them re-makes
    them, as for the parsers)."""
    digest = hashlib.blake2b(digest_size=12)
    search = resources.files("astrag.search")
    for name in ("documents.py", "text.py"):
        digest.update(search.joinpath(name).read_bytes())
    digest.update(resources.files("astrag").joinpath("redact.py").read_bytes())
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
        naming = _files_naming_modules(facts, [*added, *removed])
        # an importer that re-exports the module that came or went changes what it exports
        # without being edited: files that resolved names through it (and recorded it, a
        # failed lookup included) must be resolved again too. pydantic: deleting and
        # restoring fields.py left types.py's `from pydantic import Field` unresolved.
        affected |= naming | store.dependents(naming)
    return affected & set(facts)


_MODULE_SUFFIXES = (".d.ts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_MODULE_SUFFIXES += (".py", ".pyi", ".java")


def _module_stem(name: str) -> str:
    for suffix in _MODULE_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _files_naming_modules(facts: Mapping[str, FileFacts], paths: Iterable[str]) -> set[str]:
    """Files with an import that could name one of ``paths`` (a module that appeared or went:
    its importers' unresolved imports may now resolve, or their resolved ones break). Errs on
    the side of too many: a file matched needlessly is only re-resolved. Names are compared
    without extensions, whole: `./input-type.decorator.js` names `input-type.decorator.ts`
    (cutting at the first dot, as this once did, missed it, and such an importer kept its edge
    to a deleted file)."""
    stems = set()
    for path in paths:
        p = PurePosixPath(path)
        stem = _module_stem(p.name)
        stems.add(p.parent.name if stem in ("__init__", "index") else stem)
    # Java sees a class of its own package (its directory) or of an on-demand import without
    # naming its file: every Java file there, and every one with an on-demand import
    java_dirs = {str(PurePosixPath(p).parent) for p in paths if p.endswith(".java")}
    hits = set()
    for path, f in facts.items():
        if (
            java_dirs
            and f.language == "java"
            and (
                str(PurePosixPath(path).parent) in java_dirs
                or any(i.name == "*" for i in f.imports)
            )
        ):
            hits.add(path)
            continue
        for imp in f.imports:
            if not imp.module and imp.level:
                hits.add(path)
                break
            segments = [_module_stem(s) for s in imp.module.split("/") if s not in ("", ".", "..")]
            keys = {imp.name, imp.module.rsplit(".", 1)[-1], *segments[-2:]}
            if keys & stems:
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
    summary.languages = dict(counts.get("languages", {}))
    summary.parse_errors = int(counts.get("parse_errors", 0))
    summary.files_with_errors = int(counts.get("files_with_errors", 0))
