"""What the TypeScript frontend writes for types made of other types or of values.

* An intersection ``A & typeof B & { m(): C }``: a value of it has the members of each, so
  its principal type joins its members' with ``&`` (facts.py): ``("A", "&", "typeof", "B",
  "&", "{:N}")``. An object type written in it records its members as the pseudo-bindings
  ``({:N}.name)`` of the module (N is the type's offset, unique in the file), which is where
  the resolver looks for them whatever scope the intersection is read in. Members that are no
  named type (a primitive, a function type, a union, a collection) are left out: they add
  no member a call could reach through.
* A type query ``typeof X``: the type of the value X, ``("typeof", "X")``.
* ``Object.assign(target, ...sources)``: the compiler types the call as the intersection of
  its arguments' types, so a variable it initialises is declared ``typeof target & typeof
  source …`` (an empty ``{}`` target adds nothing; an argument no chain describes is left
  out).
* A static mixin, ``Object.assign(C.prototype, mixin, Other.prototype)`` as a statement of the
  module, for a class C the file declares: what the sources hold is C's at run time (the
  compiler does not see it, so only the graph gains: ``callers`` of ``mixin.m`` lists calls of
  ``c.m()``); recorded as the pseudo-bindings ``(mixin)`` of C, valued by each source's chain.

A mixin of the extractor (``extract._Extractor``): ``self`` is the one extracting the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from astrag.graph.facts import Binding, Chain, DefKind
from astrag.lang.typescript.nodes import SIMPLE_CHAIN, first_named

if TYPE_CHECKING:
    from astrag.lang.typescript.extract import _Extractor

_ASSIGN = b"Object.assign"


class ComposedTypes:
    """The extractor's facts for intersections, ``typeof`` and ``Object.assign``."""

    def intersection_type(self: _Extractor, node: Node) -> Chain | None:
        """``A & B``: the members' principal types joined by ``&``, object types last (the
        resolver reads a chain starting ``{:`` as one object type); None when none has one."""
        named: list[Chain] = []
        shapes: list[Chain] = []
        opened = 0  # parts whose members astrag cannot see (_open_part)
        stack = [node]
        while stack:
            current = stack.pop()
            for member in reversed(current.named_children):
                while member.type == "parenthesized_type" and member.named_child_count:
                    member = member.named_children[0]
                if member.type == "intersection_type":
                    stack.append(member)
                elif member.type == "object_type":
                    shape = self.shape_members("", member)
                    if shape is not None:
                        shapes.append(shape)
                    elif member.named_children:
                        shapes.append(_open_part(member))
                        opened += 1  # members, none with a named type
                elif member.type != "comment":
                    chain = self.principal_type(member)
                    if chain is None or not _composable(chain):
                        shapes.append(_open_part(member))
                        opened += 1
                    elif chain not in named:
                        named.append(chain)
        if len(shapes) == opened and not named:
            return None  # no part whose members astrag can see
        parts = named + shapes
        if not parts:
            return None
        out: list[str] = []
        for chain in parts:
            out.extend((*(("&",) if out else ()), *chain))
        return tuple(out)

    def type_query(self: _Extractor, node: Node) -> Chain | None:
        """``typeof X`` / ``typeof a.b``: ``("typeof", "X")``, the type of that value."""
        expr = first_named(node)
        if expr is None or expr.type not in ("identifier", "member_expression"):
            return None
        raw = self.src[expr.start_byte : expr.end_byte]
        if not SIMPLE_CHAIN.fullmatch(raw):
            return None
        return ("typeof", *raw.decode("ascii").replace("?.", ".").split("."))

    def assigned_type(self: _Extractor, call: Node) -> Chain | None:
        """``Object.assign(target, a, b)``: ``typeof target & typeof a & typeof b``, the
        intersection the compiler gives the call; None for any other call."""
        if not self.src.startswith(_ASSIGN, call.start_byte):  # most calls: one comparison
            return None
        fn = call.child_by_field_id(self.fid.function)
        if fn is None or fn.end_byte - fn.start_byte != len(_ASSIGN):
            return None
        args = call.child_by_field_id(self.fid.arguments)
        out: list[str] = []
        for arg in args.named_children if args is not None else ():
            if arg.type in ("object", "comment"):
                continue  # ``{}``, ``{ error }``: members of no named definition
            chain = self.value_chain(arg)
            if chain is not None:
                out.extend((*(("&",) if out else ()), "typeof", *chain))
        return tuple(out) if out else None

    def static_mixin(self: _Extractor, call: Node) -> None:
        """``Object.assign(C.prototype, a, B.prototype)`` at the top of the module, C a class
        of this file: the pseudo-bindings ``(mixin)`` of C valued ``("a",)`` and ``("B",)``."""
        statement = call.parent
        if statement is None or statement.type != "expression_statement":
            return
        if statement.parent is None or statement.parent.type != "program":
            return
        args = call.child_by_field_id(self.fid.arguments)
        sources = [a for a in args.named_children if a.type != "comment"] if args else []
        if len(sources) < 2:
            return
        target = self.src[sources[0].start_byte : sources[0].end_byte]
        owner = target.removesuffix(b".prototype").decode("utf-8", "replace")
        if target == owner.encode() or self.kinds.get(owner) != DefKind.CLASS:
            return
        line = call.start_point[0] + 1
        for source in sources[1:]:
            chain = self.value_chain(source)
            if chain is not None and chain[-1] == "prototype":
                chain = chain[:-1]  # another class's prototype: its members
            if chain:
                self.bindings.append(Binding(owner, "(mixin)", line, None, chain))

    def shape_members(self: _Extractor, scope: str, node: Node) -> Chain | None:
        """An object type's members' declared types as the pseudo-bindings ``({:N}.name)``
        of ``scope`` (N the type's offset), and ``("{:N}",)``, or None when no member has
        one (facts.py)."""
        key = f"{{:{node.start_byte}}}"
        if (scope, key) in self.shapes_noted:
            return (key,)
        found = False
        for member in node.named_children:
            name = member.child_by_field_id(self.fid.name)
            if name is None:
                continue
            if member.type == "property_signature":
                type_ = self.principal_type(member.child_by_field_id(self.fid.type))
            elif member.type == "method_signature":
                returned = self.principal_type(member.child_by_field_id(self.fid.return_type), True)
                type_ = ("=>", *returned) if returned is not None else None
            else:
                continue
            if type_ is not None:
                line = member.start_point[0] + 1
                self.bindings.append(Binding(scope, f"({key}.{self.text(name)})", line, type_))
                found = True
        if not found:
            return None
        self.shapes_noted.add((scope, key))
        return (key,)


def _open_part(node: Node) -> Chain:
    """A part of an intersection whose members astrag cannot see (an object type whose
    members have no named type, a function type, a union, a mapped type): an object type
    with no recorded member, ``("{:N}",)``. It keeps the intersection from reading as its
    other parts alone, whose members would then look like all the value has: a member
    lookup skips it, and the checker judges no intersection (its member set is open)."""
    return (f"{{:{node.start_byte}}}",)


def _composable(chain: Chain) -> bool:
    """A principal type an intersection can hold as one of its parts: a named type or a
    ``typeof`` (not a function type, a union, a collection or a mapping, whose chains a
    joined chain could not tell apart from its parts)."""
    return chain[0] not in ("=>", "*") and "|" not in chain and chain[-1] not in ("[]", "{}")
