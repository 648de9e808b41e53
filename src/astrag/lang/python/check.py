"""The checker's Python rules (``verify/rules.py``): builtins, ``self`` bound by a call,
imports of repository and installed modules, the standard library checked on its real
modules, classes closed over standard-library bases that lack the name, and what a class
body adds to its instances (``self.x = ...`` anywhere, slots; ``setattr``/``__dict__`` open it).
"""

from __future__ import annotations

import ast
import re
import types
from functools import lru_cache
from typing import TYPE_CHECKING

from tree_sitter import Node, Tree

from astrag.graph.facts import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Chain,
    Definition,
    DefKind,
    Import,
    Reference,
)
from astrag.graph.tables import FileTables, Site
from astrag.graph.values import Value
from astrag.lang.brackets import split_outside
from astrag.lang.python.check_bodies import python_class_body
from astrag.lang.python.check_callable import (
    alias_annotation,
    callable_arity,
    parameter_annotation,
)
from astrag.lang.python.check_getattr import Names, hook_answers, name_constants
from astrag.lang.python.check_stdlib import (
    ABSTRACT_MODULES,
    installed_call,
    installed_import,
    stdlib_attributes,
    stdlib_missing_attribute,
)
from astrag.lang.python.modules import in_repository_package, resolve_python_module
from astrag.lang.python.semantics import PY_BUILTINS, module_value
from astrag.verify.findings import Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.rules import Guard, LanguageRules
from astrag.verify.syntax import BLAME_ALWAYS

if TYPE_CHECKING:
    from astrag.verify.check import Checker
    from astrag.verify.members import ClassBodies

_SUPPRESS = re.compile(r"#\s*(type:\s*ignore|noqa|pyright:\s*ignore)")
_DYNAMIC_HOOKS = frozenset({"__getattr__", "__getattribute__"})
_OBJECT_MEMBERS = frozenset(dir(object))
# what an ``except`` clause catches -> the findings it expects on the lines it guards
_HANDLED = {
    "AttributeError": frozenset({"unknown-member"}),
    "ImportError": frozenset({"unknown-import"}),
    "ModuleNotFoundError": frozenset({"unknown-import"}),
    "NameError": frozenset({"undeclared-name", "unknown-function", "unknown-type"}),
}
# what a test asserts is raised: a ``TypeError`` there is the wrong call itself (an ``except
# TypeError`` around code handles a failure it may meet, not a call it gets wrong)
_EXPECTED = {**_HANDLED, "TypeError": frozenset({"wrong-arguments", "unknown-keyword"})}
# a context manager a test opens around code it expects to raise (``with
# pytest.raises(TypeError):``, ``with self.assertRaises(AttributeError):``)
_EXPECTS_RAISE = re.compile(r"(?:^|\.)(?:raises|assertRaises|assertRaisesRegexp?)$")
_EVERYTHING = frozenset({"Exception", "BaseException"})
_IMPORT_FAILURES = frozenset({"ImportError", "ModuleNotFoundError"})
# what differs between Python versions: members and names of the standard library
_VERSION_DEPENDENT = frozenset({"unknown-member", "unknown-import"})
# class decorators that leave a class's constructor as the class declares it
_PLAIN_CLASS_DECORATORS = frozenset(
    {"dataclass", "dataclasses.dataclass", "total_ordering", "functools.total_ordering",
     "final", "typing.final", "runtime_checkable", "typing.runtime_checkable", "unique",
     "enum.unique", "override", "typing.override"}
)  # fmt: skip
# code that tests which Python runs it: what it uses may exist on another version only
_VERSION_TEST = re.compile(r"\bsys\.version(?:_info)?\b|\bPY_?[23]|\bPY3\d|python_version\(")
_WRITES_GLOBALS = re.compile(r"\bglobals\(\)\s*(?:\[|\.update\b|\.setdefault\b)")


