"""The attribute rule: ``self.x``, ``this.x``, ``cls.x`` and ``user.x`` on a receiver of known
type, judged under the same closed world as method calls, and then some.

A missing attribute is reported only when every class the receiver's class is made of is in
the repository, none has ``__getattr__``/``__getattribute__``, none sets attributes in ways
astrag cannot follow (``setattr``, ``__dict__``; TypeScript: an index signature, or an
interface of the same name merged into the class), and the name is none of the members the
classes define: methods, properties and accessors, class attributes and fields (dataclass,
attrs, pydantic, NamedTuple, enum), slot names, instance attributes assigned in any method
(tuple, ``for`` and ``with`` targets too) and TypeScript parameter properties. Python writes
create attributes and are never findings; a TypeScript write must hit a member the class
declares. Plain JavaScript is left alone: its classes grow by assignment.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from astrag.errors import AstragError
from astrag.graph.facts import CLASS_KINDS, FUNCTION_KINDS, DefKind, FileFacts
from astrag.graph.resolve import Resolver
from astrag.graph.tables import Site
from astrag.graph.values import Value
from astrag.lang import grammar_of, parser
from astrag.verify.attributes import Access
from astrag.verify.sources import read_regular_file

if TYPE_CHECKING:
    from astrag.graph.tables import FileTables
    from astrag.verify.rules import LanguageRules

T = TypeVar("T")


class ClassBodies:
    """The source text of classes, read once per class, from the changed files or the disk."""

    def __init__(
        self,
        resolver: Resolver,
        texts: Mapping[str, str],
        root: Path | None,
        shared: dict | None = None,
    ) -> None:
        self.r = resolver
        self.changed = dict(texts)
        self.texts = dict(texts)
        self.root = root
        # what is learnt about unchanged files outlives one check (a session shares it)
        self.shared: dict = {} if shared is None else shared
        self._own: dict = {}  # about the changed files: this check's alone

    def _cached(self, kind: str, path: str, qual: str, compute: Callable[[], T]) -> T:
        key = (kind, path, qual)
        store = self.shared if path not in self.changed else self._own
        if key not in store:
            store[key] = compute()
        return store[key]

    def file_view(self, kind: str, path: str, reader: Callable[[str], T]) -> T:
        """What ``reader`` makes of the file's whole text, read once (``kind`` names it)."""
        return self._cached(kind, path, "", lambda: reader(self.file_text(path)))

    def file_text(self, path: str) -> str:
        if path not in self.texts and ("text", path, "") in self.shared:
            self.texts[path] = self.shared[("text", path, "")]
        if path not in self.texts:
            try:
                read = read_regular_file(self.root / path, path) if self.root else None
            except (OSError, AstragError):
                read = None
            self.texts[path] = self.shared[("text", path, "")] = read or ""
        return self.texts[path]

    def text(self, path: str, qual: str) -> str | None:
        d = self.r.tables[path].defs.get(qual)
        if d is None:
            return None
        source = self.file_text(path).encode("utf-8")
        body = source[d.start_byte : d.end_byte].decode("utf-8", "replace")
        return body if "class" in body or "interface" in body else None  # else: disk moved on

    def read(self, kind: str, path: str, qual: str, reader: Callable[[str], T]) -> T | None:
        """What ``reader`` makes of the class's text (None when the text is gone), read once:
        a room's view of a class body (``kind`` names it in the cache)."""

        def compute() -> T | None:
            body = self.text(path, qual)
            return reader(body) if body is not None else None

        return self._cached(kind, path, qual, compute)

    def damaged(self, path: str, qual: str) -> bool:
        """Whether the parser lost part of the class: its own text does not parse cleanly
        (a file's syntax errors elsewhere leave its classes whole)."""

        if not self.r.tables[path].facts.errors:
            return False  # the whole file parsed cleanly

        def compute() -> bool:
            body = self.text(path, qual)
            grammar = grammar_of(path)
            if body is None or grammar is None:
                return True
            return parser(grammar).parse(body.encode("utf-8")).root_node.has_error

        return self._cached("damaged", path, qual, compute)

    def damaged_text(self, path: str) -> str:
        """The text of the file's top-level statements the parser could not read whole
        (all of it when it cannot be parsed here): where a definition may have been lost."""

        def compute() -> str:
            text = self.file_text(path)
            grammar = grammar_of(path)
            if grammar is None:
                return text
            source = text.encode("utf-8")
            root = parser(grammar).parse(source).root_node
            return "\n".join(
                source[n.start_byte : n.end_byte].decode("utf-8", "replace")
                for n in root.children
                if n.has_error or n.is_missing or n.type == "ERROR"
            )

        return self._cached("damaged-text", path, "", compute)


