"""What a barrel's ``export *`` chain is read for, taken from a module's facts without building
its tables: the same names and ``export *`` imports the tables give."""

from __future__ import annotations

import textwrap

import pytest

from astrag.graph import run  # noqa: F401  (first: it imports the rooms before the tables)
from astrag.graph.tables import build_tables
from astrag.lang import extract_facts
from astrag.lang.typescript.semantics import _star_outline

SOURCES = {
    "barrel.ts": """
        export * from './a';
        export * as ns from './b';
        import * as whole from './c';
        export { default as alpha, beta as renamed } from './d';
        import { gamma } from './e';
        export { gamma };
        export { local as shown };
        const local = 1;
        class Box {
          static make() {}
          inner() {}
        }
        function helper() { function nested() {} }
        export default function () {}
    """,
    "whole.ts": "class Box {\n  static made() {}\n}\nexport = Box;\n",
    "plain.js": "module.exports.f = function () {};\nexport * from './x';\nfunction g() {}\n",
}


@pytest.mark.parametrize("path", sorted(SOURCES))
def test_the_outline_is_what_the_tables_give(path: str) -> None:
    facts = extract_facts(path, textwrap.dedent(SOURCES[path]).encode())
    tables = build_tables(facts)
    names: set[str] = set()
    stars = _star_outline(facts, names)
    assert names == {*tables.exports, *tables.reexports, *tables.children.get("", {})}
    assert stars == tables.star_reexports


def test_the_outline_of_a_barrel() -> None:
    facts = extract_facts("barrel.ts", textwrap.dedent(SOURCES["barrel.ts"]).encode())
    names: set[str] = set()
    stars = _star_outline(facts, names)
    assert [imp.module for imp in stars] == ["./a"]  # `export * as ns` is a binding, not a star
    assert {"alpha", "renamed", "gamma", "shown", "ns", "Box", "helper", "default"} <= names
    assert not {"make", "inner", "nested", "whole"} & names