class PythonRules(LanguageRules):
    language = "python"
    receivers = frozenset({"self", "cls", "super", "super()"})
    # ``type``'s too: the receiver may be a class (``C.__subclasses__()``, ``C.mro()``)
    call_members = _OBJECT_MEMBERS | frozenset(dir(type))
    attribute_members = frozenset(dir(object)) | frozenset(dir(type))
    judges_module_reads = True
    writes_create_attributes = True
    self_parameter = True
    constructor = "__init__"
    receiver_may_be_subclass = True
    # every region the parser could not read around a written line: CPython has the last word
    damage_begun_elsewhere = BLAME_ALWAYS
    module_members = frozenset(dir(types.ModuleType("m"))) | {
        "__file__",
        "__path__",
        "__cached__",
        "__builtins__",
        "__all__",
        "__dict__",  # every module object's namespace (toolz's ``toolz.curried.__dict__``)
    }

    def parser_accepts(self, text: str) -> bool:
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            return False
        return True

    def guarded(self, text: str, tree: Tree | None) -> list[Guard]:
        """The bodies of ``try:`` statements, for the findings their ``except`` clauses
        handle: ``try: from x import y except ImportError:``, a method of another Python
        version tried under ``except AttributeError`` (a bare ``except`` or ``except
        Exception`` handles imports, and standard-library members some Python lacks); the
        imports of an ``except ImportError:`` clause, the fallback for another environment. And
        code that runs on some Pythons only (``if
        sys.version_info >= (3, 13):``, ``@pytest.mark.skipif(not PY_3_13_PLUS)``): the
        standard library it uses may be another version's."""
        if tree is None:
            return []
        return _guards(tree.root_node)

    def unknowable(self, checker: Checker, site: Site, chain: Chain) -> bool:
        return len(chain) > 1 and (
            _field_of_decorated_class(checker, site, chain)
            or _class_body_field(site, chain[0])
            or _built_by_class(site, chain[0])
            or _union_member_may_have(checker, site, chain)
        )

    def module_declares(self, checker: Checker, path: str, name: str, importer: str) -> bool:
        """For a stub (``.pyi``), a module's stub declares what it has, whichever of its
        stub and source the resolver found (a stub names types its source never defines);
        code that runs gets the source's names. A module that writes ``globals()`` has
        names no definition shows."""
        sibling = _sibling(path)
        tables = checker.r.tables
        if importer.endswith(".pyi") and sibling.endswith(".pyi") and sibling in tables.facts:
            t = tables[sibling]
            if name in t.children.get("", {}) or name in t.imports.get("", {}):
                return True
            if self.module_may_have(checker, sibling, name):
                return True
        # a ``__getattr__`` answers the name, or the module writes ``globals()`` (outside a
        # hook whose answers are fixed: toolz's stores ``__version__`` there, nothing else)
        answers, rest = _module_hook(checker, path)
        if answers is None or name in answers:
            return True
        return _WRITES_GLOBALS.search(rest) is not None

    def module_may_have(self, checker: Checker, path: str, name: str) -> bool:
        if checker.r.tables[path].star_imports.get(""):
            return True
        answers, _ = _module_hook(checker, path)
        return answers is None or name in answers

    def signature_known(self, checker: Checker, cls: Definition) -> bool:
        """A class decorator (``@attr.s``, ``@attrs.define``) may write the constructor."""
        return all(d.split("(", 1)[0].strip() in _PLAIN_CLASS_DECORATORS for d in cls.decorators)

    def receiver_site(self, site: Site, root: str) -> Site | None:
        """``self``/``cls`` is the receiver only as the first parameter of a method (in a
        nested function too), and a class body defined in a method sees that method's
        (``class Tester: bound = f(self.BOUND)``); where a function binds the name itself
        (``cls`` as a fixture parameter, ``cls = make_class(...)``) it is no receiver."""
        if root.startswith("super"):
            return site
        t, scope = site.t, site.scope
        crossed = False  # a class body between the use and the function binding the name
        while scope:
            d = t.defs.get(scope)
            if d is None:
                return site
            if d.kind in CLASS_KINDS:
                crossed = True
            elif d.kind in FUNCTION_KINDS:
                params = [p.name for p in d.params]
                if root in params:
                    owner = t.defs.get(d.parent)
                    if owner is None or owner.kind not in CLASS_KINDS or params[0] != root:
                        return None
                    return Site(t, scope, site.line) if crossed else site
                if root in t.bindings.get(scope, {}):
                    return None  # a local of that name
            scope = d.parent
        return None if crossed else site

    def suppressed(self, text: str) -> frozenset[int]:
        return frozenset(
            number for number, line in enumerate(text.splitlines(), 1) if _SUPPRESS.search(line)
        )

    def needs_no_declaration(
        self, checker: Checker, site: Site, name: str, ref: Reference, text: str
    ) -> bool:
        return (
            name in PY_BUILTINS
            or (name == "__class__" and bool(site.scope))  # the implicit cell of a method
            or _class_name_in_header(site.t, site.scope, name, ref.line, text)
            or _captured_by_a_pattern(site.t, site.scope, name, text)
            or _WRITES_GLOBALS.search(_hook_apart(site.t, text)[1]) is not None
            or _bound_by_pep_695(site.t, site.scope, name, ref.line, text)
            or _declared_global(name, text)
        )

    def import_findings(
        self, checker: Checker, change: ChangedFile, imp: Import, target: Value | None
    ) -> list[Finding]:
        r = checker.r
        dotted = resolve_python_module(r.modules, change.path, imp.module, imp.level)
        if dotted is None:
            return []
        if target is not None or not in_repository_package(r.modules, dotted):
            return installed_import(change, imp, dotted, checker.finding)
        what = f"{dotted}.{imp.name}" if imp.name else dotted
        return checker.missing_import(change, imp, module_value(r, dotted), what)

    def star_sources(self, checker: Checker, t: FileTables) -> list[str]:
        found = []
        for imp in t.star_imports.get("", []):
            module = checker.r.import_target(t, imp)
            if module is not None and module[0] == "mod":
                found.append(module[1])
        return found

    def external_call(
        self, checker: Checker, change: ChangedFile, ref: Reference, dotted: str,
        receiver: Value | None,
    ) -> list[Finding]:  # fmt: skip
        if receiver is not None and checker.r.definition(receiver) is not None:
            # ``request.formdata()``: Request's repository classes and its standard-library
            # bases (``Mapping``) all lack the method
            return checker.missing_member(change, ref, receiver, _OBJECT_MEMBERS)
        if any(g.broad and g.covers(ref.line) for g in checker.guards(change)):
            return []  # tried under ``except Exception``: another Python's API, expected
        if ref.chain[0] == "super()" and _in_class_of_made_base(checker.r.tables[change.path], ref):
            return []  # ``super()`` of ``class Enc(type(old))``: the base is not known
        owner, missing = stdlib_missing_attribute(dotted)
        if owner is not None and missing is not None:
            message = f"{owner} has no attribute {missing!r}"
            candidates = stdlib_attributes(owner)
            line, column = ref.line, ref.column
            return [
                checker.finding(
                    change, line, column, "unknown-member", message, missing, candidates
                )
            ]
        return installed_call(change, ref, dotted, checker.finding)

    def closed_class(
        self, checker: Checker, receiver: Value, d: Definition, name: str | None, attribute: bool
    ) -> bool:
        """Every base is in the repository, or a standard-library class that lacks ``name``
        too (for an attribute, an abstract one, since a concrete class's instance
        attributes cannot be seen on the class: ``logging.Handler().formatter``); none has
        ``__getattr__``/``__getattribute__``. Class decorators are assumed to leave the
        class's own members alone."""
        return (
            self._bases_closed(checker, receiver, d, name, attribute)
            and not _hooked(checker, receiver)
            and not (receiver[0] == "sym" and _metaclass_hooked(checker, receiver))
            and not (receiver[0] == "sym" and _rebound_by_decorator(checker, receiver, d))
        )

    def opened_by_hooks_only(
        self, checker: Checker, receiver: Value, d: Definition, name: str, attribute: bool
    ) -> bool:
        return self._bases_closed(checker, receiver, d, name, attribute) and _hooked(
            checker, receiver
        )

    def _bases_closed(
        self, checker: Checker, receiver: Value, d: Definition, name: str | None, attribute: bool
    ) -> bool:
        if d.kind == DefKind.INTERFACE:
            return False
        mro, external = checker.r.mro(receiver[1], receiver[2])
        if any(_made_base(checker.r.tables[p].defs.get(q)) for p, q in mro):
            return False
        return not external or bool(name and _standard_bases_lack(external, name, attribute))

    def open_class_body(self, bodies: ClassBodies, path: str, qual: str) -> bool:
        body = bodies.read("python", path, qual, python_class_body)
        return body is None or body.dynamic

    def body_declares(
        self, bodies: ClassBodies, path: str, qual: str, name: str, resolved: bool
    ) -> bool:
        body = bodies.read("python", path, qual, python_class_body)
        if body is None or name in body.assigned or name in body.slots:
            return True
        return body.getattr_answers is not None and name in body.getattr_answers

    def parameter_arity(
        self, text: str, function: str, param: str
    ) -> tuple[int, int | None] | None:
        written = parameter_annotation(text, function, param)  # ``cb: Callable[[int], None]``
        return callable_arity(written) if written is not None else None

    def alias_arity(self, text: str, name: str) -> tuple[int, int | None] | None:
        written = alias_annotation(text, name)  # ``Listener = Callable[[int], None]``
        return callable_arity(written) if written is not None else None

    def adds_member(self, text: str, owner: str, name: str) -> bool:
        # ``Owner.name = ...``, or through an instance's class (``logger.__class__.name = ...``,
        # which may be any class: the member may be there)
        target = rf"(?:\b{re.escape(owner)}|\.__class__)\.{re.escape(name)}\s*="
        if name in text and re.search(rf"{target}(?!=)", text) is not None:
            return True
        # ``@monkey(A)`` over ``def prop``: a decorator given the class may attach the
        # function to it (funcy's ``monkey``)
        attached = (
            rf"@[\w.]+\(\s*{re.escape(owner)}\s*[,)][^\n]*\n(?:[ \t]*@[^\n]*\n)*"
            rf"[ \t]*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b"
        )
        return name in text and re.search(attached, text) is not None


