"""Symbol ids for one file's definitions: ``path::Qualified.Name``, readable and stable.

A module's id is its path. A qualname defined twice in one file (a property getter and setter,
overloads, a conditional redefinition) keeps the plain id for its primary definition (the
first, or the implementation after overload stubs) and ``#2``, ``#3``… for the others.
"""

from __future__ import annotations

import posixpath

from astrag.graph.facts import Definition, DefKind, FileFacts, Symbol


def symbol_id(path: str, qualname: str) -> str:
    return f"{path}::{qualname}" if qualname else path


def module_symbol(facts: FileFacts) -> Symbol:
    name = posixpath.basename(facts.path)
    return Symbol(
        id=facts.path,
        kind=DefKind.MODULE.value,
        name=name,
        qualname="",
        path=facts.path,
        start_line=1,
        end_line=max(facts.lines, 1),
        language=facts.language,
        docstring=facts.docstring,
    )


_VALUES = frozenset({DefKind.VARIABLE, DefKind.FIELD})
_CODE = frozenset({DefKind.FUNCTION, DefKind.METHOD, DefKind.CLASS})


def primary_definitions(facts: FileFacts) -> dict[str, Definition]:
    """The definition each qualname stands for: the first one, except that an implementation
    wins over ``@overload`` stubs and TS overload signatures (it is what a call runs), and a
    function or class over a variable bound first (``get_buffer = None`` as a fallback, then
    ``def get_buffer``: the function is what the name is for)."""
    primary: dict[str, Definition] = {}
    for d in facts.definitions:
        current = primary.get(d.qualname)
        if (
            current is None
            or ("overload" in current.modifiers and "overload" not in d.modifiers)
            or (current.kind in _VALUES and d.kind in _CODE)
        ):
            primary[d.qualname] = d
    return primary


def file_symbols(facts: FileFacts) -> tuple[list[Symbol], dict[str, str]]:
    """All symbols of a file (module first) and the id each qualname resolves to; the primary
    definition of a qualname gets the plain id, the others ``#2``, ``#3``… in source order."""
    module = module_symbol(facts)
    symbols = [module]
    first_id: dict[str, str] = {"": module.id}
    primary = primary_definitions(facts)
    seen: dict[str, int] = {}
    for d in facts.definitions:
        sid = symbol_id(facts.path, d.qualname)
        if primary[d.qualname] is d:
            first_id[d.qualname] = sid
        else:
            count = seen.get(d.qualname, 1) + 1
            seen[d.qualname] = count
            sid = f"{sid}#{count}"
        symbols.append(
            Symbol(
                id=sid,
                kind=d.kind.value,
                name=d.name,
                qualname=d.qualname,
                path=facts.path,
                start_line=d.start_line,
                end_line=d.end_line,
                parent=first_id.get(d.parent, module.id),
                language=facts.language,
                signature=d.signature,
                docstring=d.docstring,
                decorators=d.decorators,
                exported=d.exported,
                visibility=d.visibility,
                modifiers=d.modifiers,
            )
        )
    return symbols, first_id
