"""Who calls a class, exactly, through the real CLI: constructing a class calls it.

TypeScript's ``new Store(…)`` is a reference of kind NEW in the graph and Java's a call of the
constructor the class declares, so ``callers Store`` used to answer "no callers" for a class
constructed in plain sight. A class read as a value (``S = Storage`` then ``S()``,
``storage_class = Storage``, passed as an argument) may be constructed through that value: an
unverified candidate, as a function read as a value is. Type annotations and the class's own
members' reads (``super(Storage, self)``) are neither, and a subclass's constructor calling its
base's (``super().__init__()``) constructs nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag import api
from tests.query.conftest import write
from tests.query.test_cli_query import ok, ok_json

FILES = {
    "src/store.ts": """
        export class Store {
          constructor(public name: string) {}
        }

        export class Plain {}

        export function make(): Store {
          return new Store("x");
        }

        export function plain(): Plain {
          return new Plain();
        }

        export function build(k: typeof Store): Store {
          return new k("y");
        }

        export function pass(): Store {
          return build(Store);
        }
        """,
    "java/p/Shop.java": """
        package p;

        public class Shop {
          public Shop() {}

          static Shop open() {
            return new Shop();
          }
        }
        """,
    "java/p/Mall.java": """
        package p;

        class Mall {
          Object first() {
            return new Shop();
          }
        }
        """,
    "pkg/__init__.py": "",
    "pkg/storage.py": """
        class Storage:
            def again(self):
                return super(Storage, self)


        class Direct:
            pass


        def get(flag):
            if flag:
                kind = Storage
            else:
                kind = None
            made: Storage = kind()
            return made


        def direct() -> Direct:
            return Direct()


        class Base:
            def __init__(self):
                self.ready = True


        class Child(Base):
            def __init__(self):
                super().__init__()


        def base() -> Base:
            return Base()
        """,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write(tmp_path_factory.mktemp("class-callers").resolve(), FILES)
    api.index(root, jobs=1, embedder="none", store="sqlite")
    return root


def _results(data: dict) -> list[tuple[str, int, str, str | None]]:
    return [(r["id"], r["via"]["line"], r["link"], r["through"]) for r in data["results"]]


def test_a_typescript_class_is_called_where_it_is_constructed(repo: Path) -> None:
    data = ok_json("callers", "src/store.ts::Store", "--repo", str(repo), "--format", "json")
    assert _results(data) == [
        ("src/store.ts::make", 8, "direct", None),
        ("src/store.ts::build", 16, "direct", None),
        ("src/store.ts::build", 15, "candidate", "value"),
        ("src/store.ts::pass", 20, "candidate", "value"),
    ]
    # a class without a constructor of its own is constructed all the same
    data = ok_json("callers", "src/store.ts::Plain", "--repo", str(repo), "--format", "json")
    assert _results(data) == [("src/store.ts::plain", 12, "direct", None)]


def test_a_java_class_is_called_through_its_constructor(repo: Path) -> None:
    data = ok_json("callers", "java/p/Shop.java::Shop", "--repo", str(repo), "--format", "json")
    assert _results(data) == [  # in site order: file, then line
        ("java/p/Mall.java::Mall.first", 5, "direct", None),
        ("java/p/Shop.java::Shop.open", 7, "direct", None),
    ]


def test_a_python_class_read_as_a_value_is_a_candidate_never_a_silent_none(repo: Path) -> None:
    data = ok_json("callers", "pkg/storage.py::Storage", "--repo", str(repo), "--format", "json")
    # the annotation (made: Storage) and the class's own super(Storage, self) are not listed
    assert _results(data) == [("pkg/storage.py::get", 12, "candidate", "value")]
    assert data["notes"] == [
        "no resolved callers of Storage",
        "Storage is used as a value at 1 site (passed, stored, exported or rendered, not "
        "called there; calls through it are not traced, unverified): pkg/storage.py:12",
    ]
    data = ok_json("callers", "pkg/storage.py::Direct", "--repo", str(repo), "--format", "json")
    assert _results(data) == [("pkg/storage.py::direct", 20, "direct", None)]


def test_a_constructor_calling_its_base_constructs_nothing(repo: Path) -> None:
    # Child.__init__'s super().__init__() calls Base.__init__: not a construction of Base
    data = ok_json("callers", "pkg/storage.py::Base", "--repo", str(repo), "--format", "json")
    assert _results(data) == [("pkg/storage.py::base", 34, "direct", None)]
    data = ok_json("callers", "Base.__init__", "--repo", str(repo), "--format", "json")
    assert _results(data) == [("pkg/storage.py::Child.__init__", 30, "direct", None)]


def test_references_still_tell_constructions_reads_and_annotations_apart(repo: Path) -> None:
    out = ok("references", "pkg/storage.py::Storage", "--repo", str(repo))
    assert out.splitlines()[0] == (
        "uses of pkg/storage.py::Storage (3): reads 2, type annotations 1"
    )