def _hooked(checker: Checker, receiver: Value, fixed_count: bool = False) -> bool:
    """A class of the class's repository MRO defines ``__getattribute__``, or a
    ``__getattr__`` that may answer any name (one that answers a fixed few adds those names
    to the class's body, see ``body_declares``; with ``fixed_count``, it counts too)."""
    r = checker.r
    mro, _ = r.mro(receiver[1], receiver[2])
    for path, qual in mro:
        hooks = _DYNAMIC_HOOKS.intersection(r.tables[path].children.get(qual, {}))
        if "__getattribute__" in hooks or (hooks and fixed_count):
            return True
        if hooks:
            body = checker.bodies.read("python", path, qual, python_class_body)
            if body is None or body.getattr_answers is None:
                return True
    return False


def _module_hook(checker: Checker, path: str) -> tuple[Names, str]:
    """What the module's PEP 562 ``__getattr__`` answers and its text without that hook
    (see ``_hook_apart``), read once per file."""
    t = checker.r.tables[path]
    return checker.bodies.file_view("py-getattr", path, lambda text: _hook_apart(t, text))


def _hook_apart(t: FileTables, text: str) -> tuple[Names, str]:
    """The names the module's ``__getattr__`` answers (none without one; None: any name),
    and the module's ``text`` with that function left out when its answers are fixed: what
    it writes (``globals()[name] = value``) adds no other name."""
    if "__getattr__" not in t.children.get("", {}):
        return frozenset(), text
    d = t.defs.get("__getattr__")
    if d is None or d.kind not in FUNCTION_KINDS:
        return None, text  # ``__getattr__ = make_getattr(...)``: not readable here
    source = text.encode("utf-8")
    function = source[d.start_byte : d.end_byte].decode("utf-8", "replace")
    if not function.lstrip().startswith(("def ", "async ")):
        return None, text  # decorated, or the text moved on from the facts
    answers = hook_answers(function, name_constants(text))
    if answers is None:
        return None, text
    rest = source[: d.start_byte] + source[d.end_byte :]
    return answers, rest.decode("utf-8", "replace")


