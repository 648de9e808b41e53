"""The plain text of the query answers: one record a line, whole paths and names, ``path:line``
locations anyone can open. The CLI prints it and the MCP server sends it to the model, so both
say the same thing (the JSON shapes are in :mod:`astrag.present`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from astrag.api import Outline, Related, Use
from astrag.graph.facts import Resolution, Symbol
from astrag.query.calls import ALIASED, AS_VALUE, CANDIDATE, DIRECT, DISPATCH, notes, via_alias
from astrag.query.uses import USE_KINDS

if TYPE_CHECKING:  # annotations only: importing them loads the search engine
    from astrag.query.repomap import RepoMap
    from astrag.search.engine import Hit

CANDIDATES_SHOWN = 20  # unverified call sites listed in text; JSON lists them all
USES_SHOWN = 50  # uses listed per kind in text
NAME_MATCHED = "name-matched"  # an edge found by name only, not resolved


def _signature(s: Symbol) -> str:
    # imported here: the map's module loads the tokenizer, which a CLI start does not need
    from astrag.query.repomap import SIGNATURE_CHARS

    text = " ".join(s.signature.split()) or f"{s.kind} {s.name}"
    return text if len(text) <= SIGNATURE_CHARS else text[: SIGNATURE_CHARS - 1] + "…"


def _label(s: Symbol) -> str:
    return (s.qualname or s.path) if s.path else s.id


def declarations(others: Sequence[Symbol]) -> list[str]:
    """A line for each other declaration of a shown symbol's name: where, and what it says."""
    return [f"also declared at {s.path}:{s.start_line}  {_signature(s)}" for s in others]


def outline(o: Outline) -> str:
    m = o.module
    head = f"{m.path}  ({m.language}, {m.end_line:,} lines, {len(o.entries):,} definitions)"
    lines = [head]
    for e in o.entries:
        s = e.symbol
        span = f"{s.start_line}-{s.end_line}"
        lines.append(f"{span:>11}  {'  ' * e.depth}{_signature(s)}")
    return "\n".join(lines)


def repo_map(m: RepoMap) -> str:
    return m.text


def languages(levels: dict[str, dict[str, object]]) -> str:
    """``python 12 (resolved), rust 3 (name-matched)`` from ``lang.levels``: the files of each
    language and how its links are found."""
    shown = [
        f"{language} {v['files']:,} ({NAME_MATCHED if v['resolution'] == 'name' else 'resolved'})"
        for language, v in levels.items()
    ]
    return ", ".join(shown) or "none"


def link(r: Related) -> str:
    """How a caller or callee was found, in a word or two: ``direct``, ``name-matched`` (an
    edge of a name-level language), ``via BaseRoute.matches``, ``via alias res.contentType``,
    ``unverified (?.matches)``, ``unverified (alias compat, assigned again)``."""
    if r.link == DISPATCH:
        return f"via {r.through.rpartition('::')[2] or r.through}"
    if r.link == ALIASED:
        return f"via alias {r.through.rpartition('::')[2] or r.through}"
    if r.link == CANDIDATE and r.through == AS_VALUE:
        return "unverified (used as a value)"
    if via_alias(r):
        return f"unverified (alias {r.through.rpartition('::')[2]}, assigned again)"
    if r.link == CANDIDATE:
        return f"unverified ({r.through.removeprefix('unresolved::')})"
    return NAME_MATCHED if r.edge.resolution == Resolution.NAME else DIRECT


def traversal(s: Symbol, relation: str, found: Sequence[Related], total: int) -> str:
    """A walk's answer: its notes first, then one line per symbol (indented by depth), the
    unverified candidates last and at most :data:`CANDIDATES_SHOWN` of them."""
    lines = [f"note: {n}" for n in notes(s, relation, found)]
    if not found:
        return "\n".join(lines) or f"no {relation} of {s.id} in the index"
    lines.append(f"{relation} of {s.id} ({total}):")
    candidates = 0
    for r in found:
        if r.link == CANDIDATE:
            candidates += 1
            if candidates > CANDIDATES_SHOWN:
                continue
        o = r.symbol
        where = f"{o.path}:{o.start_line}-{o.end_line}" if o.path else o.kind
        via = f"  at {r.edge.path}:{r.edge.line}" if r.edge.line else ""
        how = "" if link(r) == DIRECT else f"  [{link(r)}]"
        lines.append(f"{'  ' * (r.depth - 1)}{_label(o)}  {o.kind}  {where}{via}{how}")
    if candidates > CANDIDATES_SHOWN:
        rest = candidates - CANDIDATES_SHOWN
        lines.append(f"… {rest} more unverified call sites (JSON lists all)")
    if total > len(found):
        lines.append(f"… {total - len(found)} more not listed")
    return "\n".join(lines)


def references(s: Symbol, found: Sequence[Use]) -> str:
    """Uses grouped by kind, ``path:line:column  user  code`` each."""
    if not found:
        return f"no uses of {s.id} in the index"
    groups: dict[str, list[Use]] = {}
    for u in found:
        groups.setdefault(u.kind, []).append(u)
    summary = ", ".join(f"{USE_KINDS[k]} {len(v)}" for k, v in groups.items())
    lines = [f"uses of {s.id} ({len(found)}): {summary}"]
    for kind, group in groups.items():
        lines.append(f"{USE_KINDS[kind]} ({len(group)}):")
        for u in group[:USES_SHOWN]:
            e = u.edge
            site = f"{e.path}:{e.line}:{e.column}" if e.column else f"{e.path}:{e.line}"
            via = f"  [via {u.through.rpartition('::')[2]}]" if kind == "dispatch" else ""
            if kind == "alias":
                via = f"  [via alias {u.through.rpartition('::')[2]}]"
            if e.resolution == Resolution.NAME:
                via += f"  [{NAME_MATCHED}]"
            code = f"  {u.code}" if u.code else ""
            lines.append(f"  {site}  {_label(u.symbol)}{via}{code}")
        if len(group) > USES_SHOWN:
            lines.append(f"  … {len(group) - USES_SHOWN} more (JSON lists all)")
    return "\n".join(lines)


def search(query: str, hits: Sequence[Hit], snippets: dict[str, str]) -> str:
    """Each hit's rank, kind, name, location, score and the rankers that found it, then its
    code indented below."""
    if not hits:
        return f"no symbol matches {query!r}"
    lines = [f"{len(hits)} symbols for {query!r}:"]
    for i, h in enumerate(hits, 1):
        s = h.symbol
        where = f"{s.path}:{s.start_line}-{s.end_line}" if s.path else s.kind
        found = f"score {h.score:.3f}; {', '.join(h.rankers)}"
        lines.append(f"{i}. {s.kind} {s.qualname or s.path}  {where}  ({found})")
        code = snippets.get(s.id, "")
        lines += [f"     {line}" for line in code.splitlines()]
    return "\n".join(lines)
