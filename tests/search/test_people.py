"""What a person's search list puts first: the implementation before the files that support it,
a field as the class it belongs to, a variable as its module, and a plain word as a name only
when few definitions share it."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag import api
from astrag.retrieve.plan import extract_targets, plain_words
from astrag.search.support import asked_kinds, is_support, support_kinds
from astrag.search.text import looks_like_path
from tests.search.conftest import write_project

PARSER = '''
def parse_multipart(body, boundary):
    """Parse a multipart form body into fields and files."""
    return body.split(boundary)
'''
# each support file matches the question's words better than the code does
CODE = "src/forms/parser.py"
SUPPORT = {
    CODE: PARSER,
    "examples/upload/app.py": '''
def parse_multipart_form_example(body):
    """Example: parse a multipart form upload with parse_multipart."""
    return parse_multipart(body, "--")
''',
    "benchmarks/bench_forms.py": '''
def bench_parse_multipart_form(body):
    """Benchmark how fast a multipart form body is parsed."""
    return parse_multipart(body, "--")
''',
    "tests/fixtures/forms.py": '''
def multipart_form_fixture():
    """A multipart form body fixture to parse."""
    return "--a--"
''',
    "types/forms.d.ts": """
/** Parse a multipart form body. */
export declare function parseMultipartForm(body: string): string[];
""",
}


def paths(root: Path, query: str, limit: int = 10) -> list[str]:
    """The files of the hits, each once, in the order of their best hit."""
    with api.open_index(root) as idx:
        return list(dict.fromkeys(h.symbol.path for h in idx.search(query, limit)))


@pytest.fixture(scope="session")
def support_repo(tmp_path_factory: pytest.TempPathFactory, store_url: str) -> Path:
    root = write_project(tmp_path_factory.mktemp("support"), SUPPORT)
    api.index(root, store=store_url or "sqlite")
    return root


def test_support_files_rank_after_the_implementation(support_repo: Path) -> None:
    found = paths(support_repo, "parse a multipart form body")
    assert found[0] == CODE
    assert sorted(found[1:]) == sorted(p for p in SUPPORT if p != CODE)


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("example of parsing a multipart form upload", "examples/upload/app.py"),
        ("benchmark of parsing a multipart form body", "benchmarks/bench_forms.py"),
        ("multipart form fixture", "tests/fixtures/forms.py"),
        ("typings of the multipart form parser", "types/forms.d.ts"),
    ],
)
def test_a_question_that_asks_for_a_kind_gets_it(
    support_repo: Path, query: str, first: str
) -> None:
    found = paths(support_repo, query)
    # before every other support file, and beside the code it is about
    assert found.index(first) < min(found.index(p) for p in SUPPORT if p not in (first, CODE))
    assert first in found[:2]


def test_support_kinds_by_path() -> None:
    assert support_kinds("src/forms/parser.py") == frozenset()
    assert support_kinds("examples/benchmark/hooks.js") == {"example", "bench"}
    assert support_kinds("library/src/pipe/pipe.test-d.ts") == {"test"}
    assert support_kinds("packages/bench/index.ts") == {"bench"}
    assert support_kinds("website/src/routes/index.tsx") == {"docs"}
    assert support_kinds("types/instance.d.ts") == {"declaration"}
    assert support_kinds("transitions/core.pyi") == {"declaration"}
    assert support_kinds("transitions/core.py") == frozenset()
    assert support_kinds("test/types/instance.tst.ts") == {"test"}
    # benchmarks by file name: pytest-benchmark and Vitest conventions
    assert support_kinds("performance/benchmark.py") == {"bench"}
    assert support_kinds("src/parse.bench.ts") == {"bench"}
    assert support_kinds("lib/workbench.py") == frozenset()
    # test files by each language's convention (its room's support_files), and look-alikes
    assert support_kinds("pkg/server_test.go") == {"test"}
    assert support_kinds("pkg/server.go") == frozenset()
    assert support_kinds("lib/router_spec.rb") == {"test"}
    assert support_kinds("lib/spectrum.rb") == frozenset()
    assert support_kinds("src/main/kotlin/RouterTest.kt") == {"test"}
    assert support_kinds("src/main/kotlin/Contest.kt") == frozenset()
    assert support_kinds("Sources/App/RouterTests.swift") == {"test"}
    assert support_kinds("src/RouterTests.cs") == {"test"}
    assert support_kinds("src/hash_unittest.cc") == {"test"}
    # a prefix is a convention only where the language's runners use it (pytest, not Jest)
    assert support_kinds("src/test_utils.py") == {"test"}
    assert support_kinds("src/test_utils.ts") == frozenset()
    # a directory of either kind asked for is enough
    assert not is_support("examples/benchmark/hooks.js", frozenset({"bench"}))
    assert is_support("examples/benchmark/hooks.js", frozenset({"test"}))
    # "type" alone is not a question about declarations ("content type parser")
    assert asked_kinds(["content", "type", "parser"]) == frozenset()
    assert asked_kinds(["tests", "for", "routing"]) == {"test"}


def test_a_token_is_a_path_when_it_ends_in_an_indexed_extension() -> None:
    assert [looks_like_path(t) for t in ("lib.rs", "Main.kt", "index.mjs", "src/x")] == [True] * 4
    assert [looks_like_path(t) for t in ("os.path", "README.md", "config")] == [False] * 3


FIELDS = {
    "app/debug.py": '''
class Debugger:
    """The in-browser debugger."""

    def __init__(self):
        self.pin = None

    def make_pin(self):
        """Generate the debugger pin from the machine id."""
        return "1234"
''',
    "app/other.py": '''
def unrelated():
    """Nothing to see."""
''',
}


def test_a_field_is_shown_as_its_class(tmp_path: Path) -> None:
    root = write_project(tmp_path, FIELDS)
    api.index(root)
    with api.open_index(root) as idx:
        people = [h.symbol.id for h in idx.search("debugger pin", 3)]
        named = [h.symbol.id for h in idx.search("Debugger.pin", 1)]
        seeds = [h.symbol.id for h in idx.searcher.search("debugger pin", 5, diversify=False)]
    assert "app/debug.py::Debugger.pin" not in people
    assert set(people[:2]) == {"app/debug.py::Debugger", "app/debug.py::Debugger.make_pin"}
    # a field the query names is what it asks for; seeding a context keeps fields as they are
    assert named == ["app/debug.py::Debugger.pin"]
    assert "app/debug.py::Debugger.pin" in seeds


VARIABLES = {
    "app/limits.py": '''
MAX_FORM_MEMORY_SIZE = 500_000


def read_form(stream, limit):
    """Read a form body, refusing more than limit bytes."""
    return stream.read(limit)
''',
    "app/other.py": '''
def unrelated():
    """Nothing to see."""
''',
}


def test_a_variable_is_shown_as_its_module(tmp_path: Path) -> None:
    root = write_project(tmp_path, VARIABLES)
    api.index(root)
    with api.open_index(root) as idx:
        people = [h.symbol.id for h in idx.search("max form memory size", 3)]
        named = [h.symbol.id for h in idx.search("MAX_FORM_MEMORY_SIZE", 1)]
        seeds = [
            h.symbol.id for h in idx.searcher.search("max form memory size", 5, diversify=False)
        ]
    # the constant matches best and shows one line: its file is listed in its place, once
    assert people[0] == "app/limits.py"
    assert "app/limits.py::MAX_FORM_MEMORY_SIZE" not in people
    assert people.count("app/limits.py") == 1
    # a variable the query names is what it asks for; seeding a context keeps it as it is
    assert named == ["app/limits.py::MAX_FORM_MEMORY_SIZE"]
    assert seeds[0] == "app/limits.py::MAX_FORM_MEMORY_SIZE"


OVERLOADS = {
    "app/signer.py": '''
import typing


class Signer:
    @typing.overload
    def unsign(self, value: str, max_age: int, return_timestamp: typing.Literal[True]) -> tuple: ...

    @typing.overload
    def unsign(self, value: str, max_age: int) -> bytes: ...

    def unsign(self, value, max_age=None, return_timestamp=False):
        """Check the signature and that it is younger than max_age."""
        return value
''',
    "src/pipe.ts": """
