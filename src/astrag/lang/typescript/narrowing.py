"""Narrowing: where ``x instanceof C`` or a type guard ``isC(x)`` holds, a member of x is C's.

The compiler narrows ``x`` in the code a test guards; the resolver has no block scopes, so
the frontend writes it into the chains: a reference in a guarded region whose chain starts
with the tested subject (``node.getChildren``, ``this.parent.m``) is recorded with a narrowing
element after the subject, ``("node", "(is:C)", "getChildren")`` for ``instanceof C``,
``("node", "(is:$isElementNode:0)", "getChildren")`` for a call that passes ``node`` as
argument 0, and ``("x", "(in:next)", "next")`` for ``'next' in x`` (the members of a union
that have ``next``), ``("x", "(eq:kind:a)", "m")`` for ``x.kind === 'a'`` (the members of
a union whose ``kind`` may be ``'a'``: a discriminant). The resolver evaluates the element
(``graph/resolve.py``): an instance of C; the type the guard's ``node is T`` predicate
declares for that parameter (the pseudo-binding ``(is:0)`` of the guard, recorded where the
guard is declared), or, when the function declares none, the subject's own value. So is the
value of a binding made in the region, by line.

Regions, as the compiler reads them (``positive``: the test holds where the expression is
truthy):

- ``if (T) A else B``: A; ``if (!T) A else B``: B, and the rest of the enclosing block when A
  always leaves it (``return``, ``throw``, ``break``, ``continue``);
- ``T && U``: U; ``!T || U``: U; ``c ? A : B`` with T as c: A (B for ``!T``); a test
  written negated (``x.kind !== 'a'``) is ``!T``;
- ``switch (x.kind) { case 'a': A }``: A, unless the case before falls through into it;
- through parentheses, ``!``, and the operands of ``&&`` (``||`` when negated) around T.

Only what is certain is narrowed: the subject is a name or a chain of names (``this.x``), the
class or guard a name or a chain of names, and the region never assigns the subject.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from tree_sitter import Node

from astrag.graph.facts import Binding, Chain, Reference

Position = tuple[int, int]  # (line, column), 1-based, as references are positioned
_EXITS = frozenset({"return_statement", "throw_statement", "break_statement", "continue_statement"})
# a name or chain assigned (``x =``, ``x +=``, ``x++``), incremented first (``++x``), or declared
_ASSIGNED = re.compile(
    rb"(?<![\w$.])([A-Za-z_$#][\w$.#]*)\s*(?:(?:[-+*/%&|^]|\*\*|>>>?|<<|&&|\|\||\?\?)?=(?!=)|\+\+|--)"
    rb"|(?:\+\+|--)\s*([A-Za-z_$#][\w$.#]*)"
    rb"|\b(?:let|const|var|function)\s+([A-Za-z_$][\w$]*)",
    re.ASCII,
)
_KEY = re.compile(rb"[A-Za-z_$][\w$]*", re.ASCII)
_PLAIN = re.compile(rb"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$#][\w$]*)*", re.ASCII)
_LITERAL = re.compile(rb"[\w$-]+", re.ASCII)  # a discriminant's value an element can hold


@dataclass(frozen=True, slots=True)
class Narrowing:
    start: Position
    end: Position
    subject: Chain
    element: str  # ``(is:C)`` / ``(is:guard:k)``


def narrowings(
    instanceofs: Iterable[Node],
    calls: Iterable[Node],
    source: bytes,
    point: Callable[[tuple[int, int]], Position],
    ins: Iterable[Node] = (),
    eqs: Iterable[Node] = (),
    switches: Iterable[Node] = (),
) -> list[Narrowing]:
    """``point`` turns a tree-sitter point (row, byte column) into a reference position."""
    found: list[Narrowing] = []
    for test in eqs:  # ``x.kind === 'a'``: the union members of x whose ``kind`` may be 'a'
        left, right = test.child_by_field_name("left"), test.child_by_field_name("right")
        operator = test.child_by_field_name("operator")
        if left is None or right is None or operator is None:
            continue
        tested, literal = _plain(left, source), _discriminant(right, source)
        if tested and len(tested) > 1 and literal is not None:
            regions = _regions(test, positive=operator.type in ("===", "=="))
            _add(found, regions, tested[:-1], f"(eq:{tested[-1]}:{literal})", source, point)
    for switch in switches:  # ``switch (x.kind) { case 'a': … }``: the statements of the case
        value, body = switch.child_by_field_name("value"), switch.child_by_field_name("body")
        inner = value.named_child(0) if value is not None and value.named_child_count else None
        tested = _plain(inner, source) if inner is not None else None
        if not tested or len(tested) < 2 or body is None:
            continue
        falls_in = False  # the case before falls through into this one: no one value holds
        for case in body.named_children:
            statements = case.children_by_field_name("body")
            label = case.child_by_field_name("value")
            literal = _discriminant(label, source) if label is not None else None
            if case.type == "switch_case" and statements and literal is not None and not falls_in:
                element = f"(eq:{tested[-1]}:{literal})"
                _add(found, [(statements[0], statements[-1])], tested[:-1], element, source, point)
            falls_in = not statements or not _exits(statements[-1])
    for test in instanceofs:
        left, right = test.child_by_field_name("left"), test.child_by_field_name("right")
        if left is None or right is None:
            continue
        subject, cls = _plain(left, source), _plain(right, source)
        if subject and cls:
            _add(found, _regions(test), subject, f"(is:{'.'.join(cls)})", source, point)
    for test in ins:  # ``'next' in x``: the union members of x that have ``next``
        left, right = test.child_by_field_name("left"), test.child_by_field_name("right")
        if left is None or right is None or left.type != "string":
            continue
        key = source[left.start_byte + 1 : left.end_byte - 1]
        subject = _plain(right, source)
        if subject and _KEY.fullmatch(key):
            _add(found, _regions(test), subject, f"(in:{key.decode()})", source, point)
    for call in calls:
        parent = call.parent
        if parent is None or parent.type in ("expression_statement", "arguments"):
            continue  # a statement or an argument is no test: the common case, cut early
        regions = _regions(call, parent=parent)  # its parent known: no second look-up
        if not regions:
            continue  # a call that is no test (most are): nothing to read
        callee = call.child_by_field_name("function")
        guard = _plain(callee, source) if callee is not None else None
        args = call.child_by_field_name("arguments")
        if not guard or args is None or args.type != "arguments":
            continue
        position = 0
        for arg in args.named_children:
            if arg.type == "comment":
                continue
            subject = _plain(arg, source)
            if subject:
                element = f"(is:{'.'.join(guard)}:{position})"
                _add(found, regions, subject, element, source, point)
            position += 1
    found.sort(key=lambda n: (n.start[0] - n.end[0], n.start[1] - n.end[1]), reverse=True)
    return found


def narrow(references: list[Reference], found: list[Narrowing]) -> list[Reference]:
    """The references with the narrowing element after every narrowed subject."""
    if not found:
        return references
    by_root = _by_root(found)
    out: list[Reference] = []
    for ref in references:
        candidates = by_root.get(ref.chain[0])
        chain = _narrowed(ref.chain, candidates, (ref.line, ref.column)) if candidates else None
        out.append(replace(ref, chain=chain) if chain is not None else ref)
    return out


def narrow_bindings(bindings: list[Binding], found: list[Narrowing]) -> list[Binding]:
    """The same for the values of bindings made inside a region, by line (a binding knows no
    column); the subject itself counts (``const el = node``)."""
    if not found:
        return bindings
    by_root = _by_root(found)
    out: list[Binding] = []
    for b in bindings:
        candidates = by_root.get(b.value[0]) if b.value else None
        value = _narrowed(b.value, candidates, (b.line, 0), by_line=True) if candidates else None
        out.append(replace(b, value=value) if value is not None else b)
    return out


def _by_root(found: list[Narrowing]) -> dict[str, list[Narrowing]]:
    """The narrowings by their subject's first name, innermost first still."""
    by_root: dict[str, list[Narrowing]] = {}
    for n in found:
        by_root.setdefault(n.subject[0], []).append(n)
    return by_root


