"""Per-file lookup tables: one file's facts arranged the way the resolver looks names up.

Built once per file (:class:`TableCache`), from that file's facts alone, so an indexer can build
them while other files still parse, and a checker can share them between checks.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from astrag import lang
from astrag.graph.facts import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Binding,
    Definition,
    FileFacts,
    Import,
    Symbol,
)
from astrag.graph.semantics import LanguageSemantics
from astrag.graph.symbols import definition_keys, file_symbols, primary_definitions


@dataclass(slots=True)
class FileTables:
    facts: FileFacts
    ids: dict[str, str]  # key (qualname, or qualname#2... for the others) -> symbol id
    symbols: list[Symbol]
    sem: LanguageSemantics  # the file's language, as the resolver needs to know it
    defs: dict[str, Definition] = field(default_factory=dict)  # by key, as ``ids``
    children: dict[str, dict[str, str]] = field(default_factory=dict)  # qual -> name -> qual
    statics: dict[str, dict[str, str]] = field(default_factory=dict)  # static members only
    imports: dict[str, dict[str, Import]] = field(default_factory=dict)  # scope -> alias -> imp
    star_imports: dict[str, list[Import]] = field(default_factory=dict)  # scope -> imports
    reexports: dict[str, Import] = field(default_factory=dict)  # exported name -> import
    star_reexports: list[Import] = field(default_factory=list)
    exports: dict[str, str] = field(default_factory=dict)  # exported name -> local name
    bindings: dict[str, dict[str, list[Binding]]] = field(default_factory=dict)
    # per qualname, filled as the resolver asks: whether a namespace declared under it merges
    # into it (``Resolver._root`` asks for every class a bare name's lookup passes)
    merged: dict[str, bool] = field(default_factory=dict)
    path: str = ""  # the facts' path, read once per name looked up: a field, not a property

    def __post_init__(self) -> None:
        self.path = self.facts.path

    def binding_scope(self, scope: str, name: str) -> tuple[str, list[Binding]] | None:
        """The innermost scope from ``scope`` outwards, the module's ("") last, that binds
        ``name``, with its bindings; None when none does."""
        while True:
            bound = self.bindings.get(scope, {}).get(name)
            if bound:
                return scope, bound
            d = self.defs.get(scope) if scope else None
            if d is None:
                return None
            scope = d.parent

    def enclosing_class(self, scope: str) -> str | None:
        """The qualname of the innermost class around ``scope`` (itself, if a class)."""
        while scope:
            d = self.defs.get(scope)
            if d is None:
                return None
            if d.kind in CLASS_KINDS:
                return scope
            scope = d.parent
        return None

    def others(self, qual: str) -> Iterator[tuple[str, Definition]]:
        """The second and later definitions of ``qual`` in the file, by their keys
        (``qual#2``, ``qual#3``…) in source order: a TS overload stub, an interface or a
        namespace merged with a class, an ``if``/``else`` alternative."""
        n = 2
        while (d := self.defs.get(key := f"{qual}#{n}")) is not None:
            yield key, d
            n += 1


def build_tables(facts: FileFacts) -> FileTables:
    symbols, ids = file_symbols(facts)
    t = FileTables(
        facts=facts,
        ids=ids,
        symbols=symbols,
        sem=lang.semantics_for(facts.language),
        defs=primary_definitions(facts),
    )
    for d, key in zip(facts.definitions, definition_keys(facts), strict=True):
        if key != d.qualname:
            t.defs[key] = d  # a second definition of a qualname, by its own key (``f#2``)
        members = t.children.setdefault(d.parent, {})
        if "static" in d.modifiers:
            # TS allows a static and an instance member of one name: keep both, instance
            # first, each by its own key (an overload stub stands for its implementation)
            own = key if d.kind in FUNCTION_KINDS and "overload" not in d.modifiers else d.qualname
            t.statics.setdefault(d.parent, {}).setdefault(d.name, own)
            members.setdefault(d.name, own)
        elif d.name not in members:
            members[d.name] = d.qualname
        elif members[d.name] == t.statics.get(d.parent, {}).get(d.name):
            members[d.name] = key if d.kind in FUNCTION_KINDS else d.qualname
    for imp in facts.imports:
        if imp.reexport and imp.name == "*" and not imp.alias:
            t.star_reexports.append(imp)
        elif imp.name == "*":
            t.star_imports.setdefault(imp.scope, []).append(imp)
        elif imp.alias:
            t.imports.setdefault(imp.scope, {})[imp.alias] = imp
            if imp.reexport:
                t.reexports[imp.alias] = imp
    for local, exported in facts.exports:
        t.exports.setdefault(exported, local)
    for b in facts.bindings:
        t.bindings.setdefault(b.scope, {}).setdefault(b.name, []).append(b)
    return t


class TableCache(dict[str, FileTables]):
    """Per-file lookup tables, built the first time a file is consulted (or ahead of time,
    with :meth:`refresh`, by an indexer that has cycles to spare while files still parse)."""

    def __init__(self, facts: Mapping[str, FileFacts]) -> None:
        super().__init__()
        self.facts = facts

    def __missing__(self, path: str) -> FileTables:
        tables = self[path] = build_tables(self.facts[path])
        return tables

    def refresh(self, path: str) -> None:
        """(Re)build the tables of a file whose facts just changed."""
        self[path] = build_tables(self.facts[path])


@dataclass(slots=True)
class Site:
    """Where a chain is evaluated: a file, a scope in it and a line."""

    t: FileTables
    scope: str
    line: int