def _rebound_by_decorator(checker: Checker, receiver: Value, d: Definition) -> bool:
    """``@toolz.curry class GlobalCurried``: a decorator that is a class binds the name to an
    instance of it (a ``curry`` object, with ``.func``), not to the decorated class; what is
    read on the name is not the class's; so may a decorator nothing binds. A function
    decorator is taken to return the class (rich's ``@rich_repr``, ``@total_ordering``), as
    for its instances."""
    r = checker.r
    site = Site(r.tables[receiver[1]], d.parent, d.start_line)
    for written in d.decorators:
        head = written.split("(", 1)[0].strip().lstrip("@")
        if "(" in written or not re.fullmatch(r"[A-Za-z_][\w.]*", head):
            continue  # a decorator factory's call: what it returns is not known here
        found, _ = r.walk(site, tuple(head.split(".")))
        if found is None or (found[0] == "sym" and r.is_class(found)):
            return True  # a class, or a name nothing binds (a decorator a change renamed)
    return False


def _made_base(d: Definition | None) -> bool:
    """A base the class statement computes (``class Enc(type(old_encoder))``,
    ``class X(make_base())``): which class it is, and so what it has, is not known."""
    return d is not None and any(chain[-1].endswith("()") for chain in d.bases)


def _union_member_may_have(checker: Checker, site: Site, chain: Chain) -> bool:
    """``middleware.manager._handle_deadlines()`` where the field is annotated
    ``Union[_GeventTimeoutManager, _CtypesTimeoutManager]`` (or ``A | B``) and the index typed
    it by the value first assigned (a Gevent manager): the member is judged only when each
    member of the union is a repository class that can be seen whole and lacks it."""
    r = checker.r
    denot, _ = r.walk(site, chain[:-1])
    if denot is None or denot[0] != "sym":
        return False
    t = r.tables[denot[1]]
    d = t.defs.get(denot[2])
    if d is None or d.kind not in (DefKind.FIELD, DefKind.VARIABLE) or d.type is not None:
        return False
    members = _union_members_written(d.signature)
    if len(members) < 2:
        return False
    where = Site(t, d.parent, d.start_line)
    if d.parent and (owner := t.defs.get(d.parent)) is not None and owner.kind in CLASS_KINDS:
        where = Site(t, owner.parent, owner.start_line)  # the class's names, as its module's
    name = chain[-1]
    shapes = set()
    for member in members:
        cls, _ = r.walk(where, member)
        if cls is None or cls[0] != "sym" or not r.is_class(cls):
            return True
        if not checker.closed_class(("inst", cls[1], cls[2]), name):
            return True
        found = r.class_member(cls[1], cls[2], name)
        if found is not None and found[0] == "ext":
            found = None  # a standard base, which closed_class found lacking it
        rules = checker.rules(r.tables[cls[1]])
        if found is None and not rules.body_declares(checker.bodies, cls[1], cls[2], name, False):
            shapes.add(None)  # this one lacks it
            continue
        callee = r.definition(found) if found is not None and found[0] == "sym" else None
        if callee is None:
            return True
        shapes.add(tuple((p.name, p.kind, p.has_default) for p in callee.params))
    # missing from every member: judged; present in every one with one signature: judged
    # (against the first, as the index typed it); anything else is not known
    return len(shapes) != 1


