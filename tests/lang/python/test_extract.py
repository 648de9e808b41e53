"""The Python frontend on small inline snippets: exact facts, real tree-sitter, no mocks."""

from __future__ import annotations

import textwrap

import pytest

from astrag.graph.facts import Binding, DefKind, FileFacts, Import, Param, Reference, RefKind
from astrag.lang.python.extract import extract


def facts(source: str) -> FileFacts:
    return extract("pkg/mod.py", textwrap.dedent(source).lstrip("\n").encode())


def definition(result: FileFacts, qualname: str, index: int = 0):
    return [d for d in result.definitions if d.qualname == qualname][index]


def refs(result: FileFacts, kind: RefKind) -> list[tuple]:
    return [(r.chain, r.scope, r.line, r.column) for r in result.references if r.kind is kind]


# ---------------------------------------------------------------------------- definitions


def test_definition_kinds_qualnames_and_parents() -> None:
    result = facts(
        """
        class Outer:
            class Inner:
                def m(self): ...
            def method(self):
                def helper(): ...
        def top():
            class Local: ...
        """
    )
    found = [(d.kind, d.qualname, d.parent) for d in result.definitions]
    assert found == [
        (DefKind.CLASS, "Outer", ""),
        (DefKind.CLASS, "Outer.Inner", "Outer"),
        (DefKind.METHOD, "Outer.Inner.m", "Outer.Inner"),
        (DefKind.METHOD, "Outer.method", "Outer"),
        (DefKind.FUNCTION, "Outer.method.helper", "Outer.method"),
        (DefKind.FUNCTION, "top", ""),
        (DefKind.CLASS, "top.Local", "top"),
    ]


def test_decorated_definition_starts_at_def_line() -> None:
    source = "@decorator\ndef f():\n    return 1\n"
    result = extract("m.py", source.encode())
    f = definition(result, "f")
    assert (f.start_line, f.end_line) == (2, 3)
    assert (f.start_byte, f.end_byte) == (source.index("def"), len(source) - 1)


def test_signatures_are_headers_on_one_line() -> None:
    result = facts(
        """
        def f(a: int,
              b=1,  # why b
              ) -> str:
            pass
        async def g(): pass
        class Foo(Base, metaclass=M):
            pass
        """
    )
    assert definition(result, "f").signature == "def f(a: int, b=1,) -> str"
    assert definition(result, "g").signature == "async def g()"
    assert definition(result, "Foo").signature == "class Foo(Base, metaclass=M)"


def test_docstrings_are_cleaned_and_module_docstring_is_separate() -> None:
    result = facts(
        '''
        """Module doc."""
        class A:
            """Class doc.

            Detail.
                Indented detail.
            """
        def f():
            # a comment before the docstring
            r"""Raw \\d doc."""
        def g():
            x = "not a docstring"
        '''
    )
    assert result.docstring == "Module doc."
    assert definition(result, "A").docstring == "Class doc.\n\nDetail.\n    Indented detail."
    assert definition(result, "f").docstring == "Raw \\d doc."
    assert definition(result, "g").docstring == ""


def test_decorators_and_modifiers() -> None:
    result = facts(
        """
        class A:
            def __init__(self): ...
            @staticmethod
            async def s(): ...
            @classmethod
            def c(cls): ...
            @property
            def p(self): ...
            @p.setter
            def p(self, value): ...
            @functools.cached_property
            def cp(self): ...
            @abc.abstractmethod
            def a(self): ...
            @overload
            def o(self): ...
            def gen(self):
                yield 1
        """
    )
    modifiers = {(d.qualname, d.decorators): d.modifiers for d in result.definitions}
    assert modifiers == {
        ("A", ()): (),
        ("A.__init__", ()): ("constructor",),
        ("A.s", ("staticmethod",)): ("async", "static"),
        ("A.c", ("classmethod",)): ("classmethod",),
        ("A.p", ("property",)): ("getter",),
        ("A.p", ("p.setter",)): ("setter",),
        ("A.cp", ("functools.cached_property",)): ("getter",),
        ("A.a", ("abc.abstractmethod",)): ("abstract",),
        ("A.o", ("overload",)): ("overload",),
        ("A.gen", ()): ("generator",),
    }


def test_duplicate_qualnames_are_all_emitted() -> None:
    result = facts(
        """
        if FLAG:
            def f(): ...
        else:
            def f(): ...
        """
    )
    assert [d.qualname for d in result.definitions] == ["f", "f"]


