"""Name-level semantics, shared by every tags-only room: link a name to a definition of it.

The resolver core does the scoping (locals, the file's own definitions, members through
``self``/``this`` and a class's bases); what it asks a language, a name-level room answers by
name only, in this order, precision first:

1. the file's own definitions (the core, before asking);
2. a file the file includes or requires (``#include "x.h"``, ``require_relative``): the
   included file's top-level definitions (``star_member``);
3. an imported name (``use a::b::C``): the one definition of that name in the language
   family's files, preferring files whose path holds the import's last module part; none in
   the repository makes it external (``external::a.b.C``);
4. any other name: the one definition of that name in the family's files that is not a
   member, a field or a variable (a unique repository-wide name; in Ruby, where a bare call
   is a call on self of a method any mixin may define, methods count too). Two or more, or none, and
   the name stays unresolved: a guess between two is never made.

Every edge of such a file is marked ``resolution = "name"``. Known limit: a link made by rule 4
depends on the file it points at, so an incremental update re-resolves it when that file
changes, but a second definition of the name appearing elsewhere is seen only when the using
file itself is re-resolved (or at ``astrag index --rebuild``).
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from astrag.graph.facts import Chain, Definition, DefKind, Import, Reference
from astrag.graph.semantics import Receiver
from astrag.graph.values import ClassKey, Value

if TYPE_CHECKING:
    from astrag.graph.resolve import Resolver
    from astrag.graph.tables import FileTables

# what a bare name may link to repository-wide: not members, fields or locals
_GLOBAL_KINDS = frozenset(DefKind) - {DefKind.METHOD, DefKind.FIELD, DefKind.VARIABLE}


@dataclass(frozen=True, slots=True)
class TagsModules:
    """Indexed paths of one name-level room, for finding the file an include names."""

    paths: frozenset[str]
    by_basename: dict[str, tuple[str, ...]]


def index_modules(all_paths: frozenset[str], layout: Any = None) -> TagsModules:
    return TagsModules(all_paths, _by_basename(all_paths))


@lru_cache(maxsize=1)
def _by_basename(all_paths: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Every path by its file name. The same for each name-level room of a run, so it is made
    once, not once per room (nine rooms over medusa's 5.7k paths: 0.08 s of a one-file edit);
    read only."""
    by_base: dict[str, list[str]] = {}
    for p in sorted(all_paths):
        by_base.setdefault(posixpath.basename(p), []).append(p)
    return {k: tuple(v) for k, v in by_base.items()}


