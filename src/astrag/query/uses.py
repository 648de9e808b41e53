"""Every use of a symbol, by kind, with its site: what ``astrag references SYMBOL`` answers.

The graph's incoming edges say most of it: ``calls``, ``imports``, ``inherits``,
``implements``, ``overrides``. A ``references`` edge is a read, a type annotation or a ``new``;
the edge does not say which, the file's facts do (a reference is recorded with its kind at the
same line and column the edge carries). A call of a class is a construction, as ``new`` is.
Calls that may dispatch to the symbol, calls of its aliases (``compat = real``; those assigned
again are candidates) and unresolved sites that may denote it come from
:mod:`astrag.query.calls`, labelled as such. For a module, imports of anything it defines are
uses of the module too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from astrag.graph.facts import CLASS_KINDS, FUNCTION_KINDS, Edge, EdgeKind, RefKind, Symbol
from astrag.graph.semantics import Receiver
from astrag.lang import semantics_for
from astrag.query import calls
from astrag.store.base import GraphStore

# in the order they are listed; the title of each group for a person
USE_KINDS: dict[str, str] = {
    "call": "calls",
    "new": "constructions",
    "read": "reads",
    "type": "type annotations",
    "import": "imports",
    "inherit": "subclasses",
    "implement": "implementations",
    "override": "overrides",
    "dispatch": "calls that may dispatch here",
    "alias": "calls through an alias",
    "candidate": "unverified candidates",
}
_EDGE_USE = {
    str(EdgeKind.CALLS): "call",
    str(EdgeKind.REFERENCES): "read",
    str(EdgeKind.IMPORTS): "import",
    str(EdgeKind.INHERITS): "inherit",
    str(EdgeKind.IMPLEMENTS): "implement",
    str(EdgeKind.OVERRIDES): "override",
}
_REF_USE = {RefKind.READ: "read", RefKind.TYPE: "type", RefKind.NEW: "new"}
_CANDIDATE_EDGES = (str(EdgeKind.CALLS), str(EdgeKind.REFERENCES))


@dataclass(frozen=True, slots=True)
class Use:
    kind: str  # a key of USE_KINDS
    symbol: Symbol  # where the use is: the innermost definition (or module) holding the site
    edge: Edge
    # dispatch: the method the call resolved to; alias: the alias called; candidate: the
    # placeholder, or an alias its file assigns again
    through: str = ""
    code: str = ""  # the site's line of source, stripped


def uses(
    store: GraphStore,
    symbol: Symbol,
    line_of: Callable[[str, int], str] | None = None,
    *,
    code: bool = True,
) -> list[Use]:
    """Every use of ``symbol``, grouped in :data:`USE_KINDS` order, each group in site order;
    ``line_of(path, line)`` reads the source: it fills in each site's code (unless ``code``
    is false) and finds the own-field reads the facts do not hold."""
    targets = [symbol.id]
    if symbol.kind == "module":
        targets += [s.id for s in store.symbols_in_file(symbol.path) if s.id != symbol.id]
    edges = [
        e
        for e in store.edges_to(targets, list(_EDGE_USE))
        if e.target == symbol.id or e.kind == EdgeKind.IMPORTS
    ]
    known: calls.Sites = {}  # the references' kinds, read once for this and for callers()
    kinds = {(e.path, e.line, e.column): k for e, k in calls.referenced(store, [symbol.id], known)}
    found: list[tuple[str, Edge, str]] = []
    for e in edges:
        kind = _EDGE_USE[str(e.kind)]
        if kind == "read":
            kind = _REF_USE.get(kinds.get((e.path, e.line, e.column)) or RefKind.READ, "read")
        elif kind == "call" and symbol.kind in CLASS_KINDS:
            kind = "new"
        found.append((kind, e, ""))
    found += [("read", e, "") for e in _own_field_reads(store, symbol, line_of)]
    for r in calls.callers(store, symbol, 1, known):
        if r.link in (calls.DISPATCH, calls.ALIASED):
            found.append((r.link, r.edge, r.through))
        elif calls.via_alias(r):  # an alias its file assigns again: unverified
            found.append(("candidate", r.edge, r.through))
    for r in calls.caller_candidates(store, symbol, _CANDIDATE_EDGES):
        found.append(("candidate", r.edge, r.through))
    return _listed(store, found, line_of if code else None)


def _listed(
    store: GraphStore,
    found: list[tuple[str, Edge, str]],
    line_of: Callable[[str, int], str] | None,
) -> list[Use]:
    order = {kind: i for i, kind in enumerate(USE_KINDS)}
    unique = {(kind, e.source, e.path, e.line, e.column): (kind, e, via) for kind, e, via in found}
    ranked = sorted(
        unique.values(),
        key=lambda u: (order[u[0]], u[1].path, u[1].line, u[1].column, u[1].source),
    )
    holders = store.get_symbols({e.source for _, e, _ in ranked})
    out = []
    for kind, e, via in ranked:
        holder = holders.get(e.source)
        if holder is None:
            continue
        code = line_of(e.path, e.line).strip() if line_of and e.line else ""
        out.append(Use(kind, holder, e, via, code))
    return out


_FIELD_KINDS = frozenset({"field", "variable"})
_OWN_RECEIVERS = (Receiver.INSTANCE, Receiver.CLASS)


def _own_field_reads(
    store: GraphStore, symbol: Symbol, line_of: Callable[[str, int], str] | None = None
) -> list[Edge]:
    """``self.name`` / ``this.name`` read inside the field's class or a subclass that does not
    declare ``name`` again: the reads the resolver drops as edges (``_own_field`` in
    graph/edges.py), found by the same rule in the facts of the hierarchy's files. A longer
    chain reads the field on its way (``this.items.push(x)``). Where a room's facts leave such
    reads out (TypeScript records ``this.x`` only under a call), the class's lines are read for
    ``receiver.name`` that is not only assigned, so that the answer is never "no uses" while
    the code reads it."""
    if symbol.kind not in _FIELD_KINDS or not symbol.parent:
        return []
    try:
        receivers = sorted(
            name
            for name, what in semantics_for(symbol.language).receivers.items()
            if what in _OWN_RECEIVERS
        )
    except KeyError:  # a language without resolution rules has no receivers
        return []
    classes = _hierarchy_without_redeclaration(store, symbol)
    if not receivers or not classes:
        return []
    by_path: dict[str, list[Symbol]] = {}
    for cls in classes:
        by_path.setdefault(cls.path, []).append(cls)
    facts = store.lazy_facts(by_path)
    written = re.compile(
        rf"\b(?:{'|'.join(map(re.escape, receivers))})\.{re.escape(symbol.name)}(?![\w$])"
        r"(?!\s*=(?!=))"  # ``self.x = …`` only writes it; ``self.x += 1`` reads it too
    )
    out: list[Edge] = []
    for path, owners in by_path.items():
        in_file = store.symbols_in_file(path)
        found: set[int] = set()
        prefixes = tuple(f"{c.qualname}." for c in owners)
        for ref in facts[path].references if path in facts else ():
            chain = ref.chain
            if (
                len(chain) >= 2
                and chain[0] in receivers
                and chain[1].removesuffix("()") == symbol.name
                and ref.scope.startswith(prefixes)
                and (len(chain) > 2 or ref.kind == RefKind.READ)  # ``self.f()`` is a call
            ):
                column = _column(line_of, path, ref.line, written) if len(chain) > 2 else 0
                found.add(ref.line)
                out += _read_edge(in_file, symbol, path, ref.line, column or ref.column)
        if line_of is None:
            continue
        for cls in owners:
            for line in range(cls.start_line + 1, cls.end_line + 1):
                if line not in found and line != symbol.start_line:
                    column = _column(line_of, path, line, written)
                    if column:
                        out += _read_edge(in_file, symbol, path, line, column)
    return out


def _column(
    line_of: Callable[[str, int], str] | None, path: str, line: int, written: re.Pattern[str]
) -> int:
    """The 1-based column of the field's name in a read written on ``line``, 0 if none."""
    m = written.search(line_of(path, line)) if line_of is not None else None
    return m.start() + m.group().rindex(".") + 2 if m else 0


