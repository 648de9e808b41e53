"""phases.py measures the stages on the files astrag indexes (timings themselves are not tested)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[2] / "bench"
_spec = importlib.util.spec_from_file_location("phases", _BENCH / "phases.py")
assert _spec is not None and _spec.loader is not None
phases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(phases)


def test_measure_parses_extracts_and_resolves_the_indexed_files(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/m\n")
    (tmp_path / "a.go").write_text("package m\n\nfunc A() { B() }\n")
    (tmp_path / "b.go").write_text("package m\n\nfunc B() {}\n")
    (tmp_path / "notes.txt").write_text("not source\n")
    result = phases.measure(tmp_path, repeat=2)
    # two Go files; one reference (A calls B); edges: two contains, one call
    assert (result["files"], result["references"], result["edges"]) == (2, 1, 3)
    assert {"parse_cpu_s", "extract_cpu_s", "resolve_cpu_s"} <= result.keys()


def test_least_cpu_keeps_the_last_result_and_runs_at_least_once() -> None:
    calls: list[int] = []
    seconds, result = phases.least_cpu(lambda: calls.append(1) or len(calls), 0)
    assert (calls, result) == ([1], 1) and seconds >= 0
