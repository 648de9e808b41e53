"""The stable JSON shapes of astrag's answers (``--format json``), built from API values.

Every machine-readable output goes through here, so the schemas live in one place:
paths are repository-relative, lines 1-based inclusive.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from astrag import lang
from astrag.api import Outline, Related, Use
from astrag.graph.facts import Edge, Resolution, Symbol
from astrag.query.calls import LINKS, notes
from astrag.query.uses import USE_KINDS
from astrag.verify.findings import CheckReport, Finding

if TYPE_CHECKING:  # annotations only: importing them loads the indexer and the search engine
    from astrag.indexer import IndexSummary
    from astrag.query.repomap import RepoMap
    from astrag.retrieve.answer import Answer
    from astrag.search.engine import Hit

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


def declaration_json(s: Symbol) -> dict[str, object]:
    """Another declaration of a shown symbol's name (``Index.declarations``): where, and what
    it says."""
    whole = symbol_json(s)
    return {key: whole[key] for key in ("id", "kind", "start_line", "end_line", "signature")}


def site_json(e: Edge) -> dict[str, object]:
    return {
        "kind": str(e.kind),
        "path": e.path,
        "line": e.line,
        "column": e.column,
        "resolution": str(e.resolution),
    }


def relation_summary(edges: Iterable[Edge], *, incoming: bool, shown: int | None = 8) -> list[str]:
    """``"calls (3): a, b, c"`` per edge kind (``contains`` left out: it is the outline, not a
    relation), the other ends sorted and cut after ``shown`` (``None``: all of them); for a
    person or a model."""
    ends: dict[str, set[str]] = {}
    by_name: dict[str, set[str]] = {}  # the ends linked by name only (name-level languages)
    for e in edges:
        if e.kind != "contains":
            end = e.source if incoming else e.target
            ends.setdefault(str(e.kind), set()).add(end)
            if e.resolution == Resolution.NAME:
                by_name.setdefault(str(e.kind), set()).add(end)
    lines = []
    for kind, ids in sorted(ends.items()):
        more = " …" if shown is not None and len(ids) > shown else ""
        matched = f", {len(by_name[kind])} name-matched" if kind in by_name else ""
        lines.append(f"{kind} ({len(ids)}{matched}): {', '.join(sorted(ids)[:shown])}{more}")
    return lines


def _brief(s: Symbol) -> dict[str, object]:
    """What names and locates a symbol in a list: the first keys of every listed result."""
    return {
        "id": s.id,
        "kind": s.kind,
        "name": s.name,
        "qualname": s.qualname,
        "path": s.path,
        "start_line": s.start_line,
        "end_line": s.end_line,
    }


def related_json(r: Related) -> dict[str, object]:
    return {
        **_brief(r.symbol),
        "depth": r.depth,
        "via": site_json(r.edge),
        # direct: an edge of the graph; dispatch: a call of a method it overrides (callers) or
        # of one it is overridden by (callees), `through` that method; alias: a call of a
        # variable or field holding the symbol, `through` that alias; candidate: an
        # unresolved call that may be one, `through` its placeholder, or a call of an alias
        # its file assigns again, `through` the alias (unverified)
        "link": r.link,
        "through": r.through or None,
    }


def traversal_json(
    symbol: Symbol, relation: str, depth: int, found: list[Related], listed: int | None = None
) -> dict:
    """A walk's answer; ``listed`` caps the results shown (counts and notes are of all)."""
    counts = dict.fromkeys(LINKS, 0)
    for r in found:
        counts[r.link] += 1
    return {
        "symbol": symbol_json(symbol),
        "relation": relation,
        "depth": depth,
        "results": [related_json(r) for r in found[:listed]],
        "counts": counts,
        "notes": notes(symbol, relation, found),
    }


def references_json(
    symbol: Symbol, found: list[Use], listed: int | None = None
) -> dict[str, object]:
    """Every use; ``listed`` caps the results shown (the counts are of all)."""
    counts = {kind: 0 for kind in USE_KINDS}
    for u in found:
        counts[u.kind] += 1
    return {
        "symbol": symbol_json(symbol),
        "counts": {kind: n for kind, n in counts.items() if n},
        "total": len(found),
        "results": [
            {
                "use": u.kind,
                "id": u.symbol.id,
                "kind": u.symbol.kind,
                "qualname": u.symbol.qualname,
                "path": u.edge.path,
                "line": u.edge.line,
                "column": u.edge.column,
                "edge": str(u.edge.kind),
                "resolution": str(u.edge.resolution),
                "through": u.through or None,
                "code": u.code,
            }
            for u in found[:listed]
        ],
    }


def outline_json(o: Outline) -> dict[str, object]:
    m = o.module
    return {
        "path": m.path,
        "language": m.language,
        "lines": m.end_line,
        "docstring": m.docstring,
        "symbols": [
            {
                **_brief(e.symbol),
                "signature": e.symbol.signature,
                "depth": e.depth,
                "parent": e.symbol.parent,
            }
            for e in o.entries
        ],
    }


