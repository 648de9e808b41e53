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


# what a later definition takes the plain id from: a variable bound first yields to code (a
# function or class); a type declared first (TS ``interface X`` / ``type X``) to code or a
# variable, the value the name also means (``interface X {}`` + ``class X`` or ``const X``)
_VALUES = frozenset({DefKind.VARIABLE, DefKind.FIELD})
_TYPES = frozenset({DefKind.INTERFACE, DefKind.TYPE_ALIAS})
_CODE = frozenset({DefKind.FUNCTION, DefKind.METHOD, DefKind.CLASS})


def yields(current: DefKind, later: DefKind) -> bool:
    """Whether a definition of kind ``current`` gives its qualname's plain id to a later one
    of kind ``later`` (see ``primary_definitions``)."""
    if current in _VALUES:
        return later in _CODE
    return current in _TYPES and (later in _CODE or later == DefKind.VARIABLE)


def primary_definitions(facts: FileFacts) -> dict[str, Definition]:
    """The definition each qualname stands for: the first one, except that an implementation
    wins over ``@overload`` stubs and TS overload signatures (it is what a call runs), a
    function or class over a variable bound first (``get_buffer = None`` as a fallback, then
    ``def get_buffer``: the function is what the name is for), and a value over a type
    declared first (TS: ``interface X`` + ``class X`` are one type whose code is the class;
    ``interface X`` + ``const X`` are a type and a value, and a name in code means the value;
    where it is used as a type the resolver finds the type, ``Resolver.eval_type``)."""
    primary: dict[str, Definition] = {}
    for d in facts.definitions:
        current = primary.get(d.qualname)
        if (
            current is None
            or ("overload" in current.modifiers and "overload" not in d.modifiers)
            or yields(current.kind, d.kind)
        ):
            primary[d.qualname] = d
    return primary


def definition_keys(facts: FileFacts) -> list[str]:
    """Each definition's key, in ``facts.definitions`` order: its qualname for the primary
    definition of that qualname, ``qualname#2``, ``#3``… for the others in source order. A
    frontend that tells same-named definitions apart (a static and an instance method) names
    the scope of the second ``qualname#2``, so calls inside it come from it."""
    primary = primary_definitions(facts)
    seen: dict[str, int] = {}
    keys = []
    for d in facts.definitions:
        if primary[d.qualname] is d:
            keys.append(d.qualname)
        else:
            count = seen.get(d.qualname, 1) + 1
            seen[d.qualname] = count
            keys.append(f"{d.qualname}#{count}")
    return keys


def file_symbols(facts: FileFacts) -> tuple[list[Symbol], dict[str, str]]:
    """All symbols of a file (module first) and the id each key (``definition_keys``)
    resolves to; the primary definition of a qualname gets the plain id, the others ``#2``,
    ``#3``… in source order."""
    module = module_symbol(facts)
    symbols = [module]
    first_id: dict[str, str] = {"": module.id}
    for d, key in zip(facts.definitions, definition_keys(facts), strict=True):
        sid = symbol_id(facts.path, key)
        first_id[key] = sid
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
