"""What the checker asks a language: the rules that differ between languages.

``verify/check.py`` walks a changed file's imports, references and attribute accesses the same
way for every language; wherever the answer depends on the language (what needs no
declaration, what an unresolved import means, when a class's members can all be seen, whether
a method's first parameter is bound), it asks the file's :class:`LanguageRules`. Each room that
the checker serves describes its languages in its own ``check.py`` (``RULES``: language ->
rules), imported on first use only: a check of TypeScript never loads Python's rules.

The defaults here are those of a statically typed language whose repository is a closed world
(Go's): nothing is ambient, an unresolvable import is a finding, a class is closed when every
type it extends is in the repository and an interface never is.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from tree_sitter import Node, Tree

from astrag.graph.facts import Chain, Definition, Import, Reference
from astrag.graph.tables import FileTables, Site
from astrag.graph.values import Value
from astrag.lang import room_package
from astrag.verify.findings import Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.narrowing import TESTS
from astrag.verify.syntax import BLAME_NEVER

if TYPE_CHECKING:
    from astrag.verify.check import Checker
    from astrag.verify.members import ClassBodies


@dataclass(frozen=True, slots=True)
class Guard:
    """Lines ``first``..``last`` where findings of ``rules`` are expected and handled;
    ``broad``: a handler of every error (``except Exception``), which a language's rules
    may take as expecting what differs between environments (a function a later Python
    removed), not a mistake in the code itself."""

    first: int
    last: int
    rules: frozenset[str]
    broad: bool = False

    def covers(self, line: int) -> bool:
        return self.first <= line <= self.last


class LanguageRules:
    language = ""
    # names that denote the receiver inside a class (never an unbound name; written types)
    receivers: frozenset[str] = frozenset()
    # members every value has, never judged on a call (``toString``, ``__eq__``)
    call_members: frozenset[str] = frozenset()
    # members every value or class has, never judged as an attribute read
    attribute_members: frozenset[str] = frozenset()
    judges_attributes = True  # attribute reads (and writes) of its files are judged
    judges_unbound_reads = True  # a bare name read (not called) that nothing binds
    judges_module_reads = False  # ``mod.name`` read (not called) on a repository module
    writes_create_attributes = False  # ``x.y = v`` makes ``y`` (Python), or must hit one (TS)
    # a method's first parameter is the receiver, bound by a call through an instance
    self_parameter = False
    constructor = "constructor"  # the member a class's call or ``new`` runs
    # the receiver may be an instance of a subclass that adds the member (a Python mixin
    # calls ``self.assertEqual``): a compiler-checked language says no
    receiver_may_be_subclass = False
    # a class and interfaces of its name in one scope are one type (TypeScript's declaration
    # merging), not two classes of one name
    class_merges_interfaces = False
    # whether an unreadable region around a written line that began on a line the change
    # did not write is the change's (``verify/syntax.py``'s ``BLAME_*``)
    damage_begun_elsewhere = BLAME_NEVER
    # how code tests or casts a receiver's type (``verify/narrowing.py``'s templates)
    narrowing: tuple[str, ...] = TESTS
    # attributes every module has (``__file__``)
    module_members: frozenset[str] = frozenset()

    def parser_accepts(self, text: str) -> bool | None:
        """The language's own parser's verdict on ``text`` where it is at hand (CPython's),
        which overrules tree-sitter's lagging grammar; None: not at hand."""
        return None

    # whether the grammar reads some text the language rejects (``lax_syntax`` finds it)
    lax_grammar = False

    def lax_syntax(self, root: Node) -> list[tuple[Node, str]]:
        """Nodes tree-sitter's grammar reads that the language rejects (a Java string literal
        running over a line end: tree-sitter lets it swallow lines up to the next quote), each
        with what to say about it."""
        return []

    def opted_out(self, text: str) -> bool:
        """The file asks not to be checked at all (``// @ts-nocheck``)."""
        return False

    def suppressed(self, text: str) -> frozenset[int]:
        """Lines whose author told a type checker to let them be (``# type: ignore``)."""
        return frozenset()

    def declares(self, line: str, name: str) -> bool:
        """Whether ``line`` declares a new variable ``name`` (TS's ``const``/``let``) rather
        than assigning the one in scope, whose declared type then still holds."""
        return False

    def guarded(self, text: str, tree: Tree | None) -> list[Guard]:
        """Regions whose author expects some failures and handles them (Python's ``try:
        ... except AttributeError:``): findings of those rules there are not reported."""
        return []

    def unknowable(self, checker: Checker, site: Site, chain: Chain) -> bool:
        """The chain's receiver has a type the resolver cannot be trusted on here (a field
        declared in a decorated Python class body holds a descriptor, not its value)."""
        return False

    def module_declares(self, checker: Checker, path: str, name: str, importer: str) -> bool:
        """Module ``path`` has ``name`` for file ``importer`` although the resolver did not
        find it there (its stub declares it for a stub; it writes ``globals()``)."""
        return False

    def signature_known(self, checker: Checker, cls: Definition) -> bool:
        """Whether a repository class's constructor is the one it declares (a Python class
        decorator may generate another)."""
        return True

    def needs_no_declaration(
        self, checker: Checker, site: Site, name: str, ref: Reference, text: str
    ) -> bool:
        """A bare name nothing in scope binds that is fine all the same (a builtin, a
        runtime or test-runner global, a class name in a method's header)."""
        return False

    def unverified_name(
        self, checker: Checker, site: Site, name: str, ref: Reference, text: str
    ) -> str | None:
        """Why a bare name nothing readable declares may be declared all the same (what could
        not be read), or None: the finding is then a warning that says so, not an error."""
        return None

    def import_findings(
        self, checker: Checker, change: ChangedFile, imp: Import, target: Value | None
    ) -> list[Finding]:
        """What is wrong with an import that names no repository definition: ``target`` is
        None (a missing part of the repository) or external (``("ext", ...)``)."""
        if target is not None:
            return []
        message = f"cannot import {imp.module!r}: no such package in the repository"
        return [checker.finding(change, imp.line, 1, "unknown-import", message, imp.module, ())]

    def star_sources(self, checker: Checker, t: FileTables) -> Iterable[str]:
        """Files module ``t`` takes every name from (``from x import *``, ``export * from``)."""
        return ()

    def external_call(
        self, checker: Checker, change: ChangedFile, ref: Reference, dotted: str,
        receiver: Value | None,
    ) -> list[Finding]:  # fmt: skip
        """``a.b()`` that the resolver found outside the repository, as ``dotted``."""
        return []

    def external_name(
        self, checker: Checker, change: ChangedFile, ref: Reference, site: Site, dotted: str
    ) -> list[Finding]:
        """A bare call the resolver found outside the repository, as ``dotted`` (a builtin,
        or a member a class around it may inherit from outside: Java's ``helper()``)."""
        return []

    def implemented_only(self, checker: Checker, denot: Value, receiver: Value | None) -> bool:
        """The member was found only where the language adds no members (what a TS class
        ``implements``): the class does not have it."""
        return False

    def closed_class(
        self, checker: Checker, receiver: Value, d: Definition, name: str | None, attribute: bool
    ) -> bool:
        """Whether every member of the repository class or interface ``d`` can be seen
        (``name``: the member asked about; ``attribute``: asked by the attribute rule)."""
        return checker.closed_by_bases(receiver, d)

    def module_may_have(self, checker: Checker, path: str, name: str) -> bool:
        """The module may have ``name`` without a definition the index shows: its members
        cannot all be seen (Python's PEP 562 ``__getattr__``, unless it answers a fixed few)."""
        return checker.r.module_is_dynamic(path)

    def opened_by_hooks_only(
        self, checker: Checker, receiver: Value, d: Definition, name: str, attribute: bool
    ) -> bool:
        """The class would be closed but for a dynamic attribute hook of its own or of a class
        between it and a base (Python's ``__getattr__``): for a subclass of the receiver's
        static type, no reason to think the base has more members."""
        return False

    def bases(self, bodies: ClassBodies, path: str, qual: str, d: Definition) -> Iterable[Chain]:
        """The types the class or interface ``d`` extends, as the closed-world rules follow
        them (the index's base chains)."""
        return d.bases

    def open_class_body(self, bodies: ClassBodies, path: str, qual: str) -> bool:
        """A class whose text adds members astrag cannot see (``setattr``, an index
        signature)."""
        return False

    def body_declares(
        self, bodies: ClassBodies, path: str, qual: str, name: str, resolved: bool
    ) -> bool:
        """The class's text declares ``name`` beyond its definitions (``self.x = ...``);
        ``resolved``: the resolver found ``name`` as a member already."""
        return False

    def parameter_arity(
        self, text: str, function: str, param: str
    ) -> tuple[int, int | None] | None:
        """How many arguments a call of parameter ``param`` of ``function`` (its definition's
        ``text``) takes, from the type written for it: (required, at most; None: any number),
        or None when that cannot be counted."""
        return None

    def alias_arity(self, text: str, name: str) -> tuple[int, int | None] | None:
        """How many arguments a call of a value typed by the type alias ``name`` (its
        definition's ``text``) takes, when the alias names a function type: (required, at
        most; None: any number), or None."""
        return None

    def adds_member(self, text: str, owner: str, name: str) -> bool:
        """The checked file's ``text`` gives the class named ``owner`` the member ``name`` from
        outside its body (Python: ``Owner.name = ...``, ``obj.__class__.name = ...``)."""
        return False

    def omittable(
        self,
        checker: Checker,
        path: str,
        callee: Definition,
        change: ChangedFile | None = None,
        ref: Reference | None = None,
    ) -> frozenset[str]:
        """Parameters without a default that a call may leave out all the same (a TS
        parameter whose type accepts ``void``); ``change`` and ``ref``: the call, whose
        receiver may say how the callee's class is instantiated."""
        return frozenset()

    # several definitions of one name, chosen by their parameters (Java): a call is judged
    # against every one (``overloads``)
    overloaded = False

    # a function's overload signatures are all a caller sees (TS: the implementation's own
    # parameters are not callable); False where the implementation is what runs and what a
    # call must fit (Python's ``@overload`` stubs refine types for a type checker only)
    calls_bind_overload_signatures = False

    def overloads(self, checker: Checker, denot: Value) -> list[Definition] | None:
        """Every definition a call of ``denot`` may run; None when they cannot all be seen
        (the call is not judged)."""
        return None

    def receiver_rebound(
        self, checker: Checker, change: ChangedFile, site: Site, column: int
    ) -> bool:
        """The receiver name at ``site``'s line, ``column`` (1-based) of the changed file is
        bound by a function of its own that the index does not record as the site's scope
        (TypeScript's ``this`` in a ``function`` or an object literal's method passed inline),
        so it is not the instance the scope's class makes."""
        return False

    def receiver_site(self, site: Site, root: str) -> Site | None:
        """Where ``root``, a receiver name used at ``site``, is the receiver (Python: the
        method around a class body that uses ``self``), or None where it is no receiver
        (Python's ``cls`` as an ordinary parameter)."""
        return site


DEFAULT = LanguageRules()


@cache
def rules_for(language: str) -> LanguageRules | None:
    """The checker's rules for ``language``, None when its room has none (not checked)."""
    package = room_package(language)
    if package is None:
        return None
    try:
        module = importlib.import_module(f"{package}.check")
    except ModuleNotFoundError as e:
        if e.name != f"{package}.check":
            raise
        return None
    return module.RULES.get(language)


def checked(language: str | None) -> bool:
    return language is not None and rules_for(language) is not None
