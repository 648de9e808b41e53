"""The public Python API: index a repository and ask its symbol graph questions.

The CLI and (later) the MCP server are thin layers over these functions; everything they print
is built from the plain dataclasses returned here.

    >>> from astrag import api
    >>> summary = api.index(Path("."))
    >>> with api.open_index(Path(".")) as idx:
    ...     target = idx.lookup("AuthService.login")[0]
    ...     callers = idx.callers(target.id, depth=2)
"""

from __future__ import annotations

import dataclasses
import importlib
import textwrap
from collections.abc import Iterable
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from astrag import lang
from astrag.arguments import path_argument, resolved_within, text_argument
from astrag.config import load_config
from astrag.errors import AstragError
from astrag.fresh import Freshness, bring_up_to_date, refresh_wanted
from astrag.graph.facts import CLASS_KINDS, Edge, EdgeKind, Symbol
from astrag.graph.symbols import symbol_id
from astrag.project_root import nearest_project
from astrag.query import calls, imports, neighbourhood, outline, uses
from astrag.query.calls import Related
from astrag.query.imports import FileImports
from astrag.query.neighbourhood import Neighbourhood
from astrag.query.outline import Outline
from astrag.query.uses import Use
from astrag.redact import counts as redaction_counts
from astrag.search.support import is_declaration, is_support
from astrag.store.base import FileRecord, GraphStore, IndexOutdated
from astrag.store.open import MARKER, open_store
from astrag.suggest import close_symbols
from astrag.verify.findings import CheckReport
from astrag.verify.inputs import (
    ChangedFile,
    ChangeSet,
    change_from_snippet,
    changes_from_diff,
    looks_like_diff,
    safe_path,
)
from astrag.verify.refresh import fresh_for
from astrag.verify.session import CheckSession
from astrag.verify.sources import read_regular_file
from astrag.verify.worktree import working_tree_changes

if TYPE_CHECKING:
    from astrag.indexer import IndexSummary, ProgressFn
    from astrag.query import repomap
    from astrag.query.repomap import RepoMap
    from astrag.query.report import IndexReport
    from astrag.retrieve.answer import Answer, Planner, SourceCache
    from astrag.retrieve.assemble import Context
    from astrag.search.engine import Hit, Searcher

# The indexer, retrieval, search and whole-graph modules (numpy, the embedders' plumbing, the
# ranking code) load on first use: `astrag check` and the other commands that never search pay
# nothing for them at start-up. These names are still importable from here
# (``from astrag.api import Hit``).
_LAZY = {
    "Answer": "astrag.retrieve.answer",
    "Context": "astrag.retrieve.assemble",
    "Hit": "astrag.search.engine",
    "IndexReport": "astrag.query.report",
    "IndexSummary": "astrag.indexer",
    "RepoMap": "astrag.query.repomap",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "AmbiguousSymbol",
    "Answer",
    "CheckReport",
    "Context",
    "FileImports",
    "Freshness",
    "Hit",
    "Index",
    "IndexReport",
    "IndexSummary",
    "Neighbourhood",
    "Outline",
    "Related",
    "RepoMap",
    "SymbolNotFound",
    "Use",
    "check",
    "find_project",
    "find_root",
    "index",
    "open_fresh",
    "open_index",
]


SNIPPET_LINES = 5  # a search hit's code: a definition's head, its signature and first lines


class SymbolNotFound(AstragError):
    def __init__(self, message: str, hint: str = "", suggestions: list[str] | None = None):
        super().__init__(message, hint)
        self.suggestions = suggestions or []


def _one_declaration(found: list[Symbol]) -> Symbol | None:
    """The primary of several declarations of one name in one scope of one file, all of one
    kind (a TS method's overload signatures and its body, Python's ``@overload`` stubs, a
    property's getter and setter): the one with the plain id, where calls and references are
    recorded. Declarations of different kinds (an interface merged with a const) or in other
    scopes stay ambiguous."""
    first = found[0]
    if any(
        s.path != first.path or s.qualname != first.qualname or s.kind != first.kind for s in found
    ):
        return None
    plain = [s for s in found if s.id == symbol_id(s.path, s.qualname)]
    return plain[0] if len(plain) == 1 else None


