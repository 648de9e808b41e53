"""How many arguments a call of a value typed ``Callable[[A, B], R]`` takes, for the checker's
argument count of a called parameter or local (``listener: Callable[[int], None]``, ``Listener
= Callable[[int], None]``, ``listeners: list[Listener]``). Pure functions over a definition's
text: the facts keep an annotation's principal named type only, not a ``Callable``'s
parameters."""

from __future__ import annotations

import re

from astrag.lang.brackets import split_outside

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CALLABLE = re.compile(r"(?:typing\.|collections\.abc\.|abc\.|t\.)?Callable\s*\[")


def parameter_annotation(text: str, function: str, param: str) -> str | None:
    """The annotation written for parameter ``param`` of ``def function(...)`` (its
    definition's ``text``), without a default; None when none is written."""
    found = re.search(rf"\bdef\s+{re.escape(function)}\s*(?:\[[^\]]*\]\s*)?\(", text)
    if found is None:
        return None
    inner = _group(text, found.end() - 1)
    if inner is None:
        return None
    for part in _split(inner, ","):
        declared, colon, annotation = part.partition(":")
        if colon and declared.strip() == param:
            return _split(annotation, "=")[0].strip()
    return None


def alias_annotation(text: str, name: str) -> str | None:
    """What a module-level alias ``name`` stands for (``Listener = Callable[...]``,
    ``Listener: TypeAlias = Callable[...]``, ``type Listener = Callable[...]``)."""
    found = re.match(
        rf"\s*(?:type\s+)?{re.escape(name)}\s*(?::\s*(?:typing\.)?TypeAlias\s*)?=(?!=)", text
    )
    return text[found.end() :].strip() if found is not None else None


def callable_arity(annotation: str) -> tuple[int, int | None] | None:
    """(required, at most) arguments of ``Callable[[A, B], R]`` (``Optional[...]`` or ``|
    None`` around it allowed), None for anything else: ``Callable[..., R]``, a ParamSpec or
    ``Concatenate``, a union with another type, a name."""
    text = annotation.strip()
    optional = re.fullmatch(r"(?:typing\.)?Optional\s*\[(.*)\]", text, re.S)
    if optional is not None:
        text = optional.group(1).strip()
    parts = [p.strip() for p in _split(text, "|")]
    kept = [p for p in parts if p != "None"]
    if len(kept) != 1:
        return None
    text = kept[0]
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    found = _CALLABLE.match(text)
    if found is None:
        return None
    inner = _group(text, found.end() - 1)
    if inner is None or text[found.end() - 1 :].rstrip() != f"[{inner}]":
        return None
    args = _split(inner, ",")
    if len(args) != 2 or not args[0].strip().startswith("["):
        return None
    listed = args[0].strip()[1:-1]
    count = len([a for a in _split(listed, ",") if a.strip()])
    return count, count


def _group(text: str, start: int) -> str | None:
    """The text inside the bracket opening at ``start`` (None when it does not close)."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c in _OPEN:
            depth += 1
        elif c in _OPEN.values():
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
    return None


def _split(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside brackets and strings."""
    return split_outside(text, separator, quotes="'\"")
