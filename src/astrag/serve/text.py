"""The readable text form of each tool's answer: what a model reads first, so short lines,
``path:line`` locations it can open, and no markup beyond a fenced source block."""

from __future__ import annotations

from collections.abc import Sequence

from astrag import present_text
from astrag.api import Answer as ContextAnswer
from astrag.api import Hit, Outline, Related, RepoMap, Use
from astrag.graph.facts import Edge, Symbol
from astrag.present import relation_summary
from astrag.serve.freshness import Status
from astrag.verify.findings import CheckReport


def freshness(status: Status) -> str:
    if not status.fresh:
        return f"index: STALE ({status.note})"
    line = f"index: fresh (checked in {status.checked_ms:.0f} ms"
    if status.updated_files:
        files = status.updated_files
        shown = ", ".join(files[:10])
        more = f" and {len(files) - 10} more" if len(files) > 10 else ""
        line += f"; re-indexed {shown}{more}"
    return line + f"; last indexed {status.indexed_at or 'unknown'})"


def _where(s: Symbol) -> str:
    return f"{s.path}:{s.start_line}-{s.end_line}" if s.path else s.kind


def search(query: str, hits: Sequence[Hit], snippets: dict[str, str]) -> str:
    return present_text.search(query, hits, snippets)


def context(answer: ContextAnswer) -> str:
    c = answer.context
    if not c.items:
        found = "\n".join(f"Note: {n}" for n in answer.notes)
        return found or "nothing in the index matches this query"
    return c.text


def symbol(
    s: Symbol,
    data: dict[str, object],
    outgoing: Sequence[Edge],
    incoming: Sequence[Edge],
    others: Sequence[Symbol] = (),
) -> str:
    lines = [f"{s.id}  ({s.kind}, {s.language})  {_where(s)}"]
    if s.signature:
        lines.append(f"signature: {s.signature}")
    if s.docstring:
        lines.append(f"doc: {s.docstring.strip().splitlines()[0]}")
    lines.extend(present_text.declarations(others))
    for arrow, edges, inward in (("->", outgoing, False), ("<-", incoming, True)):
        lines.extend(f"{arrow} {line}" for line in relation_summary(edges, incoming=inward))
    source = str(data.get("source") or "")
    if source:
        fence = "```"
        lines += ["", f"{fence}{s.language}", source, fence]
        if data.get("source_truncated"):
            lines.append(f"(source cut; the symbol spans lines {s.start_line}-{s.end_line})")
    return "\n".join(lines)


def traversal(s: Symbol, relation: str, found: Sequence[Related], total: int) -> str:
    return present_text.traversal(s, relation, found, total)


def references(s: Symbol, found: Sequence[Use]) -> str:
    return present_text.references(s, found)


def outline(o: Outline) -> str:
    return present_text.outline(o)


def repo_map(m: RepoMap) -> str:
    return present_text.repo_map(m)


def check(report: CheckReport) -> str:
    if not report.findings:
        return f"no findings in {', '.join(report.files) or 'the code'}"
    lines = [f"{len(report.findings)} finding(s):"]
    for f in report.findings:
        tag = "" if f.severity == "error" else f" ({f.severity})"
        lines.append(f"{f.path}:{f.line}:{f.column} {f.rule}{tag} {f.message}")
    return "\n".join(lines)


def stats(data: dict[str, object]) -> str:
    lines = [f"repository: {data.get('root')}"]
    for key, value in data.items():
        if key in ("root", "meta", "index"):
            continue
        if key == "languages" and isinstance(value, dict):
            value = present_text.languages(value)
        elif isinstance(value, dict):
            value = ", ".join(f"{k} {v:,}" for k, v in sorted(value.items())) or "none"
        lines.append(f"{key}: {value}")
    return "\n".join(lines)
