"""speed.py's measuring and editing helpers (the benchmark itself needs a corpus)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(_BENCH))  # speed.py imports floor.py from beside it
_spec = importlib.util.spec_from_file_location("speed", _BENCH / "speed.py")
assert _spec is not None and _spec.loader is not None
speed = importlib.util.module_from_spec(_spec)
sys.modules["speed"] = speed  # dataclasses look their module up by name
_spec.loader.exec_module(speed)

# A child that forks a grandchild touching ~120 MiB, reaps it, and prints JSON.
_FORKING_CHILD = """
import json, os
pid = os.fork()
if pid == 0:
    block = bytearray(120 * 2**20)
    block[::4096] = b"x" * len(block[::4096])
    os._exit(0)
os.waitpid(pid, 0)
print(json.dumps({"seconds": 0.5}))
"""


def test_measure_counts_a_forked_workers_peak_and_reads_json() -> None:
    run = speed.measure([sys.executable, "-c", _FORKING_CHILD])
    assert run.peak_rss_mb >= 120
    assert run.output == {"seconds": 0.5}
    assert run.wall_seconds > 0


def test_measure_reports_a_failing_command() -> None:
    with pytest.raises(RuntimeError, match="exited 3"):
        speed.measure([sys.executable, "-c", "import sys; sys.exit(3)"])


def test_appended_restores_the_file_even_when_the_block_fails(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(b"x = 1")  # no trailing newline: the probe must start on its own line
    with pytest.raises(KeyboardInterrupt), speed.appended(path, "# probe\n"):
        assert path.read_bytes() == b"x = 1\n# probe\n"
        raise KeyboardInterrupt
    assert path.read_bytes() == b"x = 1"


def test_probe_file_is_the_median_sized_source(tmp_path: Path) -> None:
    files = []
    for name, size in (("a.ts", 10), ("b.py", 500), ("c.ts", 100), ("d.js", 300), ("e.py", 50)):
        path = tmp_path / name
        path.write_bytes(b"x" * size)
        files.append(path)
    # sizes 10, 50, 100, 500 (.js is no candidate): the upper median
    assert speed.pick_probe_file(files, tmp_path).name == "c.ts"


def test_probe_file_of_a_mostly_javascript_corpus_is_javascript(tmp_path: Path) -> None:
    files = []
    for name, size in (("a.ts", 10), ("b.js", 500), ("c.cjs", 100), ("d.mjs", 300)):
        path = tmp_path / name
        path.write_bytes(b"x" * size)
        files.append(path)
    assert speed.pick_probe_file(files, tmp_path).name == "d.mjs"


def test_median_run_keeps_one_runs_fields_together() -> None:
    runs = [speed.Run(w, w * 2, w * 10) for w in (3.0, 1.0, 2.0, 9.0)]
    median = speed._median_run(runs)
    assert (median.wall_seconds, median.cpu_seconds, median.peak_rss_mb) == (2.0, 4.0, 20.0)


def test_probe_file_passes_over_tests_and_fixtures(tmp_path: Path) -> None:
    files = []
    for rel, size in (
        ("src/a.ts", 10),
        ("src/b.ts", 900),
        ("src/a.spec.ts", 100),
        ("test/fixtures/c.ts", 200),
        ("tests/test_d.py", 300),
    ):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * size)
        files.append(path)
    assert speed.pick_probe_file(files, tmp_path).name == "b.ts"
    # only tests (sizes 100, 200, 300): take the median of them anyway
    assert speed.pick_probe_file(files[2:], tmp_path).name == "c.ts"


def test_cold_only_row_leaves_the_re_index_cells_empty() -> None:
    run = {"wall_seconds": 2.0, "cpu_seconds": 2.0, "peak_rss_mb": 30.0, "output": {}}
    cold = run | {"wall_seconds": 5.0, "output": {"files": 3, "lines": 40, "seconds": 4.0}}
    result = {"floor": run, "cold": cold, "incremental": {}}
    result["ratios"] = speed.ratios(result)
    cells = [c.strip() for c in speed.markdown_row(result, "x").strip("|").split("|")]
    assert cells[:7] == ["x", "3", "40", "2.00", "5.00", "2.5× / n/a / 1.0×", "30 / 30"]
    assert cells[7:11] == ["–"] * 4