def _narrowed(
    chain: Chain | None, found: list[Narrowing], at: Position, by_line: bool = False
) -> Chain | None:
    if chain is None:
        return None
    length = len(chain) - (not by_line)
    for n in found:
        # the region first: most narrowings of a root (``this``) are elsewhere in the file
        if not (n.start[0] <= at[0] <= n.end[0] if by_line else n.start <= at <= n.end):
            continue
        size = len(n.subject)
        if length >= size and chain[:size] == n.subject:
            return (*n.subject, n.element, *chain[size:])
    return None


def _discriminant(node: Node, source: bytes) -> str | None:
    """A literal a discriminant is compared with (``'a'``, ``1``, ``true``) as an element can
    hold it (``a``), or None."""
    if node.type not in ("string", "number", "true", "false"):
        return None
    literal = source[node.start_byte : node.end_byte]
    if node.type == "string":
        literal = literal[1:-1]
    return literal.decode() if _LITERAL.fullmatch(literal) else None


def _plain(node: Node, source: bytes) -> Chain | None:
    """A name or a chain of names (``a.b``, ``this.x``), else None."""
    while node.type in ("parenthesized_expression", "non_null_expression"):
        inner = node.named_child(0) if node.named_child_count else None
        if inner is None:
            return None
        node = inner
    if node.type not in ("identifier", "member_expression", "this"):
        return None
    written = source[node.start_byte : node.end_byte]
    return tuple(written.decode().split(".")) if _PLAIN.fullmatch(written) else None


