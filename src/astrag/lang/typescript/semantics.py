"""TypeScript's and JavaScript's semantics for the language-neutral resolver.

Imports name files by specifier (``modules.py``) and bind what the target module exports: its
``export``ed declarations, ``export { a as b }`` lists, re-exports, ``export *`` chains, and the
whole module for ``export =`` / ``module.exports =``. ``this`` and ``super`` are the receivers;
bases are linearised depth first, ``extends`` before ``implements``; a name nothing binds may be
a runtime global. JavaScript is a dialect: the same rules, except that every top-level
declaration of a plain script counts as exported (CommonJS modules export by assignment).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from astrag.graph.facts import Chain, Definition, FileFacts, Import, Reference
from astrag.graph.semantics import Receiver
from astrag.graph.values import ClassKey, Value
from astrag.lang.typescript.modules import ROOM, TsModules, resolve_ts_module

if TYPE_CHECKING:
    from astrag.graph.resolve import Resolver
    from astrag.graph.tables import FileTables

JS_GLOBALS = frozenset(
    """Array ArrayBuffer BigInt Boolean DataView Date Error EvalError Function Infinity Intl JSON
    Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set String
    Symbol SyntaxError TypeError URIError URL URLSearchParams WeakMap WeakSet WeakRef
    AbortController Blob Buffer TextDecoder TextEncoder console clearInterval clearTimeout
    decodeURIComponent encodeURIComponent document fetch globalThis isFinite isNaN module
    parseFloat parseInt process queueMicrotask require setImmediate setInterval setTimeout
    structuredClone undefined window exports __dirname __filename Record Partial Readonly
    Required Pick Omit Exclude Extract ReturnType Parameters InstanceType NonNullable Awaited
    Iterable Iterator AsyncIterable Generator PromiseLike ReadonlyArray Uint8Array Element
    HTMLElement Event EventTarget Response Request Headers FormData""".split()
)


_RETURN_TYPE = re.compile(r"\)\s*:\s*\S")  # ``): T`` in a header


class TypeScriptSemantics:
    receivers: ClassVar[Mapping[str, Receiver]] = {
        "this": Receiver.INSTANCE,
        "this()": Receiver.INSTANCE,
        "super": Receiver.SUPER,
        "super()": Receiver.SUPER,
    }
    class_body_is_scope = False
    members_in_scope = False
    # ``Self`` and ``self`` come from the rule the languages shared before each had its own
    # room (no behaviour changed in the move); in JavaScript ``return self`` after
    # ``const self = this`` is an idiom, ``: Self`` is almost never written
    receiver_types: frozenset[Chain] = frozenset({("Self",), ("this",)})
    receiver_values: frozenset[Chain] = frozenset({("self",), ("this",)})
    constructor = "constructor"
    builtin_collections: ClassVar[Mapping[str, tuple[str, Mapping[str, str]]]] = {
        "map": ("Map", {"get": "value", "values": "values"}),
        "elems": (
            "Array",
            {
                **dict.fromkeys(("shift", "pop", "at", "find", "findLast"), "value"),
                **dict.fromkeys(
                    ("filter", "slice", "concat", "reverse", "sort", "splice", "values"), "values"
                ),
                **dict.fromkeys(("toReversed", "toSorted", "toSpliced"), "values"),
            },
        ),
    }
    element_methods: ClassVar[Mapping[str, str]] = {}  # no iteration protocol read

    def __init__(self, language: str, top_level_exported: bool) -> None:
        self.language = language
        # JavaScript: every top-level declaration, exported or not (CommonJS)
        self.top_level_exported = top_level_exported

    def global_name(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        if name == "exports":  # CommonJS: the module's own exports (``exports.f(x)``)
            return ("mod", t.path)
        return ("ext", name) if name in JS_GLOBALS else None

    def import_value(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        target = resolve_ts_module(r.modules, t.path, imp.module)
        if target is None:
            if imp.module.startswith("."):
                return None
            if imp.name in (None, "default"):
                return ("ext", imp.module)
            return ("ext", f"{imp.module}.{imp.name}")
        if imp.name is None:
            return _module_value(r, target)
        return r.module_member(target, imp.name)

    def star_member(self, r: Resolver, t: FileTables, imp: Import, name: str) -> Value | None:
        path = resolve_ts_module(r.modules, t.path, imp.module)
        if not path:
            return None
        reach = star_reach(r, path)
        if reach.names is not None and name != "default" and name not in reach.names:
            # no module of the chain declares the name: asking each of them (a barrel of
            # barrels asks hundreds) would find nothing after consulting exactly these files
            r.touch_all(reach.files)
            return None
        return r.module_member(path, name)

    def star_import_target(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        target = resolve_ts_module(r.modules, t.path, imp.module)
        if target:
            return ("mod", target)
        return None if imp.module.startswith(".") else ("ext", imp.module)

    def module_member(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        local = t.exports.get(name)
        if local is not None:
            return _exported_local(r, t, local)
        top = t.children.get("", {})
        if name == "default":
            for d_name, qual in top.items():
                d = t.defs[qual]
                if "default_export" in d.modifiers or (
                    d_name == name and (d.exported or self.top_level_exported)
                ):
                    return ("sym", t.path, qual)
        else:
            # one lookup, not a scan of the module's definitions: a barrel's `export *` asks
            # every module it re-exports for each name (medusa: 320k asks)
            qual = top.get(name)
            if qual is not None and (t.defs[qual].exported or self.top_level_exported):
                return ("sym", t.path, qual)
        imp = t.reexports.get(name)
        if imp is not None:
            return r.import_target(t, imp)
        for star in t.star_reexports:
            found = self.star_member(r, t, star, name)
            if found is not None:
                return found
        whole = t.exports.get("=")
        if whole is not None:
            value = r.value_of(_exported_local(r, t, whole))
            return r.member(value, name) if value is not None else None
        return None

    def namespace_member(self, r: Resolver, dotted: str, name: str) -> Value | None:
        return None  # specifiers always name files: there are no namespace packages

    def declares_return(self, d: Definition) -> bool:
        return bool(_RETURN_TYPE.search(d.signature))

    def linearise(
        self, r: Resolver, own: ClassKey, bases: Sequence[ClassKey], base_mros: Sequence[list]
    ) -> list[ClassKey]:
        linear = [own]
        seen = {own}  # a set, not `in linear`: that was quadratic per class on a long chain
        for mro in base_mros:
            for c in mro:
                if c not in seen:
                    seen.add(c)
                    linear.append(c)
        return linear

    def implied_bases(self, r: Resolver, t: FileTables, qual: str) -> Sequence[Value]:
        return ()

    def call_target(self, r: Resolver, t: FileTables, ref: Reference, denot: Value) -> Value:
        return denot

    def module_is_dynamic(self, r: Resolver, t: FileTables) -> bool:
        """``export *`` from outside the repository: any name may come from there."""
        return any(
            resolve_ts_module(r.modules, t.path, imp.module) is None for imp in t.star_reexports
        )


@dataclass(frozen=True, slots=True)
class StarReach:
    """A module and every module its ``export *`` chains reach, with what they could give."""

    files: frozenset[str]
    # every name those modules declare at top level, export or re-export by name; None when
    # one of them has ``export =`` (a member of that value may be any name)
    names: frozenset[str] | None


def star_reach(r: Resolver, path: str) -> StarReach:
    """What looking a name up in ``path`` through its ``export *`` chains can find, and which
    files such a lookup consults (kept for the run, in its module tables)."""
    index: TsModules = r.modules.of(ROOM)
    found = index.star_reach.get(path)
    if found is not None:
        return found
    files: set[str] = set()
    names: set[str] = set()
    whole = False
    stack = [path]
    while stack:
        p = stack.pop()
        if p in files:
            continue
        files.add(p)
        # not r.table(): the caller records the files when it uses them
        built = r.tables.get(p)  # a plain get: building tables only for this costs more
        if built is not None:
            whole = whole or "=" in built.exports
            names.update(built.exports, built.reexports, built.children.get("", ()))
            stars: Sequence[Import] = built.star_reexports
        else:
            stars = _star_outline(r.tables.facts[p], names)
            whole = whole or "=" in names
        for star in stars:
            target = resolve_ts_module(r.modules, p, star.module)
            if target:
                stack.append(target)
    found = StarReach(frozenset(files), None if whole else frozenset(names))
    index.star_reach[path] = found
    return found


def _star_outline(facts: FileFacts, names: set[str]) -> list[Import]:
    """What :func:`star_reach` reads of a module, from its facts as the tables would give it
    (``graph/tables.build_tables``): adds to ``names`` the names it exports, re-exports by name
    and declares at top level; returns its ``export *`` imports. A barrel's chains reach
    hundreds of modules whose tables nothing else in an incremental run needs."""
    names.update([exported for _, exported in facts.exports])
    names.update([d.name for d in facts.definitions if not d.parent])
    stars: list[Import] = []
    for imp in facts.imports:
        if imp.name == "*":
            if imp.reexport and not imp.alias:
                stars.append(imp)
        elif imp.alias and imp.reexport:
            names.add(imp.alias)
    return stars


def _exported_local(r: Resolver, t: FileTables, local: str) -> Value | None:
    """What an export's local name means: a top-level name, or the qualname of a definition
    attached to one (``module.exports = internals.Auth = class {}`` exports ``internals.Auth``)."""
    if "." in local and local in t.defs:
        return ("sym", t.path, local)
    return r.module_level(t, local)


def _module_value(r: Resolver, path: str) -> Value:
    """A whole module as an import binds it: what ``export =`` exports, else the module."""
    t = r.table(path)
    local = t.exports.get("=")
    if local is not None:
        found = _exported_local(r, t, local)
        if found is not None:
            return found
    return ("mod", path)


TYPESCRIPT = TypeScriptSemantics("typescript", top_level_exported=False)
JAVASCRIPT = TypeScriptSemantics("javascript", top_level_exported=True)
