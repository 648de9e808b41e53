"""in_document_order: captures by start, outer before inner at one start, then by type,
whatever order they came in; a list whose starts all differ takes the shorter path."""

from __future__ import annotations

from tree_sitter import Node

from astrag.lang import parse_file
from astrag.lang.treesitter import in_document_order


def _nodes(source: str, kind: str) -> list[Node]:
    tree = parse_file("m.js", source.encode())
    assert tree is not None
    found, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == kind:
            found.append(node)
        stack.extend(node.children)
    return found


def _spans(nodes: list[Node]) -> list[tuple[int, int, str]]:
    return [(n.start_byte, n.end_byte, n.type) for n in nodes]


def test_nodes_starting_apart_come_in_order_of_their_start() -> None:
    calls = _nodes("a(); b(); c();", "call_expression")
    shuffled = [calls[1], calls[2], calls[0]]
    ordered = in_document_order({"call": shuffled})["call"]
    assert [s for s, _, _ in _spans(ordered)] == [0, 5, 10]


def test_nodes_starting_at_one_byte_come_outer_first() -> None:
    # ``f.bind(x)()`` and ``f.bind(x)`` both start at byte 0
    calls = _nodes("f.bind(x)();", "call_expression")
    inner_first = sorted(calls, key=lambda n: n.end_byte)
    ordered = in_document_order({"call": inner_first})["call"]
    assert _spans(ordered) == [(0, 11, "call_expression"), (0, 9, "call_expression")]


def test_nodes_at_one_span_come_by_type() -> None:
    # Python's ``x`` is an expression_statement whose only child, an identifier, has its span
    tree = parse_file("m.py", b"x\n")
    assert tree is not None
    statement = tree.root_node.children[0]
    ident = statement.children[0]
    assert (statement.start_byte, statement.end_byte) == (ident.start_byte, ident.end_byte)
    for given in ([ident, statement], [statement, ident]):
        ordered = in_document_order({"n": given})["n"]
        assert [n.type for n in ordered] == ["expression_statement", "identifier"]


def test_short_lists_are_left_as_they_are() -> None:
    calls = _nodes("a();", "call_expression")
    assert in_document_order({"call": calls, "none": []}) == {"call": calls, "none": []}
