"""Score astrag's call edges against a compiler oracle, call site by call site.

Inputs are an oracle JSONL (bench/oracles/ts_calls.mjs, jedi_calls.py, JavaCalls.java or
go_calls.go) and
astrag's ``export --format jsonl``. Sites are matched on (path, line, column) of the callee name
token, 1-based on both sides. An astrag target *matches* an oracle target when it is a node with the
same path, whose [start_line, end_line] contains the oracle target's line, and whose name is
the oracle target's name (the site's callee name when the oracle gives none) — or when one side
is a class and the other is that class's constructor (``constructor``/``__init__``/``__new__``).
Any of a site's oracle targets may match, including the ``"via"`` ones the oracles add for what
an alias, parameter or ``new`` is bound to.

Precision: over sites where astrag has a ``calls`` edge to an in-repo node and the oracle
resolved the site (to in-project targets, or as external), the share whose in-repo astrag
targets all match an oracle target. Sites the oracle could not resolve are not judged.
Edge precision (share of such edges that match) is reported beside it.
Recall: over sites the oracle resolved to in-project targets, the share where at least one
astrag ``calls`` edge matches.

Calls to locals: the graph has no nodes for parameters or function-local variables, by design,
so a site whose every in-project oracle target is marked ``"local"`` (``callback()`` on a
parameter, ``fn()`` on a local const) is counted apart as a call to a local/parameter and left
out of both precision and recall. A site with a local target *and* another one (``const f =
obj.m; f()`` gives the local ``f`` and, via its initializer, ``m``) is scored as usual.

Misses and false positives are broken down by callee shape (the oracle's "shape": name,
self, super, member) and by why they happened, to tell resolver gaps from alignment bugs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/ is not a package
import edge_scoring
from oracle_data import (  # noqa: F401  (re-exported: tests and accuracy.py use them)
    CLASS_KINDS,
    CONSTRUCTOR_NAMES,
    Graph,
    Node,
    Oracle,
    OracleSite,
    OracleTarget,
    SiteKey,
    load_graph,
    load_oracle,
    read_oracle,
)


def node_matches(node: Node, target: OracleTarget, site_name: str) -> bool:
    if node.path != target.path:
        return False
    target_name = target.name or site_name
    contains = node.start_line <= target.line <= node.end_line
    if contains and node.name == target_name:
        return True
    # Our class node vs the oracle's constructor (TS resolves `new`-less calls of a class
    # through its construct signature; both point at the same thing for a reader).
    if (
        contains
        and node.kind in CLASS_KINDS
        and (target.kind == "Constructor" or target_name in CONSTRUCTOR_NAMES)
    ):
        return True
    # Our constructor node vs the oracle's class (jedi's goto on `Foo()` gives the class).
    if node.name in CONSTRUCTOR_NAMES and target.kind in CLASS_KINDS:
        owner = node.qualname.rsplit(".", 2)[-2] if "." in node.qualname else ""
        return owner == target_name
    return False


@dataclass
class Outcome:
    """Counts for one slice of the sites (overall, or one callee shape)."""

    judged: int = 0  # precision denominator
    correct: int = 0
    edges_judged: int = 0
    edges_correct: int = 0
    expected: int = 0  # recall denominator
    found: int = 0

    def as_dict(self) -> dict[str, float | int | None]:
        return {
            "precision": _ratio(self.correct, self.judged),
            "edge_precision": _ratio(self.edges_correct, self.edges_judged),
            "recall": _ratio(self.found, self.expected),
            "judged_sites": self.judged,
            "correct_sites": self.correct,
            "judged_edges": self.edges_judged,
            "correct_edges": self.edges_correct,
            "expected_sites": self.expected,
            "found_sites": self.found,
        }


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


@dataclass
class Report:
    overall: Outcome = field(default_factory=Outcome)
    by_shape: dict[str, Outcome] = field(default_factory=lambda: defaultdict(Outcome))
    miss_reasons: Counter[str] = field(default_factory=Counter)
    false_positive_reasons: Counter[str] = field(default_factory=Counter)
    unjudged: Counter[str] = field(default_factory=Counter)
    local_calls: Counter[str] = field(default_factory=Counter)  # by shape; not scored
    misses: list[dict] = field(default_factory=list)
    false_positives: list[dict] = field(default_factory=list)
    constructor: Outcome = field(default_factory=Outcome)  # `new X()`, Python calls of a class
    # Definition granularity (edge_scoring.py): None for oracle files without ids.
    edges: edge_scoring.EdgeReport | None = None
    baseline_edges: edge_scoring.Tally | None = None
    baseline_sites: edge_scoring.Tally | None = None

    def as_dict(self, examples: int) -> dict:
        definition = None
        if self.edges is not None:
            assert self.baseline_edges is not None and self.baseline_sites is not None
            definition = {
                "edges": self.edges.as_dict(examples),
                "baseline_edges": self.baseline_edges.as_dict(),
                "baseline_sites": self.baseline_sites.as_dict(),
            }
        return {
            "overall": self.overall.as_dict(),
            "constructor_calls": self.constructor.as_dict(),
            "definition_granularity": definition,
            "by_shape": {k: v.as_dict() for k, v in sorted(self.by_shape.items())},
            "miss_reasons": dict(self.miss_reasons.most_common()),
            "false_positive_reasons": dict(self.false_positive_reasons.most_common()),
            "unjudged": dict(self.unjudged.most_common()),
            "local_call_sites": sum(self.local_calls.values()),
            "local_call_sites_by_shape": dict(sorted(self.local_calls.items())),
            "example_misses": self.misses[:examples],
            "example_false_positives": self.false_positives[:examples],
        }


def _describe_node(node: Node) -> str:
    name = node.qualname or node.name
    return f"{name} [{node.kind}] {node.path}:{node.start_line}-{node.end_line}"


def _describe_site(site: OracleSite, ours: list[str], graph: Graph) -> dict:
    described = []
    for target_id in ours:
        node = graph.in_repo(target_id)
        described.append(_describe_node(node) if node else target_id)
    return {
        "site": f"{site.path}:{site.line}:{site.column}",
        "name": site.name,
        "shape": site.shape,
        "oracle": [f"{t.name or '?'} [{t.kind}] {t.path}:{t.line}" for t in site.targets]
        or (["<external>"] if site.external else []),
        "astrag": described,
        "source": site.source,
        "oracle_ids": [t.id for t in site.targets if t.id],
    }


def compare(oracle: Oracle | dict[SiteKey, OracleSite], graph: Graph) -> Report:
    if not isinstance(oracle, Oracle):
        oracle = Oracle(sites=oracle)
    sites = oracle.sites
    report = Report()
    for key, target_ids in sorted(graph.calls.items()):
        # No oracle call site here: a construct the oracle skips (`new X()`, `super()`,
        # `a[b]()`), or a line/column convention that does not line up.
        if key not in sites and any(graph.in_repo(t) for t in target_ids):
            report.unjudged["astrag edge, no oracle site at that position"] += 1
    for key, site in sorted(sites.items()):
        _score_site(report, site, graph.calls.get(key, []), graph)
    if any(site.source for site in sites.values()):
        report.edges = edge_scoring.score_astrag(oracle, graph)
        report.baseline_edges, report.baseline_sites = edge_scoring.score_baseline(oracle)
    return report


def _score_site(report: Report, site: OracleSite, target_ids: list[str], graph: Graph) -> None:
    ours = [n for n in (graph.in_repo(t) for t in target_ids) if n is not None]
    if site.calls_local:
        report.local_calls[site.shape] += 1
        if ours:
            # A node for the local itself (astrag keeps functions bound in module-level
            # callbacks, e.g. `describe(() => { const f = () => ... })`) or something else.
            same = all(any(node_matches(n, t, site.name) for t in site.targets) for n in ours)
            which = "the local itself" if same else "another node"
            report.unjudged[f"astrag in-repo edge to {which}, oracle says local/parameter"] += 1
        return
    slices: tuple[Outcome, ...] = (report.overall, report.by_shape[site.shape])
    if edge_scoring.is_constructor_call(site):
        slices += (report.constructor,)

    if ours and not site.resolved:
        report.unjudged["astrag in-repo edge, oracle unresolved"] += 1
    elif ours:
        good = [any(node_matches(n, t, site.name) for t in site.targets) for n in ours]
        for s in slices:
            s.judged += 1
            s.correct += all(good)
            s.edges_judged += len(good)
            s.edges_correct += sum(good)
        if not all(good):
            reason = (
                "oracle says external"
                if not site.targets
                else "wrong in-repo target"
                if not any(good)
                else "extra in-repo target beside a right one"
            )
            report.false_positive_reasons[f"{site.shape}: {reason}"] += 1
            report.false_positives.append(_describe_site(site, target_ids, graph))

    if site.targets:
        hit = any(node_matches(n, t, site.name) for n in ours for t in site.targets)
        for s in slices:
            s.expected += 1
            s.found += hit
        if not hit:
            reason = (
                "no calls edge"
                if not target_ids
                else "edge to placeholder only"
                if not ours
                else "edge to wrong node"
            )
            report.miss_reasons[f"{site.shape}: {reason}"] += 1
            report.misses.append(_describe_site(site, target_ids, graph))


def format_text(report: Report, examples: int) -> str:
    def pct(x: float | None) -> str:
        return "  n/a " if x is None else f"{100 * x:5.1f}%"

    rows = []
    o = report.overall.as_dict()
    rows.append(
        f"precision {pct(o['precision'])} ({o['correct_sites']}/{o['judged_sites']} sites)"
        f"   edge precision {pct(o['edge_precision'])}"
        f"   recall {pct(o['recall'])} ({o['found_sites']}/{o['expected_sites']} sites)"
    )
    c = report.constructor.as_dict()
    if c["expected_sites"]:
        rows.append(
            f"constructor calls (new X(), Python class calls): recall {pct(c['recall'])}"
            f" ({c['found_sites']}/{c['expected_sites']} sites)"
        )
    rows.extend(_definition_rows(report, pct))
    if report.local_calls:
        by_shape = ", ".join(f"{k} {n}" for k, n in sorted(report.local_calls.items()))
        rows.append(
            f"calls to locals/parameters: {sum(report.local_calls.values())} sites ({by_shape});"
            " not scored, the graph has no nodes for them"
        )
    rows.append("")
    rows.append(f"{'shape':<8} {'precision':>10} {'judged':>7} {'recall':>8} {'expected':>9}")
    for shape, outcome in sorted(report.by_shape.items()):
        d = outcome.as_dict()
        rows.append(
            f"{shape:<8} {pct(d['precision']):>10} {d['judged_sites']:>7} "
            f"{pct(d['recall']):>8} {d['expected_sites']:>9}"
        )
    for title, counter in (
        ("misses", report.miss_reasons),
        ("false positives", report.false_positive_reasons),
        ("not judged", report.unjudged),
    ):
        if counter:
            rows.append(f"\n{title}:")
            rows.extend(f"  {n:>6}  {reason}" for reason, n in counter.most_common())
    if report.edges is not None:
        for title, counter in (
            ("edge misses (definition granularity)", report.edges.miss_reasons),
            ("edge false positives (definition granularity)", report.edges.false_positive_reasons),
        ):
            if counter:
                rows.append(f"\n{title}:")
                rows.extend(f"  {n:>6}  {reason}" for reason, n in counter.most_common())
    for title, items in (
        ("example misses", report.misses),
        ("example false positives", report.false_positives),
    ):
        if examples and items:
            rows.append(f"\n{title}:")
            for ex in items[:examples]:
                rows.append(f"  {ex['site']} {ex['name']} ({ex['shape']})")
                rows.append(f"      oracle: {'; '.join(ex['oracle']) or '-'}")
                rows.append(f"      astrag: {'; '.join(ex['astrag']) or '-'}")
    if examples and report.edges is not None:
        for title, items in (
            ("example edge misses", report.edges.misses),
            ("example edge false positives", report.edges.false_positives),
        ):
            if items:
                rows.append(f"\n{title}:")
                rows.extend(
                    f"  {ex['source']} -> {ex['target']}  [{ex['reason']}]  at {ex['site']}"
                    for ex in items[:examples]
                )
    return "\n".join(rows)


def _definition_rows(report: Report, pct: Callable[[float | None], str]) -> list[str]:
    if report.edges is None or report.baseline_edges is None or report.baseline_sites is None:
        return []
    e = report.edges.outcome.as_dict()
    b = report.baseline_edges.as_dict()
    bs = report.baseline_sites.as_dict()
    return [
        f"edges (definition granularity): precision {pct(e['precision'])}"
        f" ({e['correct_edges']}/{e['judged_edges']})   recall {pct(e['recall'])}"
        f" ({e['found_edges']}/{e['expected_edges']})",
        f"naive name-matching baseline: edge precision {pct(b['precision'])}"
        f"   edge recall {pct(b['recall'])}   site precision {pct(bs['precision'])}"
        f"   site recall {pct(bs['recall'])}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "oracle",
        type=Path,
        help="oracle JSONL (ts_calls.mjs / jedi_calls.py / JavaCalls.java / go_calls.go)",
    )
    parser.add_argument("astrag", type=Path, help="astrag export --format jsonl")
    parser.add_argument("--json", type=Path, help="write the full report as JSON here")
    parser.add_argument("--examples", type=int, default=0, help="list N example mismatches")
    parser.add_argument(
        "--oracle-path-prefix",
        default="",
        help="prepended to oracle paths when astrag indexed a parent directory",
    )
    args = parser.parse_args(argv)

    try:
        with args.oracle.open(encoding="utf-8") as f:
            oracle = read_oracle(f, args.oracle_path_prefix)
        with args.astrag.open(encoding="utf-8") as f:
            graph = load_graph(f)
    except (OSError, ValueError, KeyError) as exc:
        print(f"graph_accuracy: cannot read input: {exc}", file=sys.stderr)
        return 2
    report = compare(oracle, graph)
    print(format_text(report, args.examples))
    if args.json:
        args.json.write_text(json.dumps(report.as_dict(args.examples), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
