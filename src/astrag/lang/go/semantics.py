"""Go's semantics for the language-neutral resolver (``graph/semantics.py``).

A package is a directory (``modules.py``): a name a file does not bind is looked up in the other
files of its package (a ``_test.go`` file also sees the package's other test files; no other
file sees them), then among Go's predeclared names. An import binds the package, represented by
one of its files (imports edges need a node); what another package gets is the exported
(capitalised) package-level names of any of its files. There are no receiver keywords: a
method's receiver is a typed local the frontend binds. A type's members are spread over the
files of its package (methods are declared anywhere in it), so its linearisation is its own
declaration, then the same type's members in sibling files, then its embedded fields' types
(promotion). Interfaces are implemented implicitly: a struct implements each interface of its
own package, or of a package its file imports, whose method set (names, parameter and result
counts, embedded interfaces included, the standard library's fixed ones among them) its own
method set covers.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from astrag.graph.facts import Definition, DefKind, Import, Reference
from astrag.graph.semantics import Receiver
from astrag.graph.values import ClassKey, Value
from astrag.lang.go.modules import (
    in_repository_module,
    is_test_file,
    package_dir,
    package_files,
    representative_file,
)
from astrag.lang.go.signature import result_count
from astrag.lang.go.std_interfaces import STD_INTERFACES
from astrag.lang.go.syntax import PREDECLARED

if TYPE_CHECKING:
    from astrag.graph.resolve import Resolver
    from astrag.graph.tables import FileTables

LANGUAGE = "go"
MethodSet = dict[str, tuple[int, int]]  # method name -> (parameters, -1: variadic; results)


class GoSemantics:
    language = LANGUAGE
    receivers: ClassVar[Mapping[str, Receiver]] = {}
    class_body_is_scope = False
    members_in_scope = False  # a method or field is reached through its receiver only
    receiver_types = frozenset()
    receiver_values = frozenset()
    constructor = ""  # Go has none: no name is one, so none is kept from overriding
    builtin_collections: ClassVar[Mapping[str, tuple[str, Mapping[str, str]]]] = {}  # none read
    element_methods: ClassVar[Mapping[str, str]] = {}  # no iteration protocol read

    def global_name(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        found = package_member(r, posixpath.dirname(t.path), name, is_test_file(t.path))
        if found is not None:
            return found
        return ("ext", name) if name in PREDECLARED else None

    def import_value(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        d = package_dir(r.modules, imp.module)
        if d is None:
            # inside one of the repository's modules, yet missing: not external
            return None if in_repository_module(r.modules, imp.module) else ("ext", imp.module)
        rep = representative_file(r.modules, d)
        return ("mod", rep) if rep is not None else None

    def star_member(self, r: Resolver, t: FileTables, imp: Import, name: str) -> Value | None:
        d = package_dir(r.modules, imp.module)
        if d is None or not name[:1].isupper():
            return None
        return package_member(r, d, name, tests=False)

    def star_import_target(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        return self.import_value(r, t, imp)

    def module_member(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        if not name[:1].isupper():
            return None  # unexported: invisible outside its package
        qual = t.children.get("", {}).get(name)
        if qual is not None:
            return ("sym", t.path, qual)
        return package_member(r, posixpath.dirname(t.path), name, tests=False)

    def namespace_member(self, r: Resolver, dotted: str, name: str) -> Value | None:
        return None  # imports bind a package's representative file, never a namespace

    def declares_return(self, d: Definition) -> bool:
        return True  # a Go signature always declares its results (none, or their types)

    def linearise(
        self, r: Resolver, own: ClassKey, bases: Sequence[ClassKey], base_mros: Sequence[list]
    ) -> list[ClassKey]:
        path, qual = own
        order = [own]
        for sibling in package_files(r.modules, posixpath.dirname(path), tests=True):
            if sibling != path and qual in r.table(sibling).children:
                order.append((sibling, qual))
        seen = set(order)
        for mro in base_mros:
            for key in mro:
                if key not in seen:
                    seen.add(key)
                    order.append(key)
        return order

    def implied_bases(self, r: Resolver, t: FileTables, qual: str) -> Sequence[Value]:
        d = t.defs.get(qual)
        if d is None or d.kind != DefKind.CLASS:
            return ()
        # A type embedding something from outside the repository has at least the methods
        # seen here: if those cover an interface, it implements it. An interface's method set
        # must be whole, or a type could be said to implement it while lacking a method.
        own, _ = method_set(r, t.path, qual)
        if not own:
            return ()
        found: list[Value] = []
        for ipath, iqual in candidate_interfaces(r, t):
            wanted, whole = method_set(r, ipath, iqual)
            if whole and wanted and all(own.get(name) == shape for name, shape in wanted.items()):
                found.append(("sym", ipath, iqual))
        return found

    def call_target(self, r: Resolver, t: FileTables, ref: Reference, denot: Value) -> Value:
        return denot

    def module_is_dynamic(self, r: Resolver, t: FileTables) -> bool:
        return False


def package_member(r: Resolver, d: str, name: str, tests: bool) -> Value | None:
    """A package-level definition of package ``d`` by name, from whichever file declares it."""

    def compute() -> Value | None:
        for path in package_files(r.modules, d, tests):
            qual = r.table(path).children.get("", {}).get(name)
            if qual is not None:
                return ("sym", path, qual)
        return None

    return r.memoised(("go-package", d, name, tests), compute)  # type: ignore[return-value]


def method_set(r: Resolver, path: str, qual: str) -> tuple[MethodSet, bool]:
    """The methods a type has, own and promoted, by name with their parameter and result
    counts, and
    whether that is all of them: False when a base outside the repository adds methods that
    cannot be seen (the standard library's fixed interfaces, ``std_interfaces``, can)."""

    def compute() -> tuple[MethodSet, bool]:
        mro, external = r.mro(path, qual)
        methods: MethodSet = {}
        for cpath, cqual in mro:
            t = r.table(cpath)
            for name, member in t.children.get(cqual, {}).items():
                m = t.defs.get(member)
                if m is not None and m.kind == DefKind.METHOD and name not in methods:
                    variadic = any(p.kind == "var_positional" for p in m.params)
                    arity = -1 if variadic else len(m.params)
                    methods[name] = (arity, result_count(m.signature))
        whole = True
        for base in external:  # after the repository's own: a shallower method wins
            known = STD_INTERFACES.get(base[1]) if base[0] == "ext" else None
            if known is None:
                whole = False
            else:
                for name, shape in known.items():
                    methods.setdefault(name, shape)
        return methods, whole

    return r.memoised(("go-methods", path, qual), compute)  # type: ignore[return-value]


def candidate_interfaces(r: Resolver, t: FileTables) -> list[ClassKey]:
    """The interfaces a type of file ``t`` may implement: its own package's, and those of the
    in-repository packages the file imports (gathered once per file, not once per type)."""
    return r.cached(("go-candidates", t.path), lambda: _candidate_interfaces(r, t))  # type: ignore[return-value]


def _candidate_interfaces(r: Resolver, t: FileTables) -> list[ClassKey]:
    dirs = [posixpath.dirname(t.path)]
    for imp in t.facts.imports:
        d = package_dir(r.modules, imp.module)
        if d is not None and d not in dirs:
            dirs.append(d)
    found: list[ClassKey] = []
    for d in dirs:
        found.extend(_package_interfaces(r, d))
    return found


def _package_interfaces(r: Resolver, d: str) -> list[ClassKey]:
    def compute() -> list[ClassKey]:
        return [
            (path, qual)
            for path in package_files(r.modules, d, tests=False)
            for qual, dd in r.table(path).defs.items()
            if dd.kind == DefKind.INTERFACE
        ]

    return r.memoised(("go-interfaces", d), compute)  # type: ignore[return-value]


SEMANTICS = GoSemantics()
