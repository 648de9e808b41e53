"""The checker's Java rules (``verify/rules.py``): a compiler-checked language over a closed
repository, with overloads.

* Methods called and fields read or written on a receiver of known type are judged when its
  class is closed: every type it extends or implements is in the repository, or is a JDK type
  whose every member astrag knows (``Object``, a marker such as ``Serializable``,
  ``Comparable``'s ``compareTo``, ``InputStream``'s methods and a filter's ``in``) and which
  lacks the name asked about; anything else it inherits from outside (``extends
  AbstractList``) may have any member. Records (implicit accessors), enums and annotation
  types are left alone.
* A call is judged against every overload javac would consider (the methods of that name in
  the class where lookup finds it and its bases, a base's private ones excepted; a class's own
  constructors, or the implicit default one): a finding only when no overload takes that many
  arguments (varargs taking any number from their fixed part on). Which overload an argument
  of unknown type selects is never guessed.
* An import of a class missing from a package the repository holds (``import
  com.acme.util.Strings`` where ``com/acme/util/`` has no ``Strings.java``), or of a member
  a repository class lacks (``import static``), is a finding; a package outside the
  repository is the open world.
"""

from __future__ import annotations

import posixpath
from functools import cache
from typing import TYPE_CHECKING

from tree_sitter import Node, Query, QueryCursor

from astrag.graph.facts import FUNCTION_KINDS, Definition, DefKind, Import, Reference
from astrag.graph.tables import Site
from astrag.graph.values import Value
from astrag.lang.java import GRAMMARS
from astrag.lang.java.modules import ROOM
from astrag.lang.java.semantics import OBJECT_METHODS
from astrag.verify.findings import Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.rules import LanguageRules
from astrag.verify.syntax import BLAME_IF_CLEAN_BEFORE

if TYPE_CHECKING:
    from astrag.verify.check import Checker
    from astrag.verify.members import ClassBodies

_THROWABLE = frozenset(
    "getMessage getLocalizedMessage getCause initCause toString printStackTrace getStackTrace "
    "setStackTrace fillInStackTrace addSuppressed getSuppressed".split()
)
_INPUT_STREAM = frozenset(
    "available close mark markSupported nullInputStream read readAllBytes readNBytes reset "
    "skip skipNBytes transferTo".split()
)
_OUTPUT_STREAM = frozenset("close flush nullOutputStream write".split())
_READER = frozenset(
    "close mark markSupported nullReader of read ready reset skip transferTo".split()
)
_WRITER = frozenset("append close flush nullWriter write".split())
# JDK supertypes whose every method (default and static ones included, Java 21) and visible
# field is known: a class of the repository that extends or implements only these besides
# its own types has no member it does not show but these
_KNOWN_JDK = {
    "java.lang.Object": frozenset(),
    "java.io.Serializable": frozenset(),
    "java.lang.Cloneable": frozenset(),
    "java.util.RandomAccess": frozenset(),
    "java.util.EventListener": frozenset(),
    "java.lang.Comparable": frozenset({"compareTo"}),
    "java.lang.Runnable": frozenset({"run"}),
    "java.util.concurrent.Callable": frozenset({"call"}),
    "java.lang.AutoCloseable": frozenset({"close"}),
    "java.io.Closeable": frozenset({"close"}),
    "java.io.Flushable": frozenset({"flush"}),
    "java.lang.Iterable": frozenset({"iterator", "forEach", "spliterator"}),
    "java.util.Iterator": frozenset({"hasNext", "next", "remove", "forEachRemaining"}),
    "java.util.function.Supplier": frozenset({"get"}),
    "java.util.function.Consumer": frozenset({"accept", "andThen"}),
    "java.util.function.Function": frozenset({"apply", "andThen", "compose", "identity"}),
    "java.util.function.Predicate": frozenset({"test", "and", "negate", "or", "isEqual", "not"}),
    "java.io.FileFilter": frozenset({"accept"}),
    "java.io.FilenameFilter": frozenset({"accept"}),
    "java.lang.reflect.Type": frozenset({"getTypeName"}),
    "java.lang.reflect.ParameterizedType": frozenset(
        {"getActualTypeArguments", "getRawType", "getOwnerType", "getTypeName"}
    ),
    "java.lang.reflect.GenericArrayType": frozenset({"getGenericComponentType", "getTypeName"}),
    "java.lang.reflect.WildcardType": frozenset(
        {"getUpperBounds", "getLowerBounds", "getTypeName"}
    ),
    "java.lang.Throwable": _THROWABLE,
    "java.lang.Exception": _THROWABLE,
    "java.lang.RuntimeException": _THROWABLE,
    "java.lang.IllegalArgumentException": _THROWABLE,
    "java.lang.IllegalStateException": _THROWABLE,
    "java.lang.UnsupportedOperationException": _THROWABLE,
    "java.io.IOException": _THROWABLE,
    "java.io.UncheckedIOException": _THROWABLE,
    # and their protected fields: the stream a filter wraps, the lock a reader/writer holds
    "java.io.InputStream": _INPUT_STREAM,
    "java.io.FilterInputStream": _INPUT_STREAM | {"in"},
    "java.io.OutputStream": _OUTPUT_STREAM,
    "java.io.FilterOutputStream": _OUTPUT_STREAM | {"out"},
    "java.io.Reader": _READER | {"lock"},
    "java.io.FilterReader": _READER | {"lock", "in"},
    "java.io.Writer": _WRITER | {"lock"},
    "java.io.FilterWriter": _WRITER | {"lock", "out"},
}
_OPEN_KINDS = frozenset({"record", "annotation"})
# Java narrows a type by ``instanceof`` (with or without a pattern variable) and casts only
_NARROWING = (
    r"{r}\s*instanceof\b",
    r"\(\s*[A-Z][\w.]*(?:<[^()]*>)?(?:\[\])*\s*\)\s*{r}\b",
)
# what every enum has from java.lang.Enum and the compiler, callable by bare name inside it
_ENUM_METHODS = frozenset(
    "values valueOf name ordinal compareTo getDeclaringClass describeConstable".split()
)


