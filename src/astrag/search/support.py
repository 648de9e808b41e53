"""Files that support the code rather than being it: tests, examples, benchmarks, fixtures,
documentation sites and type declarations.

A question is about the implementation unless it says otherwise: "how does safeParse work"
wants ``safeParse.ts``, not its tests, the benchmark that calls it or the docs page that shows
it. Each kind is recognised by the conventions of its ecosystems (pytest, Jest, Mocha, Vitest;
``examples/``, ``benchmarks/``, ``fixtures/``, ``docs/``; ``.d.ts``, ``.pyi``) and asked for by
words ("tests for the router", "example app", "benchmark", "typings"). Search and context rank a
support file after the code unless its kind is asked for; they never drop it from search,
where it may still be the only match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from astrag.lang import support_file_patterns

TEST = "test"
EXAMPLE = "example"
BENCH = "bench"
FIXTURE = "fixture"
DOCS = "docs"
DECLARATION = "declaration"
KINDS = (TEST, EXAMPLE, BENCH, FIXTURE, DOCS, DECLARATION)

# a directory of tests in any ecosystem (``tests/``, Jest's ``__tests__/``, RSpec's ``spec/``);
# file-name conventions (``*_test.go``, ``FooTest.java``) are each language room's
_TEST_DIR = re.compile(r"(^|/)(tests?|__tests__|spec|specs|testing)/")
# a directory of any of these names, at any depth (``packages/bench/``, ``src/examples/``)
_DIRS: dict[str, str] = {
    "example": EXAMPLE, "examples": EXAMPLE, "demo": EXAMPLE, "demos": EXAMPLE,
    "sample": EXAMPLE, "samples": EXAMPLE,
    "bench": BENCH, "benches": BENCH, "benchmark": BENCH, "benchmarks": BENCH,
    "fixture": FIXTURE, "fixtures": FIXTURE, "__fixtures__": FIXTURE, "testdata": FIXTURE,
    "docs": DOCS, "doc": DOCS, "documentation": DOCS, "website": DOCS,
}  # fmt: skip
# the words that ask for a kind; "type" alone is not one ("content type parser")
_ASKS: dict[str, frozenset[str]] = {
    TEST: frozenset({"test", "tests", "testing", "spec", "specs", "unittest", "unittests"}),
    EXAMPLE: frozenset({"example", "examples", "demo", "demos", "sample", "samples", "tutorial"}),
    BENCH: frozenset({"bench", "benchmark", "benchmarks", "benchmarking", "performance", "perf"}),
    FIXTURE: frozenset({"fixture", "fixtures"}),
    DOCS: frozenset({"docs", "documentation", "website"}),
    DECLARATION: frozenset(
        {"types", "typings", "typescript", "declaration", "declarations", "stub", "stubs"}
    ),
}


def _named_as(kind: str, path: str) -> bool:
    """``path``'s file name follows some language room's convention for ``kind``."""
    pattern = support_file_patterns().get(kind)
    return bool(pattern and pattern.search(path))


def is_test_path(path: str) -> bool:
    """A test file: in a tests directory (``src/test/java/...``, ``__tests__/``) or named as
    its language's test runners name them (pytest, Jest, Vitest, ``go test``, JUnit, RSpec...,
    each room's ``support_files``)."""
    return bool(_TEST_DIR.search(path)) or _named_as(TEST, path)


@lru_cache(maxsize=1 << 16)  # a context asks about the same few hundred paths every query
def support_kinds(path: str) -> frozenset[str]:
    """The kinds of support file ``path`` is (of :data:`KINDS`; ``examples/benchmark/x.js``
    is both), empty for the code itself."""
    kinds = {_DIRS[part.lower()] for part in path.split("/")[:-1] if part.lower() in _DIRS}
    if is_test_path(path):
        kinds.add(TEST)
    if _named_as(DECLARATION, path):
        kinds.add(DECLARATION)
    if _named_as(BENCH, path):
        kinds.add(BENCH)
    return frozenset(kinds)


def is_declaration(path: str) -> bool:
    """A declaration file (``.d.ts``, ``.pyi``): it says what code elsewhere implements."""
    return DECLARATION in support_kinds(path)


def is_support(path: str, asked: frozenset[str] = frozenset()) -> bool:
    """``path`` is a support file of no kind the question asks for."""
    kinds = support_kinds(path)
    return bool(kinds) and not kinds & asked


def asked_kinds(words: Iterable[str]) -> frozenset[str]:
    """The kinds of support file a question's (lower-cased) words ask for."""
    given = {w.lower() for w in words}
    return frozenset(kind for kind, asks in _ASKS.items() if asks & given)
