"""Cross-file resolution: every file's facts in, symbols and typed edges out.

How it works
------------
The frontends record names exactly as written (``self.auth.login``, ``mod.make().run``); this
module gives them meaning, the way a compiler's binder and a very small type checker would.

1. **Tables.** For each file: its definitions by qualname, the children of each definition
   (class members, nested functions), its imports and local bindings by scope, and its exports.
2. **Values.** Walking a chain evaluates one element at a time to a *value*: a module, a class, an
   instance of a class, a function, an external name, or unknown. The root is looked up through
   the enclosing function scopes (local bindings shadow everything), then module level
   (definitions, imports, star imports), then the language's builtins. Each next element is a
   member of the previous value: a module's export, a class member through the class's
   linearised bases (C3 for Python, ``extends`` then ``implements`` for TypeScript), or a name
   inside an external package. ``()`` turns a class into an instance and a function into the
   value of its return annotation; a variable, field or getter becomes the value of its declared
   type, else of its initialiser. Nothing is guessed: where a step is unknown, the walk stops.
3. **Edges.** A reference's target is the symbol its last element denotes. Unknown targets are
   kept as named placeholders (``external::pkg.name``, ``unresolved::Class.member``,
   ``unresolved::?.member`` for an unknown receiver) so resolution rates can be measured; reads
   of names that resolve to nothing are the one exception (they are mostly untyped locals).
4. **Dependencies.** Every file consulted while resolving a file is recorded, including files
   consulted inside memoised evaluations, so an incremental update re-resolves exactly the files
   whose edges can change.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context

from astrag.graph.facts import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Binding,
    Chain,
    Definition,
    DefKind,
    Edge,
    EdgeKind,
    FileFacts,
    Import,
    PlaceholderKind,
    Reference,
    RefKind,
    ResolvedFile,
    Symbol,
)
from astrag.graph.modules import (
    ModuleIndex,
    ProjectLayout,
    build_module_index,
    is_python_namespace,
    python_module_path,
    resolve_python_module,
    resolve_ts_module,
)
from astrag.graph.symbols import file_symbols, primary_definitions, symbol_id

# A value is a tuple whose first item says what it is:
#   ("sym", path, qualname)  a definition: class object, function, variable...
#   ("inst", path, qualname) an instance of a class or interface
#   ("super", path, qualname) ``super`` inside that class
#   ("mod", path)             a module in the repository
#   ("ns", dotted)            a Python namespace package (a directory without __init__.py)
#   ("ext", dotted)           something outside the repository
#   ("elems", value)          a collection whose elements are ``value`` (``List[Foo]``)
#   ("local", value)          a local variable or collection element (as a denotation)
Value = tuple

PY_BUILTINS = frozenset(dir(builtins))
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
_MAX_DEPTH = 40


@dataclass(slots=True)
class _FileTables:
    facts: FileFacts
    ids: dict[str, str]  # qualname -> symbol id (first definition)
    symbols: list[Symbol]
    defs: dict[str, Definition] = field(default_factory=dict)
    children: dict[str, dict[str, str]] = field(default_factory=dict)  # qual -> name -> qual
    statics: dict[str, dict[str, str]] = field(default_factory=dict)  # static members only
    imports: dict[str, dict[str, Import]] = field(default_factory=dict)  # scope -> alias -> imp
    star_imports: dict[str, list[Import]] = field(default_factory=dict)  # scope -> imports
    reexports: dict[str, Import] = field(default_factory=dict)  # exported name -> import
    star_reexports: list[Import] = field(default_factory=list)
    exports: dict[str, str] = field(default_factory=dict)  # exported name -> local name
    bindings: dict[str, dict[str, list[Binding]]] = field(default_factory=dict)

    @property
    def path(self) -> str:
        return self.facts.path

    @property
    def python(self) -> bool:
        return self.facts.language == "python"


def _build_tables(facts: FileFacts) -> _FileTables:
    symbols, ids = file_symbols(facts)
    t = _FileTables(facts=facts, ids=ids, symbols=symbols, defs=primary_definitions(facts))
    for d in facts.definitions:
        members = t.children.setdefault(d.parent, {})
        if "static" in d.modifiers:
            # TS allows a static and an instance member of one name: keep both, instance first
            t.statics.setdefault(d.parent, {}).setdefault(d.name, d.qualname)
            members.setdefault(d.name, d.qualname)
        elif d.name not in members or members[d.name] == t.statics.get(d.parent, {}).get(d.name):
            members[d.name] = d.qualname
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


class TableCache(dict[str, _FileTables]):
    """Per-file lookup tables, built the first time a file is consulted (or ahead of time,
    with :meth:`refresh`, by an indexer that has cycles to spare while files still parse)."""

    def __init__(self, facts: Mapping[str, FileFacts]) -> None:
        super().__init__()
        self.facts = facts

    def __missing__(self, path: str) -> _FileTables:
        tables = self[path] = _build_tables(self.facts[path])
        return tables

    def refresh(self, path: str) -> None:
        """(Re)build the tables of a file whose facts just changed."""
        self[path] = _build_tables(self.facts[path])


@dataclass(slots=True)
class _Site:
    """Where a chain is evaluated: a file, a scope in it and a line."""

    t: _FileTables
    scope: str
    line: int


class Resolver:
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
        self.modules: ModuleIndex = build_module_index(facts, layout)
        self._memo: dict[tuple, tuple[object, frozenset[str]]] = {}
        self._active: set[tuple] = set()
        self._deps: list[set[str]] = []
        self._mro: dict[tuple[str, str], tuple[list[tuple[str, str]], list[Value]]] = {}

    # ------------------------------------------------------------------ public entry points

    def resolve(self, paths: Iterable[str] | None = None) -> dict[str, ResolvedFile]:
        known = self.facts.keys()
        targets = sorted(known) if paths is None else sorted(set(paths) & known)
        return {path: self.resolve_file(path) for path in targets}

    def resolve_file(self, path: str) -> ResolvedFile:
        t = self.tables[path]
        self._deps = [set()]
        out = ResolvedFile(path=path, symbols=list(t.symbols))
        emitter = _EdgeEmitter(self, t, out)
        emitter.emit_all()
        out.depends_on = self._deps[0] - {path}
        self._deps = []
        return out

    def placeholders(self, resolved: Iterable[ResolvedFile]) -> list[Symbol]:
        return placeholders_for(e.target for r in resolved for e in r.edges)

    # ------------------------------------------------------------------ memo + dependencies

    def _touch(self, path: str) -> None:
        if self._deps:
            self._deps[-1].add(path)

    def _table(self, path: str) -> _FileTables:
        self._touch(path)
        return self.tables[path]

    def _memoised(self, key: tuple, compute: Callable[[], object]) -> object:
        hit = self._memo.get(key)
        if hit is not None:
            value, deps = hit
            if self._deps:
                self._deps[-1].update(deps)
            return value
        if key in self._active or len(self._active) > _MAX_DEPTH:
            return None  # a cycle (x = x.next) or runaway depth: unknown, not wrong
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
        return value

    # ------------------------------------------------------------------ chains

    def walk(self, site: _Site, chain: Chain) -> tuple[Value | None, Value | None]:
        """Evaluate a chain: (denotation of the last element, value of the element before it).

        The denotation is what the last name refers to (the reference's target); the second
        item is the receiver, kept so an unresolved member can be named after its class.
        """
        denot: Value | None = None
        value: Value | None = None
        receiver: Value | None = None
        last = len(chain) - 1
        for i, element in enumerate(chain):
            called = element.endswith("()")
            name = element[:-2] if called else element
            if i == 0:
                denot = self._root(site, name, element)
            elif value is None:
                return None, None
            else:
                receiver = value
                denot = self._member(value, name)
            if i < last:
                before = value
                value = self._value(denot)
                if called and value is not None:
                    fluent = (
                        before is not None and before[0] == "inst" and self._returns_self(denot)
                    )
                    # ``qb.where().andWhere()``: a method returning its receiver keeps the
                    # receiver's own (possibly derived) class
                    value = before if fluent else self._call(value)
        return denot, receiver

    def _returns_self(self, denot: Value | None) -> bool:
        d = self._def(denot) if denot is not None and denot[0] == "sym" else None
        if d is None or d.kind != DefKind.METHOD:
            return False
        if d.returns is not None:
            return d.returns in (("Self",), ("this",))
        bound = self.tables[denot[1]].bindings.get(d.qualname, {}).get("return", ())
        return bool(bound) and all(b.value in (("self",), ("this",)) for b in bound)

    def eval_chain(self, site: _Site, chain: Chain) -> Value | None:
        """The value of a whole chain (its last element called if it ends in ``()``)."""
        denot, receiver = self.walk(site, chain)
        value = self._value(denot)
        if value is not None and chain[-1].endswith("()"):
            fluent = receiver is not None and receiver[0] == "inst"
            value = receiver if fluent and self._returns_self(denot) else self._call(value)
        return value

    def eval_type(self, site: _Site, chain: Chain | None) -> Value | None:
        """The value an annotation describes: an instance of the class it names, or a
        collection of such instances for a chain ending in ``[]``."""
        if not chain:
            return None
        if chain[-1] == "[]":
            element = self.eval_type(site, chain[:-1])
            return ("elems", element) if element is not None else None
        denot, _ = self.walk(site, chain)
        if denot is None:
            return None
        if denot[0] == "sym":
            d = self._def(denot)
            if d is not None and d.kind in CLASS_KINDS:
                return ("inst", denot[1], denot[2])
            return None
        if denot[0] == "ext":
            return denot
        return None

    # ------------------------------------------------------------------ roots

    def _root(self, site: _Site, name: str, written: str = "") -> Value | None:
        t = site.t
        if name == ("self" if t.python else "this"):
            cls = self._enclosing_class(t, site.scope)
            return ("inst", t.path, cls) if cls is not None else None
        if name == "cls" and t.python:
            cls = self._enclosing_class(t, site.scope)
            if cls is not None:
                return ("sym", t.path, cls)
        if name == "super" and not (t.python and written == "super"):
            # Python's bare ``super`` is the builtin; ``super()`` and TS ``super`` the base
            cls = self._enclosing_class(t, site.scope)
            return ("super", t.path, cls) if cls is not None else None
        scope = site.scope
        first = True
        while scope:
            d = t.defs.get(scope)
            if d is None:
                break
            if d.kind in FUNCTION_KINDS or (first and t.python and d.kind == DefKind.CLASS):
                found = self._in_scope(site, scope, name)
                if found is not None:
                    return found
            first = False
            scope = d.parent
        return self._module_level(t, name, site.line)

    def _in_scope(self, site: _Site, scope: str, name: str) -> Value | None:
        t = site.t
        bound = t.bindings.get(scope, {}).get(name)
        if bound:
            return ("local", self._local_value(t, scope, bound, site.line))
        child = t.children.get(scope, {}).get(name)
        if child is not None:
            return ("sym", t.path, child)
        imp = t.imports.get(scope, {}).get(name)
        if imp is not None:
            return self._import(t, imp)
        return None

    def _module_level(self, t: _FileTables, name: str, line: int = 0) -> Value | None:
        qual = t.children.get("", {}).get(name)
        if qual is not None:
            return ("sym", t.path, qual)
        imp = t.imports.get("", {}).get(name)
        if imp is not None:
            return self._import(t, imp)
        for star in t.star_imports.get("", ()):
            found = self._star_member(t, star, name)
            if found is not None:
                return found
        bound = t.bindings.get("", {}).get(name)
        if bound:  # declared inside an anonymous callback at module level (TS test suites)
            return ("local", self._local_value(t, "", bound, line))
        if t.python:
            return ("ext", f"builtins.{name}") if name in PY_BUILTINS else None
        return ("ext", name) if name in JS_GLOBALS else None

    def _local_value(
        self, t: _FileTables, scope: str, bound: list[Binding], line: int
    ) -> Value | None:
        """A declared type holds for every assignment (``let x: Foo; x = make()``, as in a type
        checker); without one, the assignment in effect at ``line`` decides."""
        for b in bound:
            if b.type is not None:
                typed = self._binding_value(t, scope, b)
                if typed is not None:
                    return typed
        return self._binding_value(t, scope, _pick_binding(bound, line))

    def _binding_value(self, t: _FileTables, scope: str, b: Binding) -> Value | None:
        if b.type is None and b.value is None:
            return None

        def compute() -> Value | None:
            site = _Site(t, scope, b.line)
            if b.type is not None:
                typed = self.eval_type(site, b.type)
                if typed is not None:
                    return typed
            return self.eval_chain(site, b.value) if b.value else None

        return self._memoised(("bind", t.path, scope, b.name, b.line), compute)  # type: ignore[return-value]

    def _enclosing_class(self, t: _FileTables, scope: str) -> str | None:
        while scope:
            d = t.defs.get(scope)
            if d is None:
                return None
            if d.kind in CLASS_KINDS:
                return scope
            scope = d.parent
        return None

    # ------------------------------------------------------------------ imports and modules

    def _import(self, t: _FileTables, imp: Import) -> Value | None:
        return self._memoised(("imp", t.path, imp), lambda: self._import_uncached(t, imp))  # type: ignore[return-value]

    def _import_uncached(self, t: _FileTables, imp: Import) -> Value | None:
        if t.python:
            return self._python_import(t, imp)
        target = resolve_ts_module(self.modules, t.path, imp.module)
        if target is None:
            if imp.module.startswith("."):
                return None
            if imp.name in (None, "default"):
                return ("ext", imp.module)
            return ("ext", f"{imp.module}.{imp.name}")
        if imp.name is None:
            return self._module_value(target)
        return self._module_member(target, imp.name)

    def _python_import(self, t: _FileTables, imp: Import) -> Value | None:
        dotted = resolve_python_module(self.modules, t.path, imp.module, imp.level)
        if dotted is None:
            return None
        if imp.name is None:
            if imp.level == 0 and "." in dotted and imp.alias == dotted.split(".")[0]:
                dotted = imp.alias  # ``import a.b.c`` binds ``a``
            return self._python_module_value(dotted)
        base = self._python_module_value(dotted)
        if base is None or (base[0] == "ext" and imp.level):
            return None
        if base[0] == "ext":
            return ("ext", f"{dotted}.{imp.name}")
        return self._member(base, imp.name)

    def _python_module_value(self, dotted: str) -> Value | None:
        path = python_module_path(self.modules, dotted)
        if path is not None:
            return ("mod", path)
        if is_python_namespace(self.modules, dotted):
            return ("ns", dotted)
        if self.in_repository_package(dotted):
            return None  # inside one of the repository's packages, yet missing: not external
        return ("ext", dotted) if dotted else None

    def _module_value(self, path: str) -> Value:
        t = self._table(path)
        local = t.exports.get("=")
        if local is not None:
            found = self._module_level(t, local)
            if found is not None:
                return found
        return ("mod", path)

    def _star_member(self, t: _FileTables, imp: Import, name: str) -> Value | None:
        if t.python:
            dotted = resolve_python_module(self.modules, t.path, imp.module, imp.level)
            base = self._python_module_value(dotted) if dotted else None
            if base is None or base[0] != "mod":
                return None
            target = self._table(base[1])
            if target.facts.all_names is not None:
                if name not in target.facts.all_names:
                    return None
            elif name.startswith("_"):
                return None
            return self._module_member(base[1], name)
        path = resolve_ts_module(self.modules, t.path, imp.module)
        return self._module_member(path, name) if path else None

    def _module_member(self, path: str, name: str) -> Value | None:
        key = ("member", path, name)
        return self._memoised(key, lambda: self._module_member_uncached(path, name))  # type: ignore[return-value]

    def _module_member_uncached(self, path: str, name: str) -> Value | None:
        t = self._table(path)
        if t.python:
            found = self._module_level(t, name)
            if found is not None and found != ("ext", f"builtins.{name}"):
                return found
            dotted = self.modules.py_module_of.get(path, "")
            if path.endswith(("__init__.py", "__init__.pyi")):
                sub = self._python_module_value(f"{dotted}.{name}" if dotted else name)
                if sub is not None and sub[0] != "ext":
                    return sub
            return None
        return self._ts_export(t, name)

    def _ts_export(self, t: _FileTables, name: str) -> Value | None:
        local = t.exports.get(name)
        if local is not None:
            return self._module_level(t, local)
        for d_name, qual in t.children.get("", {}).items():
            d = t.defs[qual]
            if name == "default" and "default_export" in d.modifiers:
                return ("sym", t.path, qual)
            if d_name == name and (d.exported or t.facts.language == "javascript"):
                return ("sym", t.path, qual)
        imp = t.reexports.get(name)
        if imp is not None:
            return self._import(t, imp)
        for star in t.star_reexports:
            found = self._star_member(t, star, name)
            if found is not None:
                return found
        whole = t.exports.get("=")
        if whole is not None:
            value = self._value(self._module_level(t, whole))
            return self._member(value, name) if value is not None else None
        return None

    # ------------------------------------------------------------------ values and members

    def _def(self, value: Value) -> Definition | None:
        t = self.tables[value[1]] if value[1] in self.facts else None
        return t.defs.get(value[2]) if t is not None else None

    def _value(self, denot: Value | None) -> Value | None:
        """What using a denotation as a value gives (a variable gives its type's instance)."""
        if denot is None:
            return None
        kind = denot[0]
        if kind == "local":
            return denot[1]
        if kind != "sym":
            return denot
        d = self._def(denot)
        if d is None:
            return None
        if d.kind in (DefKind.VARIABLE, DefKind.FIELD):
            return self._memoised(("var", denot), lambda: self._variable_value(denot, d))  # type: ignore[return-value]
        if d.kind == DefKind.METHOD and "getter" in d.modifiers:
            return self._returns(denot, d)
        return denot

    def _variable_value(self, denot: Value, d: Definition) -> Value | None:
        t = self._table(denot[1])
        scope = d.parent
        if d.type is not None:
            typed = self.eval_type(_Site(t, scope, d.start_line), d.type)
            if typed is not None:
                return typed
        if d.value is None:
            return None
        if d.kind == DefKind.FIELD:
            # ``self.x = param`` is evaluated inside the method that assigns it
            scope = _method_containing(t, d) or scope
        return self.eval_chain(_Site(t, scope, d.start_line), d.value)

    def _returns(self, denot: Value, d: Definition) -> Value | None:
        t = self._table(denot[1])
        if "overload" in d.modifiers:
            return None  # only signatures, which may return different types
        if d.returns is not None:
            return self.eval_type(_Site(t, d.parent, d.start_line), d.returns)
        if "generator" in d.modifiers:
            return None
        if _annotated_return(d, t.python):
            return None  # annotated with something astrag cannot use (``Promise<any>``)
        # no annotation: what its ``return <chain>`` statements evaluate to, if all agree
        found = None
        for b in t.bindings.get(d.qualname, {}).get("return", ()):
            value = self._binding_value(t, d.qualname, b)
            if value is None or (found is not None and value != found):
                return None
            found = value
        return found

    def _call(self, value: Value) -> Value | None:
        kind = value[0]
        if kind == "super":  # ``super()`` is written as a call but is the proxy
            return value
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
            return self._memoised(("ret", value), lambda: self._returns(value, d))  # type: ignore[return-value]
        return None

    def _member(self, value: Value, name: str) -> Value | None:
        kind = value[0]
        if name == "[i]":  # an element of a collection (iteration, subscript)
            return ("local", value[1]) if kind == "elems" else None
        if kind == "elems":
            return None
        if kind == "mod":
            return self._module_member(value[1], name)
        if kind == "ns":
            return self._python_module_value(f"{value[1]}.{name}")
        if kind == "ext":
            return ("ext", f"{value[1]}.{name}")
        if kind in ("inst", "super"):
            return self.class_member(value[1], value[2], name, skip_self=kind == "super")
        if kind == "sym" and self.is_class(value):
            return self.class_member(value[1], value[2], name, static=True)
        return None

    def is_class(self, value: Value) -> bool:
        d = self._def(value)
        return d is not None and d.kind in CLASS_KINDS

    # ------------------------------------------------------------------ for the checker

    def import_target(self, t: _FileTables, imp: Import) -> Value | None:
        return self._import(t, imp)

    def definition(self, value: Value | None) -> Definition | None:
        return self._def(value) if value is not None and value[0] in ("sym", "inst") else None

    def python_module(self, dotted: str) -> Value | None:
        return self._python_module_value(dotted)

    def in_repository_package(self, dotted: str) -> bool:
        """Whether a dotted Python module name lies inside one of the repository's packages
        (so a missing module there is an error, not an external package)."""
        top = dotted.partition(".")[0]
        return top in self.modules.py_modules or top in self.modules.py_namespaces

    def module_is_dynamic(self, path: str) -> bool:
        """A module whose attributes cannot all be seen: PEP 562 ``__getattr__``, or TS
        ``export *`` from outside the repository."""
        t = self.tables[path]
        if t.python:
            return "__getattr__" in t.children.get("", {}) or bool(t.star_imports.get(""))
        return any(
            resolve_ts_module(self.modules, path, imp.module) is None for imp in t.star_reexports
        )

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

    def bound_by_import(self, site: _Site, name: str) -> bool:
        t = site.t
        scope = site.scope
        while True:
            if name in t.imports.get(scope, {}):
                return True
            if not scope:
                return False
            d = t.defs.get(scope)
            scope = d.parent if d is not None else ""

    def names_in_scope(self, site: _Site) -> set[str]:
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
        return names

    # ------------------------------------------------------------------ classes

    def class_member(
        self, path: str, qual: str, name: str, skip_self: bool = False, static: bool = False
    ) -> Value | None:
        mro, external = self.mro(path, qual)
        for cpath, cqual in mro[1:] if skip_self else mro:
            t = self._table(cpath)
            member = (static and t.statics.get(cqual, {}).get(name)) or t.children.get(
                cqual, {}
            ).get(name)
            if member:
                return ("sym", cpath, member)
        if skip_self and name == "constructor" and len(mro) == 1 and not external:
            return None
        for base in external:
            if base[0] == "ext":
                return ("ext", f"{base[1]}.{name}")
        return None

    def mro(self, path: str, qual: str) -> tuple[list[tuple[str, str]], list[Value]]:
        """Linearised classes (in-repo) and the bases that are not (external or unknown)."""
        key = (path, qual)
        cached = self._mro.get(key)
        if cached is not None:
            for cpath, _ in cached[0]:
                self._touch(cpath)
            return cached
        self._mro[key] = ([key], [])  # a cycle in the hierarchy ends here
        result = self._compute_mro(path, qual)
        self._mro[key] = result
        return result

    def _compute_mro(self, path: str, qual: str) -> tuple[list[tuple[str, str]], list[Value]]:
        t = self._table(path)
        d = t.defs.get(qual)
        if d is None:
            return [(path, qual)], []
        site = _Site(t, d.parent, d.start_line)
        bases: list[tuple[str, str]] = []
        external: list[Value] = []
        for chain in (*d.bases, *d.implements):
            denot, _ = self.walk(site, chain)
            if denot is not None and denot[0] == "sym" and self.is_class(denot):
                bases.append((denot[1], denot[2]))
            else:
                external.append(denot if denot is not None else ("unknown",))
        base_mros = [self.mro(*b) for b in bases]
        for _, ext in base_mros:
            external.extend(ext)
        if t.python:
            linear = _c3([[(path, qual)]] + [m for m, _ in base_mros] + [bases])
        else:
            linear = [(path, qual)]
            for m, _ in base_mros:
                linear.extend(c for c in m if c not in linear)
        return linear, external


def interface_of(facts: FileFacts) -> tuple:
    """Everything of a file that resolving *another* file can read: definitions, imports,
    exports and bindings, without positions (order kept) and without references. When it is
    unchanged, an edit cannot change any other file's edges (only the file's own)."""
    defs = tuple(
        (d.kind, d.name, d.qualname, d.parent, d.exported, d.modifiers, d.bases, d.implements,
         d.params, d.returns, d.type, d.value)
        for d in facts.definitions
    )  # fmt: skip
    imports = tuple(
        (i.module, i.name, i.alias, i.level, i.scope, i.reexport) for i in facts.imports
    )
    # another file reads bindings only through a field's value (``self.x = param`` inside a
    # method) or at module level (TS callbacks); a plain function's locals are its own
    methods = {d.qualname for d in facts.definitions if d.kind == DefKind.METHOD}
    bindings = tuple(
        (b.scope, b.name, b.type, b.value)
        for b in facts.bindings
        if b.scope == "" or b.scope in methods or b.name == "return"
    )
    return (facts.language, defs, imports, bindings, facts.exports, facts.all_names)


# for callers outside this module (the checker): where a chain is evaluated, a file's tables
Site = _Site
FileTables = _FileTables


_TS_RETURN_TYPE = re.compile(r"\)\s*:\s*\S")


def _annotated_return(d: Definition, python: bool) -> bool:
    """Whether the definition's header declares a return type (even one without a principal
    named type, like ``Promise<any>`` or ``-> Any``)."""
    if python:
        return "->" in d.signature
    return bool(_TS_RETURN_TYPE.search(d.signature))


def _pick_binding(bound: list[Binding], line: int) -> Binding:
    """The assignment in effect at ``line``: the last one on an earlier line (a reference on
    the assignment's own line reads the old value: ``m = m.with_minimum(1)``), else the first."""
    best = bound[0]
    for b in bound:
        if b.line < line:
            best = b
    return best


def _method_containing(t: _FileTables, d: Definition) -> str | None:
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


def _c3(sequences: list[list[tuple[str, str]]]) -> list[tuple[str, str]]:
    """C3 linearisation; falls back to depth-first order for inconsistent hierarchies."""
    seqs = [list(s) for s in sequences if s]
    result: list[tuple[str, str]] = []
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


def placeholders_for(targets: Iterable[str]) -> list[Symbol]:
    """The placeholder symbols (external / unresolved) among edge targets, once each."""
    prefixes = ("external::", "unresolved::")
    return [placeholder_symbol(t) for t in dict.fromkeys(targets) if t.startswith(prefixes)]


def placeholder_symbol(target: str) -> Symbol:
    kind, _, dotted = target.partition("::")
    name = dotted.rsplit(".", 1)[-1] if not dotted.startswith(("./", "../")) else dotted
    return Symbol(id=target, kind=kind, name=name, qualname=dotted, path="")


# ---------------------------------------------------------------------------------- edges


_REF_EDGE = {
    RefKind.CALL: EdgeKind.CALLS,
    RefKind.NEW: EdgeKind.REFERENCES,
    RefKind.READ: EdgeKind.REFERENCES,
    RefKind.TYPE: EdgeKind.REFERENCES,
}


class _EdgeEmitter:
    """Turns one file's facts into edges, using the resolver for every name."""

    def __init__(self, resolver: Resolver, t: _FileTables, out: ResolvedFile):
        self.r = resolver
        self.t = t
        self.out = out
        self.path = t.path
        # scope qualname -> the id edges from that scope start at
        self._scope_ids: dict[str, str] = {}

    def emit_all(self) -> None:
        self._emit_structure()
        for imp in self.t.facts.imports:
            self._emit_import(imp)
        for ref in self.t.facts.references:
            if ref.kind in _REF_EDGE:
                self._emit_reference(ref)

    def _source(self, scope: str) -> str:
        found = self._scope_ids.get(scope)
        if found is None:
            qual = scope
            while qual and qual not in self.t.ids:
                qual = qual.rpartition(".")[0]
            found = self.t.ids.get(qual, self.path)
            self._scope_ids[scope] = found
        return found

    def _add(self, source: str, target: str, kind: EdgeKind, line: int, column: int = 0) -> None:
        self.out.edges.append(Edge(source, target, kind, self.path, line, column))

    def _target_id(self, denot: Value | None, fallback: str) -> str:
        if denot is not None:
            kind = denot[0]
            if kind == "sym":
                return self.r.tables[denot[1]].ids.get(denot[2], symbol_id(denot[1], denot[2]))
            if kind == "mod":
                return denot[1]
            if kind == "ext":
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
                self._emit_heritage(qual, d)
            elif d.kind == DefKind.METHOD:
                self._emit_override(qual, d)

    def _emit_heritage(self, qual: str, d: Definition) -> None:
        site = _Site(self.t, d.parent, d.start_line)
        source = self.t.ids[qual]
        interface = d.kind == DefKind.INTERFACE
        for chain in d.bases:
            denot, _ = self.r.walk(site, chain)
            kind = EdgeKind.INHERITS
            if not interface and denot is not None and denot[0] == "sym":
                base = self.r._def(denot)
                if base is not None and base.kind == DefKind.INTERFACE and not self.t.python:
                    kind = EdgeKind.IMPLEMENTS  # a class can only "extend" an interface in error
            self._add(source, self._target_id(denot, ".".join(chain)), kind, d.start_line)
        for chain in d.implements:
            denot, _ = self.r.walk(site, chain)
            target = self._target_id(denot, ".".join(chain))
            self._add(source, target, EdgeKind.IMPLEMENTS, d.start_line)

    def _emit_override(self, qual: str, d: Definition) -> None:
        cls = self.t.defs.get(d.parent)
        if cls is None or cls.kind not in CLASS_KINDS or d.name == "constructor":
            return
        mro, _ = self.r.mro(self.path, d.parent)
        for cpath, cqual in mro[1:]:
            member = self.r._table(cpath).children.get(cqual, {}).get(d.name)
            if member is not None:
                target = self.r.tables[cpath].ids[member]
                self._add(self.t.ids[qual], target, EdgeKind.OVERRIDES, d.start_line)
                return

    def _emit_import(self, imp: Import) -> None:
        source = self._source(imp.scope)
        if imp.name == "*":
            target_module = self._star_module(imp)
            self._add(source, target_module, EdgeKind.IMPORTS, imp.line)
            return
        denot = self.r._import(self.t, imp)
        spec = "." * imp.level + imp.module
        fallback = f"{spec}.{imp.name}" if imp.name else spec
        self._add(source, self._target_id(denot, fallback), EdgeKind.IMPORTS, imp.line)

    def _star_module(self, imp: Import) -> str:
        if self.t.python:
            dotted = resolve_python_module(self.r.modules, self.path, imp.module, imp.level)
            value = self.r._python_module_value(dotted) if dotted else None
        else:
            target = resolve_ts_module(self.r.modules, self.path, imp.module)
            value = ("mod", target) if target else None
            if value is None and not imp.module.startswith("."):
                value = ("ext", imp.module)
        return self._target_id(value, "." * imp.level + imp.module)

    def _emit_reference(self, ref: Reference) -> None:
        site = _Site(self.t, ref.scope, ref.line)
        if ref.chain[-1].endswith("()"):
            # ``f(x)(y)``: the callee is what f returns, not f (whose call is its own reference)
            value = self.r.eval_chain(site, ref.chain)
            denot = value if value is not None and value[0] == "sym" else None
            if denot is None:
                return  # a function value from a call: unknowable, and no name to keep
            receiver = None
        else:
            denot, receiver = self.r.walk(site, ref.chain)
        kind = _REF_EDGE[ref.kind]
        if ref.kind == RefKind.READ and (denot is None or denot[0] in ("local", "ext", "ns")):
            return  # unresolved reads are mostly untyped locals: not worth a placeholder
        if denot is not None and denot[0] == "local":
            inner = denot[1]
            denot = inner if inner is not None and inner[0] == "sym" else None
            if denot is None and ref.kind != RefKind.CALL:
                return
        if denot is not None and denot[0] == "super":
            denot = self._super_constructor(denot)
        elif denot is not None and denot[0] == "inst":
            denot = ("sym", denot[1], denot[2])
        source = self._source(ref.scope)
        target = self._target_id(denot, _unresolved_name(self.r, ref.chain, receiver))
        self._add(source, target, kind, ref.line, ref.column)
        if ref.kind == RefKind.NEW and denot is not None and denot[0] == "sym":
            ctor = self.r.class_member(denot[1], denot[2], "constructor")
            if ctor is not None and ctor[0] == "sym":
                ctor_id = self.r.tables[ctor[1]].ids.get(ctor[2])
                if ctor_id:
                    self._add(source, ctor_id, EdgeKind.CALLS, ref.line, ref.column)

    def _super_constructor(self, denot: Value) -> Value | None:
        """TS ``super(...)``: the nearest base constructor, else the base class itself."""
        ctor = self.r.class_member(denot[1], denot[2], "constructor", skip_self=True)
        if ctor is not None:
            return ctor
        mro, external = self.r.mro(denot[1], denot[2])
        if len(mro) > 1:
            return ("sym", *mro[1])
        return external[0] if external and external[0][0] == "ext" else None


def _unresolved_name(r: Resolver, chain: Chain, receiver: Value | None) -> str:
    last = chain[-1].removesuffix("()")
    if len(chain) == 1:
        return last
    if receiver is not None and receiver[0] in ("inst", "sym", "super"):
        return f"{receiver[2]}.{last}"
    if receiver is not None and receiver[0] == "mod":
        return f"{receiver[1]}.{last}"
    return f"?.{last}"


def resolve_all(
    facts: Mapping[str, FileFacts],
    layout: ProjectLayout | None = None,
    only: Iterable[str] | None = None,
    jobs: int = 1,
    tables: TableCache | None = None,
) -> tuple[dict[str, ResolvedFile], list[Symbol]]:
    """Resolve ``only`` (default: every file) against all ``facts``; returns per-file results
    and the placeholder symbols their edges point at."""
    return start_resolution(facts, layout, only, jobs, tables).result()


class PendingResolution:
    """Resolution under way. With ``jobs`` > 1 and enough files it runs in forked worker
    processes that share the tables built here, so the caller's process is free (the indexer
    writes files and symbols meanwhile); otherwise it runs in :meth:`result`."""

    def __init__(self, resolver: Resolver, targets: list[str], jobs: int) -> None:
        self.resolver = resolver
        self.targets = targets
        self._pool: ProcessPoolExecutor | None = None
        self._pending: list[Future[list[tuple[str, list[tuple], list[str]]]]] = []
        parallel = jobs > 1 and len(targets) >= _PARALLEL_MIN_FILES
        if parallel and "fork" in get_all_start_methods():
            self._start(jobs)

    def symbols(self, path: str) -> list[Symbol]:
        """A file's symbols need no resolution: they are known before it finishes."""
        return list(self.resolver.tables[path].symbols)

    def _start(self, jobs: int) -> None:
        global _forked
        # several shards per worker, dealt by weight so they are of similar size: results come
        # back in batches the caller can write while the rest is still being resolved (a
        # worker keeps its memo across the shards it takes)
        weight = {p: len(self.resolver.tables[p].facts.references) for p in self.targets}
        shards: list[list[str]] = [[] for _ in range(jobs * _SHARDS_PER_JOB)]
        for i, path in enumerate(sorted(self.targets, key=lambda p: -weight[p])):
            shards[i % len(shards)].append(path)
        _forked = self.resolver  # what the forked workers inherit
        try:
            self._pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork"))
            self._pending = [self._pool.submit(_resolve_shard, shard) for shard in shards]
        finally:
            _forked = None

    def batches(self) -> Iterator[dict[str, ResolvedFile]]:
        """Resolved files, a batch at a time, as they are done; every target exactly once."""
        if self._pool is None:
            yield self.resolver.resolve(self.targets)
            return
        kinds = {k.value: k for k in EdgeKind}
        try:
            for future in as_completed(self._pending):
                yield {
                    path: ResolvedFile(
                        path=path,
                        symbols=self.symbols(path),
                        edges=[Edge(s, t, kinds[k], p, ln, c) for s, t, k, p, ln, c in edges],
                        depends_on=set(depends),
                    )
                    for path, edges, depends in future.result()
                }
        finally:
            self._pool.shutdown(cancel_futures=True)

    def result(self) -> tuple[dict[str, ResolvedFile], list[Symbol]]:
        out: dict[str, ResolvedFile] = {}
        for batch in self.batches():
            out.update(batch)
        resolved = {p: out[p] for p in self.targets}
        return resolved, self.resolver.placeholders(resolved.values())


def start_resolution(
    facts: Mapping[str, FileFacts],
    layout: ProjectLayout | None = None,
    only: Iterable[str] | None = None,
    jobs: int = 1,
    tables: TableCache | None = None,
) -> PendingResolution:
    resolver = Resolver(facts, layout, tables)
    known = resolver.facts.keys()
    targets = sorted(known) if only is None else sorted(set(only) & known)
    return PendingResolution(resolver, targets, jobs)


_PARALLEL_MIN_FILES = 200
_SHARDS_PER_JOB = 4
_forked: Resolver | None = None  # the resolver a forked worker inherits


def _resolve_shard(paths: list[str]) -> list[tuple[str, list[tuple], list[str]]]:
    assert _forked is not None
    out = []
    for path in paths:
        r = _forked.resolve_file(path)
        # plain tuples with the kind as text: far cheaper to pickle than enums
        edges = [(e.source, e.target, e.kind.value, e.path, e.line, e.column) for e in r.edges]
        out.append((path, edges, sorted(r.depends_on)))
    return out


__all__ = [
    "PendingResolution",
    "PlaceholderKind",
    "Resolver",
    "TableCache",
    "placeholder_symbol",
    "placeholders_for",
    "resolve_all",
    "start_resolution",
]