def _union_members_written(signature: str) -> list[Chain]:
    """The named members of a union annotation written in a definition's signature
    (``self.x: Union[A, B] = ...`` or ``x: A | mod.B``), None left out; [] for anything
    else."""
    head, colon, rest = signature.partition(":")
    if not colon or "(" in head:
        return []
    written = split_outside(rest, "=")[0].strip().strip("\"'")
    found = re.fullmatch(r"(?:typing\.)?Union\s*\[(.*)\]", written, re.S)
    parts = split_outside(found.group(1), ",") if found else split_outside(written, "|")
    members = [p.strip() for p in parts if p.strip() not in ("None", "")]
    if len(members) < 2 or not all(re.fullmatch(r"[A-Za-z_][\w.]*", m) for m in members):
        return [] if len(members) < 2 else [("?",)] * len(members)
    return [tuple(m.split(".")) for m in members]


def _in_class_of_made_base(t: FileTables, ref: Reference) -> bool:
    """The reference is in a method of a class whose base the class statement computes."""
    cls = t.enclosing_class(ref.scope)
    return cls is not None and _made_base(t.defs[cls])


# ``metaclass=Name`` in a class statement's header (up to the colon that ends it)
_METACLASS = re.compile(r"\bmetaclass\s*=\s*([A-Za-z_][\w.]*)")
_HEADER = re.compile(r"\bclass\s+\w+\s*\(([^:]*)\)\s*:")
# metaclasses of the standard library that answer no names of their own through a hook
_PLAIN_METACLASSES = frozenset({"type", "ABCMeta", "abc.ABCMeta", "EnumMeta", "EnumType"})


