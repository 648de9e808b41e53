"""Files the grammar cannot parse whole: keep every top-level statement that parses alone.

tree-sitter-typescript 0.23.2 turns some valid files into one ERROR region from the first
construct it lacks (conditional types in type-parameter defaults, ``<in out T>``, ``export
type *``) to the end of the file, so every later definition would be lost. Recovery cuts
the file into top-level statements — a line that starts at column 0 with a declaration
keyword begins one, together with the comments right above it — and parses each alone.
Statements that parse are kept; the others are blanked (every byte but newlines becomes a
space), so the file parsed again keeps every kept byte at its offset, line and column, and
what could not be read is reported as line spans.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Parser, Tree

from astrag.lang.treesitter import merge_spans

_STATEMENT_START = re.compile(
    rb"^(?:export|import|function|async|class|abstract|interface|type|const|let|var|enum"
    rb"|namespace|module|declare|@)\b",
    re.MULTILINE,
)
_COMMENT_LINE = re.compile(rb"[ \t]*(?:/\*\*?|\*|//)")  # matched at a line start
_BLANK = bytes.maketrans(bytes(range(256)), b" " * 10 + b"\n" + b" " * 245)


@dataclass(frozen=True, slots=True)
class Recovered:
    source: bytes  # the file with unparseable statements blanked
    tree: Tree
    spans: tuple[tuple[int, int], ...]  # blanked lines with text, 1-based inclusive


def recover(parser: Parser, source: bytes) -> Recovered | None:
    """The file's statements that parse on their own, or None when it cannot be cut into
    more than one statement (nothing to gain over the whole parse)."""
    bounds = _statement_bounds(source)
    if len(bounds) < 2:
        return None
    kept = bytearray(source)
    spans: list[tuple[int, int]] = []
    for start, end in bounds:
        chunk = source[start:end]
        if parser.parse(chunk).root_node.has_error:
            kept[start:end] = chunk.translate(_BLANK)
            spans.extend(_text_lines(source, start, end))
    if not spans:
        return None  # every statement parses alone: the damage is between them
    masked = bytes(kept)
    return Recovered(masked, parser.parse(masked), tuple(merge_spans(spans)))


def _statement_bounds(source: bytes) -> list[tuple[int, int]]:
    """Byte ranges of the top-level statements: each from its first comment line above a
    column-0 keyword line to the next one (the first from the start of the file)."""
    starts = [0]
    for m in _STATEMENT_START.finditer(source):
        start = m.start()
        while start > 0:  # the JSDoc and comment lines right above belong to it
            prev = source.rfind(b"\n", 0, start - 1) + 1
            if not _COMMENT_LINE.match(source, prev) or prev == start:
                break
            start = prev
        if start > starts[-1]:
            starts.append(start)
    ends = [*starts[1:], len(source)]
    return [(s, e) for s, e in zip(starts, ends, strict=True) if source[s:e].strip()]


def _text_lines(source: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """The 1-based lines of ``source[start:end]`` holding more than whitespace, as spans."""
    line = source.count(b"\n", 0, start) + 1
    out = []
    for text in source[start:end].split(b"\n"):
        if text.strip():
            out.append((line, line))
        line += 1
    return out