@dataclass(frozen=True)
class TagsSemantics:
    language: str
    room: str  # the room's name: where its module table is
    # languages whose files link to each other by name (C and C++ share headers)
    family: frozenset[str]
    receivers: Mapping[str, Receiver] = field(default_factory=dict)
    constructor: str = "constructor"
    # extensions tried for an include or require written without one (``require 'x'``)
    file_suffixes: tuple[str, ...] = ()
    # whether a bare name may be a method defined anywhere (Ruby: a call without a receiver is
    # a call on self, and the method may come from any mixin); else only non-members
    bare_names_reach_methods: bool = False
    class_body_is_scope = False
    members_in_scope = False  # a member is reached through its receiver, never by bare name
    receiver_types: frozenset[Chain] = frozenset()
    receiver_values: frozenset[Chain] = frozenset()
    # name-level: no types, so no collections
    builtin_collections: Mapping[str, tuple[str, Mapping[str, str]]] = field(default_factory=dict)
    element_methods: Mapping[str, str] = field(default_factory=dict)

    # ------------------------------------------------------------------ names

    def _named(self, r: Resolver, name: str) -> list[tuple[str, str, Definition]]:
        """Every definition called ``name`` in the family's files: (path, qualname, def)."""
        index = r.memoised(("tags-names", self.family), lambda: _name_index(r, self.family))
        return index.get(name, [])  # type: ignore[union-attr]

    def _unique(
        self, r: Resolver, name: str, hint: str = "", methods: bool = False
    ) -> Value | None:
        kinds = _GLOBAL_KINDS | {DefKind.METHOD} if methods else _GLOBAL_KINDS
        # one qualname defined twice in a file (a Scala class and its companion) is one target
        found = list(dict.fromkeys((p, q) for p, q, d in self._named(r, name) if d.kind in kinds))
        if len(found) > 1 and hint:
            found = [(p, q) for p, q in found if hint in p.lower()] or found
        if len(found) != 1:
            return None
        path, qual = found[0]
        r.touch(path)
        return ("sym", path, qual)

    def global_name(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        return self._unique(r, name, methods=self.bare_names_reach_methods)

    def import_value(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        if imp.name is None:
            target = self._file(r, t, imp.module)
            return ("mod", target) if target else ("ext", imp.module)
        last = imp.module.rpartition(".")[2].lower()
        found = self._unique(r, imp.name, hint=last)
        if found is not None:
            return found
        if any(d.kind in _GLOBAL_KINDS for _, _, d in self._named(r, imp.name)):
            return None  # several in the repository: which one is not known
        return ("ext", f"{imp.module}.{imp.name}" if imp.module else imp.name)

    def star_member(self, r: Resolver, t: FileTables, imp: Import, name: str) -> Value | None:
        target = self._file(r, t, imp.module) if imp.level else None
        if target is None:
            return None
        qual = r.table(target).children.get("", {}).get(name)
        return ("sym", target, qual) if qual is not None else None

    def star_import_target(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        target = self._file(r, t, imp.module) if imp.level else None
        return ("mod", target) if target else ("ext", imp.module)

    def _file(self, r: Resolver, t: FileTables, spec: str) -> str | None:
        """The indexed file an include or require names: beside the including file, else the
        one file in the repository whose path ends so."""
        modules: TagsModules = r.modules.of(self.room)
        spec = spec.removeprefix("./")
        names = [spec, *(spec + s for s in self.file_suffixes if not spec.endswith(s))]
        here = posixpath.dirname(t.path)
        for name in names:
            near = posixpath.normpath(posixpath.join(here, name))
            if near in modules.paths:
                return near
        for name in names:
            ending = [
                p
                for p in modules.by_basename.get(posixpath.basename(name), ())
                if p == name or p.endswith("/" + name)
            ]
            if len(ending) == 1:
                return ending[0]
        return None

    # ------------------------------------------------------------------ the rest

    def module_member(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        qual = t.children.get("", {}).get(name)
        return ("sym", t.path, qual) if qual is not None else None

    def namespace_member(self, r: Resolver, dotted: str, name: str) -> Value | None:
        return None

    def declares_return(self, d: Definition) -> bool:
        return True  # return types are not followed at name level: never evaluate returns

    def linearise(
        self, r: Resolver, own: ClassKey, bases: Sequence[ClassKey], base_mros: Sequence[list]
    ) -> list[ClassKey]:
        out = [own]
        for mro in base_mros:
            out.extend(k for k in mro if k not in out)
        return out

    def implied_bases(self, r: Resolver, t: FileTables, qual: str) -> Sequence[Value]:
        return ()

    def call_target(self, r: Resolver, t: FileTables, ref: Reference, denot: Value) -> Value:
        return denot

    def module_is_dynamic(self, r: Resolver, t: FileTables) -> bool:
        return True  # nothing is claimed missing at name level


def _name_index(r: Resolver, family: frozenset[str]) -> dict[str, list[tuple[str, str, Any]]]:
    """Definitions by name over the family's files, read without recording dependencies (a
    use records the one file it links to)."""
    from astrag import lang  # the registry imports the rooms, which import this module

    index: dict[str, list[tuple[str, str, Any]]] = {}
    for path in sorted(r.facts):
        if lang.language_of(path) not in family:
            continue
        for d in r.tables[path].facts.definitions:
            index.setdefault(d.name, []).append((path, d.qualname, d))
    return index
