"""A name asked for by a person: the declarations of one name in one scope are one answer
(overload signatures and their body, a property's getter and setter), other matches are a
choice the person makes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from astrag import api
from tests.cli_run import run
from tests.search.conftest import write_project

FILES = {
    "m.py": """
        from typing import overload


        class C:
            @overload
            def f(self, x: int) -> int: ...
            @overload
            def f(self, x: str) -> str: ...
            def f(self, x):
                return x

            @property
            def p(self) -> int:
                return 1

            @p.setter
            def p(self, v: int) -> None:
                pass


        def use(c: C) -> None:
            c.f(1)
        """,
    "t.ts": """
        export class Q {
          add(x: number): number;
          add(x: string): string;
          add(x: any): any { return x; }
        }
        export function g(q: Q) { return q.add(1); }
        export interface Shape { area(): number }
        export const Shape = { area: () => 1 };
        """,
    "u.ts": """
        export class Q { add(): void {} }
        """,
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_project(tmp_path_factory.mktemp("lookup").resolve(), FILES)
    api.index(root, jobs=1, embedder="none")
    return root


@pytest.fixture(scope="module")
def idx(root: Path) -> Iterator[api.Index]:
    with api.open_index(root) as index:
        yield index


def test_overloads_and_their_body_are_the_body_whose_callers_are_answered(idx: api.Index) -> None:
    f = idx.resolve("C.f")
    assert f.id == "m.py::C.f" and f.start_line == 9
    assert [r.symbol.id for r in idx.callers(f.id)] == ["m.py::use"]
    add = idx.resolve("t.ts::Q.add")
    assert add.id == "t.ts::Q.add" and add.start_line == 4
    assert [r.symbol.id for r in idx.callers(add.id)] == ["t.ts::g"]


def test_a_property_is_its_getter(idx: api.Index) -> None:
    assert idx.resolve("C.p").id == "m.py::C.p"


def test_one_name_in_two_files_or_of_two_kinds_stays_a_choice(idx: api.Index) -> None:
    with pytest.raises(api.AmbiguousSymbol) as two_files:
        idx.resolve("Q.add")
    assert {s.id for s in two_files.value.candidates} == {
        "t.ts::Q.add",
        "t.ts::Q.add#2",
        "t.ts::Q.add#3",
        "u.ts::Q.add",
    }
    with pytest.raises(api.AmbiguousSymbol) as two_kinds:
        idx.resolve("Shape")
    assert len(two_kinds.value.candidates) == 2


def test_show_names_the_other_declarations_of_the_name(idx: api.Index, root: Path) -> None:
    f = idx.resolve("C.f")
    assert [d.id for d in idx.declarations(f)] == ["m.py::C.f#2", "m.py::C.f#3"]
    assert idx.declarations(idx.resolve("use")) == []
    shown = run("show", "C.f", "--repo", str(root))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[2:4] == [
        "  also declared at m.py:6  def f(self, x: int) -> int",
        "  also declared at m.py:8  def f(self, x: str) -> str",
    ]
    data = json.loads(run("show", "C.p", "--repo", str(root), "--format", "json").stdout)
    assert data["declarations"] == [
        {
            "id": "m.py::C.p#2",
            "kind": "method",
            "start_line": 17,
            "end_line": 18,
            "signature": "def p(self, v: int) -> None",
        }
    ]


# a package with stubs beside its modules (pytransitions' layout), and typings beside JS
TWINS = {
    "pkg/core.py": """
        class Machine:
            def add(self, name):
                return name


        class Other:
            pass


        def run(m: Machine) -> None:
            m.add("x")
        """,
    "pkg/core.pyi": """
        class Machine:
            def add(self, name: str) -> str: ...

        class Other: ...

        def only_declared() -> int: ...
        """,
    "pkg/extra.py": """
        class Other:
            pass
        """,
    "lib/command.js": """
        class Command {
          name(n) { return n; }
        }
        module.exports = { Command };
        """,
    "typings/index.d.ts": """
        export class Command {
          name(n: string): string;
        }
        """,
    "tests/test_core.py": """
        from pkg.core import Machine


        class TestMachine(Machine):
            pass
        """,
    "wrap/sub.py": """
        from pkg.core import Machine


        class Sub(Machine):
            pass
        """,
}


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, api.Index]]:
    root = write_project(tmp_path_factory.mktemp("twins").resolve(), TWINS)
    api.index(root, jobs=1, embedder="none")
    with api.open_index(root) as index:
        yield root, index


def test_an_implementation_is_answered_before_its_stub_and_typings(
    twins: tuple[Path, api.Index],
) -> None:
    root, idx = twins
    add = idx.resolve("Machine.add")
    assert add.id == "pkg/core.py::Machine.add"
    assert [r.symbol.id for r in idx.callers(add.id)] == ["pkg/core.py::run"]
    assert [d.id for d in idx.declarations(add)] == ["pkg/core.pyi::Machine.add"]
    assert idx.resolve("Command.name").id == "lib/command.js::Command.name"
    assert [d.id for d in idx.declarations(idx.resolve("Command"))] == [
        "typings/index.d.ts::Command"
    ]
    # a stub's declarations list no twins of their own, and a name only a stub declares is it
    assert idx.declarations(idx.get("pkg/core.pyi::Machine.add")) == []
    assert idx.resolve("only_declared").id == "pkg/core.pyi::only_declared"
    shown = run("show", "Machine.add", "--repo", str(root))
    assert shown.returncode == 0, shown.stderr
    assert "  also declared at pkg/core.pyi:2  def add(self, name: str) -> str" in shown.stdout


def test_two_implementations_beside_a_stub_stay_a_choice(twins: tuple[Path, api.Index]) -> None:
    _, idx = twins
    with pytest.raises(api.AmbiguousSymbol) as two:
        idx.resolve("Other")
    # the implementations first, the stub last, whatever order the store lists them in
    assert [s.id for s in two.value.candidates] == [
        "pkg/core.py::Other",
        "pkg/extra.py::Other",
        "pkg/core.pyi::Other",
    ]


def test_the_code_s_subclasses_come_before_the_tests(twins: tuple[Path, api.Index]) -> None:
    _, idx = twins
    machine = idx.resolve("Machine")
    found = [r.symbol.id for r in idx.implementations(machine.id)]
    assert found == ["wrap/sub.py::Sub", "tests/test_core.py::TestMachine"]