class JavaRules(LanguageRules):
    language = "java"
    receivers = frozenset({"this", "super"})
    call_members = OBJECT_METHODS
    # members every class has, never judged as a field read (``X.class``, ``a.length``)
    attribute_members = frozenset({"class", "length"})
    constructor = "constructor"
    overloaded = True
    narrowing = _NARROWING
    damage_begun_elsewhere = BLAME_IF_CLEAN_BEFORE  # tree-sitter-java reads Java 21
    lax_grammar = True

    def lax_syntax(self, root: Node) -> list[tuple[Node, str]]:
        """A string literal over a line end is unclosed (only a ``\"\"\"`` text block spans
        lines): tree-sitter-java reads it on to the next quote, lines later, and reports
        whatever that leaves unreadable there, if anything."""
        found = QueryCursor(_strings()).captures(root).get("string", [])
        return [
            (node, "unclosed string literal")
            for node in found
            if node.start_point.row != node.end_point.row and not node.text.startswith(b'"""')
        ]

    def needs_no_declaration(
        self, checker: Checker, site: Site, name: str, ref: Reference, text: str
    ) -> bool:
        """Inside an enum, what ``java.lang.Enum`` gives it (``values()``, ``name()``); a
        package-private class that a file of the same package declares beside its own
        public one (``Bag.java`` holding ``class Sink``)."""
        if name in _ENUM_METHODS and _in_enum(site):
            return True
        return _declared_in_package(checker, site.t.path, name)

    def import_findings(
        self, checker: Checker, change: ChangedFile, imp: Import, target: Value | None
    ) -> list[Finding]:
        what = f"{imp.module}.{imp.name}" if imp.name else imp.module
        if target is None:
            message = f"cannot import {what}: the repository's class has no such member"
            return [checker.finding(change, imp.line, 1, "unknown-import", message, what, ())]
        package = imp.module.split(".")
        classes = _package_classes(checker, package)
        if not classes or not imp.name or imp.name[:1].islower():
            return []  # a package outside the repository (or ``import static``): open world
        if _imported_elsewhere(checker, change.path, imp):
            return []  # other files import it too: a class the build generates
        message = f"cannot import {what}: the package has no class {imp.name!r}"
        return [checker.finding(change, imp.line, 1, "unknown-import", message, imp.name, classes)]

    def closed_class(
        self, checker: Checker, receiver: Value, d: Definition, name: str | None, attribute: bool
    ) -> bool:
        return _closed(checker, receiver[1], receiver[2], name, set())

    def external_call(
        self, checker: Checker, change: ChangedFile, ref: Reference, dotted: str,
        receiver: Value | None,
    ) -> list[Finding]:  # fmt: skip
        """``shape.compareWith(o)`` where Shape's only outside supertypes are ones whose
        methods are known (``Comparable``) and lack the name: the lookup stopped outside
        the repository, yet the class has no such member."""
        if receiver is None:
            return []
        return checker.missing_member(change, ref, receiver, OBJECT_METHODS)

    def body_declares(
        self, bodies: ClassBodies, path: str, qual: str, name: str, resolved: bool
    ) -> bool:
        """Fields are declarations: a write to one the resolver found is fine."""
        return resolved

    def external_name(
        self, checker: Checker, change: ChangedFile, ref: Reference, site: Site, dotted: str
    ) -> list[Finding]:
        """``helper()`` inside classes whose only outside supertypes are known ones that lack
        it (``JsonReader implements Closeable``): lookup went out through ``Closeable``, yet
        no class around the call has it."""
        owner, _, name = dotted.rpartition(".")
        if owner not in _KNOWN_JDK or name in _KNOWN_JDK[owner] or name in OBJECT_METHODS:
            return []
        t = site.t
        stars = (i.module.rpartition(".")[2] for i in t.facts.imports if i.name == "*")
        if any(last[:1].isupper() for last in stars):
            return []  # ``import static x.Y.*`` of a class outside: it may provide the name
        classes = _classes_around(site)
        if not classes or not all(_closed(checker, t.path, q, name, set()) for q in classes):
            return []
        message = f"{name!r} is not defined anywhere in scope"
        found = checker.finding(
            change, ref.line, ref.column, "unknown-function", message, name,
            checker.r.names_in_scope(site),
        )  # fmt: skip
        return [found]

    def overloads(self, checker: Checker, denot: Value) -> list[Definition] | None:
        """What a call of ``denot`` may run: the constructors of a class, or every method of
        that name javac would consider; None when they cannot all be seen."""
        r = checker.r
        d = r.definition(denot)
        if d is None:
            return None
        t = r.tables[denot[1]]
        if d.kind == DefKind.CLASS:
            if _OPEN_KINDS.intersection(d.modifiers):
                return None
            return _declared(checker, denot[1], denot[2], self.constructor) or [_DEFAULT]
        if d.kind not in FUNCTION_KINDS or d.name == self.constructor:
            return None  # ``this(...)``/``super(...)``: left alone
        owner = t.defs.get(d.parent)
        if owner is None or owner.kind not in (DefKind.CLASS, DefKind.INTERFACE):
            return None
        if not _closed(checker, denot[1], d.parent, d.name, set()):
            return None  # an outside supertype may overload it
        return _inherited(checker, denot[1], d.parent, d.name) or None

    def unknowable(self, checker: Checker, site: Site, chain: tuple[str, ...]) -> bool:
        """A call inside the chain of a method whose overloads return different types: which
        one runs, and so what the rest of the chain is looked up on, depends on arguments the
        chain does not carry (``el.attr("k").trim()``: ``attr(key)`` returns a ``String``,
        ``attr(key, value)`` the element), and the resolver took the first it found."""
        for i, element in enumerate(chain[:-1]):
            if not element.endswith("()"):
                continue
            denot, _ = checker.r.walk(site, chain[: i + 1])
            d = checker.r.definition(denot) if denot is not None and denot[0] == "sym" else None
            if d is None or d.kind not in FUNCTION_KINDS or not d.parent:
                continue
            # an override (the same parameters) may narrow its base's return type: the
            # nearest one of each parameter list counts
            returns: dict[tuple, object] = {}
            for m in _inherited(checker, denot[1], d.parent, d.name):
                returns.setdefault(tuple(p.annotation for p in m.params), m.returns)
            if len(set(returns.values())) > 1:
                return True
        return False


