"""The checker on Python: calls of a value typed by ``Callable[[...], R]`` (a parameter with the
type written out, an alias of it, an element of a collection of them), and a local read from a
declared member."""

from __future__ import annotations

import difflib

import pytest

from astrag import api
from astrag.lang.python.check_callable import alias_annotation, callable_arity
from tests.verify.checked import indexed, rows

HOOKS = {
    "hooks.py": """
        from typing import Callable, TypeAlias
        Listener = Callable[[int, str], None]
        Anything: TypeAlias = Callable[..., None]
        Either = Callable[[int], None] | Callable[[int, int], None]
    """
}


def test_a_call_is_counted_against_the_callable_type(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("callable"), HOOKS)
    code = """
        from typing import Callable, Optional
        from hooks import Listener

        def run(cb: Callable[[int], None], each: list[Listener], by: dict[str, Listener],
                maybe: Optional[Callable[[], int]] = None) -> None:
            cb(1, 2)
            for listener in each:
                listener(1, "a", 3)
            got = by.get("a")
            got(1)
            maybe(1)
    """
    assert rows(root, code, "use.py") == [
        ("wrong-arguments", 6),
        ("wrong-arguments", 8),
        ("wrong-arguments", 10),
        ("wrong-arguments", 11),
    ]


def test_what_is_not_a_plain_callable_is_not_counted(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("open"), HOOKS)
    code = """
        from typing import Callable
        from hooks import Listener, Anything, Either

        def run(cb: Callable[[int], None], wide: Anything, either: Either, loose,
                listener: Listener) -> None:
            cb(1)
            wide(1, 2, 3)
            either(1, 2)
            loose(1, 2, 3)
            listener(1, "a")
            cb = print
            cb(1, 2)
    """
    # ``...`` takes anything, a union is not counted, an untyped parameter is open; ``cb``
    # is assigned again, so which function runs is not known
    assert rows(root, code, "use.py") == []


def test_callable_arity_reads_the_written_type() -> None:
    assert callable_arity("Callable[[int, str], None]") == (2, 2)
    assert callable_arity("typing.Callable[[], None] | None") == (0, 0)
    assert callable_arity("Optional[Callable[[Dict[str, int]], None]]") == (1, 1)
    assert callable_arity("Callable[..., None]") is None
    assert callable_arity("Callable[P, R]") is None
    assert callable_arity("Callable[[int], None] | Callable[[], None]") is None
    assert alias_annotation("Listener: TypeAlias = Callable[[int], None]", "Listener") == (
        "Callable[[int], None]"
    )
    assert alias_annotation("Listener == 1", "Listener") is None


def test_a_local_read_from_a_declared_member_is_declared(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("memberread"),
        {
            "store.py": """
                class Storage:
                    def __init__(self) -> None:
                        self.path = ""

                class Options:
                    def __init__(self, storage: Storage) -> None:
                        self.storage = storage
            """
        },
    )
    code = """
        from store import Options

        def load(options: Options, loose) -> None:
            storage = options.storage
            print(storage.pth, storage.path)
            guessed = loose.storage
            print(guessed.pth)
    """
    # storage is as declared as options.storage; guessed comes off an untyped parameter
    assert rows(root, code, "use.py") == [("unknown-member", 5)]


def test_a_callable_called_with_keywords_counts_them(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("keywords"), HOOKS)
    code = """
        from typing import Callable

        def run(main: Callable[[int, str], int]) -> None:
            main(args=1, env="a")
            main(1, env="a")
            main(args=1)
    """
    # keywords pass parameters as positional arguments would; one argument is still too few
    assert rows(root, code, "use.py") == [("wrong-arguments", 6)]


def test_names_every_module_or_another_platform_has(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("modnames"),
        {"pkg/__init__.py": '"""A package."""\n__version__ = "1"\n', "pkg/core.py": "x = 1\n"},
    )
    code = """
        from pkg import __doc__, __version__
        from pkg import __dco__
        from subprocess import CREATE_NO_WINDOW, STARTUPINFO
        from subprocess import CREATE_NO_WINDOWS
    """
    # a module's docstring is always there; subprocess binds the Windows names under a
    # platform test in its source; misspellings of either are still reported
    assert rows(root, code, "use.py") == [("unknown-import", 2), ("unknown-import", 4)]


