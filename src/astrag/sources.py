"""Repository source as astrag shows it at query time (``show``, ``context``, MCP answers).

Every reader of a file's current text goes through :func:`read_lines`, so what it returns is
the same everywhere: read only from a regular file inside the root, decoded as the indexer
decodes it, credential values masked (:mod:`astrag.redact`, the same spans the index masked),
and split into the lines an editor shows.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from astrag.discover import decode_source
from astrag.redact import redact

# What editors (and the LSP) count as a line break. str.splitlines() also splits on form
# feed, vertical tab, U+0085, U+2028, U+2029 and the file/group/record separators: a file
# holding one of those would show the wrong lines after it.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_MAX_BYTES = 64 * 1024 * 1024  # a symbol's file grew past any source file: do not load it


def split_lines(text: str) -> list[str]:
    """``text`` cut at ``\\n``, ``\\r\\n`` and ``\\r`` only; no empty last line for a final
    line break (as ``str.splitlines()``)."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_text(root: Path, rel: str) -> str | None:
    """The current text of the repository file ``rel``, masked; None when it is gone, not a
    regular file (a FIFO or a device is never opened), too large, or resolves outside
    ``root`` (a file replaced by a link out of the repository after it was indexed)."""
    full = os.path.join(root, rel)
    try:
        real = os.path.realpath(full)
        if os.path.commonpath([real, os.path.realpath(root)]) != os.path.realpath(root):
            return None
        info = os.stat(real)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_BYTES:
            return None
        # O_NONBLOCK: if the file became a FIFO between the stat and the open, do not hang
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None
            data = fh.read(_MAX_BYTES + 1)
    except (OSError, ValueError):
        return None
    decoded = decode_source(rel, data).source
    clean, _ = redact(decoded if decoded is not None else data)
    return clean.decode("utf-8", errors="replace")


def read_lines(root: Path, rel: str) -> list[str]:
    """:func:`read_text` as editor lines; ``[]`` when the file cannot be shown."""
    text = read_text(root, rel)
    return [] if text is None else split_lines(text)
