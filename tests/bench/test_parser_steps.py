"""parser_steps.py times a parser process's steps and hashes their outputs (timings
themselves are not tested)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[2] / "bench"
_spec = importlib.util.spec_from_file_location("parser_steps", _BENCH / "parser_steps.py")
assert _spec is not None and _spec.loader is not None
parser_steps = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(parser_steps)

_STEPS = ["read", "hash", "redact", "extract", "facts", "docs", "docs_enc", "symbols"]


def _project(root: Path, body: str) -> Path:
    root.mkdir(exist_ok=True)
    (root / "go.mod").write_text("module example.com/m\n")
    (root / "a.go").write_text(f"package m\n\nfunc A() {{ {body} }}\n")
    (root / "b.go").write_text("package m\n\nfunc B() {}\n")
    return root


def test_every_step_is_timed_and_every_output_hashed(tmp_path: Path) -> None:
    times, digests = parser_steps.measure(_project(tmp_path, "B()"), repeat=2)
    assert list(times) == _STEPS and all(t >= 0 for t in times.values())
    assert set(digests) == {
        f"{name}{kind}" for name in ("facts", "docs", "symbols") for kind in ("", "_values")
    }


def test_the_digests_change_with_the_code_and_only_then(tmp_path: Path) -> None:
    one = parser_steps.measure(_project(tmp_path / "one", "B()"), repeat=1)[1]
    same = parser_steps.measure(_project(tmp_path / "same", "B()"), repeat=1)[1]
    other = parser_steps.measure(_project(tmp_path / "other", "B(); Other()"), repeat=1)[1]
    assert one == same
    assert one["facts"] != other["facts"] and one["docs_values"] != other["docs_values"]