def _metaclass_hooked(checker: Checker, receiver: Value) -> bool:
    """A class of the class's MRO names a metaclass that may answer any name read on the
    class itself (dramatiq's ``GenericActor``, whose metaclass's ``__getattr__`` forwards
    ``Add.options`` to the actor): one outside the repository other than the plain standard
    ones, or a repository class with ``__getattr__``/``__getattribute__``. Its instances
    are not affected."""
    r = checker.r
    mro, _ = r.mro(receiver[1], receiver[2])
    for path, qual in mro:
        header = _HEADER.search(checker.bodies.text(path, qual) or "")
        found = _METACLASS.search(header.group(1)) if header else None
        if found is None:
            continue
        d = r.tables[path].defs[qual]
        named = found.group(1)
        meta, _ = r.walk(Site(r.tables[path], d.parent, d.start_line), tuple(named.split(".")))
        if meta is None or meta[0] != "sym":
            if named not in _PLAIN_METACLASSES:
                return True
        elif _hooked(checker, meta, fixed_count=True):
            return True
    return False


def _standard_bases_lack(external: list[Value], name: str, abstract_only: bool) -> bool:
    """Every base outside the repository is a standard-library class without ``name`` (an
    abstract one of ``collections.abc``/``abc``/``numbers``, with ``abstract_only``), or
    ``Generic``/``Protocol``, which give a class type parameters and no member of note."""
    return all(
        base[0] == "ext"
        and (
            (base[1] in _TYPING_BASES and not name.startswith("__"))
            # ``class C(object)``, as Python 2 wrote it: the same as no base, and an object
            # has no instance attribute besides what ``object`` itself defines
            or (base[1] == "builtins.object" and not hasattr(object, name))
            or (
                (not abstract_only or base[1].startswith(ABSTRACT_MODULES))
                and stdlib_missing_attribute(f"{base[1]}.{name}")[1] == name
            )
        )
        for base in external
    )


# ``typing`` names are no runtime classes stdlib_missing_attribute can read; these two add
# only dunders (``__class_getitem__``, ``__orig_class__``) and protocol bookkeeping
_TYPING_BASES = frozenset(
    f"{module}.{name}"
    for module in ("typing", "typing_extensions")
    for name in ("Generic", "Protocol")
)


def _class_name_in_header(t: FileTables, scope: str, name: str, line: int, text: str) -> bool:
    """``def __init__(self, precision=SECONDS)``: a method's defaults and annotations are
    evaluated in the class body, where the class's own names are bound."""
    d = t.defs.get(scope)
    if d is None or d.kind not in FUNCTION_KINDS or name not in t.children.get(d.parent, {}):
        return False
    parent = t.defs.get(d.parent)
    if parent is None or parent.kind not in CLASS_KINDS or line < d.start_line:
        return False
    lines = text.split("\n")
    for number in range(d.start_line, min(d.end_line, len(lines)) + 1):
        code = lines[number - 1].split("#", 1)[0].rstrip()
        if code.endswith(":") and not code.lstrip().startswith("@"):
            return line <= number  # the header ends here
    return False


