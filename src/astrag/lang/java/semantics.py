"""Java's semantics for the language-neutral resolver.

Names: a method sees its classes' members (inherited ones too) by bare name
(``members_in_scope``); then the file's own classes, single-type and single-static imports,
same-package classes (the file's directory), on-demand imports (``a.b.*``, ``static a.b.C.*``),
then ``java.lang`` and the primitive types, which are external. ``this`` and ``super`` are the
receivers; bases are linearised superclass first, then interfaces, each depth first.

Overloads (``call_target``): a call runs the member javac would choose among the methods of its
name in the class where lookup found it and that class's bases — those whose parameter count
fits the arguments (varargs last, as javac's third phase), then whose declared parameter types
the arguments' known types fit (without boxing first, as javac's first phase), then the most
specific. Where an argument whose type is unknown is all that could separate two candidates,
the call stays unresolved rather than guessed. ``new C(...)``, ``this(...)``, ``super(...)`` and
an enum constant pick among C's own constructors the same way; a class without one (or a
record's implicit canonical constructor) is its own target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from astrag.graph.facts import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Chain,
    Definition,
    DefKind,
    Import,
    Reference,
)
from astrag.graph.semantics import Receiver
from astrag.graph.tables import Site
from astrag.graph.values import ClassKey, Value
from astrag.lang.java.jdk import package_classes, supertypes
from astrag.lang.java.modules import (
    class_file,
    has_class_named,
    is_package,
    longest_class_file,
    sibling_class_file,
    star_import,
)

if TYPE_CHECKING:
    from astrag.graph.resolve import Resolver
    from astrag.graph.tables import FileTables

# what a Java file may name without an import: java.lang's public classes, from the JDK table
JAVA_LANG = package_classes("java.lang")
OBJECT_METHODS = frozenset(
    "clone equals finalize getClass hashCode notify notifyAll toString wait".split()
)
PRIMITIVES = frozenset("boolean byte short char int long float double".split())
_WIDENING = {
    "byte": ("short", "int", "long", "float", "double"),
    "short": ("int", "long", "float", "double"),
    "char": ("int", "long", "float", "double"),
    "int": ("long", "float", "double"),
    "long": ("float", "double"),
    "float": ("double",),
    "double": (),
    "boolean": (),
}
_BOXES = {
    "boolean": "Boolean",
    "byte": "Byte",
    "short": "Short",
    "char": "Character",
    "int": "Integer",
    "long": "Long",
    "float": "Float",
    "double": "Double",
}
_BOXED_SUPERS = ("java.lang.Object", "java.lang.Number", "java.lang.Comparable")
# final JDK classes: nothing else is ever one of them
_FINAL = frozenset(
    f"java.lang.{name}"
    for name in "String Boolean Character Byte Short Integer Long Float Double Class".split()
)
_PACKAGE_ROOTS = frozenset({"java", "javax", "jdk", "sun", "com.sun"})
OBJECT: Value = ("ext", "java.lang.Object")


class JavaSemantics:
    language = "java"
    receivers: ClassVar[Mapping[str, Receiver]] = {
        "this": Receiver.INSTANCE,
        "super": Receiver.SUPER,
    }
    class_body_is_scope = False
    members_in_scope = True
    receiver_types: frozenset[Chain] = frozenset({("this",)})  # a self-type parameter
    receiver_values: frozenset[Chain] = frozenset()
    constructor = "constructor"
    builtin_collections: ClassVar[Mapping[str, tuple[str, Mapping[str, str]]]] = {}  # none read
    element_methods: ClassVar[Mapping[str, str]] = {}  # no iteration protocol read

    def global_name(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        sibling = sibling_class_file(r.modules, t.path, name)
        if sibling is not None and sibling != t.path:
            return r.module_member(sibling, name)
        if name in JAVA_LANG:
            return ("ext", f"java.lang.{name}")
        if name in PRIMITIVES or name in _PACKAGE_ROOTS:
            return ("ext", name)
        if name in OBJECT_METHODS:  # every class inherits them; none in the repository had it
            return ("ext", f"java.lang.Object.{name}")
        if is_package(r.modules, name):  # ``org.acme.Node``: a name written qualified
            return ("ns", name, self.language)
        return None

    def import_value(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        parts = [*imp.module.split("."), imp.name or ""]
        return self._qualified(r, t, parts)

    def _qualified(self, r: Resolver, t: FileTables, parts: list[str]) -> Value | None:
        found = longest_class_file(r.modules, t.path, parts)
        if found is None:
            return ("ext", ".".join(parts))
        path, rest = found
        value = r.module_member(path, parts[len(parts) - len(rest) - 1])
        for name in rest:
            if value is None:
                return None
            value = r.member(value, name)
        return value

    def star_member(self, r: Resolver, t: FileTables, imp: Import, name: str) -> Value | None:
        # a same-package class comes before every on-demand import
        sibling = sibling_class_file(r.modules, t.path, name)
        if sibling is not None:
            return r.module_member(sibling, name)
        found = self._star_in_repository(r, t, imp, name)
        if found is not None or name in JAVA_LANG:
            return found
        if self._star_target_path(r, t, imp) is not None:
            return None  # an in-repository package or class that has no such member
        for other in t.star_imports.get("", ()):
            if other is not imp and self._star_in_repository(r, t, other, name) is not None:
                return None  # a later in-repository on-demand import provides it
        return ("ext", f"{imp.module}.{name}")

    def _star_in_repository(
        self, r: Resolver, t: FileTables, imp: Import, name: str
    ) -> Value | None:
        parts, owner, _ = star_import(r.modules, t.path, imp.module)
        if owner is not None:  # ``import static a.b.C.*`` / ``import a.b.C.*``: C's members
            cls = r.module_member(owner, parts[-1])
            return r.member(cls, name) if cls is not None else None
        if not has_class_named(r.modules, name):
            return None  # no file of the repository is the class (``String``, ``List``)
        path = class_file(r.modules, t.path, [*parts, name])
        return r.module_member(path, name) if path is not None else None

    def _star_target_path(self, r: Resolver, t: FileTables, imp: Import) -> str | None:
        return star_import(r.modules, t.path, imp.module)[2]

    def star_import_target(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        parts = imp.module.split(".")
        owner = class_file(r.modules, t.path, parts)
        if owner is not None:
            return r.module_member(owner, parts[-1])
        return ("ext", imp.module)

    def module_member(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        qual = t.children.get("", {}).get(name)
        return ("sym", t.path, qual) if qual is not None else None

    def namespace_member(self, r: Resolver, dotted: str, name: str) -> Value | None:
        """The class ``name`` of package ``dotted`` (its file), or a package within it."""
        parts = [*dotted.split("."), name]
        path = class_file(r.modules, "", parts)
        if path is not None:
            return r.module_member(path, name)
        inner = f"{dotted}.{name}"
        return ("ns", inner, self.language) if is_package(r.modules, inner) else None

    def declares_return(self, d: Definition) -> bool:
        return True  # every method declares its return type

    def linearise(
        self, r: Resolver, own: ClassKey, bases: Sequence[ClassKey], base_mros: Sequence[list]
    ) -> list[ClassKey]:
        linear = [own]
        for mro in base_mros:
            linear.extend(c for c in mro if c not in linear)
        return linear

    def implied_bases(self, r: Resolver, t: FileTables, qual: str) -> Sequence[Value]:
        return ()

    def call_target(self, r: Resolver, t: FileTables, ref: Reference, denot: Value) -> Value | None:
        d = r.definition(denot)
        if d is None:
            return denot
        if d.kind in CLASS_KINDS:
            return self._constructor(r, t, ref, denot, d)
        if d.name == self.constructor:  # super(...): the base's own constructors
            key: tuple = ("java-declared", denot[1], d.parent, d.name)
            candidates = _members(r, denot[1], d.parent, d.name)
        else:
            # the same method is called from many sites: its candidates are gathered once
            key = ("java-candidates", denot[1], d.parent, d.name)
            candidates = r.cached(key, lambda: _inherited(r, denot[1], d.parent, d.name))  # type: ignore[assignment]
        return choose(r, Site(t, ref.scope, ref.line), ref, candidates, key)

    def _constructor(
        self, r: Resolver, t: FileTables, ref: Reference, cls: Value, d: Definition
    ) -> Value | None:
        if d.kind == DefKind.INTERFACE:
            # ``new Runnable() {...}``: an anonymous class of an interface runs Object()
            return OBJECT if "annotation" not in d.modifiers else cls
        ctors = _members(r, cls[1], cls[2], self.constructor)
        if not ctors:
            return cls  # the implicit default constructor is the class itself
        key = ("java-declared", cls[1], cls[2], self.constructor)
        chosen = choose(r, Site(t, ref.scope, ref.line), ref, ctors, key)
        if chosen is None and "record" in d.modifiers and _fits_count(d, ref.arg_count)[0]:
            return cls  # a record's implicit canonical constructor is the record itself
        return chosen

    def module_is_dynamic(self, r: Resolver, t: FileTables) -> bool:
        return False


Candidate = tuple[str, str, Definition]  # (path, qualname, definition)


def _members(r: Resolver, path: str, cls: str, name: str) -> list[Candidate]:
    """The methods named ``name`` that class ``cls`` of ``path`` declares, in source order."""
    methods: dict[tuple[str, str], list[Candidate]] = r.memoised(
        ("java-methods", path), lambda: _methods(r, path)
    )  # type: ignore[assignment]
    return methods.get((cls, name), [])


def _methods(r: Resolver, path: str) -> dict[tuple[str, str], list[Candidate]]:
    """Every method of a file by (class, name), in source order: a file's definitions are read
    once, not once for each name called on one of its classes."""
    methods: dict[tuple[str, str], list[Candidate]] = {}
    for d in r.table(path).facts.definitions:
        if d.kind in FUNCTION_KINDS:
            methods.setdefault((d.parent, d.name), []).append((path, d.qualname, d))
    return methods


def _inherited(r: Resolver, path: str, cls: str, name: str) -> list[Candidate]:
    """The methods named ``name`` of class ``cls`` and its bases, each signature once."""
    mro = r.mro(path, cls)[0]
    return _unoverridden(
        [
            c
            for i, (cpath, cqual) in enumerate(mro)
            for c in _members(r, cpath, cqual, name)
            if i == 0 or c[2].visibility != "private"  # a base's private is not inherited
        ]
    )


def _unoverridden(candidates: list[Candidate]) -> list[Candidate]:
    """Each signature once: an override hides the method it overrides (the nearer class is
    listed first)."""
    seen: set[tuple] = set()
    out = []
    for c in candidates:
        key = tuple((p.annotation, p.kind) for p in c[2].params)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _fits_count(d: Definition, n: int) -> tuple[bool, bool]:
    """(fits with fixed arity, fits as varargs)."""
    params = d.params
    varargs = bool(params) and params[-1].kind == "var_positional"
    return len(params) == n, varargs and n >= len(params) - 1


def choose(
    r: Resolver, site: Site, ref: Reference, candidates: list[Candidate], key: tuple
) -> Value | None:
    """The candidate javac's overload resolution picks, or None when astrag cannot tell.
    ``key`` names the candidate list: the choice depends on it, the argument count and the
    arguments' types only, so it is made once for each combination of them."""
    if not candidates:
        return None
    n = ref.arg_count
    if n < 0:  # a method reference: the arity is the functional interface's, unknown here
        return _sym(candidates[0]) if len(candidates) == 1 else None
    if len(candidates) == 1:  # no overloads (most calls): its arity alone decides
        return _sym(candidates[0]) if any(_fits_count(candidates[0][2], n)) else None
    fixed, varargs = _by_arity(candidates, n)
    if len(fixed) + len(varargs) <= 1:
        return _sym((fixed or varargs)[0]) if fixed or varargs else None
    args = [_arg_value(r, site, a) for a in ref.args] if len(ref.args) == n else [None] * n
    choice = ("java-choice", key, n, tuple(args))
    return r.cached(choice, lambda: _choose(r, args, fixed, varargs, n))  # type: ignore[return-value]


