"""process_times.py tells a process's CPU from its blocked time, for each process of a tree."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_BENCH = Path(__file__).resolve().parents[2] / "bench"
_spec = importlib.util.spec_from_file_location("process_times", _BENCH / "process_times.py")
assert _spec is not None and _spec.loader is not None
process_times = importlib.util.module_from_spec(_spec)
sys.modules["process_times"] = process_times  # dataclasses look their module up by name
_spec.loader.exec_module(process_times)

# a parent that forks a child busy for ~0.6 s of CPU and waits for it, blocked meanwhile
_TREE = """
import os, time
pid = os.fork()
if pid == 0:
    end = time.process_time() + 0.6
    while time.process_time() < end:
        pass
    os._exit(0)
os.waitpid(pid, 0)
time.sleep(0.1)
"""


@pytest.mark.skipif(not Path("/proc/self/schedstat").exists(), reason="Linux schedstat")
def test_a_busy_child_is_on_cpu_and_its_waiting_parent_is_blocked() -> None:
    wall, rows = process_times.watch([sys.executable, "-c", _TREE])
    parent, child = rows
    assert parent.main and not child.main
    assert 0.5 <= child.cpu <= 1.0
    assert child.blocked < 0.2  # it never waited on anything
    assert parent.cpu < 0.3 and parent.blocked + parent.runnable > 0.5
    assert wall >= child.cpu
