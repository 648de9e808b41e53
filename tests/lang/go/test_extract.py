"""Exact facts the Go frontend records for small snippets."""

from __future__ import annotations

import textwrap

from astrag.graph.facts import Binding, DefKind, Import, RefKind
from astrag.lang import extract_facts, language_of
from astrag.lang.go.syntax import import_alias
from astrag.search.support import is_test_path


def facts(source: str, path: str = "a/a.go"):
    return extract_facts(path, textwrap.dedent(source).lstrip("\n").encode())


def test_go_files_are_go_and_test_files_are_tests() -> None:
    assert language_of("cmd/main.go") == "go"
    assert is_test_path("mux_test.go") and is_test_path("a/b/route_test.go")
    assert not is_test_path("a/testdata.go") and not is_test_path("contest.go")


def test_definitions_receivers_fields_and_interfaces() -> None:
    f = facts(
        """
        package a

        // Server serves.
        type Server struct {
            *Base
            pkg.Mixin
            name, addr string
            routes     []*Route
        }

        type Handler interface {
            io.Closer
            Serve(w Writer, r *Request) (int, error)
        }

        type Alias = Server

        var Default, other = New(), 2

        func New() *Server { return nil }

        func (s *Server) Start(args ...string) {}
        """
    )
    got = [(d.kind, d.qualname, d.parent, d.type, d.bases, d.returns) for d in f.definitions]
    assert got == [
        (DefKind.CLASS, "Server", "", None, (("Base",), ("pkg", "Mixin")), None),
        (DefKind.FIELD, "Server.Base", "Server", ("Base",), (), None),
        (DefKind.FIELD, "Server.Mixin", "Server", ("pkg", "Mixin"), (), None),
        (DefKind.FIELD, "Server.addr", "Server", ("string",), (), None),
        (DefKind.FIELD, "Server.name", "Server", ("string",), (), None),
        (DefKind.FIELD, "Server.routes", "Server", ("Route", "[]"), (), None),
        (DefKind.INTERFACE, "Handler", "", None, (("io", "Closer"),), None),
        (DefKind.METHOD, "Handler.Serve", "Handler", None, (), ("int",)),
        (DefKind.TYPE_ALIAS, "Alias", "", ("Server",), (), None),
        (DefKind.VARIABLE, "Default", "", None, (), None),
        (DefKind.VARIABLE, "other", "", None, (), None),
        (DefKind.FUNCTION, "New", "", None, (), ("Server",)),
        (DefKind.METHOD, "Server.Start", "Server", None, (), None),
    ]
    by_name = {d.qualname: d for d in f.definitions}
    assert by_name["Server"].docstring == "Server serves."
    assert by_name["Default"].value == ("New()",) and by_name["other"].value is None
    assert [d.exported for d in f.definitions if d.kind == DefKind.VARIABLE] == [True, False]
    start = by_name["Server.Start"]
    assert start.signature == "func (s *Server) Start(args ...string)"
    assert [(p.name, p.annotation, p.kind) for p in start.params] == [
        ("args", ("string",), "var_positional")
    ]
    assert Binding("Server.Start", "s", 22, type=("Server",)) in f.bindings


def test_imports_by_name_alias_blank_and_dot() -> None:
    f = facts(
        """
        package a

        import (
            "net/http"
            y "gopkg.in/yaml.v3"
            _ "embed"
            . "strings"
            "github.com/x/mod/v2"
        )
        """
    )
    assert f.imports == (
        Import(module="net/http", name=None, alias="http", line=4),
        Import(module="gopkg.in/yaml.v3", name=None, alias="y", line=5),
        Import(module="embed", name=None, alias="", line=6),
        Import(module="strings", name="*", alias="", line=7),
        Import(module="github.com/x/mod/v2", name=None, alias="mod", line=8),
    )
    assert import_alias("github.com/go-chi/chi/v5") == "chi"


def test_shadowed_locals_get_names_of_their_own() -> None:
    f = facts(
        """
        package a

        func F(r *Router) {
            r.Handle(func(w Writer, r *Request) {
                r.Body()
            })
            for _, r := range r.routes {
                r.Match()
            }
            r.Serve()
        }
        """
    )
    assert [(b.name, b.type, b.value) for b in f.bindings] == [
        ("r", ("Router",), None),
        ("w", ("Writer",), None),
        ("r#2", ("Request",), None),
        ("r#3", None, ("r", "routes", "[i]")),
    ]
    calls = [(r.chain, r.line, r.column) for r in f.references if r.kind == RefKind.CALL]
    assert calls == [
        (("r", "Handle"), 4, 7),
        (("r#2", "Body"), 5, 11),
        (("r#3", "Match"), 8, 11),
        (("r", "Serve"), 10, 7),
    ]


def test_literals_conversions_and_instantiations_are_calls_of_a_type() -> None:
    f = facts(
        """
        package a

        func F(x any) {
            a := &T{k: 1}
            b := new(T)
            c := x.(*T)
            d := pkg.T{}
            e, ok := m[key]
            g := New[string]()
            h := fs[i]
            ch := <-c.Out
            t := string(b)
        }
        """
    )
    values = {b.name: b.value for b in f.bindings if b.scope == "F"}
    assert values == {
        "x": None,
        "a": ("T()",),
        "b": ("T()",),
        "c": ("T()",),
        "d": ("pkg", "T()"),
        "e": ("m", "[i]"),
        "ok": None,
        "g": ("New()",),
        "h": ("fs", "[i]"),
        "ch": ("c", "Out", "[i]"),
        "t": ("string()",),
    }
    # a conversion to a predeclared type is no call; a builtin function call is one
    calls = [r.chain for r in f.references if r.kind == RefKind.CALL]
    assert calls == [("new",), ("New",)]
    # the key of a struct literal is a field name, not a read of a variable
    reads = [r.chain for r in f.references if r.kind == RefKind.READ]
    assert ("k",) not in reads and ("m",) in reads


def test_call_sites_are_the_callee_name_in_characters() -> None:
    line = 'func F() { s := "é"; pkg.Do(s, 1); go g(); defer h(xs...) }'
    f = facts(f"package a\n\n{line}\n")
    calls = [(r.chain, r.column, r.arg_count) for r in f.references if r.kind == RefKind.CALL]
    column = {name: line.index(name) + 1 for name in ("Do(", "g(", "h(")}
    assert calls == [
        (("pkg", "Do"), column["Do("], 2),
        (("g",), column["g("], 0),
        (("h",), column["h("], -1),
    ]
    assert column["Do("] == 26  # "é" is one character, two bytes


def test_the_package_doc_comment_is_the_files_docstring() -> None:
    # the comment right above `package`, after a license header the tree lists first
    documented = facts(
        """
        // Copyright 2026 The Authors.
        // Licensed under the MIT license.

        // Package chi is a small, composable router.
        //
        // It builds on net/http.
        package chi
        """
    )
    assert documented.docstring == (
        "Package chi is a small, composable router.\n\nIt builds on net/http."
    )
    # a header separated from `package` by a blank line is not its doc
    assert facts("// Copyright 2026.\n\npackage chi\n").docstring == ""
    assert facts("package chi\n\n// Serve serves.\nfunc Serve() {}\n").docstring == ""
