"""Type parameters of TypeScript classes and interfaces, written so the resolver can see
through them.

A member typed by a type parameter of its class (``class ZodType<Def extends ZodTypeDef> {
_def: Def }``) has no type of its own: the compiler reads it as the type argument the
receiver's class passes (``class ZodArray extends ZodType<..., ZodArrayDef>``: ``this._def`` is
a ``ZodArrayDef``), and inside the generic code as the parameter's constraint. The frontend
records that as plain facts (see ``graph/facts.py``):

* a reference to type parameter i of class or interface ``Q`` in an annotation is the chain
  element ``<Q:i>`` (``_def: Def`` is typed ``("<ZodType:1>",)``);
* the constraint of that parameter is the pseudo-binding ``<i>`` of scope ``Q``;
* the principal type of the j-th type argument that ``Q`` passes to its k-th base (``extends``
  first, then ``implements``) is the pseudo-binding ``<k:j>`` of scope ``Q``.

A type parameter of a function, method or type alias has no receiver to take an argument
from: it is its constraint, or its own name when it has none (which resolves to nothing).
"""

from __future__ import annotations

from tree_sitter import Node

# declarations whose type parameters a member's receiver can instantiate
_GENERIC_OWNERS = frozenset(
    {"class_declaration", "abstract_class_declaration", "class", "interface_declaration"}
)


def type_parameter_names(captures: dict[str, list[Node]], source: bytes) -> frozenset[str]:
    """The names declared in a ``<...>`` type parameter list anywhere in the file: a cheap
    first test before a type name's declaration is looked for."""
    return frozenset(
        source[n.start_byte : n.end_byte].decode("utf-8", "replace")
        for n in captures.get("binding.type_parameter", ())
        if n.parent is not None and n.parent.type == "type_parameter"
    )


def declaring_parameter(node: Node, name: str, source: bytes) -> tuple[Node, int, Node] | None:
    """The innermost declaration around ``node`` whose type parameter list declares ``name``:
    (that declaration, the parameter's index, the ``type_parameter`` node), or None."""
    encoded = name.encode()
    current = node.parent
    while current is not None:
        params = current.child_by_field_name("type_parameters")
        if params is not None:
            index = 0
            for param in params.named_children:
                if param.type != "type_parameter":
                    continue
                own = param.child_by_field_name("name")
                if own is not None and source[own.start_byte : own.end_byte] == encoded:
                    return current, index, param
                index += 1
        current = current.parent
    return None


def is_generic_owner(declaration: Node) -> bool:
    return declaration.type in _GENERIC_OWNERS


def constraint_of(param: Node) -> Node | None:
    """The type after ``extends`` in ``T extends Foo = Bar`` (not the default, which a type
    argument may replace by anything the constraint allows)."""
    constraint = param.child_by_field_name("constraint")
    if constraint is None:
        return None
    return next((c for c in constraint.named_children if c.type != "comment"), None)


def type_arguments(node: Node | None) -> list[Node]:
    """The type arguments of a ``generic_type`` / an ``extends_clause``'s ``<...>``."""
    if node is None:
        return []
    args = node if node.type == "type_arguments" else node.child_by_field_name("type_arguments")
    return [c for c in args.named_children if c.type != "comment"] if args is not None else []


def marker(owner: str, index: int) -> str:
    return f"<{owner}:{index}>"
