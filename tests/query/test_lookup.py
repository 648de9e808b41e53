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
