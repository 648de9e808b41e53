"""One test per Python resolution rule, each on a small fixture project, asserting exact edges."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from astrag.graph.resolve import Resolver
from astrag.graph.values import Value
from tests.graph.graphs import build, targets, triples


def test_absolute_import_then_call(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/util.py": "def helper():\n    return 1\n",
            "pkg/app.py": """
                from pkg.util import helper

                def run():
                    return helper()
            """,
        },
    )
    assert targets(edges, "calls", "pkg/app.py::run") == {"pkg/util.py::helper"}
    assert targets(edges, "imports", "pkg/app.py") == {"pkg/util.py::helper"}


def test_relative_imports_one_and_two_levels(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/util.py": "def helper():\n    pass\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/local.py": "def near():\n    pass\n",
            "pkg/sub/mod.py": """
                from . import local
                from .local import near
                from ..util import helper as h

                def go():
                    near()
                    local.near()
                    h()
            """,
        },
    )
    assert triples(edges, "calls", "pkg/sub/mod.py::go") == {
        ("pkg/sub/mod.py::go", "calls", "pkg/sub/local.py::near"),
        ("pkg/sub/mod.py::go", "calls", "pkg/util.py::helper"),
    }
    assert targets(edges, "imports", "pkg/sub/mod.py") == {
        "pkg/sub/local.py",
        "pkg/sub/local.py::near",
        "pkg/util.py::helper",
    }


def test_import_dotted_module_with_and_without_alias(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "a/__init__.py": "",
            "a/b.py": "def func():\n    pass\n",
            "main.py": """
                import a.b
                import a.b as ab

                def one():
                    a.b.func()

                def two():
                    ab.func()
            """,
        },
    )
    assert targets(edges, "calls", "main.py::one") == {"a/b.py::func"}
    assert targets(edges, "calls", "main.py::two") == {"a/b.py::func"}


def test_reexport_through_package_init(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "lib/__init__.py": "from .core import Engine\nfrom .core import start as begin\n",
            "lib/core.py": """
                class Engine:
                    def run(self):
                        pass

                def start():
                    pass
            """,
            "use.py": """
                from lib import Engine, begin

                def main():
                    begin()
                    Engine().run()
            """,
        },
    )
    assert targets(edges, "calls", "use.py::main") == {
        "lib/core.py::start",
        "lib/core.py::Engine",
        "lib/core.py::Engine.run",
    }


def test_self_cls_and_super_follow_the_mro(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "m.py": """
                class Base:
                    def save(self):
                        self.validate()

                    def validate(self):
                        pass

                    @classmethod
                    def make(cls):
                        return cls.build()

                    @classmethod
                    def build(cls):
                        return cls()


                class Mixin:
                    def log(self):
                        pass


                class User(Base, Mixin):
                    def validate(self):
                        super().validate()
                        self.log()
            """,
        },
    )
    assert targets(edges, "calls", "m.py::Base.save") == {"m.py::Base.validate"}
    assert targets(edges, "calls", "m.py::Base.make") == {"m.py::Base.build"}
    assert targets(edges, "calls", "m.py::User.validate") == {
        "external::builtins.super",
        "m.py::Base.validate",
        "m.py::Mixin.log",
    }
    assert targets(edges, "inherits", "m.py::User") == {"m.py::Base", "m.py::Mixin"}
    assert targets(edges, "overrides", "m.py::User.validate") == {"m.py::Base.validate"}


def test_variable_types_from_constructor_annotation_and_parameters(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "svc.py": """
                class Repo:
                    def find(self):
                        pass


                class Service:
                    def __init__(self, repo: Repo) -> None:
                        self.repo = repo
                        self.backup: Repo = make()

                    def get(self):
                        return self.repo.find()

                    def get_backup(self):
                        return self.backup.find()


                def make() -> Repo:
                    return Repo()


                def direct():
                    r = Repo()
                    r.find()
                    s: Repo = whatever()
                    s.find()
                    make().find()
            """,
        },
    )
    assert targets(edges, "calls", "svc.py::Service.get") == {"svc.py::Repo.find"}
    assert targets(edges, "calls", "svc.py::Service.get_backup") == {"svc.py::Repo.find"}
    assert targets(edges, "calls", "svc.py::direct") == {
        "svc.py::Repo",
        "svc.py::Repo.find",
        "svc.py::make",
        "unresolved::whatever",
    }


def test_module_attribute_calls_and_module_level_code(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "tools/__init__.py": "",
            "tools/text.py": "def slug(s):\n    return s\n",
            "cli.py": """
                from tools import text

                text.slug("x")

                if __name__ == "__main__":
                    text.slug("y")
            """,
        },
    )
    assert triples(edges, "calls", "cli.py") == {("cli.py", "calls", "tools/text.py::slug")}


def test_decorated_functions_are_seen_through(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "d.py": """
                import functools

                def traced(fn):
                    @functools.wraps(fn)
                    def wrapper(*a):
                        return fn(*a)
                    return wrapper

                @traced
                def work():
                    pass

                def caller():
                    work()
            """,
        },
    )
    assert targets(edges, "calls", "d.py::caller") == {"d.py::work"}
    # the decorator itself is called from module level
    assert "d.py::traced" in targets(edges, "calls", "d.py")


def test_placeholders_for_external_builtin_and_unresolved(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "x.py": """
                import os.path
                from requests import Session

                def f(items):
                    os.path.join("a", "b")
                    len(items)
                    Session().get("u")
                    nowhere()
                    items.append(1)
            """,
        },
    )
    assert targets(edges, "calls", "x.py::f") == {
        "external::os.path.join",
        "external::builtins.len",
        "external::requests.Session",
        "external::requests.Session().get",
        "unresolved::nowhere",
        "unresolved::?.append",
    }


def test_local_names_shadow_module_level_ones(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "s.py": """
                def helper():
                    pass

                def uses_param(helper):
                    helper()

                def uses_global():
                    helper()
            """,
        },
    )
    assert targets(edges, "calls", "s.py::uses_param") == {"unresolved::helper"}
    assert targets(edges, "calls", "s.py::uses_global") == {"s.py::helper"}


def test_references_types_classes_as_values_and_constants(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "r.py": """
                LIMIT = 10

                class Item:
                    pass

                def check(x: Item) -> bool:
                    return isinstance(x, Item) and LIMIT > 0
            """,
        },
    )
    assert targets(edges, "references", "r.py::check") == {
        "r.py::Item",
        "r.py::LIMIT",
        "external::builtins.bool",
    }


def test_property_return_type_drives_the_next_member(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "p.py": """
                class Engine:
                    def start(self):
                        pass

                class Car:
                    @property
                    def engine(self) -> Engine:
                        return Engine()

                    def drive(self):
                        self.engine.start()
            """,
        },
    )
    assert targets(edges, "calls", "p.py::Car.drive") == {"p.py::Engine.start"}


def test_property_annotated_with_its_own_name_resolves(tmp_path: Path) -> None:
    # the annotation's ``re`` finds the property itself in the class's scope: a cycle, cut as
    # unknown, where following it recursed until Python's stack ran out (pyparsing's Regex)
    edges = build(
        tmp_path,
        {
            "p.py": """
                import re

                class Regex:
                    @property
                    def re(self) -> re.Pattern:
                        return re.compile("x")

                    def scan(self, text):
                        return self.re.match(text)

                    def check(self):
                        return self.scan("y")
            """,
        },
    )
    assert targets(edges, "calls", "p.py::Regex.check") == {"p.py::Regex.scan"}
    assert "p.py::Regex.re" in targets(edges, "references", "p.py::Regex.scan")


def test_star_import_respects_all(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "api.py": """
                __all__ = ["public"]

                def public():
                    pass

                def hidden():
                    pass
            """,
            "main.py": "from api import *\n\ndef go():\n    public()\n    hidden()\n",
        },
    )
    assert targets(edges, "calls", "main.py::go") == {"api.py::public", "unresolved::hidden"}


def test_collection_elements_keep_their_type(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "c.py": """
                from typing import List, Optional

                class Line:
                    def pad(self):
                        pass

                class Lines:
                    def __init__(self, lines: List[Line]) -> None:
                        self.lines = lines

                    def pad_all(self):
                        for line in self.lines:
                            line.pad()
                        self.lines[0].pad()

                def first(lines: Optional[Lines] = None, fallback: Lines = None):
                    chosen = lines or fallback
                    chosen.pad_all()
            """,
        },
    )
    assert targets(edges, "calls", "c.py::Lines.pad_all") == {"c.py::Line.pad"}
    assert targets(edges, "calls", "c.py::first") == {"c.py::Lines.pad_all"}


def test_unannotated_functions_return_what_their_return_statements_give(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "r.py": """
                class Engine:
                    def start(self):
                        pass

                class Other:
                    def start(self):
                        pass

                def make():
                    return Engine()

                def ambiguous(flag):
                    if flag:
                        return Engine()
                    return Other()

                def run():
                    make().start()
                    ambiguous(True).start()
            """,
        },
    )
    assert targets(edges, "calls", "r.py::run") == {
        "r.py::make",
        "r.py::Engine.start",
        "r.py::ambiguous",
        "unresolved::?.start",
    }


def test_self_attribute_reads_reference_properties_and_methods(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "s.py": """
                class Base:
                    limit = 3

                class Box(Base):
                    def __init__(self):
                        self.items = {}

                    @property
                    def size(self):
                        return len(self.items)

                    def report(self, sink):
                        sink(self.size, self.limit, self.missing)
                        self.items.setdefault("k", 1)
                        return self.on_done

                    def on_done(self):
                        pass
            """,
        },
    )
    # a property read runs code and a method passed on is used: edges; plain fields
    # (self.items, self.limit) and a read the class does not back (self.missing) are not
    assert targets(edges, "references", "s.py::Box.size") == set()
    assert targets(edges, "references", "s.py::Box.report") == {
        "s.py::Box.size",
        "s.py::Box.on_done",
    }


def test_loop_over_a_copied_sequence_parameter_calls_the_base_method(tmp_path: Path) -> None:
    # starlette's Router: ``self.routes = [] if routes is None else list(routes)`` from a
    # ``Sequence[BaseRoute] | None`` parameter, then ``for route in self.routes: route.matches()``
    edges = build(
        tmp_path,
        {
            "routing.py": """
                import typing

                class BaseRoute:
                    def matches(self, scope):
                        raise NotImplementedError()

                    def handle(self, scope):
                        raise NotImplementedError()

                class Route(BaseRoute):
                    def matches(self, scope):
                        return True

                class Router:
                    def __init__(self, routes: typing.Sequence[BaseRoute] | None = None):
                        self.routes = [] if routes is None else list(routes)
                        self.ordered = sorted(self.routes, key=id)
                        self.kept = [r for r in self.ordered if r]
                        self.frozen = tuple(routes or ())

                    def app(self, scope):
                        for route in self.routes:
                            route.matches(scope)
                        for route in self.kept:
                            route.handle(scope)
                        self.frozen[0].handle(scope)
            """,
        },
    )
    assert targets(edges, "calls", "routing.py::Router.app") == {
        "routing.py::BaseRoute.matches",
        "routing.py::BaseRoute.handle",
    }


def test_with_except_enumerate_zip_and_cast_bind_typed_names(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "w.py": """
                import typing as t

                class Session:
                    def __enter__(self):
                        return self

                    def __exit__(self, *exc):
                        pass

                    def request(self):
                        pass

                class Failure(Exception):
                    def show(self):
                        pass

                class Item:
                    def process(self):
                        pass

                def run(items: t.List[Item], others: t.List[Session], thing):
                    with Session() as session:
                        session.request()
                    try:
                        pass
                    except Failure as e:
                        e.show()
                    for i, item in enumerate(items):
                        item.process()
                    for a, b in zip(others, items):
                        a.request()
                        b.process()
                    cast = t.cast(Session, thing)
                    cast.request()
            """,
        },
    )
    assert targets(edges, "calls", "w.py::run") == {
        "w.py::Session",
        "w.py::Session.request",
        "w.py::Failure.show",
        "w.py::Item.process",
        "external::builtins.enumerate",
        "external::builtins.zip",
        "external::typing.cast",
    }


def test_calls_inside_a_redefinition_come_from_it(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "term.py": """
                import sys

                def isatty():
                    pass

                def translate():
                    pass

                if sys.platform == "win32":
                    def getchar():
                        isatty()
                else:
                    def getchar():
                        translate()

                class Box:
                    @property
                    def size(self):
                        return isatty()

                    @size.setter
                    def size(self, value):
                        translate()
            """,
        },
    )
    local = {
        e for e in triples(edges, "calls") if e[2] in ("term.py::isatty", "term.py::translate")
    }
    assert local == {
        ("term.py::getchar", "calls", "term.py::isatty"),
        ("term.py::getchar#2", "calls", "term.py::translate"),
        ("term.py::Box.size", "calls", "term.py::isatty"),
        ("term.py::Box.size#2", "calls", "term.py::translate"),
    }


def test_isinstance_narrows_the_subject_inside_the_guarded_block(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "forms.py": """
                class UploadFile:
                    async def close(self):
                        pass

                class Text:
                    def close(self):
                        pass

                class Bag:
                    files: list[UploadFile] = []

                class FormData:
                    def __init__(self, items, owner):
                        self.items = items
                        self.owner = owner

                    async def close(self):
                        for key, value in self.items:
                            if isinstance(value, UploadFile) and value.close:
                                await value.close()
                            elif isinstance(value, (Text, UploadFile)):
                                value.close()
                        if isinstance(self.owner, Text):
                            self.owner.close()
                        elif isinstance(self.owner, Bag):
                            for upload in self.owner.files:
                                upload.close()
                        value.close()
            """,
        },
    )
    lines = (tmp_path / "forms.py").read_text().splitlines()
    close_calls = {
        (lines[e.line - 1].strip(), e.target)
        for e in edges
        if e.source == "forms.py::FormData.close" and e.target.endswith("close")
    }
    assert close_calls == {
        ("await value.close()", "forms.py::UploadFile.close"),
        ("value.close()", "unresolved::?.close"),  # a tuple of classes, and after the if
        ("self.owner.close()", "forms.py::Text.close"),
        ("upload.close()", "forms.py::UploadFile.close"),
    }


def test_a_function_takes_the_plain_id_over_a_fallback_variable(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "win.py": """
                def release():
                    pass

                try:
                    import ctypes
                except ImportError:
                    get_buffer = None
                else:
                    def get_buffer(obj):
                        release()

                def use(obj):
                    return get_buffer(obj)
            """,
        },
    )
    assert triples(edges, "calls") == {
        ("win.py::get_buffer", "calls", "win.py::release"),
        ("win.py::use", "calls", "win.py::get_buffer"),
    }
    assert targets(edges, "contains", "win.py") >= {"win.py::get_buffer", "win.py::get_buffer#2"}


def test_unpacking_a_call_binds_the_declared_tuple_members_by_position(tmp_path: Path) -> None:
    # starlette: `self.path_regex, self.path_format, self.param_convertors = compile_path(p)`
    edges = build(
        tmp_path,
        {
            "routing.py": """
                class Convertor:
                    def convert(self, value): ...

                class Pattern:
                    def match(self, s): ...

                def compile_path(path: str) -> tuple[Pattern, str, Convertor]:
                    return Pattern(), path, Convertor()

                def many() -> tuple[Pattern, ...]:
                    return (Pattern(),)

                class Route:
                    def __init__(self, path: str) -> None:
                        self.regex, self.format, self.convertor = compile_path(path)

                    def matches(self, s):
                        self.regex.match(s)
                        self.convertor.convert(s)
                        pattern, _, conv = compile_path(s)
                        pattern.match(s)
                        conv.convert(s)
                        first, *rest = many()
                        first.match(s)
            """,
        },
    )
    assert sorted(
        (e.line, e.target)
        for e in edges
        if str(e.kind) == "calls" and e.source == "routing.py::Route.matches"
    ) == [
        (18, "routing.py::Pattern.match"),
        (19, "routing.py::Convertor.convert"),
        (20, "routing.py::compile_path"),
        (21, "routing.py::Pattern.match"),
        (22, "routing.py::Convertor.convert"),
        (23, "routing.py::many"),
        (24, "unresolved::?.match"),  # `tuple[Pattern, ...]` has no positions
    ]


def test_mapping_values_by_key_get_and_values_but_not_by_iteration(tmp_path: Path) -> None:
    # click's `self._long_opt: t.Dict[str, Option]`, `option = self._long_opt[opt]`
    edges = build(
        tmp_path,
        {
            "parser.py": """
                import typing as t

                class Option:
                    def process(self, value): ...

                class Parser:
                    def __init__(self) -> None:
                        self._long_opt: t.Dict[str, Option] = {}

                    def match(self, opt: str):
                        option = self._long_opt[opt]
                        option.process(1)
                        self._long_opt.get(opt).process(2)
                        for o in self._long_opt.values():
                            o.process(3)
                        for key in self._long_opt:
                            key.process(4)
            """,
        },
    )
    assert sorted(
        (e.line, e.target)
        for e in edges
        if str(e.kind) == "calls" and e.source == "parser.py::Parser.match"
    ) == [
        (12, "parser.py::Option.process"),
        (13, "external::dict.get"),
        (13, "parser.py::Option.process"),
        (14, "external::dict.values"),
        (15, "parser.py::Option.process"),
        (17, "unresolved::?.process"),  # iterating a mapping gives its keys
    ]


def test_typevar_bounds_and_the_iteration_protocol_of_repository_classes(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "seg.py": """
                from typing import Generic, Iterator, TypeVar

                class Segment:
                    def render(self): ...

                S = TypeVar("S", bound="Segment")
                U = TypeVar("U")

                class Segments:
                    def __iter__(self) -> Iterator[Segment]: ...
                    def __getitem__(self, i: int) -> Segment: ...

                def first(item: S, other: U) -> S:
                    item.render()
                    other.render()
                    return item

                def draw(segments: Segments):
                    for segment in segments:
                        segment.render()
                    segments[0].render()
            """,
        },
    )
    assert sorted(
        (e.line, e.source, e.target)
        for e in edges
        if str(e.kind) == "calls" and e.source.startswith(("seg.py::first", "seg.py::draw"))
    ) == [
        (14, "seg.py::first", "seg.py::Segment.render"),  # S's bound
        (15, "seg.py::first", "unresolved::?.render"),  # U has none
        (20, "seg.py::draw", "seg.py::Segment.render"),  # __iter__ -> Iterator[Segment]
        (21, "seg.py::draw", "seg.py::Segment.render"),  # __getitem__ -> Segment
    ]


def test_calling_a_local_that_holds_a_field_calls_the_field(tmp_path: Path) -> None:
    # ``fn = self.callback; fn()``: the field's value is unknown, so the local holds the field
    # (jedi's goto lands on ``fn``, whose value is ``self.callback``); a typed one keeps its type
    edges = build(
        tmp_path,
        {
            "m.py": """
                class Ctx:
                    def close(self): ...

                class Command:
                    def __init__(self, callback, ctx: Ctx):
                        self.callback = callback
                        self.ctx = ctx

                    def invoke(self):
                        fn = self.callback
                        fn()
                        c = self.ctx
                        c.close()
                        c()
            """,
        },
    )
    assert sorted((e.line, e.target) for e in edges if str(e.kind) == "calls") == [
        (11, "m.py::Command.callback"),
        (13, "m.py::Ctx.close"),
        (14, "unresolved::c"),
    ]


def test_a_value_typed_type_of_a_class_is_the_class(tmp_path: Path) -> None:
    # ``-> type[AsyncBackend]``, ``backend: type[Backend]``, ``Optional[Type[...]]``: the class
    # itself, so a method called on it is the class's (a classmethod or a static method), and
    # calling it constructs one; ``type[M]`` of a type variable bound to a class is that class;
    # ``type[A | B]`` names no one class
    edges = build(
        tmp_path,
        {
            "b.py": """
                from typing import Optional, Type, TypeVar, Union

                class AsyncBackend:
                    @classmethod
                    def sleep(cls, delay): ...
                    def run(self): ...

                class Other:
                    @classmethod
                    def sleep(cls, delay): ...

                M = TypeVar("M", bound="AsyncBackend")

                def get_backend() -> type[AsyncBackend]:
                    return AsyncBackend

                def pick(
                    kind: Optional[Type[AsyncBackend]],
                    both: type[Union[AsyncBackend, Other]],
                    bound: type[M],
                ):
                    get_backend().sleep(1)
                    kind.sleep(2)
                    backend = get_backend()
                    backend().run()
                    both.sleep(3)
                    bound.sleep(4)
            """,
        },
    )
    assert triples(edges, "calls", "b.py::pick") == {
        ("b.py::pick", "calls", "b.py::get_backend"),
        ("b.py::pick", "calls", "b.py::AsyncBackend.sleep"),
        ("b.py::pick", "calls", "b.py::AsyncBackend"),
        ("b.py::pick", "calls", "b.py::AsyncBackend.run"),
        ("b.py::pick", "calls", "unresolved::?.sleep"),  # both: no one class
    }


def test_a_site_resolution_raises_on_is_left_out_and_said_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A bug in resolution (here injected: looking up ``broken`` raises, as pyparsing's
    # self-annotated property once did with a RecursionError) costs that one site, with a
    # warning naming it; every other edge of the file is resolved as before
    files = {
        "p.py": """
            class Engine:
                def start(self):
                    pass

                def broken(self):
                    pass

            def drive(engine: Engine):
                engine.broken()
                engine.start()
        """,
    }
    member = Resolver.member

    def failing(self: Resolver, value: Value, name: str) -> Value | None:
        if name == "broken":
            raise RecursionError("maximum recursion depth exceeded")
        return member(self, value, name)

    monkeypatch.setattr(Resolver, "member", failing)
    monkeypatch.delenv("ASTRAG_DEBUG", raising=False)
    with caplog.at_level(logging.WARNING, logger="astrag"):
        edges = build(tmp_path / "a", files)
    assert targets(edges, "calls", "p.py::drive") == {"p.py::Engine.start"}
    assert "p.py::Engine" in targets(edges, "references", "p.py::drive")
    assert [r.getMessage().split(";")[0] for r in caplog.records] == [
        "astrag: could not resolve p.py:9 (RecursionError: maximum recursion depth exceeded)"
    ]
    # ASTRAG_DEBUG: the error itself, for a report
    monkeypatch.setenv("ASTRAG_DEBUG", "1")
    with pytest.raises(RecursionError):
        build(tmp_path / "b", files)
