"""Repository source as astrag shows it at query time (``show``, ``context``, MCP answers,
the web view): credential values masked (:mod:`astrag.redact`, the same spans the index
masked) and split into the lines the index numbered.

The bytes come from :func:`astrag.discover.read_source`, the one race-free reader (special
files refused, no link out of the root, the indexer's decoding, which also turns a lone CR
into LF so that editors and the parser count the same lines).
"""

from __future__ import annotations

import re

from astrag.redact import redact

# What editors (and the LSP) count as a line break. str.splitlines() also splits on form
# feed, vertical tab, U+0085, U+2028, U+2029 and the file/group/record separators: a file
# holding one of those would show the wrong lines after it.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """``text`` cut at ``\\n``, ``\\r\\n`` and ``\\r`` only; no empty last line for a final
    line break (as ``str.splitlines()``)."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def shown_lines(data: bytes) -> list[str]:
    """A file's bytes, as :func:`~astrag.discover.read_source` returns them, masked and cut
    into lines: line ``n`` of the result is line ``n + 1`` of the index."""
    return split_lines(redact(data)[0].decode("utf-8", errors="replace"))
