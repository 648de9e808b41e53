"""The rules that look past the lines a change wrote, or at what the frontends leave out:
attribute reads and writes, syntax errors, and the sites in untouched files that a change
breaks (the incomplete rename). A positive and a negative for each, in each language, on an
index in SQLite and in PostgreSQL."""

from __future__ import annotations

import difflib
import textwrap
from pathlib import Path

import pytest

from astrag import api

FILES = {
    "web/__init__.py": "",
    "web/_utils.py": """
        def get_route_path(scope: dict) -> str:
            return scope["path"]
    """,
    "web/routing.py": """
        from web._utils import get_route_path


        class Route:
            def matches(self, scope: dict) -> bool:
                return get_route_path(scope) == "/"
    """,
    "web/staticfiles.py": """
        from web._utils import get_route_path


        def lookup(scope: dict) -> str:
            return get_route_path(scope)
    """,
    "web/models.py": """
        from abc import ABCMeta
        from dataclasses import dataclass


        class Cache:
            limit = 10

            def __init__(self) -> None:
                self.check = True
                self.entries, self.misses = {}, 0

            @property
            def size(self) -> int:
                return len(self.entries)

            def clear(self) -> None:
                for self.cursor in range(3):
                    pass


        @dataclass
        class Request:
            form: dict
            method: str = "GET"


        class Loose:
            def __init__(self, **kw) -> None:
                for key, value in kw.items():
                    setattr(self, key, value)


        class Tagged:
            def __init__(self, other: "Cache") -> None:
                self.name = "t"
                setattr(self, "label", "x")
                setattr(other, "anchor", 1)

            def __eq__(self, other: object) -> bool:
                return vars(self) == vars(other)


        class Pickled:
            def __init__(self) -> None:
                self.wait = 1

            def __repr__(self) -> str:
                return repr(self.__dict__)

            def __setstate__(self, state: dict) -> None:
                self.__dict__.update(state)


        class Merged:
            def __init__(self, **kw) -> None:
                self.__dict__.update(kw)


        class Meta(ABCMeta):  # an abstract standard base: a closed class
            def __new__(mcs, name, bases, attrs):
                klass = super().__new__(mcs, name, bases, attrs)
                klass.opts = dict(attrs)
                return klass

            def __init__(cls, name, bases, attrs) -> None:
                super().__init__(name, bases, attrs)
                print(cls.opts, cls.__dict__)


        def handle(request: Request, cache: Cache, loose: Loose) -> None:
            print(request.form, cache.size, loose.anything)
    """,
    "web/requests.py": """
        from collections.abc import Mapping


        class HTTPConnection(Mapping):
            def __getitem__(self, key):
                return key

            def __iter__(self):
                return iter(())

            def __len__(self):
                return 0


        class Request(HTTPConnection):
            async def form(self) -> dict:
                return {}
    """,
    "src/schema.ts": """
        export interface ZodString {
          min(n: number): ZodString;
          email(): ZodString;
        }
        export interface Loose { [key: string]: () => Loose; }
        export interface Merged { a(): void; }
        export interface Merged { b(): void; }
        export function string(): ZodString { return null as unknown as ZodString; }
        export function loose(): Loose { return null as unknown as Loose; }
    """,
    "src/writer.ts": """
        export class Writer {
          write(text: string): void {}
        }
    """,
    "src/service.ts": """
        import { Writer } from './writer';

        export class Service {
          private count = 0;
          label?: string;
          constructor(private readonly writer: Writer) {}

          run(): Writer {
            this.count = this.count + 1;
            return this.writer;
          }
        }

        export class Bag {
          [key: string]: unknown;
        }
    """,
    "src/format.ts": """
        export function formatName(name: string, upper: boolean): string {
          return upper ? name.toUpperCase() : name;
        }
    """,
    "src/bound.ts": """
        function label(text: string): string { return text; }

        export type Bound<S> = {
          (): S
          <U>(selector: (state: S) => U): Hidden<U>
        };

        export const a = label('x');
    """,
    "src/use.ts": """
        import { formatName } from './format';

        export const shout = (name: string) => formatName(name, true);
    """,
}


