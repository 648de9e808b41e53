"""Reading the text the checker is given, refusing what would hang or garble it.

A FIFO or a device named as a repository file would block the reader (and with it an MCP
server) forever, so a path is opened without blocking and checked to be a regular file before
a byte is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from astrag.verify.diffs import InputError

MAX_SOURCE_BYTES = 16_000_000


def read_regular_file(full: Path, shown: str) -> str | None:
    """The text of the regular file ``full`` (``shown`` names it in errors); None when it does
    not exist. A FIFO, socket, device or directory is refused before anything is read."""
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except IsADirectoryError:
        raise InputError(f"{shown} is a directory", "name a source file") from None
    except OSError as e:
        raise InputError(f"cannot open {shown}: {e.strerror}", "name a readable file") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"{shown} is a directory", "name a source file")
        if not stat.S_ISREG(mode):
            raise InputError(f"{shown} is not a regular file ({_kind(mode)})", "name a source file")
        with os.fdopen(fd, "rb", closefd=True) as fh:
            fd = -1
            data = fh.read(MAX_SOURCE_BYTES + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > MAX_SOURCE_BYTES:
        raise InputError(f"{shown} is over {MAX_SOURCE_BYTES:,} bytes", "check a smaller file")
    return data.decode("utf-8", errors="replace")


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a plain file"
