"""What a Go method's header says beyond its parameters: how many results it returns.

Two methods of one name and parameter count with different result counts (``Flush()`` and
``Flush() error``) are different methods to Go's method sets, so implicit implementation
compares both. The header is the definition's ``signature`` text (``func (w *W) Pair(a, b int)
(x, y int)``, or ``Pair(a, b int) (n int, err error)`` inside an interface).
"""

from __future__ import annotations

from astrag.lang.brackets import split_outside

_OPEN = "([{"
_CLOSE = ")]}"


def result_count(signature: str) -> int:
    """The number of results the header declares: 0, 1, or the names/types of a parenthesised
    list (``(x, y int)`` is two)."""
    text = signature.strip()
    groups = _top_level_groups(text)
    # a method declaration's first group is its receiver; the parameters' group follows
    index = 1 if text.startswith("func (") else 0
    if len(groups) <= index:
        return 0
    rest = text[groups[index][1] + 1 :].strip()
    if not rest:
        return 0
    if rest.startswith("(") and len(groups) > index + 1 and groups[index + 1][1] == len(text) - 1:
        inner = text[groups[index + 1][0] + 1 : groups[index + 1][1]]
        return len([part for part in split_outside(inner, ",") if part.strip()])
    return 1


def _top_level_groups(text: str) -> list[tuple[int, int]]:
    """The (open, close) offsets of the parenthesised groups at depth 0."""
    groups: list[tuple[int, int]] = []
    depth = 0
    start = -1
    for i, ch in enumerate(text):
        if ch in _OPEN:
            if depth == 0 and ch == "(":
                start = i
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth == 0 and ch == ")" and start >= 0:
                groups.append((start, i))
                start = -1
    return groups
