"""One test per Go resolution rule, each on a small fixture module, asserting exact edges."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag.lang.go.signature import result_count
from tests.graph.graphs import build, targets, triples

GO_MOD = "module example.com/app\n\ngo 1.22\n"


def test_same_package_across_files_and_package_imports(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "util/util.go": """
                package util

                func Helper() int { return helper() }

                func helper() int { return 1 }
            """,
            "util/more.go": "package util\n\nfunc Other() { Helper() }\n",
            "main.go": """
                package main

                import (
                    "fmt"
                    u "example.com/app/util"
                )

                func main() {
                    u.Helper()
                    u.helper()
                    fmt.Println()
                }
            """,
        },
    )
    assert targets(edges, "calls", "util/more.go::Other") == {"util/util.go::Helper"}
    assert targets(edges, "calls", "util/util.go::Helper") == {"util/util.go::helper"}
    # an unexported name is invisible from another package: kept as unresolved, not guessed
    assert targets(edges, "calls", "main.go::main") == {
        "util/util.go::Helper",
        "unresolved::util/util.go.helper",
        "external::fmt.Println",
    }
    # an import points at the package's file named after its directory
    assert targets(edges, "imports", "main.go") == {"util/util.go", "external::fmt"}


def test_value_and_pointer_receivers_across_files(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "server.go": """
                package app

                type Server struct{ name string }

                func (s Server) Name() string { return s.name }
            """,
            "start.go": """
                package app

                func (s *Server) Start() { s.Name(); s.stop() }

                func (srv *Server) stop() {}

                func Run() {
                    s := &Server{}
                    s.Start()
                    v := Server{}
                    v.Start()
                    new(Server).stop()
                }
            """,
        },
    )
    assert targets(edges, "calls", "start.go::Server.Start") == {
        "server.go::Server.Name",
        "start.go::Server.stop",
    }
    # a builtin is external, like a standard-library function
    assert targets(edges, "calls", "start.go::Run") == {
        "start.go::Server.Start",
        "start.go::Server.stop",
        "external::new",
    }
    # the method's node lives in the file that declares it, under that file's module
    assert ("start.go", "contains", "start.go::Server.Start") in triples(edges, "contains")


def test_embedded_struct_promotes_methods_and_fields(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "base.go": """
                package app

                type Base struct{ ID int }

                func (b *Base) Save() {}

                type Inner struct{ Base }

                type Outer struct {
                    *Inner
                    extra int
                }
            """,
            "use.go": """
                package app

                func Use(o *Outer) int {
                    o.Save()
                    o.Inner.Save()
                    return o.ID
                }
            """,
        },
    )
    assert targets(edges, "calls", "use.go::Use") == {"base.go::Base.Save"}
    assert ("use.go::Use", "references", "base.go::Base.ID") in triples(edges, "references")
    assert targets(edges, "inherits", "base.go::Outer") == {"base.go::Inner"}
    assert targets(edges, "inherits", "base.go::Inner") == {"base.go::Base"}


def test_implicit_interfaces_from_method_sets(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "shape/shape.go": """
                package shape

                type Namer interface{ Name() string }

                type Shape interface {
                    Namer
                    Area(scale int) float64
                }
            """,
            "geo/geo.go": """
                package geo

                import "example.com/app/shape"

                type Square struct{}

                func (Square) Name() string { return "square" }

                func (s *Square) Area(scale int) float64 { return 1 }

                type Label struct{}

                func (Label) Name() string { return "label" }

                // Area with another arity: not Shape's Area
                func (Label) Area() float64 { return 0 }

                func Describe(s shape.Shape) string { return s.Name() }
            """,
        },
    )
    assert targets(edges, "implements", "geo/geo.go::Square") == {
        "shape/shape.go::Namer",
        "shape/shape.go::Shape",
    }
    assert targets(edges, "implements", "geo/geo.go::Label") == {"shape/shape.go::Namer"}
    # a call through an interface lands on the interface's method (as go/types says)
    assert targets(edges, "calls", "geo/geo.go::Describe") == {"shape/shape.go::Namer.Name"}
    assert targets(edges, "inherits", "shape/shape.go::Shape") == {"shape/shape.go::Namer"}


def test_interfaces_embedding_the_standard_librarys_are_implemented(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "flag.go": """
                package app

                import (
                    "fmt"
                    "sync"

                    "example.org/other/thing"
                )

                type Flag interface {
                    fmt.Stringer
                    Names() []string
                }

                type Failure interface {
                    error
                    Code() int
                }

                // Flush with a result: BoolFlag's Flush() returns none, so is another method
                type Flusher interface{ Flush() error }

                // embeds an interface whose methods cannot be seen: no type is said to
                // implement it
                type Opaque interface {
                    thing.Doer
                    Names() []string
                }

                type BoolFlag struct{ sync.Mutex }

                func (b *BoolFlag) String() string   { return "" }
                func (b *BoolFlag) Names() []string  { return nil }
                func (b *BoolFlag) Flush()            {}

                type Quiet struct{}

                func (Quiet) Names() []string { return nil }

                type Bad struct{}

                func (Bad) Error() string { return "" }
                func (Bad) Code() int     { return 1 }
            """,
        },
    )
    # BoolFlag embeds sync.Mutex, whose methods cannot be seen: its own still cover Flag
    assert targets(edges, "implements", "flag.go::BoolFlag") == {"flag.go::Flag"}
    # Quiet lacks fmt.Stringer's String
    assert targets(edges, "implements", "flag.go::Quiet") == set()
    assert targets(edges, "implements", "flag.go::Bad") == {"flag.go::Failure"}


def test_generics_instantiation_and_type_parameters(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "list/list.go": """
                package list

                type List[T any] struct{ items []T }

                func New[T any]() *List[T] { return &List[T]{} }

                func (l *List[T]) Add(v T) { l.grow() }

                func (l *List[T]) grow() {}

                func Map[T, U any](l *List[T], f func(T) U) *List[U] { return New[U]() }
            """,
            "main.go": """
                package main

                import "example.com/app/list"

                type T struct{}

                func (T) Add() {}

                func main() {
                    l := list.New[string]()
                    l.Add("a")
                    m := list.Map[string, int](l, nil)
                    m.Add(1)
                }
            """,
        },
    )
    assert targets(edges, "calls", "main.go::main") == {
        "list/list.go::New",
        "list/list.go::List.Add",
        "list/list.go::Map",
    }
    assert targets(edges, "calls", "list/list.go::List.Add") == {"list/list.go::List.grow"}
    assert targets(edges, "calls", "list/list.go::Map") == {"list/list.go::New"}


def test_closures_shadowing_go_defer_and_function_values(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "app.go": """
                package app

                type Router struct{ fn func() }

                func (r *Router) Handle(h func(r *Request)) {}

                func (r *Router) Serve() {}

                type Request struct{}

                func (q *Request) Body() {}

                func helper() {}

                func Setup() {
                    r := &Router{}
                    r.Handle(func(r *Request) {
                        r.Body()
                    })
                    r.Serve()
                    go helper()
                    defer r.Serve()
                    f := helper
                    f()
                    r.fn()
                    r.Handle(nil)
                }
            """,
        },
    )
    assert targets(edges, "calls", "app.go::Setup") == {
        "app.go::Router.Handle",
        "app.go::Request.Body",
        "app.go::Router.Serve",
        "app.go::helper",
        "app.go::Router.fn",
    }
    sites = {(e.line, e.target) for e in edges if str(e.kind) == "calls"}
    assert (18, "app.go::Request.Body") in sites  # the closure's r, not the router r
    assert (20, "app.go::Router.Serve") in sites  # after the closure: the router again


def test_multiple_results_type_switch_and_composite_literals(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "app.go": """
                package app

                type Node struct{}

                func (n *Node) Walk() {}

                type Leaf struct{}

                func (l Leaf) Fall() {}

                func Find(name string) (*Node, error) { return nil, nil }

                func Use(x any) {
                    n, err := Find("a")
                    n.Walk()
                    _ = err
                    switch v := x.(type) {
                    case *Node:
                        v.Walk()
                    case Leaf:
                        v.Fall()
                    }
                    (&Node{}).Walk()
                    Leaf{}.Fall()
                    x.(*Node).Walk()
                }
            """,
        },
    )
    calls = sorted(
        (e.line, e.target) for e in edges if e.source == "app.go::Use" and str(e.kind) == "calls"
    )
    assert calls == [
        (14, "app.go::Find"),
        (15, "app.go::Node.Walk"),
        (19, "app.go::Node.Walk"),
        (21, "app.go::Leaf.Fall"),
        (23, "app.go::Node.Walk"),
        (24, "app.go::Leaf.Fall"),
        (25, "app.go::Node.Walk"),
    ]


def test_nested_module_replace_and_dot_import(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD + "\nreplace example.com/api => ./api\n",
            "api/go.mod": "module example.com/api\n",
            "api/api.go": "package api\n\nfunc Call() {}\n",
            "tools/go.mod": "module example.com/tools\n",
            "tools/t/t.go": "package t\n\nfunc Tool() {}\n",
            "main.go": """
                package main

                import (
                    "example.com/api"
                    . "example.com/tools/t"
                    _ "example.com/app/missing"
                )

                func main() {
                    api.Call()
                    Tool()
                }
            """,
        },
    )
    assert targets(edges, "calls", "main.go::main") == {"api/api.go::Call", "tools/t/t.go::Tool"}
    # a missing package inside the module is no external package
    assert "unresolved::example.com/app/missing" in targets(edges, "imports", "main.go")


def test_test_files_see_the_package_but_not_the_other_way(tmp_path: Path) -> None:
    edges = build(
        tmp_path,
        {
            "go.mod": GO_MOD,
            "app.go": "package app\n\nfunc Run() { fixture() }\n",
            "app_test.go": "package app\n\nfunc fixture() {}\n\nfunc TestRun() { Run() }\n",
        },
    )
    assert targets(edges, "calls", "app_test.go::TestRun") == {"app.go::Run"}
    assert targets(edges, "calls", "app.go::Run") == {"unresolved::fixture"}


@pytest.mark.parametrize(
    ("signature", "count"),
    [
        ("Flush() error", 1),
        ("func (f *W) Flush()", 0),
        ("func (f *W) Pair(a, b int) (x, y int)", 2),
        ("Pair(a, b int) (n int, err error)", 2),
        ("Many() ( int, error, )", 2),
        ("func (w W) Gen() func() (int, error)", 1),
        ("func (c *C[T]) Get(k map[string]int) (v T, ok bool)", 2),
        ("Do(f func(int) error) (map[string][]int)", 1),
    ],
)
def test_result_counts_from_method_headers(signature: str, count: int) -> None:
    assert result_count(signature) == count
