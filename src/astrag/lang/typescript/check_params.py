"""Which parameters of a TypeScript function a call may leave out although they have no
default, for the checker's argument count: the compiler lets a call omit a trailing argument
whose type accepts ``void`` (``fire(event: void)``, ``x: T | void``), and a type parameter may
be instantiated with ``void`` (``Emitter<void>.fire()``). Pure functions over a definition's
text (the facts keep a parameter's principal named type only, not ``void``). Also how many
arguments a call of a parameter takes whose type is a function type written out
(``listener: (s: T, p: T) => void``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from astrag.lang.brackets import split_outside

_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSE = frozenset(_OPEN.values())
_ACCEPTS_VOID = frozenset({"void", "unknown", "any"})
_PRIMITIVES = frozenset({"string", "number", "boolean", "bigint", "symbol", "object", "never"})


def voidable_parameters(
    text: str,
    name: str,
    outer: frozenset[str],
    alias_may_be_void: Callable[[str], bool] = lambda name: False,
) -> frozenset[str]:
    """The parameters of function ``name`` (its definition's ``text``) whose type accepts
    ``void``: ``void`` in a union, a bare type parameter of the function or of its class
    (``outer``) that nothing constrains to exclude ``void``, or a type named by a name
    ``alias_may_be_void`` accepts (clipanion's ``context: VoidIfEmpty<...>``, an alias of a
    conditional type that may be ``void``)."""
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
        if (
            "void" in alternatives
            or alternatives & (own | outer)
            or any(
                (head := re.match(r"[A-Za-z_$][\w$]*", a)) and alias_may_be_void(head.group(0))
                for a in alternatives
            )
        ):
            out.add(words[-1].rstrip("?"))
    return frozenset(out)


def voidable_type_parameters(text: str, name: str) -> frozenset[str]:
    """The type parameters of the class or function ``name`` (its definition's ``text``)
    that may be ``void``: unconstrained, or constrained by a type that accepts it."""
    i = _after_name(text, name)
    if i is None or not text.startswith("<", i):
        return frozenset()
    return _voidable_type_parameters(_group(text, i)[0])


def type_parameter_names(text: str, name: str) -> list[str]:
    """The type parameters of the class or function ``name`` (its definition's ``text``), in
    order."""
    i = _after_name(text, name)
    if i is None or not text.startswith("<", i):
        return []
    names = []
    for part in _split(_group(text, i)[0], ","):
        found = re.match(r"\s*(?:const\s+|in\s+|out\s+)*([A-Za-z_$][\w$]*)", part)
        if found is None:
            return []
        names.append(found.group(1))
    return names


def written_type_arguments(text: str, type_name: str) -> list[str] | None:
    """The type arguments written for ``type_name`` in a declaration's ``text`` (``list:
    LinkedList<T>``, ``= new Emitter<void>()``, a parameter's type): None when it names the
    type without them, or not at all."""
    found = re.search(rf"(?:^\s*|[:|]\s*|\bnew\s+)(?<![\w$.]){re.escape(type_name)}\s*(?=<)", text)
    if found is None:
        return None
    return [a.strip() for a in _split(_group(text, found.end())[0], ",")]


def accepts_void(argument: str, alias_may_be_void: Callable[[str], bool]) -> bool:
    """A type argument as written makes a parameter of that type omittable: ``void`` is one
    of its alternatives, or an alias that may be ``void`` (the compiler lets a call leave
    out only an argument whose instantiated type is ``void``; a type parameter, ``unknown``
    or ``any`` is not)."""
    alternatives = {a.strip() for a in _split(argument, "|")}
    return "void" in alternatives or any(
        (head := re.match(r"[A-Za-z_$][\w$]*", a)) is not None and alias_may_be_void(head.group(0))
        for a in alternatives
    )


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
    """``text`` cut at ``separator`` where no bracket is open (``=>`` closes none)."""
    return split_outside(text, separator, opening="([{<", closing=")]}>", not_closing="=>")


def _partition(text: str, separator: str) -> tuple[str, str, str]:
    parts = _split(text, separator)
    if len(parts) == 1:
        return text, "", ""
    return parts[0], separator, text[len(parts[0]) + 1 :]


def parameter_type(text: str, name: str, param: str) -> str | None:
    """The type written for parameter ``param`` of function ``name`` (its definition's
    ``text``; an arrow's text may begin at its parameters), or None when none is written."""
    i = _after_name(text, name)
    if i is None:
        found = re.match(r"\s*(?:async\s+)?(?=[<(])", text)
        i = found.end() if found is not None else None
    if i is None:
        return None
    if text.startswith("<", i):
        i = _group(text, i)[1]
    if not text.startswith("(", i):
        return None
    for part in _split(_group(text, i)[0], ","):
        declared, colon, rest = _partition(part, ":")
        words = declared.split()
        if colon and words and words[-1].rstrip("?") == param and not words[-1].endswith("?"):
            pieces = _split(rest, "=")  # up to a default (``= x``), not an arrow's ``=>``
            kept = [pieces[0]]
            for piece in pieces[1:]:
                if not piece.startswith(">"):
                    break
                kept.append(piece)
            return "=".join(kept).strip()
    return None


def function_type_arity(annotation: str) -> tuple[int, int | None] | None:
    """How many arguments a call of a value of function type ``annotation`` takes: (required,
    at most; None: any number) for a plain function type (``(s: T, p: T) => void``), None for
    anything else (an alias, a union, an object type with call signatures). A trailing
    parameter whose type may be ``void`` (``void``, ``any``, ``unknown``, ``undefined`` in it,
    or a bare name other than a primitive's, which may be a type parameter or an alias of
    ``void``) may be left out, as the compiler allows; so the count is sure only above."""
    text = annotation.strip()
    i = 0
    if text.startswith("<"):
        i = _group(text, 0)[1]
    if not text.startswith("(", i):
        return None
    inner, end = _group(text, i)
    if not text[end:].lstrip().startswith("=>"):
        return None
    params = [p.strip() for p in _split(inner, ",") if p.strip()]
    required, total = 0, 0
    for param in params:
        if param.startswith("..."):
            return required, None
        declared, colon, kind = _partition(param, ":")
        if declared.strip() == "this":
            continue  # the receiver's type, no argument
        total += 1
        if declared.strip().endswith("?"):
            continue
        alternatives = {a.strip() for a in _split(kind, "|")} if colon else {"any"}
        voidable = alternatives & (_ACCEPTS_VOID | {"undefined"}) or any(
            re.fullmatch(r"[A-Za-z_$][\w$]*", a) and a not in _PRIMITIVES for a in alternatives
        )
        if not voidable:
            required = total
    return required, total


def alias_type(text: str, name: str) -> str | None:
    """The type a type alias ``name`` stands for (its definition's ``text``: ``export type
    Listener<S> = (state: S) => void``), or None when the text is no such alias."""
    found = re.match(rf"\s*(?:(?:export|declare)\s+)*type\s+{re.escape(name)}\s*", text)
    if found is None:
        return None
    i = found.end()
    if text.startswith("<", i):
        i = _group(text, i)[1]
    rest = text[i:].lstrip()
    if not rest.startswith("=") or rest.startswith("=>"):
        return None
    return rest[1:].strip().rstrip(";").strip()