@pytest.fixture(autouse=True)
def _both_stores(use_store: str) -> str:
    return use_store


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory, store_url: str) -> Path:
    root = tmp_path_factory.mktemp("rules")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    api.index(root, store=store_url or "sqlite")
    return root


def rows(repo: Path, code: str, path: str) -> list[tuple[str, int]]:
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path=path)
    return [(f.rule, f.line) for f in report.findings]


def diff_of(repo: Path, edits: dict[str, tuple[str, str]]) -> str:
    """A diff replacing, in each file, every occurrence of old by new."""
    parts = []
    for rel, (old, new) in edits.items():
        text = (repo / rel).read_text()
        assert old in text
        lines = text.splitlines(keepends=True)
        changed = text.replace(old, new).splitlines(keepends=True)
        parts.append("".join(difflib.unified_diff(lines, changed, f"a/{rel}", f"b/{rel}")))
    return "".join(parts)


# ------------------------------------------------------------------------ attribute reads


def test_reading_dict_or_restoring_pickled_state_leaves_a_class_closed(repo: Path) -> None:
    # a repr of __dict__ and __setstate__'s update add no attribute; an update in __init__ may
    # (tenacity's BaseRetrying reads __dict__ for pickling: self.wiat went unreported)
    code = """
        def use(pickled: Pickled, merged: Merged) -> None:
            print(pickled.wait, pickled.wiat, merged.anything)
    """
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path="web/models.py")
    assert [(f.rule, f.line, f.suggestions[:1]) for f in report.findings] == [
        ("unknown-member", 2, ("wait",)),
    ]
    # the class a metaclass's __new__ makes has what it assigns there (klass.opts)
    meta = """
        class Other(Meta):
            def __init__(cls, name, bases, attrs) -> None:
                print(cls.opts, cls.optz)
    """
    assert rows(repo, meta, "web/models.py") == [("unknown-member", 3)]


def test_a_setattr_with_a_written_name_adds_that_member_only(repo: Path) -> None:
    # ``setattr(x, "label", v)`` adds "label" and leaves the class closed otherwise; a name
    # that is not written out (Loose's ``setattr(self, key, value)``) opens it, as does
    # ``vars(self)`` handed to a function
    code = """
        def use(tagged: Tagged, loose: Loose) -> None:
            print(tagged.name, tagged.label, tagged.anchor, loose.anything)
            print(tagged.nmae)
    """
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path="web/models.py")
    assert [(f.rule, f.line, f.suggestions[:1]) for f in report.findings] == [
        ("unknown-member", 3, ("name",)),
    ]
    # and comparing ``vars(self)`` (Tagged.__eq__) adds nothing, where handing it on may
    handed = """
        def fill(attributes: dict) -> None:
            attributes["nmae"] = 1

        class Handed:
            def __init__(self) -> None:
                self.name = "h"
                fill(vars(self))

        def use(handed: Handed) -> None:
            print(handed.nmae)
    """
    assert rows(repo, handed, "web/models.py") == []


def test_a_class_given_a_member_from_outside_has_it(repo: Path) -> None:
    # loguru's tests: logger.__class__.foobar = partialmethod(...), then logger.foobar(...)
    code = """
        def use(cache: Cache) -> None:
            cache.__class__.grow = lambda self: 1
            Cache.shrink = lambda self: 0
            cache.grow()
            cache.shrink()
            print(cache.grow, cache.shrink)
            cache.flush()
            print(cache.flushed)
    """
    assert rows(repo, code, "web/models.py") == [("unknown-member", 7), ("unknown-member", 8)]


