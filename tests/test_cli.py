"""The ``astrag`` command end to end: the real CLI in a subprocess over a small Python + TypeScript
fixture whose every edge is listed below, checked against the fixture's source by hand."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_run import BASE_ENV, on_terminal, run

FILES: dict[str, str] = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": '''
        """Shapes with an area."""


        class Shape:
            def area(self) -> float:
                return 0.0

            def describe(self) -> str:
                return str(self.area())


        class Square(Shape):
            def __init__(self, side: float) -> None:
                self.side = side

            def area(self) -> float:
                return self.side * self.side


        class Cube(Square):
            def area(self) -> float:
                return 6 * self.side * self.side
        ''',
    "pkg/app.py": """
        from pkg.shapes import Square


        def build(side: float) -> Square:
            return Square(side)


        def report() -> str:
            return build(2.0).describe()


        def main() -> None:
            print(report())
        """,
    "web/greeter.ts": """
        export interface Greeter {
          greet(name: string): string;
        }

        export class Polite implements Greeter {
          greet(name: string): string {
            return this.wrap(name);
          }

          private wrap(name: string): string {
            return "Dear " + name;
          }
        }
        """,
    "web/main.ts": """
        import { Polite } from "./greeter";

        export function welcome(): string {
          const g = new Polite();
          return g.greet("you");
        }
        """,
}

SH = "pkg/shapes.py::"
APP = "pkg/app.py::"
GR = "web/greeter.ts::"

# Every edge of the fixture, read off the source above (not copied from astrag's output).
EXPECTED_EDGES: set[tuple[str, str, str]] = {
    # contains: module -> top-level definitions, class -> members (Square.side from self.side =)
    ("pkg/app.py", "contains", APP + "build"),
    ("pkg/app.py", "contains", APP + "report"),
    ("pkg/app.py", "contains", APP + "main"),
    ("pkg/shapes.py", "contains", SH + "Shape"),
    ("pkg/shapes.py", "contains", SH + "Square"),
    ("pkg/shapes.py", "contains", SH + "Cube"),
    (SH + "Shape", "contains", SH + "Shape.area"),
    (SH + "Shape", "contains", SH + "Shape.describe"),
    (SH + "Square", "contains", SH + "Square.__init__"),
    (SH + "Square", "contains", SH + "Square.side"),
    (SH + "Square", "contains", SH + "Square.area"),
    (SH + "Cube", "contains", SH + "Cube.area"),
    ("web/greeter.ts", "contains", GR + "Greeter"),
    ("web/greeter.ts", "contains", GR + "Polite"),
    (GR + "Greeter", "contains", GR + "Greeter.greet"),
    (GR + "Polite", "contains", GR + "Polite.greet"),
    (GR + "Polite", "contains", GR + "Polite.wrap"),
    ("web/main.ts", "contains", "web/main.ts::welcome"),
    # imports
    ("pkg/app.py", "imports", SH + "Square"),
    ("web/main.ts", "imports", GR + "Polite"),
    # calls: Square(side) calls the class; build(2.0) returns Square, whose describe is
    # inherited from Shape; self.area() in Shape.describe is Shape.area; new Polite() calls the
    # class (no class of its hierarchy has a constructor); g is a Polite, so g.greet is
    # Polite.greet
    (APP + "build", "calls", SH + "Square"),
    (APP + "report", "calls", APP + "build"),
    (APP + "report", "calls", SH + "Shape.describe"),
    (APP + "main", "calls", "external::builtins.print"),
    (APP + "main", "calls", APP + "report"),
    (SH + "Shape.describe", "calls", "external::builtins.str"),
    (SH + "Shape.describe", "calls", SH + "Shape.area"),
    (GR + "Polite.greet", "calls", GR + "Polite.wrap"),
    ("web/main.ts::welcome", "calls", GR + "Polite"),
    ("web/main.ts::welcome", "calls", GR + "Polite.greet"),
    # references: Python annotations (float, str, Square) and TS `new Polite()`; TS `string`
    # is a primitive type, not a symbol; `self.side` reads a plain field (no edge)
    (APP + "build", "references", "external::builtins.float"),
    (APP + "build", "references", SH + "Square"),
    (APP + "report", "references", "external::builtins.str"),
    (SH + "Shape.area", "references", "external::builtins.float"),
    (SH + "Shape.describe", "references", "external::builtins.str"),
    (SH + "Square.__init__", "references", "external::builtins.float"),
    (SH + "Square.area", "references", "external::builtins.float"),
    (SH + "Cube.area", "references", "external::builtins.float"),
    ("web/main.ts::welcome", "references", GR + "Polite"),
    # hierarchy
    (SH + "Square", "inherits", SH + "Shape"),
    (SH + "Cube", "inherits", SH + "Square"),
    (GR + "Polite", "implements", GR + "Greeter"),
    (SH + "Square.area", "overrides", SH + "Shape.area"),
    (SH + "Cube.area", "overrides", SH + "Square.area"),
    (GR + "Polite.greet", "overrides", GR + "Greeter.greet"),
}
EXPECTED_EDGE_COUNTS = {
    "calls": 10,
    "contains": 18,
    "implements": 1,
    "imports": 2,
    "inherits": 2,
    "overrides": 3,
    "references": 9,
}
# 5 modules; build, report, main, welcome; Shape, Square, Cube, Polite; Greeter; Square.side;
# Shape.area, Shape.describe, Square.__init__, Square.area, Cube.area, Greeter.greet,
# Polite.greet, Polite.wrap
EXPECTED_SYMBOLS = {"module": 5, "function": 4, "class": 4, "interface": 1, "field": 1, "method": 8}
EXTERNALS = {"external::builtins.float", "external::builtins.print", "external::builtins.str"}

SUMMARY_KEYS = {
    "root",
    "files",
    "lines",
    "symbols",
    "languages",
    "edges",
    "calls",
    "call_resolution_rate",
    "call_rates",
    "parse_errors",
    "files_with_errors",
    "error_files",
    "parsed",
    "removed",
    "resolved_files",
    "skipped",
    "seconds",
    "timings",
    "rebuilt_because",
    "notes",
    "embedder",
    "embedded",
}
NODE_KEYS = {"type", "id", "kind", "name", "qualname", "path", "start_line", "end_line"}
EDGE_KEYS = {"type", "source", "target", "kind", "path", "line", "column", "resolution"}

_ENV = dict(BASE_ENV)  # its ASTRAG_STORE is set per store by the fixtures below


def astrag(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run(*args, cwd=cwd, env=_ENV)


def ok_json(*args: str, cwd: Path | None = None) -> dict:
    result = astrag(*args, "--format", "json", cwd=cwd)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def fixture_text(rel: str) -> str:
    return textwrap.dedent(FILES[rel]).lstrip("\n")


@pytest.fixture(autouse=True)
def _both_stores(store_url: str) -> Iterator[None]:
    """Every CLI test runs against SQLite and against PostgreSQL (``--store`` through the
    environment, as a user would set ``ASTRAG_STORE``)."""
    _ENV["ASTRAG_STORE"] = store_url or "sqlite"
    yield


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory, store_url: str) -> tuple[Path, dict]:
    """The fixture repository, indexed once by ``astrag index --format json``; queries only
    read the index, so the tests share it."""
    _ENV["ASTRAG_STORE"] = store_url or "sqlite"
    root = tmp_path_factory.mktemp("repo").resolve()
    for rel in FILES:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(fixture_text(rel), encoding="utf-8")
    result = astrag("index", str(root), "--format", "json")
    assert result.returncode == 0, result.stderr
    return root, json.loads(result.stdout)


@pytest.fixture(scope="module")
def repo(indexed: tuple[Path, dict], store_url: str) -> Path:
    _ENV["ASTRAG_STORE"] = store_url or "sqlite"  # module fixtures run before _both_stores
    return indexed[0]


def results(data: dict) -> list[tuple[int, str]]:
    return [(r["depth"], r["id"]) for r in data["results"]]


# ---------------------------------------------------------------------------------- index


def test_index_json_summary_has_the_documented_keys_and_exact_counts(
    indexed: tuple[Path, dict],
) -> None:
    root, summary = indexed
    assert set(summary) == SUMMARY_KEYS
    assert summary["root"] == str(root)
    assert summary["files"] == 5
    assert summary["lines"] == sum(fixture_text(rel).count("\n") for rel in FILES)
    assert summary["symbols"] == sum(EXPECTED_SYMBOLS.values()) == 23
    assert summary["edges"] == EXPECTED_EDGE_COUNTS
    assert summary["edges"] == dict(Counter(kind for _, kind, _ in EXPECTED_EDGES))
    # print() and str() are the only calls that leave the repository
    assert summary["calls"] == {"resolved": 8, "external": 2}
    assert summary["call_resolution_rate"] == 1.0
    assert summary["call_rates"] == {
        "repository": 0.8,
        "name": 0.0,
        "external": 0.2,
        "unresolved": 0.0,
    }
    assert summary["languages"] == {
        "python": {"files": 3, "resolution": "resolved"},
        "typescript": {"files": 2, "resolution": "resolved"},
    }
    assert (summary["parse_errors"], summary["files_with_errors"]) == (0, 0)
    assert summary["error_files"] == []
    assert (summary["parsed"], summary["removed"], summary["resolved_files"]) == (5, 0, 5)
    assert summary["skipped"] == []
    assert summary["rebuilt_because"] == ""


def test_index_text_reports_an_unchanged_rerun(repo: Path) -> None:
    result = astrag("index", str(repo))  # piped: one "key<TAB>value" record a line
    assert result.returncode == 0, result.stderr
    rows = dict(line.split("\t") for line in result.stdout.splitlines())
    assert rows["files"] == "5  (0 parsed, 0 removed this run)"
    assert rows["calls"] == (
        "80.0% to repository symbols, 20.0% external, 0.0% unresolved  (10 calls)"
    )
    assert (rows["parse errors"], rows["skipped"]) == ("0 in 0 files", "none")
    status, shown = on_terminal("index", str(repo), env=_ENV)
    assert status == 0 and f"astrag index · {repo}" in shown


# ---------------------------------------------------------------------------------- show


def test_show_json_has_the_symbol_its_source_and_direct_relations(repo: Path) -> None:
    data = ok_json("show", "Shape.describe", "--repo", str(repo))
    symbol = data["symbol"]
    assert symbol["id"] == SH + "Shape.describe"
    assert (symbol["kind"], symbol["path"]) == ("method", "pkg/shapes.py")
    assert (symbol["start_line"], symbol["end_line"]) == (8, 9)
    assert symbol["parent"] == SH + "Shape"
    assert symbol["language"] == "python"
    assert symbol["signature"] == "def describe(self) -> str"
    assert data["source"] == "    def describe(self) -> str:\n        return str(self.area())"
    outgoing = {(e["kind"], e["target"], e["line"], e["column"]) for e in data["outgoing"]}
    assert outgoing == {
        ("references", "external::builtins.str", 8, 27),
        ("calls", "external::builtins.str", 9, 16),
        ("calls", SH + "Shape.area", 9, 25),
    }
    incoming = {(e["kind"], e["source"], e["path"], e["line"]) for e in data["incoming"]}
    assert incoming == {
        ("contains", SH + "Shape", "pkg/shapes.py", 8),
        ("calls", APP + "report", "pkg/app.py", 9),
    }


def test_show_text_prints_location_relations_and_source(repo: Path) -> None:
    result = astrag("show", "Shape.describe", "--repo", str(repo))
    assert result.returncode == 0, result.stderr
    assert f"{SH}Shape.describe  method  pkg/shapes.py:8-9" in result.stdout
    assert f"→ calls (2): external::builtins.str, {SH}Shape.area" in result.stdout
    assert f"← calls (1): {APP}report" in result.stdout
    assert "return str(self.area())" in result.stdout


# ---------------------------------------------------------------------------------- walks


def test_callers_depth_one_and_two(repo: Path) -> None:
    one = ok_json("callers", "Shape.area", "--depth", "1", "--repo", str(repo))
    assert one["symbol"]["id"] == SH + "Shape.area"
    assert (one["relation"], one["depth"]) == ("callers", 1)
    assert results(one) == [(1, SH + "Shape.describe")]
    assert one["results"][0]["via"] == {
        "kind": "calls",
        "path": "pkg/shapes.py",
        "line": 9,
        "column": 25,
        "resolution": "resolved",
    }
    two = ok_json("callers", "Shape.area", "--depth", "2", "--repo", str(repo))
    assert results(two) == [(1, SH + "Shape.describe"), (2, APP + "report")]
    assert two["results"][1]["via"] == {
        "kind": "calls",
        "path": "pkg/app.py",
        "line": 9,
        "column": 23,
        "resolution": "resolved",
    }


def test_callers_text_table(repo: Path) -> None:
    # rows: depth, qualified name, kind, where it is defined, the line of the call, the link
    args = ("callers", "Shape.area", "--depth", "2", "--repo", str(repo))
    result = astrag(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "1\tShape.describe\tmethod\tpkg/shapes.py:8\t9\tdirect\n"
        "2\treport\tfunction\tpkg/app.py:8\t9\tdirect\n"
    )
    status, shown = on_terminal(*args, env=_ENV)
    assert status == 0 and f"callers of {SH}Shape.area (2)" in shown
    assert "│ Shape.describe │ method   │ pkg/shapes.py:8" in shown
    assert "pkg/app.py:8" in result.stdout


def test_callees_follow_calls_outwards_including_placeholders(repo: Path) -> None:
    one = ok_json("callees", "report", "--repo", str(repo))
    assert results(one) == [(1, APP + "build"), (1, SH + "Shape.describe")]
    assert [r["link"] for r in one["results"]] == ["direct", "direct"]
    two = ok_json("callees", "report", "--depth", "2", "--repo", str(repo))
    # level 2 is sorted by call site: app.py:5 (Square(side)), then shapes.py:9 col 16, col 25;
    # then what the call of Shape.area may dispatch to, the nearest overrider first
    assert results(two) == [
        (1, APP + "build"),
        (1, SH + "Shape.describe"),
        (2, SH + "Square"),
        (2, "external::builtins.str"),
        (2, SH + "Shape.area"),
        (2, SH + "Square.area"),
        (2, SH + "Cube.area"),
    ]
    external = two["results"][3]
    assert (external["kind"], external["path"], external["start_line"]) == ("external", "", 0)
    assert [(r["link"], r["through"]) for r in two["results"][4:]] == [
        ("direct", None),
        ("dispatch", SH + "Shape.area"),
        ("dispatch", SH + "Shape.area"),
    ]
    assert two["results"][5]["via"] == two["results"][4]["via"]  # the call of Shape.area
    assert two["counts"] == {"direct": 5, "dispatch": 2, "candidate": 0, "alias": 0}


@pytest.mark.parametrize(
    ("symbol", "expected"),
    [
        ("Shape", [(1, SH + "Square"), (2, SH + "Cube")]),  # class -> subclasses, transitively
        ("Greeter", [(1, GR + "Polite")]),  # interface -> implementers
        ("Shape.area", [(1, SH + "Square.area"), (2, SH + "Cube.area")]),  # method -> overriders
        ("Greeter.greet", [(1, GR + "Polite.greet")]),  # interface method -> implementation
        ("Cube", []),
    ],
)
def test_implementations(repo: Path, symbol: str, expected: list[tuple[int, str]]) -> None:
    data = ok_json("implementations", symbol, "--repo", str(repo))
    assert data["relation"] == "implementations"
    assert results(data) == expected


def test_implementations_text(repo: Path) -> None:
    found = astrag("implementations", "Greeter", "--repo", str(repo))
    assert found.returncode == 0, found.stderr
    assert found.stdout == "1\tPolite\tclass\tweb/greeter.ts:5\t5\n"
    status, shown = on_terminal("implementations", "Greeter", "--repo", str(repo), env=_ENV)
    assert status == 0 and f"implementations of {GR}Greeter (1)" in shown
    none = astrag("implementations", "Cube", "--repo", str(repo))
    assert none.returncode == 0, none.stderr
    assert none.stdout == ""
    assert none.stderr == f"no implementations of {SH}Cube in the index\n"


# ---------------------------------------------------------------------------------- stats


def test_stats_json_counts(repo: Path) -> None:
    data = ok_json("stats", "--repo", str(repo))
    assert data["root"] == str(repo)
    assert (data["files"], data["parse_errors"], data["files_with_errors"]) == (5, 0, 0)
    assert data["symbols"] == EXPECTED_SYMBOLS
    assert data["placeholders"] == {"external": len(EXTERNALS)}
    assert data["edges"] == EXPECTED_EDGE_COUNTS
    assert data["calls"] == {"resolved": 8, "external": 2}


def test_stats_text(repo: Path) -> None:
    result = astrag("stats", "--repo", str(repo))
    assert result.returncode == 0, result.stderr
    rows = dict(line.split("\t") for line in result.stdout.splitlines())
    assert rows["symbols"] == "class 4, field 1, function 4, interface 1, method 8, module 5"
    status, shown = on_terminal("stats", "--repo", str(repo), env=_ENV)
    assert status == 0 and f"astrag stats · {repo}" in shown
    assert rows["damaged"] == "none"


def test_stats_names_the_lines_a_damaged_file_lost(tmp_path: Path) -> None:
    damaged = Path(__file__).parent / "lang" / "typescript" / "damaged_ts.txt"
    shutil.copyfile(damaged, tmp_path / "types.ts")
    assert astrag("index", "--no-embed", str(tmp_path)).returncode == 0
    data = ok_json("stats", "--repo", str(tmp_path))
    assert data["damaged"] == [{"path": "types.ts", "lines": 48, "errors": 2, "unread_lines": 37}]
    rows = dict(
        line.split("\t") for line in astrag("stats", "--repo", str(tmp_path)).stdout.splitlines()
    )
    assert rows["damaged"] == "types.ts (37 of 48 lines unread)"


# ---------------------------------------------------------------------------------- export


@pytest.fixture(scope="module")
def jsonl_records(repo: Path) -> list[dict]:
    result = astrag("export", "--format", "jsonl", "--repo", str(repo))
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_export_jsonl_is_the_whole_graph_with_the_documented_keys(
    jsonl_records: list[dict],
) -> None:
    nodes = [r for r in jsonl_records if r["type"] == "node"]
    edges = [r for r in jsonl_records if r["type"] == "edge"]
    assert len(nodes) + len(edges) == len(jsonl_records)
    assert all(set(r) == NODE_KEYS for r in nodes)
    assert all(set(r) == EDGE_KEYS for r in edges)
    kinds = Counter(r["kind"] for r in nodes)
    assert kinds == Counter({**EXPECTED_SYMBOLS, "external": len(EXTERNALS)})
    assert {r["id"] for r in nodes if r["kind"] == "external"} == EXTERNALS
    assert {(r["source"], r["kind"], r["target"]) for r in edges} == EXPECTED_EDGES
    assert len(edges) == len(EXPECTED_EDGES)  # and no duplicates
    node_ids = {r["id"] for r in nodes}
    assert all(r["source"] in node_ids and r["target"] in node_ids for r in edges)
    call = next(r for r in edges if r["kind"] == "calls" and r["target"] == GR + "Polite.wrap")
    # `return this.wrap(name);` — the site is the callee name, 1-based
    assert (call["path"], call["line"], call["column"]) == ("web/greeter.ts", 7, 17)


def test_export_to_a_file_equals_stdout(
    repo: Path, jsonl_records: list[dict], tmp_path: Path
) -> None:
    target = tmp_path / "graph.jsonl"
    result = astrag("export", "--repo", str(repo), "-o", str(target))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    lines = target.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == jsonl_records


def test_export_graphml_has_the_same_nodes_and_edges(repo: Path, jsonl_records: list[dict]) -> None:
    result = astrag("export", "--format", "graphml", "--repo", str(repo))
    assert result.returncode == 0, result.stderr
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    graph = ET.fromstring(result.stdout).find("g:graph", ns)
    assert graph is not None
    nodes = graph.findall("g:node", ns)
    edges = graph.findall("g:edge", ns)
    assert {n.get("id") for n in nodes} == {r["id"] for r in jsonl_records if r["type"] == "node"}
    assert len(nodes) == sum(r["type"] == "node" for r in jsonl_records)
    assert len(edges) == sum(r["type"] == "edge" for r in jsonl_records)
    kinds = Counter(
        d.text for e in edges for d in e.findall("g:data", ns) if d.get("key") == "edge_kind"
    )
    assert kinds == Counter(EXPECTED_EDGE_COUNTS)


def test_export_cypher_is_one_statement_per_node_and_edge_plus_a_constraint(
    repo: Path, jsonl_records: list[dict]
) -> None:
    result = astrag("export", "--format", "cypher", "--repo", str(repo))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(jsonl_records) + 1
    assert all(line.endswith(";") for line in lines)
    assert lines[0].startswith("CREATE CONSTRAINT astrag_symbol_id")
    assert sum(line.startswith("MERGE (n:Symbol") for line in lines) == 26
    assert sum(line.startswith("MATCH (a:Symbol") for line in lines) == len(EXPECTED_EDGES)
    assert sum("-[r:OVERRIDES " in line for line in lines) == 3


# ---------------------------------------------------------------------------------- errors


def test_ambiguous_plain_name_lists_its_candidates(repo: Path) -> None:
    text = astrag("callers", "area", "--repo", str(repo))
    assert text.returncode == 2
    assert "'area' matches 3 symbols; candidates:" in text.stderr
    for qualname in ("Shape.area", "Square.area", "Cube.area"):
        assert SH + qualname in text.stderr
    assert "Traceback" not in text.stderr

    data = astrag("show", "area", "--repo", str(repo), "--format", "json")
    assert data.returncode == 2
    answer = json.loads(data.stdout)
    assert (answer["error"], answer["query"]) == ("ambiguous", "area")
    # sorted by path, then line
    assert [c["id"] for c in answer["candidates"]] == [
        SH + "Shape.area",
        SH + "Square.area",
        SH + "Cube.area",
    ]


def test_unknown_symbol_exits_2_with_a_hint(repo: Path) -> None:
    text = astrag("show", "Nowhere.nothing", "--repo", str(repo))
    assert text.returncode == 2
    assert "error: no symbol matches 'Nowhere.nothing'" in text.stderr
    assert "hint: check the spelling" in text.stderr
    assert "Traceback" not in text.stderr
    data = astrag("callees", "Nowhere.nothing", "--repo", str(repo), "--format", "json")
    assert data.returncode == 2
    assert json.loads(data.stdout) == {
        "error": "SymbolNotFound",
        "message": "no symbol matches 'Nowhere.nothing'",
        "hint": "check the spelling, or run `astrag index` if the code is new",
    }


@pytest.mark.parametrize("command", [["callers", "x"], ["export"]])
def test_directory_without_an_index_says_to_run_astrag_index(
    tmp_path: Path, command: list[str]
) -> None:
    result = astrag(*command, "--repo", str(tmp_path))
    assert result.returncode == 2
    assert f"no astrag index in {tmp_path.resolve()}" in result.stderr
    assert "astrag index" in result.stderr.split("hint:", 1)[1]
    assert "Traceback" not in result.stderr


def test_directory_without_an_index_json_error(tmp_path: Path) -> None:
    result = astrag("stats", "--repo", str(tmp_path), "--format", "json")
    assert result.returncode == 2
    answer = json.loads(result.stdout)
    assert answer["error"] == "IndexMissing"
    assert "astrag index" in answer["hint"]


@pytest.mark.parametrize("kind", ["file", "missing"])
def test_repo_that_is_not_a_directory_exits_2(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "not_a_dir"
    if kind == "file":
        target.write_text("x = 1\n", encoding="utf-8")
    result = astrag("stats", "--repo", str(target))
    assert result.returncode == 2
    assert f"{target} is not a directory" in result.stderr
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------------------------- discovery


def test_repo_defaults_to_the_enclosing_indexed_directory(repo: Path) -> None:
    data = ok_json("callers", "Shape.area", cwd=repo / "pkg")
    assert results(data) == [(1, SH + "Shape.describe")]
    stats = ok_json("stats", cwd=repo / "web")
    assert stats["root"] == str(repo)


# ------------------------------------------------------------------------------- check


def test_check_cli_exit_codes_and_formats(repo: Path, tmp_path: Path) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text("def extra():\n    return no_such_helper()\n")
    text = astrag("check", str(snippet), "--repo", str(repo), "--path", "pkg/app.py")
    assert text.returncode == 1
    assert "pkg/app.py:2:12 unknown-function" in text.stdout
    as_json = astrag(
        "check", str(snippet), "--repo", str(repo), "--path", "pkg/app.py", "-f", "json"
    )
    [finding] = json.loads(as_json.stdout)["findings"]
    assert {k: finding[k] for k in ("path", "line", "column", "rule")} == {
        "path": "pkg/app.py",
        "line": 2,
        "column": 12,
        "rule": "unknown-function",
    }
    sarif = astrag(
        "check", str(snippet), "--repo", str(repo), "--path", "pkg/app.py", "-f", "sarif"
    )
    run = json.loads(sarif.stdout)["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["unknown-function"]
    snippet.write_text("def extra():\n    return len([])\n")
    clean = astrag("check", str(snippet), "--repo", str(repo), "--path", "pkg/app.py")
    assert clean.returncode == 0 and clean.stdout == ""
    # without --path a file from outside the repository is read in its extension's language
    standalone = astrag("check", str(snippet), "--repo", str(repo))
    assert standalone.returncode == 0 and standalone.stdout == ""
    # ... and an extension no language has is a usage error, not a crash
    notes = tmp_path / "snippet.txt"
    notes.write_text("def extra():\n    return len([])\n")
    unknown = astrag("check", str(notes), "--repo", str(repo))
    assert unknown.returncode == 2 and "Traceback" not in unknown.stderr


def test_check_cli_warnings_alone_exit_0(tmp_path: Path) -> None:
    # a type package the tsconfig names cannot be read: the unknown call is unverified
    root = tmp_path / "ts"
    root.mkdir()
    (root / "tsconfig.json").write_text('{"compilerOptions": {"types": ["not-installed"]}}')
    (root / "a.ts").write_text("export function f(n: number): number { return n; }\n")
    assert astrag("index", str(root), "--no-embed").returncode == 0
    snippet = tmp_path / "snippet.ts"
    snippet.write_text("atoms(0);\n")
    text = astrag("check", str(snippet), "--repo", str(root), "--path", "b.ts")
    assert text.returncode == 0
    assert "b.ts:1:1 unknown-function (warning)" in text.stdout
    assert "type package 'not-installed'" in text.stdout
    as_json = astrag("check", str(snippet), "--repo", str(root), "--path", "b.ts", "-f", "json")
    [finding] = json.loads(as_json.stdout)["findings"]
    assert finding["severity"] == "warning"
    snippet.write_text("import { f } from './a';\natoms(0);\nf(1, 2);\n")
    both = astrag("check", str(snippet), "--repo", str(root), "--path", "b.ts")
    assert both.returncode == 1  # an error beside it exits 1


def test_check_reads_a_file_from_outside_the_repository_by_its_extension(
    repo: Path, tmp_path: Path
) -> None:
    """A snippet saved anywhere (``/tmp/snip.py``) is checked in its extension's language;
    an extension the checker does not read still asks for --lang, and --lang still wins."""
    snippet = tmp_path / "snip.py"
    snippet.write_text("from pkg.shapes import Shape\n\nShape().aera()\n")
    found = astrag("check", str(snippet), "--repo", str(repo))
    assert found.returncode == 1, found.stderr
    # named as given, not as the "<snippet>.py" it was read as
    assert found.stdout.startswith(f"{snippet}:3:9 unknown-member ")
    assert "(did you mean area?)" in found.stdout
    assert "1 finding(s) in 1 file(s)" in found.stderr
    as_json = astrag("check", str(snippet), "--repo", str(repo), "-f", "json")
    assert {f["path"] for f in json.loads(as_json.stdout)["findings"]} == {str(snippet)}
    other = tmp_path / "snip.rs"
    other.write_text("fn main() {}\n")
    refused = astrag("check", str(other), "--repo", str(repo))
    assert refused.returncode == 2
    assert "cannot tell the language of the code to check" in refused.stderr
    as_python = astrag("check", str(other), "--repo", str(repo), "--lang", "python")
    assert as_python.returncode == 1  # read as Python, `fn main() {}` is a syntax error
    assert "syntax-error" in as_python.stdout


def test_check_cli_input_errors_and_one_finding_a_line(repo: Path, tmp_path: Path) -> None:
    bad = subprocess.run(
        [sys.executable, "-m", "astrag.cli", "check", "-", "--repo", str(repo), "--lang", "python"],
        input=b"x = '\xff'\n",
        env=_ENV,
        capture_output=True,
    )
    assert bad.returncode == 2
    assert b"stdin is not UTF-8 text (byte 0xff at offset 5, line 1)" in bad.stderr
    assert b"Traceback" not in bad.stderr
    lonely = astrag("check", "-", "--repo", str(repo), "--base", "main")
    assert lonely.returncode == 2 and "--base only applies with --changed" in lonely.stderr
    name = "a_helper_name_long_enough_to_wrap_any_terminal_" * 3
    snippet = tmp_path / "long.py"
    snippet.write_text(f"def extra():\n    return {name}() + {name}x()\n")
    piped = astrag("check", str(snippet), "--repo", str(repo), "--path", "pkg/app.py")
    lines = piped.stdout.splitlines()
    assert piped.returncode == 1 and len(lines) == 2  # one finding a line, never wrapped
    assert all(line.startswith("pkg/app.py:2:") and name in line for line in lines)


def test_index_and_check_work_with_the_network_off(tmp_path: Path) -> None:
    """Nothing astrag does by default may reach the network: run it in a fresh network
    namespace (no interfaces but a downed loopback)."""
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-n", "true"]).returncode != 0:
        pytest.skip("needs unshare -n (root or user namespaces) to cut the network")
    (tmp_path / "m.py").write_text("def f():\n    return g()\n\ndef g():\n    return 1\n")
    command = [unshare, "-n", sys.executable, "-m", "astrag.cli"]
    indexed = subprocess.run([*command, "index", str(tmp_path)], env=_ENV, capture_output=True)
    assert indexed.returncode == 0, indexed.stderr
    checked = subprocess.run(
        [*command, "check", "-", "--repo", str(tmp_path), "--lang", "python"],
        input=b"h()\n",
        env=_ENV,
        capture_output=True,
    )
    assert checked.returncode == 1 and b"unknown-function" in checked.stdout


def test_error_messages_keep_their_brackets(tmp_path: Path) -> None:
    # rich would read "[index]" as markup and print "unknown key .exlude"
    (tmp_path / ".astrag.toml").write_text('[index]\nexlude = ["x"]\n')
    result = astrag("index", str(tmp_path))
    assert result.returncode == 2
    assert "unknown key [index].exlude" in result.stderr
    assert "Did you mean 'exclude'?" in " ".join(result.stderr.split())