def _guards(root: Node) -> list[Guard]:
    guards = []
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type == "try_statement":
            guards.extend(_try_guard(node))
        elif node.type == "with_statement":
            guards.extend(_raises_guard(node))
        elif node.type == "if_statement":
            condition = node.child_by_field_name("condition")
            if condition is not None and _VERSION_TEST.search(_text(condition)):
                guards.append(_lines(node, _VERSION_DEPENDENT))
        elif node.type == "decorated_definition":
            decorators = [c for c in node.named_children if c.type == "decorator"]
            if any(_VERSION_TEST.search(_text(d)) for d in decorators):
                guards.append(_lines(node, _VERSION_DEPENDENT))
    return guards


def _try_guard(node: Node) -> list[Guard]:
    body = node.child_by_field_name("body")
    if body is None:
        return []
    handled: set[str] = set()
    everything = False
    fallbacks: list[Guard] = []
    for clause in node.named_children:
        if clause.type != "except_clause":
            continue
        caught = [c for c in clause.named_children if c.type != "block"]
        if not caught:
            everything = True  # a bare ``except:``
        names = _exception_names(caught)
        for name in names:
            everything |= name in _EVERYTHING
            handled |= _HANDLED.get(name, frozenset())
        block = next((c for c in clause.named_children if c.type == "block"), None)
        if block is not None and _IMPORT_FAILURES.intersection(names):
            # the fallback runs where the import above failed: another Python or package
            # version, whose names are not this one's (``except ImportError: from
            # collections import Hashable``, for Pythons before 3.3)
            fallbacks.append(_lines(block, frozenset({"unknown-import"})))
    if everything:  # expects any failure: an import probed, another environment's API
        return [_lines(body, frozenset(handled | {"unknown-import"}), broad=True), *fallbacks]
    return ([_lines(body, frozenset(handled))] if handled else []) + fallbacks


def _raises_guard(node: Node) -> list[Guard]:
    """The body of ``with pytest.raises(X):`` (``self.assertRaises(X)``): the findings an
    ``except X`` would handle there are what the test expects (glom's ``with
    pytest.raises(TypeError): Let('posarg')``)."""
    body = node.child_by_field_name("body")
    if body is None:
        return []
    handled: set[str] = set()
    for clause in node.named_children:
        for item in clause.named_children if clause.type == "with_clause" else ():
            value = item.child_by_field_name("value")
            if value is not None and value.type == "as_pattern" and value.named_children:
                value = value.named_children[0]
            if value is None or value.type != "call":
                continue
            function = value.child_by_field_name("function")
            arguments = value.child_by_field_name("arguments")
            if function is None or arguments is None:
                continue
            if not _EXPECTS_RAISE.search(_text(function)):
                continue
            expected = [a for a in arguments.named_children if a.type != "keyword_argument"]
            # ``raises(Exception)`` says nothing of which mistake the test expects
            for name in _exception_names(expected[:1]):
                handled |= _EXPECTED.get(name, frozenset())
    return [_lines(body, frozenset(handled))] if handled else []


def _lines(node: Node, rules: frozenset[str], broad: bool = False) -> Guard:
    return Guard(node.start_point[0] + 1, node.end_point[0] + 1, rules, broad)


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text else ""


def _exception_names(nodes: list[Node]) -> list[str]:
    """The exception classes an ``except`` clause names (``except (A, b.B) as e``)."""
    found = []
    for node in nodes:
        words = re.findall(r"[A-Za-z_][\w.]*", _text(node))
        found += [word.rsplit(".", 1)[-1] for word in words]
    return found


def _sibling(path: str) -> str:
    """``m.py`` <-> ``m.pyi``."""
    return path[:-1] if path.endswith(".pyi") else path + "i"