def _by_arity(candidates: list[Candidate], n: int) -> tuple[list[Candidate], list[Candidate]]:
    """The candidates that take ``n`` arguments with fixed arity, and those only as varargs."""
    fixed = []
    varargs = []
    for c in candidates:
        fits, spread = _fits_count(c[2], n)
        if fits:
            fixed.append(c)
        elif spread:
            varargs.append(c)
    return fixed, varargs


def _choose(
    r: Resolver,
    args: list[Value | None],
    fixed: list[Candidate],
    varargs: list[Candidate],
    n: int,
) -> Value | None:
    # javac's phases: fixed arity without boxing, with boxing, then varargs; the first phase
    # with an applicable candidate decides. One that only *may* apply (an argument astrag
    # cannot type) leaves open whether a later phase decides, unless no later one can.
    phases = []
    for pool, boxing in ((fixed, False), (fixed, True), (varargs, True)):
        verdicts = [(c, _applies(r, args, _param_values(r, c, n), boxing)) for c in pool]
        live = [c for c, v in verdicts if v is not False]
        phases.append((live, any(v is True for _, v in verdicts), boxing))
    for i, (live, sure, boxing) in enumerate(phases):
        if not live:
            continue
        if not sure:
            ids = {id(c) for c in live}
            if any(id(c) not in ids for later, _, _ in phases[i + 1 :] for c in later):
                return None
        return _most_specific(r, args, live, n, boxing)
    return None


