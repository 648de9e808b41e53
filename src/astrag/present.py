"""The stable JSON shapes of astrag's answers (``--format json``), built from API values.

Every machine-readable output goes through here, so the schemas live in one place:
paths are repository-relative, lines 1-based inclusive.
"""

from __future__ import annotations

from astrag.api import Related
from astrag.graph.facts import Edge, Symbol
from astrag.indexer import IndexSummary

SCHEMA_VERSION = 1


def symbol_json(s: Symbol) -> dict[str, object]:
    return {
        "id": s.id,
        "kind": s.kind,
        "name": s.name,
        "qualname": s.qualname,
        "path": s.path,
        "start_line": s.start_line,
        "end_line": s.end_line,
        "parent": s.parent,
        "language": s.language,
        "signature": s.signature,
        "docstring": s.docstring,
        "decorators": list(s.decorators),
        "exported": s.exported,
        "visibility": s.visibility,
        "modifiers": list(s.modifiers),
    }


def site_json(e: Edge) -> dict[str, object]:
    return {"kind": str(e.kind), "path": e.path, "line": e.line, "column": e.column}


def related_json(r: Related) -> dict[str, object]:
    s = r.symbol
    return {
        "id": s.id,
        "kind": s.kind,
        "name": s.name,
        "qualname": s.qualname,
        "path": s.path,
        "start_line": s.start_line,
        "end_line": s.end_line,
        "depth": r.depth,
        "via": site_json(r.edge),
    }


def traversal_json(symbol: Symbol, relation: str, depth: int, found: list[Related]) -> dict:
    return {
        "symbol": symbol_json(symbol),
        "relation": relation,
        "depth": depth,
        "results": [related_json(r) for r in found],
    }


def summary_json(s: IndexSummary) -> dict[str, object]:
    return {
        "root": s.root,
        "files": s.files,
        "lines": s.lines,
        "symbols": s.symbols,
        "edges": dict(sorted(s.edges.items())),
        "calls": s.calls,
        "call_resolution_rate": round(s.call_resolution_rate, 4),
        "parse_errors": s.parse_errors,
        "files_with_errors": s.files_with_errors,
        "parsed": s.parsed,
        "removed": s.removed,
        "resolved_files": s.resolved_files,
        "skipped": [{"path": k.path, "reason": k.reason} for k in s.skipped],
        "seconds": round(s.seconds, 3),
        "timings": s.timings,
        "rebuilt_because": s.rebuilt_because,
    }


def candidates_json(query: str, candidates: list[Symbol]) -> dict[str, object]:
    return {
        "error": "ambiguous",
        "query": query,
        "candidates": [symbol_json(s) for s in candidates],
    }
