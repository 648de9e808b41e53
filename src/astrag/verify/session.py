"""A checking session: the index opened once, checks of changes run against it.

The index's facts and per-file lookup tables are shared across checks (an MCP server keeps
one session warm); each check lays its changed files over them without touching the shared
state, so checks never see each other's changes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from tree_sitter import Tree

from astrag.discover import content_hash
from astrag.errors import AstragError
from astrag.graph.facts import FileFacts
from astrag.graph.resolve import Resolver
from astrag.graph.tables import FileTables, TableCache
from astrag.lang import extract_facts, language_of, parse_file
from astrag.project_layout import read_layout
from astrag.store.base import FileRecord, GraphStore
from astrag.verify.check import Checker
from astrag.verify.findings import CheckReport, Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.old_facts import OldFacts
from astrag.verify.ripple import Affected, affected_names, candidate_lines, caused, kept_lines
from astrag.verify.rules import checked
from astrag.verify.sources import read_regular_file


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
        self._ambient: frozenset[str] | None = None
        self._declared: dict[str, int] = {}
        self._subclassed: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self._records: dict[str, FileRecord] | None = None
        self._bodies: dict[tuple[str, str, str], object] = {}  # class facts of unchanged files
        self._old: OldFacts | None = None  # old versions' facts, kept in the index directory

    @property
    def ambient(self) -> frozenset[str]:
        """Names the repository declares globally: the top-level declarations of its script
        ``.d.ts`` files (no import, no export), read once."""
        if self._ambient is None:
            names: set[str] = set()
            for path in self.facts:
                if path.endswith(".d.ts"):
                    facts = self.facts[path]
                    if not facts.imports and not facts.exports:
                        names.update(d.name for d in facts.definitions if not d.parent)
            self._ambient = frozenset(names)
        return self._ambient

    def check(
        self,
        changes: list[ChangedFile],
        deleted: Sequence[str] = (),
        deleted_texts: Mapping[str, str] | None = None,
    ) -> CheckReport:
        """Findings on the lines the change wrote, and at the sites in other files that the
        change broke. ``deleted_texts``: what deleted files held, where the index may no
        longer have them (it was refreshed after the change)."""
        started = time.perf_counter()
        changes = _checkable(changes)
        new: dict[str, FileFacts] = {}
        trees: dict[str, Tree | None] = {}  # each changed file is parsed once, for every rule
        for change in changes:
            if language_of(change.path) is None:
                raise UnknownLanguage(
                    f"{change.path}: astrag checks Python, TypeScript, JavaScript, Go and Java",
                    "name the file with its extension, or pass --lang",
                )
            new[change.path], trees[change.path] = self._parsed(change.path, change.text)
        overlay = _Overlay(self.facts, new, set(deleted))
        checker = self._checker(overlay, {c.path: c.text for c in changes})
        report = CheckReport(files=[c.path for c in changes])
        for change in changes:
            report.findings.extend(checker.check(change, new[change.path], trees[change.path]))
        report.findings.extend(
            self._broken_elsewhere(changes, new, trees, deleted, deleted_texts or {}, checker)
        )
        report.findings.sort(key=lambda f: (f.path, f.line, f.column, f.rule))
        report.seconds = time.perf_counter() - started
        return report

    def _checker(self, overlay: _Overlay, texts: Mapping[str, str]) -> Checker:
        resolver = Resolver(overlay, self.layout, _OverlayTables(overlay, self.tables))
        return Checker(
            resolver,
            self.root,
            texts,
            self.ambient,
            self._declarations,
            self._bodies,
            self._subclasses,
        )

    def _declarations(self, name: str) -> int:
        """How many classes and interfaces named ``name`` the index holds (a TS interface
        declared twice is merged, or augmented, and astrag does not see the sum)."""
        if name not in self._declared:
            kinds = ("class", "interface")
            found = self.store.symbols_named(name)
            self._declared[name] = sum(1 for s in found if s.kind in kinds)
        return self._declared[name]

    def _subclasses(self, path: str, qual: str) -> list[tuple[str, str]]:
        """The classes of the index that extend ``path``'s class ``qual`` directly."""
        key = (path, qual)
        if key not in self._subclassed:
            edges = self.store.edges_to([f"{path}::{qual}"], ["inherits"])
            found = (e.source.partition("::") for e in edges)
            self._subclassed[key] = sorted({(p, q) for p, _, q in found if q})
        return self._subclassed[key]

    def _broken_elsewhere(
        self,
        changes: list[ChangedFile],
        new: dict[str, FileFacts],
        trees: Mapping[str, Tree | None],
        deleted: Sequence[str],
        deleted_texts: Mapping[str, str],
        checker: Checker,
    ) -> list[Finding]:
        """Sites in untouched files that the change broke (see ``verify/ripple.py``)."""
        old = self._old_facts(changes, deleted, deleted_texts)
        # a new version the parser could not read (where the old one was read) says what the
        # parser lost, not what the change removed: its definitions are not compared
        pairs = [
            (before, new[c.path])
            for c in changes
            if c.old is not None
            and (before := old.get(c.old_path or c.path)) is not None
            and not (new[c.path].errors and not before.errors)
        ]
        pairs += [(old[d], None) for d in deleted if d in old]
        affected = affected_names(pairs)
        pattern = affected.pattern()
        if pattern is None:
            return []
        touched = set(new) | set(deleted) | set(old)
        created = {c.path for c in changes if c.old is None or (c.old_path or c.path) != c.path}
        before = self._checker(_Overlay(self.facts, old, created - set(old)), {})
        out = self._broken_in_place(changes, new, trees, old, affected, pattern, checker, before)
        for path in sorted(self._users(touched, affected.names) - touched):
            if path not in self.facts or language_of(path) is None:
                continue
            text = read_regular_file(self.root / path, path)
            lines = candidate_lines(text, pattern) if text else frozenset()
            if not lines or text is None:
                continue
            site = ChangedFile(path, text, lines, old=text)
            tree = parse_file(path, text.encode("utf-8"))  # one parse for both checks
            after = checker.check(site, self.facts[path], tree)
            if after:
                earlier = before.check(site, self.facts[path], tree)
                out += caused(earlier, after, text, affected.renamed)
        return out

    def _broken_in_place(
        self,
        changes: list[ChangedFile],
        new: dict[str, FileFacts],
        trees: Mapping[str, Tree | None],
        old: dict[str, FileFacts],
        affected: Affected,
        pattern: re.Pattern[str],
        after: Checker,
        before: Checker,
    ) -> list[Finding]:
        """Sites on the lines of a changed file that the change left as they were and that
        name what it removed or renamed: checked as the change leaves them and, at the lines
        they had, as they were; what fails only after is the change's doing."""
        out: list[Finding] = []
        for c in changes:
            facts = old.get(c.old_path or c.path)
            if c.lines is None or c.old is None or facts is None:
                continue  # every line already checked, or nothing to compare with
            untouched = candidate_lines(c.text, pattern) - c.lines
            if not untouched:
                continue
            was = kept_lines(c.old, c.text)
            untouched = frozenset(n for n in untouched if n in was)
            site = ChangedFile(c.path, c.text, untouched, old=c.old)
            # a syntax error is judged on the lines the change wrote (``syntax.py`` says when
            # a region begun above them is the change's), never again on the lines it left
            found = [
                f
                for f in after.check(site, new[c.path], trees.get(c.path))
                if f.rule != "syntax-error"
            ]
            if not found:
                continue
            earlier_site = ChangedFile(
                c.old_path or c.path, c.old, frozenset(was[n] for n in untouched), old=c.old
            )
            now = {old_line: line for line, old_line in was.items()}  # back to the new lines
            earlier = [
                replace(f, path=c.path, line=now[f.line])
                for f in before.check(earlier_site, facts)
                if f.line in now
            ]
            out += caused(earlier, found, c.text, affected.renamed)
        return out

    def _users(self, touched: set[str], names: set[str]) -> set[str]:
        """Files whose resolution consulted a touched file, and through the files among them
        that pass an affected name on (``export * from``, a package's ``__init__``), theirs."""
        users = self.store.dependents(touched)
        hubs = set()
        for path in users - touched:
            facts = self.facts.get(path)
            if facts is not None and any(
                imp.reexport or imp.name == "*" or (imp.name in names and not imp.scope)
                for imp in facts.imports
            ):
                hubs.add(path)
        return users | (self.store.dependents(hubs) if hubs else set())

    def _facts_of(self, path: str, text: str) -> FileFacts:
        return self._parsed(path, text)[0]

    def _parsed(self, path: str, text: str) -> tuple[FileFacts, Tree | None]:
        """The facts of ``text`` as ``path`` and its parse: the index's own facts when it
        indexed these very bytes, or those an earlier check kept (no parse: None), else
        extracted from a parse the caller may reuse (and kept)."""
        source = text.encode("utf-8")
        indexed = self._indexed_facts(path, source)
        if indexed is not None:
            return indexed, None
        kept = self._kept().lookup(path, source)
        if kept is not None:
            return kept, None
        tree = parse_file(path, source)
        facts = extract_facts(path, source, tree)
        self._kept().keep(path, content_hash(source), facts)
        return facts, tree

    def _kept(self) -> OldFacts:
        if self._old is None:
            self._old = OldFacts(getattr(self.store, "index_dir", None))
        return self._old

    def _indexed_facts(self, path: str, source: bytes) -> FileFacts | None:
        """The index's facts of ``path`` when it indexed these very bytes."""
        if self._records is None:
            self._records = self.store.file_records()
        record = self._records.get(path)
        same = record is not None and record.size == len(source) and path in self.facts
        if same and record is not None and record.hash == content_hash(source):
            return self.facts[path]
        return None

    def _old_version(self, path: str, text: str) -> FileFacts:
        """A changed file's facts before the change: the index's while it still holds that
        version (it is stale), else kept from an earlier check (see ``old_facts.py``)."""
        indexed = self._indexed_facts(path, text.encode("utf-8"))
        if indexed is not None:
            return indexed
        return self._kept().facts(path, text)

    def _old_facts(
        self, changes: list[ChangedFile], deleted: Sequence[str], texts: Mapping[str, str]
    ) -> dict[str, FileFacts]:
        """The facts of every touched file as it was before the change."""
        old: dict[str, FileFacts] = {}
        for change in changes:
            path = change.old_path or change.path
            if change.old is not None and language_of(path) is not None:
                old[path] = self._old_version(path, change.old)
        for path in deleted:
            if path in old or language_of(path) is None:
                continue
            if path in texts:
                old[path] = self._facts_of(path, texts[path])
            elif path in self.facts:
                old[path] = self.facts[path]
        return old


def _checkable(changes: list[ChangedFile]) -> list[ChangedFile]:
    """The changed files in a language the checker has rules for. A change made only of
    files it cannot check is refused (never answered "no problems"); in a mixed change they
    are left out of the report's files."""
    kept = [c for c in changes if checked(language_of(c.path)) or _unknown(c)]
    if changes and not kept:
        language = language_of(changes[0].path) or ""
        raise AstragError(
            f"astrag check does not check {language.capitalize()} code yet",
            "the index answers search, show, callers and context for it already",
        )
    return kept


def _unknown(change: ChangedFile) -> bool:
    return language_of(change.path) is None  # reported as an unknown language below