def _implementation(found: list[Symbol]) -> Symbol | None:
    """The one implementation among declarations of one qualified name: ``core.py``'s
    ``Machine`` beside its stub in ``core.pyi``, commander's ``Command`` beside its typings in
    ``index.d.ts``. The calls and references are recorded on the implementation; the
    declaration files stay listed beside it (:meth:`Index.declarations`)."""
    code = [s for s in found if not is_declaration(s.path)]
    if not code or len(found) == len(code) or any(s.qualname != code[0].qualname for s in found):
        return None
    return _one_declaration(code) if len(code) > 1 else code[0]


class AmbiguousSymbol(AstragError):
    def __init__(self, query: str, candidates: list[Symbol]) -> None:
        super().__init__(
            f"{query!r} matches {len(candidates)} symbols",
            "pass one of the listed ids (path::Qualified.Name) instead",
        )
        self.query = query
        self.candidates = candidates


def find_root(start: Path | None = None) -> Path:
    """The nearest enclosing directory that has an index, else the nearest git work tree."""
    here = (start or Path.cwd()).resolve()
    candidates = [here, *here.parents]
    for directory in candidates:
        index_dir = directory / ".astrag"
        # a SQLite index, or the marker an index run into a server store leaves
        if (index_dir / "index.db").is_file() or (index_dir / MARKER).is_file():
            return directory
    for directory in candidates:
        if (directory / ".git").exists():
            return directory
    return here


def find_project(start: Path | None = None) -> Path:
    """The project a server started in ``start`` serves when none is named: the nearest
    enclosing index, work tree or folder with a project file; never the home directory or
    the filesystem root (raises :class:`astrag.project_root.NotAProject`)."""
    return nearest_project(start or Path.cwd())


def index(
    root: Path,
    *,
    rebuild: bool = False,
    jobs: int | None = None,
    progress: ProgressFn | None = None,
    embedder: str | None = None,
    store: str | None = None,
) -> IndexSummary:
    """Create or incrementally update the index of ``root``. ``embedder`` overrides the
    configured one (``"none"`` skips embeddings: search is then lexical and exact only);
    ``store`` the configured store (``"sqlite"`` or a ``postgresql://`` URL)."""
    from astrag.indexer import index_repository

    if not root.is_dir():
        raise AstragError(f"{root} is not a directory", "pass the repository's root directory")
    return index_repository(
        root, rebuild=rebuild, jobs=jobs, progress=progress, embedder=embedder, store_url=store
    )


def open_index(root: Path, *, store: str | None = None) -> Index:
    """The index of ``root``, read-only, from the configured store (or ``store``)."""
    root = root.resolve()
    return Index(root, _open_store(root, store))


def open_fresh(
    root: Path, *, refresh: bool | None = None, store: str | None = None
) -> tuple[Index, Freshness]:
    """The index of ``root`` brought up to date with the disk first (an incremental run when
    files changed), or, with ``refresh=False`` (default: on unless ``ASTRAG_NO_REFRESH`` is
    set), as it is, with the paths it does not reflect: what every query face answers from.
    An index an older astrag wrote is upgraded in place first when refreshing is on (the
    upgrade is a write, as the refresh is); with it off, the error says to run ``astrag
    index``."""
    try:
        idx = open_index(root, store=store)
    except IndexOutdated:
        if not refresh_wanted(refresh):
            raise
        from astrag.indexer import index_repository  # heavy: only when there is work

        index_repository(root.resolve(), store_url=store)
        idx = open_index(root, store=store)
    try:
        status = bring_up_to_date(idx.root, idx.store, refresh=refresh, store_url=store)
    except BaseException:
        idx.close()
        raise
    if status.updated:
        idx.refresh()
    return idx, status


