"""Symbol ids for one file's definitions: ``path::Qualified.Name``, readable and stable.

A module's id is its path. A qualname defined twice in one file (a property getter and setter,
TypeScript overload signatures, a conditional redefinition) keeps the plain id for its first
definition and ``#2``, ``#3``… for the next, so ids stay unique and the first stays stable.
"""

from __future__ import annotations

import posixpath

from astrag.graph.facts import DefKind, FileFacts, Symbol


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


def file_symbols(facts: FileFacts) -> tuple[list[Symbol], dict[str, str]]:
    """All symbols of a file (module first) and the id each qualname resolves to."""
    module = module_symbol(facts)
    symbols = [module]
    first_id: dict[str, str] = {"": module.id}
    seen: dict[str, int] = {}
    for d in facts.definitions:
        count = seen.get(d.qualname, 0) + 1
        seen[d.qualname] = count
        sid = symbol_id(facts.path, d.qualname)
        if count > 1:
            sid = f"{sid}#{count}"
        else:
            first_id[d.qualname] = sid
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