def _add(
    found: list[Narrowing],
    regions: list[tuple[Node, Node]],
    subject: Chain,
    element: str,
    source: bytes,
    point: Callable[[tuple[int, int]], Position],
) -> None:
    for start, end in regions:
        if not _assigns(source[start.start_byte : end.end_byte], subject):
            found.append(
                Narrowing(point(start.start_point), point(end.end_point), subject, element)
            )


def _regions(
    test: Node, positive: bool = True, parent: Node | None = None
) -> list[tuple[Node, Node]]:
    """Where ``test`` holds (see the module docstring): from the start of one node to the end
    of another; where it fails, for a test written negated (``x.kind !== 'a'``). ``parent``:
    ``test``'s parent when the caller has it (``Node.parent`` searches down from the root)."""
    regions: list[tuple[Node, Node]] = []
    node = test
    if parent is None:
        parent = node.parent
    while parent is not None:
        kind = parent.type
        if kind == "parenthesized_expression":
            pass
        elif kind == "unary_expression":
            operator = parent.child_by_field_name("operator")
            if operator is None or operator.type != "!":
                break
            positive = not positive
        elif kind == "binary_expression":
            operator = parent.child_by_field_name("operator")
            op = operator.type if operator is not None else ""
            if op not in ("&&", "||") or positive != (op == "&&"):
                break  # `a && T` falsy, `a || T` truthy: nothing follows about T
            right = parent.child_by_field_name("right")
            if right is not None and right.start_byte >= node.end_byte:
                regions.append((right, right))
        elif kind in ("if_statement", "ternary_expression"):
            if parent.child_by_field_name("condition") != node:
                break
            then = parent.child_by_field_name("consequence")
            other = parent.child_by_field_name("alternative")
            taken = then if positive else other
            if taken is not None:
                regions.append((taken, taken))
            if kind == "if_statement" and not positive and then is not None and _exits(then):
                after = parent.next_named_sibling
                block = parent.parent
                if after is not None and block is not None:
                    regions.append((after, block))  # the rest of the block
            break
        else:
            break
        node, parent = parent, parent.parent
    return regions


def _exits(statement: Node) -> bool:
    """Whether a statement always leaves the block around its ``if``."""
    if statement.type == "statement_block":
        last = None
        for child in statement.named_children:
            if child.type != "comment":
                last = child
        return last is not None and last.type in _EXITS
    return statement.type in _EXITS


def _assigns(region: bytes, subject: Chain) -> bool:
    """Whether the region may assign the subject (conservatively: ``x =``, ``x +=``, ``x++``,
    ``++x``, or a declaration of its first name). One compiled pattern finds every name the
    region assigns or declares; a pattern per subject cost a regex compilation per test."""
    written = ".".join(subject).encode()
    if written not in region:
        return False
    first = subject[0].encode()
    for match in _ASSIGNED.finditer(region):
        name = match.group(1) or match.group(2) or match.group(3)
        if name == written or (match.group(3) and name == first):
            return True
    return False