def test_exported_and_visibility_follow_naming() -> None:
    result = facts(
        """
        def public(): ...
        def _protected(): ...
        def __private(): ...
        def __dunder__(): ...
        """
    )
    found = [(d.name, d.exported, d.visibility) for d in result.definitions]
    assert found == [
        ("public", True, "public"),
        ("_protected", False, "protected"),
        ("__private", False, "private"),
        ("__dunder__", True, "public"),
    ]


def test_params_kinds_annotations_and_defaults() -> None:
    result = facts(
        """
        class A:
            def m(self, a: int, /, b: "mod.Foo" = 1, *args: Foo, c: Optional[Bar], d=2, **kw):
                ...
        """
    )
    assert definition(result, "A.m").params == (
        Param("self", None, False, "positional_only"),
        Param("a", ("int",), False, "positional_only"),
        Param("b", ("mod", "Foo"), True, "positional"),
        Param("args", ("Foo",), False, "var_positional"),
        Param("c", ("Bar",), False, "keyword_only"),
        Param("d", None, True, "keyword_only"),
        Param("kw", None, False, "var_keyword"),
    )


def test_bare_star_makes_keyword_only_params() -> None:
    result = facts("def f(a, *, b): ...\n")
    assert [p.kind for p in definition(result, "f").params] == ["positional", "keyword_only"]


def test_return_annotation_principal() -> None:
    result = facts(
        """
        def f() -> "mod.Foo": ...
        def g() -> list[Foo]: ...
        def h(): ...
        """
    )
    returns = [d.returns for d in result.definitions]
    assert returns == [("mod", "Foo"), ("Foo", "[]"), None]


def test_class_bases_skip_keywords_and_unwrap_generics() -> None:
    result = facts("class A(Base, mod.Mixin, Generic[T], Repo[User], metaclass=Meta): ...\n")
    assert definition(result, "A").bases == (
        ("Base",),
        ("mod", "Mixin"),
        ("Generic",),
        ("Repo",),
    )


def test_module_variables_first_per_name_with_type_and_value() -> None:
    result = facts(
        """
        X = Foo()
        X = 2
        Y: int = 1
        Z = mod.make()
        W = a.b().c
        V += 1
        if FLAG:
            IN_IF = 1
        try:
            IN_TRY = await fetch()
        except Exception:
            pass
        def f():
            LOCAL = 1
        A, B = 1, 2
        """
    )
    variables = [
        (d.name, d.start_line, d.type, d.value)
        for d in result.definitions
        if d.kind is DefKind.VARIABLE
    ]
    assert variables == [
        ("X", 1, None, ("Foo()",)),
        ("Y", 3, ("int",), None),
        ("Z", 4, None, ("mod", "make()")),
        ("W", 5, None, ("a", "b()", "c")),
        ("V", 6, None, None),
        ("IN_IF", 8, None, None),
        ("IN_TRY", 10, None, ("fetch()",)),
        ("A", 15, None, None),
        ("B", 15, None, None),
    ]


def test_variable_signature_is_first_line_truncated() -> None:
    result = facts(f"X = {{\n    'a': 1,\n}}\nLONG = '{'x' * 300}'\n")
    assert definition(result, "X").signature == "X = {"
    assert definition(result, "X").end_line == 3
    assert len(definition(result, "LONG").signature) == 200


def test_class_fields_from_body_and_self_assignments() -> None:
    result = facts(
        """
        class A:
            x: int = 0
            y = Foo()
            def __init__(self, repo: Repo):
                self.x = 1
                self.repo = repo
                self.z: "Bar" = make()
                self.repo = None
                other.w = 1
        """
    )
    fields = [
        (d.qualname, d.parent, d.start_line, d.type, d.value)
        for d in result.definitions
        if d.kind is DefKind.FIELD
    ]
    assert fields == [
        ("A.x", "A", 2, ("int",), None),
        ("A.y", "A", 3, None, ("Foo()",)),
        ("A.repo", "A", 6, None, ("repo",)),
        ("A.z", "A", 7, ("Bar",), ("make()",)),
    ]


def test_fields_typed_by_a_later_assignment_loop_with_and_cls_targets() -> None:
    result = facts(
        """
        class A:
            def __init__(self):
                self.h = None
            def later(self):
                self.h = Headers()
                self.h = Other()
                with open(p) as self.f: pass
                for self.i in range(3): pass
            @classmethod
            def c(cls):
                cls.k = Foo()
        """
    )
    fields = [
        (d.qualname, d.start_line, d.value) for d in result.definitions if d.kind is DefKind.FIELD
    ]
    assert fields == [
        ("A.h", 3, ("Headers()",)),
        ("A.f", 7, None),
        ("A.i", 8, None),
        ("A.k", 11, ("Foo()",)),
    ]


