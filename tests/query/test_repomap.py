"""The repository map: PageRank over the graph, implementation before tests, deterministic,
never over its budget, and a larger budget shows more of the same order."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from astrag.graph.facts import Edge, EdgeKind, Symbol
from astrag.query.repomap import path_role, rank
from astrag.retrieve.tokens import count_tokens
from tests.query.conftest import open_index


def sym(sid: str, kind: str = "function", parent: str = "") -> Symbol:
    path, _, qual = sid.partition("::")
    return Symbol(sid, kind, qual.rpartition(".")[2] or path, qual, path, 1, 2, parent or path)


def calls(source: str, target: str, n: int = 1) -> list[Edge]:
    path = source.partition("::")[0]
    return [Edge(source, target, EdgeKind.CALLS, path, i + 1, 1) for i in range(n)]


def test_what_many_files_call_ranks_above_what_one_calls() -> None:
    symbols = [sym(f"{p}.py::{n}") for p in "abcd" for n in ("f", "g")]
    edges = (
        calls("b.py::f", "a.py::f")
        + calls("c.py::f", "a.py::f")
        + calls("d.py::f", "a.py::f")
        + calls("b.py::g", "a.py::g")
    )
    ranks = rank(symbols, edges)
    assert ranks["a.py::f"] > ranks["a.py::g"] > ranks["b.py::f"]
    assert sum(ranks.values()) == pytest.approx(1.0)


def test_parallel_calls_count_by_their_square_root_and_placeholders_are_left_out() -> None:
    symbols = [sym("a.py::many"), sym("a.py::once"), sym("b.py::x"), sym("c.py::alone")]
    edges = calls("b.py::x", "a.py::many", 9) + calls("b.py::x", "a.py::once")
    ranks = rank(symbols, edges + calls("b.py::x", "external::print"))
    assert "external::print" not in ranks
    # x's rank flows 3:1 (sqrt 9 : 1), not 9:1; `alone` has only the restart share
    base = ranks["c.py::alone"]
    flow = (ranks["a.py::many"] - base) / (ranks["a.py::once"] - base)
    assert flow == pytest.approx(3.0, rel=1e-6)


def test_edges_out_of_tests_count_a_fifth() -> None:
    symbols = [sym("a.py::used_by_code"), sym("a.py::used_by_tests")]
    symbols += [sym("b.py::caller"), sym("tests/test_a.py::test_it")]
    edges = calls("b.py::caller", "a.py::used_by_code")
    edges += calls("tests/test_a.py::test_it", "a.py::used_by_tests")
    ranks = rank(symbols, edges)
    assert ranks["a.py::used_by_code"] > ranks["a.py::used_by_tests"]


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("src/app/routing.py", "code"),
        ("tests/test_routing.py", "test"),
        ("src/app.test.ts", "test"),
        ("benchmarks/bench_parse.py", "bench"),
        ("packages/zod/src/benchmarks/object.ts", "bench"),
        ("examples/hello/index.js", "example"),
        ("tests/fixtures/app.py", "fixture"),
        ("docs/conf.py", "docs"),
        ("src/_vendor/six.py", "vendor"),
        ("third_party/lib.py", "vendor"),
        ("transitions/core.pyi", "declaration"),
        ("types/index.d.ts", "declaration"),
        ("tests/stubs/test_core.pyi", "test"),
    ],
)
def test_roles_by_path(path: str, role: str) -> None:
    assert path_role(path) == role


def test_the_map_is_deterministic_and_within_every_budget(routing: Path, store_url: str) -> None:
    with open_index(routing, store_url) as idx:
        shown: list[list[str]] = []
        for budget in (10, 40, 80, 150, 300, 600, 2000):
            m = idx.repo_map(budget)
            assert m.tokens == count_tokens(m.text) <= budget
            assert idx.repo_map(budget) == m
            shown.append([e.symbol.id for f in m.files for e in f.entries if not e.context])
        # a larger budget shows a superset: the same order, further along
        for smaller, larger in itertools.pairwise(shown):
            assert set(smaller) <= set(larger)
        assert shown[0] == []  # 10 tokens: the header cut to fit, no definition
        everything = idx.repo_map(2000)
        assert everything.definitions_shown == everything.definitions_total == 27
        # the implementation first, the test file last
        assert [f.path for f in everything.files][-1] == "tests/test_routing.py"
        assert everything.files[-1].role == "test"


def test_the_map_text_names_files_and_signatures_in_source_order(
    routing: Path, store_url: str
) -> None:
    with open_index(routing, store_url) as idx:
        m = idx.repo_map(120)
    assert m.text.splitlines() == [
        "Repository map: 8 files, 27 definitions; the 7 most central in 3 files (ranked by "
        "calls, references, inheritance and imports)",
        "",
        "app/routing.py",
        "     6  class BaseRoute",
        "     7    def matches(self, scope: dict) -> bool",
        "    10    def handle(self, scope: dict) -> None",
        "    18  class Route(BaseRoute)",
        "    31  class Router",
        "",
        "app/plugins.py",
        "     1  class Plugin",
        "",
        "app/registry.py",
        "     4  def make() -> BaseRoute",
    ]
