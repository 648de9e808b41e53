"""Cross-file resolution: every file's facts in, symbols and typed edges out.

How it works
------------
The frontends record names exactly as written (``self.auth.login``, ``mod.make().run``); this
module gives them meaning, the way a compiler's binder and a very small type checker would. It
knows no language: whatever differs between languages it asks the file's
:class:`~astrag.graph.semantics.LanguageSemantics` (``t.sem``), supplied by the language's room.

1. **Tables.** For each file: its definitions by qualname, the children of each definition
   (class members, nested functions), its imports and local bindings by scope, and its exports
   (``graph/tables.py``).
2. **Values.** Walking a chain evaluates one element at a time to a *value*
   (``graph/values.py``): a module, a class, an instance of a class, a function, an external
   name, or unknown. The root is a receiver (``self``, ``this``: the language says which
   names), else looked up through the enclosing function scopes (local bindings shadow
   everything), then module level (definitions, imports, star imports), then what the language
   makes visible without an import (builtins, globals). Each next element is a member of the
   previous value: a module's export (the language says what is exported), a class member
   through the class's linearised bases (the language says in which order), or a name inside an
   external package. ``()`` turns a class into an instance and a function into the value of its
   return annotation; a variable, field or getter becomes the value of its declared type, else
   of its initialiser. Nothing is guessed: where a step is unknown, the walk stops.
3. **Edges** (``graph/edges.py``). A reference's target is the symbol its last element
   denotes. Unknown targets are kept as named placeholders (``external::pkg.name``,
   ``unresolved::Class.member``, ``unresolved::?.member`` for an unknown receiver) so resolution
   rates can be measured; reads of names that resolve to nothing are the one exception (they
   are mostly untyped locals).
4. **Dependencies.** Every file consulted while resolving a file is recorded, including files
   consulted inside memoised evaluations, so an incremental update re-resolves exactly the files
   whose edges can change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from astrag import lang
from astrag.graph.edges import EdgeEmitter, placeholders_for
from astrag.graph.facts import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Binding,
    Chain,
    Definition,
    DefKind,
    FileFacts,
    Import,
    ResolvedFile,
    Symbol,
)
from astrag.graph.inference import (
    COLLECTIONS,
    Inference,
    intersection,
    parts_of,
    type_parameter,
    union,
)
from astrag.graph.modules import Modules, ProjectLayout, build_modules
from astrag.graph.semantics import Receiver
from astrag.graph.tables import FileTables, Site, TableCache
from astrag.graph.values import ClassKey, Value

_MAX_DEPTH = 40
Mro = tuple[list[ClassKey], list[Value]]  # linearised in-repo classes, bases that are not
# bound once: comparing by identity costs no enum attribute lookup or hash per chain
_INSTANCE, _CLASS, _SUPER = Receiver.INSTANCE, Receiver.CLASS, Receiver.SUPER
_HOLDER_KINDS = frozenset({DefKind.VARIABLE, DefKind.FIELD})


class Resolver(Inference):
    """Resolves all files of a repository; one instance per index run (it memoises)."""

    def __init__(
        self,
        facts: Mapping[str, FileFacts],
        layout: ProjectLayout | None = None,
        tables: TableCache | None = None,
    ):
        self.facts = facts
        # built on first use: an incremental update consults a fraction of the repository, and
        # ``facts`` may itself decode lazily (see ``indexer.LazyFacts``)
        self.tables = tables if tables is not None else TableCache(facts)
        self.modules: Modules = build_modules(facts, layout, lang.module_indexers())
        self._memo: dict[tuple, tuple[object, frozenset[str]]] = {}
        self._active: set[tuple] = set()
        self._cuts = 0  # evaluations cut short so far (cycles, depth): see memoised()
        self._provisional: set[tuple] = set()  # memo keys whose values depend on a cut
        self._deps: list[set[str]] = []
        self._mro: dict[ClassKey, Mro] = {}
        self._mro_paths: dict[ClassKey, frozenset[str]] = {}  # the files each MRO spans

    # ------------------------------------------------------------------ public entry points

    def resolve(self, paths: Iterable[str] | None = None) -> dict[str, ResolvedFile]:
        known = self.facts.keys()
        targets = sorted(known) if paths is None else sorted(set(paths) & known)
        return {path: self.resolve_file(path) for path in targets}

    def resolve_file(self, path: str) -> ResolvedFile:
        t = self.tables[path]
        self._deps = [set()]
        out = ResolvedFile(path=path, symbols=list(t.symbols))
        EdgeEmitter(self, t, out).emit_all()
        out.depends_on = self._deps[0] - {path}
        self._deps = []
        return out

    def placeholders(self, resolved: Iterable[ResolvedFile]) -> list[Symbol]:
        return placeholders_for(e.target for r in resolved for e in r.edges)

    # ------------------------------------------------------------------ memo + dependencies

    def touch(self, path: str) -> None:
        """Record that the file being resolved depends on ``path``."""
        if self._deps:
            self._deps[-1].add(path)

    def touch_all(self, paths: Iterable[str]) -> None:
        """Record that the file being resolved depends on each of ``paths``."""
        if self._deps:
            self._deps[-1].update(paths)

    def table(self, path: str) -> FileTables:
        """Another file's tables, recorded as a dependency (how rooms read other files)."""
        self.touch(path)
        return self.tables[path]

    def memoised(self, key: tuple, compute: Callable[[], object]) -> object:
        """``compute()``, once per key. A value computed where a cycle or the depth limit cut
        the evaluation short depends on where the evaluation entered the cycle, so it is kept
        only until the outermost evaluation returns: else the order in which files are resolved
        would decide it, and an incremental run (a few files, another order) would differ
        from a clean one (pydantic, after edits that made star imports import each other)."""
        hit = self._memo.get(key)
        if hit is not None:
            value, deps = hit
            if self._deps:
                self._deps[-1].update(deps)
            if self._provisional and key in self._provisional:
                self._cuts += 1  # what this hit gives depends on the cut too
            return value
        if key in self._active or len(self._active) > _MAX_DEPTH:
            self._cuts += 1
            return None  # a cycle (x = x.next) or runaway depth: unknown, not wrong
        cuts = self._cuts
        self._active.add(key)
        self._deps.append(set())
        try:
            value = compute()
        finally:
            self._active.discard(key)
            deps = self._deps.pop()
        if self._deps:
            self._deps[-1].update(deps)
        self._memo[key] = (value, frozenset(deps))
        if self._cuts != cuts:
            self._provisional.add(key)
        if not self._active and self._provisional:
            self._forget_provisional()
        return value

    def cached(self, key: tuple, compute: Callable[[], object]) -> object:
        """``compute()`` once per key, for a lookup repeated for reference after reference (a
        bare name through a file's star imports, an overload choice). Unlike
        :meth:`memoised` it marks nothing active, so it neither cuts a cycle nor deepens an
        evaluation (an extra key on the way would change where a cycle or the depth limit cuts
        one); and it keeps a value only when nothing cut short went into it (a cycle, the depth
        limit, a provisional memo entry), so a hit gives what computing again would."""
        hit = self._memo.get(key)
        if hit is not None:
            value, deps = hit
            if self._deps:
                self._deps[-1].update(deps)
            return value
        cuts = self._cuts
        self._deps.append(set())
        try:
            value = compute()
        finally:
            deps = self._deps.pop()
        if self._deps:
            self._deps[-1].update(deps)
        if self._cuts == cuts:
            self._memo[key] = (value, frozenset(deps))
        return value

    def forget_cut_short(self) -> None:
        """After an evaluation raised (a bug, reported by the edge emitter): what it left
        marked as cut short goes, as a finished evaluation's would."""
        if not self._active and self._provisional:
            self._forget_provisional()

    def _forget_provisional(self) -> None:
        for key in self._provisional:
            self._memo.pop(key, None)
            self._mro.pop(key, None)
            self._mro_paths.pop(key, None)
        self._provisional.clear()

    # ------------------------------------------------------------------ chains

    def walk(self, site: Site, chain: Chain) -> tuple[Value | None, Value | None]:
        """Evaluate a chain: (denotation of the last element, value of the element before it).

        The denotation is what the last name refers to (the reference's target); the second
        item is the receiver, kept so an unresolved member can be named after its class.
        """
        last = len(chain) - 1
        if not last:  # one name (jackson-databind: 109k of 148k references): its root alone
            element = chain[0]
            if element[-1:] != ")":
                return self._root(site, element, element), None
            name = element[:-2] if element.endswith("()") else element
            if name[-1:] == ")" and element.endswith("()"):
                name = name.replace("()", "")
            return self._root(site, name, element), None
        denot: Value | None = None
        value: Value | None = None
        receiver: Value | None = None
        for i, element in enumerate(chain):
            if i and element.startswith(("(is:", "(in:", "(eq:", "(new:", "(ctx:")):  # facts.py
                value = self.refined(site, denot, value, element)
                denot = ("local", value)
                continue
            if i and value is not None and value[0] in COLLECTIONS and element[0] != "[":
                # ``d.get(k)``, ``xs.shift()``: a method of a built-in collection (the room's)
                denot = self._collection_member(site, value, element)
                if denot is None:
                    return None, None
                receiver = value
                if i < last:
                    called = element.endswith("()")
                    value = self._call(denot) if called else None
                continue
            called = element.endswith("()")
            name = element[:-2] if called else element
            again = 0
            if called and name[-1:] == ")":  # ``make()(x)``: what the call gives, called too
                again = name.count("()")
                name = name.replace("()", "")
            if i == 0:
                denot = self._root(site, name, element)
            elif value is None:
                # ``f().status``: a member of an object type f declares it returns
                denot = self._returned_member(denot, chain[i - 1], name)
                if denot is None:
                    return None, None
            else:
                receiver = value
                denot = self.member(value, name)
            if i < last:
                before = value
                if before is not None and before[0] == "inst" and denot is not None:
                    generic = self._generic_member(before, denot, called)
                    if generic is not None:
                        value = self._called_again(generic, again)
                        continue
                value = self.value_of(denot)
                if called and value is not None:
                    fluent = (
                        before is not None and before[0] == "inst" and self._returns_self(denot)
                    )
                    # ``qb.where().andWhere()``: a method returning its receiver keeps the
                    # receiver's own (possibly derived) class
                    value = before if fluent else self._call(value)
                if again:
                    value = self._called_again(value, again)
        return denot, receiver

    def _called_again(self, value: Value | None, times: int) -> Value | None:
        """``value`` called ``times`` times more (``make()(x)(y)``)."""
        for _ in range(times):
            if value is None:
                return None
            value = self._call(value)
        return value

    def _returns_self(self, denot: Value | None) -> bool:
        if denot is None or denot[0] != "sym":
            return False
        d = self._def(denot)
        if d is None or d.kind != DefKind.METHOD:
            return False
        t = self.tables[denot[1]]
        if d.returns is not None:
            return d.returns in t.sem.receiver_types
        bound = t.bindings.get(denot[2], {}).get("return", ())
        return bool(bound) and all(b.value in t.sem.receiver_values for b in bound)

    def eval_chain(self, site: Site, chain: Chain) -> Value | None:
        """The value of a whole chain (its last element called if it ends in ``()``)."""
        denot, receiver = self.walk(site, chain)
        if receiver is not None and receiver[0] == "inst" and denot is not None:
            generic = self._generic_member(receiver, denot, chain[-1].endswith("()"))
            if generic is not None:
                return generic
        value = self.value_of(denot)
        last = chain[-1]
        if value is not None and last.endswith("()"):
            fluent = receiver is not None and receiver[0] == "inst"
            value = receiver if fluent and self._returns_self(denot) else self._call(value)
            if last[-3:-2] == ")":  # ``make()(x)``: what the call gives, called too
                value = self._called_again(value, last.count("()") - 1)
        return value

    def eval_type(self, site: Site, chain: Chain | None) -> Value | None:
        """The value an annotation describes: an instance of the class it names, or a
        collection of such instances for a chain ending in ``[]``."""
        if not chain:
            return None
        if chain[0] == "=>":  # a function type: calling it gives its return type's value
            returned = self.eval_type(site, chain[1:])
            return ("fn", returned) if returned is not None else None
        if chain == ("*",):  # a union member no repository type is (facts.py)
            return ("prim",)
        if "&" in chain and "|" not in chain:  # an intersection: the members of each part
            parts = [self.eval_type(site, part) for part in parts_of(chain, "&")]
            if None in parts and any(parts):
                # a part astrag cannot type (a type parameter, a type it cannot find) keeps
                # the members open: ("unknown",) answers no lookup, the checker judges no
                # intersection
                parts.append(("unknown",))
            return intersection(parts)
        if chain[0][:2] == "{:":  # an object type written inline: its members are bindings
            return ("shape", site.t.path, site.scope, chain[0]) if len(chain) == 1 else None
        if chain[-1] == "[]":
            element = self.eval_type(site, chain[:-1])
            return ("elems", element) if element is not None else None
        if chain[-1] == "{}":
            mapped = self.eval_type(site, chain[:-1])
            return ("map", mapped) if mapped is not None else None
        if "|" in chain:  # a union: each member's type, or unknown when one is
            return union(self.eval_type(site, part) for part in parts_of(chain, "|"))
        if chain[0] == "typeof":  # the type of a value (``typeof ElysiaType``)
            denot, _ = self.walk(site, chain[1:])
            d = self._def(denot) if denot is not None and denot[0] == "sym" else None
            if d is not None and d.kind == DefKind.TYPE_ALIAS:  # Python ``type[T]``, T bound
                typed = self.eval_type(site, chain[1:])  # to Foo: the class Foo
                return ("sym", typed[1], typed[2]) if typed and typed[0] == "inst" else None
            return self.eval_chain(site, chain[1:])
        if chain[0][:1] == "<":  # a type parameter of a generic class: its constraint
            owner, index = type_parameter(chain[0])
            bound = site.t.bindings.get(owner, {}).get(f"<{index}>")
            d = site.t.defs.get(owner)
            if not bound or d is None:
                return None
            return self.eval_type(Site(site.t, d.parent, d.start_line), bound[0].type)
        denot, _ = self.walk(site, chain)
        if denot is None:
            return None
        if denot[0] == "sym":
            d = self._def(denot)
            if d is None:
                return None
            if d.kind in CLASS_KINDS:
                return ("inst", denot[1], denot[2])
            if d.kind == DefKind.TYPE_ALIAS:
                return self._aliased(denot, d) if d.type is not None else self._shape(denot)
            return self._type_meaning(denot)
        if denot[0] == "ext":
            return denot
        return None

    # ------------------------------------------------------------------ roots

    def _root(self, site: Site, name: str, written: str) -> Value | None:
        t = site.t
        receiver = t.sem.receivers.get(written)
        if receiver is not None:
            cls = t.enclosing_class(site.scope)
            if cls is not None:
                kind = "inst" if receiver is _INSTANCE else "super" if receiver is _SUPER else "sym"
                return (kind, t.path, cls)
            if receiver is not _CLASS and not self._binds_receiver(t, site.scope, written):
                return None  # ``self`` outside a class; ``cls`` there is an ordinary name
        scope = site.scope
        first = True
        class_body_is_scope = t.sem.class_body_is_scope
        members_in_scope = t.sem.members_in_scope
        inherited: Value | None = None  # a member an external base of a class around may have
        while scope:
            d = t.defs.get(scope)
            if d is None:
                break
            if d.kind in _HOLDER_KINDS and "namespace" not in d.modifiers:
                # a read scoped to the variable or field it is the value of (``compat = real``,
                # a room's alias): a variable is no scope, its value is read where it is declared
                scope = d.parent
                continue
            if (
                d.kind in FUNCTION_KINDS
                or (first and class_body_is_scope and d.kind == DefKind.CLASS)
                or "namespace" in d.modifiers
                or _merged_namespace(t, scope)
            ):
                found = self._in_scope(site, scope, name)
                if found is not None:
                    return found
            elif members_in_scope and d.kind in CLASS_KINDS:
                found = self.class_member(t.path, scope, name)
                if found is not None and found[0] == "sym":
                    return found
                inherited = inherited or found
            first = False
            scope = d.parent
        found = self.module_level(t, name, site.line)
        return found if found is not None else inherited

    def _binds_receiver(self, t: FileTables, scope: str, written: str) -> bool:
        """Whether a function outside any class binds a receiver name itself: the frontend
        records what ``this`` is in a function attached to an object (``res.json =
        function () { this.send() }``) as a binding of that name."""
        while True:  # the module's own scope too: an anonymous function at its top level
            if written in t.bindings.get(scope, {}):
                return True
            if not scope:
                return False
            d = t.defs.get(scope)
            if d is not None and d.kind in FUNCTION_KINDS and "arrow" not in d.modifiers:
                return False  # a function's receiver is its own; only an arrow sees outside
            scope = d.parent if d is not None else ""

    def _in_scope(self, site: Site, scope: str, name: str) -> Value | None:
        t = site.t
        bound = _visible(t.bindings.get(scope, {}).get(name), site.line)
        if bound:
            return ("local", self._local_value(t, scope, bound, site.line))
        child = t.children.get(scope, {}).get(name)
        if child is not None:
            return ("sym", t.path, child)
        imp = t.imports.get(scope, {}).get(name)
        if imp is not None:
            return self.import_target(t, imp)
        return None

    def module_level(self, t: FileTables, name: str, line: int = 0) -> Value | None:
        """What ``name`` means at the module level of ``t`` (the last step of a root lookup)."""
        bound = _visible(t.bindings.get("", {}).get(name), line)
        if bound and line and any(b.block is not None for b in bound):
            # declared inside a block of an anonymous callback at module level (a TS test
            # suite's ``const result = ...`` beside ``import * as result``): inside that
            # block it shadows the module's own name (its later assignments count too)
            return ("local", self._local_value(t, "", bound, line))
        qual = t.children.get("", {}).get(name)
        if qual is not None:
            return ("sym", t.path, qual)
        imp = t.imports.get("", {}).get(name)
        if imp is not None:
            return self.import_target(t, imp)
        stars = t.star_imports.get("")
        if stars:
            found = self.cached(("star", t.path, name), lambda: self._star_member(t, stars, name))
            if found is not None:
                return found  # type: ignore[return-value]
        if bound:  # assigned inside an anonymous callback at module level (TS test suites)
            return ("local", self._local_value(t, "", bound, line))
        return t.sem.global_name(self, t, name)

    def _star_member(self, t: FileTables, stars: list[Import], name: str) -> Value | None:
        for star in stars:
            found = t.sem.star_member(self, t, star, name)
            if found is not None:
                return found
        return None

    def _local_value(
        self, t: FileTables, scope: str, bound: list[Binding], line: int
    ) -> Value | None:
        """A declared type holds for every assignment (``let x: Foo; x = make()``, as in a type
        checker); without one, the assignment in effect at ``line`` decides."""
        if len(bound) == 1:  # most locals (Go's all: each shadowing one is renamed)
            return self._binding_value(t, scope, bound[0])
        for b in bound:
            if b.type is not None:
                typed = self._binding_value(t, scope, b)
                if typed is not None:
                    return typed
        return self._binding_value(t, scope, _pick_binding(bound, line))

    def _binding_value(self, t: FileTables, scope: str, b: Binding) -> Value | None:
        if b.type is None and b.value is None:
            return None
        key = ("bind", t.path, scope, b.name, b.line)
        hit = self._memo.get(key)
        if hit is not None and key not in self._provisional:
            # what memoised() does on a hit, without building the closure below first: a
            # local is read far more often than it is bound (etcd: 51k reads)
            if self._deps:
                self._deps[-1].update(hit[1])
            return hit[0]  # type: ignore[return-value]

        def compute() -> Value | None:
            site = Site(t, scope, b.line)
            if b.type is not None:
                typed = self.eval_type(site, b.type)
                if typed is not None:
                    return self.with_arguments(site, b.name, typed)
            if not b.value:
                return None
            value = self.eval_chain(site, b.value)
            if value is None and not b.value[-1].endswith("()"):
                # ``var fn = this.handle; fn()``: a field or variable whose value is unknown
                # is what the local holds, so calling the local calls it
                denot, _ = self.walk(site, b.value)
                d = self.definition(denot) if denot is not None and denot[0] == "sym" else None
                if d is not None and d.kind in (DefKind.FIELD, DefKind.VARIABLE):
                    return denot
            return value

        return self.memoised(key, compute)  # type: ignore[return-value]

    # ------------------------------------------------------------------ imports and modules

    def import_target(self, t: FileTables, imp: Import) -> Value | None:
        """What an import of file ``t`` binds (memoised; the language decides)."""
        key = ("imp", t.path, imp)
        return self.memoised(key, lambda: t.sem.import_value(self, t, imp))  # type: ignore[return-value]

    def module_member(self, path: str, name: str) -> Value | None:
        """``name`` as another file sees it in module ``path`` (memoised; its language
        decides what the module exports)."""
        key = ("member", path, name)
        return self.memoised(key, lambda: self._module_member_uncached(path, name))  # type: ignore[return-value]

    def _module_member_uncached(self, path: str, name: str) -> Value | None:
        t = self.table(path)
        return t.sem.module_member(self, t, name)

    # ------------------------------------------------------------------ values and members

    def _def(self, value: Value) -> Definition | None:
        t = self.tables[value[1]] if value[1] in self.facts else None
        return t.defs.get(value[2]) if t is not None else None

    def value_of(self, denot: Value | None) -> Value | None:
        """What using a denotation as a value gives (a variable gives its type's instance)."""
        if denot is None:
            return None
        kind = denot[0]
        if kind == "local":
            return denot[1]
        if kind == "union":
            return union(self.value_of(d) for d in denot[1])
        if kind != "sym":
            return denot
        d = self._def(denot)
        if d is None:
            return None
        if d.kind in (DefKind.VARIABLE, DefKind.FIELD):
            if self.table(denot[1]).children.get(denot[2]):
                return denot  # an object with members of its own: a namespace, an object literal
            return self._variable_value_memo(denot, d)
        if d.kind == DefKind.METHOD and "getter" in d.modifiers:
            # memoised like a call's result, which also cuts a getter whose annotation reads
            # its own name (pyparsing's ``def re(self) -> re.Pattern`` in class ``Regex``)
            return self.memoised(("ret", denot), lambda: self._returns(denot, d))  # type: ignore[return-value]
        return denot

    def _variable_value_memo(self, denot: Value, d: Definition) -> Value | None:
        return self.memoised(("var", denot), lambda: self._variable_value(denot, d))  # type: ignore[return-value]

    def _variable_value(self, denot: Value, d: Definition) -> Value | None:
        t = self.table(denot[1])
        scope = d.parent
        if d.type is not None:
            site = Site(t, scope, d.start_line)
            typed = self.eval_type(site, d.type)
            if typed is not None:
                return self.with_arguments(site, d.name, typed)
        if d.value is None:
            return None
        if d.kind == DefKind.FIELD:
            # ``self.x = param`` is evaluated inside the method that assigns it
            scope = _method_containing(t, d) or scope
        return self.eval_chain(Site(t, scope, d.start_line), d.value)

    def _returns(self, denot: Value, d: Definition) -> Value | None:
        t = self.table(denot[1])
        if "overload" in d.modifiers:
            return None  # only signatures, which may return different types
        if d.returns is not None:
            typed = self.eval_type(Site(t, d.parent, d.start_line), d.returns)
            return self.returned_arguments(t, denot[2], typed) if typed is not None else None
        if "generator" in d.modifiers:
            return None
        if t.sem.declares_return(d):
            return None  # annotated with something astrag cannot use (``Promise<any>``)
        # no annotation: what its ``return <chain>`` statements evaluate to, if all agree
        found = None
        # the definition's key, not its qualname: a second ``f`` (``f#2``) has its own returns
        for b in t.bindings.get(denot[2], {}).get("return", ()):
            value = self._binding_value(t, denot[2], b)
            if value is None or (found is not None and value != found):
                return None
            found = value
        return found

    def _call(self, value: Value) -> Value | None:
        kind = value[0]
        if kind == "super":  # ``super()`` is written as a call but is the proxy
            return value
        if kind in ("builtin", "fn"):
            return value[-1]
        if kind == "union":
            return union(self._call(v) for v in value[1])
        if kind == "isect":
            return self._in_parts(value, self._call)
        if kind == "inst":  # an instance of a type with a call signature
            return self._called_instance(value)
        if kind == "ext":
            # what an external callable returns is unknown: a class gives an instance, a
            # function anything; the name says it was called (``os.environ.get().isdigit``)
            return value if value[1].endswith("()") else ("ext", value[1] + "()")
        if kind != "sym":
            return None
        d = self._def(value)
        if d is None:
            return None
        if d.kind in CLASS_KINDS:
            return ("inst", value[1], value[2])
        if d.kind in FUNCTION_KINDS:
            return self.memoised(("ret", value), lambda: self._returns(value, d))  # type: ignore[return-value]
        if d.kind == DefKind.TYPE_ALIAS and d.type is None:
            return self._shape(value)  # ``Options()``: how a frontend writes an instance of it
        return None

    def _shape(self, alias: Value) -> Value | None:
        """An alias of an object type declares members (``type Options = { … }``): its values
        are instances of it, as of an interface; so does one whose members are known only by
        their literal types (``{ kind: 'a'; id: string }``: ``(lit:kind)``, facts.py). Not an
        alias of a function type: its pseudo-bindings ``(p:j)`` are no members."""
        t = self.table(alias[1])
        has_members = bool(t.children.get(alias[2])) or any(
            name.startswith("(lit:") for name in t.bindings.get(alias[2], ())
        )
        return ("inst", alias[1], alias[2]) if has_members else None

    def member(self, value: Value, name: str) -> Value | None:
        """``name`` looked up on a value: a module's export, a class member, an element."""
        kind = value[0]
        if name == "[i]":  # an element of a collection (iteration); a mapping's are its keys
            if kind == "inst":
                return self._element_of(value, name)
            return ("local", value[1]) if kind == "elems" else None
        if name == "[k]":  # ``xs[0]``, ``d[key]``: an element, a mapped value
            if kind == "inst":
                return self._element_of(value, name)
            return ("local", value[1]) if kind in ("elems", "map") else None
        if kind in ("elems", "map", "builtin"):
            return None
        if kind == "shape":  # ``opts.headers`` of ``opts: { headers: Headers }``
            t = self.table(value[1])
            key = f"({value[3]}.{name})"
            # a parameter's object type is recorded in its function, an intersection's at
            # module level (lang/typescript/composed.py)
            bound = t.bindings.get(value[2], {}).get(key) or t.bindings.get("", {}).get(key)
            typed = self._binding_value(t, bound[0].scope, bound[0]) if bound else None
            return ("local", typed) if typed is not None else None
        if kind == "isect":  # ``A & typeof B``: a member of any part
            return self._in_parts(value, lambda part: self.member(part, name))
        if kind == "mod":
            return self.module_member(value[1], name)
        if kind == "ns":
            return lang.semantics_for(value[2]).namespace_member(self, value[1], name)
        if kind == "ext":
            return ("ext", f"{value[1]}.{name}")
        if kind == "inst" and name[0] == "(":  # a callable instance's ``(p:j)``: its type's
            return self._callback_param(("sym", value[1], value[2]), name)
        if kind in ("inst", "super"):
            return self.class_member(value[1], value[2], name, skip_self=kind == "super")
        if kind == "union":
            # a member every member of the union has (a union of them); a member no
            # repository type is was narrowed away where the member is used
            return union(self.member(v, name) for v in value[1] if v[0] != "prim")
        if kind == "ctx":  # a callback's parameter where the call's declared type says more
            return self._inferred_parameter(value, name)
        if kind == "sym" and name.startswith("("):
            return self._callback_param(value, name)
        if kind == "sym" and self.is_class(value):
            return self.class_member(value[1], value[2], name, static=True)
        if kind == "sym":
            return self._object_member(value, name)
        return None

    def _object_member(self, value: Value, name: str) -> Value | None:
        """A member of a definition that is no class: what is defined onto it (a namespace's
        or an object literal's members, ``obj.m = function``, ``F.prototype.m = ...``; a
        function's own nested definitions are locals, not members), else a member of the
        variable's value."""
        d = self._def(value)
        if d is None:
            return None
        variable = d.kind in (DefKind.VARIABLE, DefKind.FIELD)
        if variable and d.type is not None:
            # a declared type is what a compiler reads the member on (``const p: Provider =
            # {...}``: ``p.set`` is ``Provider.set``); the literal's own members come next
            found = self._value_member(value, d, name)
            if found is not None:
                return found
        t = self.table(value[1])
        qual = t.children.get(value[2], {}).get(name)
        if qual is not None:
            child = t.defs[qual]
            if (
                d.kind not in FUNCTION_KINDS
                or child.kind == DefKind.FIELD  # ``this.x = …`` in a constructor function
                or not d.start_byte <= child.start_byte < d.end_byte
            ):
                return ("sym", value[1], qual)
        return self._value_member(value, d, name) if variable and d.type is None else None

    def _value_member(self, value: Value, d: Definition, name: str) -> Value | None:
        inner = self._variable_value_memo(value, d)
        return self.member(inner, name) if inner is not None and inner != value else None

    def is_class(self, value: Value) -> bool:
        d = self._def(value)
        return d is not None and d.kind in CLASS_KINDS

    # ------------------------------------------------------------------ for the checker

    def definition(self, value: Value | None) -> Definition | None:
        return self._def(value) if value is not None and value[0] in ("sym", "inst") else None

    def module_is_dynamic(self, path: str) -> bool:
        """A module whose attributes cannot all be seen (the language says when)."""
        t = self.tables[path]
        return t.sem.module_is_dynamic(self, t)

    def member_names(self, value: Value | None) -> set[str]:
        """Names reachable as members of a value: for did-you-mean suggestions."""
        if value is None:
            return set()
        if value[0] == "mod":
            t = self.tables[value[1]]
            names = set(t.children.get("", {})) | set(t.imports.get("", {})) | set(t.exports)
            return names | set(t.reexports)
        if value[0] in ("inst", "sym", "super"):
            mro, _ = self.mro(value[1], value[2])
            return {n for cpath, cqual in mro for n in self.tables[cpath].children.get(cqual, {})}
        return set()

    def bound_by_import(self, site: Site, name: str) -> bool:
        t = site.t
        scope = site.scope
        while True:
            if name in t.imports.get(scope, {}):
                return True
            if not scope:
                return False
            d = t.defs.get(scope)
            scope = d.parent if d is not None else ""

    def names_in_scope(self, site: Site) -> set[str]:
        """Names a bare reference at ``site`` could have meant."""
        t = site.t
        names = set(t.children.get("", {})) | set(t.imports.get("", {}))
        scope = site.scope
        while scope:
            names |= set(t.bindings.get(scope, {})) | set(t.children.get(scope, {}))
            names |= set(t.imports.get(scope, {}))
            d = t.defs.get(scope)
            scope = d.parent if d is not None else ""
        names.discard("return")
        return {n for n in names if n[0] not in "(<"}  # pseudo-bindings ``(k:j)``, ``<k:j>``

    # ------------------------------------------------------------------ classes

    def class_member(
        self, path: str, qual: str, name: str, skip_self: bool = False, static: bool = False
    ) -> Value | None:
        mro, external = self.mro(path, qual)
        tables = self.tables  # mro() has recorded every file of the hierarchy already
        for cpath, cqual in mro[1:] if skip_self else mro:
            t = tables[cpath]
            member = (static and t.statics.get(cqual, {}).get(name)) or t.children.get(
                cqual, {}
            ).get(name)
            if member:
                return ("sym", cpath, member)
        for base in external:
            if base[0] == "ext":
                return ("ext", f"{base[1]}.{name}")
        return None

    def mro(self, path: str, qual: str) -> Mro:
        """Linearised classes (in-repo) and the bases that are not (external or unknown)."""
        key = (path, qual)
        cached = self._mro.get(key)
        if cached is not None:
            if self._deps:  # every file of the hierarchy, recorded in one step
                self._deps[-1].update(self._mro_paths[key])
            if self._provisional and key in self._provisional:
                self._cuts += 1
            return cached
        self._mro[key] = ([key], [])  # a cycle in the hierarchy ends here
        self._mro_paths[key] = frozenset((path,))
        cuts = self._cuts
        result = self._compute_mro(path, qual)
        self._mro[key] = result
        self._mro_paths[key] = frozenset(cpath for cpath, _ in result[0])
        if self._cuts != cuts:  # a base named through a cut evaluation (see memoised)
            self._provisional.add(key)
            if not self._active:
                self._forget_provisional()
        return result

    def _compute_mro(self, path: str, qual: str) -> Mro:
        t = self.table(path)
        d = t.defs.get(qual)
        if d is None:
            return [(path, qual)], []
        site = Site(t, d.parent, d.start_line)
        bases: list[ClassKey] = []
        external: list[Value] = []
        for chain in (*d.bases, *d.implements, *_merged_bases(t, qual)):
            denot, _ = self.walk(site, chain)
            if denot is not None and denot[0] == "sym" and self.is_class(denot):
                bases.append((denot[1], denot[2]))
            elif denot is not None and denot[0] == "sym" and (typed := self._type_meaning(denot)):
                # ``extends ZodType<…>`` where ``ZodType`` is a value and an interface: a
                # heritage clause names the type
                bases.append((typed[1], typed[2]))
            else:
                external.append(denot if denot is not None else ("unknown",))
        for chain in _mixins(t, qual):  # ``Object.assign(C.prototype, m)``: m's members are C's
            denot, _ = self.walk(site, chain)
            if (
                denot is not None
                and denot[0] == "sym"
                and (self.is_class(denot) or self.table(denot[1]).children.get(denot[2]))
            ):
                bases.append((denot[1], denot[2]))
        base_mros = [self.mro(*b) for b in bases]
        for _, ext in base_mros:
            external.extend(ext)
        linear = t.sem.linearise(self, (path, qual), bases, [m for m, _ in base_mros])
        return linear, external


