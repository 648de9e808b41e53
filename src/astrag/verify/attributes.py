"""Attribute reads and writes in changed code, and what a class visibly declares.

The frontends record calls and module-attribute reads, not ``self.x`` or ``user.name``: for
the index a read on a local is noise. The checker needs them, so it finds them itself with a
tags query (``queries/*-attributes.scm``) over the files a change touches, and reads the class
bodies it judges for what makes a class's attributes open-ended: ``setattr``/``__dict__`` in
Python, an index signature in TypeScript. TypeScript members are those the class *declares*
(fields, parameter properties, methods, accessors); an assignment to ``this.x`` in a method
declares nothing there, so writing an undeclared member is a finding. Pure functions over text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tree_sitter import Node, Query, QueryCursor, Tree

from astrag.graph.facts import Chain
from astrag.lang import grammar, grammar_of, parser

_CALLS = frozenset({"call", "call_expression"})
# Python: code in a class that adds attributes astrag cannot see
_PY_DYNAMIC = re.compile(r"\bsetattr\s*\(|__dict__|\bvars\s*\(\s*self\b|__setattr__")
_PY_SLOTS = re.compile(r"^\s*__slots__\s*(?::[^=]*)?=\s*(.*)$", re.MULTILINE)
_PY_RECEIVERS = frozenset({"self", "cls"})
# containers a target can sit in: ``self.a, self.b = ...``, ``for (self.i, x) in ...``
_TARGET_WRAPPERS = frozenset(
    {"pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list",
     "parenthesized_expression", "list_splat_pattern"}
)  # fmt: skip
_AUGMENTED = frozenset({"augmented_assignment", "augmented_assignment_expression"})
_TARGET_OF = {
    "assignment": "left",
    "assignment_expression": "left",
    "augmented_assignment": "left",
    "augmented_assignment_expression": "left",
    "for_statement": "left",
    "for_in_clause": "left",
    "as_pattern_target": "",
}
# ``[key: string]: T`` (a computed name ``[Symbol.iterator]()`` has no colon inside)
_TS_INDEX_SIGNATURE = re.compile(
    r"^\s*(?:(?:public|private|protected|readonly|static)\s+)*\[\s*[\w$]+\s*:"
)


@dataclass(frozen=True, slots=True)
class Access:
    chain: Chain  # the receiver's chain and the attribute, as in a Reference
    write: bool  # assigned to (``x.y = ...``); augmented assignments read first
    line: int  # of the attribute name, 1-based
    column: int  # 1-based, in characters
    byte: int  # start of the whole access, to find its scope


def attribute_accesses(
    path: str, text: str, lines: frozenset[int] | None = None, tree: Tree | None = None
) -> list[Access]:
    """Every ``x.y`` in the file (on ``lines``, when given) that is not a call's callee, with a
    chain astrag can walk. ``tree``: the file's parse, when the caller has it."""
    name = grammar_of(path)
    stem = _ATTRIBUTE_QUERIES.get(name) if name is not None else None
    if name is None or stem is None:
        return []  # a language without an attribute query (Go: its reads are references)
    source = text.encode("utf-8")
    root = (tree or parser(name).parse(source)).root_node
    cursor = QueryCursor(_query(stem, name))
    if lines:
        cursor.set_point_range((min(lines) - 1, 0), (max(lines), 0))
    found = cursor.captures(root).get("access", [])
    lines = text.split("\n")
    out = []
    for node in sorted(found, key=lambda n: n.start_byte):
        access = _access(node, source, lines)
        if access is not None:
            out.append(access)
    return out


# grammar -> the attribute query written for it (TypeScript's serves its dialects)
_ATTRIBUTE_QUERIES = {
    "python": "python",
    "typescript": "typescript",
    "tsx": "typescript",
    "javascript": "typescript",
}


@cache
def _query(file_stem: str, grammar_name: str) -> Query:
    text = resources.files("astrag.verify").joinpath(f"queries/{file_stem}-attributes.scm")
    return Query(grammar(grammar_name), text.read_text("utf-8"))


def _access(node: Node, source: bytes, lines: list[str]) -> Access | None:
    parent = node.parent
    if parent is None:
        return None
    if parent.type in _CALLS and _is_field(parent, "function", node):
        return None  # ``x.y()``: a call, judged as one
    chain = _chain(node, source)
    if chain is None:
        return None
    target = _target_of(node)
    write = target is not None and target not in _AUGMENTED  # ``x.y += 1`` reads x.y first
    name = node.child_by_field_name("attribute") or node.child_by_field_name("property")
    assert name is not None
    row, byte_col = name.start_point
    line_text = lines[row] if row < len(lines) else ""
    column = len(line_text.encode("utf-8")[:byte_col].decode("utf-8", "ignore")) + 1
    return Access(chain, write, row + 1, column, node.start_byte)


def _is_field(parent: Node, field: str, node: Node) -> bool:
    child = parent.child_by_field_name(field)
    return child is not None and child.start_byte == node.start_byte and child.id == node.id


