"""graph_accuracy.py's scoring rules, on hand-written oracle and export JSONL."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "bench" / "graph_accuracy.py"
_spec = importlib.util.spec_from_file_location("graph_accuracy", _PATH)
assert _spec is not None and _spec.loader is not None
ga = importlib.util.module_from_spec(_spec)
sys.modules["graph_accuracy"] = ga  # dataclasses look their module up by name
_spec.loader.exec_module(ga)


def jsonl(*records: dict) -> list[str]:
    return [json.dumps(r) for r in records]


def node(
    id: str,
    name: str,
    path: str,
    start: int,
    end: int,
    kind: str = "function",
    qualname: str | None = None,
) -> dict:
    return {
        "type": "node",
        "id": id,
        "kind": kind,
        "name": name,
        "qualname": qualname or name,
        "path": path,
        "start_line": start,
        "end_line": end,
    }


def call(source: str, target: str, path: str, line: int, column: int) -> dict:
    return {
        "type": "edge",
        "source": source,
        "target": target,
        "kind": "calls",
        "path": path,
        "line": line,
        "column": column,
    }


def site(
    path: str,
    line: int,
    column: int,
    name: str,
    targets: list[dict] | None = None,
    external: bool = False,
    shape: str = "name",
) -> dict:
    rec = {
        "path": path,
        "line": line,
        "column": column,
        "name": name,
        "shape": shape,
        "targets": targets or [],
    }
    if external:
        rec["external"] = True
    return rec


def target(path: str, line: int, name: str, kind: str = "FunctionDeclaration") -> dict:
    return {"path": path, "line": line, "kind": kind, "name": name}


NODES = (
    node("main", "main", "a.ts", 1, 5),
    node("helper", "helper", "b.ts", 10, 20),
    node("other", "other", "b.ts", 30, 40),
    node("Svc", "Svc", "c.ts", 1, 50, kind="class"),
    node("Svc.run", "run", "c.ts", 10, 15, kind="method", qualname="Svc.run"),
)


def score(oracle: list[dict], edges: list[dict], extra_nodes: tuple[dict, ...] = ()):
    graph = ga.load_graph(jsonl(*NODES, *extra_nodes, *edges))
    return ga.compare(ga.load_oracle(jsonl(*oracle)), graph)


def test_matching_edge_counts_for_precision_and_recall() -> None:
    report = score(
        [site("a.ts", 2, 3, "helper", [target("b.ts", 10, "helper")])],
        [call("main", "helper", "a.ts", 2, 3)],
    )
    assert report.overall.as_dict()["precision"] == 1.0
    assert report.overall.as_dict()["recall"] == 1.0


def test_wrong_target_is_a_false_positive_and_a_miss() -> None:
    report = score(
        [site("a.ts", 2, 3, "helper", [target("b.ts", 10, "helper")])],
        [call("main", "other", "a.ts", 2, 3)],
    )
    d = report.overall.as_dict()
    assert (d["precision"], d["recall"]) == (0.0, 0.0)
    assert report.false_positive_reasons == {"name: wrong in-repo target": 1}
    assert report.miss_reasons == {"name: edge to wrong node": 1}


def test_same_line_range_but_other_name_does_not_match() -> None:
    # The oracle's method line lies inside our class node, but the class is not the method.
    report = score(
        [
            site(
                "a.ts",
                2,
                3,
                "run",
                [target("c.ts", 10, "run", "MethodDeclaration")],
                shape="member",
            )
        ],
        [call("main", "Svc", "a.ts", 2, 3)],
    )
    assert report.overall.correct == 0
    assert report.by_shape["member"].judged == 1


def test_edge_into_repo_where_oracle_says_external_is_a_false_positive() -> None:
    report = score(
        [site("a.ts", 2, 3, "log", external=True, shape="member")],
        [call("main", "helper", "a.ts", 2, 3)],
    )
    assert report.overall.as_dict()["precision"] == 0.0
    assert report.overall.expected == 0  # external sites are not owed to recall
    assert report.false_positive_reasons == {"member: oracle says external": 1}


def test_unresolved_oracle_site_is_not_judged() -> None:
    report = score([site("a.ts", 2, 3, "mystery")], [call("main", "helper", "a.ts", 2, 3)])
    assert report.overall.judged == 0
    assert report.unjudged == {"astrag in-repo edge, oracle unresolved": 1}


def test_placeholder_edge_is_a_miss_not_a_false_positive() -> None:
    report = score(
        [site("a.ts", 2, 3, "helper", [target("b.ts", 10, "helper")])],
        [call("main", "unresolved::helper", "a.ts", 2, 3)],
    )
    assert report.overall.judged == 0
    assert report.miss_reasons == {"name: edge to placeholder only": 1}


def test_class_node_matches_oracle_constructor() -> None:
    report = score(
        [site("a.ts", 2, 3, "Svc", [target("c.ts", 5, "constructor", "Constructor")])],
        [call("main", "Svc", "a.ts", 2, 3)],
    )
    assert report.overall.correct == 1 and report.overall.found == 1


def test_init_node_matches_oracle_class() -> None:
    init = node("P.__init__", "__init__", "m.py", 3, 6, kind="method", qualname="m.P.__init__")
    report = score(
        [site("a.ts", 2, 3, "P", [target("m.py", 1, "P", "class")])],
        [call("main", "P.__init__", "a.ts", 2, 3)],
        extra_nodes=(init,),
    )
    assert report.overall.correct == 1


def test_extra_target_spoils_site_precision_but_not_recall() -> None:
    report = score(
        [site("a.ts", 2, 3, "helper", [target("b.ts", 10, "helper")])],
        [call("main", "helper", "a.ts", 2, 3), call("main", "other", "a.ts", 2, 3)],
    )
    d = report.overall.as_dict()
    assert d["precision"] == 0.0
    assert d["edge_precision"] == 0.5
    assert d["recall"] == 1.0


def test_column_mismatch_finds_no_site() -> None:
    report = score(
        [site("a.ts", 2, 3, "helper", [target("b.ts", 10, "helper")])],
        [call("main", "helper", "a.ts", 2, 4)],
    )
    assert report.overall.found == 0
    assert report.miss_reasons == {"name: no calls edge": 1}
    assert report.unjudged == {"astrag edge, no oracle site at that position": 1}


def test_target_name_defaults_to_callee_name() -> None:
    no_name = {"path": "b.ts", "line": 12, "kind": "MethodDeclaration"}
    report = score(
        [site("a.ts", 2, 3, "helper", [no_name])], [call("main", "helper", "a.ts", 2, 3)]
    )
    assert report.overall.correct == 1


def test_oracle_path_prefix_aligns_roots() -> None:
    oracle = ga.load_oracle(
        jsonl(site("a.ts", 2, 3, "helper", [target("b.ts", 10, "helper")])), path_prefix="pkg/"
    )
    graph = ga.load_graph(
        jsonl(
            node("helper", "helper", "pkg/b.ts", 10, 20), call("main", "helper", "pkg/a.ts", 2, 3)
        )
    )
    assert ga.compare(oracle, graph).overall.found == 1


def test_cli_writes_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    oracle = tmp_path / "oracle.jsonl"
    export = tmp_path / "export.jsonl"
    oracle.write_text(
        "\n".join(
            jsonl(
                site("a.ts", 2, 3, "helper", [target("b.ts", 10, "helper")]),
                site(
                    "a.ts",
                    3,
                    5,
                    "run",
                    [target("c.ts", 10, "run", "MethodDeclaration")],
                    shape="self",
                ),
            )
        )
        + "\n"
    )
    export.write_text("\n".join(jsonl(*NODES, call("main", "helper", "a.ts", 2, 3))) + "\n")
    out = tmp_path / "report.json"
    assert ga.main([str(oracle), str(export), "--json", str(out), "--examples", "5"]) == 0
    report = json.loads(out.read_text())
    assert report["overall"]["recall"] == 0.5
    assert report["by_shape"]["self"]["recall"] == 0.0
    assert report["example_misses"][0]["site"] == "a.ts:3:5"
    assert "recall  50.0%" in capsys.readouterr().out


def test_bad_input_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    assert ga.main([str(bad), str(bad)]) == 2


def test_any_oracle_target_may_match_including_via_alternatives() -> None:
    # `add = table.add_row; add()`: jedi lands on the assignment; the aliased method is added
    # with "via". An edge to either is right; an edge to neither is not.
    alias = {"path": "a.ts", "line": 1, "kind": "statement", "name": "add"}
    method = {"path": "c.ts", "line": 10, "kind": "function", "name": "run", "via": "alias"}
    right = score(
        [site("a.ts", 2, 3, "add", [alias, method])], [call("main", "Svc.run", "a.ts", 2, 3)]
    )
    wrong = score(
        [site("a.ts", 2, 3, "add", [alias, method])], [call("main", "other", "a.ts", 2, 3)]
    )
    assert (right.overall.correct, right.overall.found) == (1, 1)
    assert (wrong.overall.correct, wrong.overall.found) == (0, 0)


def local(path: str, line: int, name: str, kind: str = "Parameter", **extra: object) -> dict:
    return {"path": path, "line": line, "kind": kind, "name": name, "local": True, **extra}


def test_call_to_a_parameter_is_counted_apart_and_not_scored() -> None:
    # `callback()` on a parameter: the graph has no parameter nodes, so neither the missing
    # edge (recall) nor a guessed edge (precision) is scored.
    report = score(
        [
            site("a.ts", 2, 3, "callback", [local("a.ts", 1, "callback")]),
            site("a.ts", 3, 3, "fn", [local("a.ts", 2, "fn", "VariableDeclaration")]),
            site("a.ts", 4, 3, "helper", [target("b.ts", 10, "helper")]),
        ],
        [call("main", "other", "a.ts", 3, 3), call("main", "helper", "a.ts", 4, 3)],
    )
    d = report.overall.as_dict()
    assert (d["judged_sites"], d["expected_sites"]) == (1, 1)
    assert (d["precision"], d["recall"]) == (1.0, 1.0)
    assert report.local_calls == {"name": 2}
    assert report.unjudged == {
        "astrag in-repo edge to another node, oracle says local/parameter": 1
    }
    assert not report.miss_reasons and not report.false_positive_reasons


def test_local_with_a_non_local_alternative_is_still_scored() -> None:
    # `const f = svc.run; f()` inside a function: the local `f` and, via its initializer,
    # the method. The method is owed to recall.
    targets = [
        local("a.ts", 2, "f", "VariableDeclaration"),
        target("c.ts", 10, "run", "MethodDeclaration") | {"via": "initializer"},
    ]
    missed = score([site("a.ts", 3, 3, "f", targets)], [])
    found = score([site("a.ts", 3, 3, "f", targets)], [call("main", "Svc.run", "a.ts", 3, 3)])
    assert not missed.local_calls and missed.overall.expected == 1 and missed.overall.found == 0
    assert (found.overall.correct, found.overall.found) == (1, 1)


def test_local_flag_is_read_from_the_oracle_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    oracle = tmp_path / "oracle.jsonl"
    export = tmp_path / "export.jsonl"
    oracle.write_text(
        "\n".join(jsonl(site("m.py", 5, 9, "cb", [local("m.py", 4, "cb", "param")]))) + "\n"
    )
    export.write_text("\n".join(jsonl(*NODES)) + "\n")
    out = tmp_path / "report.json"
    assert ga.main([str(oracle), str(export), "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["local_call_sites"] == 1
    assert report["overall"]["expected_sites"] == 0
    assert "calls to locals/parameters: 1 sites (name 1)" in capsys.readouterr().out


def test_edge_to_a_node_for_the_local_itself_is_told_apart() -> None:
    # astrag keeps `const f = () => ...` inside a module-level `describe(...)` callback as a
    # function node; an edge to it is shown apart from edges to other nodes, still unscored.
    fn = node("f", "f", "a.ts", 2, 4)
    report = score(
        [site("a.ts", 5, 3, "f", [local("a.ts", 2, "f", "VariableDeclaration")])],
        [call("main", "f", "a.ts", 5, 3)],
        extra_nodes=(fn,),
    )
    assert report.unjudged == {
        "astrag in-repo edge to the local itself, oracle says local/parameter": 1
    }
    assert report.overall.judged == 0 and report.overall.expected == 0


def test_oracle_with_ids_is_also_scored_per_definition_with_a_baseline() -> None:
    oracle = ga.read_oracle(
        jsonl(
            site("a.ts", 2, 3, "helper", [target("b.ts", 10, "helper") | {"id": "b.ts::helper"}])
            | {"source": "a.ts::main"},
            site("a.ts", 3, 3, "Svc", [target("c.ts", 1, "Svc", "ClassDeclaration")], shape="new")
            | {"source": "a.ts::main"},
            {"kind": "definition", "id": "b.ts::helper", "path": "b.ts", "name": "helper"}
            | {"line": 10, "end_line": 20, "source": True},
        )
    )
    export = [*NODES, node("a.ts::main", "main", "a.ts", 1, 5)]
    graph = ga.load_graph(jsonl(*export, call("a.ts::main", "helper", "a.ts", 2, 3)))
    report = ga.compare(oracle, graph).as_dict(examples=5)
    assert report["constructor_calls"]["recall"] == 0.0
    definition = report["definition_granularity"]
    # the new site's target has no id (an old-style target): only helper's edge is scored
    assert definition["edges"]["expected_edges"] == 1
    assert definition["baseline_sites"]["found_sites"] == 1


def test_oracle_without_ids_has_no_definition_scores() -> None:
    report = score([site("a.ts", 2, 3, "helper", [target("b.ts", 10, "helper")])], [])
    assert report.as_dict(examples=0)["definition_granularity"] is None