def _merged_bases(t: FileTables, qual: str) -> list[Chain]:
    """What the interfaces declared under a class's own qualname extend: declarations of one
    name that make one type (TS ``interface X extends M {}`` + ``class X extends B``) give it
    the bases of each. Other same-named definitions (``if``/``else`` alternatives) do not."""
    return [base for _, d in t.others(qual) if d.kind == DefKind.INTERFACE for base in d.bases]


def _mixins(t: FileTables, qual: str) -> list[Chain]:
    """The sources a static mixin copies onto class ``qual`` (its pseudo-bindings
    ``(mixin)``, lang/typescript/composed.py), in the order they are copied."""
    return [b.value for b in t.bindings.get(qual, {}).get("(mixin)", ()) if b.value]


def _merged_namespace(t: FileTables, qual: str) -> bool:
    """A namespace merged into a class or an enum of the same name, which keeps the plain key
    (the namespace is ``qual#2``): the names it declares are in scope inside it."""
    found = t.merged.get(qual)
    if found is None:
        found = t.merged[qual] = any("namespace" in d.modifiers for _, d in t.others(qual))
    return found


def _visible(bound: list[Binding] | None, line: int) -> list[Binding] | None:
    """The bindings of one name that ``line`` sees: a block-scoped one only inside its block
    (see facts.py), so an outer declaration of the name holds elsewhere in the scope."""
    if not bound:
        return bound
    for b in bound:
        if b.block is not None:
            break
    else:
        return bound
    return [b for b in bound if b.block is None or b.block[0] <= line <= b.block[1]]


def _pick_binding(bound: list[Binding], line: int) -> Binding:
    """The assignment in effect at ``line``: the last one on an earlier line (a reference on
    the assignment's own line reads the old value: ``m = m.with_minimum(1)``), else the first."""
    best = bound[0]
    for b in bound:
        if b.line < line:
            best = b
    return best


def _method_containing(t: FileTables, d: Definition) -> str | None:
    for name, qual in t.children.get(d.parent, {}).items():
        m = t.defs.get(qual)
        if (
            m is not None
            and m.kind in FUNCTION_KINDS
            and name != d.name
            and m.start_byte <= d.start_byte < m.end_byte
        ):
            return qual
    return None