def test_python_attribute_reads_on_self_and_typed_receivers(repo: Path) -> None:
    bad = """
        class Sized(Cache):
            def report(self, request: Request) -> int:
                print(self.check_cache, request.formdata)
                return self.sizes
    """
    report = api.check(repo, textwrap.dedent(bad).lstrip("\n"), path="web/models.py")
    assert [(f.rule, f.line, f.suggestions[:1]) for f in report.findings] == [
        ("unknown-member", 3, ("check",)),
        ("unknown-member", 3, ("form",)),
        ("unknown-member", 4, ("size",)),
    ]
    assert "Request has no attribute 'formdata'" in report.findings[1].message
    good = """
        class Sized(Cache):
            def report(self, request: Request, loose: Loose) -> int:
                self.fresh = 1
                print(self.check, self.misses, self.cursor, self.limit, self.fresh)
                print(request.form, request.method, loose.whatever, self.__class__)
                return self.size + Cache.limit
    """
    assert rows(repo, good, "web/models.py") == []


def test_typescript_member_reads_and_writes(repo: Path) -> None:
    bad = """
        export class Other {
          private count = 0;
          constructor(private readonly writer: Writer) {}
          run() {
            this.cont = 1;
            return this.rawWriter;
          }
        }
    """
    assert rows(repo, bad, "src/service.ts") == [("unknown-member", 5), ("unknown-member", 6)]
    good = """
        export function use(s: Service, b: Bag) {
          s.label = 'x';
          b.anything = 1;
          return [s.run(), b.other, s.constructor];
        }
    """
    assert rows(repo, good, "src/service.ts") == []


# ------------------------------------------------------ closed types named by their own name


def test_a_repository_class_over_a_standard_base_is_named_and_suggests_its_members(
    repo: Path,
) -> None:
    code = """
        from web.requests import Request


        async def endpoint(request: Request):
            return await request.formdata()
    """
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path="web/routing.py")
    assert [(f.rule, f.line, f.message) for f in report.findings] == [
        ("unknown-member", 5, "Request has no member 'formdata' (did you mean form?)")
    ]
    assert (
        rows(repo, code.replace("formdata", "form").replace("form()", "keys()"), "web/routing.py")
        == []
    )


def test_closed_repository_interfaces_are_judged_through_chained_calls(repo: Path) -> None:
    bad = """
        import { string } from './schema';
        export const a = string().emial();
        export const b = string().min(1).emial();
    """
    report = api.check(repo, textwrap.dedent(bad).lstrip("\n"), path="src/use.ts")
    assert [(f.rule, f.line, f.suggestions) for f in report.findings] == [
        ("unknown-member", 2, ("email",)),
        ("unknown-member", 3, ("email",)),
    ]
    assert report.findings[0].message.startswith("ZodString has no member 'emial'")
    good = """
        import { string, loose, Merged } from './schema';
        export const a = string().min(1).email();
        export const b = loose().anything();
        export const c = (m: Merged) => m.c();
    """
    assert rows(repo, good, "src/use.ts") == []


# ------------------------------------------------------------------------- syntax errors


def test_syntax_errors_say_what_the_parser_expected(repo: Path) -> None:
    report = api.check(repo, "def f(:\n    pass\n", path="web/models.py")
    [finding] = report.findings
    assert (finding.rule, finding.line, finding.column) == ("syntax-error", 1, 7)
    assert finding.message == "the parser expected ')' here"
    assert rows(repo, "x = print(1, 2\ny = 3\n", "web/models.py") == [("syntax-error", 1)]
    assert rows(repo, "def f(x):\n    return x\n", "web/models.py") == []
    assert rows(repo, "const a = [1, 2;\n", "src/format.ts") == [("syntax-error", 1)]
    assert rows(repo, "export const a = [1, 2];\n", "src/format.ts") == []


