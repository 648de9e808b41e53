"""The query answers through the real CLI: ``callers``/``callees`` with links and notes,
``references``, ``outline``, ``map`` and ``search`` with code, as JSON and as piped text,
saying the same things."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from astrag import api
from astrag.cli import app
from tests.cli_run import on_terminal
from tests.query.conftest import RESPONSE, ROUTING, write

R = "app/routing.py::"
# in-process (the commands are what a subprocess would run, minus interpreter start-up); a
# wide terminal so that a table row is never wrapped, no colour codes
_RUNNER = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "ASTRAG_STORE": "sqlite"})


def astrag(*args: str) -> Result:
    return _RUNNER.invoke(app, list(args))


def ok(*args: str) -> str:
    result = astrag(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def ok_json(*args: str) -> dict:
    return json.loads(ok(*args, "--format", "json"))


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write(tmp_path_factory.mktemp("routing").resolve(), ROUTING)
    api.index(root, jobs=1, embedder="none", store="sqlite")
    return root


@pytest.fixture(scope="module")
def express(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write(tmp_path_factory.mktemp("response").resolve(), RESPONSE)
    api.index(root, jobs=1, embedder="none", store="sqlite")
    return root


def test_callers_json_tells_direct_dispatch_and_candidate_apart(repo: Path) -> None:
    data = ok_json("callers", "Route.matches", "--repo", str(repo))
    assert [(r["id"], r["link"], r["through"]) for r in data["results"]] == [
        (R + "BaseRoute.__call__", "dispatch", R + "BaseRoute.matches"),
        (R + "Router.app", "dispatch", R + "BaseRoute.matches"),
        (R + "Router.first", "candidate", "unresolved::?.matches"),
        ("tests/test_routing.py::test_route", "candidate", "unresolved::?.matches"),
    ]
    assert data["results"][1]["via"] == {
        "kind": "calls",
        "path": "app/routing.py",
        "line": 37,
        "column": 22,
        "resolution": "resolved",
    }
    assert data["counts"] == {"direct": 0, "dispatch": 2, "candidate": 2, "alias": 0}
    assert data["notes"] == [
        "2 more call sites with an unknown receiver call `.matches(` (unverified): "
        "app/routing.py:43, tests/test_routing.py:5"
    ]


def test_callers_text_says_how_each_was_found_and_what_is_unverified(repo: Path) -> None:
    result = astrag("callers", "Route.matches", "--repo", str(repo))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()  # records on stdout, remarks on stderr
    assert result.stderr.splitlines()[0] == (
        "note: 2 more call sites with an unknown receiver call `.matches(` (unverified): "
        "app/routing.py:43, tests/test_routing.py:5"
    )
    assert any("Router.app" in ln and "via BaseRoute.matches" in ln for ln in lines)
    assert any("Router.first" in ln and "unverified (?.matches)" in ln for ln in lines)


def test_express_callers_are_never_a_silent_none(express: Path) -> None:
    data = ok_json("callers", "res.send", "--repo", str(express))
    assert data["counts"] == {"direct": 2, "dispatch": 0, "candidate": 1, "alias": 0}
    assert [r["qualname"] for r in data["results"]] == ["res.json", "res.sendStatus", "hello"]
    result = astrag("callers", "res.send", "--repo", str(express))
    assert result.stderr.splitlines()[:2] == [f"note: {n}" for n in data["notes"]]
    assert [line.split("\t")[1] for line in result.stdout.splitlines()] == [
        "res.json",
        "res.sendStatus",
        "hello",
    ]
    assert data["notes"][0].startswith("1 more call site with an unknown receiver")


def test_references_json_groups_every_use_with_its_code(repo: Path) -> None:
    data = ok_json("references", "BaseRoute", "--repo", str(repo))
    assert data["symbol"]["id"] == R + "BaseRoute"
    assert data["counts"] == {"read": 1, "type": 3, "import": 1, "inherit": 2}
    assert data["total"] == 7
    sites = [(r["use"], r["path"], r["line"], r["column"], r["qualname"]) for r in data["results"]]
    assert sites == [
        ("read", "app/registry.py", 12, 16, ""),
        ("type", "app/registry.py", 4, 15, "make"),
        ("type", "app/routing.py", 32, 41, "Router.__init__"),
        ("type", "app/routing.py", 33, 27, "Router.__init__"),
        ("import", "app/registry.py", 1, 0, ""),
        ("inherit", "app/routing.py", 18, 0, "Route"),
        ("inherit", "app/routing.py", 26, 0, "Mount"),
    ]  # fmt: skip
    assert data["results"][1]["code"] == "def make() -> BaseRoute:"
    assert data["results"][1]["edge"] == "references"


def test_references_of_a_class_count_its_calls_as_constructions(repo: Path) -> None:
    data = ok_json("references", "app/routing.py::Route", "--repo", str(repo))
    assert data["counts"] == {"new": 2, "read": 2, "import": 2}
    assert [(r["path"], r["line"], r["code"]) for r in data["results"] if r["use"] == "new"] == [
        ("app/registry.py", 5, "return Route()"),
        ("tests/test_routing.py", 6, "assert isinstance(Route(), Route)"),
    ]


def test_references_of_a_method_include_dispatch_and_candidates(repo: Path) -> None:
    text = ok("references", "Route.matches", "--repo", str(repo))
    assert text.splitlines() == [
        f"uses of {R}Route.matches (4): calls that may dispatch here 2, unverified candidates 2",
        "calls that may dispatch here (2):",
        "  app/routing.py:14:17  BaseRoute.__call__  [via BaseRoute.matches]  "
        "if self.matches(scope):",
        "  app/routing.py:37:22  Router.app  [via BaseRoute.matches]  if route.matches(scope):",
        "unverified candidates (2):",
        "  app/routing.py:43:22  Router.first  if route.matches(scope):",
        '  tests/test_routing.py:5:18  test_route  assert route.matches({"path": "/"})',
    ]


def test_references_of_a_file_are_its_importers(repo: Path) -> None:
    data = ok_json("references", "app/routing.py", "--repo", str(repo))
    assert [(r["use"], r["path"]) for r in data["results"]] == [
        ("import", "app/registry.py"),
        ("import", "tests/test_routing.py"),
    ]


def test_outline_text_is_nested_in_source_order(repo: Path) -> None:
    assert ok("outline", "app/routing.py", "--repo", str(repo)).splitlines() == [
        "app/routing.py  (python, 45 lines, 14 definitions)",
        "       6-15  class BaseRoute",
        "        7-8    def matches(self, scope: dict) -> bool",
        "      10-11    def handle(self, scope: dict) -> None",
        "      13-15    def __call__(self, scope: dict) -> None",
        "      18-23  class Route(BaseRoute)",
        "      19-20    def matches(self, scope: dict) -> bool",
        "      22-23    def handle(self, scope: dict) -> None",
        "      26-28  class Mount(BaseRoute)",
        "      27-28    def matches(self, scope: dict) -> bool",
        "      31-45  class Router",
        "      32-33    def __init__(self, routes: Sequence[BaseRoute]) -> None",
        "      33-33    self.routes: list[BaseRoute] = list(routes)",
        "      35-39    def app(self, scope: dict) -> None",
        "      41-45    def first(self, routes, scope: dict)",
    ]


def test_outline_nests_functions_assigned_onto_an_object(express: Path) -> None:
    data = ok_json("outline", "lib/response.js", "--repo", str(express))
    assert (data["path"], data["language"], data["lines"]) == ("lib/response.js", "javascript", 28)
    assert [(s["qualname"], s["kind"], s["depth"], s["start_line"]) for s in data["symbols"]] == [
        ("res", "variable", 0, 5),
        ("res.send", "function", 1, 9),
        ("res.json", "function", 1, 14),
        ("res.sendStatus", "function", 1, 20),
        ("res.set", "function", 1, 25),
    ]
    assert data["symbols"][2]["signature"] == "res.json = function json(obj)"


def test_outline_takes_a_path_from_the_current_directory_or_a_suffix(repo: Path) -> None:
    by_suffix = ok_json("outline", "routing.py", "--repo", str(repo))
    by_path = ok_json("outline", str(repo / "app" / "routing.py"), "--repo", str(repo))
    assert by_suffix == by_path
    assert by_suffix["path"] == "app/routing.py"


def test_outline_of_a_file_not_indexed_exits_2_with_a_hint(repo: Path) -> None:
    result = astrag("outline", "app/nothing.py", "--repo", str(repo))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: no indexed file app/nothing.py",
        "hint: paths are relative to the repository root; run `astrag index` if the file is new",
    ]
    near = astrag("outline", "lib/routing.py", "--repo", str(repo))
    assert near.exit_code == 2
    assert near.stderr.splitlines()[1] == "hint: did you mean app/routing.py?"
    ambiguous = astrag("outline", "__init__.py", "--repo", str(repo), "--format", "json")
    assert ambiguous.exit_code == 2
    assert json.loads(ambiguous.stdout) == {
        "error": "AstragError",
        "message": "2 indexed files end with __init__.py: app/__init__.py, tests/__init__.py",
        "hint": "pass the whole repository-relative path",
    }


def test_map_json_and_text_are_the_same_map_within_the_budget(repo: Path) -> None:
    data = ok_json("map", "--budget", "300", "--repo", str(repo))
    assert data["tokens"] <= 300
    assert (data["files_total"], data["definitions_total"]) == (8, 27)
    assert data["text"] == ok("map", "--budget", "300", "--repo", str(repo)).rstrip("\n")
    assert [f["path"] for f in data["files"]][:2] == ["app/routing.py", "app/plugins.py"]
    first = data["files"][0]["symbols"][0]
    assert (first["qualname"], first["kind"], first["depth"], first["context"]) == (
        "BaseRoute",
        "class",
        0,
        False,
    )


def test_search_carries_each_hits_signature_and_code(repo: Path) -> None:
    data = ok_json("search", "Router.app", "-n", "1", "--repo", str(repo))
    hit = data["results"][0]
    assert hit["id"] == R + "Router.app"
    assert hit["signature"] == "def app(self, scope: dict) -> None"
    assert hit["snippet"] == (
        "def app(self, scope: dict) -> None:\n"
        "    for route in self.routes:\n"
        "        if route.matches(scope):\n"
        "            route.handle(scope)\n"
        "            return"
    )
    record = ok("search", "Router.app", "-n", "1", "--repo", str(repo)).splitlines()
    assert len(record) == 1 and record[0].split("\t")[-1] == hit["signature"]
    status, shown = on_terminal("search", "Router.app", "-n", "1", "--repo", str(repo))
    assert status == 0
    assert shown.splitlines() == [
        "1 symbols for 'Router.app':",
        f"1. method Router.app  app/routing.py:35-39  (score {hit['score']:.3f}; exact, lexical)",
        "     def app(self, scope: dict) -> None:",
        "         for route in self.routes:",
        "             if route.matches(scope):",
        "                 route.handle(scope)",
        "                 return",
    ]


# A class's own plain fields read through self / this: the resolver keeps them out of the
# edges (contexts would fill with fields), so `references` finds them in the facts.
FIELDS: dict[str, str] = {
    "app/__init__.py": "",
    "app/store.py": (
        "class Store:\n"  # 1
        "    def __init__(self, limit: int) -> None:\n"
        "        self.limit = limit\n"
        "        self.size = 0\n"
        "\n"  # 5
        "    def full(self) -> bool:\n"
        "        return self.size >= self.limit\n"
        "\n"
        "    def grow(self) -> None:\n"
        "        def check() -> bool:\n"  # 10
        "            return self.limit > 0\n"
        "        if check():\n"
        "            self.size += 1\n"
        "\n"
        "\n"  # 15
        "class Cache(Store):\n"
        "    def room(self) -> int:\n"
        "        return self.limit - self.size\n"
        "\n"
        "\n"  # 20
        "class Bounded(Store):\n"
        "    limit = 10\n"
        "\n"
        "    def ok(self) -> bool:\n"
        "        return self.limit > 1\n"  # 25
        "\n"
        "\n"
        "def other(limit: int) -> int:\n"
        "    return limit\n"
    ),
    "web/queue.ts": (
        "export class Queue {\n"
        "  items: string[] = [];\n"
        "  push(x: string): void {\n"
        "    this.items.push(x);\n"
        "  }\n"  # 5
        "  take(): string | undefined {\n"
        "    return this.items.pop();\n"
        "  }\n"
        "  get all(): string[] {\n"
        "    return this.items;\n"  # 10
        "  }\n"
        "  clear(): void {\n"
        "    this.items = [];\n"
        "  }\n"
        "}\n"
    ),
}


@pytest.fixture(scope="module")
def fields(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write(tmp_path_factory.mktemp("fields").resolve(), FIELDS)
    api.index(root, jobs=1, embedder="none", store="sqlite")
    return root


def test_references_of_a_field_list_its_reads_through_self(fields: Path) -> None:
    data = ok_json("references", "app/store.py::Store.limit", "--repo", str(fields))
    assert data["counts"] == {"read": 3}
    # Store.full, the closure inside Store.grow, and Cache (a subclass) read it; Bounded
    # declares its own `limit`, so its read is of Bounded.limit; `other`'s is a parameter
    assert [(r["line"], r["column"], r["qualname"], r["code"]) for r in data["results"]] == [
        (7, 34, "Store.full", "return self.size >= self.limit"),
        (11, 25, "Store.grow.check", "return self.limit > 0"),
        (18, 21, "Cache.room", "return self.limit - self.size"),
    ]


def test_references_of_a_field_count_an_augmented_assignment_as_a_read(fields: Path) -> None:
    data = ok_json("references", "app/store.py::Store.size", "--repo", str(fields))
    # `self.size = 0` writes it (its definition); `self.size += 1` reads it too
    assert [(r["line"], r["column"], r["qualname"]) for r in data["results"]] == [
        (7, 21, "Store.full"),
        (13, 18, "Store.grow"),
        (18, 34, "Cache.room"),
    ]


def test_references_of_a_redeclared_field_are_its_own_class_reads(fields: Path) -> None:
    data = ok_json("references", "app/store.py::Bounded.limit", "--repo", str(fields))
    assert [(r["line"], r["qualname"]) for r in data["results"]] == [(25, "Bounded.ok")]


def test_references_of_a_typescript_field_list_reads_through_this(fields: Path) -> None:
    # the TypeScript facts hold `this.items` only where a call goes through it; the bare
    # read is found in the class's lines, and `this.items = []` (a write) is not a read
    text = ok("references", "web/queue.ts::Queue.items", "--repo", str(fields))
    assert text.splitlines() == [
        "uses of web/queue.ts::Queue.items (3): reads 3",
        "reads (3):",
        "  web/queue.ts:4:10  Queue.push  this.items.push(x);",
        "  web/queue.ts:7:17  Queue.take  return this.items.pop();",
        "  web/queue.ts:10:17  Queue.all  return this.items;",
    ]
