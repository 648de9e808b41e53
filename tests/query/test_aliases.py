"""Callers through aliases, exactly, through the real CLI (text and JSON): a variable or field
whose whole value is a function (``compat = real``, ``__repr__ = __str__``, ``export const
alias = fn``, express's ``res.contentType = res.type = function contentType() {}``) is
called in the function's place. A call of an alias assigned once is as certain as a direct
call (link ``alias``, ``through`` the alias); one assigned again stays a candidate; a read of
the function passed as an argument stays a use as a value."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag import api
from tests.query.conftest import open_index, write
from tests.query.test_cli_query import astrag, ok, ok_json

PYTHON = {
    "pkg/__init__.py": "",
    "pkg/core.py": """
        def real_fn(x):
            return x


        compat_fn = real_fn
        older = compat_fn
        moved = real_fn
        moved = None


        class A:
            def __str__(self):
                return "a"

            __repr__ = __str__

            def show(self):
                return self.__repr__()


        def register(hooks):
            hooks.append(real_fn)
        """,
    "pkg/use.py": """
        from pkg.core import A, compat_fn, moved, older


        def go(x):
            return compat_fn(x)


        def chained(x):
            return older(x)


        def maybe(x):
            return moved(x)


        def show(a: A):
            return a.__repr__()
        """,
}

TYPESCRIPT = {
    "src/fn.ts": """
        export function fn(x: number): number {
          return x;
        }

        export const alias = fn;
        export const again = alias;
        export let moving = fn;

        export function reset(): void {
          moving = (x: number) => x + 1;
        }
        """,
    "src/use.ts": """
        import { again, alias, fn, moving } from "./fn";

        export function caller(): number {
          return alias(1);
        }

        export function chained(): number {
          return again(2);
        }

        export function unsure(): number {
          return moving(3);
        }

        export function passes(): number[] {
          return [1].map(fn);
        }
        """,
    "src/core.ts": """
        export function describe(text: string): string {
          return text;
        }
        """,
    "src/api.ts": """
        import * as core from "./core";

        export const describe = core.describe;
        """,
    "src/docs.ts": """
        import { describe } from "./api";

        export function documented(): string {
          return describe("a");
        }

        export function untyped(schema: any): string {
          return schema.describe("b");
        }
        """,
}

EXPRESS = {
    "package.json": '{"name": "response", "main": "lib/response.js"}\n',
    "lib/response.js": """
        'use strict';

        var http = require('http');

        var res = Object.create(http.ServerResponse.prototype);

        module.exports = res;

        res.contentType =
        res.type = function contentType(type) {
          return this.set('Content-Type', type);
        };

        res.set =
        res.header = function header(field, val) {
          this.setHeader(field, val);
          return this;
        };

        res.json = function json(obj) {
          this.type('json');
          return this.end(JSON.stringify(obj));
        };

        res.html = function html(body) {
          this.contentType('html');
          return this.end(body);
        };
        """,
    "examples/hello.js": """
        function hello(req, res) {
          res.contentType('text');
        }

        module.exports = hello;
        """,
}


def _indexed(factory: pytest.TempPathFactory, name: str, files: dict[str, str]) -> Path:
    root = write(factory.mktemp(name).resolve(), files)
    api.index(root, jobs=1, embedder="none", store="sqlite")
    return root


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _indexed(tmp_path_factory, "aliases-py", PYTHON)


@pytest.fixture(scope="module")
def typescript(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _indexed(tmp_path_factory, "aliases-ts", TYPESCRIPT)


@pytest.fixture(scope="module")
def express(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _indexed(tmp_path_factory, "aliases-js", EXPRESS)


def _results(data: dict) -> list[tuple[str, int, str, str | None]]:
    return [(r["id"], r["via"]["line"], r["link"], r["through"]) for r in data["results"]]


def test_the_rooms_mark_aliases_and_the_ones_assigned_again(
    python: Path, typescript: Path, express: Path
) -> None:
    marks = {
        python: {"compat_fn": ("alias",), "older": ("alias",), "moved": ("alias", "rebound")},
        typescript: {"alias": ("alias",), "again": ("alias",), "moving": ("alias", "rebound")},
        express: {"res.contentType": ("alias",), "res.set": ("alias",), "res": ()},
    }
    for root, expected in marks.items():
        with open_index(root, "") as idx:
            assert {q: idx.resolve(q).modifiers for q in expected} == expected
    with open_index(python, "") as idx:
        assert idx.resolve("A.__repr__").modifiers == ("alias",)


def test_python_callers_through_aliases(python: Path) -> None:
    c, u = "pkg/core.py::", "pkg/use.py::"
    data = ok_json("callers", "real_fn", "--repo", str(python))
    assert _results(data) == [
        (u + "go", 5, "alias", c + "compat_fn"),
        (u + "chained", 9, "alias", c + "older"),  # older = compat_fn = real_fn
        (u + "maybe", 13, "candidate", c + "moved"),  # moved = None later: unverified
        (c + "register", 22, "candidate", "value"),  # passed as an argument: as it was
    ]
    assert data["counts"] == {"direct": 0, "dispatch": 0, "candidate": 2, "alias": 2}
    assert data["notes"] == [
        "real_fn is used as a value at 1 site (passed, stored, exported or rendered, not "
        "called there; calls through it are not traced, unverified): pkg/core.py:22",
        "1 more call site calls `moved`, an alias of real_fn that its file assigns again "
        "(what it holds when called is unverified): pkg/use.py:13",
    ]
    result = astrag("callers", "real_fn", "--repo", str(python))
    assert result.stdout.splitlines() == [
        "1\tgo\tfunction\tpkg/use.py:4\t5\tvia alias compat_fn",
        "1\tchained\tfunction\tpkg/use.py:8\t9\tvia alias older",
        "1\tmaybe\tfunction\tpkg/use.py:12\t13\tunverified (alias moved, assigned again)",
        "1\tregister\tfunction\tpkg/core.py:21\t22\tunverified (used as a value)",
    ]
    assert result.stderr.splitlines() == [f"note: {n}" for n in data["notes"]]


def test_callees_go_through_an_alias_to_what_it_holds(python: Path) -> None:
    c, u = "pkg/core.py::", "pkg/use.py::"
    # go calls compat_fn, which holds real_fn: the alias, then what runs
    data = ok_json("callees", u + "go", "--repo", str(python))
    assert _results(data) == [
        (c + "compat_fn", 5, "direct", None),
        (c + "real_fn", 5, "alias", c + "compat_fn"),
    ]
    # older = compat_fn = real_fn: two hops, through the alias called
    data = ok_json("callees", u + "chained", "--repo", str(python))
    assert _results(data) == [
        (c + "older", 9, "direct", None),
        (c + "real_fn", 9, "alias", c + "older"),
    ]
    # moved is assigned again: what it holds when called is not known
    data = ok_json("callees", u + "maybe", "--repo", str(python))
    assert _results(data) == [(c + "moved", 13, "direct", None)]
    result = astrag("callees", u + "go", "--repo", str(python))
    assert (
        result.stdout.splitlines()[1]
        == "1\treal_fn\tfunction\tpkg/core.py:1\t5\tvia alias compat_fn"
    )


def test_a_method_aliased_in_its_class_body_is_called_through_the_alias(python: Path) -> None:
    c, u = "pkg/core.py::", "pkg/use.py::"
    data = ok_json("callers", "A.__str__", "--repo", str(python))
    assert _results(data) == [
        (c + "A.show", 18, "alias", c + "A.__repr__"),
        (u + "show", 17, "alias", c + "A.__repr__"),
    ]
    assert data["notes"] == []


def test_typescript_callers_through_exported_aliases(typescript: Path) -> None:
    f, u = "src/fn.ts::", "src/use.ts::"
    data = ok_json("callers", "fn", "--repo", str(typescript))
    assert _results(data) == [
        (u + "caller", 4, "alias", f + "alias"),
        (u + "chained", 8, "alias", f + "again"),
        (u + "unsure", 12, "candidate", f + "moving"),  # a ``let`` that reset() assigns
        (u + "passes", 16, "candidate", "value"),
    ]
    assert data["counts"] == {"direct": 0, "dispatch": 0, "candidate": 2, "alias": 2}
    assert ok("callers", "fn", "--repo", str(typescript)).splitlines() == [
        "1\tcaller\tfunction\tsrc/use.ts:3\t4\tvia alias alias",
        "1\tchained\tfunction\tsrc/use.ts:7\t8\tvia alias again",
        "1\tunsure\tfunction\tsrc/use.ts:11\t12\tunverified (alias moving, assigned again)",
        "1\tpasses\tfunction\tsrc/use.ts:15\t16\tunverified (used as a value)",
    ]


def test_express_callers_of_a_function_under_two_names(express: Path) -> None:
    r = "lib/response.js::"
    data = ok_json("callers", "res.type", "--repo", str(express))
    assert _results(data) == [
        (r + "res.json", 21, "direct", None),
        (r + "res.html", 26, "alias", r + "res.contentType"),
        # an unknown receiver calling the alias's name may be a call of it too
        ("examples/hello.js::hello", 2, "candidate", "unresolved::?.contentType"),
    ]
    assert data["notes"] == [
        "1 more call site with an unknown receiver calls `.contentType(` (`contentType` is an "
        "alias of res.type) (unverified): examples/hello.js:2"
    ]
    # before, ``res.header`` had no resolved caller: express calls it as ``this.set(...)``
    data = ok_json("callers", "res.header", "--repo", str(express), "--depth", "2")
    assert _results(data) == [
        (r + "res.type", 11, "alias", r + "res.set"),
        (r + "res.json", 21, "direct", None),
        (r + "res.html", 26, "alias", r + "res.contentType"),
    ]
    assert [x["depth"] for x in data["results"]] == [1, 2, 2]
    assert ok("callers", "res.header", "--repo", str(express)).splitlines() == [
        "1\tres.type\tfunction\tlib/response.js:10\t11\tvia alias res.set"
    ]


def test_references_list_the_calls_through_an_alias(express: Path) -> None:
    text = ok("references", "res.header", "--repo", str(express))
    assert text.splitlines() == [
        "uses of lib/response.js::res.header (2): reads 1, calls through an alias 1",
        "reads (1):",
        "  lib/response.js:15:5  res.set  res.header = function header(field, val) {",
        "calls through an alias (1):",
        "  lib/response.js:11:15  res.type  [via alias res.set]  "
        "return this.set('Content-Type', type);",
    ]


def test_both_stores_follow_aliases(
    tmp_path_factory: pytest.TempPathFactory, store_url: str
) -> None:
    root = write(tmp_path_factory.mktemp("aliases-store").resolve(), PYTHON)
    api.index(root, jobs=1, embedder="none", store=store_url or None)
    c, u = "pkg/core.py::", "pkg/use.py::"
    with open_index(root, store_url) as idx:
        found = idx.callers(idx.resolve("real_fn").id, depth=2)
        assert [(r.depth, r.symbol.id, r.link, r.through) for r in found] == [
            (1, u + "go", "alias", c + "compat_fn"),
            (1, u + "chained", "alias", c + "older"),
            (1, u + "maybe", "candidate", c + "moved"),
            (1, c + "register", "candidate", "value"),
        ]
        assert idx.resolve("moved").modifiers == ("alias", "rebound")


def test_an_alias_of_the_same_name_adds_no_candidate_twice(typescript: Path) -> None:
    # zod's ``export const describe = core.describe``: an unknown receiver's ``.describe(``
    # may be a call of either name, and is listed once
    data = ok_json("callers", "src/core.ts::describe", "--repo", str(typescript))
    assert _results(data) == [
        ("src/docs.ts::documented", 4, "alias", "src/api.ts::describe"),
        ("src/docs.ts::untyped", 8, "candidate", "unresolved::?.describe"),
    ]
    assert data["notes"] == [
        "1 more call site with an unknown receiver calls `.describe(` (unverified): src/docs.ts:8"
    ]


def test_who_calls_a_context_lists_the_callers_through_an_alias(express: Path) -> None:
    with open_index(express, "") as idx:
        answer = idx.answer("who calls res.header", 2000)
    found = {item.id: item.reason for item in answer.context.items}
    assert found["lib/response.js::res.type"] == "calls res.set, an alias of res.header"
    assert answer.notes == ()