def _chain(node: Node, source: bytes) -> Chain | None:
    """The access path as the frontends write it; None for receivers they cannot express
    (subscripts, literals, optional chaining)."""
    kind = node.type
    if kind in ("identifier", "this", "super"):
        return (source[node.start_byte : node.end_byte].decode("utf-8"),)
    if kind in ("attribute", "member_expression"):
        if any(c.type in ("optional_chain", "?.") for c in node.children):
            return None
        obj = node.child_by_field_name("object")
        name = node.child_by_field_name("attribute") or node.child_by_field_name("property")
        if obj is None or name is None or name.type not in ("identifier", "property_identifier"):
            return None
        head = _chain(obj, source)
        text = source[name.start_byte : name.end_byte].decode("utf-8")
        return None if head is None else (*head, text)
    if kind in _CALLS:
        callee = node.child_by_field_name("function")
        head = _chain(callee, source) if callee is not None else None
        return None if head is None else (*head[:-1], head[-1] + "()")
    return None


# ---------------------------------------------------------------------------- class bodies


@dataclass(frozen=True, slots=True)
class PythonClassBody:
    dynamic: bool  # sets attributes in ways astrag cannot follow (setattr, __dict__, ...)
    assigned: frozenset[str]  # ``self.x`` / ``cls.x`` assignment targets anywhere in it
    slots: frozenset[str]  # names a static ``__slots__`` lists


def python_class_body(body: str) -> PythonClassBody:
    """What a Python class's text says about its attributes beyond its definitions: the
    frontend records ``self.x = ...`` but not tuple, ``for``, ``with ... as`` or nested-function
    targets, nor slot names."""
    slots: set[str] = set()
    dynamic = _PY_DYNAMIC.search(body) is not None
    for match in _PY_SLOTS.finditer(body):
        names = re.findall(r"""['"]([A-Za-z_]\w*)['"]""", match.group(1))
        if not names and not re.match(r"""\s*[(\[{]\s*[)\]}]""", match.group(1)):
            dynamic = True  # ``__slots__ = NAMES``: not a literal astrag can read
        slots.update(names)
    source = body.encode("utf-8")
    root = parser("python").parse(source).root_node
    assigned = set()
    for node in QueryCursor(_query("python", "python")).captures(root).get("access", []):
        obj = node.child_by_field_name("object")
        name = node.child_by_field_name("attribute")
        if obj is None or name is None or obj.type != "identifier" or not _is_target(node):
            continue
        if source[obj.start_byte : obj.end_byte].decode() in _PY_RECEIVERS:
            assigned.add(source[name.start_byte : name.end_byte].decode())
    return PythonClassBody(dynamic, frozenset(assigned), frozenset(slots))


def _is_target(node: Node) -> bool:
    """Whether ``node`` is (inside) the target of an assignment, a ``for`` or a ``with``."""
    return _target_of(node) is not None


def _target_of(node: Node) -> str | None:
    """The kind of statement ``node`` is (inside) the target of, if any."""
    child, parent = node, node.parent
    while parent is not None and parent.type in _TARGET_WRAPPERS:
        child, parent = parent, parent.parent
    if parent is None or parent.type not in _TARGET_OF:
        return None
    field = _TARGET_OF[parent.type]
    return parent.type if not field or _is_field(parent, field, child) else None


def ts_declared_members(path: str, body: str) -> frozenset[str] | None:
    """Names a TypeScript class or interface body declares; None when it has an index
    signature (any name is then a member)."""
    name = grammar_of(path)
    if name is None or name == "python":
        return None
    root = parser(name).parse(body.encode("utf-8")).root_node
    declaration = _first_class(root)
    if declaration is None:
        return None
    class_body = declaration.child_by_field_name("body")
    if class_body is None:
        return None
    names: set[str] = set()
    for member in class_body.named_children:
        if member.type == "index_signature" or _TS_INDEX_SIGNATURE.match(_text(member)):
            return None
        member_name = member.child_by_field_name("name")
        if member_name is not None:
            names.add(_text(member_name).strip("'\"#"))
        if member_name is not None and _text(member_name) == "constructor":
            names.update(_parameter_properties(member))
    return frozenset(names)


_DECLARATIONS = frozenset(
    {"class_declaration", "abstract_class_declaration", "class", "interface_declaration"}
)


def _first_class(node: Node) -> Node | None:
    for candidate in _walk(node):
        if candidate.type in _DECLARATIONS:
            return candidate
    return None


def _walk(node: Node) -> Iterator[Node]:
    yield node
    for child in node.children:
        yield from _walk(child)


def _parameter_properties(constructor: Node) -> Iterator[str]:
    params = constructor.child_by_field_name("parameters")
    for param in params.named_children if params is not None else ():
        modifiers = {c.type for c in param.children}
        if modifiers & {"accessibility_modifier", "readonly", "override_modifier"}:
            pattern = param.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "identifier":
                yield _text(pattern)


def _text(node: Node) -> str:
    return node.text.decode("utf-8") if node.text is not None else ""