def test_dunder_all_static_list() -> None:
    assert facts("__all__ = ['a', \"b\"]\n__all__ += ('c',)\n").all_names == ("a", "b", "c")
    assert facts("__all__ = ['a'] + other.__all__\n").all_names is None
    assert facts("x = 1\n").all_names is None


# ---------------------------------------------------------------------------- annotations


@pytest.mark.parametrize(
    ("annotation", "principal"),
    [
        ("Foo", ("Foo",)),
        ("mod.Foo", ("mod", "Foo")),
        ("Optional[Foo]", ("Foo",)),
        ("typing.Optional[mod.Foo]", ("mod", "Foo")),
        ("Foo | None", ("Foo",)),
        ("None | Foo", ("Foo",)),
        ("Union[Foo, None]", ("Foo",)),
        ("Annotated[Foo, Field(gt=0)]", ("Foo",)),
        ("Final[Foo]", ("Foo",)),
        ("ClassVar[Foo]", ("Foo",)),
        ('"Foo"', ("Foo",)),
        ('"mod.Foo"', ("mod", "Foo")),
        ('Optional["Foo"]', ("Foo",)),
        ("Foo[int]", ("Foo",)),
        ("list[Foo]", ("Foo", "[]")),
        ("Dict[str, Foo]", ("Foo", "{}")),  # a mapping to Foo values
        ("Iterable[Foo]", ("Foo", "[]")),
        ("Sequence[Optional[Foo]]", ("Foo", "[]")),
        ("list[list[Foo]]", None),
        ("Callable[[Foo], Bar]", None),
        ("type[Foo]", ("typeof", "Foo")),  # the class itself
        ("type[list[Foo]]", None),
        ("typing.List[Foo]", ("Foo", "[]")),
        ("Foo | Bar", None),
        ("Union[Foo, Bar]", None),
        ("Any", None),
        ("None", None),
    ],
)
def test_principal_type_of_annotations(annotation: str, principal: tuple | None) -> None:
    assert definition(facts(f"x: {annotation}\n"), "x").type == principal


def test_type_references_inside_annotations_and_strings() -> None:
    result = facts(
        """
        def f(a: Optional["Foo"], b: dict[str, mod.Bar]) -> Literal["x"]:
            c: Annotated[Baz, "meta"] = 1
        """
    )
    assert refs(result, RefKind.TYPE) == [
        (("Optional",), "f", 1, 10),
        (("Foo",), "f", 1, 20),
        (("dict",), "f", 1, 30),
        (("str",), "f", 1, 35),
        (("mod", "Bar"), "f", 1, 44),
        (("Literal",), "f", 1, 53),
        (("Annotated",), "f", 2, 8),
        (("Baz",), "f", 2, 18),
    ]


# ---------------------------------------------------------------------------- references


def test_call_chains_positions_and_arguments() -> None:
    result = facts(
        """
        foo(1, 2, key=3)
        a.b.c(*args)
        make_app().run(**kw)
        x[0].append(1)
        super().m()
        (a or b).c()
        """
    )
    calls = [
        (r.chain, r.line, r.column, r.arg_count, r.keywords)
        for r in result.references
        if r.kind is RefKind.CALL
    ]
    assert calls == [
        (("foo",), 1, 1, 2, ("key",)),
        (("a", "b", "c"), 2, 5, -1, ()),
        (("make_app",), 3, 1, 0, ()),
        (("make_app()", "run"), 3, 12, -1, ()),
        (("x", "[k]", "append"), 4, 6, 1, ()),
        (("super",), 5, 1, 0, ()),
        (("super()", "m"), 5, 9, 0, ()),
        (("?", "c"), 6, 10, 0, ()),
    ]


def test_decorators_are_calls_in_the_enclosing_scope() -> None:
    result = facts(
        """
        class A:
            @app.route("/", methods=["GET"])
            @x.setter
            def m(self): ...
        """
    )
    calls = [
        (r.chain, r.scope, r.arg_count, r.keywords)
        for r in result.references
        if r.kind is RefKind.CALL
    ]
    assert calls == [(("app", "route"), "A", 1, ("methods",)), (("x", "setter"), "A", 1, ())]


