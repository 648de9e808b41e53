"""Calls edges scored at definition granularity, and the naive name-matching baseline.

An *edge* is (source definition, target definition): the source is the innermost named
definition around a call site, the target the definition it calls. Both sides name them by
astrag's symbol ids (``path::Outer.inner``; a module is its path): astrag's export carries
them on every ``calls`` edge; the oracles compute them by the rules written at the top of
``ts_calls.mjs`` ("Named definitions") and above ``_DEF_NODES`` in ``jedi_calls.py``. Matching
is on the id itself, after one normalisation on targets: a constructor (``C.constructor``,
``C.__init__``, ``C.__new__``) is its class ``C``, since `new C()` / ``C()`` may be given as
either.

Oracle edges come from the judged sites (the oracle resolved them to in-project definitions
that are not parameters or function-local variables); a site's targets are alternatives
(aliases, initializers, the constructor a `new` runs), so an oracle edge is its source and
first target, found when astrag has an edge from that source to any alternative, at any site.
An astrag edge is judged when at least one of its sites is an oracle site the oracle resolved
(in-project or external) and that does not only call a local; it is right when the oracle has
an edge from the same source to that target. Edge precision and recall count distinct edges.

The baseline is what name matching alone gives on the oracle's own definitions: every judged
site is linked to the definitions (functions, methods, classes, bound functions) named like
its callee in the same file if there are any, else to every such definition in the repository.
It is scored the same way, per edge and per site.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from oracle_data import CLASS_KINDS, CONSTRUCTOR_NAMES, Graph, Oracle, OracleSite

Edge = tuple[str, str]  # (source id, target id)


def canonical(symbol_id: str) -> str:
    """A constructor's id is its class's."""
    head, sep, last = symbol_id.rpartition(".")
    if sep and "::" in head and last in CONSTRUCTOR_NAMES:
        return head
    return symbol_id


@dataclass
class Tally:
    """Precision over what was judged, recall over what was expected: of edges or of sites."""

    unit: str = "edges"
    judged: int = 0
    correct: int = 0
    expected: int = 0
    found: int = 0

    def as_dict(self) -> dict[str, float | int | None]:
        u = self.unit
        return {
            "precision": _ratio(self.correct, self.judged),
            "recall": _ratio(self.found, self.expected),
            f"judged_{u}": self.judged,
            f"correct_{u}": self.correct,
            f"expected_{u}": self.expected,
            f"found_{u}": self.found,
        }


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


@dataclass
class EdgeReport:
    outcome: Tally = field(default_factory=lambda: Tally("edges"))
    miss_reasons: Counter[str] = field(default_factory=Counter)
    false_positive_reasons: Counter[str] = field(default_factory=Counter)
    misses: list[dict] = field(default_factory=list)
    false_positives: list[dict] = field(default_factory=list)

    def as_dict(self, examples: int) -> dict:
        return {
            **self.outcome.as_dict(),
            "miss_reasons": dict(self.miss_reasons.most_common()),
            "false_positive_reasons": dict(self.false_positive_reasons.most_common()),
            "example_misses": self.misses[:examples],
            "example_false_positives": self.false_positives[:examples],
        }


@dataclass
class OracleEdges:
    """The oracle's edges: alternatives per (source, first target), and where they were seen."""

    alternatives: dict[Edge, set[str]] = field(default_factory=lambda: defaultdict(set))
    sites: dict[Edge, list[OracleSite]] = field(default_factory=lambda: defaultdict(list))
    targets_by_source: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def oracle_edges(sites: Iterable[OracleSite]) -> OracleEdges:
    edges = OracleEdges()
    for site in sites:
        if not site.judged or not site.targets or not site.source:
            continue
        ids = [canonical(t.id) for t in site.targets if t.id and not t.local]
        direct = [canonical(t.id) for t in site.targets if t.id and not t.local and not t.via]
        if not ids:
            continue
        edge = (site.source, (direct or ids)[0])
        edges.alternatives[edge].update(ids)
        edges.sites[edge].append(site)
        edges.targets_by_source[site.source].update(ids)
    return edges


def judged_sites(oracle: Oracle) -> dict[tuple[str, int, int], OracleSite]:
    return {key: site for key, site in oracle.sites.items() if site.judged}


def astrag_edges(graph: Graph) -> tuple[set[Edge], dict[Edge, list[tuple[str, int, int]]]]:
    """astrag's in-repo calls edges (targets normalised) and the sites of each."""
    where: dict[Edge, list[tuple[str, int, int]]] = defaultdict(list)
    for key, targets in graph.calls.items():
        source = graph.sources.get(key, "")
        for target in targets:
            if graph.in_repo(target) is not None and source:
                where[(source, canonical(target))].append(key)
    return set(where), where