def test_a_name_is_unbound_beside_a_region_the_grammar_cannot_read(repo: Path) -> None:
    # src/bound.ts holds a type literal the grammar misreads (a generic call signature after
    # another, as zustand's UseBoundStore): the damaged lines may hide a definition only of a
    # name they mention, so a misspelt call elsewhere in the file is still found
    edit = diff_of(repo, {"src/bound.ts": ("label('x'", "labels('x'")})
    assert [(f.rule, f.line) for f in api.check(repo, edit).findings] == [("unknown-function", 8)]
    hidden = diff_of(repo, {"src/bound.ts": ("label('x'", "Hidden('x'")})
    assert api.check(repo, hidden).findings == []


def test_comparing_a_member_of_self_does_not_narrow_self(repo: Path) -> None:
    """``self.sep == ...`` compares a value; only a union narrows by a discriminant, and the
    object a method runs on is never one. A union's discriminant still narrows."""
    code = """
        class A:
            kind = "a"
            only_a = 1


        class B:
            kind = "b"


        class Flags:
            def __init__(self) -> None:
                self.sep = "\\n"

            def write(self, x: A | B) -> object:
                if x.kind == "a":
                    print(x.only_a)
                if self.sep == "\\n":
                    return self.seps
                return self.sep
    """
    assert rows(repo, code, "web/flags.py") == [("unknown-member", 18)]


# --------------------------------------------------------------- what the change breaks


def test_an_incomplete_rename_is_found_in_the_file_it_forgot(repo: Path) -> None:
    """``get_route_path`` renamed at its definition and every use but one file's import."""
    old, new = "get_route_path", "get_route_path_info"
    renamed = {rel: (old, new) for rel in ("web/_utils.py", "web/routing.py")}
    report = api.check(repo, diff_of(repo, renamed))
    assert [(f.path, f.line, f.rule, f.suggestions[:1]) for f in report.findings] == [
        ("web/staticfiles.py", 1, "unknown-import", (new,))
    ]
    assert f"renamed by this change to {new}" in report.findings[0].message
    everywhere = {**renamed, "web/staticfiles.py": (old, new)}
    assert api.check(repo, diff_of(repo, everywhere)).findings == []


def test_a_rename_is_found_on_the_lines_of_its_own_file_that_the_change_left(
    repo: Path,
) -> None:
    """An attribute renamed where ``__init__`` assigns it, not where a method reads it: the
    read is on a line the change did not write, in a file it did."""
    report = api.check(repo, diff_of(repo, {"web/models.py": ("self.entries,", "self.items,")}))
    assert [(f.path, f.line, f.rule, f.suggestions[:1]) for f in report.findings] == [
        ("web/models.py", 14, "unknown-member", ("items",))
    ]
    assert "renamed by this change to items" in report.findings[0].message
    whole = diff_of(repo, {"web/models.py": ("self.entries", "self.items")})
    assert api.check(repo, whole).findings == []


def test_a_function_renamed_at_its_declaration_is_found_where_its_file_calls_it(
    repo: Path,
) -> None:
    report = api.check(
        repo, diff_of(repo, {"src/bound.ts": ("function label(", "function labelOf(")})
    )
    assert [(f.path, f.line, f.rule, f.suggestions[:1]) for f in report.findings] == [
        ("src/bound.ts", 8, "unknown-function", ("labelOf",))
    ]
    whole = diff_of(repo, {"src/bound.ts": ("label(", "labelOf(")})
    assert api.check(repo, whole).findings == []


def test_a_signature_change_is_found_at_the_callers_it_left(repo: Path) -> None:
    required = diff_of(
        repo,
        {"src/format.ts": ("upper: boolean)", "upper: boolean, sep: string)")},
    )
    report = api.check(repo, required)
    assert [(f.path, f.line, f.rule) for f in report.findings] == [
        ("src/use.ts", 3, "wrong-arguments")
    ]
    optional = diff_of(repo, {"src/format.ts": ("upper: boolean)", "upper: boolean, sep = ' ')")})
    assert api.check(repo, optional).findings == []