def test_the_class_type_returns_is_not_type(tmp_path_factory: pytest.TempPathFactory) -> None:
    root = indexed(tmp_path_factory.mktemp("typeof"), {"base.py": "class Base:\n    pass\n"})
    code = """
        class Auth:
            @staticmethod
            def make_header(user: str) -> str:
                return user

            def call(self) -> str:
                str(self).uper()
                return type(self).make_header("a")
    """
    # ``type(x)`` gives x's class, not an instance of ``type``; ``str(x)`` gives a str
    assert rows(root, code, "auth.py") == [("unknown-member", 7)]


PATTERNS = {
    "patterns.py": """
        class Pattern:
            def handle(self, m: str) -> str:
                return m

        class Inline(Pattern):
            def handle(self, m: str, data: str) -> str:  # another signature
                return m + data

        class Same(Pattern):
            def handle(self, m: str) -> str:
                return m
    """,
    "plain.py": """
        class Plain:
            def handle(self, m: str) -> str:
                return m

        class Child(Plain):
            def handle(self, m: str) -> str:
                return m * 2
    """,
}


def test_a_method_a_subclass_overrides_otherwise_is_not_counted(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("overrides"), PATTERNS)
    code = """
        from patterns import Pattern
        from plain import Plain

        def apply(pattern: Pattern, plain: Plain) -> None:
            pattern.handle("m", "data")
            plain.handle("m", "data")
    """
    # ``pattern`` may be an Inline, whose handle takes two; every Plain's takes one
    assert rows(root, code, "use.py") == [("wrong-arguments", 6)]


