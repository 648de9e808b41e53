"""Which parameters of a TypeScript function a call may leave out although they have no
default, for the checker's argument count: the compiler lets a call omit a trailing argument
whose type accepts ``void`` (``fire(event: void)``, ``x: T | void``), and a type parameter may
be instantiated with ``void`` (``Emitter<void>.fire()``). Pure functions over a definition's
text (the facts keep a parameter's principal named type only, not ``void``).
"""

from __future__ import annotations

import re

_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSE = frozenset(_OPEN.values())
_ACCEPTS_VOID = frozenset({"void", "unknown", "any"})


def voidable_parameters(text: str, name: str, outer: frozenset[str]) -> frozenset[str]:
    """The parameters of function ``name`` (its definition's ``text``) whose type accepts
    ``void``: ``void`` in a union, or a bare type parameter of the function or of its class
    (``outer``) that nothing constrains to exclude ``void``."""
    i = _after_name(text, name)
    if i is None:
        return frozenset()
    own: frozenset[str] = frozenset()
    if text.startswith("<", i):
        inner, i = _group(text, i)
        own = _voidable_type_parameters(inner)
    if not text.startswith("(", i):
        return frozenset()
    params, _ = _group(text, i)
    out = set()
    for param in _split(params, ","):
        declared, colon, rest = _partition(param, ":")
        words = declared.split()
        if not colon or not words:
            continue
        alternatives = {a.strip() for a in _split(_partition(rest, "=")[0], "|")}
        if "void" in alternatives or alternatives & (own | outer):
            out.add(words[-1].rstrip("?"))
    return frozenset(out)


def voidable_type_parameters(text: str, name: str) -> frozenset[str]:
    """The type parameters of the class or function ``name`` (its definition's ``text``)
    that may be ``void``: unconstrained, or constrained by a type that accepts it."""
    i = _after_name(text, name)
    if i is None or not text.startswith("<", i):
        return frozenset()
    return _voidable_type_parameters(_group(text, i)[0])


def _voidable_type_parameters(inner: str) -> frozenset[str]:
    out = set()
    for part in _split(inner, ","):
        head = _partition(part, "=")[0]
        found = re.match(
            r"\s*(?:const\s+|in\s+|out\s+)*([A-Za-z_$][\w$]*)\s*(?:extends\s+(.*))?$", head, re.S
        )
        if found is None:
            continue
        bound = found.group(2)
        accepted = {a.strip() for a in _split(bound, "|")} if bound else set()
        if bound is None or accepted & _ACCEPTS_VOID:
            out.add(found.group(1))
    return frozenset(out)


def _after_name(text: str, name: str) -> int | None:
    """Where ``name``'s type parameters or parameters begin in its definition's text."""
    found = re.search(rf"(?<![\w$]){re.escape(name)}\s*(?=[<(])", text)
    return found.end() if found is not None else None


def _group(text: str, start: int) -> tuple[str, int]:
    """The text inside the bracket opening at ``start``, and the index after its closer."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c in _OPEN and not (c == "<" and text[i - 1 : i] == "="):
            depth += 1
        elif c in _CLOSE and not (c == ">" and text[i - 1 : i] == "="):  # ``=>`` is no closer
            depth -= 1
            if depth == 0:
                return text[start + 1 : i], i + 1
    return text[start + 1 :], len(text)


def _split(text: str, separator: str) -> list[str]:
    """``text`` cut at ``separator`` where no bracket is open."""
    parts, depth, last = [], 0, 0
    for i, c in enumerate(text):
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE and not (c == ">" and text[i - 1 : i] == "="):
            depth -= 1
        elif c == separator and depth == 0:
            parts.append(text[last:i])
            last = i + 1
    parts.append(text[last:])
    return parts


def _partition(text: str, separator: str) -> tuple[str, str, str]:
    parts = _split(text, separator)
    if len(parts) == 1:
        return text, "", ""
    return parts[0], separator, text[len(parts[0]) + 1 :]
