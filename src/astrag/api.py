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

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from astrag.config import load_config
from astrag.errors import AstragError
from astrag.graph.facts import CLASS_KINDS, Edge, EdgeKind, Symbol
from astrag.indexer import IndexSummary, ProgressFn, index_repository
from astrag.retrieve.answer import Answer, Planner, SourceCache, answer
from astrag.retrieve.assemble import Context
from astrag.retrieve.plan import extract_targets, plain_words
from astrag.search.engine import Hit, Searcher
from astrag.store.base import GraphStore
from astrag.store.open import MARKER, open_store
from astrag.verify.findings import CheckReport
from astrag.verify.inputs import (
    ChangedFile,
    change_from_snippet,
    changes_from_diff,
    looks_like_diff,
    safe_path,
)
from astrag.verify.session import CheckSession

__all__ = [
    "AmbiguousSymbol",
    "Answer",
    "CheckReport",
    "Context",
    "Hit",
    "Index",
    "IndexSummary",
    "Related",
    "SymbolNotFound",
    "check",
    "find_root",
    "index",
    "open_index",
]


class SymbolNotFound(AstragError):
    pass


class AmbiguousSymbol(AstragError):
    def __init__(self, query: str, candidates: list[Symbol]) -> None:
        super().__init__(
            f"{query!r} matches {len(candidates)} symbols",
            "pass one of the listed ids (path::Qualified.Name) instead",
        )
        self.query = query
        self.candidates = candidates


@dataclass(frozen=True, slots=True)
class Related:
    """A symbol reached from another one over the graph, and how."""

    symbol: Symbol
    depth: int
    edge: Edge  # the edge that reached it (for callers: the call site)


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
    if not root.is_dir():
        raise AstragError(f"{root} is not a directory", "pass the repository's root directory")
    return index_repository(
        root, rebuild=rebuild, jobs=jobs, progress=progress, embedder=embedder, store_url=store
    )


def open_index(root: Path, *, store: str | None = None) -> Index:
    """The index of ``root``, read-only, from the configured store (or ``store``)."""
    root = root.resolve()
    return Index(root, _open_store(root, store))


def _open_store(root: Path, url: str | None = None) -> GraphStore:
    return open_store(root, load_config(root), readonly=True, url=url)


class Index:
    """A read-only view of one repository's index."""

    def __init__(self, root: Path, store: GraphStore) -> None:
        self.root = root
        self.store = store
        self.searcher = Searcher(store)
        self.sources = SourceCache(root)

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    def refresh(self) -> None:
        """Forget cached vectors and symbols after the index was updated (by another run or
        by :func:`index` in this process); the next query reads the new state."""
        self.searcher.forget()

    # ------------------------------------------------------------------ lookup

    def lookup(self, query: str) -> list[Symbol]:
        """Symbols an id, a qualified name, a plain name or a file path denotes (best first)."""
        query = query.strip()
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
            raise SymbolNotFound(
                f"no symbol matches {query!r}",
                "check the spelling, or run `astrag index` if the code is new",
            )
        if len(found) > 1:
            raise AmbiguousSymbol(query, found)
        return found[0]

    def get(self, symbol_id: str) -> Symbol | None:
        return self.store.get_symbol(symbol_id)

    def source(self, symbol: Symbol) -> str:
        """The symbol's source lines as they are on disk now."""
        if not symbol.path:
            return ""
        try:
            text = (self.root / symbol.path).read_text("utf-8", errors="replace")
        except OSError:
            return ""
        lines = text.splitlines()
        return "\n".join(lines[symbol.start_line - 1 : symbol.end_line])

    # ------------------------------------------------------------------ traversals

    def callers(self, symbol_id: str, depth: int = 1) -> list[Related]:
        return self._walk([symbol_id], (EdgeKind.CALLS,), incoming=True, depth=depth)

    def callees(self, symbol_id: str, depth: int = 1) -> list[Related]:
        return self._walk([symbol_id], (EdgeKind.CALLS,), incoming=False, depth=depth)

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
            edges.sort(key=lambda e: (e.path, e.line, e.column, e.source, e.target))
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
        return answer(self.searcher, self.root, query, budget, llm=llm, sources=self.sources)

    def context(self, query: str, budget: int = 8000) -> Context:
        """A token-budgeted, explained context for ``query`` (see :meth:`answer`)."""
        return self.answer(query, budget).context

    # ------------------------------------------------------------------ whole graph

    def stats(self) -> dict[str, object]:
        return {"root": str(self.root), **self.store.counts(), "meta": self.store.meta()}

    def graph(self) -> tuple[list[Symbol], list[Edge]]:
        """All symbols and edges, read from one consistent version of the index."""
        with self.store.snapshot():
            return self.store.all_symbols(), self.store.all_edges()


def _check_query(query: str) -> str:
    query = (query or "").strip()
    if not query:
        raise AstragError("the query is empty", "ask a question or name a symbol")
    if len(query) > 10_000:
        raise AstragError(
            f"the query is {len(query)} characters long", "keep it under 10000 characters"
        )
    return query


# ---------------------------------------------------------------------------------- check

_LANG_EXTENSIONS = {"python": ".py", "typescript": ".ts", "javascript": ".js", "tsx": ".tsx"}


def check(
    root: Path,
    text: str,
    *,
    path: str | None = None,
    lang: str | None = None,
    diff: bool | None = None,
    session: CheckSession | None = None,
) -> CheckReport:
    """Check code an LLM wrote against the index of ``root``.

    ``text`` is a unified diff (recognised by its headers, or forced with ``diff=True``);
    otherwise code: with ``path``, a snippet placed at the end of that repository file (its
    imports and module scope apply; lines are reported in the snippet's numbering), or the
    whole new version of ``path`` when ``text`` already starts like that file; without
    ``path``, a standalone snippet in language ``lang``. Pass a ``session``
    (:func:`open_check_session`) to check many times against one loaded index.
    """
    root = root.resolve()
    own = session is None
    session = session or open_check_session(root)
    try:
        if diff if diff is not None else looks_like_diff(text):
            changes, deleted = changes_from_diff(text, lambda p: _read(root, p))
            return session.check(changes, deleted)
        return session.check([_code_change(root, text, path, lang)])
    finally:
        if own:
            session.store.close()


def open_check_session(root: Path, *, store: str | None = None) -> CheckSession:
    """The index of ``root`` loaded for checking; reuse it for many :func:`check` calls."""
    root = root.resolve()
    return CheckSession(root, _open_store(root, store))  # type: ignore[arg-type]


def _code_change(root: Path, text: str, path: str | None, lang: str | None) -> ChangedFile:
    if path is None:
        ext = _LANG_EXTENSIONS.get((lang or "").lower())
        if ext is None:
            raise AstragError(
                "cannot tell the language of the code to check",
                "pass --path FILE (the file it goes into) or --lang python|typescript|javascript",
            )
        return ChangedFile(f"<snippet>{ext}", text, None)
    target = safe_path(path)
    existing = _read(root, target)
    if existing is not None and existing.strip() and text.startswith(existing[:200]):
        return ChangedFile(target, text, None)  # the whole new version of the file
    return change_from_snippet(text, target, existing)


def _read(root: Path, rel: str) -> str | None:
    """A repository file's text, or None; never follows a path out of the repository."""
    full = (root / safe_path(rel)).resolve()
    if not full.is_relative_to(root):
        raise AstragError(f"{rel} resolves outside the repository", "check a file inside it")
    try:
        return full.read_text("utf-8", errors="replace")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