def _applies(
    r: Resolver, args: list[Value | None], params: list[Value | None], boxing: bool
) -> bool | None:
    verdict: bool | None = True
    for a, p in zip(args, params, strict=True):
        fits = _fits(r, a, p, boxing)
        if fits is False:
            return False
        if fits is None:
            verdict = None
    return verdict


def _most_specific(
    r: Resolver, args: list[Value | None], live: list[Candidate], n: int, boxing: bool
) -> Value | None:
    if len(live) == 1:
        return _sym(live[0])
    params = {id(c): _param_values(r, c, n) for c in live}
    if all(a is not None for a in args):
        # every argument's type is known and one candidate declares exactly those types:
        # every other applicable candidate's parameters are supertypes of its own
        exact = [c for c in live if params[id(c)] == args]
        if len(exact) == 1:
            return _sym(exact[0])
    # an unknown argument where the candidates' parameters differ: javac could pick any
    for i, a in enumerate(args):
        if a is None and len({params[id(c)][i] for c in live}) > 1:
            return None
    best = [
        c
        for c in live
        if all(
            _fits(r, p, q, boxing) is True
            for other in live
            for p, q in zip(params[id(c)], params[id(other)], strict=True)
        )
    ]
    return _sym(best[0]) if len(best) == 1 else None


