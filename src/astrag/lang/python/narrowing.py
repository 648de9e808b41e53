"""Narrowing by ``isinstance``: inside ``if isinstance(x, C):`` a member of ``x`` is C's.

A type checker narrows ``x`` to ``C`` in the block an ``isinstance`` test guards. The resolver
has no block scopes, so the frontend says it the one way a chain can: a reference inside the
block whose chain starts with the tested subject (``x.close``, ``self.app.routes``) is
recorded as starting from an instance of the class instead (``C().close``), which the resolver
evaluates like any call result; so is the value of a binding made in the block (``for t in
v.body``). Only what is certain is narrowed:

- the test is the whole condition of an ``if``/``elif``, or one operand of a top-level ``and``
  (then the rest of the condition is narrowed too);
- the class is one name or dotted name (a tuple of classes is a union: left alone);
- the subject is a name or a dotted attribute chain, and the guarded block never rebinds it.

``if not isinstance(x, C): return`` (narrowing the rest of a block) is not followed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from tree_sitter import Node

from astrag.graph.facts import Binding, Chain, Reference

Position = tuple[int, int]  # (line, column), both 1-based, as references are positioned


@dataclass(frozen=True, slots=True)
class Narrowing:
    start: Position  # the condition's start: the test's own ``and`` partners count
    end: Position  # the guarded block's end
    subject: Chain
    cls: Chain


def narrowings(
    calls: list[Node],
    source: bytes,
    dotted: Callable[[Node], Chain | None],
    point: Callable[[int], Position],
) -> list[Narrowing]:
    """The narrowings the ``isinstance`` calls among ``calls`` establish, innermost first."""
    found: list[Narrowing] = []
    for call in calls:
        function = call.child_by_field_name("function")
        if function is None or source[function.start_byte : function.end_byte] != b"isinstance":
            continue
        guarded = _guarded_block(call)
        test = _test(call, dotted)
        if guarded is None or test is None:
            continue
        condition, block = guarded
        subject, cls = test
        if _rebinds(source[block.start_byte : block.end_byte], subject):
            continue
        found.append(Narrowing(point(condition.start_byte), point(block.end_byte), subject, cls))
    found.sort(key=lambda n: (n.start[0] - n.end[0], n.start[1] - n.end[1]), reverse=True)
    return found


def narrow(references: list[Reference], found: list[Narrowing]) -> list[Reference]:
    """The references with every narrowed subject replaced by an instance of its class."""
    if not found:
        return references
    by_root = _by_root(found)
    out: list[Reference] = []
    for ref in references:
        chain = _narrowed(ref.chain, by_root, (ref.line, ref.column))
        out.append(replace(ref, chain=chain) if chain is not None else ref)
    return out


def narrow_bindings(bindings: list[Binding], found: list[Narrowing]) -> list[Binding]:
    """The same for the values of bindings made inside a guarded block (``for t in v.body``
    under ``isinstance(v, AoT)``), by line: a binding knows no column."""
    if not found:
        return bindings
    by_root = _by_root(found)
    out: list[Binding] = []
    for b in bindings:
        value = _narrowed(b.value, by_root, (b.line, 0), by_line=True)
        out.append(replace(b, value=value) if value is not None else b)
    return out


def _by_root(found: list[Narrowing]) -> dict[str, list[Narrowing]]:
    """The narrowings by their subject's first name, innermost first as ``found`` lists them:
    a chain is only compared with those of its own root (sympy's files test dozens of
    subjects, and every reference was compared with every test)."""
    by_root: dict[str, list[Narrowing]] = {}
    for n in found:
        by_root.setdefault(n.subject[0], []).append(n)
    return by_root


def _narrowed(
    chain: Chain | None,
    by_root: dict[str, list[Narrowing]],
    at: Position,
    by_line: bool = False,
) -> Chain | None:
    """``chain`` at ``at`` starting from the innermost narrowing around it, else None."""
    if not chain:
        return None
    for n in by_root.get(chain[0], ()):
        size = len(n.subject)
        inside = n.start[0] <= at[0] <= n.end[0] if by_line else n.start <= at <= n.end
        if len(chain) > size and chain[:size] == n.subject and inside:
            return (*n.cls[:-1], n.cls[-1] + "()", *chain[size:])
    return None


def _guarded_block(call: Node) -> tuple[Node, Node] | None:
    """The (condition, block) an ``isinstance`` call guards when it is the condition of an
    ``if``/``elif`` or an operand of its top-level ``and``s."""
    node = call
    parent = node.parent
    while parent is not None and parent.type == "boolean_operator":
        operator = parent.child_by_field_name("operator")
        if operator is None or operator.type != "and":
            return None
        node, parent = parent, parent.parent
    if parent is None or parent.type not in ("if_statement", "elif_clause"):
        return None
    if parent.child_by_field_name("condition") != node:
        return None
    block = parent.child_by_field_name("consequence")
    return (node, block) if block is not None else None


def _test(call: Node, dotted: Callable[[Node], Chain | None]) -> tuple[Chain, Chain] | None:
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.named_child_count != 2:
        return None
    subject_node, cls_node = arguments.named_children
    if subject_node.type not in ("identifier", "attribute"):
        return None
    if cls_node.type not in ("identifier", "attribute"):
        return None
    subject, cls = dotted(subject_node), dotted(cls_node)
    return (subject, cls) if subject and cls else None


def _rebinds(block: bytes, subject: Chain) -> bool:
    """Whether the block may assign the subject (conservatively: any ``x =``, ``x +=``,
    ``x :=``, ``for x``, ``as x``, ``del x`` or ``global x``)."""
    name = re.escape(".".join(subject).encode())
    pattern = rb"(?<![\w.])" + name + rb"\s*(?:[-+*/%&|^@]|//|\*\*|>>|<<)?=(?!=)"
    pattern += rb"|(?<![\w.])" + name + rb"\s*:="
    pattern += rb"|\b(?:for|as|del|global|nonlocal)\s+(?:[\w., ]*[ ,])?" + name + rb"(?![\w.])"
    return re.search(pattern, block) is not None
