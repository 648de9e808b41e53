"""Small syntax-tree helpers the TypeScript frontend's modules share (extract, contextual)."""

from __future__ import annotations

import re

from tree_sitter import Node

# A member chain written plainly on one line (``this.repo.find``, ``a?.b``): split as text,
# which is much cheaper than walking its nodes.
SIMPLE_CHAIN = re.compile(rb"[A-Za-z_$][\w$]*(?:\??\.#?[A-Za-z_$][\w$]*)*", re.ASCII)
# the nodes whose ``return`` statements are their own
FUNCTION_NODES = frozenset(
    {"function_declaration", "generator_function_declaration", "function_expression",
     "generator_function", "arrow_function", "method_definition", "function"}
)  # fmt: skip
# what an expression may sit in and still be the value its parent sees
WRAPPERS = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression"})
CASTS = frozenset({"as_expression", "satisfies_expression"})  # the wrappers naming a type


def first_named(node: Node) -> Node | None:
    """The first named child, or None: py-tree-sitter raises IndexError where older versions
    gave None, and damaged trees have nodes without the children their type usually has
    (``require()``, an empty ``( )``)."""
    return node.named_child(0) if node.named_child_count else None


def climb(node: Node, kinds: frozenset[str] = WRAPPERS) -> tuple[Node, Node | None]:
    """The outermost of the ``kinds`` around ``node`` (by default the wrappers around an
    expression, ``(x)``, ``x as T``: the node whose parent receives its value) and that
    node's parent (a declarator, a pair, an argument list). One ``parent`` look-up per level:
    each searches down from the root."""
    parent = node.parent
    while parent is not None and parent.type in kinds:
        node, parent = parent, parent.parent
    return node, parent


def unwrap(value: Node | None) -> Node | None:
    while value is not None and value.type in WRAPPERS:
        value = first_named(value)
    return value
