"""The checker on Go: what it reports, and where Go is dynamic, that it says nothing."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from astrag import api

FILES = {
    "go.mod": "module example.com/app\n\ngo 1.22\n",
    "store/store.go": """
        package store

        import "io"

        type Store struct{ name string }

        func New(name string) *Store { return &Store{name: name} }

        func (s *Store) Get(key string) string { return key }

        func (s *Store) Put(key, value string, tags ...string) {}

        type Closer interface{ io.Closer }

        type Getter interface{ Get(key string) string }

        type Cached struct {
            *Store
            io.Reader
            hook func(int) int
        }
    """,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("go-checked")
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    api.index(root, store="sqlite")
    return root


def findings(repo: Path, code: str) -> list[tuple[str, int]]:
    report = api.check(repo, textwrap.dedent(code).lstrip("\n"), path="cmd/main.go")
    return [(f.rule, f.line) for f in report.findings]


def test_unknown_function_member_import_type_and_argument_count(repo: Path) -> None:
    code = """
        package main

        import (
            "example.com/app/store"
            "example.com/app/missing"
        )

        func main() {
            s := store.New("a")
            s.Gett("k")
            store.Open()
            var x Unknown
            _ = x
            helper()
            s.Get("k", "extra")
            store.New()
        }
    """
    assert findings(repo, code) == [
        ("unknown-import", 5),
        ("unknown-member", 10),
        ("unknown-member", 11),
        ("unknown-type", 12),
        ("unknown-function", 14),
        ("wrong-arguments", 15),
        ("wrong-arguments", 16),
    ]


def test_dynamic_or_unseen_receivers_say_nothing(repo: Path) -> None:
    code = """
        package main

        import (
            "fmt"
            "example.com/app/store"
        )

        func main() {
            c := store.Cached{}
            c.Read(nil)
            c.Get("k")
            var cl store.Closer
            cl.Close()
            fmt.Printf("%d %d", 1, 2)
            s := store.New("a")
            s.Put("k", "v", "t1", "t2")
            go func(n int) { fmt.Println(n) }(1)
            f := s.Get
            f("k")
            v := any(s)
            v.(*store.Store).Get("k")
            println(len("x"))
        }
    """
    assert findings(repo, code) == []