# the implicit default constructor of a class that declares none
_DEFAULT = Definition(DefKind.METHOD, "constructor", "constructor", "", 0, 0, 0, 0)


@cache
def _strings() -> Query:
    return Query(GRAMMARS.language("java"), "(string_literal) @string")


def _inherited(checker: Checker, path: str, qual: str, name: str) -> list[Definition]:
    """The methods named ``name`` of class ``qual`` and its repository bases (a base's private
    ones are not inherited)."""
    mro, _ = checker.r.mro(path, qual)
    return [
        m
        for i, (base_path, base) in enumerate(mro)
        for m in _declared(checker, base_path, base, name)
        if i == 0 or m.visibility != "private"
    ]


def _declared(checker: Checker, path: str, qual: str, name: str) -> list[Definition]:
    """The methods named ``name`` that class ``qual`` of ``path`` declares itself."""
    t = checker.r.tables[path]
    return [
        d
        for d in t.facts.definitions
        if d.parent == qual and d.name == name and d.kind in FUNCTION_KINDS
    ]


def _closed(checker: Checker, path: str, qual: str, name: str | None, seen: set) -> bool:
    if (path, qual) in seen:
        return True
    seen.add((path, qual))
    r = checker.r
    t = r.tables[path]
    d = t.defs.get(qual)
    if d is None or d.kind not in (DefKind.CLASS, DefKind.INTERFACE):
        return False
    if _OPEN_KINDS.intersection(d.modifiers):
        return False
    site = Site(t, d.parent, d.start_line)
    for chain in (*d.bases, *d.implements):  # an interface's default methods are members too
        base, _ = r.walk(site, chain)
        if base is not None and base[0] == "sym":
            if not _closed(checker, base[1], base[2], name, seen):
                return False
        elif base is None or base[0] != "ext":
            return False
        else:
            known = _KNOWN_JDK.get(base[1])
            if known is None or name is None or name in known:
                return False
    return True