def test_a_class_its_name_is_rebound_to_is_still_judged(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    code = """
        def _add_hash(cls: type) -> type:
            return cls


        class Converter:
            def name(self) -> str:
                return "c"

            def call(self) -> str:
                return self.nmae()


        Converter = _add_hash(Converter)
    """
    root = indexed(tmp_path_factory.mktemp("rebound"), {"conv.py": code})
    # the variable rebinding the name is not a second class of it: the class stays closed
    assert rows(root, code, "conv.py") == [("unknown-member", 10)]


def test_a_class_deriving_from_object_is_closed(tmp_path_factory: pytest.TempPathFactory) -> None:
    code = """
        class Parser(object):
            def __init__(self) -> None:
                self._parser = 1

            def usage(self) -> int:
                return self._parsers


        class Loose(object):
            def __getattr__(self, name: str) -> int:
                return 1

            def usage(self) -> int:
                return self._parsers
    """
    root = indexed(tmp_path_factory.mktemp("object"), {"parser.py": code})
    # ``(object)`` is no base at all: the misspelt read is found; a class answering any
    # name through ``__getattr__`` still is not judged
    assert rows(root, code, "parser.py") == [("unknown-member", 6)]


def test_a_name_narrowed_to_a_module_object_has_its_modules_names(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("moduletype"), {"base.py": "x = 1\n"})
    code = """
        import logging
        from types import ModuleType

        try:
            from CommandNotFound import CommandNotFound
        except ImportError:
            CommandNotFound = None

        if isinstance(CommandNotFound, ModuleType):
            packages = CommandNotFound.CommandNotFound().get_packages
        logging.getLoggr("x")
    """
    # a module object has whatever names its module defines; a standard module's misspelt
    # function is still reported
    assert rows(root, code, "use.py") == [("unknown-member", 11)]


def test_a_call_is_counted_against_the_implementation_not_its_overload_stubs(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(
        tmp_path_factory.mktemp("overloads"),
        {
            "lib.py": """
                from typing import overload

                @overload
                def flag(name: str) -> bool: ...
                @overload
                def flag(name: str, initial: bool, extra: int) -> bool: ...
                def flag(name, initial=None, extra=None):
                    return bool(name)
            """
        },
    )
    # ``@overload`` stubs refine types for a type checker; the implementation is what runs
    # (TypeScript, where only the signatures are callable, counts against them instead)
    code = """
        from lib import flag

        flag("a", True)
        flag("a", True, 1, 2)
    """
    assert rows(root, code, "use.py") == [("wrong-arguments", 4)]


def test_a_name_a_function_declares_global_is_declared_for_the_module(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("globals"), {"other.py": "X = 1\n"})
    code = """
        def setup():
            def inner():
                global CACHE
                CACHE = {}
            inner()

        def more():
            global a, CACHED
            CACHED = 1

        def use():
            return CACHE, CACHED, CACHE_MISSING
    """
    # dramatiq's nested `global`; a name no `global` statement names is still undeclared
    assert rows(root, code, "use.py") == [("undeclared-name", 12)]


BROKER = """
    class Broker:
        def emit_after(self, x):
            return x

        def run(self):
            self.emit_afterr(1)
            return self.emit_after(1)


    class RedisBroker(Broker):
        def __getattr__(self, name):
            if name.startswith("do_"):
                return 1
            raise AttributeError(name)

        def declare(self):
            return self.do_declare()


    class Loose:
        def run(self):
            return self.helper()


    class Child(Loose):
        def helper(self):
            return 1
"""


def test_a_subclass_hook_leaves_the_base_class_judged(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("subhook"), {"broker.py": BROKER})
    code = """
        from broker import Broker

        class Worker:
            def __init__(self, broker: Broker):
                self.broker = broker

            def go(self):
                self.broker.emit_afterr(1)
                return self.broker.emit_after(1)
    """
    # dramatiq's RedisBroker answers ``do_*`` through ``__getattr__``: a misspelt member of
    # Broker, through ``self`` in Broker or a field typed Broker, is still reported; the
    # hooked class's own reads and a member a subclass declares (``self.helper()``) are not
    assert rows(root, BROKER, "broker.py") == [("unknown-member", 6)]
    assert rows(root, code, "worker.py") == [("unknown-member", 8)]


def test_a_metaclass_hook_opens_reads_on_the_class_not_its_instances(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    code = """
        class generic_actor(type):
            def __getattr__(cls, name):
                return getattr(cls.__actor__, name)


        class GenericActor(metaclass=generic_actor):
            def perform(self):
                return 1


        class Add(GenericActor):
            pass


        class Plain(metaclass=type):
            def perform(self):
                return 1


        def use():
            Add.options
            Add().optionz
            GenericActor.missing_property
            Plain.optionz
    """
    root = indexed(tmp_path_factory.mktemp("metahook"), {"meta.py": code})
    # the metaclass answers names read on the class (dramatiq's ``Add.options``); an
    # instance's misspelt attribute and a plain metaclass's class are still judged
    assert rows(root, code, "meta.py") == [("unknown-member", 22), ("unknown-member", 24)]


def test_a_computed_base_leaves_the_class_open(tmp_path_factory: pytest.TempPathFactory) -> None:
    root = indexed(tmp_path_factory.mktemp("madebase"), {"base.py": "X = 1\n"})
    code = """
        import json

        old = json.JSONEncoder()


        class Enc(type(old)):
            def go(self):
                self.anything()
                return super().decode("x")


        class Dec(json.JSONDecoder):
            def go(self):
                return super().decodee("x")
    """
    # ``type(old)`` is a class astrag does not know (not ``type`` itself); a named standard
    # base is still judged
    assert rows(root, code, "enc.py") == [("unknown-member", 14)]


def test_a_field_annotated_with_a_union_is_judged_against_every_member(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    lib = """
        from threading import Thread
        from typing import Union


        def active():
            return True


        class TimeLimit:
            def __init__(self):
                self.manager: Union[_Gevent, _Ctypes]
                if active():
                    self.manager = _Gevent()
                else:
                    self.manager = _Ctypes()


        class _Ctypes(Thread):
            def handle(self):
                return 1


        class _Gevent:
            def other(self):
                return 1


        class _Closed:
            def other(self):
                return 1


        class Holder:
            def __init__(self):
                self.m: Union[_Gevent, _Closed]
                self.m = _Gevent()
    """
    root = indexed(tmp_path_factory.mktemp("unionfield"), {"tl.py": lib})
    code = """
        from tl import TimeLimit, Holder


        def test():
            middleware = TimeLimit()
            middleware.manager.handle()
            middleware.manager.other()
            h = Holder()
            h.m.other()
            h.m.nothing()
            middleware.manager.nothing()
    """
    # dramatiq's ``manager._handle_deadlines()``: the second member's method is there; a
    # member no class of the union has is reported
    assert rows(root, code, "test_tl.py") == [("unknown-member", 10), ("unknown-member", 11)]


def test_a_decorator_given_the_class_may_attach_a_member(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("monkey"), {"base.py": "X = 1\n"})
    code = """
        def monkey(cls):
            def decorate(value):
                setattr(cls, value.__name__, value)
                return value
            return decorate


        def test_monkey_property():
            class A(object):
                pass

            @monkey(A)
            @property
            def prop(self):
                return 42

            assert A().prop == 42
            assert A().other == 42
    """
    # funcy's ``@monkey(A)`` puts ``prop`` on A; what nothing attaches is still missing
    assert rows(root, code, "test_objects.py") == [("unknown-member", 18)]


def test_a_subclass_may_have_what_self_lacks_through_an_outside_base(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    code = """
        from collections.abc import MutableMapping


        class Cache(MutableMapping):
            def __init__(self):
                self.data = {}

            def __getitem__(self, key):
                return self.data[key]

            def __setitem__(self, key, value):
                self.data[key] = value

            def __delitem__(self, key):
                del self.data[key]

            def __iter__(self):
                return iter(self.data)

            def __len__(self):
                return len(self.data)


        class Timed(Cache):
            def size(self):
                self.expire(1)
                self.expiry(1)
                return len(self)


        class TTL(Timed):
            def expire(self, time):
                return time
    """
    root = indexed(tmp_path_factory.mktemp("timed"), {"cache.py": code})
    # cachetools' ``_TimedCache`` calls ``self.expire()``, which its subclasses define; the
    # lookup stopped at the outside ``MutableMapping``, and that path now asks them too
    assert rows(root, code, "cache.py") == [("unknown-member", 27)]


def test_a_class_renamed_by_the_change_keeps_the_subclasses_it_renames(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    base = "class Mixin:\n    def check(self):\n        return self.assertEqual(1, 1)\n"
    sub = (
        "import unittest\n\nfrom base import Mixin\n\n\n"
        "class T(unittest.TestCase, Mixin):\n    pass\n"
    )
    closed = "from base import Mixin\n\n\nclass Plain(Mixin):\n    pass\n"
    root = indexed(
        tmp_path_factory.mktemp("renamedmixin"),
        {"base.py": base, "sub.py": sub, "plain.py": closed},
    )

    def diff(path: str, old: str) -> str:
        new = old.replace("Mixin", "Mixins").replace("(1, 1)", "(1, 2)")
        lines = difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}"
        )
        return "".join(lines)

    # cachetools' ``CacheTestMixin`` renamed with its ``unittest.TestCase`` subclasses: the
    # index knows them by the old name only; the change's own classes are asked. Renamed with
    # a closed subclass alone, the missing ``assertEqual`` is reported
    def found(text: str) -> list[tuple[str, str, int]]:
        return [(f.path, f.rule, f.line) for f in api.check(root, text).findings]

    # (the import the change leaves in the third file is a real break, reported there)
    with_testcase = diff("base.py", base) + diff("sub.py", sub)
    assert found(with_testcase) == [("plain.py", "unknown-import", 1)]
    alone = diff("base.py", base) + diff("plain.py", closed)
    assert found(alone) == [("base.py", "unknown-member", 3), ("sub.py", "unknown-import", 3)]


def test_a_class_a_decorator_rebinds_is_not_judged_on_the_class(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    code = """
        from dataclasses import dataclass


        class curry:
            def __init__(self, func):
                self.func = func


        def tidy(cls):
            return cls


        @curry
        class Curried:
            def __init__(self, x):
                self.x = x


        @dataclass
        class Point:
            x: int


        @tidy
        class Tidy:
            pass


        def use():
            return Curried.func, Point.nothing, Tidy.nothing
    """
    root = indexed(tmp_path_factory.mktemp("rebound"), {"curried.py": code})
    # toolz's ``@curry class GlobalCurried``, curry a class: the name is a curry object
    # (``.func``); under a dataclass or a function decorator the name is still the class
    assert rows(root, code, "curried.py") == [("unknown-member", 30), ("unknown-member", 30)]


def test_every_module_has_a_dict(tmp_path_factory: pytest.TempPathFactory) -> None:
    root = indexed(
        tmp_path_factory.mktemp("moduledict"),
        {"pkg/__init__.py": "", "pkg/curried.py": "def f():\n    return 1\n"},
    )
    code = """
        import pkg.curried

        names = pkg.curried.__dict__
        other = pkg.curried.g()
    """
    # toolz's ``toolz.curried.__dict__``; a function the module lacks is still reported
    assert rows(root, code, "use.py") == [("unknown-member", 4)]


def test_a_standard_module_with_a_lazy_getattr_still_has_its_own_classes(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("lazymodule"), {"base.py": "X = 1\n"})
    code = """
        import unittest


        class Mixin:
            def check(self):
                self.assertEqual(1, 1)
                return self.caches(2)


        class CacheTest(unittest.TestCase, Mixin):
            def test(self):
                self.assertEqual(1, 1)
                self.assertEqul(1, 1)
                unittest.anything()
    """
    # ``unittest`` answers names lazily (PEP 562) but ``unittest.TestCase`` is its own: the
    # mixin's ``self.caches()`` (cachetools' tests) and a misspelt assertion are reported; a
    # name the module does not bind may be one it answers
    assert rows(root, code, "test_cache.py") == [("unknown-member", 7), ("unknown-member", 13)]


LAZY_PACKAGE = {
    "pkg/__init__.py": """
        from .core import compose, Lazy, Loose


        def __getattr__(name):
            if name == "__version__":
                from importlib.metadata import version

                value = version("pkg")
                globals()[name] = value
                return value
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    """,
    "pkg/core.py": """
        _LAZY = {"alpha": 1, "beta": 2}


        def compose(*fs):
            return fs


        class Lazy:
            def __init__(self):
                self.x = 1

            def __getattr__(self, name):
                if name in ("alpha", "beta"):
                    return 2
                raise AttributeError(name)

            def run(self):
                return self.alpha + self.x


        class Loose:
            def __getattr__(self, name):
                return getattr(self.__dict__["inner"], name)

            def run(self):
                return self.anything
    """,
    "opened/__init__.py": """
        def __getattr__(name):
            return _load(name)


        def _load(name):
            return name
    """,
}


def test_a_getattr_that_answers_a_fixed_few_adds_only_those(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("fixedhook"), LAZY_PACKAGE)
    code = """
        import pkg
        from pkg import compose, composed, __version__
        from pkg.core import Lazy


        def go(lz: Lazy):
            v = pkg.__version__
            pkg.composes(1)
            lz.gamma()
            lz.alpha()
            return v + lz.beta + lz.delta
    """
    # toolz's package ``__getattr__`` answers ``__version__`` only (and writes it into
    # ``globals()``): other names imported or read from it are missing; a class whose hook
    # tests the name against a tuple has those names and no others
    assert rows(root, code, "use.py") == [
        ("unknown-import", 2),
        ("unknown-member", 8),
        ("unknown-member", 9),
        ("unknown-member", 11),
    ]
    edited = LAZY_PACKAGE["pkg/core.py"].replace("self.alpha + self.x", "self.gamma + self.beta")
    assert rows(root, edited, "pkg/core.py") == [("unknown-member", 18)]


def test_a_getattr_that_may_answer_any_name_opens_the_module_or_class(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("openhook"), LAZY_PACKAGE)
    code = """
        import opened
        from opened import anything
        from pkg.core import Loose


        def go():
            opened.whatever()
            return Loose().other() + Loose().run() + anything
    """
    # a hook that hands the name on (``_load(name)``, ``getattr(inner, name)``) may answer
    # any name: nothing read through it is judged, an import of it included
    assert rows(root, code, "use.py") == []


WIDENED = {
    "mixin.py": """
        class CacheMixin:
            def cache(self, minsize):
                raise NotImplementedError

            def lookup(self, key, *, strict=False):
                raise NotImplementedError


        class Plain(CacheMixin):
            def cache(self, minsize, **kwargs):
                return dict(kwargs)

            def lookup(self, key, default=None, *, strict=False, typed=False):
                return default


        class Sized(CacheMixin):
            def cache(self, minsize, getsizeof=None):
                return {}
    """,
    "narrowed.py": """
        class Base:
            def cache(self, minsize):
                raise NotImplementedError


        class Needs(Base):
            def cache(self, minsize, maxsize):
                return {}


        class Keyed(Base):
            def cache(self, minsize, *, ttl):
                return {}
    """,
}


def test_an_override_that_only_widens_keeps_the_base_signature_the_contract(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("widened"), WIDENED)
    code = """
        from mixin import CacheMixin


        def go(mixin: CacheMixin):
            mixin.cache(3, foo=1)
            mixin.cache()
            mixin.cache(3)
            mixin.lookup(1, 2, 3)
            return mixin.lookup(1, strict=True)
    """
    # cachetools' test mixin: its subclasses override ``cache`` with ``**kwargs`` or an
    # optional parameter more; a call through the mixin is still judged against its own
    assert rows(root, code, "use.py") == [
        ("unknown-keyword", 5),
        ("wrong-arguments", 6),
        ("wrong-arguments", 8),
    ]


def test_an_override_that_requires_more_leaves_calls_through_the_base_unjudged(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("narrowed"), WIDENED)
    code = """
        from narrowed import Base


        def go(base: Base):
            base.cache(3, 4)
            return base.cache(3, ttl=1)
    """
    # one subclass requires a second positional argument, another a keyword: which runs is
    # not known, so neither call is counted
    assert rows(root, code, "use.py") == []


def test_a_missing_positional_is_counted_when_the_callee_takes_kwargs(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    code = """
        def glom(target, spec, **kwargs):
            return target


        def go(opts):
            glom({})
            glom({}, spec="a")
            glom({}, **opts)
            return glom({}, "a", default=1)
    """
    root = indexed(tmp_path_factory.mktemp("kwargs"), {"g.py": code})
    # ``**kwargs`` fills no required positional parameter; a call passing ``**opts`` may
    assert rows(root, code, "g.py") == [("wrong-arguments", 6)]


def test_what_a_test_expects_to_raise_is_not_reported(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    code = """
        import pytest


        def f(a):
            return a


        def test_f(self):
            with pytest.raises(TypeError):
                f(1, 2)
            with self.assertRaises(TypeError) as caught:
                f(b=1)
            with pytest.raises(ValueError):
                f(1, 2)
            f(1, 2)
    """
    root = indexed(tmp_path_factory.mktemp("raises"), {"test_f.py": code})
    # glom's ``with pytest.raises(TypeError): Let('posarg')``: the test expects the error;
    # under another exception, or outside, the call is still wrong
    assert rows(root, code, "test_f.py") == [("wrong-arguments", 14), ("wrong-arguments", 15)]


STARRED = {
    "jobs.py": """
        def repeat(job, *args, **kwargs):
            return job


        def spread(*args):
            return args
    """,
}


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("repeat()", [("wrong-arguments", 4)]),
        ("repeat(j)", []),
        ("repeat(j, 1, 2, x=3)", []),
        ("repeat(job=j)", []),
        ("repeat(*j)", []),
        ("spread()", []),
    ],
)
def test_a_callee_with_star_args_still_requires_what_comes_before(
    tmp_path_factory: pytest.TempPathFactory, call: str, expected: list[tuple[str, int]]
) -> None:
    # schedule's ``@repeat()`` on ``def repeat(job, *args, **kwargs)``: ``*args`` takes any
    # number more, not fewer than the positional parameters before it
    root = indexed(tmp_path_factory.mktemp("starred"), STARRED)
    code = f"""
        from jobs import repeat, spread

        def use(j):
            return {call}
    """
    assert rows(root, code, "use.py") == expected


def test_an_import_error_handler_s_imports_are_another_environment_s(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = indexed(tmp_path_factory.mktemp("fallback"), {"base.py": "x = 1\n"})
    # schedule's fallback for Pythons before 3.3: the handler runs only where the import
    # above failed; the same import anywhere else, or under another handler, is reported
    code = """
        try:
            from collections.abc import Hashable
        except ImportError:
            from collections import Hashable

        try:
            import json
        except (ValueError, ModuleNotFoundError) as e:
            from collections import Sized

        try:
            import json
        except ValueError:
            from collections import Callable

        from collections import Mapping
        from collections.abc import Hashabel
    """
    assert rows(root, code, "use.py") == [
        ("unknown-import", 14),
        ("unknown-import", 16),
        ("unknown-import", 17),
    ]
