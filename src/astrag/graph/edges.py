"""One file's facts -> its edges, every name resolved through the resolver; placeholders.

Structure first (``contains``, ``inherits``/``implements``, ``overrides``), then one ``imports``
edge per imported name, then one edge per reference. A target the resolver cannot find keeps a
named placeholder (``external::...``, ``unresolved::...``) instead of being dropped, except for
reads, which are mostly untyped locals.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from astrag import lang
from astrag.graph.facts import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Chain,
    Definition,
    DefKind,
    Edge,
    EdgeKind,
    Import,
    Reference,
    RefKind,
    Resolution,
    ResolvedFile,
    Symbol,
)
from astrag.graph.symbols import symbol_id
from astrag.graph.tables import FileTables, Site
from astrag.graph.values import Value

if TYPE_CHECKING:
    from astrag.graph.resolve import Resolver

_log = logging.getLogger("astrag")
_CONTAINS = EdgeKind.CONTAINS
_new = tuple.__new__
_REF_EDGE = {
    RefKind.CALL: EdgeKind.CALLS,
    RefKind.NEW: EdgeKind.REFERENCES,
    RefKind.READ: EdgeKind.REFERENCES,
    RefKind.TYPE: EdgeKind.REFERENCES,
}


def placeholders_for(targets: Iterable[str]) -> list[Symbol]:
    """The placeholder symbols (external / unresolved) among edge targets, once each."""
    prefixes = ("external::", "unresolved::")
    return [placeholder_symbol(t) for t in dict.fromkeys(targets) if t.startswith(prefixes)]


def placeholder_symbol(target: str) -> Symbol:
    kind, _, dotted = target.partition("::")
    name = dotted.rsplit(".", 1)[-1] if not dotted.startswith(("./", "../")) else dotted
    return Symbol(id=target, kind=kind, name=name, qualname=dotted, path="")


class EdgeEmitter:
    """Turns one file's facts into edges, using the resolver for every name."""

    def __init__(self, resolver: Resolver, t: FileTables, out: ResolvedFile):
        self.r = resolver
        self.t = t
        self.out = out
        self.path = t.path
        self.resolution = lang.resolution_of(t.facts.language)
        # scope qualname -> the id edges from that scope start at
        self._scope_ids: dict[str, str] = {}
        # primary id -> (start, end, id) of every definition sharing its qualname, if several
        self._redefined: dict[str, list[tuple[int, int, str]]] | None = None

    def emit_all(self) -> None:
        self._emit_structure()
        for imp in self.t.facts.imports:
            try:
                self._emit_import(imp)
            except Exception as e:  # a bug in astrag: see _failed
                self._failed(imp.line, e)
        for ref in self.t.facts.references:
            if ref.kind in _REF_EDGE:
                try:
                    self._emit_reference(ref)
                except Exception as e:
                    self._failed(ref.line, e)

    def _failed(self, line: int, error: Exception) -> None:
        """A site astrag's resolution raised on (pyparsing's property annotated with its own
        name recursed until Python's stack ran out): that one site is left out and said so,
        where it used to end the whole index run with nothing written. ``ASTRAG_DEBUG`` set
        raises it instead, for a report."""
        if os.environ.get("ASTRAG_DEBUG"):
            raise error
        self.r.forget_cut_short()
        _log.warning(
            "astrag: could not resolve %s:%d (%s: %s); that site is left out of the graph. "
            "This is a bug in astrag: run again with ASTRAG_DEBUG=1 and report the traceback",
            self.path, line, type(error).__name__, str(error)[:200],
        )  # fmt: skip

    def _source(self, scope: str, line: int = 0) -> str:
        found = self._scope_ids.get(scope)
        if found is None:
            qual = scope
            while qual and qual not in self.t.ids:
                qual = qual.rpartition(".")[0]
            found = self.t.ids.get(qual, self.path)
            self._scope_ids[scope] = found
        if self._redefined is None:
            self._redefined = _redefinitions(self.t.symbols)
        spans = self._redefined.get(found)
        if spans and line:
            # ``if WIN: def getchar ... else: def getchar ...``: a call inside the second
            # definition comes from ``getchar#2``, not from the first
            for start, end, sid in spans:
                if start <= line <= end:
                    return sid
        return found

    def _add(self, source: str, target: str, kind: EdgeKind, line: int, column: int = 0) -> None:
        # containment is what the file says, whatever the language's level
        how = Resolution.RESOLVED if kind is _CONTAINS else self.resolution
        # built as the tuple it is: the named tuple's Python-level ``__new__`` costs as much
        # again, once per edge (jackson-databind: 193k)
        self.out.edges.append(_new(Edge, (source, target, kind, self.path, line, column, how)))

    def _target_id(self, denot: Value | None, fallback: str) -> str:
        if denot is not None:
            kind = denot[0]
            if kind == "sym":
                found = self.r.tables[denot[1]].ids.get(denot[2])
                return found if found is not None else symbol_id(denot[1], denot[2])
            if kind == "mod":
                return denot[1]
            if kind == "ext":
                return f"external::{denot[1]}"
            if kind == "builtin" and denot[1]:  # ``d.get``: the mapping class's own method
                return f"external::{denot[1]}"
            if kind == "ns":
                return f"unresolved::{denot[1]}"  # a directory, not a symbol
        return f"unresolved::{fallback}"

    def _emit_structure(self) -> None:
        t = self.t
        for sym in t.symbols[1:]:
            self._add(sym.parent or self.path, sym.id, EdgeKind.CONTAINS, sym.start_line)
        for qual, d in t.defs.items():
            if d.kind in CLASS_KINDS:
                self._emit_heritage(qual, d)  # each declaration its own (``X#2``'s too)
            elif qual != d.qualname:
                continue  # a second definition of a qualname (``f#2``): structure once
            elif d.kind == DefKind.METHOD:
                self._emit_override(qual, d)

    def _emit_heritage(self, qual: str, d: Definition) -> None:
        site = Site(self.t, d.parent, d.start_line)
        source = self.t.ids[qual]
        interface = d.kind == DefKind.INTERFACE
        for chain in d.bases:
            denot, _ = self.r.walk(site, chain)
            kind = EdgeKind.INHERITS
            if not interface and denot is not None and denot[0] == "sym":
                base = self.r.definition(denot)
                if base is not None and base.kind == DefKind.INTERFACE:
                    kind = EdgeKind.IMPLEMENTS  # a class can only "extend" an interface in error
            self._add(source, self._target_id(denot, ".".join(chain)), kind, d.start_line)
        for chain in d.implements:
            denot, _ = self.r.walk(site, chain)
            target = self._target_id(denot, ".".join(chain))
            self._add(source, target, EdgeKind.IMPLEMENTS, d.start_line)
        for implied in self.t.sem.implied_bases(self.r, self.t, qual):
            target = self._target_id(implied, qual)
            self._add(source, target, EdgeKind.IMPLEMENTS, d.start_line)

    def _emit_override(self, qual: str, d: Definition) -> None:
        cls = self.t.defs.get(d.parent)
        if cls is None or cls.kind not in CLASS_KINDS or d.name == self.t.sem.constructor:
            return
        mro, _ = self.r.mro(self.path, d.parent)
        tables = self.r.tables  # mro() has recorded every file of the hierarchy already
        for cpath, cqual in mro[1:]:
            member = tables[cpath].children.get(cqual, {}).get(d.name)
            if member is not None and _mixed_in(tables[cpath], cqual, member):
                continue  # ``Object.assign(C.prototype, m)``: m's function replaces C's own
            if member is not None:
                target = self.r.tables[cpath].ids[member]
                self._add(self.t.ids[qual], target, EdgeKind.OVERRIDES, d.start_line)
                return

    def _emit_import(self, imp: Import) -> None:
        source = self._source(imp.scope, imp.line)
        if imp.name == "*":
            module = self.t.sem.star_import_target(self.r, self.t, imp)
            target = self._target_id(module, "." * imp.level + imp.module)
            self._add(source, target, EdgeKind.IMPORTS, imp.line)
            return
        denot = self.r.import_target(self.t, imp)
        spec = "." * imp.level + imp.module
        fallback = f"{spec}.{imp.name}" if imp.name else spec
        self._add(source, self._target_id(denot, fallback), EdgeKind.IMPORTS, imp.line)

    def _emit_reference(self, ref: Reference) -> None:
        site = Site(self.t, ref.scope, ref.line)
        if ref.chain[-1].endswith("()"):
            # ``f(x)(y)``: the callee is what f returns, not f (whose call is its own reference)
            value = self.r.eval_chain(site, ref.chain)
            denot = value if value is not None and value[0] == "sym" else None
            if denot is None:
                return  # a function value from a call: unknowable, and no name to keep
            receiver = None
        else:
            denot, receiver = self.r.walk(site, ref.chain)
        if ref.kind == RefKind.READ and (denot is None or denot[0] in ("local", "ext", "ns")):
            return  # unresolved reads are mostly untyped locals: not worth a placeholder
        if ref.kind == RefKind.READ and self._own_field(ref.chain, denot):
            return  # ``self.side``: in the facts (for the checker), not an edge (see below)
        if denot is not None and denot[0] == "local":
            inner = denot[1]
            denot = inner if inner is not None and inner[0] == "sym" else None
            if denot is None and ref.kind != RefKind.CALL:
                return
        if denot is not None and denot[0] == "union":
            # a member every member of a union has: a use of each of them, one edge each
            for member in denot[1]:
                self._emit_denotation(ref, member, receiver)
            return
        self._emit_denotation(ref, denot, receiver)

    def _emit_denotation(self, ref: Reference, denot: Value | None, receiver: Value | None) -> None:
        if denot is not None and denot[0] == "super":
            denot = self._super_constructor(denot)
        elif denot is not None and denot[0] == "inst":
            denot = ("sym", denot[1], denot[2])
        if ref.kind == RefKind.CALL and denot is not None and denot[0] == "sym":
            denot = self.t.sem.call_target(self.r, self.t, ref, denot)
        source = self._source(ref.scope, ref.line)
        if denot is not None and denot[0] == "sym":  # the usual case: no placeholder name
            found = self.r.tables[denot[1]].ids.get(denot[2])
            target = found if found is not None else symbol_id(denot[1], denot[2])
        else:
            target = self._target_id(denot, _unresolved_name(ref.chain, receiver))
        self._add(source, target, _REF_EDGE[ref.kind], ref.line, ref.column)
        if ref.kind == RefKind.NEW and denot is not None and denot[0] == "sym":
            self._emit_constructor_call(ref, denot, source)

    def _own_field(self, chain: Chain, denot: Value) -> bool:
        """A read of a receiver's plain field (``self.side``), not of a property or a method
        passed on: an edge for every field read of every method crowds a small context's
        budget with fields (retrieval §4 at 2,000 tokens: needed coverage 49.2 -> 44.4 %)."""
        if len(chain) != 2 or chain[0] not in self.t.sem.receivers or denot[0] != "sym":
            return False
        d = self.r.definition(denot)
        return d is not None and d.kind in (DefKind.FIELD, DefKind.VARIABLE)

    def _emit_constructor_call(self, ref: Reference, cls: Value, source: str) -> None:
        """``new C()`` also calls C's constructor (inherited ones included), or the class
        itself when no class of its hierarchy in the repository declares one: what runs is
        C's field initialisers, and a caller of C is what ``callers C`` should list."""
        if not self.r.is_class(cls):
            d = self.r.definition(cls)
            if d is not None and d.kind == DefKind.FIELD:
                # a field holding a class (``ctor: typeof Action``): ``new this.ctor()`` runs
                # that class's constructor
                held = self.r.value_of(cls)
                if held is not None and held[0] == "sym" and self.r.is_class(held):
                    self._emit_constructor_call(ref, held, source)
                return
            # a constructor function (JS), or a variable holding a constructor (zod's ``const
            # ZodEnum: $constructor<ZodEnum>`` beside ``interface ZodEnum``): what runs is it
            if d is not None and (d.kind in FUNCTION_KINDS or d.kind == DefKind.VARIABLE):
                self._add(
                    source, self.r.tables[cls[1]].ids[cls[2]], EdgeKind.CALLS, ref.line, ref.column
                )
            return
        name = self.r.tables[cls[1]].sem.constructor
        ctor = self.r.class_member(cls[1], cls[2], name)
        if ctor is not None and ctor[0] == "sym":
            ctor = self.t.sem.call_target(self.r, self.t, ref, ctor)
            target = self.r.tables[ctor[1]].ids.get(ctor[2]) if ctor is not None else None
        elif ctor is None:
            target = self.r.tables[cls[1]].ids.get(cls[2])
        else:
            return  # an external base's constructor: the reference to C is the edge
        if target:
            self._add(source, target, EdgeKind.CALLS, ref.line, ref.column)

    def _super_constructor(self, denot: Value) -> Value | None:
        """``super(...)``: the nearest base constructor, else the base class itself."""
        name = self.r.tables[denot[1]].sem.constructor
        ctor = self.r.class_member(denot[1], denot[2], name, skip_self=True)
        if ctor is not None:
            return ctor
        mro, external = self.r.mro(denot[1], denot[2])
        if len(mro) > 1:
            return ("sym", *mro[1])
        return external[0] if external and external[0][0] == "ext" else None


