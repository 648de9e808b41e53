"""What the Go frontend shares: reading syntax nodes, principal types, where facts go.

Pure helpers over tree-sitter nodes (a type expression's principal named type, a doc comment, a
receiver's type) and :class:`Recorder`, the lists one file's facts are collected in while its
declarations and bodies are read.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from astrag.graph.facts import Binding, Chain, Definition, DefKind, Import, Reference, RefKind
from astrag.lang.treesitter import FieldIds, line_starts


class Fields(FieldIds):
    """The grammar's field ids, read once the grammar is loaded (``extract`` does):
    ``child_by_field_id`` skips the search of the grammar's field names that
    ``child_by_field_name`` makes on every call (etcd: 870k calls, half their cost)."""

    alias = arguments = body = element = field = function = index = initializer = key = 0
    left = name = operand = operator = package = parameters = path = receiver = result = 0
    right = type = type_arguments = type_parameters = value = 0


_F = Fields

_WHITESPACE = re.compile(r"\s+")
_VERSION = re.compile(r"^v\d+$")
_ELEMENT_TYPES = frozenset({"slice_type", "array_type", "implicit_length_array_type"})


def text(node: Node) -> str:
    raw = node.text  # each read copies the node's bytes out of the tree: read it once
    return raw.decode("utf-8", "replace") if raw is not None else ""


def doc_comment(node: Node) -> str:
    """The ``//`` comment lines right above a declaration (Go's doc comment convention)."""
    lines: list[str] = []
    prev = node.prev_sibling
    row = node.start_point[0]
    while prev is not None and prev.type == "comment" and prev.end_point[0] == row - 1:
        comment = text(prev)
        if comment.startswith("//"):
            lines.append(comment[2:].removeprefix(" "))
        elif comment.startswith("/*"):
            lines.append(comment[2:-2].strip())
        row = prev.start_point[0]
        prev = prev.prev_sibling
    return "\n".join(reversed(lines)).strip()


def exported_name(name: str) -> bool:
    return name[:1].isupper()


def import_alias(import_path: str) -> str:
    """The name an import without an explicit name binds: the package's name, which by
    convention is the path's last element (``gopkg.in/yaml.v3`` -> ``yaml``, a trailing major
    version ``/v2`` skipped)."""
    parts = import_path.split("/")
    last = parts[-1]
    if _VERSION.match(last) and len(parts) > 1:
        last = parts[-2]
    last = last.split(".")[0]
    return last.removeprefix("go-").removesuffix("-go").replace("-", "_")


def type_chain(node: Node | None, type_params: frozenset[str] = frozenset()) -> Chain | None:
    """The principal named type of a type expression: ``*T`` and ``T[int]`` -> ``("T",)``,
    ``pkg.T`` -> ``("pkg", "T")``, ``[]T``/``map[K]T``/``chan T`` -> ``("T", "[]")``; None for
    type parameters and types without one name (functions, literal structs)."""
    if node is None:
        return None
    kind = node.type
    if kind == "type_identifier":
        name = text(node)
        return None if name in type_params else (name,)
    if kind == "qualified_type":
        package, name = node.child_by_field_id(_F.package), node.child_by_field_id(_F.name)
        return (text(package), text(name)) if package and name else None
    if kind in ("pointer_type", "parenthesized_type", "type_elem", "type_constraint"):
        inner = node.named_children
        return type_chain(inner[0], type_params) if len(inner) == 1 else None
    if kind == "generic_type":
        return type_chain(node.child_by_field_id(_F.type), type_params)
    if kind in _ELEMENT_TYPES or kind in ("map_type", "channel_type"):
        element = node.child_by_field_id(_F.element if kind != "map_type" else _F.value)
        if element is None and kind == "channel_type":
            element = node.child_by_field_id(_F.value)
        inner = type_chain(element, type_params)
        return (*inner, "[]") if inner and inner[-1] != "[]" else None
    return None


def type_names(node: Node | None) -> frozenset[str]:
    """The names a ``type_parameter_list`` (or a receiver's ``T[K, V]``) declares."""
    if node is None:
        return frozenset()
    names = []
    for child in node.named_children:
        if child.type == "type_parameter_declaration":
            names += [text(n) for n in child.children_by_field_id(_F.name)]
        elif child.type == "type_elem":  # a receiver's type arguments: bare names
            names += [text(n) for n in child.named_children if n.type == "type_identifier"]
        elif child.type in ("type_identifier", "identifier"):
            names.append(text(child))
    return frozenset(names)


