"""The resolver core knows no language: a room's semantics alone decides what names mean.

A small made-up language ("toy"), registered for these tests only, supplies semantics unlike
Python's and TypeScript's in every hook the core asks: Go-like exports (capitalised names) and
implicit interfaces (method sets), Java-like overloads chosen by arity, its own receiver name
and runtime globals. The facts are written by hand, as a frontend would produce them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import pytest

from astrag import lang
from astrag.graph.facts import (
    Definition,
    DefKind,
    FileFacts,
    Import,
    Param,
    Reference,
    RefKind,
)
from astrag.graph.run import resolve_all
from astrag.graph.semantics import Receiver
from astrag.graph.values import ClassKey, Value


class ToySemantics:
    language = "toy"
    receivers: ClassVar[Mapping[str, Receiver]] = {"me": Receiver.INSTANCE}
    class_body_is_scope = False
    members_in_scope = False
    receiver_types = frozenset({("Me",)})
    receiver_values = frozenset({("me",)})
    constructor = "init"
    builtin_collections: ClassVar[dict] = {"map": ("table", {"fetch": "value"})}
    element_methods: ClassVar[dict[str, str]] = {}

    def global_name(self, r, t, name: str) -> Value | None:
        return ("ext", f"toy.{name}") if name == "print" else None

    def import_value(self, r, t, imp: Import) -> Value | None:
        path = f"{imp.module}.toy"
        if path not in r.modules.paths:
            return ("ext", imp.module)
        return r.module_member(path, imp.name) if imp.name else ("mod", path)

    def star_member(self, r, t, imp: Import, name: str) -> Value | None:
        return None

    def star_import_target(self, r, t, imp: Import) -> Value | None:
        return None

    def module_member(self, r, t, name: str) -> Value | None:
        qual = t.children.get("", {}).get(name)
        return ("sym", t.path, qual) if qual is not None and name[:1].isupper() else None

    def namespace_member(self, r, dotted: str, name: str) -> Value | None:
        return None

    def declares_return(self, d: Definition) -> bool:
        return d.returns is not None

    def linearise(
        self, r, own: ClassKey, bases: Sequence[ClassKey], base_mros: Sequence[list]
    ) -> list[ClassKey]:
        linear = [own]
        for mro in base_mros:
            linear.extend(c for c in mro if c not in linear)
        return linear

    def implied_bases(self, r, t, qual: str) -> Sequence[Value]:
        """Every interface of the file whose methods the class has (Go's method sets)."""
        own = set(t.children.get(qual, {}))
        return [
            ("sym", t.path, q)
            for q, d in t.defs.items()
            if d.kind == DefKind.INTERFACE and own >= set(t.children.get(q, {}))
        ]

    def call_target(self, r, t, ref: Reference, denot: Value) -> Value | None:
        """The overload (``f``, ``f#2``...) whose parameter count is the call's."""
        t = r.table(denot[1])
        overloads = [d for d in t.facts.definitions if d.qualname == denot[2]]
        for i, d in enumerate(overloads):
            if len(d.params) == ref.arg_count:
                return ("sym", denot[1], denot[2] if i == 0 else f"{denot[2]}#{i + 1}")
        return denot

    def module_is_dynamic(self, r, t) -> bool:
        return False


@pytest.fixture(autouse=True)
def toy_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(lang._SEMANTICS, "toy", ToySemantics())


def _def(kind: DefKind, qualname: str, line: int, **extra: object) -> Definition:
    parent, _, name = qualname.rpartition(".")
    start, end = line * 100, line * 100 + 50
    return Definition(kind, name, qualname, parent, line, line, start, end, **extra)  # type: ignore[arg-type]


def _call(chain: tuple[str, ...], scope: str, line: int, args: int = 0) -> Reference:
    return Reference(RefKind.CALL, chain, scope, line, 1, arg_count=args)


SHAPES = FileFacts(
    path="shapes.toy",
    language="toy",
    lines=20,
    errors=0,
    definitions=(
        _def(DefKind.INTERFACE, "Sized", 1),
        _def(DefKind.METHOD, "Sized.size", 2),
        _def(DefKind.CLASS, "Box", 3),
        _def(DefKind.METHOD, "Box.init", 4),
        _def(DefKind.METHOD, "Box.size", 5),
        _def(DefKind.METHOD, "Box.grow", 6),
        _def(DefKind.METHOD, "Box.put", 7, params=(Param("a"),)),
        _def(DefKind.METHOD, "Box.put", 8, params=(Param("a"), Param("b"))),
        _def(DefKind.FUNCTION, "helper", 9),
        _def(DefKind.FUNCTION, "Make", 10),
    ),
    references=(
        _call(("me", "size"), "Box.grow", 6),
        _call(("me", "put"), "Box.grow", 6, args=2),
        _call(("print",), "Box.grow", 6),
        Reference(RefKind.NEW, ("Box",), "helper", 9, 1, arg_count=0),
    ),
)
MAIN = FileFacts(
    path="main.toy",
    language="toy",
    lines=10,
    errors=0,
    definitions=(_def(DefKind.FUNCTION, "main", 1),),
    imports=(
        Import("shapes", "Make", "Make", 1),
        Import("shapes", "helper", "helper", 1),
        Import("fmt", None, "fmt", 1),
    ),
    references=(
        Reference(RefKind.NEW, ("Box",), "main", 2, 1),
        _call(("Make",), "main", 3),
        _call(("helper",), "main", 4),
        _call(("fmt", "Println"), "main", 5),
        _call(("me", "size"), "main", 6),
    ),
)


def test_a_rooms_semantics_decides_every_step() -> None:
    resolved, placeholders = resolve_all({"shapes.toy": SHAPES, "main.toy": MAIN})
    shapes = {(e.source, str(e.kind), e.target) for e in resolved["shapes.toy"].edges}
    assert (
        "shapes.toy::Box",
        "implements",
        "shapes.toy::Sized",
    ) in shapes  # implied by the method set
    calls = {(e.target, e.line) for e in resolved["shapes.toy"].edges if str(e.kind) == "calls"}
    # ``me`` is the receiver; put(a, b) picks the second overload; print is a runtime global;
    # ``new Box()`` calls the constructor the language names (``init``)
    assert calls == {
        ("shapes.toy::Box.size", 6),
        ("shapes.toy::Box.put#2", 6),
        ("external::toy.print", 6),
        ("shapes.toy::Box.init", 9),
    }
    main = {(e.target, e.line) for e in resolved["main.toy"].edges if str(e.kind) != "contains"}
    assert main == {
        ("shapes.toy::Make", 1),  # exported: capitalised
        ("unresolved::shapes.helper", 1),  # not exported
        ("external::fmt", 1),
        ("unresolved::Box", 2),  # not imported, so not visible
        ("shapes.toy::Make", 3),
        ("unresolved::helper", 4),
        ("external::fmt.Println", 5),
        ("unresolved::?.size", 6),  # ``me`` outside a class is unknown
    }
    assert resolved["main.toy"].depends_on == {"shapes.toy"}
    assert {p.id for p in placeholders} >= {"external::toy.print", "unresolved::?.size"}


class ImplicitThis(ToySemantics):
    """The toy language with Java's rule: methods see their classes' members by bare name."""

    members_in_scope = True


def test_methods_see_class_members_only_where_the_language_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    inner = FileFacts(
        path="inner.toy",
        language="toy",
        lines=10,
        errors=0,
        definitions=(
            _def(DefKind.CLASS, "Outer", 1),
            _def(DefKind.METHOD, "Outer.size", 2),
            _def(DefKind.CLASS, "Outer.Inner", 3),
            _def(DefKind.METHOD, "Outer.Inner.run", 4),
        ),
        references=(
            _call(("size",), "Outer.Inner.run", 4),
            _call(("print",), "Outer.Inner.run", 4),
        ),
    )

    def calls() -> set[str]:
        resolved, _ = resolve_all({"inner.toy": inner})
        return {e.target for e in resolved["inner.toy"].edges if str(e.kind) == "calls"}

    assert calls() == {"unresolved::size", "external::toy.print"}
    monkeypatch.setitem(lang._SEMANTICS, "toy", ImplicitThis())
    # the enclosing class's member, found from a nested class's method; a global still a global
    assert calls() == {"inner.toy::Outer.size", "external::toy.print"}
