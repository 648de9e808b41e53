"""``astrag watch`` as a process: a ready line, then one line per update."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from queue import Empty, Queue

from tests.serve.conftest import astrag_command, stop, write


def test_watch_prints_one_line_per_update(repo: Path) -> None:
    proc = subprocess.Popen(
        astrag_command("watch", str(repo), "--format", "json", "--interval", "0.1"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: Queue[str] = Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()  # type: ignore[union-attr]

    def next_event() -> dict:
        try:
            return json.loads(lines.get(timeout=20))
        except Empty:
            stop(proc)
            raise AssertionError(proc.stderr.read()) from None  # type: ignore[union-attr]

    try:
        ready = next_event()
        assert ready["event"] == "ready"
        assert ready["files"] == 3 and ready["index"]["fresh"] is True
        with (repo / "pkg/report.py").open("a") as fh:
            fh.write("\n\ndef summary() -> str:\n    return describe(Square(3))\n")
        event = next_event()
        assert event["event"] == "update"
        assert event["index"]["updated_files"] == ["pkg/report.py"]
        write(repo, "pkg/more.py", "def more() -> int:\n    return 1\n")
        assert next_event()["index"]["updated_files"] == ["pkg/more.py"]
        (repo / "pkg/more.py").unlink()
        assert next_event()["index"]["updated_files"] == ["pkg/more.py"]
        assert lines.empty()
    finally:
        stop(proc)
    assert proc.returncode in (0, -15)


def test_watch_text_lines(repo: Path) -> None:
    proc = subprocess.Popen(
        astrag_command("watch", str(repo), "--interval", "0.1"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    guard = threading.Timer(30, proc.kill)  # a missing line must fail the test, not hang it
    guard.start()
    try:
        assert proc.stdout is not None
        assert f"watching {repo} (3 files indexed)" in proc.stdout.readline()
        write(repo, "pkg/more.py", "def more() -> int:\n    return 1\n")
        line = proc.stdout.readline()
        assert " updated 1 file(s) in " in line and line.rstrip().endswith(": pkg/more.py")
    finally:
        guard.cancel()
        stop(proc)


def test_watch_refuses_a_missing_directory(tmp_path: Path) -> None:
    done = subprocess.run(
        astrag_command("watch", str(tmp_path / "nope")), capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "is not a directory" in done.stderr
