"""Resolution runs: all files at once, or in forked worker processes while the caller writes.

The indexer starts a run (:func:`start_resolution`), writes what needs no resolution (files,
facts, symbols) while the workers resolve, then each batch of edges as it arrives.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import accumulate
from multiprocessing import get_all_start_methods, get_context

from astrag.graph.facts import Edge, EdgeKind, FileFacts, Resolution, ResolvedFile, Symbol
from astrag.graph.modules import ProjectLayout
from astrag.graph.resolve import Resolver
from astrag.graph.tables import TableCache


def resolve_all(
    facts: Mapping[str, FileFacts],
    layout: ProjectLayout | None = None,
    only: Iterable[str] | None = None,
    jobs: int = 1,
    tables: TableCache | None = None,
) -> tuple[dict[str, ResolvedFile], list[Symbol]]:
    """Resolve ``only`` (default: every file) against all ``facts``; returns per-file results
    and the placeholder symbols their edges point at."""
    return start_resolution(facts, layout, only, jobs, tables).result()


class PendingResolution:
    """Resolution under way. With ``jobs`` > 1 and enough files it runs in forked worker
    processes that share the tables built here, so the caller's process is free (the indexer
    writes files and symbols meanwhile); otherwise it runs in :meth:`result`."""

    def __init__(self, resolver: Resolver, targets: list[str], jobs: int) -> None:
        self.resolver = resolver
        self.targets = targets
        self._pool: ProcessPoolExecutor | None = None
        self._pending: list[Future[Shard]] = []
        parallel = jobs > 1 and len(targets) >= _PARALLEL_MIN_FILES
        if parallel and "fork" in get_all_start_methods():
            self._start(jobs)

    def symbols(self, path: str) -> list[Symbol]:
        """A file's symbols need no resolution: they are known before it finishes."""
        return list(self.resolver.tables[path].symbols)

    def _start(self, jobs: int) -> None:
        global _forked
        # several shards per worker, so results come back in batches the caller can write
        # while the rest is still being resolved; each a run of neighbouring paths (a package,
        # a directory) of about equal weight: a worker keeps its memo across the shards it
        # takes, and files of one package consult the same modules, so each worker evaluates
        # less that the other evaluates too (sympy: 3.4 -> 3.0 CPU s of resolution)
        weight = {p: len(self.resolver.tables[p].facts.references) + 1 for p in self.targets}
        shards = shard_ranges(self.targets, weight, jobs * _SHARDS_PER_JOB)
        _forked = self.resolver  # what the forked workers inherit
        try:
            self._pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork"))
            self._pending = [self._pool.submit(_resolve_shard, shard) for shard in shards]
        finally:
            _forked = None

    def batches(self) -> Iterator[dict[str, ResolvedFile]]:
        """Resolved files, a batch at a time, as they are done; every target exactly once."""
        if self._pool is None:
            yield self.resolver.resolve(self.targets)
            return
        for shard in self.shards():
            yield {
                path: ResolvedFile(
                    path=path,
                    symbols=self.symbols(path),
                    edges=edges_of(rows),
                    depends_on=set(depends),
                )
                for path, rows, depends in shard
            }
            del shard

    def shards(self) -> Iterator[Shard]:
        """Each shard's files with their edges as plain rows, as the shards are done (in this
        process, a run of files at a time, without a pool); every target exactly once."""
        if self._pool is None:
            weight = {p: len(self.resolver.tables[p].facts.references) + 1 for p in self.targets}
            for paths in share_ranges(self.targets, weight, _SERIAL_SHARES):
                yield shard_rows(self.resolver, paths)
            return
        # a shard's result is let go once it is handed on: a finished future kept in a list
        # would hold every edge of the run until the end (sympy: 483k, the run's peak memory)
        pending, self._pending = set(self._pending), []
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                while done:
                    yield done.pop().result()
        finally:
            self._pool.shutdown(cancel_futures=True)

    def result(self) -> tuple[dict[str, ResolvedFile], list[Symbol]]:
        out: dict[str, ResolvedFile] = {}
        for batch in self.batches():
            out.update(batch)
        resolved = {p: out[p] for p in self.targets}
        return resolved, self.resolver.placeholders(resolved.values())


