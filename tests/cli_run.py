"""Running the real ``astrag`` command in a subprocess: piped, as a script or an agent reads
it, or on a pseudo-terminal, as a person sees it."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

# No colour codes; a wide terminal where one is used. FORCE_COLOR and TTY_COMPATIBLE would
# make rich treat a pipe as a terminal.
BASE_ENV = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
BASE_ENV.update(COLUMNS="200", NO_COLOR="1")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run(
    *args: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    stdin: bytes | None = None,
) -> subprocess.CompletedProcess[str]:
    """``astrag ARGS`` with stdout and stderr piped."""
    result = subprocess.run(
        [sys.executable, "-m", "astrag.cli", *args],
        cwd=cwd,
        env=env or BASE_ENV,
        input=stdin,
        capture_output=True,
        timeout=120,
    )
    return subprocess.CompletedProcess(
        result.args,
        result.returncode,
        result.stdout.decode("utf-8", "backslashreplace"),
        result.stderr.decode("utf-8", "backslashreplace"),
    )


def on_terminal(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, columns: int = 200
) -> tuple[int, str]:
    """``astrag ARGS`` with stdout on a pseudo-terminal ``columns`` wide: the exit status and
    what it showed, escape codes removed."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    environment = dict(env or BASE_ENV)
    environment.pop("COLUMNS", None)  # the terminal's own size decides
    proc = subprocess.Popen(
        [sys.executable, "-m", "astrag.cli", *args],
        cwd=cwd,
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=subprocess.DEVNULL,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(leader)
    text = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return proc.returncode, _ANSI.sub("", text)
