"""The frontend's shortcuts around ``Node.parent`` (which searches down from the root on every
call): the remembered look-up, the ancestors handed down to ``declaring_block`` and
``narrowing._regions``, each held to the plain walk it replaces."""

from __future__ import annotations

from textwrap import dedent

from tree_sitter import Node, QueryCursor

from astrag.graph.facts import Binding
from astrag.lang.treesitter import in_document_order
from astrag.lang.typescript import narrowing
from astrag.lang.typescript.extract import (
    GRAMMARS,
    _Extractor,
    _facts_query,
    _field_ids,
    _is_module_level,
    extract,
)

SOURCE = dedent(
    """
    export const top = 1;
    function f(xs: number[], flag: boolean) {
      const a = xs[0];
      for (const k of xs) { const inLoop = k; }
      if (flag) { let inIf = a; }
      xs.forEach((x) => { const y = x; });
      if (isFoo(a) && !isBar(a)) { use(a); }
      return a;
    }
    class C { m() { return this; } n = 1; }
    """
).lstrip("\n")


def _parse(source: str = SOURCE) -> tuple[bytes, _Extractor, list[Node]]:
    data = source.encode()
    tree = GRAMMARS.parser("typescript").parse(data)
    captures = in_document_order(QueryCursor(_facts_query("typescript")).captures(tree.root_node))
    extractor = _Extractor(data, captures, _field_ids("typescript"))
    nodes, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.children)
    return data, extractor, nodes


def test_up_is_parent_and_remembers() -> None:
    _, extractor, nodes = _parse()
    for node in nodes:
        first = extractor.up(node)
        assert first == node.parent
        assert extractor.up(node) is first  # the second look-up is the remembered one
    assert extractor.up(nodes[0]) is None  # the root has no parent, and that is remembered
    assert nodes[0] in extractor._ups


def test_is_module_level_through_up_or_parent() -> None:
    _, extractor, nodes = _parse()
    statements = [n for n in nodes if n.type == "lexical_declaration"]
    assert len(statements) == 5  # ``for (const k of xs)`` declares no statement
    for statement in statements:
        assert _is_module_level(statement, extractor.up) == _is_module_level(statement)
    levels = {s.text: _is_module_level(s) for s in statements}
    assert levels[b"const top = 1;"] is True
    assert levels[b"const a = xs[0];"] is False


def test_declaring_block_with_the_statement_given_or_found() -> None:
    _, extractor, nodes = _parse()
    extractor.run()  # the scopes: declaring_block leaves a definition's own body out
    names = [
        n.child_by_field_name("name")
        for n in nodes
        if n.type == "variable_declarator" and n.parent.type == "lexical_declaration"
    ]
    blocks = {}
    for name in names:
        statement = name.parent.parent
        found = extractor.declaring_block(name)
        assert extractor.declaring_block(name, statement) == found
        blocks[name.text] = found
    assert blocks[b"inLoop"] == (4, 4)  # the loop's block
    assert blocks[b"inIf"] == (5, 5)
    assert blocks[b"y"] == (6, 6)  # a callback's body
    assert blocks[b"a"] is None  # the function's own body: the whole scope
    # a parameter's name: its parameter handed down, no block either way
    for param in (n for n in nodes if n.type == "required_parameter"):
        name = param.child_by_field_name("pattern")
        assert extractor.declaring_block(name, param) is extractor.declaring_block(name) is None


def test_regions_with_the_parent_given_or_found() -> None:
    data, _, nodes = _parse()
    calls = [n for n in nodes if n.type == "call_expression"]
    found = {}
    for call in calls:
        regions = narrowing._regions(call)
        assert narrowing._regions(call, parent=call.parent) == regions
        found[data[call.start_byte : call.end_byte]] = regions
    assert len(found[b"isFoo(a)"]) == 2  # the rest of the condition and the if's body
    assert len(found[b"isBar(a)"]) == 0  # negated under &&: nothing holds after it
    assert found[b"use(a)"] == []  # a statement is no test


def test_bindings_unchanged_by_the_shortcuts() -> None:
    facts = extract("src/x.ts", SOURCE.encode(), "typescript")
    assert Binding("f", "inLoop", 4, None, ("k",), (4, 4)) in facts.bindings
    assert Binding("f", "inIf", 5, None, ("a",), (5, 5)) in facts.bindings
    assert Binding("f", "a", 3, None, ("xs", "[k]")) in facts.bindings
    assert Binding("f", "return", 8, None, ("a",)) in facts.bindings