def _field_of_decorated_class(checker: Checker, site: Site, chain: Chain) -> bool:
    """``self.msg.format()`` where ``msg = attr.ib()`` in a decorated class: the decorator
    turns the class-level value into a field; what instances hold is not that value (an
    annotation, ``node: Node``, still says what they hold)."""
    r = checker.r
    for end in range(2, len(chain)):
        denot, _ = r.walk(site, chain[:end])
        d = r.definition(denot) if denot is not None and denot[0] == "sym" else None
        if d is None or d.kind in FUNCTION_KINDS or d.kind in CLASS_KINDS or d.type:
            continue
        assert denot is not None
        owner = r.tables[denot[1]].defs.get(d.parent)
        if owner is not None and owner.kind in CLASS_KINDS and owner.decorators:
            return True
    return False


def _class_body_field(site: Site, root: str) -> bool:
    """``@x.validator`` in a class body where ``x: int = attr.ib()``: inside the body the
    name holds the assigned value, the annotation describes what instances will hold."""
    d = site.t.defs.get(site.scope)
    if d is None or d.kind not in CLASS_KINDS:
        return False
    field = site.t.defs.get(f"{site.scope}.{root}")
    return field is not None and field.type is not None and field.value is not None


def _built_by_class(site: Site, root: str) -> bool:
    """``ret = super().from_frame(frame)`` / ``cls(...)`` in a classmethod: an instance of
    whichever subclass the call runs for, not of the class that declares the method."""
    found = site.t.binding_scope(site.scope, root)
    if found is None or not found[0]:
        return False  # a module-level name is no instance a classmethod builds
    return any(b.value is not None and b.value[0] in ("super()", "cls", "cls()") for b in found[1])


def _bound_by_pep_695(t: FileTables, scope: str, name: str, line: int, text: str) -> bool:
    """What Python 3.12's syntax binds that the frontend does not record: a ``type X = ...``
    statement's alias, and the type parameters of a ``class C[T]``, a ``def f[T](...)`` or a
    ``type X[T] = ...`` around the use."""
    lines = text.split("\n")
    if any((alias := _ALIAS.match(code)) and alias.group(1) == name for code in lines):
        return True
    headers = [lines[line - 1]] if 0 < line <= len(lines) else []
    while scope:
        d = t.defs.get(scope)
        if d is None:
            break
        if 0 < d.start_line <= len(lines):
            headers.append(lines[d.start_line - 1])
        scope = d.parent
    for header in headers:
        found = _TYPE_PARAMETERS.search(header)
        if found and name in _parameter_names(found.group(1)):
            return True
    return False


_ALIAS = re.compile(r"^\s*type\s+([A-Za-z_]\w*)\s*(?:\[[^=]*\])?\s*=")
_TYPE_PARAMETERS = re.compile(r"^\s*(?:async\s+)?(?:class|def|type)\s+\w+\s*\[([^\]]*)\]")


def _parameter_names(written: str) -> set[str]:
    """``T, *Ts, **P, U: int = str`` -> {T, Ts, P, U}."""
    names = set()
    for part in written.split(","):
        found = re.match(r"\s*\**\s*([A-Za-z_]\w*)", part)
        if found:
            names.add(found.group(1))
    return names


def _declared_global(name: str, text: str) -> bool:
    """A module-level name a function of the file creates (``global CACHE`` then ``CACHE =
    {}``, in a nested function too: dramatiq): the module has it once the function ran."""
    return "global" in text and _global_statement(name).search(text) is not None


@lru_cache(maxsize=256)
def _global_statement(name: str) -> re.Pattern[str]:
    return re.compile(rf"^[ \t]*global[ \t]+(?:[\w \t,]*,[ \t]*)?{re.escape(name)}\b", re.M)


def _captured_by_a_pattern(t: FileTables, scope: str, name: str, text: str) -> bool:
    """A name a ``case`` pattern binds (``case Point(x, y):``) in the same function."""
    d = t.defs.get(scope) if scope else None
    lines = text.split("\n")
    first, last = (d.start_line, d.end_line) if d is not None else (1, len(lines))
    pattern = _capture(name)
    return any(pattern.search(line) for line in lines[first - 1 : last])


@lru_cache(maxsize=256)
def _capture(name: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*case\b.*(?<![\w.]){re.escape(name)}(?![\w(=])")


RULES = {"python": PythonRules()}
