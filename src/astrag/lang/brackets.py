"""Text cut at a separator where no bracket is open: how the rooms read written types and
headers (``Callable[[int, str], None]``, ``(a: A, b: (x: X) => Y)``, ``(n int, err error)``)
without parsing them again. Which characters open and close, which quote, and which pairs
hold a bracket character that is none (TS ``=>``) is each language's to say.
"""

from __future__ import annotations


def split_outside(
    text: str,
    separator: str,
    *,
    opening: str = "([{",
    closing: str = ")]}",
    quotes: str = "",
    not_closing: str = "",
) -> list[str]:
    """``text`` split at ``separator`` outside brackets (and outside quotes, when ``quotes``
    names them). ``not_closing``: a two-character sequence whose closing character closes
    nothing (``"=>"``)."""
    parts: list[str] = []
    depth, quote, last = 0, "", 0
    before = not_closing[:1]
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = ""
        elif c in quotes:
            quote = c
        elif c in opening:
            depth += 1
        elif c in closing:
            if not (before and c == not_closing[1:] and text[i - 1 : i] == before):
                depth -= 1
        elif c == separator and depth == 0:
            parts.append(text[last:i])
            last = i + 1
    parts.append(text[last:])
    return parts
