"""A parse made once serves the frontend: facts from a given tree equal those it parses itself
(the checker hands each changed file's one parse to every rule)."""

from __future__ import annotations

import pytest

from astrag.lang import extract_facts, parse_file

_SOURCES = {
    "m.py": "import os\n\nclass A:\n    def f(self, x):\n        return os.path.join(x)\n",
    "m.ts": "import { b } from './b';\nexport class A {\n  f(x: number) { return b(x); }\n}\n",
    "bad.py": "def f(:\n    return 1\n",
}


@pytest.mark.parametrize("path", sorted(_SOURCES))
def test_facts_from_a_given_tree_equal_a_fresh_parse(path: str) -> None:
    source = _SOURCES[path].encode()
    tree = parse_file(path, source)
    assert tree is not None
    assert extract_facts(path, source, tree) == extract_facts(path, source)


def test_a_file_of_no_indexed_language_has_no_parse() -> None:
    assert parse_file("notes.txt", b"hello") is None
