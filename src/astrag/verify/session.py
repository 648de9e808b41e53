"""A checking session: the index opened once, checks of changes run against it.

The index's facts and per-file lookup tables are shared across checks (an MCP server keeps
one session warm); each check lays its changed files over them without touching the shared
state, so checks never see each other's changes.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from astrag.errors import AstragError
from astrag.graph.facts import FileFacts
from astrag.graph.resolve import Resolver
from astrag.graph.tables import FileTables, TableCache
from astrag.lang import extract_facts, language_of
from astrag.project_layout import read_layout
from astrag.store.base import GraphStore
from astrag.verify.check import Checker
from astrag.verify.findings import CheckReport
from astrag.verify.inputs import ChangedFile


class UnknownLanguage(AstragError):
    pass


class _Overlay(Mapping[str, FileFacts]):
    """The index's facts with some files replaced, added or deleted."""

    def __init__(
        self, base: Mapping[str, FileFacts], changed: dict[str, FileFacts], deleted: set[str]
    ) -> None:
        self.base = base
        self.changed = changed
        self.deleted = deleted - changed.keys()

    def __getitem__(self, path: str) -> FileFacts:
        if path in self.changed:
            return self.changed[path]
        if path in self.deleted:
            raise KeyError(path)
        return self.base[path]

    def __iter__(self) -> Iterator[str]:
        yield from self.changed
        yield from (p for p in self.base if p not in self.changed and p not in self.deleted)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, path: object) -> bool:
        return path in self.changed or (path in self.base and path not in self.deleted)


class _OverlayTables(TableCache):
    """Tables of changed files built fresh; everything else from the shared cache."""

    def __init__(self, facts: _Overlay, shared: TableCache) -> None:
        super().__init__(facts)
        self.shared = shared
        self.overlay = facts

    def __missing__(self, path: str) -> FileTables:
        if path in self.overlay.changed:
            return super().__missing__(path)
        tables = self[path] = self.shared[path]
        return tables


class CheckSession:
    def __init__(self, root: Path, store: GraphStore) -> None:
        self.root = root
        self.store = store
        self.facts = store.lazy_facts()
        self.tables = TableCache(self.facts)
        self.layout = read_layout(root, self.facts)

    def check(self, changes: list[ChangedFile], deleted: Sequence[str] = ()) -> CheckReport:
        started = time.perf_counter()
        new: dict[str, FileFacts] = {}
        for change in changes:
            if language_of(change.path) is None:
                raise UnknownLanguage(
                    f"{change.path}: astrag checks Python, TypeScript and JavaScript",
                    "name the file with its extension, or pass --lang",
                )
            new[change.path] = extract_facts(change.path, change.text.encode("utf-8"))
        overlay = _Overlay(self.facts, new, set(deleted))
        resolver = Resolver(overlay, self.layout, _OverlayTables(overlay, self.tables))
        checker = Checker(resolver, self.root)
        report = CheckReport(files=[c.path for c in changes])
        for change in changes:
            report.findings.extend(checker.check(change, new[change.path]))
        report.seconds = time.perf_counter() - started
        return report
