"""Files that support the code rather than being it: tests, examples, benchmarks, fixtures,
documentation sites and type declarations.

A question is about the implementation unless it says otherwise: "how does safeParse work"
wants ``safeParse.ts``, not its tests, the benchmark that calls it or the docs page that shows
it. Each kind is recognised by the conventions of its ecosystems (pytest, Jest, Mocha, Vitest;
``examples/``, ``benchmarks/``, ``fixtures/``, ``docs/``; ``.d.ts``) and asked for by words
("tests for the router", "example app", "benchmark", "typings"). Search and context rank a
support file after the code unless its kind is asked for; they never drop it from search,
where it may still be the only match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

TEST = "test"
EXAMPLE = "example"
BENCH = "bench"
FIXTURE = "fixture"
DOCS = "docs"
DECLARATION = "declaration"
KINDS = (TEST, EXAMPLE, BENCH, FIXTURE, DOCS, DECLARATION)

_TEST_PATH = re.compile(
    r"(^|/)(tests?|__tests__|spec|specs|testing)/|(^|/)(test_[^/]*|conftest\.py)$|_test\.(py|go)$"
    r"|[._-](test|spec|test-d|tst)\.[cm]?[jt]sx?$|[A-Za-z0-9](Tests?|IT)\.java$"
)
# a directory of any of these names, at any depth (``packages/bench/``, ``src/examples/``)
_DIRS: dict[str, str] = {
    "example": EXAMPLE, "examples": EXAMPLE, "demo": EXAMPLE, "demos": EXAMPLE,
    "sample": EXAMPLE, "samples": EXAMPLE,
    "bench": BENCH, "benches": BENCH, "benchmark": BENCH, "benchmarks": BENCH,
    "fixture": FIXTURE, "fixtures": FIXTURE, "__fixtures__": FIXTURE, "testdata": FIXTURE,
    "docs": DOCS, "doc": DOCS, "documentation": DOCS, "website": DOCS,
}  # fmt: skip
_DECLARATION = re.compile(r"\.d\.[cm]?ts$")
# a benchmark by its file name: bench_x.py, x_benchmark.py, benchmark.py, x.bench.ts (Vitest)
_BENCH_FILE = re.compile(
    r"(^|/)(bench|benchmark)s?([_.-][^/]*)?\.py$|_bench(mark)?s?\.py$|[._-]bench\.[cm]?[jt]sx?$"
)
# the words that ask for a kind; "type" alone is not one ("content type parser")
_ASKS: dict[str, frozenset[str]] = {
    TEST: frozenset({"test", "tests", "testing", "spec", "specs", "unittest", "unittests"}),
    EXAMPLE: frozenset({"example", "examples", "demo", "demos", "sample", "samples", "tutorial"}),
    BENCH: frozenset({"bench", "benchmark", "benchmarks", "benchmarking", "performance", "perf"}),
    FIXTURE: frozenset({"fixture", "fixtures"}),
    DOCS: frozenset({"docs", "documentation", "website"}),
    DECLARATION: frozenset({"types", "typings", "typescript", "declaration", "declarations"}),
}


def is_test_path(path: str) -> bool:
    """A test file by the conventions of pytest, Jest, Mocha, Vitest, ``go test`` and
    Maven/JUnit (``src/test/java/...``, ``FooTest.java``)."""
    return bool(_TEST_PATH.search(path))


@lru_cache(maxsize=1 << 16)  # a context asks about the same few hundred paths every query
def support_kinds(path: str) -> frozenset[str]:
    """The kinds of support file ``path`` is (of :data:`KINDS`; ``examples/benchmark/x.js``
    is both), empty for the code itself."""
    kinds = {_DIRS[part.lower()] for part in path.split("/")[:-1] if part.lower() in _DIRS}
    if is_test_path(path):
        kinds.add(TEST)
    if _DECLARATION.search(path):
        kinds.add(DECLARATION)
    if _BENCH_FILE.search(path):
        kinds.add(BENCH)
    return frozenset(kinds)


def is_support(path: str, asked: frozenset[str] = frozenset()) -> bool:
    """``path`` is a support file of no kind the question asks for."""
    kinds = support_kinds(path)
    return bool(kinds) and not kinds & asked


def asked_kinds(words: Iterable[str]) -> frozenset[str]:
    """The kinds of support file a question's (lower-cased) words ask for."""
    given = {w.lower() for w in words}
    return frozenset(kind for kind, asks in _ASKS.items() if asks & given)