def receiver_type(receiver: Node) -> tuple[str, frozenset[str], str]:
    """(type name, its type parameters as the method names them, receiver name) of a
    method's receiver list ``(l *List[T])``."""
    for param in receiver.named_children:
        if param.type != "parameter_declaration":
            continue
        t = param.child_by_field_id(_F.type)
        while t is not None and t.type in ("pointer_type", "parenthesized_type"):
            t = t.named_children[0] if t.named_children else None
        params: frozenset[str] = frozenset()
        if t is not None and t.type == "generic_type":
            params = type_names(t.child_by_field_id(_F.type_arguments))
            t = t.child_by_field_id(_F.type)
        name = param.child_by_field_id(_F.name)
        return (text(t) if t is not None else "", params, text(name) if name else "")
    return "", frozenset(), ""


def spec_doc(spec: Node) -> str:
    """A spec's doc comment: above it inside a group, else above its declaration."""
    prev = spec.prev_sibling
    return doc_comment(spec if prev is not None and prev.type == "comment" else spec.parent)


def specs(node: Node) -> Iterator[Node]:
    for child in node.named_children:
        if child.type in ("var_spec", "const_spec"):
            yield child
        elif child.type == "var_spec_list":
            yield from (c for c in child.named_children if c.type == "var_spec")


def is_bare_name(node: Node) -> bool:
    inner = node.named_children
    return node.type == "literal_element" and len(inner) == 1 and inner[0].type == "identifier"


def called(chain: Chain) -> Chain:
    return (*chain[:-1], chain[-1] + "()")


@dataclass
class Recorder:
    """One file's facts as they are read, and how a node becomes a position or a type."""

    path: str
    source: bytes
    definitions: list[Definition] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    bindings: list[Binding] = field(default_factory=list)
    ascii: bool = field(init=False, default=False)  # then a byte column is a character column
    # each line's first byte: a node's line from its start byte by bisection, instead of
    # ``Node.start_point``, whose named tuple costs several times as much (etcd: 200k);
    # tree-sitter counts rows by "\n" alone, as this does
    starts: list[int] = field(init=False, default_factory=list)

    def text(self, node: Node) -> str:
        """A node's text, sliced from the source (several times faster than ``node.text``)."""
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def __post_init__(self) -> None:
        self.ascii = self.source.isascii()
        self.starts = line_starts(self.source)

    def line(self, pos: int) -> int:
        """The 1-based line of byte ``pos``."""
        return bisect_right(self.starts, pos)

    def refer(self, kind: RefKind, chain: Chain, scope: str, at: Node, arg_count: int = -1):
        """A reference whose site is node ``at`` (the callee's or type's name), its column in
        characters (tree-sitter counts bytes)."""
        start = at.start_byte
        row = bisect_right(self.starts, start) - 1
        col = start - self.starts[row]
        if not self.ascii:
            start = at.start_byte
            prefix = self.source[start - col : start]
            if not prefix.isascii():
                col = len(prefix.decode("utf-8", "replace"))
        self.references.append(Reference(kind, chain, scope, row + 1, col + 1, arg_count))

    def header(self, node: Node, body: Node | None) -> str:
        end = body.start_byte if body is not None else node.end_byte
        text = self.source[node.start_byte : end].decode("utf-8", "replace")
        return _WHITESPACE.sub(" ", text).strip()

    def define(self, node: Node, kind: DefKind, name: str, qualname: str, parent: str, **kw):
        self.definitions.append(
            Definition(
                kind=kind,
                name=name,
                qualname=qualname,
                parent=parent,
                start_line=bisect_right(self.starts, node.start_byte),
                end_line=bisect_right(self.starts, node.end_byte),
                start_byte=node.start_byte,
                end_byte=node.end_byte,
                exported=exported_name(name),
                **kw,
            )
        )

    def walk_types(self, node: Node | None, scope: str, params: frozenset[str]) -> None:
        """TYPE references for every named type inside a type expression."""
        if node is None:
            return
        if node.type == "type_identifier":  # most are one name: no walk
            name = self.text(node)
            if name not in params:
                self.refer(RefKind.TYPE, (name,), scope, node)
            return
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("type_identifier", "qualified_type"):
                chain = type_chain(n, params)
                if chain is not None:
                    at = n.child_by_field_id(_F.name) if n.type == "qualified_type" else n
                    self.refer(RefKind.TYPE, chain, scope, at)
                continue
            stack.extend(reversed(n.named_children))


# Go's predeclared identifiers (the universe block)
PREDECLARED_FUNCS = frozenset(
    {
        "append",
        "cap",
        "clear",
        "close",
        "complex",
        "copy",
        "delete",
        "imag",
        "len",
        "make",
        "max",
        "min",
        "new",
        "panic",
        "print",
        "println",
        "real",
        "recover",
    }
)
PREDECLARED_TYPES = frozenset(
    {
        "any",
        "bool",
        "byte",
        "comparable",
        "complex64",
        "complex128",
        "error",
        "float32",
        "float64",
        "int",
        "int8",
        "int16",
        "int32",
        "int64",
        "rune",
        "string",
        "uint",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "uintptr",
    }
)
PREDECLARED = PREDECLARED_FUNCS | PREDECLARED_TYPES | {"true", "false", "iota", "nil"}