def _open_store(root: Path, url: str | None = None) -> GraphStore:
    return open_store(root, load_config(root), readonly=True, url=url)


class Index:
    """A read-only view of one repository's index."""

    def __init__(self, root: Path, store: GraphStore) -> None:
        self.root = root
        self.store = store
        self._records: tuple[str, dict[str, FileRecord]] | None = None  # (indexed_at, records)
        self._ranks: tuple[str, repomap.Ranked] | None = None  # (indexed_at, what maps cut)
        self._report: tuple[str, IndexReport] | None = None  # (indexed_at, the report)

    @cached_property
    def searcher(self) -> Searcher:
        from astrag.search.engine import Searcher

        return Searcher(self.store)

    @cached_property
    def sources(self) -> SourceCache:
        from astrag.retrieve.answer import SourceCache

        return SourceCache(self.root, self._file_records)

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    def refresh(self) -> None:
        """Forget cached vectors and symbols after the index was updated (by another run or
        by :func:`index` in this process); the next query reads the new state."""
        if "searcher" in self.__dict__:  # made on first search: nothing cached before
            self.searcher.forget()
        self._ranks = None
        self._report = None
        self._records = None

    def _file_records(self) -> dict[str, FileRecord]:
        """The index's file records, read once per version of the index: every answer that
        shows source checks the files against them, and a large index has thousands."""
        stamp = self.store.meta().get("indexed_at", "")
        if self._records is None or self._records[0] != stamp:
            self._records = (stamp, self.store.file_records())
        return self._records[1]

    # ------------------------------------------------------------------ lookup

    def lookup(self, query: str) -> list[Symbol]:
        """Symbols an id, a qualified name, a plain name or a file path denotes (best first)."""
        query = text_argument(query, "the symbol").strip()
        if not query:
            raise SymbolNotFound("empty symbol name", "pass a symbol id, qualified name or name")
        exact = self.store.get_symbol(query)
        if exact is not None:
            return [exact]
        if "::" in query:
            path, _, qual = query.partition("::")
            found = [s for s in self.store.symbols_by_qualname(qual) if s.path == path]
            if found:
                return found
        found = [s for s in self.store.symbols_by_qualname(query) if s.path]
        if not found:
            found = [s for s in self.store.symbols_named(query) if s.path]
        return sorted(found, key=lambda s: (s.path, s.start_line))

    def resolve(self, query: str) -> Symbol:
        """Exactly one symbol, or SymbolNotFound / AmbiguousSymbol listing the candidates."""
        found = self.lookup(query)
        if not found:
            close = self.close_names(query)
            hint = "check the spelling, or run `astrag index` if the code is new"
            if close:
                hint = f"did you mean {', '.join(close)}? (or run `astrag index` if it is new)"
            raise SymbolNotFound(f"no symbol matches {query!r}", hint, close)
        if len(found) > 1:
            primary = _one_declaration(found) or _implementation(found)
            if primary is None:  # the code's candidates before its stubs' and typings'
                raise AmbiguousSymbol(query, sorted(found, key=lambda s: is_declaration(s.path)))
            return primary
        return found[0]

    def declarations(self, symbol: Symbol) -> list[Symbol]:
        """The other declarations of the symbol's name in the same scope of its file, in source
        order: a function's overload signatures, a property's setter, a redefinition, an
        interface merged with a const of its name; then, for an implementation, the declaration
        files' declarations of its qualified name (its ``.pyi`` stub, its ``.d.ts`` typings).
        :meth:`resolve` answers for the primary one; these say what else the name declares."""
        twins = not is_declaration(symbol.path)  # and an implementation's declaration files
        return sorted(
            (
                s
                for s in self.store.symbols_by_qualname(symbol.qualname)
                if s.id != symbol.id
                and (s.path == symbol.path or (twins and s.path and is_declaration(s.path)))
            ),
            key=lambda s: (s.path != symbol.path, s.path, s.start_line),
        )

    def close_names(self, query: str, limit: int = 5) -> list[str]:
        """Indexed names most like ``query`` (ids for an id, else qualified names), for a
        "did you mean" when it matches nothing."""
        symbols = (s for s in self.store.all_symbols() if s.path)
        return close_symbols(query.strip(), symbols, limit)

    def get(self, symbol_id: str) -> Symbol | None:
        return self.store.get_symbol(symbol_id)

    def source(self, symbol: Symbol) -> str:
        """The symbol's source lines from its file, as indexed (a note when it changed)."""
        self.sources.begin()  # the text the index was built from, or a note that it changed
        return self.sources(symbol)

    # ------------------------------------------------------------------ traversals

    def callers(self, symbol_id: str, depth: int = 1) -> list[Related]:
        """Who calls the symbol: direct callers, then callers of a method it overrides or
        implements (``link == "dispatch"``, ``through`` the method they call), callers of an
        alias of it (``"alias"``, ``through`` the alias: ``compat = real``), level by level up
        to ``depth``; then unresolved call sites that may be calls of it (``"candidate"``,
        ``through`` the placeholder, or an alias its file assigns again), nearest first. See
        :mod:`astrag.query.calls`."""
        symbol = self.store.get_symbol(symbol_id)
        return calls.callers(self.store, symbol, depth) if symbol is not None else []

    def callees(self, symbol_id: str, depth: int = 1) -> list[Related]:
        """What the symbol calls (placeholders included), then the overriders and implementers
        a called method may dispatch to (``link == "dispatch"``)."""
        symbol = self.store.get_symbol(symbol_id)
        return calls.callees(self.store, symbol, depth) if symbol is not None else []

    def call_notes(self, symbol: Symbol, relation: str, found: list[Related]) -> list[str]:
        """What a listing of callers or callees cannot say itself: that none was resolved, and
        the unresolved call sites that may be what was asked for."""
        return calls.notes(symbol, relation, found)

    def references(self, symbol_id: str, *, code: bool = True) -> list[Use]:
        """Every use of the symbol (calls, constructions, reads, type annotations, imports,
        subclasses, implementations, overrides; then calls that may dispatch to it and
        unverified candidates), grouped by kind, each with its site and line of code
        (``code=False``: without it, for a caller that shows only some of the uses and reads
        their lines with :meth:`line`)."""
        symbol = self.store.get_symbol(symbol_id)
        if symbol is None:
            return []
        self.sources.begin()
        return uses.uses(self.store, symbol, self.line, code=code)

    def outline(self, path: str) -> Outline:
        """The definitions of the indexed file ``path`` (repository-relative, absolute inside
        the repository, or a unique suffix), in order and nested."""
        given = Path(path)
        if given.is_absolute() and given.resolve().is_relative_to(self.root):
            path = given.resolve().relative_to(self.root).as_posix()
        module = outline.file_module(self.store, path)
        return outline.outline(module, self.store.symbols_in_file(module.path))

    def file_imports(self, path: str) -> FileImports:
        """What the indexed file ``path`` imports, and the imports of it by other files."""
        return imports.file_imports(self.store, outline.file_module(self.store, path))

    def neighbourhood(
        self,
        symbol_id: str,
        depth: int = 2,
        limit: int = neighbourhood.DEFAULT_LIMIT,
        *,
        callers: list[Related] | None = None,
    ) -> Neighbourhood:
        """The symbols within ``depth`` hops of the symbol over the graph's edges (plus the
        callers that reach it through dispatch or may as candidates), at most ``limit`` of
        them, and the edges among them: what a diagram of it shows. ``callers``: what
        :meth:`callers` (depth 1) gave, when the caller has it already."""
        symbol = self.store.get_symbol(symbol_id)
        if symbol is None:
            raise SymbolNotFound(f"no symbol {symbol_id!r}", "pass an id from the index")
        return neighbourhood.neighbourhood(self.store, symbol, depth, limit, callers)

    def report(self) -> IndexReport:
        """Files, languages, symbols and edges by kind, call resolution per language and per
        top-level folder, files with syntax errors and the lines in their error regions,
        skipped files and why; computed once per version of the index."""
        from astrag.query import report

        stamp = self.store.meta().get("indexed_at", "")
        if self._report is None or self._report[0] != stamp:
            self._report = (stamp, report.report(self.store, self._read_bytes))
        return self._report[1]

    def _read_bytes(self, path: str) -> bytes | None:
        """A file's bytes for parsing only (never shown), None when it is gone or outside."""
        try:
            return resolved_within(self.root, path).read_bytes()
        except (AstragError, OSError):
            return None

    def repo_map(self, budget: int = 4000) -> RepoMap:
        """The repository's most central definitions, by file, within ``budget`` tokens."""
        if budget <= 0:
            raise AstragError(
                f"budget must be a positive number of tokens, not {budget}", "pass --budget 4000"
            )
        from astrag.query import repomap

        return repomap.cut(self._ranked(), budget)

    def _ranked(self) -> repomap.Ranked:
        """The ranked repository, computed once per version of the index (a large one takes
        seconds to load and rank; a server answers many maps and overviews from it)."""
        from astrag.query import repomap

        stamp = self.store.meta().get("indexed_at", "")
        if self._ranks is None or self._ranks[0] != stamp:
            with self.store.snapshot():
                symbols, edges = self.store.all_symbols(), self.store.all_edges()
            self._ranks = (stamp, repomap.ranked(symbols, edges))
        return self._ranks[1]

    # ------------------------------------------------------------------ code

    def line(self, path: str, line: int) -> str:
        """One line of a repository file as it is on disk now ("" when it is gone)."""
        if not path or line <= 0:
            return ""
        return self.sources(Symbol("", "", "", "", path, start_line=line, end_line=line))

    def snippets(self, symbols: Iterable[Symbol]) -> dict[str, str]:
        """:meth:`snippet` of each symbol, by id, each file read once as it is now."""
        self.sources.begin()
        return {s.id: self.snippet(s) for s in symbols}

    def snippet(self, symbol: Symbol, lines: int = SNIPPET_LINES) -> str:
        """The first ``lines`` lines of the symbol's definition as they are on disk now,
        dedented, each cut at 200 characters: what a search hit shows of its code."""
        if not symbol.path or symbol.start_line <= 0:
            return ""
        if symbol.kind == "module":  # its first lines are imports: its docstring says more
            return "\n".join(symbol.docstring.strip().splitlines()[:lines])
        end = min(symbol.end_line or symbol.start_line, symbol.start_line + lines - 1)
        text = self.sources(dataclasses.replace(symbol, end_line=end))
        shown = [ln if len(ln) <= 200 else ln[:199] + "…" for ln in text.split("\n")]
        return textwrap.dedent("\n".join(shown)).strip("\n")

    def implementations(self, symbol_id: str) -> list[Related]:
        """Subclasses and implementers of a class/interface (transitively); for a method, the
        methods that override or implement it."""
        symbol = self.store.get_symbol(symbol_id)
        if symbol is None:
            return []
        if symbol.kind in CLASS_KINDS:
            kinds: tuple[EdgeKind, ...] = (EdgeKind.INHERITS, EdgeKind.IMPLEMENTS)
        else:
            kinds = (EdgeKind.OVERRIDES,)
        return self._walk([symbol_id], kinds, incoming=True, depth=50)

    def edges(self, symbol_id: str, *, incoming: bool, kinds: Iterable[str] | None = None):
        fetch = self.store.edges_to if incoming else self.store.edges_from
        return fetch([symbol_id], kinds)

    def _walk(
        self, start: list[str], kinds: Iterable[str], *, incoming: bool, depth: int
    ) -> list[Related]:
        kinds = [str(k) for k in kinds]
        seen = set(start)
        frontier = list(start)
        out: list[Related] = []
        for level in range(1, max(depth, 1) + 1):
            edges = (self.store.edges_to if incoming else self.store.edges_from)(frontier, kinds)
            # the code's own subclasses before those of tests, examples and declaration files
            edges.sort(key=lambda e: (is_support(e.path), calls.site_key(e)))
            frontier = []
            for edge in edges:
                other = edge.source if incoming else edge.target
                if other in seen:
                    continue
                seen.add(other)
                symbol = self.store.get_symbol(other)
                if symbol is None:
                    continue
                out.append(Related(symbol, level, edge))
                frontier.append(other)
            if not frontier:
                break
        return out

    # ------------------------------------------------------------------ retrieval

    def search(self, query: str, limit: int = 10, *, mode: str = "hybrid") -> list[Hit]:
        """Symbols ranked for ``query``: names it mentions first, then BM25 and vector
        similarity fused (``mode`` "lexical", "dense" or "exact" runs one ranker alone)."""
        query = _check_query(query)
        if limit <= 0:
            raise AstragError(f"limit must be positive, not {limit}", "pass --limit 10")
        from astrag.retrieve.plan import extract_targets, plain_words

        targets = extract_targets(query)
        plain = plain_words(query, targets)
        return self.searcher.search(query, limit, targets=targets, plain=plain, mode=mode)

    def answer(self, query: str, budget: int = 8000, *, llm: Planner | None = None) -> Answer:
        """The plan, seeds, graph expansion and assembled context for ``query``."""
        query = _check_query(query)
        if budget <= 0:
            raise AstragError(
                f"budget must be a positive number of tokens, not {budget}", "pass --budget 8000"
            )
        from astrag.retrieve.answer import answer

        return answer(
            self.searcher,
            self.root,
            query,
            budget,
            llm=llm,
            sources=self.sources,
            overview=self.repo_map,
        )

    def context(self, query: str, budget: int = 8000) -> Context:
        """A token-budgeted, explained context for ``query`` (see :meth:`answer`)."""
        return self.answer(query, budget).context

    # ------------------------------------------------------------------ whole graph

    def stats(self) -> dict[str, object]:
        redacted = redaction_counts(r.note for r in self.store.file_records().values())
        counts = self.store.counts()
        return {
            "root": str(self.root),
            **counts,
            "languages": lang.levels(counts.get("languages", {})),
            "redacted": redacted,
            # files with syntax errors, and the lines of each no definition could be read from
            # (None: not measured, past the report's limit)
            "damaged": [
                {"path": d.path, "lines": d.lines, "errors": d.errors, "unread_lines": d.lost}
                for d in self.report().damaged
            ],
            "meta": self.store.meta(),
        }

    def graph(self) -> tuple[list[Symbol], list[Edge]]:
        """All symbols and edges, read from one consistent version of the index."""
        with self.store.snapshot():
            return self.store.all_symbols(), self.store.all_edges()


