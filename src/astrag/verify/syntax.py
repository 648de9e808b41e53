"""Syntax errors in changed code, as tree-sitter reports them.

A MISSING node is a token the parser had to invent to go on (``def f(:`` lacks a ``)``): the
finding says what was expected, at the place it was expected. An ERROR node is text the parser
could not fit anywhere; the finding points at its first line (or the first written line inside
it, when the statement began on an untouched line). Errors the old version of the file had in
the same words are the grammar's or the file's own, not the change's, and are not reported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tree_sitter import Node, Tree

from astrag.lang import grammar_of, parser

_LOOKBACK = 2  # lines
# what a language rejects that its grammar reads: (node, what to say) from a parse's root
Lax = Callable[[Node], list[tuple[Node, str]]]


@dataclass(frozen=True, slots=True)
class SyntaxSpot:
    line: int  # 1-based
    column: int  # 1-based, in characters
    message: str
    last_line: int  # the last line the damaged region covers
    # False for TypeScript text the parser could not read that began on a line the change
    # did not write: more likely a construct the grammar lacks than the change's slip
    reportable: bool = True


# a region the parser could not read that began on a line the change did not write is the
# change's: never (the grammar lags the language: a construct it lacks), when the old
# version parsed cleanly (the grammar reads the whole language), or always
BLAME_NEVER, BLAME_IF_CLEAN_BEFORE, BLAME_ALWAYS = "never", "if-clean-before", "always"


def syntax_errors(
    path: str,
    text: str,
    old: str | None,
    written: frozenset[int] | None,
    tree: Tree | None = None,
    begun_elsewhere: str = BLAME_NEVER,
    accepts: Callable[[str], bool | None] | None = None,
    lax: Lax | None = None,
) -> tuple[list[SyntaxSpot], list[SyntaxSpot]]:
    """(the syntax errors on the written lines of ``text`` — every line when ``written`` is
    None — that ``old`` did not have; every damaged region of ``text``). ``tree``: the
    parse of ``text``, when the caller has it. ``begun_elsewhere``: whether a region that
    began on a line the change did not write counts (``BLAME_*``; an unclosed Java string
    makes the parser give up on the whole class from its header on). ``accepts``: the
    language's own parser, which decides when tree-sitter's grammar lags it. ``lax``: what
    the grammar reads that the language rejects (``LanguageRules.lax_syntax``)."""
    every = list(_spots(path, text, written, tree, lax))
    blamed = begun_elsewhere == BLAME_ALWAYS or (
        begun_elsewhere == BLAME_IF_CLEAN_BEFORE and old is not None and not _damaged(path, old)
    )
    spots = [
        s for s in every if (written is None or s.line in written) and (s.reportable or blamed)
    ]
    if spots and accepts is not None and accepts(text):
        return [], every  # tree-sitter's grammar lags the language; its own parser decides
    if not spots or not old:
        return spots, every
    before = Counter(s.message for s in _spots(path, old, None, None, lax))
    kept = []
    for spot in spots:
        if before[spot.message] > 0:
            before[spot.message] -= 1  # the old file had this very error: not the change's
        else:
            kept.append(spot)
    return kept, every


def _spots(
    path: str,
    text: str,
    written: frozenset[int] | None,
    tree: Tree | None = None,
    lax: Lax | None = None,
) -> Iterator[SyntaxSpot]:
    grammar = grammar_of(path)
    if grammar is None:
        return
    source = text.encode("utf-8")
    root = (tree or parser(grammar).parse(source)).root_node
    rejected = lax(root) if lax is not None else []
    if not root.has_error and not rejected:
        return
    said = {n.id: message for n, message in rejected}
    # what the parser could not read where such text ended is its consequence, not a slip
    spans = [(n.start_point.row, n.end_point.row) for n, _ in rejected]
    errors = [
        n for n in _error_nodes(root) if not any(a <= n.start_point.row <= b for a, b in spans)
    ]
    nodes = sorted([*errors, *(n for n, _ in rejected)], key=lambda n: n.start_byte)
    lines = text.split("\n")
    seen: set[int] = set()
    for node in nodes:
        if node.start_point.row == node.end_point.row == len(lines) and not node.is_missing:
            continue  # nothing but the end of the file
        first, last = node.start_point.row + 1, node.end_point.row + 1
        line = first if written is None else _written_line(written, first, last)
        if line in seen:
            continue
        seen.add(line)
        row_text = lines[line - 1] if line <= len(lines) else ""
        column = _char_column(row_text, node.start_point.column) + 1 if line == first else 1
        began_elsewhere = False
        if node.id in said:
            message = said[node.id]
        elif node.is_missing:
            message = f"the parser expected {_token(node.type)} here"
        else:
            message = f"the parser cannot read {_excerpt(source, node)}"
            began_elsewhere = written is not None and line > first
        yield SyntaxSpot(line, column, message, last, not began_elsewhere)


def _damaged(path: str, text: str) -> bool:
    grammar = grammar_of(path)
    return grammar is not None and parser(grammar).parse(text.encode("utf-8")).root_node.has_error


def _written_line(written: frozenset[int], first: int, last: int) -> int:
    """The line to report a damaged region ``first``..``last`` at: its first line when the
    change wrote it, else the first written line inside it, else a written line just before
    it (an unclosed bracket is noticed a line or two after it was left open)."""
    if first in written:
        return first
    inside = [n for n in written if first <= n <= last]
    if inside:
        return min(inside)
    before = [n for n in written if first - _LOOKBACK <= n < first]
    return max(before) if before else first


def _error_nodes(node: Node) -> Iterator[Node]:
    """Outermost ERROR nodes and every MISSING node, in document order."""
    if node.is_missing or node.type == "ERROR":
        yield node
        return
    if node.has_error:
        for child in node.children:
            yield from _error_nodes(child)


def _token(kind: str) -> str:
    return f"'{kind}'" if not kind.isidentifier() or kind in ("def", "class", "in") else kind


def _excerpt(source: bytes, node: Node) -> str:
    text = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
    first = text.strip().split("\n", 1)[0].strip()
    return repr(first[:40] + ("..." if len(first) > 40 else ""))


def _char_column(line: str, byte_column: int) -> int:
    return len(line.encode("utf-8")[:byte_column].decode("utf-8", "ignore"))
