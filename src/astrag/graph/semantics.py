"""The one interface between the language-neutral resolver and a language room.

The resolver (``graph/resolve.py``) evaluates chains, walks scopes, looks members up through
linearised bases, memoises, records dependencies and emits edges, for every language alike.
Whatever differs between languages it asks the file's :class:`LanguageSemantics`: which names are
receivers, what an unbound name is, where an import points and what it binds, what a module
exports, how bases are ordered, whether a return type is declared. A room supplies one instance
per language it reads (the TypeScript room supplies two: TypeScript, and JavaScript as a dialect
of it); ``astrag.lang`` maps each file's language to its instance.

A semantics object is stateless: everything a run knows (facts, tables, module tables) stays on
the resolver, which each call receives as ``r``. Through ``r`` a room may use the resolver's
building blocks (``r.table``, ``r.module_level``, ``r.member``, ``r.module_member``,
``r.import_value``, ``r.walk``, ``r.modules``...); ``r.table(path)`` is how a room reads another
file, so that the file is recorded as a dependency.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from astrag.graph.facts import Chain, Definition, Import, Reference
from astrag.graph.values import ClassKey, Value

if TYPE_CHECKING:
    from astrag.graph.resolve import Resolver
    from astrag.graph.tables import FileTables


class Receiver(Enum):
    """What a receiver name denotes inside a class's code."""

    INSTANCE = "instance"  # ``self`` / ``this``: an instance of the enclosing class
    CLASS = "class"  # ``cls``: the enclosing class itself; outside a class an ordinary name
    SUPER = "super"  # ``super()`` / ``super``: the enclosing class's bases


class LanguageSemantics(Protocol):
    """What the resolver needs to know about one language. Every member is required."""

    language: str  # the FileFacts.language this instance serves
    # Receiver names by the chain element as written (``"self"``, ``"super()"``): what the root
    # of a chain means inside a class. Outside one an INSTANCE or SUPER receiver is unknown.
    receivers: Mapping[str, Receiver]
    # Whether code directly in a class body sees the names the body binds (Python: yes;
    # methods never do).
    class_body_is_scope: bool
    # Whether code in a method sees the members of its class and of the classes around it
    # (inherited ones too) by their bare names, as through an implicit ``this`` (Java: yes;
    # Python, TypeScript: no, they write ``self.x`` / ``this.x``).
    members_in_scope: bool
    # A method "returns its receiver" (so ``a.with_x().run()`` keeps ``a``'s own class) when
    # its return annotation is one of these, or every ``return`` it has returns one of those.
    receiver_types: frozenset[Chain]
    receiver_values: frozenset[Chain]
    # The member name of a class's constructor: what ``new C()`` also calls, what ``super(...)``
    # calls in a subclass, and a method name that never overrides.
    constructor: str
    # The language's built-in collections by the value that stands for them (``"elems"``: a
    # list or array, ``"map"``: a mapping): the class their own methods are named after as
    # externals (``dict``, ``Array``), and which of those give an element or mapped value
    # (``"value"``: ``d.get(k)``, ``xs.pop()``) or a collection of them (``"values"``).
    builtin_collections: Mapping[str, tuple[str, Mapping[str, str]]]
    # The methods of a class that give what iterating (``[i]``) or indexing (``[k]``) an
    # instance of it gives (Python: ``__iter__`` returning ``Iterator[Foo]``, ``__getitem__``).
    element_methods: Mapping[str, str]

    def global_name(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        """What a name means that nothing in the file binds: a builtin or runtime global
        (``("ext", ...)``), a definition the language makes visible without an import (Go's
        same package, Java's ``java.lang``), or None (unbound)."""
        ...

    def import_value(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        """What one import binds (not ``*``): a module, a definition, an external name, or
        None when it names a missing part of the repository. The resolver memoises it."""
        ...

    def star_member(self, r: Resolver, t: FileTables, imp: Import, name: str) -> Value | None:
        """``name`` as a star import (or star re-export) ``imp`` of file ``t`` provides it."""
        ...

    def star_import_target(self, r: Resolver, t: FileTables, imp: Import) -> Value | None:
        """The module a star import points at (the target of its ``imports`` edge)."""
        ...

    def module_member(self, r: Resolver, t: FileTables, name: str) -> Value | None:
        """What another file gets as ``name`` of module ``t``: what "exported" means. The
        resolver memoises it."""
        ...

    def namespace_member(self, r: Resolver, dotted: str, name: str) -> Value | None:
        """A member of a ``("ns", dotted, language)`` package this language made."""
        ...

    def declares_return(self, d: Definition) -> bool:
        """Whether a function's header declares a return type, even one without a principal
        named type (``-> Any``, ``: Promise<any>``): then its ``return`` statements are not
        evaluated instead."""
        ...

    def linearise(
        self, r: Resolver, own: ClassKey, bases: Sequence[ClassKey], base_mros: Sequence[list]
    ) -> list[ClassKey]:
        """A class's method resolution order: ``own`` first, then its in-repository bases
        (``bases`` in source order, each base's own order in ``base_mros``)."""
        ...

    def implied_bases(self, r: Resolver, t: FileTables, qual: str) -> Sequence[Value]:
        """Interfaces a class implements without naming them (Go's method sets): each one
        becomes an ``implements`` edge. Languages that name every base return ()."""
        ...

    def call_target(self, r: Resolver, t: FileTables, ref: Reference, denot: Value) -> Value | None:
        """The definition a call ``ref`` of file ``t`` whose callee denotes ``denot`` runs,
        where the language chooses among several of one name (Java's overloads by arity and
        argument types); ``denot`` itself where there is no choice; None where the language
        cannot tell which (the edge keeps an unresolved placeholder)."""
        ...

    def module_is_dynamic(self, r: Resolver, t: FileTables) -> bool:
        """Whether a module's members cannot all be seen (Python's PEP 562 ``__getattr__``),
        so a missing one is no error (for the checker)."""
        ...
