"""bench/export_diff.py: saving and comparing graph exports, on a tiny project written here."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import export_diff as ed


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


NODE = {"type": "node", "id": "a.py::f", "kind": "function", "name": "f", "qualname": "f"}
EDGE = {"type": "edge", "source": "a.py", "target": "a.py::f", "kind": "contains", "line": 1}


def test_identical_reordered_and_different_exports(tmp_path: Path) -> None:
    ref = _write(tmp_path / "ref.jsonl", [NODE, EDGE, {**EDGE, "line": 2}])
    same = _write(tmp_path / "same.jsonl", [NODE, EDGE, {**EDGE, "line": 2}])
    moved = _write(tmp_path / "moved.jsonl", [NODE, {**EDGE, "line": 2}, EDGE])
    other = _write(tmp_path / "other.jsonl", [{**NODE, "name": "g"}, EDGE, EDGE])
    assert ed.summarise(ref, same) == ("identical", [])
    assert ed.summarise(ref, moved)[0] == "reordered"
    outcome, lines = ed.summarise(ref, other)
    assert outcome == "different"
    assert lines[0] == (
        "  nodes: 0 only in the saved export, 0 only in the new one, 1 changed; "
        "edges: 1 lost, 1 gained"
    )


def test_save_then_compare_a_project_indexed_in_a_linked_copy(tmp_path: Path) -> None:
    root = tmp_path / "corpus" / "proj"
    root.mkdir(parents=True)
    (root / "a.py").write_text("def f():\n    return g()\n\n\ndef g():\n    pass\n")
    refs, copies = tmp_path / "refs", tmp_path / "copies"
    assert ed.main(["save", "--out", str(refs), "--copies", str(copies), str(root)]) == 0
    saved = refs / "corpus__proj.jsonl"
    assert '"target": "a.py::g"' in saved.read_text()
    assert not (root / ".astrag").exists()  # the copy was indexed, not the corpus
    assert list(copies.iterdir()) == []  # and removed afterwards
    assert ed.main(["compare", "--ref", str(refs), "--copies", str(copies), str(root)]) == 0
