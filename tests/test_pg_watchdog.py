"""The test session's PostgreSQL watchdog: when the pipe from the session closes (the session
died), the process named in the data directory's postmaster.pid stops and the directory goes."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

WATCHDOG = Path(__file__).with_name("pg_watchdog.py")


def _watch(data: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(WATCHDOG), str(data)], stdin=subprocess.PIPE)


def test_a_closed_pipe_stops_the_server_and_deletes_its_data(tmp_path: Path) -> None:
    data = tmp_path / "pgdata"
    data.mkdir()
    # a stand-in postmaster that, like PostgreSQL, shuts down on SIGQUIT
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    (data / "postmaster.pid").write_text(f"{server.pid}\n{data}\n")
    watchdog = _watch(data)
    time.sleep(0.3)
    assert server.poll() is None and data.exists()  # nothing happens while the session lives
    assert watchdog.stdin is not None
    watchdog.stdin.close()
    assert watchdog.wait(timeout=30) == 0
    assert server.wait(timeout=10) != 0  # killed by the signal
    assert not data.exists()


def test_after_a_normal_teardown_it_has_nothing_to_do(tmp_path: Path) -> None:
    watchdog = _watch(tmp_path / "already-deleted")
    assert watchdog.stdin is not None
    watchdog.stdin.close()
    assert watchdog.wait(timeout=30) == 0