def scope_at(facts: FileFacts, byte: int) -> str:
    """The qualname of the innermost function or class around ``byte`` ("" at module level)."""
    best, size = "", -1
    for d in facts.definitions:
        scoped = d.kind in FUNCTION_KINDS or d.kind in CLASS_KINDS
        if (
            scoped
            and d.start_byte <= byte < d.end_byte
            and (size < 0 or d.end_byte - d.start_byte < size)
        ):
            best, size = d.qualname, d.end_byte - d.start_byte
    return best


def same_kind_mro(r: Resolver, receiver: Value) -> list[tuple[str, str]]:
    """The classes a class is made of (what a TS class ``implements`` adds no members), or
    the interfaces an interface extends."""
    own = r.tables[receiver[1]].defs.get(receiver[2])
    kind = own.kind if own is not None else DefKind.CLASS
    mro, _ = r.mro(receiver[1], receiver[2])
    return [(p, q) for p, q in mro if (d := r.tables[p].defs.get(q)) is not None and d.kind == kind]


class AttributeRule:
    """Judges one access; ``closed`` says whether a class's methods can all be seen (the
    method rule's own test), this adds what attributes need on top; ``rules``: a file's
    language rules (what its class bodies add, whether its writes create members)."""

    def __init__(
        self,
        resolver: Resolver,
        bodies: ClassBodies,
        closed: Callable[[Value, str, bool], bool],
        rules: Callable[[FileTables], LanguageRules],
        declared: Callable[[Value, str, bool], bool] = lambda receiver, name, write: False,
    ) -> None:
        self.r = resolver
        self.bodies = bodies
        self.closed = closed
        self.rules = rules
        # a type the class is made of through the bases the language reads declares it
        self.declared = declared

    def missing(self, site: Site, access: Access) -> tuple[str, Value] | None:
        """(the receiver's type name, the receiver) when the access names no member."""
        rules = self.rules(site.t)
        name = access.chain[-1]
        if name.startswith("__") and name.endswith("__"):
            return None
        if rules.writes_create_attributes and access.write:
            return None  # assigning creates the attribute
        denot, receiver = self.r.walk(site, access.chain)
        if receiver is None or not self._class_valued(receiver):
            return None
        if name in rules.attribute_members:
            return None
        inherited = denot is not None and denot[0] == "ext"  # perhaps, from a standard base
        resolved = denot is not None and not inherited
        if resolved and not access.write:
            return None
        if not self._closed(receiver, name):
            return None
        if self.declared(receiver, name, access.write):
            return None
        for path, qual in same_kind_mro(self.r, receiver):
            if self.rules(self.r.tables[path]).body_declares(
                self.bodies, path, qual, name, resolved
            ):
                return None
        return receiver[2], receiver

    def _class_valued(self, receiver: Value) -> bool:
        if receiver[0] in ("inst", "super"):
            return True
        return receiver[0] == "sym" and self.r.is_class(receiver)

    def _closed(self, receiver: Value, name: str) -> bool:
        if not self.closed(receiver, name, True):
            return False
        return not any(
            self.rules(self.r.tables[path]).open_class_body(self.bodies, path, qual)
            for path, qual in same_kind_mro(self.r, receiver)
        )
