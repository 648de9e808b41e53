"""Attribute reads and writes in changed code.

The frontends record calls and module-attribute reads, not ``self.x`` or ``user.name``: for
the index a read on a local is noise. The checker needs them, so it finds them itself with a
tags query (``queries/*-attributes.scm``) over the files a change touches. The same query
and the assignment-target test serve the rooms' readers of class bodies (what a Python
class assigns to ``self``; ``lang/python/check_bodies.py``). Pure functions over text.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from tree_sitter import Node, Query, QueryCursor, Tree

from astrag.graph.facts import Chain
from astrag.lang import grammar, grammar_of, parser

_CALLS = frozenset({"call", "call_expression"})
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
    query = _query(stem, name)
    found: dict[int, Node] = {}
    # each run of changed lines on its own: a diff's scattered edits in a large file leave
    # most of its accesses unread (a query over min..max of the lines would read them all)
    for first, last in _runs(lines) if lines else [(None, None)]:
        cursor = QueryCursor(query)
        if first is not None and last is not None:
            cursor.set_point_range((first - 1, 0), (last, 0))
        for node in cursor.captures(root).get("access", []):
            found.setdefault(node.id, node)
    split = text.split("\n")
    out = []
    for node in sorted(found.values(), key=lambda n: n.start_byte):
        member = _member_name(node)
        if lines and (member is None or member.start_point[0] + 1 not in lines):
            continue  # reported on its name's line, which the change did not write
        access = _access(node, source, split)
        if access is not None:
            out.append(access)
    return out


def _runs(lines: frozenset[int]) -> list[tuple[int, int]]:
    """``lines`` as runs of consecutive line numbers, (first, last) each."""
    runs: list[tuple[int, int]] = []
    for line in sorted(lines):
        if runs and line == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], line)
        else:
            runs.append((line, line))
    return runs


# grammar -> the attribute query written for it (TypeScript's serves its dialects)
_ATTRIBUTE_QUERIES = {
    "python": "python",
    "typescript": "typescript",
    "tsx": "typescript",
    "javascript": "typescript",
    "java": "java",
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
    name = _member_name(node)
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
    if kind in ("attribute", "member_expression", "field_access"):
        if any(c.type in ("optional_chain", "?.") for c in node.children):
            return None
        obj = node.child_by_field_name("object")
        name = _member_name(node)
        if obj is None or name is None or name.type not in ("identifier", "property_identifier"):
            return None
        head = _chain(obj, source)
        text = source[name.start_byte : name.end_byte].decode("utf-8")
        return None if head is None else (*head, text)
    if kind in _CALLS:
        callee = node.child_by_field_name("function")
        head = _chain(callee, source) if callee is not None else None
        return None if head is None else (*head[:-1], head[-1] + "()")
    if kind == "method_invocation":  # Java: ``a.b(...)`` names its object and method apart
        obj, name = node.child_by_field_name("object"), node.child_by_field_name("name")
        head = _chain(obj, source) if obj is not None else ()
        if head is None or name is None:
            return None
        return (*head, source[name.start_byte : name.end_byte].decode("utf-8") + "()")
    return None


def _member_name(node: Node) -> Node | None:
    """The member's name node of an access: Python's ``attribute``, TS's ``property``,
    Java's ``field``."""
    for field in ("attribute", "property", "field"):
        found = node.child_by_field_name(field)
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------------------- for the rooms


def access_nodes(grammar_name: str, root: Node) -> list[Node]:
    """Every ``x.y`` node of a parse, by the grammar's attribute query."""
    stem = _ATTRIBUTE_QUERIES[grammar_name]
    return QueryCursor(_query(stem, grammar_name)).captures(root).get("access", [])


def is_target(node: Node) -> bool:
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