def _classes_around(site: Site) -> list[str]:
    """The classes whose members a bare name at ``site`` may be (innermost first)."""
    found, scope = [], site.scope
    while scope:
        d = site.t.defs.get(scope)
        if d is None:
            break
        if d.kind in (DefKind.CLASS, DefKind.INTERFACE, DefKind.ENUM):
            found.append(scope)
        scope = d.parent
    return found


def _in_enum(site: Site) -> bool:
    scope = site.scope
    while scope:
        d = site.t.defs.get(scope)
        if d is None:
            return False
        if d.kind == DefKind.ENUM:
            return True
        scope = d.parent
    return False


def _declared_in_package(checker: Checker, path: str, name: str) -> bool:
    directory = posixpath.dirname(path)
    tables = checker.r.tables
    return any(
        posixpath.dirname(p) == directory
        and p in tables.facts
        and name in tables[p].children.get("", {})
        for paths in checker.r.modules.of(ROOM).by_name.values()
        for p in paths
    )


def _imported_elsewhere(checker: Checker, path: str, imp: Import) -> bool:
    """Another file of the index imports the same missing class: the repository's build
    makes it (a template, an annotation processor), its source is not among the indexed
    files."""
    facts = checker.r.tables.facts
    return any(
        other != path
        and other.endswith(".java")
        and any(i.module == imp.module and i.name == imp.name for i in facts[other].imports)
        for other in facts
    )


def _package_classes(checker: Checker, package: list[str]) -> set[str]:
    """The classes the repository holds in the package ``package`` (a directory whose path
    ends in its parts); empty when the package is not the repository's."""
    tail = "/".join(package)
    by_name = checker.r.modules.of(ROOM).by_name
    return {
        name
        for name, paths in by_name.items()
        for p in paths
        if (d := posixpath.dirname(p)) == tail or d.endswith("/" + tail)
    }


RULES = {"java": JavaRules()}