def _check_query(query: str) -> str:
    query = text_argument(query or "", "the query").strip()
    if not query:
        raise AstragError("the query is empty", "ask a question or name a symbol")
    if len(query) > 10_000:
        raise AstragError(
            f"the query is {len(query)} characters long", "keep it under 10000 characters"
        )
    return query


# ---------------------------------------------------------------------------------- check

_SNIPPET = "<snippet>"  # a standalone snippet's path: the extension after it says its language
_LANG_EXTENSIONS = {
    "python": ".py",
    "typescript": ".ts",
    "javascript": ".js",
    "tsx": ".tsx",
    "go": ".go",
    "java": ".java",
}


def check(
    root: Path,
    text: str,
    *,
    path: str | None = None,
    lang: str | None = None,
    diff: bool | None = None,
    changed: bool = False,
    base: str | None = None,
    session: CheckSession | None = None,
    refresh: bool = False,
) -> CheckReport:
    """Check code an LLM wrote against the index of ``root``.

    ``text`` is a unified diff (recognised by its headers, or forced with ``diff=True``),
    whether or not it has been applied to the files yet; otherwise code: with ``path``, a
    snippet placed at the end of that repository file (its imports and module scope apply;
    lines are reported in the snippet's numbering), or the whole new version of ``path`` when
    ``text`` already starts like that file; without ``path``, a standalone snippet in language
    ``lang``. ``changed=True`` ignores ``text`` and checks what the git working tree changed
    against ``base`` (default ``HEAD``). Pass a ``session`` (:func:`open_check_session`) to
    check many times against one loaded index. ``refresh``: first bring the index up to date
    where it lacks files the change does not cover (``verify/refresh.py``); what stays stale
    is in the report's ``warning``.
    """
    root = root.resolve()
    read = partial(_read, root)
    if changed:
        found = working_tree_changes(root, base, read)
    elif diff if diff is not None else looks_like_diff(text):
        found = changes_from_diff(text, read)
    else:
        found = ChangeSet([_code_change(root, text, path, lang)])
    warning = ""
    own = session is None
    if session is None:
        store = _open_store(root)
        try:  # brought up to date before the session reads anything from it
            warning = fresh_for(root, store, found).warning() if refresh else ""
            session = CheckSession(root, store)  # type: ignore[arg-type]
        except BaseException:
            store.close()
            raise
    try:
        report = session.check(found.changed, found.deleted, found.deleted_texts)
        report.warning = warning
        return report
    finally:
        if own:
            session.store.close()