def map_json(m: RepoMap) -> dict[str, object]:
    return {
        "budget": m.budget,
        "tokens": m.tokens,
        "files_total": m.files_total,
        "definitions_total": m.definitions_total,
        "definitions_shown": m.definitions_shown,
        "files": [
            {
                "path": f.path,
                "role": f.role,
                "score": round(f.score, 6),
                "symbols": [
                    {
                        **_brief(e.symbol),
                        "signature": e.symbol.signature,
                        "depth": e.depth,
                        "score": round(e.score, 6),
                        "context": e.context,
                    }
                    for e in f.entries
                ],
            }
            for f in m.files
        ],
        "text": m.text,
    }


def summary_json(s: IndexSummary) -> dict[str, object]:
    return {
        "root": s.root,
        "files": s.files,
        "lines": s.lines,
        "symbols": s.symbols,
        "edges": dict(sorted(s.edges.items())),
        "languages": lang.levels(s.languages),
        "calls": s.calls,
        "call_resolution_rate": round(s.call_resolution_rate, 4),
        "call_rates": {k: round(v, 4) for k, v in call_rates(s.calls).items()},
        "parse_errors": s.parse_errors,
        "files_with_errors": s.files_with_errors,
        "error_files": list(s.error_files),
        "parsed": s.parsed,
        "removed": s.removed,
        "resolved_files": s.resolved_files,
        "skipped": [{"path": k.path, "reason": k.reason} for k in s.skipped],
        "seconds": round(s.seconds, 3),
        "timings": s.timings,
        "rebuilt_because": s.rebuilt_because,
        "notes": s.notes,
        "embedder": s.embedder,
        "embedded": s.embedded,
    }


def call_rates(calls: dict[str, int]) -> dict[str, float]:
    """Shares of call edges by where they land: a repository symbol, an external package's
    (a placeholder named after it), or nothing known (unresolved, or a dangling target)."""
    total = sum(calls.values())
    if not total:
        return {"repository": 0.0, "name": 0.0, "external": 0.0, "unresolved": 0.0}
    repository = calls.get("resolved", 0) / total
    name = calls.get("name", 0) / total  # matched by name in a name-level language
    external = calls.get("external", 0) / total
    unresolved = max(0.0, 1.0 - repository - name - external)  # unresolved and dangling
    shares = {"repository": repository, "name": name, "external": external}
    return {**shares, "unresolved": unresolved}


def search_json(
    query: str, hits: list[Hit], snippets: dict[str, str] | None = None
) -> dict[str, object]:
    """``snippets``: each hit's code by id (:meth:`astrag.api.Index.snippets`); "" without."""
    code = snippets or {}
    return {
        "query": query,
        "results": [
            {
                "id": h.symbol.id,
                "path": h.symbol.path,
                "start_line": h.symbol.start_line,
                "end_line": h.symbol.end_line,
                "symbol": h.symbol.qualname or h.symbol.path,
                "kind": h.symbol.kind,
                "score": h.score,
                "signature": h.symbol.signature,
                "snippet": code.get(h.symbol.id, ""),
            }
            for h in hits
        ],
    }


def context_json(answer: Answer, explain: bool) -> dict[str, object]:
    data = answer.context.to_json()
    data["notes"] = list(answer.notes)
    if explain:
        data["plan"] = answer.plan.to_json()
        data["seeds"] = [
            {"id": h.symbol.id, "score": h.score, "rankers": list(h.rankers)} for h in answer.seeds
        ]
    return data


def candidates_json(query: str, candidates: list[Symbol]) -> dict[str, object]:
    return {
        "error": "ambiguous",
        "query": query,
        "candidates": [symbol_json(s) for s in candidates],
    }


def finding_json(f: Finding) -> dict[str, object]:
    return {
        "path": f.path,
        "line": f.line,
        "column": f.column,
        "rule": f.rule,
        "severity": f.severity,
        "message": f.message,
        "suggestions": list(f.suggestions),
    }


def check_json(report: CheckReport) -> dict[str, object]:
    return {
        "findings": [finding_json(f) for f in report.findings],
        "files": report.files,
        "seconds": round(report.seconds, 4),
    }


_RULE_HELP = {
    "unknown-function": "A call to a name nothing in scope defines.",
    "unknown-member": "A member the receiver's known type or module does not have.",
    "unknown-import": "An import of a repository module or name that does not exist.",
    "undeclared-name": "A name read as a value that nothing in scope declares.",
    "unknown-type": "A type name in an annotation that nothing in scope declares.",
    "wrong-arguments": "Too few or too many positional arguments for a known signature.",
    "unknown-keyword": "A keyword argument the callee does not accept.",
}


def check_sarif(report: CheckReport) -> dict[str, object]:
    """SARIF 2.1.0, as code-scanning tools read it."""
    rules = [{"id": rule, "shortDescription": {"text": text}} for rule, text in _RULE_HELP.items()]
    results = [
        {
            "ruleId": f.rule,
            "level": "error" if f.severity == "error" else "warning",
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": f.path},
                        "region": {"startLine": f.line, "startColumn": f.column},
                    }
                }
            ],
        }
        for f in report.findings
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "astrag", "informationUri": "", "rules": rules}},
                "results": results,
            }
        ],
    }