def _sym(c: Candidate) -> Value:
    return ("sym", c[0], c[1])


def _param_values(r: Resolver, c: Candidate, n: int) -> list[Value | None]:
    """What each of ``n`` arguments must be: the declared parameter types, varargs spread."""
    path, qual, d = c
    t = r.table(path)
    site = Site(t, qual, d.start_line)

    def compute() -> list[Value | None]:
        return [r.eval_type(site, p.annotation) for p in d.params]

    declared: list[Value | None] = r.memoised(("java-params", path, qual), compute)  # type: ignore[assignment]
    if d.params and d.params[-1].kind == "var_positional" and len(d.params) != n:
        return declared[:-1] + [declared[-1]] * (n - len(d.params) + 1)
    return declared[:n]


def _arg_value(r: Resolver, site: Site, chain: Chain | None) -> Value | None:
    """An argument's static type as a value, when astrag knows it: an instance of a class of
    the repository, an external type by name, a primitive; None otherwise."""
    if chain is None:
        return None
    value = r.eval_chain(site, chain)
    if value is None:
        return None
    if value[0] == "ext":
        name = value[1].removesuffix("()")
        last = name.rsplit(".", 1)[-1]
        # ``a.b().c()`` of an external value names calls, not a type
        # (and ``Charset.UTF_8`` a constant: a class name has a lower-case letter)
        if "()" in name or not (last in PRIMITIVES or _is_class_name(last)):
            return None
        return ("ext", name)
    return value if value[0] in ("inst", "elems") else None


def _is_class_name(name: str) -> bool:
    return name[:1].isupper() and any(ch.islower() for ch in name)


def _fits(r: Resolver, arg: Value | None, param: Value | None, boxing: bool) -> bool | None:
    """Whether a value of type ``arg`` may be passed as ``param``: True, False, or None when
    astrag cannot tell (a type it does not know, a hierarchy outside the repository)."""
    if arg is None or param is None:
        return None
    if arg == param or param == OBJECT:
        return True
    if arg[0] == "elems" or param[0] == "elems":
        if arg[0] == "elems" and param[0] == "elems":
            return _fits(r, arg[1], param[1], boxing)
        return False
    if arg[0] == "ext" and param[0] == "ext":
        return _fits_external(arg[1], param[1], boxing)
    if arg[0] == "inst" and param[0] == "inst":
        mro, external = r.mro(arg[1], arg[2])
        if (param[1], param[2]) in mro:
            return True
        return None if any(e[0] != "ext" for e in external) else False
    if arg[0] == "inst":  # a repository class passed as an external type
        _, external = r.mro(arg[1], arg[2])
        if param[1] in _FINAL:
            return False
        verdicts = [_fits_external(e[1], param[1], boxing) if e[0] == "ext" else None
                    for e in external]  # fmt: skip
        if any(v is True for v in verdicts):
            return True
        return None if any(v is None for v in verdicts) else False
    return False  # an external type or primitive is never a repository class


def _fits_external(arg: str, param: str, boxing: bool) -> bool | None:
    if arg in PRIMITIVES or param in PRIMITIVES:
        if arg in PRIMITIVES and param in PRIMITIVES:
            return param in _WIDENING[arg]
        if not boxing:
            return False
        if arg in PRIMITIVES:
            return f"java.lang.{_BOXES[arg]}" == param or param in _BOXED_SUPERS
        return arg == f"java.lang.{_BOXES[param]}"  # unboxing
    if param in _FINAL:
        return False  # a final class: only itself fits (and arg is another type)
    known = supertypes().get(arg)
    return param in known if known is not None else None


SEMANTICS = JavaSemantics()