def score_astrag(oracle: Oracle, graph: Graph) -> EdgeReport:
    truth = oracle_edges(oracle.sites.values())
    pairs, where = astrag_edges(graph)
    judged = judged_sites(oracle)
    node_ids = {canonical(i) for i in graph.nodes} | set(graph.nodes)
    defined = {d.id for d in oracle.definitions} | {s.path for s in oracle.sites.values()}
    report = EdgeReport()
    for edge in sorted(pairs):
        if not any(key in judged for key in where[edge]):
            continue
        report.outcome.judged += 1
        if edge[1] in truth.targets_by_source.get(edge[0], ()):
            report.outcome.correct += 1
            continue
        site = judged[next(k for k in where[edge] if k in judged)]
        reason = _false_positive_reason(edge, site, defined)
        report.false_positive_reasons[reason] += 1
        report.false_positives.append(_describe(edge, site, reason))
    for edge in sorted(truth.alternatives):
        alternatives = truth.alternatives[edge]
        report.outcome.expected += 1
        if any((edge[0], t) in pairs for t in alternatives):
            report.outcome.found += 1
            continue
        reason = _miss_reason(edge, alternatives, truth.sites[edge], graph, node_ids)
        report.miss_reasons[reason] += 1
        report.misses.append(_describe(edge, truth.sites[edge][0], reason))
    return report


def _false_positive_reason(edge: Edge, site: OracleSite, defined: set[str]) -> str:
    if edge[1] in {canonical(t.id) for t in site.targets if t.id}:
        # The right target, from the wrong place: a named definition one side lacks.
        if edge[0] not in defined:
            return "right target, but the source is not an oracle definition"
        return "right target, but the oracle's source is another definition"
    return "wrong target" if edge[0] in defined else "wrong target and source"


def _miss_reason(
    edge: Edge, alternatives: set[str], sites: list[OracleSite], graph: Graph, node_ids: set[str]
) -> str:
    if edge[0] not in graph.nodes:
        return "source definition has no astrag node"
    if not alternatives & node_ids:
        return "target definition has no astrag node"
    for site in sites:
        if graph.sources.get(site.key, edge[0]) != edge[0] and any(
            canonical(t) in alternatives for t in graph.calls.get(site.key, [])
        ):
            return "astrag has the call, from another source"
    return "no astrag edge at any of its sites"


def _describe(edge: Edge, site: OracleSite | None, reason: str) -> dict:
    return {
        "source": edge[0],
        "target": edge[1],
        "reason": reason,
        "site": f"{site.path}:{site.line}:{site.column} {site.name} ({site.shape})" if site else "",
    }


# --- the naive name-matching baseline ------------------------------------------------------


def baseline_targets(oracle: Oracle) -> dict[tuple[str, int, int], list[str]]:
    """Per judged site: definitions named like the callee, same file first, else the repo's."""
    by_name: dict[str, list[tuple[str, str]]] = defaultdict(list)  # name -> [(path, id)]
    for d in oracle.definitions:
        if d.source:
            by_name[d.name].append((d.path, d.id))
    out: dict[tuple[str, int, int], list[str]] = {}
    for key, site in oracle.sites.items():
        if not site.judged:
            continue
        candidates = by_name.get(site.name, [])
        same_file = [i for p, i in candidates if p == site.path]
        out[key] = same_file or [i for _, i in candidates]
    return out


def score_baseline(oracle: Oracle) -> tuple[Tally, Tally]:
    truth = oracle_edges(oracle.sites.values())
    linked = baseline_targets(oracle)
    pairs: set[Edge] = set()
    sites = Tally("sites")
    for key, candidates in linked.items():
        site = oracle.sites[key]
        right = {canonical(t.id) for t in site.targets if t.id and not t.local}
        got = [canonical(c) for c in candidates]
        pairs.update((site.source, c) for c in got)
        if got:
            sites.judged += 1
            sites.correct += all(c in right for c in got)
        if right:
            sites.expected += 1
            sites.found += any(c in right for c in got)
    edges = Tally("edges")
    for source, target in pairs:
        edges.judged += 1
        edges.correct += target in truth.targets_by_source.get(source, ())
    for (source, _), alternatives in truth.alternatives.items():
        edges.expected += 1
        edges.found += any((source, t) in pairs for t in alternatives)
    return edges, sites


def is_constructor_call(site: OracleSite) -> bool:
    """`new X()` (TypeScript), or a Python call whose oracle target is a class."""
    return site.shape == "new" or any(
        t.kind in CLASS_KINDS and not t.local and not t.via for t in site.targets
    )