def _mixed_in(t: FileTables, owner: str, member: str) -> bool:
    """Whether a member found along a class's MRO is a function of an object a static mixin
    copies onto the class (its owner no class), not a base class's member."""
    return t.defs[owner].kind not in CLASS_KINDS and t.defs[member].kind == DefKind.FUNCTION


def _redefinitions(symbols: list[Symbol]) -> dict[str, list[tuple[int, int, str]]]:
    by_qualname: dict[str, list[Symbol]] = {}
    for sym in symbols[1:]:
        if "overload" not in sym.modifiers:  # overload signatures share the implementation's id
            by_qualname.setdefault(sym.qualname, []).append(sym)
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for group in by_qualname.values():
        if len(group) > 1:
            primary = next((s.id for s in group if "#" not in s.id.rpartition("::")[2]), None)
            if primary is None:
                continue
            # innermost first: a nested redefinition's span lies inside its outer one
            ordered = sorted(group, key=lambda s: s.end_line - s.start_line)
            spans[primary] = [(s.start_line, s.end_line, s.id) for s in ordered]
    return spans


def _unresolved_name(chain: Chain, receiver: Value | None) -> str:
    last = chain[-1].removesuffix("()")
    if len(chain) == 1:
        return last
    if receiver is not None and receiver[0] in ("inst", "sym", "super"):
        return f"{receiver[2]}.{last}"
    if receiver is not None and receiver[0] == "mod":
        return f"{receiver[1]}.{last}"
    return f"?.{last}"
