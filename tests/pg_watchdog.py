"""Stop the test session's PostgreSQL server when the session dies, however it dies.

pgserver stops its server from an ``atexit`` hook, which a killed pytest (SIGKILL, a CI
timeout) never runs: the postmaster, a daemon of its own, then outlives the run with its data
directory. The session starts this script with a pipe on stdin whose write end only the
session holds; end-of-file means the session is gone, and the script shuts the server down
(SIGQUIT: PostgreSQL's immediate shutdown) and deletes the data directory. After a normal
teardown the server is already stopped and the directory gone, and it has nothing to do.

Usage: ``python tests/pg_watchdog.py DATA_DIR`` with the pipe on stdin.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path


def postmaster_pid(data: Path) -> int | None:
    try:
        first = (data / "postmaster.pid").read_text().split("\n", 1)[0]
    except OSError:
        return None
    return int(first) if first.strip().isdigit() else None


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    return True


def stop(data: Path, patience: float = 10.0) -> None:
    pid = postmaster_pid(data)
    if pid is not None and alive(pid):
        os.kill(pid, signal.SIGQUIT)
        deadline = time.monotonic() + patience
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    shutil.rmtree(data, ignore_errors=True)


def main() -> None:
    data = Path(sys.argv[1])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C for pytest is not for us
    while sys.stdin.buffer.read(65536):
        pass
    stop(data)


if __name__ == "__main__":
    main()
