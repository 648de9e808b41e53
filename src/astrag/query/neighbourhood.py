"""A symbol's neighbourhood: what lies within a few hops of it over the graph's edges, cut to
a number of nodes a person can look at (the web view's picture, ``astrag export --around``).

Hop 1 is every edge into or out of the symbol (its parent and members included), plus the
callers that reach it through dispatch or may reach it as an unverified candidate
(:mod:`astrag.query.calls`), labelled so. Further hops follow the semantic edges only
(``contains`` would add every sibling of every method reached) and never leave a placeholder
(``external::``/``unresolved::`` names are shared by unrelated call sites, so beyond hop 1
they are not shown at all) or a module (a module imports and contains too much to be a path
between two symbols). When more nodes are reached
than fit, the nearest hops are kept whole first, and within a hop the most connected nodes;
``omitted`` says how many were left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from astrag.graph.facts import Edge, EdgeKind, PlaceholderKind, Symbol
from astrag.query.calls import DIRECT, callers
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
    store: GraphStore, center: Symbol, depth: int = 2, limit: int = DEFAULT_LIMIT
) -> Neighbourhood:
    """The symbols within ``depth`` hops of ``center`` and the edges among them, at most
    ``limit`` nodes (the center included)."""
    depth = max(1, min(depth, MAX_DEPTH))
    limit = max(1, limit)
    hops: dict[str, int] = {center.id: 0}
    edges: list[Edge] = []
    frontier = [center.id]
    by_edge: set[str] = set()  # reached over an edge of the graph, not only as a derived caller
    derived = _derived_callers(store, center)
    for hop in range(1, depth + 1):
        kinds = ALL_KINDS if hop == 1 else SEMANTIC
        found = store.edges_from(frontier, kinds) + store.edges_to(frontier, kinds)
        edges.extend(found)
        reached = _new_ends(found, hops, frontier)
        if hop > 1:  # a placeholder far out is a shared name (builtins.int), not a neighbour
            reached = [i for i in reached if not i.startswith(_PLACEHOLDER_PREFIXES)]
        by_edge.update(i for i in reached if i not in hops)
        if hop == 1:
            reached.extend(d.source for d in derived if d.source not in hops)
        for other in dict.fromkeys(reached):
            hops.setdefault(other, hop)
        frontier = [i for i, h in hops.items() if h == hop]
        symbols = store.get_symbols(frontier)
        frontier = [i for i in frontier if _expandable(symbols.get(i))]
        if not frontier:
            break
    edges = list(dict.fromkeys(edges))  # an edge between two frontier nodes came twice
    kept = _keep(hops, edges, by_edge, limit)
    symbols = store.get_symbols(kept)
    symbols[center.id] = center
    nodes = tuple(Node(symbols[i], hops[i]) for i in kept if i in symbols)
    shown = {n.symbol.id for n in nodes}
    among = tuple(e for e in edges if e.source in shown and e.target in shown)
    links = _links(edges, derived, shown)
    return Neighbourhood(center, depth, nodes, links, among, omitted=len(hops) - len(nodes))


def _derived_callers(store: GraphStore, center: Symbol) -> list[Link]:
    """Callers through dispatch and unverified candidates, as links into the center."""
    out = []
    for r in callers(store, center, 1):
        if r.link == DIRECT:
            continue
        out.append(
            Link(r.symbol.id, center.id, str(EdgeKind.CALLS), r.link, 1, r.edge.path,
                 r.edge.line, r.through)
        )  # fmt: skip
    return out


def _new_ends(found: Iterable[Edge], hops: dict[str, int], frontier: list[str]) -> list[str]:
    inside = set(frontier)
    out = []
    for e in sorted(found, key=lambda e: (e.path, e.line, e.column, e.source, e.target)):
        for end in (e.source, e.target):
            if end not in hops and end not in inside:
                out.append(end)
    return out


def _expandable(symbol: Symbol | None) -> bool:
    return symbol is not None and bool(symbol.path) and symbol.kind != "module"


def _keep(hops: dict[str, int], edges: list[Edge], by_edge: set[str], limit: int) -> list[str]:
    """Node ids to show: by hop; in a hop, those reached over an edge of the graph before the
    derived (dispatch, candidate) callers, then the most connected (distinct neighbours)."""
    degree: dict[str, set[str]] = {}
    for e in edges:
        degree.setdefault(e.source, set()).add(e.target)
        degree.setdefault(e.target, set()).add(e.source)
    order = sorted(
        hops, key=lambda i: (hops[i], hops[i] > 0 and i not in by_edge, -len(degree.get(i, ())), i)
    )
    return order[:limit]


def _links(edges: list[Edge], derived: list[Link], shown: set[str]) -> tuple[Link, ...]:
    merged: dict[tuple[str, str, str, str], Link] = {}
    ordered = sorted(edges, key=lambda e: (e.path, e.line, e.column, e.source, e.target))
    plain = [
        Link(e.source, e.target, str(e.kind), DIRECT, 1, e.path, e.line)
        for e in ordered
        if e.source != e.target
    ]
    for link in [*plain, *derived]:
        if link.source not in shown or link.target not in shown:
            continue
        key = (link.source, link.target, link.kind, link.link)
        if link.link != DIRECT and (link.source, link.target, link.kind, DIRECT) in merged:
            continue  # a caller reached directly is not drawn again through dispatch
        first = merged.get(key)
        merged[key] = link if first is None else replace(first, sites=first.sites + 1)
    return tuple(merged.values())
