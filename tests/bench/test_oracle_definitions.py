"""The oracles' named definitions: each call's source and each target's id, on fixtures.

Both oracles run for real (the TypeScript compiler from bench/node_modules, jedi from the dev
dependencies) on small projects written here; the assertions are the exact ids of
bench/oracles/ts_calls.mjs's "Named definitions" rules and jedi_calls.py's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
TS_CALLS = BENCH / "oracles" / "ts_calls.mjs"
JEDI_CALLS = BENCH / "oracles" / "jedi_calls.py"

TS_FIXTURE = {
    "a.ts": """
        export function factory(opts: number) {
          function inner() {
            return helper(opts);
          }
          const arrow = () => inner();
          return async function middleware(next: () => void) {
            [1, 2].forEach(() => arrow());
            next();
          };
        }

        export function helper(n: number): number {
          return n;
        }

        export class Service {
          handler = () => this.run();
          constructor() {
            helper(1);
          }
          run(): number {
            return helper(2);
          }
        }

        export const api = {
          get() {
            return new Service().run();
          },
          nested: { put: () => helper(3) },
        };

        export default function () {
          return api.get();
        }

        export function over(a: string): void;
        export function over(a: number): void;
        export function over(a: unknown): void {
          factory(1);
        }

        export function make($: { run(): void }) {
          const local = { m: () => helper(4) };
          local.m();
        }
    """,
    "b.js": """
        var res = module.exports = {};
        res.send = function send() {
          return this.json();
        };
        res.json = function json() {
          return helper2();
        };
        function helper2() {}
        function Route() {}
        Route.prototype.dispatch = function () {
          return Route();
        };
        module.exports.make = function () { return res.send(); };
        function build(app) {
          app.handle = function handle() { return helper2(); };
        }
    """,
}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text).lstrip("\n"))


def _records(text: str) -> tuple[list[dict], list[dict]]:
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    sites = [r for r in records if r.get("kind") != "definition"]
    return sites, [r for r in records if r.get("kind") == "definition"]


def _edges(sites: list[dict]) -> list[tuple[str, str, list[str]]]:
    return [
        (
            f"{s['path']}:{s['line']} {s['name']}",
            s["source"],
            [t["id"] + (" (local)" if t.get("local") else "") for t in s["targets"]],
        )
        for s in sites
        if s["targets"]
    ]


@pytest.fixture(scope="module")
def ts_oracle(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], list[dict]]:
    if shutil.which("node") is None or not (BENCH / "node_modules" / "typescript").is_dir():
        pytest.skip("needs node and `npm install --prefix bench` (the TypeScript oracle)")
    root = tmp_path_factory.mktemp("ts-oracle")
    _write(root, TS_FIXTURE)
    done = subprocess.run(
        ["node", str(TS_CALLS), str(root), "--include-new"],
        capture_output=True,
        text=True,
        check=True,
    )
    return _records(done.stdout)


def test_ts_sources_and_targets_are_named_definitions(ts_oracle) -> None:
    sites, _ = ts_oracle
    assert _edges(sites) == [
        ("a.ts:3 helper", "a.ts::factory.inner", ["a.ts::helper"]),
        ("a.ts:5 inner", "a.ts::factory.arrow", ["a.ts::factory.inner"]),
        # the anonymous forEach callback rolls up into the named function expression
        ("a.ts:7 arrow", "a.ts::factory.middleware", ["a.ts::factory.arrow"]),
        ("a.ts:8 next", "a.ts::factory.middleware", ["a.ts::factory.middleware.next (local)"]),
        ("a.ts:17 run", "a.ts::Service.handler", ["a.ts::Service.run"]),
        ("a.ts:19 helper", "a.ts::Service.constructor", ["a.ts::helper"]),
        ("a.ts:22 helper", "a.ts::Service.run", ["a.ts::helper"]),
        ("a.ts:28 Service", "a.ts::api.get", ["a.ts::Service", "a.ts::Service.constructor"]),
        ("a.ts:28 run", "a.ts::api.get", ["a.ts::Service.run"]),
        ("a.ts:30 helper", "a.ts::api.nested.put", ["a.ts::helper"]),
        ("a.ts:34 get", "a.ts::default", ["a.ts::api.get"]),
        ("a.ts:40 factory", "a.ts::over", ["a.ts::factory"]),
        # an object literal bound to a local is anonymous: its members are no nodes
        ("a.ts:44 helper", "a.ts::make", ["a.ts::helper"]),
        ("a.ts:45 m", "a.ts::make", ["a.ts::make.m (local)"]),
        ("b.js:3 json", "b.js::res.send", ["b.js::res.json"]),
        ("b.js:6 helper2", "b.js::res.json", ["b.js::helper2"]),
        ("b.js:11 Route", "b.js::Route.dispatch", ["b.js::Route"]),
        ("b.js:13 send", "b.js::make", ["b.js::res.send"]),
        # `app` is a parameter: the function assigned onto it keeps its own name only
        ("b.js:15 helper2", "b.js::build.handle", ["b.js::helper2"]),
    ]


def test_ts_definitions_list(ts_oracle) -> None:
    _, definitions = ts_oracle
    assert [(d["id"], d["line"], d["source"]) for d in definitions] == [
        ("a.ts::factory", 1, True),
        ("a.ts::factory.inner", 2, True),
        ("a.ts::factory.arrow", 5, True),
        ("a.ts::factory.middleware", 6, True),
        ("a.ts::helper", 12, True),
        ("a.ts::Service", 16, True),
        ("a.ts::Service.handler", 17, True),
        ("a.ts::Service.constructor", 18, True),
        ("a.ts::Service.run", 21, True),
        ("a.ts::api", 26, False),  # a container: qualifies its members, calls nothing
        ("a.ts::api.get", 27, True),
        ("a.ts::api.nested.put", 30, True),
        ("a.ts::default", 33, True),
        ("a.ts::over", 39, True),  # the overload signatures share the implementation's id
        ("a.ts::make", 43, True),
        ("b.js::res.send", 2, True),
        ("b.js::res.json", 5, True),
        ("b.js::helper2", 8, True),
        ("b.js::Route", 9, True),
        ("b.js::Route.dispatch", 10, True),
        ("b.js::make", 13, True),
        ("b.js::build", 14, True),
        ("b.js::build.handle", 15, True),
    ]


PY_FIXTURE = {
    "pkg/__init__.py": "",
    "pkg/mod.py": """
        from typing import overload


        def deco(fn):
            return fn


        def helper(x):
            return x


        def outer(n):
            def inner():
                return helper(n)

            return inner()


        class Router:
            def __init__(self, routes):
                self.routes = list(routes)
                self.count = helper(0)

            @deco
            def app(self, scope, default=helper(1)):
                square = lambda v: helper(v)
                return [self.match(r) for r in self.routes] + [square(2)]

            def match(self, route):
                def check():
                    return route

                return check()

            @overload
            def get(self, k: int) -> int: ...
            @overload
            def get(self, k: str) -> str: ...
            def get(self, k):
                return Router([]).match(k)


        def run():
            r = Router([1])
            return r.app({})
    """,
}


@pytest.fixture(scope="module")
def py_oracle(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], list[dict]]:
    pytest.importorskip("jedi")
    root = tmp_path_factory.mktemp("py-oracle")
    _write(root, PY_FIXTURE)
    done = subprocess.run(
        [sys.executable, str(JEDI_CALLS), str(root)], capture_output=True, text=True, check=True
    )
    return _records(done.stdout)


def test_python_sources_and_targets_are_named_definitions(py_oracle) -> None:
    sites, _ = py_oracle
    m = "pkg/mod.py::"
    assert _edges(sites) == [
        ("pkg/mod.py:14 helper", m + "outer.inner", [m + "helper"]),
        ("pkg/mod.py:16 inner", m + "outer", [m + "outer.inner"]),
        ("pkg/mod.py:22 helper", m + "Router.__init__", [m + "helper"]),
        # a default value is evaluated where the def stands: the class body
        ("pkg/mod.py:25 helper", m + "Router", [m + "helper"]),
        # the lambda is anonymous: its call comes from app, and calling it calls no node
        ("pkg/mod.py:26 helper", m + "Router.app", [m + "helper"]),
        ("pkg/mod.py:27 match", m + "Router.app", [m + "Router.match"]),
        (
            "pkg/mod.py:27 square",
            m + "Router.app",
            [m + "Router.app.square (local)", m + "Router.app.<lambda> (local)"],
        ),
        ("pkg/mod.py:33 check", m + "Router.match", [m + "Router.match.check"]),
        ("pkg/mod.py:40 Router", m + "Router.get", [m + "Router"]),
        ("pkg/mod.py:40 match", m + "Router.get", [m + "Router.match"]),
        ("pkg/mod.py:44 Router", m + "run", [m + "Router"]),
        ("pkg/mod.py:45 app", m + "run", [m + "Router.app"]),
    ]


def test_python_definitions_list(py_oracle) -> None:
    _, definitions = py_oracle
    assert [(d["id"], d["line"]) for d in definitions] == [
        ("pkg/mod.py::deco", 4),
        ("pkg/mod.py::helper", 8),
        ("pkg/mod.py::outer", 12),
        ("pkg/mod.py::outer.inner", 13),
        ("pkg/mod.py::Router", 19),
        ("pkg/mod.py::Router.__init__", 20),
        ("pkg/mod.py::Router.app", 25),
        ("pkg/mod.py::Router.match", 29),
        ("pkg/mod.py::Router.match.check", 30),
        ("pkg/mod.py::Router.get", 39),  # the @overload stubs share the implementation's id
        ("pkg/mod.py::run", 43),
    ]


def test_ts_decorator_on_a_field_is_called_by_the_field(tmp_path: Path) -> None:
    if shutil.which("node") is None or not (BENCH / "node_modules" / "typescript").is_dir():
        pytest.skip("needs node and `npm install --prefix bench` (the TypeScript oracle)")
    _write(
        tmp_path,
        {
            "d.ts": """
                function Dec() { return (t: any, k: string) => {}; }
                function f() { return 1; }
                export class C {
                  @Dec() x = f();
                  @Dec() m() {}
                }
            """
        },
    )
    done = subprocess.run(
        ["node", str(TS_CALLS), str(tmp_path)], capture_output=True, text=True, check=True
    )
    sites, _ = _records(done.stdout)
    assert _edges(sites) == [
        ("d.ts:4 Dec", "d.ts::C.x", ["d.ts::Dec"]),
        ("d.ts:4 f", "d.ts::C", ["d.ts::f"]),  # a field's initializer runs in the class
        ("d.ts:5 Dec", "d.ts::C.m", ["d.ts::Dec"]),
    ]


def test_ts_merged_declarations_are_one_definition(tmp_path: Path) -> None:
    # The compiler merges `interface X` + `class X` (and a namespace with a function of its
    # name) into one symbol: one id for both, members under it; a JS-style redefinition and
    # an accessor pair stay two definitions.
    if shutil.which("node") is None or not (BENCH / "node_modules" / "typescript").is_dir():
        pytest.skip("needs node and `npm install --prefix bench` (the TypeScript oracle)")
    _write(
        tmp_path,
        {
            "m.ts": """
                export interface Node { extra(): void; }
                export class Node {
                  run() { this.extra(); }
                  get v() { return 1; }
                  set v(x: number) { this.run(); }
                }
                export function build() { return new Node().run(); }
                export namespace build { export function inner() { build(); } }
            """
        },
    )
    done = subprocess.run(
        ["node", str(TS_CALLS), str(tmp_path), "--include-new"],
        capture_output=True,
        text=True,
        check=True,
    )
    sites, definitions = _records(done.stdout)
    assert [(d["id"], d["line"]) for d in definitions] == [
        ("m.ts::Node", 1),  # the interface: a container
        ("m.ts::Node", 2),
        ("m.ts::Node.run", 3),
        ("m.ts::Node.v", 4),
        ("m.ts::Node.v#2", 5),
        ("m.ts::build", 7),
        ("m.ts::build", 8),
        ("m.ts::build.inner", 8),
    ]
    assert _edges(sites) == [
        ("m.ts:3 extra", "m.ts::Node.run", ["m.ts::Node.extra"]),
        ("m.ts:5 run", "m.ts::Node.v#2", ["m.ts::Node.run"]),
        ("m.ts:7 Node", "m.ts::build", ["m.ts::Node", "m.ts::Node"]),
        ("m.ts:7 run", "m.ts::build", ["m.ts::Node.run"]),
        ("m.ts:8 build", "m.ts::build.inner", ["m.ts::build", "m.ts::build"]),
    ]


def test_python_submodule_named_like_a_builtin_resolves_in_the_corpus(tmp_path: Path) -> None:
    # pytest's `_pytest._io` shares its last name with the builtin `_io`: jedi must find it in
    # the package's directory, not import it from the interpreter (the installed copy, if any).
    pytest.importorskip("jedi")
    _write(
        tmp_path,
        {
            "lib/__init__.py": "",
            "lib/_io/__init__.py": "",
            "lib/_io/saferepr.py": """
                def saferepr(obj):
                    return repr(obj)
            """,
            "lib/main.py": """
                import _io
                from lib._io.saferepr import saferepr


                def show(x):
                    _io.open(x)
                    return saferepr(x)
            """,
        },
    )
    done = subprocess.run(
        [sys.executable, str(JEDI_CALLS), str(tmp_path)], capture_output=True, text=True, check=True
    )
    sites, _ = _records(done.stdout)
    assert _edges(sites) == [
        ("lib/main.py:7 saferepr", "lib/main.py::show", ["lib/_io/saferepr.py::saferepr"]),
    ]
    # the builtins stay external: `repr`, and `_io.open` through a top-level `import _io`
    assert [(s["name"], s.get("external", False)) for s in sites] == [
        ("repr", True),
        ("open", True),
        ("saferepr", False),
    ]
