"""What an index holds and how well it resolved, for a person deciding how far to trust it:
files and lines per language, symbols and edges by kind, the call resolution rate per language
and per top-level folder, the files that did not parse cleanly (and how many lines sit in
their syntax-error regions), the files skipped and why.

Built from the store's counts, file records and per-file call counts; only the damaged files
are read again (parsed for their ERROR regions), at most MAX_DAMAGED of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from astrag.discover import Skipped
from astrag.indexer import read_skipped, resolution_rate
from astrag.lang import grammar_of, parser
from astrag.store.base import FileRecord, GraphStore

MAX_DAMAGED = 200  # files whose error regions are measured; the rest are listed with counts


@dataclass(frozen=True, slots=True)
class Share:
    """Files of one language or folder and how their calls resolved."""

    name: str
    files: int
    lines: int
    calls: dict[str, int]  # resolved / external / unresolved / dangling

    @property
    def rate(self) -> float:
        return resolution_rate(self.calls)


@dataclass(frozen=True, slots=True)
class Damaged:
    """A file with syntax errors: indexed as far as it parsed."""

    path: str
    language: str
    lines: int
    errors: int  # ERROR and MISSING nodes
    lost: int | None  # lines inside ERROR regions (None: not measured, past MAX_DAMAGED)
    spans: tuple[tuple[int, int], ...]  # those regions, 1-based inclusive lines


@dataclass(frozen=True, slots=True)
class IndexReport:
    files: int
    lines: int
    symbols: dict[str, int]  # by kind, placeholders excluded
    placeholders: dict[str, int]
    edges: dict[str, int]
    calls: dict[str, int]
    languages: tuple[Share, ...]
    folders: tuple[Share, ...]
    folder_root: str  # the directory every file shares, which ``folders`` split ("" = root)
    damaged: tuple[Damaged, ...]  # most errors first
    skipped_total: int
    skipped_reasons: dict[str, int]
    skipped: tuple[Skipped, ...]  # the first ones listed by the index run
    meta: dict[str, str]

    @property
    def rate(self) -> float:
        return resolution_rate(self.calls)


def report(store: GraphStore, read: Callable[[str], bytes | None]) -> IndexReport:
    """The report of the index in ``store``; ``read(path)`` gives a file's bytes (or None)."""
    with store.snapshot():
        counts = store.counts()
        records = store.file_records()
        calls = store.calls_by_file()
        meta = store.meta()
    root, folder_of = _folders(records)
    total, reasons, skipped = read_skipped(meta)
    return IndexReport(
        files=int(counts.get("files", 0)),
        lines=int(counts.get("lines", 0)),
        symbols=dict(sorted(counts.get("symbols", {}).items())),
        placeholders=dict(sorted(counts.get("placeholders", {}).items())),
        edges=dict(sorted(counts.get("edges", {}).items())),
        calls=dict(sorted(counts.get("calls", {}).items())),
        languages=_shares(records, calls, lambda r: r.language),
        folders=_shares(records, calls, folder_of),
        folder_root=root,
        damaged=_damaged(records, read),
        skipped_total=total,
        skipped_reasons=dict(sorted(reasons.items())),
        skipped=tuple(skipped),
        meta=meta,
    )


def _folders(records: Mapping[str, FileRecord]) -> tuple[str, Callable[[FileRecord], str]]:
    """The directory all files share and each file's folder right under it (a repository
    whose code is all under ``src/`` is split by ``src/``'s folders, not into one row)."""
    dirs = [p.split("/")[:-1] for p in records]
    common: list[str] = []
    if dirs:
        for parts in zip(*dirs, strict=False):
            if len(set(parts)) != 1:
                break
            common.append(parts[0])
    root = "/".join(common)
    depth = len(common)

    def folder_of(r: FileRecord) -> str:
        parts = r.path.split("/")
        return parts[depth] + "/" if len(parts) > depth + 1 else "(files)"

    return root, folder_of


def _shares(
    records: Mapping[str, FileRecord],
    calls: Mapping[str, Mapping[str, int]],
    key: Callable[[FileRecord], str],
) -> tuple[Share, ...]:
    groups: dict[str, list[FileRecord]] = {}
    for r in records.values():
        groups.setdefault(key(r), []).append(r)
    out = []
    for name, members in groups.items():
        summed: dict[str, int] = {}
        for r in members:
            for target, n in calls.get(r.path, {}).items():
                summed[target] = summed.get(target, 0) + n
        out.append(Share(name, len(members), sum(r.lines for r in members), summed))
    return tuple(sorted(out, key=lambda s: (-s.files, s.name)))


def _damaged(
    records: Mapping[str, FileRecord], read: Callable[[str], bytes | None]
) -> tuple[Damaged, ...]:
    bad = sorted((r for r in records.values() if r.errors), key=lambda r: (-r.errors, r.path))
    out = []
    for i, r in enumerate(bad):
        source = read(r.path) if i < MAX_DAMAGED else None
        spans = error_spans(r.path, source) if source is not None else None
        lost = sum(end - start + 1 for start, end in spans) if spans is not None else None
        out.append(Damaged(r.path, r.language, r.lines, r.errors, lost, tuple(spans or ())))
    return tuple(out)


def error_spans(path: str, source: bytes) -> list[tuple[int, int]]:
    """The line ranges (1-based, inclusive, merged) of the file's ERROR and MISSING nodes:
    what tree-sitter could not fit into the grammar, whatever the language."""
    grammar = grammar_of(path)
    if grammar is None:
        return []
    tree = parser(grammar).parse(source)
    spans: list[tuple[int, int]] = []
    stack = [tree.root_node] if tree.root_node.has_error else []
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            spans.append((node.start_point[0] + 1, node.end_point[0] + 1))
            continue  # an ERROR region's insides are lost with it
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
