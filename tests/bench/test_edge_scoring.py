"""edge_scoring.py: calls edges at definition granularity and the name-matching baseline."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(_BENCH))
_spec = importlib.util.spec_from_file_location("edge_scoring", _BENCH / "edge_scoring.py")
assert _spec is not None and _spec.loader is not None
es = importlib.util.module_from_spec(_spec)
sys.modules["edge_scoring"] = es
_spec.loader.exec_module(es)
import oracle_data  # noqa: E402


def jsonl(*records: dict) -> list[str]:
    return [json.dumps(r) for r in records]


def node(id: str, path: str, start: int, end: int, kind: str = "function") -> dict:
    name = id.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
    return {
        "type": "node",
        "id": id,
        "kind": kind,
        "name": name,
        "qualname": name,
        "path": path,
        "start_line": start,
        "end_line": end,
    }


def call(source: str, target: str, path: str, line: int, column: int) -> dict:
    return {"type": "edge", "source": source, "target": target, "kind": "calls"} | {
        "path": path,
        "line": line,
        "column": column,
    }


def site(path, line, column, name, source, targets=(), external=False, shape="name") -> dict:
    rec = {"path": path, "line": line, "column": column, "name": name, "shape": shape}
    rec |= {"source": source, "targets": list(targets)}
    return rec | ({"external": True} if external else {})


def target(id: str, line: int, kind: str = "FunctionDeclaration", **extra) -> dict:
    path, _, qual = id.partition("::")
    name = qual.rsplit(".", 1)[-1]
    return {"path": path, "line": line, "kind": kind, "name": name, "id": id} | extra


def definition(id: str, line: int, end: int, source: bool = True) -> dict:
    path, _, qual = id.partition("::")
    return {"kind": "definition", "id": id, "path": path, "name": qual.rsplit(".", 1)[-1]} | {
        "line": line,
        "end_line": end,
        "source": source,
    }


# a.ts: outer() { function inner() { helper() }  inner() }; helper(); b.ts: other helper
DEFS = (
    definition("a.ts::outer", 1, 10),
    definition("a.ts::outer.inner", 2, 4),
    definition("a.ts::helper", 12, 14),
    definition("b.ts::helper", 1, 3),
)
NODES = (
    node("a.ts::outer", "a.ts", 1, 10),
    node("a.ts::helper", "a.ts", 12, 14),
    node("b.ts::helper", "b.ts", 1, 3),
)


def oracle(*sites: dict) -> oracle_data.Oracle:
    return oracle_data.read_oracle(jsonl(*sites, *DEFS))


def graph(*edges: dict, nodes=NODES) -> oracle_data.Graph:
    return oracle_data.load_graph(jsonl(*nodes, *edges))


def test_constructor_ids_are_their_class() -> None:
    assert es.canonical("a.ts::C.constructor") == "a.ts::C"
    assert es.canonical("m.py::C.__init__") == "m.py::C"
    assert es.canonical("m.py::f.__init__") == "m.py::f"
    assert es.canonical("a.ts::constructor") == "a.ts::constructor"  # a top-level name
    assert es.canonical("a.ts::C.run") == "a.ts::C.run"


def test_call_in_inner_function_charged_to_the_outer_one_is_a_miss_and_a_false_positive() -> None:
    o = oracle(site("a.ts", 3, 5, "helper", "a.ts::outer.inner", [target("a.ts::helper", 12)]))
    report = es.score_astrag(o, graph(call("a.ts::outer", "a.ts::helper", "a.ts", 3, 5)))
    assert report.outcome.as_dict() == {
        "precision": 0.0,
        "recall": 0.0,
        "judged_edges": 1,
        "correct_edges": 0,
        "expected_edges": 1,
        "found_edges": 0,
    }
    assert report.miss_reasons == {"source definition has no astrag node": 1}
    assert report.false_positive_reasons == {
        "right target, but the oracle's source is another definition": 1
    }


def test_edge_is_found_from_any_site_and_counted_once() -> None:
    o = oracle(
        site("a.ts", 5, 3, "helper", "a.ts::outer", [target("a.ts::helper", 12)]),
        site("a.ts", 6, 3, "helper", "a.ts::outer", [target("a.ts::helper", 12)]),
    )
    # astrag resolves only the second site: the edge outer -> helper exists all the same
    report = es.score_astrag(o, graph(call("a.ts::outer", "a.ts::helper", "a.ts", 6, 3)))
    o_ = report.outcome
    assert (o_.judged, o_.correct, o_.expected, o_.found) == (1, 1, 1, 1)


def test_constructor_and_class_are_the_same_target_and_via_targets_are_alternatives() -> None:
    o = oracle(
        site(
            "a.ts",
            5,
            7,
            "Svc",
            "a.ts::outer",
            [
                target("a.ts::Svc", 20, "ClassDeclaration"),
                target("a.ts::Svc.constructor", 21, "Constructor", via="signature"),
            ],
            shape="new",
        )
    )
    nodes = (*NODES, node("a.ts::Svc.constructor", "a.ts", 21, 22, "method"))
    g = graph(call("a.ts::outer", "a.ts::Svc.constructor", "a.ts", 5, 7), nodes=nodes)
    report = es.score_astrag(o, g)
    assert (report.outcome.correct, report.outcome.found) == (1, 1)
    assert es.is_constructor_call(o.sites[("a.ts", 5, 7)])


def test_unjudged_sites_and_locals_do_not_count() -> None:
    o = oracle(
        site("a.ts", 5, 3, "cb", "a.ts::outer", [target("a.ts::outer.cb", 1, local=True)]),
        site("a.ts", 6, 3, "helper", "a.ts::outer"),  # unresolved by the oracle
    )
    g = graph(
        call("a.ts::outer", "a.ts::helper", "a.ts", 5, 3),
        call("a.ts::outer", "b.ts::helper", "a.ts", 6, 3),
    )
    report = es.score_astrag(o, g)
    assert (report.outcome.judged, report.outcome.expected) == (0, 0)


def test_edge_to_the_repo_where_the_oracle_says_external_is_wrong() -> None:
    o = oracle(site("a.ts", 5, 3, "helper", "a.ts::outer", external=True))
    report = es.score_astrag(o, graph(call("a.ts::outer", "b.ts::helper", "a.ts", 5, 3)))
    assert (report.outcome.judged, report.outcome.correct) == (1, 0)
    assert report.false_positive_reasons == {"wrong target": 1}


def test_missing_target_node_and_call_from_another_source_are_told_apart() -> None:
    o = oracle(
        site("a.ts", 5, 3, "gone", "a.ts::outer", [target("a.ts::gone", 30)]),
        site("a.ts", 13, 3, "helper", "a.ts::helper", [target("b.ts::helper", 1)]),
    )
    g = graph(call("a.ts::outer", "b.ts::helper", "a.ts", 13, 3))
    report = es.score_astrag(o, g)
    assert report.miss_reasons == {
        "target definition has no astrag node": 1,
        "astrag has the call, from another source": 1,
    }


def test_baseline_links_same_file_definitions_first_else_every_one() -> None:
    o = oracle(
        # same file has a helper: only a.ts::helper is linked (right)
        site("a.ts", 3, 5, "helper", "a.ts::outer.inner", [target("a.ts::helper", 12)]),
        # c.ts has none: both helpers are linked; one is right
        site("c.ts", 1, 1, "helper", "c.ts", [target("b.ts::helper", 1)]),
        # no definition of that name: nothing linked, a miss
        site("c.ts", 2, 1, "gone", "c.ts", [target("a.ts::gone", 20)]),
    )
    edges, sites = es.score_baseline(o)
    assert sites.as_dict() == {
        "precision": 0.5,
        "recall": 0.6667,
        "judged_sites": 2,
        "correct_sites": 1,
        "expected_sites": 3,
        "found_sites": 2,
    }
    # edges: inner->a.helper (right), c->a.helper (wrong), c->b.helper (right); c->gone missed
    assert (edges.judged, edges.correct, edges.expected, edges.found) == (3, 2, 3, 2)
