"""A symbol's neighbourhood: what lies within a few hops of it over the graph's edges, cut to
a number of nodes a person can look at (the web view's picture, ``astrag export --around``).

Hop 1 is every edge into or out of the symbol (its parent and members included), plus the
callers that reach it through dispatch or may reach it as an unverified candidate
(:mod:`astrag.query.calls`), labelled so. Further hops follow calls, references and the
class hierarchy only (``contains`` would add every sibling of every method reached, ``imports``
every file that imports a widely used type) and never leave a placeholder
(``external::``/``unresolved::`` names are shared by unrelated call sites, so beyond hop 1
they are not shown at all) or a module (a module imports and contains too much to be a path
between two symbols). When more nodes are reached than fit, the nearest hops are kept first;
within a hop the most connected nodes, and further out each shown node in turn brings its own
(:func:`_ranked_ends`). ``omitted`` counts the nodes reached and left out (the hops past a
full one are not explored).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from astrag.graph.facts import Edge, EdgeKind, PlaceholderKind, Symbol
from astrag.query.calls import AS_VALUE, DIRECT, Related, callers, site_key
from astrag.store.base import GraphStore

SEMANTIC = tuple(
    str(k)
    for k in (
        EdgeKind.CALLS,
        EdgeKind.REFERENCES,
        EdgeKind.IMPORTS,
        EdgeKind.INHERITS,
        EdgeKind.IMPLEMENTS,
        EdgeKind.OVERRIDES,
    )
)
ALL_KINDS = (*SEMANTIC, str(EdgeKind.CONTAINS))
# beyond hop 1: what uses or is used by a neighbour, not the files that import it
FAR = tuple(k for k in SEMANTIC if k != EdgeKind.IMPORTS)
MAX_DEPTH = 4
_PLACEHOLDER_PREFIXES = tuple(f"{k}::" for k in PlaceholderKind)
DEFAULT_LIMIT = 60


@dataclass(frozen=True, slots=True)
class Node:
    symbol: Symbol
    hop: int  # 0 for the symbol asked about


@dataclass(frozen=True, slots=True)
class Link:
    """One drawn edge: every site of one kind between two nodes, merged."""

    source: str
    target: str
    kind: str  # an EdgeKind value
    link: str  # direct, dispatch or candidate (as callers label them)
    sites: int  # how many edges of the graph (call sites, imports, ...) it stands for
    path: str  # the first site
    line: int
    through: str = ""  # dispatch: the overridden method called; candidate: the placeholder


@dataclass(frozen=True, slots=True)
class Neighbourhood:
    center: Symbol
    depth: int
    nodes: tuple[Node, ...]  # the center first, then by hop
    links: tuple[Link, ...]
    edges: tuple[Edge, ...]  # the graph's edges among the nodes (links merge them)
    omitted: int  # nodes reached but left out to stay within the limit


def neighbourhood(
    store: GraphStore,
    center: Symbol,
    depth: int = 2,
    limit: int = DEFAULT_LIMIT,
    found_callers: Sequence[Related] | None = None,
) -> Neighbourhood:
    """The symbols within ``depth`` hops of ``center`` and the edges among them, at most
    ``limit`` nodes (the center included). ``found_callers``: ``callers(store, center, 1)``
    when the caller already has it (its dispatch and candidate callers are drawn too).

    Hop by hop, only the nodes shown are expanded: a symbol with thousands of callers costs
    one read of its edges and the few dozen symbols shown, not their neighbourhoods."""
    depth = max(1, min(depth, MAX_DEPTH))
    limit = max(1, limit)
    derived = _derived(
        center, found_callers if found_callers is not None else callers(store, center, 1)
    )
    hops: dict[str, int] = {center.id: 0}
    symbols: dict[str, Symbol] = {center.id: center}
    left_out: set[str] = set()
    frontier = [center.id]
    for hop in range(1, depth + 1):
        kinds = ALL_KINDS if hop == 1 else FAR
        found = store.edges_from(frontier, kinds) + store.edges_to(frontier, kinds)
        ranked = _ranked_ends(found, hops, far=hop > 1)
        if hop == 1:
            ranked += [i for i in dict.fromkeys(d.source for d in derived) if i not in ranked]
        room = limit - len(hops)
        left_out.update(ranked[room:] if room > 0 else ranked)
        taken = ranked[: max(room, 0)]
        symbols.update(store.get_symbols(taken))
        for i in taken:
            hops[i] = hop
        frontier = [i for i in taken if _expandable(symbols.get(i))]
        if not frontier or len(hops) >= limit:
            break
    nodes = tuple(Node(symbols[i], h) for i, h in hops.items() if i in symbols)
    shown = {n.symbol.id for n in nodes}
    among = _edges_among(store, center.id, shown)
    links = _links(among, derived, shown)
    return Neighbourhood(center, depth, nodes, links, among, omitted=len(left_out - shown))


def _derived(center: Symbol, found: Sequence[Related]) -> list[Link]:
    """Callers through dispatch and unverified candidates, as links into the center (a read
    as a value is the graph's own ``references`` edge, drawn as such)."""
    return [
        Link(r.symbol.id, center.id, str(EdgeKind.CALLS), r.link, 1, r.edge.path, r.edge.line,
             r.through)
        for r in found
        if r.link != DIRECT and r.through != AS_VALUE
    ]  # fmt: skip


def _ranked_ends(found: Iterable[Edge], hops: dict[str, int], *, far: bool) -> list[str]:
    """The other ends of ``found`` not yet shown, in the order they are kept.

    Next to the center (``far`` false): symbols of the repository before placeholders, the
    most connected first. Further out, placeholders are left out (there a placeholder is a
    name many unrelated sites share, ``builtins.int``, not a neighbour); what ties several
    shown nodes together comes first, then the shown nodes take turns, each bringing its most
    connected neighbour, so that one widely used type cannot fill the picture with its users.
    """
    neighbours: dict[str, set[str]] = {}
    sites: dict[str, int] = {}
    for e in found:
        for end, other in ((e.source, e.target), (e.target, e.source)):
            if end in hops or other not in hops:
                continue
            if far and end.startswith(_PLACEHOLDER_PREFIXES):
                continue
            neighbours.setdefault(end, set()).add(other)
            sites[end] = sites.get(end, 0) + 1

    def strength(i: str) -> tuple[bool, int, int, str]:
        return (i.startswith(_PLACEHOLDER_PREFIXES), -len(neighbours[i]), -sites[i], i)

    if not far:
        return sorted(neighbours, key=strength)
    shared = sorted((i for i in neighbours if len(neighbours[i]) > 1), key=strength)
    order = {node: rank for rank, node in enumerate(hops)}
    turns: dict[str, list[str]] = {}
    for i in sorted(neighbours, key=strength):
        if len(neighbours[i]) == 1:
            turns.setdefault(next(iter(neighbours[i])), []).append(i)
    queues = [turns[parent] for parent in sorted(turns, key=order.__getitem__)]
    rounds = [q[k] for k in range(max(map(len, queues), default=0)) for q in queues if k < len(q)]
    return shared + rounds


def _expandable(symbol: Symbol | None) -> bool:
    return symbol is not None and bool(symbol.path) and symbol.kind != "module"


def _edges_among(store: GraphStore, center: str, shown: set[str]) -> tuple[Edge, ...]:
    """The graph's edges between shown nodes, in site order; ``contains`` only at the center
    (a class or module shown further out would otherwise draw a line to each member)."""
    real = sorted(i for i in shown if not i.startswith(_PLACEHOLDER_PREFIXES))
    contains = (str(EdgeKind.CONTAINS),)
    edges = {
        e
        for e in [
            *store.edges_from(real, SEMANTIC),
            *store.edges_from([center], contains),
            *store.edges_to([center], contains),
        ]
        if e.source in shown and e.target in shown and e.source != e.target
    }
    return tuple(sorted(edges, key=site_key))


def _links(edges: Sequence[Edge], derived: list[Link], shown: set[str]) -> tuple[Link, ...]:
    merged: dict[tuple[str, str, str, str], Link] = {}
    plain = [Link(e.source, e.target, str(e.kind), DIRECT, 1, e.path, e.line) for e in edges]
    for link in [*plain, *derived]:
        if link.source not in shown or link.target not in shown:
            continue
        key = (link.source, link.target, link.kind, link.link)
        if link.link != DIRECT and (link.source, link.target, link.kind, DIRECT) in merged:
            continue  # a caller reached directly is not drawn again through dispatch
        first = merged.get(key)
        merged[key] = link if first is None else replace(first, sites=first.sites + 1)
    return tuple(merged.values())
