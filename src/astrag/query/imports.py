"""A file's imports and its importers, from the graph's ``imports`` edges: what the file
depends on, and which files depend on it (an import of anything it defines counts)."""

from __future__ import annotations

from dataclasses import dataclass

from astrag.graph.facts import Edge, EdgeKind, Symbol
from astrag.store.base import GraphStore

_IMPORTS = (str(EdgeKind.IMPORTS),)


@dataclass(frozen=True, slots=True)
class Imported:
    edge: Edge  # the import's site: for imports, in this file; for importers, in theirs
    symbol: Symbol | None  # the other end (None: it is gone from the index)


@dataclass(frozen=True, slots=True)
class FileImports:
    module: Symbol
    imports: tuple[Imported, ...]  # what this file imports, in site order
    importers: tuple[Imported, ...]  # imports of this file's definitions by other files


def file_imports(store: GraphStore, module: Symbol) -> FileImports:
    ids = [module.id, *(s.id for s in store.symbols_in_file(module.path) if s.id != module.id)]
    outgoing = [e for e in store.edges_from(ids, _IMPORTS) if e.path == module.path]
    incoming = [e for e in store.edges_to(ids, _IMPORTS) if e.path != module.path]
    outgoing.sort(key=lambda e: (e.line, e.column, e.target))
    incoming.sort(key=lambda e: (e.path, e.line, e.column, e.target))
    ends = store.get_symbols({e.target for e in outgoing} | {e.source for e in incoming})
    return FileImports(
        module,
        tuple(Imported(e, ends.get(e.target)) for e in outgoing),
        tuple(Imported(e, ends.get(e.source)) for e in incoming),
    )
