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


Declaration = tuple[Node, int, Node]  # (declaring node, parameter index, type_parameter node)


def type_parameters(captures: dict[str, list[Node]], source: bytes) -> dict[str, list[Declaration]]:
    """Every ``<...>`` type parameter of the file by name: where it is declared, at which
    index, and its node (read once; a name's declaration is then found by position)."""
    out: dict[str, list[Declaration]] = {}
    for name in captures.get("binding.type_parameter", ()):
        param = name.parent
        params = param.parent if param is not None and param.type == "type_parameter" else None
        declaration = params.parent if params is not None else None
        if declaration is None:
            continue
        index = sum(
            1
            for p in params.named_children
            if p.type == "type_parameter" and p.start_byte < param.start_byte
        )
        text = source[name.start_byte : name.end_byte].decode("utf-8", "replace")
        out.setdefault(text, []).append((declaration, index, param))
    return out


def declaring_parameter(node: Node, declarations: list[Declaration]) -> Declaration | None:
    """The innermost of a name's ``declarations`` around ``node``, or None."""
    best: Declaration | None = None
    at = node.start_byte
    for found in declarations:
        declaration = found[0]
        if declaration.start_byte <= at < declaration.end_byte and (
            best is None or declaration.start_byte >= best[0].start_byte
        ):
            best = found
    return best


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


# declarations whose own type parameter a return type can name
_FUNCTIONS = frozenset(
    {
        "function_declaration", "function_signature", "method_definition", "method_signature",
        "abstract_method_signature", "arrow_function", "function_expression", "function_type",
    }
)  # fmt: skip


def constructed_arguments(declaration: Node, source: bytes) -> list[int]:
    """The positions k of parameters whose class, passed as an argument, the function returns
    an instance of: ``get<T, R = T>(type: Type<T> | string): R`` (a generic type whose type
    argument is the returned parameter) or ``make<T>(ctor: new () => T): Promise<T>``."""
    if declaration.type not in _FUNCTIONS:
        return []
    params = declaration.child_by_field_name("type_parameters")
    returned = _returned_parameter(declaration, params, source) if params is not None else None
    formal = declaration.child_by_field_name("parameters")
    if returned is None or formal is None:
        return []
    out: list[int] = []
    position = 0
    for param in formal.named_children:
        pattern = param.child_by_field_name("pattern")
        if pattern is None or pattern.type == "this":
            continue  # a comment, or TS ``this: Foo`` (no argument)
        annotation = param.child_by_field_name("type")
        if annotation is not None and _constructs(annotation, returned, source):
            out.append(position)
        position += 1
    return out


def _returned_parameter(declaration: Node, params: Node, source: bytes) -> bytes | None:
    """The name of the type parameter the function returns (through ``Promise<...>`` and one
    default: ``R = T`` returns T), or None."""
    annotation = declaration.child_by_field_name("return_type")
    node = (
        annotation.named_child(0)
        if annotation is not None and annotation.named_child_count
        else None
    )
    if node is not None and node.type == "generic_type":
        name = node.child_by_field_name("name")
        args = type_arguments(node)
        if name is None or source[name.start_byte : name.end_byte] != b"Promise" or len(args) != 1:
            return None
        node = args[0]
    if node is None or node.type != "type_identifier":
        return None
    returned = source[node.start_byte : node.end_byte]
    for param in params.named_children:
        own = param.child_by_field_name("name") if param.type == "type_parameter" else None
        if own is None or source[own.start_byte : own.end_byte] != returned:
            continue
        default = param.child_by_field_name("value")
        target = (
            default.named_child(0) if default is not None and default.named_child_count else None
        )
        if target is not None and target.type == "type_identifier":
            return source[target.start_byte : target.end_byte]  # ``R = T``: T
        return returned
    return None


def _constructs(annotation: Node, name: bytes, source: bytes) -> bool:
    """Whether a parameter's type is (a union holding) a constructor of ``name`` or a generic
    type over exactly it (``Type<T>``, ``new (...args: any[]) => T``)."""
    stack = [annotation]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in ("type_annotation", "union_type", "parenthesized_type"):
            stack.extend(node.named_children)
        elif kind == "generic_type":
            args = type_arguments(node)
            if len(args) == 1 and source[args[0].start_byte : args[0].end_byte] == name:
                return True
        elif kind == "constructor_type":
            returned = node.child_by_field_name("type")
            if returned is not None and source[returned.start_byte : returned.end_byte] == name:
                return True
    return False
