"""Python's semantics for the language-neutral resolver (``graph/semantics.py``).

Imports bind modules by dotted name (``import a.b.c`` binds ``a``), a package's ``__init__``
exposes its submodules, ``from m import *`` takes ``__all__`` when it is a static list and every
public name otherwise; ``self``, ``cls`` and ``super()`` are the receivers; bases are linearised
with C3; a name nothing binds may be a builtin.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from astrag.graph.facts import Chain, Definition, Import, Reference
from astrag.graph.semantics import Receiver
from astrag.graph.values import ClassKey, Value
from astrag.lang.python.modules import (
    dotted_name_of,
    in_repository_package,
    is_python_namespace,
    python_module_path,
    resolve_python_module,
)

if TYPE_CHECKING:
    from astrag.graph.resolve import Resolver
    from astrag.graph.tables import FileTables

LANGUAGE = "python"
PY_BUILTINS = frozenset(dir(builtins))


class PythonSemantics:
    language = LANGUAGE
    receivers: ClassVar[Mapping[str, Receiver]] = {
        "self": Receiver.INSTANCE,
        "self()": Receiver.INSTANCE,
        "cls": Receiver.CLASS,
        "cls()": Receiver.CLASS,
        "super()": Receiver.SUPER,  # a bare ``super`` is the builtin
    }
    class_body_is_scope = True
    # ``this`` in both, and the name ``constructor``, come from the rule the languages shared
    # before each had its own room (no behaviour changed in the move); a Python ``-> this`` or
    # ``return this`` is almost never written, and no Python constructor is called that
    receiver_types: frozenset[Chain] = frozenset({("Self",), ("this",)})
    receiver_values: frozenset[Chain] = frozenset({("self",), ("this",)})
    constructor = "constructor"

    def global_name(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        return ("ext", f"builtins.{name}") if name in PY_BUILTINS else None

    def import_value(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        dotted = resolve_python_module(r.modules, t.path, imp.module, imp.level)
        if dotted is None:
            return None
        if imp.name is None:
            if imp.level == 0 and "." in dotted and imp.alias == dotted.split(".")[0]:
                dotted = imp.alias  # ``import a.b.c`` binds ``a``
            return module_value(r, dotted)
        base = module_value(r, dotted)
        if base is None or (base[0] == "ext" and imp.level):
            return None
        if base[0] == "ext":
            return ("ext", f"{dotted}.{imp.name}")
        return r.member(base, imp.name)

    def star_member(self, r: Resolver, t: FileTables, imp: Import, name: str) -> Value | None:
        dotted = resolve_python_module(r.modules, t.path, imp.module, imp.level)
        base = module_value(r, dotted) if dotted else None
        if base is None or base[0] != "mod":
            return None
        target = r.table(base[1])
        if target.facts.all_names is not None:
            if name not in target.facts.all_names:
                return None
        elif name.startswith("_"):
            return None
        return r.module_member(base[1], name)

    def star_import_target(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        dotted = resolve_python_module(r.modules, t.path, imp.module, imp.level)
        return module_value(r, dotted) if dotted else None

    def module_member(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        found = r.module_level(t, name)
        if found is not None and found != ("ext", f"builtins.{name}"):
            return found
        if t.path.endswith(("__init__.py", "__init__.pyi")):
            dotted = dotted_name_of(r.modules, t.path)
            sub = module_value(r, f"{dotted}.{name}" if dotted else name)
            if sub is not None and sub[0] != "ext":
                return sub
        return None

    def namespace_member(self, r: Resolver, dotted: str, name: str) -> Value | None:
        return module_value(r, f"{dotted}.{name}")

    def declares_return(self, d: Definition) -> bool:
        return "->" in d.signature

    def linearise(
        self, r: Resolver, own: ClassKey, bases: Sequence[ClassKey], base_mros: Sequence[list]
    ) -> list[ClassKey]:
        return c3([[own], *base_mros, list(bases)])

    def implied_bases(self, r: Resolver, t: FileTables, qual: str) -> Sequence[Value]:
        return ()

    def call_target(self, r: Resolver, ref: Reference, denot: Value) -> Value:
        return denot

    def module_is_dynamic(self, r: Resolver, t: FileTables) -> bool:
        return "__getattr__" in t.children.get("", {}) or bool(t.star_imports.get(""))


def module_value(r: Resolver, dotted: str) -> Value | None:
    """What a dotted module name denotes: a module file, a namespace package, an external
    module, or None for a missing module inside one of the repository's packages."""
    path = python_module_path(r.modules, dotted)
    if path is not None:
        return ("mod", path)
    if is_python_namespace(r.modules, dotted):
        return ("ns", dotted, LANGUAGE)
    if in_repository_package(r.modules, dotted):
        return None  # inside one of the repository's packages, yet missing: not external
    return ("ext", dotted) if dotted else None


def c3(sequences: list[list[ClassKey]]) -> list[ClassKey]:
    """C3 linearisation; falls back to depth-first order for inconsistent hierarchies."""
    seqs = [list(s) for s in sequences if s]
    result: list[ClassKey] = []
    while seqs:
        for seq in seqs:
            head = seq[0]
            if not any(head in s[1:] for s in seqs):
                break
        else:
            for seq in seqs:
                result.extend(c for c in seq if c not in result)
            return result
        result.append(head)
        seqs = [[c for c in s if c != head] for s in seqs]
        seqs = [s for s in seqs if s]
    return result


SEMANTICS = PythonSemantics()