def start_resolution(
    facts: Mapping[str, FileFacts],
    layout: ProjectLayout | None = None,
    only: Iterable[str] | None = None,
    jobs: int = 1,
    tables: TableCache | None = None,
) -> PendingResolution:
    resolver = Resolver(facts, layout, tables)
    known = resolver.facts.keys()
    targets = sorted(known) if only is None else sorted(set(only) & known)
    return PendingResolution(resolver, targets, jobs)


_PARALLEL_MIN_FILES = 200
_SHARDS_PER_JOB = 4
# The batches a run in one process hands on, by their share of the work, for a writer to keep
# up with: smaller at the end, because whatever the writer does with the last batch comes after
# resolution has ended, on one core (the cold pipeline's writer: medusa's last eighth of the
# edges, 0.1 s of writing after the resolver was done; its last fiftieth now).
_SERIAL_SHARES = (7, 7, 7, 7, 7, 7, 4, 2, 1, 1)
_forked: Resolver | None = None  # the resolver a forked worker inherits
_KIND_TEXT = {k: k.value for k in EdgeKind}  # a dict lookup is ~5x cheaper than ``.value``
_LEVEL_TEXT = {how: how.value for how in Resolution}
_KINDS = {k.value: k for k in EdgeKind}
_LEVELS = {k.value: k for k in Resolution}
# per file: its path, its edges as rows, the files it consulted
Shard = list[tuple[str, list[tuple], set[str]]]


def shard_ranges(paths: list[str], weight: dict[str, int], count: int) -> list[list[str]]:
    """``paths`` (sorted) cut into at most ``count`` runs of about equal total weight."""
    return share_ranges(paths, weight, (1,) * count)


def share_ranges(
    paths: list[str], weight: dict[str, int], shares: Sequence[int]
) -> list[list[str]]:
    """``paths`` (sorted) cut into at most ``len(shares)`` runs, the i-th of about
    ``shares[i] / sum(shares)`` of the total weight."""
    total = sum(weight[p] for p in paths)
    whole = sum(shares)
    ends = list(accumulate(shares))  # where each run ends, in shares of the total
    shards: list[list[str]] = [[]]
    done = 0
    for path in paths:
        if shards[-1] and len(shards) < len(ends) and done >= total * ends[len(shards) - 1] / whole:
            shards.append([])
        shards[-1].append(path)
        done += weight[path]
    return shards


def _resolve_shard(paths: list[str]) -> Shard:
    assert _forked is not None
    return shard_rows(_forked, paths)


def shard_rows(resolver: Resolver, paths: list[str]) -> Shard:
    """Resolve ``paths``: per file, its edges as plain rows (the kind and resolution as text:
    far cheaper to ship between processes than enums) and the files it consulted (a set: a
    store orders what it writes)."""
    text, level = _KIND_TEXT, _LEVEL_TEXT
    out = []
    for path in paths:
        r = resolver.resolve_file(path)
        # unpacked, not read by field name: a quarter of the cost per edge
        edges = [(s, t, text[k], p, ln, c, level[how]) for s, t, k, p, ln, c, how in r.edges]
        out.append((path, edges, r.depends_on))
    return out


def edges_of(rows: Iterable[tuple]) -> list[Edge]:
    """Edges from the rows :func:`shard_rows` makes (built as the tuples they are, without
    the named tuple's Python-level ``__new__``: half the cost per edge)."""
    kinds, levels, new = _KINDS, _LEVELS, tuple.__new__
    return [new(Edge, (s, t, kinds[k], p, ln, c, levels[how])) for s, t, k, p, ln, c, how in rows]