def test_inherit_references_scope_is_outside_the_class() -> None:
    result = facts(
        """
        def factory():
            class A(Base, mod.Mixin):
                pass
        """
    )
    assert refs(result, RefKind.INHERIT) == [
        (("Base",), "factory", 2, 13),
        (("mod", "Mixin"), "factory", 2, 23),
    ]


def test_reads_are_outer_chains_of_non_local_non_builtin_names() -> None:
    result = facts(
        """
        def f(param):
            local = CONST + param
            use(Model, a.b.c, self.x, len, local)
            use(Model)
            return [i for i in items if i], key.name
        class A:
            kind = Kind.A
        """
    )
    assert refs(result, RefKind.READ) == [
        (("CONST",), "f", 2, 13),
        (("Model",), "f", 3, 9),
        (("a", "b", "c"), "f", 3, 20),
        (("self", "x"), "f", 3, 28),
        (("items",), "f", 5, 24),
        (("key", "name"), "f", 5, 41),
        # a field whose whole value is a name is an alias of it (facts.ALIAS): the field reads it
        (("Kind", "A"), "A.kind", 7, 17),
    ]


def test_reads_skip_targets_keywords_callees_and_annotations() -> None:
    result = facts(
        """
        target = call(keyword=VALUE)
        obj.attr = 1
        x: Foo | Bar = 1
        """
    )
    assert refs(result, RefKind.READ) == [(("VALUE",), "", 1, 23)]


def test_closure_variables_are_local_for_reads() -> None:
    result = facts(
        """
        def outer(x):
            def inner():
                return x, GLOBAL
            return inner
        """
    )
    assert refs(result, RefKind.READ) == [
        (("GLOBAL",), "outer.inner", 3, 19),
        (("inner",), "outer", 4, 12),
    ]


def test_reference_scopes() -> None:
    result = facts(
        """
        top()
        class A:
            body()
            def m(self):
                inside()
        """
    )
    assert [(r.chain, r.scope) for r in result.references] == [
        (("top",), ""),
        (("body",), "A"),
        (("inside",), "A.m"),
    ]


# ---------------------------------------------------------------------------- imports


def test_imports_every_form() -> None:
    result = facts(
        """
        import a.b.c, d as e
        from m import f as g, h
        from . import x
        from ..pkg.m import (
            y,
        )
        from m import *
        from __future__ import annotations
        if TYPE_CHECKING:
            from t import T
        try:
            import fast
        except ImportError:
            fast = None
        def fn():
            import inner
        """
    )
    assert result.imports == (
        Import("a.b.c", None, "a", 1),
        Import("d", None, "e", 1),
        Import("m", "f", "g", 2),
        Import("m", "h", "h", 2),
        Import("", "x", "x", 3, level=1),
        Import("pkg.m", "y", "y", 5, level=2),
        Import("m", "*", "", 7),
        Import("__future__", "annotations", "annotations", 8),
        Import("t", "T", "T", 10, type_only=True),
        Import("fast", None, "fast", 12),
        Import("inner", None, "inner", 16, scope="fn"),
    )


# ---------------------------------------------------------------------------- bindings


def test_bindings_of_every_local_form() -> None:
    result = facts(
        """
        def f(a: Repo, *args):
            global G
            G = 1
            x = Foo()
            y: Bar = make()
            y += 1
            for i, (j, k) in pairs: pass
            with open(p) as fh: pass
            try: pass
            except E as err: pass
            if (n := 1): pass
            s, *rest = a
            [c for c in a]
            key = lambda item: item
        X = 1
        """
    )
    assert result.bindings == (
        Binding("f", "a", 1, ("Repo",)),
        Binding("f", "args", 1),
        Binding("f", "x", 4, None, ("Foo()",)),
        Binding("f", "y", 5, ("Bar",), ("make()",)),
        Binding("f", "y", 6),
        Binding("f", "i", 7),
        Binding("f", "j", 7),
        Binding("f", "k", 7),
        Binding("f", "fh", 8, None, ("open()", "__enter__()")),
        Binding("f", "err", 10, None, ("E()",)),
        Binding("f", "n", 11),
        Binding("f", "s", 12),
        Binding("f", "rest", 12),
        Binding("f", "c", 13, None, ("a", "[i]")),
        Binding("f", "key", 14),
        Binding("f", "item", 14),
    )


# ---------------------------------------------------------------------------- file facts


def test_errors_counted_and_recovered_definitions_kept() -> None:
    result = facts(
        """
        def good():
            pass
        def bad(:
            pass
        class Later:
            def m(self): ...
        """
    )
    assert result.errors > 0
    assert "good" in [d.qualname for d in result.definitions]
    assert facts("def ok(): pass\n").errors == 0