def open_check_session(root: Path, *, store: str | None = None) -> CheckSession:
    """The index of ``root`` loaded for checking; reuse it for many :func:`check` calls."""
    root = root.resolve()
    return CheckSession(root, _open_store(root, store))  # type: ignore[arg-type]


def snippet_language(name: str) -> str | None:
    """The language :func:`check` reads a standalone file in, by its name's extension
    (``snip.py`` python, ``view.tsx`` tsx), or None for one the checker does not read."""
    suffix = Path(name).suffix.lower()
    for language, ext in _LANG_EXTENSIONS.items():
        if ext == suffix:
            return language
    found = lang.language_of(name)  # .pyi, .jsx, .mjs, .cjs: their language's own grammar
    return found if found in _LANG_EXTENSIONS else None


def named_snippet(report: CheckReport, name: str) -> CheckReport:
    """``report`` of a standalone snippet with its findings and files under ``name`` (the file
    the user passed, outside the repository) instead of the ``<snippet>.py`` it was read as."""
    renamed = {f: name for f in report.files if f.startswith(_SNIPPET)}
    return dataclasses.replace(
        report,
        findings=[
            dataclasses.replace(f, path=renamed[f.path]) if f.path in renamed else f
            for f in report.findings
        ],
        files=[renamed.get(f, f) for f in report.files],
    )


def _code_change(root: Path, text: str, path: str | None, lang: str | None) -> ChangedFile:
    if path is None:
        ext = _LANG_EXTENSIONS.get((lang or "").lower())
        if ext is None:
            raise AstragError(
                "cannot tell the language of the code to check",
                "pass --path FILE (the file it goes into) or --lang "
                "python|typescript|javascript|go|java",
            )
        return ChangedFile(f"{_SNIPPET}{ext}", text, None)
    target = safe_path(path)
    existing = _read(root, target)
    if existing is not None and existing.strip() and text.startswith(existing[:200]):
        return ChangedFile(target, text, None, old=existing)  # the whole new version
    return change_from_snippet(text, target, existing)


def _read(root: Path, rel: str) -> str | None:
    """A repository file's text, or None; never follows a path out of the repository."""
    full = resolved_within(root, safe_path(path_argument(rel, "the path")))
    return read_regular_file(full, rel)  # a FIFO or a device is refused, never opened
