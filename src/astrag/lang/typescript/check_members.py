"""What a TypeScript class or interface body declares, for the checker's TypeScript rules:
fields, methods, accessors and constructor parameter properties; an index signature means any
name is a member (None). An assignment to ``this.x`` in a method declares nothing. Pure
functions over text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from astrag.lang import grammar_of, parser

# ``[key: string]: T`` (a computed name ``[Symbol.iterator]()`` has no colon inside)
_TS_INDEX_SIGNATURE = re.compile(
    r"^\s*(?:(?:public|private|protected|readonly|static)\s+)*\[\s*[\w$]+\s*:"
)


def ts_declared_members(path: str, body: str) -> frozenset[str] | None:
    """Names a TypeScript class or interface body declares; None when it has an index
    signature (any name is then a member)."""
    name = grammar_of(path)
    if name is None:
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