export function pipe<A>(schema: A, timestamp: number): A;
export function pipe<A, B>(schema: A, timestamp: number, action: B): A;
export function pipe(schema: unknown, ...actions: unknown[]): unknown {
  return actions.reduce((value, action) => action, schema);
}
""",
}


def test_an_overload_declaration_is_shown_as_its_implementation(tmp_path: Path) -> None:
    root = write_project(tmp_path, OVERLOADS)
    api.index(root)
    with api.open_index(root) as idx:
        unsign = [(h.symbol.id, h.symbol.start_line) for h in idx.search("unsign max_age", 3)]
        pipe = [h.symbol.id for h in idx.search("pipe schema timestamp", 3)]
    # the stubs match the words as well as the body does; the body is listed, once
    assert unsign[0] == ("app/signer.py::Signer.unsign", 11)
    assert [sid for sid, _ in unsign].count("app/signer.py::Signer.unsign") == 1
    assert not any("#" in sid for sid, _ in unsign)
    assert pipe[0] == "src/pipe.ts::pipe"
    assert not any("#" in sid for sid in pipe)


def test_a_plain_word_is_a_name_only_when_few_definitions_share_it(tmp_path: Path) -> None:
    fields = "\n".join(f"class S{i}:\n    schema = {i}\n" for i in range(12))
    root = write_project(
        tmp_path,
        {
            "lib/fields.py": fields,
            "lib/schema_builder.py": '''
def build_schema(spec):
    """Build a schema from a spec: the schema every model is made of."""
    return spec
''',
            "lib/globals.py": "session = {}\n",
            "lib/store.py": 'def save(data):\n    """Save the session data."""\n',
        },
    )
    api.index(root)
    with api.open_index(root) as idx:
        schema = idx.search("schema", 10)
        quoted = idx.search("`schema`", 3)
        session = idx.search("session", 1)
    # twelve fields share "schema": a word of this codebase, ranked by words and meaning
    assert not any("exact" in h.rankers for h in schema)
    assert "lib/schema_builder.py::build_schema" in [h.symbol.id for h in schema]
    # written as code it is the name again, and its namesakes come first
    assert [h.rankers[0] for h in quoted] == ["exact"] * 3
    assert all(h.symbol.id.endswith(".schema") for h in quoted)
    # one definition: the name
    assert [h.symbol.id for h in session] == ["lib/globals.py::session"]
    assert session[0].rankers[0] == "exact"


def test_plain_words_and_calls() -> None:
    assert extract_targets("what does parse() return") == ("parse",)
    assert extract_targets("call foo.bar() then baz") == ("foo.bar",)
    query = "is `schema` the same as schema in Meta or parse()"
    assert plain_words(query, ("schema", "Meta", "parse", "snake_case")) == {"Meta"}
    assert plain_words("schema", extract_targets("schema")) == {"schema"}
    assert plain_words("ZodType", extract_targets("ZodType")) == frozenset()
