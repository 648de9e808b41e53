"""An added Java class re-resolves the files of its package that could see it."""

from __future__ import annotations

from pathlib import Path

from astrag import api


def _callees(root: Path) -> set[str]:
    with api.open_index(root) as idx:
        _, edges = idx.graph()
    return {e.target for e in edges if str(e.kind) == "calls"}


def test_a_class_added_to_the_package_resolves_its_callers(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p/A.java").write_text("package p;\nclass A { void f() { B.g(); } }\n")
    api.index(tmp_path, embedder="none")
    assert _callees(tmp_path) == {"unresolved::?.g"}
    (tmp_path / "p/B.java").write_text("package p;\nclass B { static void g() {} }\n")
    api.index(tmp_path, embedder="none")
    assert _callees(tmp_path) == {"p/B.java::B.g"}
    (tmp_path / "p/B.java").unlink()
    api.index(tmp_path, embedder="none")
    assert _callees(tmp_path) == {"unresolved::?.g"}