def test_a_name_the_parser_inserted_defines_and_binds_nothing() -> None:
    # ``:`` alone parses as an annotated assignment to a MISSING identifier (an empty name)
    result = facts(":\n    f.clean(None)\n")
    assert result.definitions == ()
    assert refs(result, RefKind.CALL) == [(("f", "clean"), "", 2, 7)]
    result = facts("def f():\n    a, : int = 3\n")
    assert [b.name for b in result.bindings] == ["a"]


def test_values_of_copies_comprehensions_casts_and_zipped_targets() -> None:
    result = facts(
        """
        def f(xs, ys):
            a = sorted(xs, key=len)
            b = tuple(r for r in xs if r)
            c = [r.name for r in xs]
            d = list(map(str, xs))
            e = typing.cast(Foo, ys)
            for i, x in enumerate(xs): pass
            for p, q in zip(xs, ys): pass
            s = xs[1:]
            t = xs[0, 1]
        """
    )
    assert [(b.name, b.value) for b in result.bindings if b.line > 1] == [
        ("a", ("xs",)),
        ("b", ("xs",)),
        ("r", ("xs", "[i]")),
        ("c", None),
        ("r", ("xs", "[i]")),
        ("d", ("list()",)),
        ("e", ("Foo()",)),
        ("i", None),
        ("x", ("xs", "[i]")),
        ("p", ("xs", "[i]")),
        ("q", ("ys", "[i]")),
        ("s", ("xs",)),
        ("t", None),
    ]


def test_line_count_and_language() -> None:
    assert extract("m.py", b"a = 1\nb = 2\n").lines == 2
    assert extract("m.py", b"a = 1\nb = 2").lines == 2
    assert extract("m.py", b"").lines == 0
    assert extract("m.py", b"").language == "python"


def test_columns_count_characters_not_bytes() -> None:
    result = extract("m.py", "s = 'é'; use(NAME)\n".encode())
    assert [(r.chain, r.column) for r in result.references] == [
        (("use",), 10),
        (("NAME",), 14),
    ]


def test_call_reference_exact_fields() -> None:
    result = facts("f()\n")
    assert result.references == (Reference(RefKind.CALL, ("f",), "", 1, 1, 0, ()),)


def test_return_statements_bind_the_pseudo_name_return() -> None:
    result = facts(
        """
        def make():
            def inner():
                return 3
            if x:
                return Foo()
            return self_made.build()
        """
    )
    returns = [b for b in result.bindings if b.name == "return"]
    assert returns == [
        Binding("make", "return", 5, None, ("Foo()",)),
        Binding("make", "return", 6, None, ("self_made", "build()")),
    ]


def test_parenthesised_conditional_values_keep_their_chain() -> None:
    result = facts(
        """
        def f(title):
            text = (
                Text.from_markup(title) if isinstance(title, str) else title.copy()
            )
        """
    )
    assert Binding("f", "text", 2, None, ("Text", "from_markup()")) in result.bindings


def test_an_alias_reads_its_value_and_is_marked_rebound_when_bound_again() -> None:
    result = facts(
        """
        from other import shadowed
        def real(): ...
        a = b = real
        once = mod.real
        later = None
        later = real
        shadowed = real
        kept = real
        def reset():
            global kept
            kept = None
        wrapped = wrap(real)
        class C:
            def m(self): ...
            n = m
        """
    )
    marks = {
        q: definition(result, q).modifiers
        for q in ("a", "b", "once", "later", "shadowed", "kept", "wrapped", "C.n")
    }
    assert marks == {
        "a": ("alias",),
        "b": ("alias",),
        "once": ("alias",),
        "later": ("alias", "rebound"),  # assigned twice
        "shadowed": ("alias", "rebound"),  # imported under the same name
        "kept": ("alias", "rebound"),  # a function assigns it, declared global
        "wrapped": (),  # a call's result, not a name
        "C.n": ("alias",),
    }
    # the alias reads its value, once per name it gets; a call's argument is the module's read
    assert refs(result, RefKind.READ) == [
        (("real",), "a", 3, 9),
        (("real",), "b", 3, 9),
        (("mod", "real"), "once", 4, 12),
        (("real",), "later", 6, 9),
        (("real",), "shadowed", 7, 12),
        (("real",), "kept", 8, 8),
        (("real",), "", 12, 16),
        (("m",), "C.n", 15, 9),
    ]
