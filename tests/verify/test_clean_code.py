"""Correct code the checker must leave alone, each beside the mistake it still reports: the
classes of false alarm that checking whole repositories as they stand found (the benchmark's
self-check family), on an index of small files written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.verify.checked import indexed, rows

FILES = {
    "app/__init__.py": "",
    "app/base.py": """
        import unittest


        class Service:
            def run(self) -> int:
                return 1


        class Table:
            def rows(self, data):
                return [self.entry(x) for x in data]


        class DictTable(Table):
            def entry(self, x):
                return x


        class Lonely:
            def go(self):
                return 1


        class Mixin:
            def check(self):
                self.assertEqual(self.value, 1)


        class Case(unittest.TestCase, Mixin):
            def setUp(self):
                self.value = 1


        class Maker:
            @classmethod
            def make(cls):
                return cls()
    """,
    "app/stats.py": """
        def _calc(values):
            return sum(values)


        for name in ("total", "mean"):
            globals()[name] = _calc
    """,
    "app/plain.py": """
        def total(values):
            return sum(values)
    """,
    "app/typed.py": """
        def helper(a):
            return a
    """,
    "app/typed.pyi": """
        from typing import TypeVar

        _T = TypeVar("_T")

        def helper(a: _T) -> _T: ...
    """,
    "web/src/flow.ts": """
        interface Flow {
            (fn: () => void): void
        }
        export const flow: Flow = Object.assign(function flow(fn: () => void) {}, {})
    """,
    "web/src/index.ts": """
        export { enUS as defaultLocale } from "./locale/en-US"
        export function run(a: number, b: number): number {
            return a + b
        }
    """,
    "web/src/locale/en-US.ts": """
        export const enUS = { code: "en-US" }
    """,
    ".astrag.toml": """
        [index]
        exclude = ["web/src/locale/"]
    """,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return indexed(tmp_path_factory.mktemp("clean"), FILES)


# ------------------------------------------------------------------------ Python


def test_a_try_body_is_left_to_the_except_clause_that_handles_the_failure(repo: Path) -> None:
    code = """
        from app.base import Service


        def use(s: Service):
            try:
                s.run_all()
            except AttributeError:
                pass
            try:
                s.run_some()
            except ValueError:
                pass
            try:
                from app.plain import totals
            except ImportError:
                totals = None
            s.run_each()
            try:
                s.run(1)  # an argument too many is not what ``except TypeError`` expects
            except TypeError:
                pass
            try:
                import platform

                platform.linux_distribution()  # gone in 3.8, expected to fail
                s.run_every()  # a repository method: the same mistake everywhere
            except Exception:
                pass
    """
    assert rows(repo, code, "app/use.py") == [
        ("unknown-member", 10),
        ("unknown-member", 17),
        ("wrong-arguments", 19),
        ("unknown-member", 26),
    ]


def test_receiver_names_are_the_receiver_only_as_a_methods_first_parameter(repo: Path) -> None:
    code = """
        from app.base import Service


        class Tests(Service):
            BOUND = 3

            def test_fixture(self, cls):
                return cls.meth()

            def test_local(self):
                cls = make_class()
                return cls.echo()

            def test_body(self):
                class Tester:
                    bound = max(self.BOUND, 1)
                    other = max(self.BOUNDS, 1)
                return Tester

            def test_own(self):
                return self.runs()
    """
    # in a class body, self is the method's around it: Tests has BOUND, not BOUNDS
    assert rows(repo, code, "app/use.py") == [
        ("unknown-function", 11),
        ("unknown-member", 17),
        ("unknown-member", 21),
    ]


def test_self_may_be_a_subclass_that_has_the_member(repo: Path) -> None:
    # Table.rows calls self.entry, which only its subclass defines; Mixin's self is a
    # TestCase in the class that mixes it in; Lonely has no subclass to lend it anything
    code = """
        from app.base import Lonely, Mixin, Table


        def use(t: Table, m: Mixin, n: Lonely):
            return t.rows([]), m.check(), n.go()
    """
    assert rows(repo, code, "app/use.py") == []
    whole = (repo / "app/base.py").read_text()  # checked as a whole new version of the file
    assert rows(repo, whole, "app/base.py") == []
    lonely = """
        class Lonely2(Lonely):
            def go(self):
                return self.went()
    """
    assert rows(repo, lonely, "app/base.py") == [("unknown-member", 3)]


def test_an_instance_a_classmethod_builds_through_super_may_be_a_subclass(repo: Path) -> None:
    code = """
        from app.base import Maker


        class Special(Maker):
            @classmethod
            def make(cls):
                made = super().make()
                made.extra()
                plain = Maker()
                plain.extra()
                return made
    """
    assert rows(repo, code, "app/use.py") == [("unknown-member", 10)]


def test_decorated_classes_have_unknown_constructors_and_field_values(repo: Path) -> None:
    code = """
        import attr
        from dataclasses import dataclass


        @attr.s(auto_detect=True)
        class Made:
            msg = attr.ib()
            x: int = attr.ib()

            @x.validator
            def _check(self, attribute, value):
                return self.msg.format(value=value)

            def __init__(self):
                pass


        @dataclass
        class Data:
            def __init__(self):
                pass


        class Plain:
            msg = Data()

            def __init__(self):
                pass

            def use(self):
                return self.msg.format()


        Made(1), Data(1), Plain(1)
    """
    assert rows(repo, code, "app/use.py") == [
        ("unknown-member", 31),
        ("wrong-arguments", 34),
        ("wrong-arguments", 34),
    ]


def test_a_class_body_runs_top_to_bottom(repo: Path) -> None:
    code = """
        class Odd:
            @staticmethod
            def helper(a):
                return a

            @classmethod
            def classmethod(cls):
                return "x"

            @staticmethod
            def staticmethod():
                return "y"

            value = helper(1, 2)
    """
    # the decorators above each def are the builtins, not the methods they define
    assert rows(repo, code, "app/use.py") == [("wrong-arguments", 14)]


def test_names_python_binds_without_a_definition(repo: Path) -> None:
    code = """
        class K:
            def who(self):
                return __class__


        def area(shape):
            match shape:
                case {"w": w, "h": h}:
                    return w * h
                case Square(side):
                    return side * side
            return depth
    """
    assert rows(repo, code, "app/use.py") == [("undeclared-name", 12)]


def test_members_every_module_and_class_has(repo: Path) -> None:
    code = """
        from app import base
        from app.base import Service

        print(base.__file__, base.__name__, Service.__subclasses__(), Service.mro())
        print(base.nothing)
    """
    assert rows(repo, code, "app/use.py") == [("unknown-member", 5)]


def test_a_module_that_writes_globals_has_names_no_definition_shows(repo: Path) -> None:
    code = """
        from app.stats import mean
        from app.plain import mean
    """
    assert rows(repo, code, "app/use.py") == [("unknown-import", 2)]
    assert rows(repo, "print(mean([1]))\n", "app/stats.py") == []
    assert rows(repo, "print(mean([1]))\n", "app/plain.py") == [("unknown-function", 1)]


def test_a_stub_and_its_source_declare_a_module_together(repo: Path) -> None:
    code = """
        from app.typed import _T, helper
        from app.typed import _U
    """
    assert rows(repo, code, "app/other.pyi") == [("unknown-import", 2)]
    # code that runs imports the source, which has no _T
    assert rows(repo, code, "app/other.py") == [("unknown-import", 1), ("unknown-import", 2)]


def test_the_standard_library_seen_as_it_is_at_run_time(repo: Path) -> None:
    code = """
        import copy
        import sys
        import types
        from collections import OrderedDict
        from collections.abc import Mapping

        from app.base import Service


        class Module(types.ModuleType):
            def merge(self, other):
                self.__dict__.update(other.__dict__)


        def merge(target, items):
            if isinstance(target, Mapping):
                target.update(items)
            if isinstance(target, OrderedDict):
                target.move_to_front(items)


        def hook(s: Service):
            if getattr(s, "start", None):
                s.start()
            if getattr(s, "other", None):
                s.stop()


        def later(x):
            if sys.version_info >= (3, 13):
                return copy.replace(x)
            return copy.replacez(x)
    """
    assert rows(repo, code, "app/use.py") == [
        ("unknown-member", 19),
        ("unknown-member", 26),
        ("unknown-member", 32),
    ]


def test_names_python_3_12_binds_without_a_definition(repo: Path) -> None:
    # a ``type`` statement's alias and the type parameters of a class, a def, an alias
    code = """
        from app.base import Service

        type Either = Service | int
        type Pair[K] = tuple[K, K]


        class Box[T, *Ts, **P]:
            item: T

            def put[U: int](self, x: U) -> T: ...


        def use(x: Either) -> Pair[Service]:
            return Eithers, V
    """
    assert rows(repo, code, "app/use.py") == [("undeclared-name", 14), ("undeclared-name", 14)]


def test_a_generic_class_is_closed_like_its_own_body(repo: Path) -> None:
    # typing.Generic adds type parameters and no member: the class is as closed as its body
    code = """
        from typing import Generic, TypeVar

        T = TypeVar("T")


        class Box(Generic[T]):
            def __init__(self, item: T) -> None:
                self.item = item

            def get(self) -> T:
                return self.item

            def peek(self) -> T:
                self.gets()
                return self.items
    """
    assert rows(repo, code, "app/use.py") == [("unknown-member", 14), ("unknown-member", 15)]


# ------------------------------------------------------------------------ TypeScript


def test_typescript_names_the_grammar_may_read_as_values(repo: Path) -> None:
    code = """
        declare function parse<T>(x: unknown): Promise<T>
        async function reply(response: any) {
            response.json(await parse<Record<string, unknown>>(1))
            response.json(await parse<Record<strung, unknown>>(1))
        }
    """
    assert rows(repo, code, "web/src/use.ts") == [("undeclared-name", 4)]


def test_typescript_imports_of_files_the_index_leaves_out(repo: Path) -> None:
    code = """
        import { enUS } from "./locale/en-US"
        import { frFR } from "./locale/fr-FR"
        import { defaultLocale, run } from "./index"
        import { flow } from "./flow"
        import { flowz } from "./flow"
    """
    assert rows(repo, code, "web/src/use.ts") == [("unknown-import", 2), ("unknown-import", 5)]


def test_a_name_bound_twice_in_its_scope_has_no_one_signature(repo: Path) -> None:
    code = """
        function fn(a: number, b: number, c: number): number {
            return a + b + c
        }
        describe("x", () => {
            const fn = (a: number) => a
            fn(1)
        })
        function only(a: number, b: number): number {
            return a + b
        }
        only(1)
    """
    assert rows(repo, code, "web/src/use.ts") == [("wrong-arguments", 11)]


def test_an_untyped_arrow_takes_no_more_arguments_than_it_declares(repo: Path) -> None:
    code = """
        type Handler = (a: number, b: number) => number
        const typed: Handler = (a: number) => a
        const plain = (a: number) => a
        typed(1, 2)
        plain(1, 2)
    """
    assert rows(repo, code, "web/src/use.ts") == [("wrong-arguments", 5)]


def test_a_javascript_function_may_be_called_with_fewer_arguments(repo: Path) -> None:
    # the compiler's rule for .js files: every parameter is optional, unless a JSDoc with
    # types declares it (hapi's ``this._reply()`` of ``_reply(exit)``); more is still wrong
    code = """
        function reply(exit, done) {
            return exit || done
        }
        /**
         * @param {string} name
         * @param {number} [count]
         * @param {boolean=} loud
         */
        function greet(name, count, loud) {
            return name
        }
        reply()
        reply(1, 2, 3)
        greet()
        greet("a")
    """
    assert rows(repo, code, "web/src/use.js") == [("wrong-arguments", 13), ("wrong-arguments", 14)]
