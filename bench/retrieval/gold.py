"""What a commit changed (gold) and what it needed (repository definitions its added lines use).

*Gold functions* are read from the PARENT version of each changed non-test source file: for
every removed or changed old-side line, the innermost function/method whose span holds it (the
innermost class/interface/enum only when no function does); for a pure insertion after old
line ``a``, the innermost definition that strictly holds the gap between ``a`` and ``a + 1``.
Deleted files count as gold files but give no gold functions (deleting is not writing).

*Needed definitions* come from astrag's own resolver: the commit's new versions of its changed
files are laid over the base index's facts (as ``astrag check`` does), the changed non-test
files are resolved, and every ``calls``/``references``/``inherits``/``implements``/``imports``
edge sitting on an added line whose target is a non-module symbol of the base index (outside
test files) is needed. Names the resolver cannot bind (untyped receivers, externals) are not
counted, so "needed" is a precise lower bound.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from astrag.config import load_config
from astrag.graph.facts import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Definition,
    EdgeKind,
    FileFacts,
    Symbol,
)
from astrag.graph.resolve import Resolver
from astrag.graph.tables import TableCache
from astrag.lang import extract_facts, language_of
from astrag.project_layout import read_layout
from astrag.store.sqlite import SqliteStore

# the overlay the checker uses: base facts with some files replaced, added or deleted
from astrag.verify.session import _Overlay, _OverlayTables

from .gitlog import FileDiff, is_code, is_test

NEEDED_EDGE_KINDS = frozenset(
    {EdgeKind.CALLS, EdgeKind.REFERENCES, EdgeKind.INHERITS, EdgeKind.IMPLEMENTS,
     EdgeKind.IMPORTS}
)  # fmt: skip


@dataclass(frozen=True)
class DefRef:
    """A definition as the benchmark scores it: where it is in the base checkout."""

    path: str
    qualname: str
    kind: str
    start_line: int
    end_line: int

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "qualname": self.qualname, "kind": self.kind,
                "start_line": self.start_line, "end_line": self.end_line}  # fmt: skip


def _innermost(defs: Iterable[Definition]) -> Definition | None:
    return min(defs, key=lambda d: (d.end_line - d.start_line, -d.start_line), default=None)


def _owner(facts: FileFacts, holds: Callable[[Definition], bool]) -> Definition | None:
    functions = [d for d in facts.definitions if d.kind in FUNCTION_KINDS and holds(d)]
    if functions:
        return _innermost(functions)
    return _innermost(d for d in facts.definitions if d.kind in CLASS_KINDS and holds(d))


def changed_definitions(
    facts: FileFacts, removed: Iterable[int], insertions: Iterable[int]
) -> list[Definition]:
    """Innermost definitions of ``facts`` (the old version) that a diff touches, in order."""
    found: dict[str, Definition] = {}
    for line in sorted(set(removed)):
        d = _owner(facts, lambda d, n=line: d.start_line <= n <= d.end_line)
        if d is not None:
            found.setdefault(d.qualname, d)
    for after in sorted(set(insertions)):
        d = _owner(facts, lambda d, n=after: d.start_line <= n < d.end_line)
        if d is not None:
            found.setdefault(d.qualname, d)
    return sorted(found.values(), key=lambda d: d.start_line)


class BaseIndex:
    """The astrag index of the base checkout: its symbols and facts, read-only."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.store = SqliteStore(self.root / load_config(self.root).index_dir, readonly=True)
        self.store.open()
        symbols = [s for s in self.store.all_symbols() if s.path]
        self.by_id: dict[str, Symbol] = {s.id: s for s in symbols}
        self.by_name: dict[tuple[str, str], Symbol] = {}
        for s in sorted(symbols, key=lambda s: s.start_line):
            self.by_name.setdefault((s.path, s.qualname), s)
        self.facts = self.store.lazy_facts()
        self.paths = sorted(self.facts)
        self.tables = TableCache(self.facts)
        self.layout = read_layout(self.root, self.facts)

    def close(self) -> None:
        self.store.close()

    def lookup(self, path: str, qualname: str) -> DefRef | None:
        s = self.by_name.get((path, qualname))
        return None if s is None else _ref(s)

    def needed(
        self,
        new_files: Mapping[str, bytes],
        deleted: Iterable[str],
        added_lines: Mapping[str, set[int]],
    ) -> list[DefRef]:
        """Base-index definitions that edges on ``added_lines`` of the new versions resolve to."""
        changed = {
            path: extract_facts(path, text)
            for path, text in new_files.items()
            if language_of(path) is not None
        }
        overlay = _Overlay(self.facts, changed, set(deleted))
        resolver = Resolver(overlay, self.layout, _OverlayTables(overlay, self.tables))
        found: dict[str, DefRef] = {}
        for path in sorted(changed):
            lines = added_lines.get(path, set())
            if not lines or not is_code(path):
                continue
            for edge in resolver.resolve_file(path).edges:
                if edge.kind not in NEEDED_EDGE_KINDS or edge.line not in lines:
                    continue
                target = self.by_id.get(edge.target)
                if target is None or target.kind == "module" or is_test(target.path):
                    continue
                found.setdefault(target.id, _ref(target))
        return sorted(found.values(), key=lambda r: (r.path, r.start_line, r.qualname))


def _ref(s: Symbol) -> DefRef:
    return DefRef(s.path, s.qualname, s.kind, s.start_line, s.end_line)


def gold_definitions(
    diffs: Iterable[FileDiff], old_source: Callable[[str], bytes | None]
) -> Iterator[tuple[str, Definition]]:
    """(old path, definition) for every changed definition of a modified non-test file."""
    for diff in diffs:
        if not diff.old_path or not diff.new_path or not is_code(diff.old_path):
            continue
        text = old_source(diff.old_path)
        if text is None or language_of(diff.old_path) is None:
            continue
        facts = extract_facts(diff.old_path, text)
        for d in changed_definitions(facts, diff.removed, diff.insertions):
            yield diff.old_path, d
