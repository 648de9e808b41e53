"""The name-level frontend every tags-only room shares: run a room's ``queries/tags.scm``.

A name-level room (Rust, C, C++, C#, Ruby, PHP, Kotlin, Swift, Scala) says what its language
looks like in one tree-sitter tags query and a :class:`TagsLanguage`; this module turns the
matches into :class:`FileFacts` the language-neutral resolver reads, and
``lang/tags_semantics.py`` links the names. Edges of these languages are marked
``resolution = "name"`` (``Room.resolution``): they are likely, not proven.

Captures, one match per construct (the tree-sitter tags convention, plus a few of our own):

* ``@definition.<kind>`` with ``@name``: a definition. Kinds: ``class``, ``interface``,
  ``enum``, ``type`` (alias), ``function``, ``method``, ``field``, ``variable``, ``module``
  (a namespace, Rust ``mod``, Ruby ``module``: a class-like container marked ``namespace``).
  A ``function`` directly inside a class-like definition is a method. Optional ``@base``
  captures (any number) name what a class extends or implements.
* ``@scope.impl`` with ``@name``: a block whose definitions belong to the named type but that
  defines nothing itself (Rust ``impl Foo``, Swift/Kotlin-style extensions).
* ``@reference.call`` with ``@name`` and an optional ``@receiver``: a call ``name(...)`` or
  ``receiver.name(...)``; ``@reference.new`` with ``@name``: ``new Name(...)``;
  ``@reference.type`` with ``@name``: a named type used in code.
* ``@import.file`` (a path: ``#include "x.h"``, ``require_relative 'x'``): everything the named
  file defines at its top level becomes visible; ``@import.module`` (``use a::b::*``,
  ``using A.B;``, ``import a.b.*``): the same for a namespace; ``@import.name`` with an
  optional ``@import.path`` and ``@import.alias``: one name (``use a::b::C as D``);
  ``@import.dotted`` with an optional ``@import.alias``: the same written as one path node
  whose last part is the name (Kotlin's ``import a.b.C as D``).

Doc comments are the comments directly above a definition (no blank line between), markers
stripped. No I/O, never another file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import partial

from tree_sitter import Node, Query, QueryCursor, Tree

from astrag.graph.facts import (
    CLASS_KINDS,
    Chain,
    Definition,
    DefKind,
    FileFacts,
    Import,
    Reference,
    RefKind,
    Resolution,
)
from astrag.lang.room import Dialect, Room
from astrag.lang.tags_semantics import TagsSemantics, index_modules
from astrag.lang.treesitter import Grammars, count_errors, query_source

_KINDS = {
    "class": DefKind.CLASS,
    "interface": DefKind.INTERFACE,
    "enum": DefKind.ENUM,
    "type": DefKind.TYPE_ALIAS,
    "function": DefKind.FUNCTION,
    "method": DefKind.METHOD,
    "field": DefKind.FIELD,
    "variable": DefKind.VARIABLE,
    "module": DefKind.CLASS,
}
_MEMBER_OF = (*CLASS_KINDS, None)  # scopes whose functions are methods (None: an impl block)
_REFS = {"call": RefKind.CALL, "new": RefKind.NEW, "type": RefKind.TYPE}
_ANCHORS = frozenset({"import", "import.file", "import.module", "scope.impl"})
_SIGNATURE_CHARS = 200
_DOC_MARKERS = re.compile(r"^\s*(?:/\*\*+|/\*!|/\*|\*/|\*|///?|//!|#+|--)\s?")
_DOC_STARTS = (b"//", b"/*", b"*", b"#", b"@", b"[")  # comments and attributes, any language
_DOC_TAGS = re.compile(r"</?(?:summary|remarks|returns)>")  # C# XML doc comments
_DOC_END = re.compile(r"\s*\*+/\s*$")
_NAME_PART = re.compile(r"[A-Za-z_$][\w$]*[!?]?")
_PATH = re.compile(r"[A-Za-z_$][\w$]*(?:(?:::|\.|->|\\)[A-Za-z_$][\w$]*)*")
_GENERICS = re.compile(r"[<\[(]")  # where a name's type arguments start
_SEPARATORS = re.compile(r"::|\.|\\|->")
_WORD = re.compile(r"\w+")
_VISIBILITY = ("private", "protected", "internal", "fileprivate")


@dataclass(frozen=True)
class TagsLanguage:
    """What the shared frontend needs to know about one name-level language."""

    language: str  # FileFacts.language
    package: str  # the room's package: where ``queries/tags.scm`` lives
    grammars: Grammars
    # the receiver a bare call inside a method implies when the enclosing class (in this file)
    # has a member of that name (``this`` in C++/C#/Kotlin/Scala, ``self`` in Ruby/Swift);
    # None where a member call must name its receiver (Rust ``self.``, PHP ``$this->``)
    implicit_receiver: str | None = None
    # receiver names as written that the room's semantics knows (``$this`` -> ``this``)
    receiver_aliases: Mapping[str, str] = field(default_factory=dict)
    # node types that begin a definition's body where the grammar names no ``body`` field
    # (Kotlin's ``function_body``): the signature ends there
    body_types: frozenset[str] = frozenset()


_QUERIES: dict[tuple[str, str], Query] = {}


def _query(spec: TagsLanguage, grammar: str) -> Query:
    key = (spec.package, grammar)
    found = _QUERIES.get(key)
    if found is None:
        source = query_source(spec.package, "tags.scm")
        found = _QUERIES[key] = Query(spec.grammars.language(grammar), source)
    return found


def extract(
    spec: TagsLanguage, path: str, source: bytes, grammar: str, tree: Tree | None = None
) -> FileFacts:
    tree = tree or spec.grammars.parser(grammar).parse(source)
    root = tree.root_node
    matches = QueryCursor(_query(spec, grammar)).matches(root)
    # document order, outer before inner, whatever order the cursor reports matches in
    matches.sort(key=_match_order)
    builder = _Builder(spec, source)
    for _, captures in matches:
        builder.add(captures)
    return FileFacts(
        path=path,
        language=spec.language,
        lines=source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1),
        errors=count_errors(root),
        definitions=tuple(builder.definitions),
        references=tuple(builder.references()),
        imports=tuple(builder.imports),
    )


def _match_order(match: tuple[int, dict[str, list[Node]]]) -> tuple[int, int]:
    anchor = _anchor(match[1])
    return anchor.start_byte, -anchor.end_byte


def _anchor(captures: dict[str, list[Node]]) -> Node:
    """The node a match is about: its definition, scope, reference or import node."""
    for key, nodes in captures.items():
        if key in _ANCHORS or key.startswith(("definition.", "reference.")):
            return nodes[0]
    return next(iter(captures.values()))[0]


@dataclass
class _Scope:
    qualname: str
    kind: DefKind | None  # None for an impl block, MODULE for a namespace
    start: int
    end: int


class _Builder:
    """Definitions, references and imports of one file, in document order."""

    def __init__(self, spec: TagsLanguage, source: bytes) -> None:
        self.spec = spec
        self.source = source
        self.definitions: list[Definition] = []
        self.imports: list[Import] = []
        self._refs: list[tuple[RefKind, str, str | None, str, Node]] = []
        self._scopes: list[_Scope] = []  # open enclosing definitions, innermost last
        self._seen: dict[tuple[int, int, str], int] = {}  # definition node -> its index

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def _enclosing(self, node: Node) -> _Scope | None:
        while self._scopes and self._scopes[-1].end <= node.start_byte:
            self._scopes.pop()
        return self._scopes[-1] if self._scopes else None

    def add(self, captures: dict[str, list[Node]]) -> None:
        for key, nodes in captures.items():
            role, _, kind = key.partition(".")
            if role == "definition" and kind in _KINDS and "name" in captures:
                owner = captures.get("receiver", [None])[0]
                self._definition(
                    nodes[0], captures["name"][0], kind, captures.get("base", []), owner
                )
            elif key == "scope.impl" and "name" in captures:
                self._impl(nodes[0], captures["name"][0])
            elif role == "reference" and kind in _REFS and "name" in captures:
                receiver = captures.get("receiver", [None])[0]
                self._reference(_REFS[kind], captures["name"][0], receiver)
            elif role == "import":
                self._import(captures)
                return

    def _definition(
        self, node: Node, name_node: Node, kind: str, bases: list[Node], owner: Node | None
    ) -> None:
        again = self._seen.get((node.start_byte, node.end_byte, kind))
        if again is not None:  # one more base of a definition already read (one match each)
            d = self.definitions[again]
            more = tuple(c for c in (_chain(self.text(b)) for b in bases) if c)
            self.definitions[again] = replace(d, bases=d.bases + more)
            return
        self._seen[(node.start_byte, node.end_byte, kind)] = len(self.definitions)
        outer = self._enclosing(node)
        parent = outer.qualname if outer else ""
        if owner is not None:  # ``Shape::area`` defined outside Shape: still Shape's
            parent = ".".join(filter(None, (parent, *_chain(self.text(owner)))))
        def_kind = _KINDS[kind]
        if def_kind == DefKind.FUNCTION and outer is not None and outer.kind in _MEMBER_OF:
            def_kind = DefKind.METHOD  # in a class or an impl block; not in a namespace
        name = self.text(name_node)
        path = _chain(name)
        if len(path) > 1:  # ``class Sinatra::Base``: Base, inside Sinatra
            parent = ".".join(filter(None, (parent, *path[:-1])))
            name = path[-1]
        qualname = f"{parent}.{name}" if parent else name
        signature = self._signature(node)
        words = set(_WORD.findall(signature.split(name, 1)[0]))
        visibility = next((v for v in _VISIBILITY if v in words), "public")
        if visibility in ("internal", "fileprivate"):
            visibility = "private" if visibility == "fileprivate" else "public"
        self.definitions.append(
            Definition(
                kind=def_kind,
                name=name,
                qualname=qualname,
                parent=parent,
                start_line=node.start_point[0] + 1,
                end_line=_end_line(node),
                start_byte=node.start_byte,
                end_byte=node.end_byte,
                signature=signature,
                docstring=self._doc(node),
                visibility=visibility,
                modifiers=("namespace",) if kind == "module" else (),
                bases=tuple(c for c in (_chain(self.text(b)) for b in bases) if c),
            )
        )
        scope_kind = DefKind.MODULE if kind == "module" else def_kind
        self._scopes.append(_Scope(qualname, scope_kind, node.start_byte, node.end_byte))

    def _impl(self, node: Node, name_node: Node) -> None:
        outer = self._enclosing(node)
        chain = _chain(self.text(name_node))
        name = chain[-1] if chain else self.text(name_node)
        qualname = f"{outer.qualname}.{name}" if outer else name
        self._scopes.append(_Scope(qualname, None, node.start_byte, node.end_byte))

    def _reference(self, kind: RefKind, name_node: Node, receiver: Node | None) -> None:
        outer = self._enclosing(name_node)
        scope = outer.qualname if outer else ""
        written = self.text(receiver) if receiver is not None else None
        self._refs.append((kind, self.text(name_node), written, scope, name_node))

    def references(self) -> list[Reference]:
        """The references, bare calls of a member of the enclosing class (in this file) given
        the receiver the language implies: known only once every definition is read."""
        members: dict[str, set[str]] = {}
        for d in self.definitions:
            members.setdefault(d.parent, set()).add(d.name)
        # a namespace is no receiver's class: a bare call in it is a plain name
        kinds = {
            d.qualname: DefKind.MODULE if "namespace" in d.modifiers else d.kind
            for d in self.definitions
        }
        out = []
        for kind, name, receiver, scope, node in self._refs:
            chain = self._ref_chain(kind, name, receiver, scope, members, kinds)
            if not chain:
                continue
            line, column = node.start_point[0] + 1, node.start_point[1] + 1
            out.append(Reference(kind, chain, scope, line, column))
        return out

    def _ref_chain(
        self,
        kind: RefKind,
        name: str,
        receiver: str | None,
        scope: str,
        members: dict[str, set[str]],
        kinds: dict[str, DefKind],
    ) -> Chain:
        if kind == RefKind.NEW:
            return _chain(name)
        if receiver is not None:
            receiver = self.spec.receiver_aliases.get(receiver, receiver)
            if not _PATH.fullmatch(receiver):
                return ("?", name)  # an expression: what it evaluates to is not followed
            return (*_chain(receiver), name)
        implied = self.spec.implicit_receiver
        cls = _enclosing_class(scope, kinds)
        if implied and cls is not None and name in members.get(cls, ()):
            return (implied, name)
        return (name,)

    def _import(self, captures: dict[str, list[Node]]) -> None:
        for key in ("import.file", "import.module"):
            nodes = captures.get(key)
            if nodes:  # a dotted path may come as one node or one per part (Scala)
                spec = ".".join(self.text(n).strip("\"'<>") for n in nodes)
                line = nodes[0].start_point[0] + 1
                # level 1: a file beside this one (an include); 0: a namespace (``use a::*``)
                self.imports.append(Import(spec, "*", "", line, level=int(key == "import.file")))
        names = captures.get("import.name", ())
        path = captures.get("import.path", ())
        alias = captures.get("import.alias")
        for node in captures.get("import.dotted", ()):
            *module_parts, name = _chain(self.text(node)) or ("",)
            if name:
                as_name = self.text(alias[0]) if alias else name
                line = node.start_point[0] + 1
                self.imports.append(Import(".".join(module_parts), name, as_name, line))
        module = ".".join(part for n in path for part in _chain(self.text(n)))
        for node in names:
            name = self.text(node)
            as_name = self.text(alias[0]) if alias and len(names) == 1 else name
            self.imports.append(Import(module, name, as_name, node.start_point[0] + 1))

    def _signature(self, node: Node) -> str:
        body = node.child_by_field_name("body")
        if body is None and self.spec.body_types:
            body = next((c for c in node.children if c.type in self.spec.body_types), None)
        end = body.start_byte if body is not None else node.end_byte
        # a comment between the header and the body (Ruby) is not part of the signature
        end = min([end, *(c.start_byte for c in node.children if "comment" in c.type)])
        text = " ".join(self.source[node.start_byte : end].decode("utf-8", "replace").split())
        return text if len(text) <= _SIGNATURE_CHARS else text[: _SIGNATURE_CHARS - 1] + "…"

    def _doc(self, node: Node) -> str:
        """The comment lines directly above ``node`` (or above its attributes)."""
        # most definitions have none: look at the line above before walking siblings (a walk
        # back through siblings costs time in proportion to their number)
        end = self.source.rfind(b"\n", 0, node.start_byte)
        above = self.source[self.source.rfind(b"\n", 0, max(end, 0)) + 1 : max(end, 0)].strip()
        if end < 0 or not (above.startswith(_DOC_STARTS) or above.endswith(b"*/")):
            return ""
        lines: list[str] = []
        current = node
        below = node.start_point[0]
        while True:
            prev = current.prev_sibling
            while prev is None and current.parent is not None:
                if current.parent.start_byte != current.start_byte:
                    break
                current = current.parent  # first in a body (Ruby): the comment is the body's
                prev = current.prev_sibling
            if prev is None or _end_line(prev) - 1 < below - 1:
                break
            if "comment" in prev.type:
                text = self.text(prev)
                if text.startswith(("//!", "/*!")):
                    break  # an inner doc comment documents what encloses it
                lines[:0] = text.splitlines()
            elif not prev.type.endswith(("attribute_item", "attribute_list", "annotation")):
                break
            below = prev.start_point[0]
            current = prev
        stripped = [
            _DOC_TAGS.sub("", _DOC_END.sub("", _DOC_MARKERS.sub("", line))).rstrip()
            for line in lines
        ]
        return "\n".join(line for line in stripped if line.strip("*/ ")).strip()


def _end_line(node: Node) -> int:
    """The last line of ``node`` (a node that ends with its newline ends on the line before)."""
    row, column = node.end_point
    return row if column == 0 and row > node.start_point[0] else row + 1


def _enclosing_class(scope: str, kinds: dict[str, DefKind]) -> str | None:
    qual = scope
    while qual:
        kind = kinds.get(qual)
        if kind in CLASS_KINDS:
            return qual
        qual = qual.rpartition(".")[0]
    return None


def _chain(text: str) -> Chain:
    """``a::b::C<T>`` / ``A.B`` / ``\\App\\User`` -> ``("a", "b", "C")``; generics dropped."""
    head = _GENERICS.split(text, maxsplit=1)[0]
    parts = _SEPARATORS.split(head.strip())
    chain = tuple(p.strip() for p in parts if p.strip())
    return chain if all(_NAME_PART.fullmatch(p) for p in chain) else ()


def name_level_room(
    spec: TagsLanguage,
    extensions: Mapping[str, str],
    semantics: TagsSemantics,
    support_files: Mapping[str, tuple[str, ...]] | None = None,
) -> Room:
    """The :class:`Room` of a tags-only language: its extensions (``".rs": "rust"``, each to a
    grammar of ``spec.grammars``), the shared frontend and semantics, edges marked by name."""
    return Room(
        name=semantics.room,
        package=spec.package,
        extensions={ext: Dialect(spec.language, g) for ext, g in extensions.items()},
        grammars=spec.grammars,
        extract=partial(extract, spec),
        semantics={spec.language: semantics},
        index_modules=index_modules,
        resolution=Resolution.NAME,
        support_files=support_files or {},
    )