def _read_edge(
    in_file: list[Symbol], symbol: Symbol, path: str, line: int, column: int
) -> list[Edge]:
    source = _innermost(in_file, line)
    if source is None:
        return []
    return [Edge(source.id, symbol.id, EdgeKind.REFERENCES, path, line, column)]


def _hierarchy_without_redeclaration(store: GraphStore, symbol: Symbol) -> list[Symbol]:
    """The field's class and every subclass reached without passing a class that declares a
    member of the same name (its reads are of that member)."""
    owner = store.get_symbols([symbol.parent]).get(symbol.parent)
    if owner is None or owner.kind not in CLASS_KINDS:
        return []
    seen, out, frontier = {owner.id}, [owner], [owner.id]
    while frontier:
        subs = {e.source for e in store.edges_to(frontier, [str(EdgeKind.INHERITS)])} - seen
        seen |= subs
        frontier = []
        for sub in store.get_symbols(subs).values():
            if sub.kind in CLASS_KINDS and not any(
                s.parent == sub.id and s.name == symbol.name
                for s in store.symbols_in_file(sub.path)
            ):
                out.append(sub)
                frontier.append(sub.id)
    return out


def _innermost(symbols: list[Symbol], line: int) -> Symbol | None:
    """The smallest function or class of the file holding ``line`` (a method, a nested
    function): where the read is, as the resolver names an edge's source."""
    holding = [
        s
        for s in symbols
        if s.start_line <= line <= s.end_line
        and (s.kind in FUNCTION_KINDS or s.kind in CLASS_KINDS)
    ]
    return min(holding, key=lambda s: s.end_line - s.start_line, default=None)
