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
    members_in_scope = False
    # ``this`` in both, and the name ``constructor``, come from the rule the languages shared
    # before each had its own room (no behaviour changed in the move); a Python ``-> this`` or
    # ``return this`` is almost never written, and no Python constructor is called that
    receiver_types: frozenset[Chain] = frozenset({("Self",), ("this",)})
    receiver_values: frozenset[Chain] = frozenset({("self",), ("this",)})
    constructor = "constructor"
    element_methods: ClassVar[Mapping[str, str]] = {"[i]": "__iter__", "[k]": "__getitem__"}
    builtin_collections: ClassVar[Mapping[str, tuple[str, Mapping[str, str]]]] = {
        "map": (
            "dict",
            {"get": "value", "setdefault": "value", "pop": "value", "values": "values"},
        ),
        "elems": ("list", {"pop": "value", "copy": "values"}),
    }

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
        if len(bases) == 1:
            # one base: C3 gives the class, then its base's order. Checked, not assumed: the
            # base's order must start with it, hold each class once and not hold this class
            # (a cycle). Merging would cost as much as the chain is long, at every class.
            (linear,) = base_mros
            starts = bool(linear) and linear[0] == bases[0]
            if starts and own not in linear and len(set(linear)) == len(linear):
                return [own, *linear]
        return c3([[own], *base_mros, list(bases)])

    def implied_bases(self, r: Resolver, t: FileTables, qual: str) -> Sequence[Value]:
        return ()

    def call_target(self, r: Resolver, t: FileTables, ref: Reference, denot: Value) -> Value:
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
    """C3 linearisation; falls back to depth-first order for inconsistent hierarchies.

    Linear in the total length of the sequences times their number: each sequence is read
    through a cursor, and how many sequences hold a class behind their cursor is counted, so
    "is this head in some tail" is one lookup. Copying and rescanning every sequence at every
    step, as the textbook version does, made a 5,000-class inheritance chain cubic."""
    seqs = [s for s in sequences if s]
    cursor = [0] * len(seqs)
    in_tail: dict[ClassKey, int] = {}
    for s in seqs:
        for c in s[1:]:
            in_tail[c] = in_tail.get(c, 0) + 1
    live = list(range(len(seqs)))  # sequences not yet used up, in their original order
    result: list[ClassKey] = []
    while live:
        for i in live:
            head = seqs[i][cursor[i]]
            if not in_tail.get(head):
                break
        else:
            seen = set(result)
            for i in live:
                for c in seqs[i][cursor[i] :]:
                    if c not in seen:
                        seen.add(c)
                        result.append(c)
            return result
        result.append(head)
        for i in live:
            s = seqs[i]
            # a good head is in no tail, so it can only be (all of) a sequence's front
            while cursor[i] < len(s) and s[cursor[i]] == head:
                cursor[i] += 1
                if cursor[i] < len(s):
                    in_tail[s[cursor[i]]] -= 1
        live = [i for i in live if cursor[i] < len(seqs[i])]
    return result


SEMANTICS = PythonSemantics()
