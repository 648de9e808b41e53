"""Function bodies walked with Go's lexical scopes: each local bound under a name of its own.

A variable declared again in an inner block or a closure shadows the outer one only there, so
the walk gives it a name of its own (``r#2``) and writes every use with that name: the resolver,
which sees one scope per function, never confuses two ``r``s. Closures are no definitions; their
calls and locals belong to the function around them.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Language, Node

from astrag.graph.facts import Binding, Chain, RefKind
from astrag.lang.go.syntax import (
    PREDECLARED,
    PREDECLARED_TYPES,
    Recorder,
    called,
    is_bare_name,
    specs,
    type_chain,
)
from astrag.lang.go.syntax import (
    Fields as _F,
)

# statements and clauses that open a block scope of their own
_BLOCKS = frozenset(
    {
        "block",
        "if_statement",
        "for_statement",
        "expression_switch_statement",
        "select_statement",
        "expression_case",
        "default_case",
        "communication_case",
    }
)


class Scopes:
    """One function's (or one package-level initializer's) lexical scopes while its body is
    walked: binds locals under unique names, records references as written."""

    def __init__(self, f: Recorder, scope: str, type_params: frozenset[str]) -> None:
        self.f = f
        self.scope = scope
        self.type_params = type_params
        self.stack: list[dict[str, str]] = []  # per open block: name -> its unique name
        # name -> the unique names of the open blocks declaring it, innermost last: a lookup
        # is one probe, not one per open block (etcd: 170k lookups, blocks nest deep)
        self.visible: dict[str, list[str]] = {}
        self.used: dict[str, int] = {}

    def push(self) -> None:
        self.stack.append({})

    def pop(self) -> None:
        visible = self.visible
        for name in self.stack.pop():
            shadowed = visible[name]
            shadowed.pop()
            if not shadowed:
                del visible[name]

    def lookup(self, name: str) -> str | None:
        found = self.visible.get(name)
        return found[-1] if found else None

    def declare(self, name: str, line: int, type: Chain | None = None, value: Chain | None = None):
        if name == "_" or not name:
            return
        frame = self.stack[-1]
        if name in frame:
            return  # ``a, err := g()`` after ``err`` was declared in this block: the same err
        count = self.used.get(name, 0) + 1
        self.used[name] = count
        unique = name if count == 1 else f"{name}#{count}"
        frame[name] = unique
        self.visible.setdefault(name, []).append(unique)
        self.f.bindings.append(Binding(self.scope, unique, line, type=type, value=value))

    def declare_params(self, plist: Node | None) -> None:
        for decl in plist.named_children if plist is not None else ():
            if decl.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            type_node = decl.child_by_field_id(_F.type)
            chain = type_chain(type_node, self.type_params)
            if decl.type == "variadic_parameter_declaration" and chain and chain[-1] != "[]":
                chain = (*chain, "[]")
            for n in decl.children_by_field_id(_F.name):
                self.declare(self.f.text(n), self.f.line(n.start_byte), type=chain)
            self.f.walk_types(type_node, self.scope, self.type_params)

    # ------------------------------------------------------------------ chains

    def chain(self, node: Node | None) -> Chain | None:
        """An expression as an access path (None when it has no name to start from)."""
        if node is None:
            return None
        kind = node.type
        if kind == "identifier":
            name = self.f.text(node)
            return (self.lookup(name) or name,)
        if kind == "selector_expression":
            return self._selector(node)[0]
        if kind == "call_expression":
            return self._call_chain(node)
        if kind in ("type_conversion_expression", "composite_literal", "type_assertion_expression"):
            made = type_chain(node.child_by_field_id(_F.type), self.type_params)
            return called(made) if made and made[-1] != "[]" else None
        if kind == "index_expression":
            generic = self.instantiated(node)
            if generic is not None:
                return self.chain(generic)
            operand = self.chain(node.child_by_field_id(_F.operand))
            return (*operand, "[i]") if operand else None
        if kind == "slice_expression":
            return self.chain(node.child_by_field_id(_F.operand))
        if kind == "parenthesized_expression":
            inner = node.named_children
            return self.chain(inner[0]) if len(inner) == 1 else None
        if kind == "unary_expression":
            operator = node.child_by_field_id(_F.operator)
            operand = self.chain(node.child_by_field_id(_F.operand))
            op = self.f.text(operator) if operator is not None else ""
            if op in ("&", "*"):
                return operand
            if op == "<-" and operand:
                return (*operand, "[i]")
        return None

    def _selector(self, node: Node) -> tuple[Chain | None, Node | None]:
        """A selector's chain and its innermost operand (``a.b.c``: ``("a", "b", "c")`` and
        ``a``), in one pass down the operands: a chain is read once per use, not once per dot."""
        fields = []
        while node.type == "selector_expression":
            fld = node.child_by_field_id(_F.field)
            operand = node.child_by_field_id(_F.operand)
            if fld is None or operand is None:
                return None, operand
            fields.append(fld)
            node = operand
        base = self.chain(node)
        if not base:
            return None, node
        text = self.f.text
        return (*base, *[text(f) for f in reversed(fields)]), node

    def instantiated(self, node: Node) -> Node | None:
        """The generic function of ``F[T]`` when an index expression instantiates one rather
        than indexes a value (the grammar cannot tell ``New[string]`` from ``fs[i]``): its
        index is a type parameter, a predeclared type, a capitalised name or ``pkg.T``, and
        no local variable."""
        index = node.child_by_field_id(_F.index)
        operand = node.child_by_field_id(_F.operand)
        if index is None or operand is None:
            return None
        if index.type in ("identifier", "type_identifier"):
            name = self.f.text(index)
            if name in self.type_params:
                return operand
            if self.lookup(name) is not None:
                return None
            typeish = name in PREDECLARED_TYPES or name[:1].isupper()
        elif index.type == "selector_expression":
            root = index.child_by_field_id(_F.operand)
            fld = index.child_by_field_id(_F.field)
            typeish = (
                root is not None
                and root.type == "identifier"
                and self.lookup(self.f.text(root)) is None
                and fld is not None
                and self.f.text(fld)[:1].isupper()
            )
        else:
            typeish = index.type.endswith("_type")
        return operand if typeish else None

    def _call_chain(self, node: Node) -> Chain | None:
        fn = node.child_by_field_id(_F.function)
        if fn is not None and fn.type == "identifier" and self.f.text(fn) in ("new", "make"):
            args = node.child_by_field_id(_F.arguments)
            first = args.named_children[0] if args is not None and args.named_children else None
            made = type_chain(first, self.type_params)
            if made and self.lookup(self.f.text(fn)) is None:
                return called(made) if made[-1] != "[]" else None
        callee = self.chain(fn)
        if not callee or callee[-1].endswith("()") or callee[-1] == "[i]":
            return None
        return called(callee)

    # ------------------------------------------------------------------ the walk

    def visit(self, node: Node) -> None:
        handler = _BY_KIND.get(node.kind_id, Scopes.visit_children)
        if handler is not None:
            handler(self, node)

    def visit_children(self, node: Node) -> None:
        # one dispatch per child, none for the many that hold no name (literals, comments)
        by_kind, visit_children = _BY_KIND, Scopes.visit_children
        for child in node.named_children:
            handler = by_kind.get(child.kind_id, visit_children)
            if handler is not None:
                handler(self, child)

    def block(self, node: Node) -> None:
        self.push()
        self.visit_children(node)
        self.pop()

    def types(self, node: Node) -> None:
        self.f.walk_types(node, self.scope, self.type_params)

    def read_name(self, node: Node) -> None:
        """A name used as a value (a function value, a package-level variable)."""
        name = self.f.text(node)
        if self.lookup(name) or name in PREDECLARED or name == "_":
            return  # a local or a predeclared name: never a graph node
        self.f.refer(RefKind.READ, (name,), self.scope, node)

    def read_selector(self, node: Node) -> None:
        """A selector used as a value (a field read, a method value, ``pkg.Name``)."""
        chain, innermost = self._selector(node)
        if chain is None or innermost is None:
            return
        self.f.refer(RefKind.READ, chain, self.scope, node.child_by_field_id(_F.field))
        if innermost.type != "identifier":
            self.visit(innermost)  # ``f(x).y``: the call is a use of its own

    def call(self, node: Node) -> None:
        fn = node.child_by_field_id(_F.function)
        args = node.child_by_field_id(_F.arguments)
        arg_nodes = args.named_children if args is not None else []
        if fn is not None:
            target, at = self._callee(fn)
            if target is not None and at is not None:
                count = len(arg_nodes)
                for a in arg_nodes:
                    if a.type == "variadic_argument":
                        count = -1
                        break
                self.f.refer(RefKind.CALL, target, self.scope, at, arg_count=count)
            self._visit_callee(fn)
        type_args = node.child_by_field_id(_F.type_arguments)  # at most one
        if type_args is not None:
            self.f.walk_types(type_args, self.scope, self.type_params)
        for arg in arg_nodes:
            self.visit(arg)

    def _callee(self, fn: Node) -> tuple[Chain | None, Node | None]:
        """The chain a call's callee is written as, and its name node (the call's site)."""
        kind = fn.type
        if kind == "identifier":
            name = self.f.text(fn)
            local = self.lookup(name)
            if local is None and name in PREDECLARED_TYPES:
                return None, None  # ``string(b)``: a conversion, never a call
            return (local or name,), fn
        if kind == "selector_expression":
            return self._selector(fn)[0], fn.child_by_field_id(_F.field)
        if kind == "parenthesized_expression" and len(fn.named_children) == 1:
            return self._callee(fn.named_children[0])
        if kind == "index_expression":
            generic = self.instantiated(fn)
            if generic is not None and generic.type in ("identifier", "selector_expression"):
                return self._callee(generic)
        return None, None

    def _visit_callee(self, fn: Node) -> None:
        """Calls and reads inside a callee expression (``f(x).M()``, ``s.items[i].Run()``)."""
        node = fn
        while node.type in ("selector_expression", "parenthesized_expression", "index_expression"):
            if node.type == "index_expression":
                inner = self.instantiated(node)
                if inner is None:
                    break
            elif node.type == "selector_expression":
                inner = node.child_by_field_id(_F.operand)
            else:
                inner = node.named_children[0] if node.named_children else None
            if inner is None:
                return
            node = inner
        if node.type != "identifier":
            self.visit(node)

    def conversion(self, node: Node) -> None:
        """``T(x)`` parsed as a conversion; with ``F[int](x)`` it is an explicit instantiation,
        a call of the generic function (which only the resolver can tell from a type)."""
        type_node = node.child_by_field_id(_F.type)
        if type_node is not None and type_node.type == "pointer_type":
            # ``*pkg.F[K, V](x)``: a conversion to a pointer type needs parentheses, so this is
            # the dereference of an instantiated call
            inner = type_node.named_children
            if len(inner) == 1 and inner[0].type == "generic_type":
                type_node = inner[0]
        if type_node is not None and type_node.type == "generic_type":
            name_node = type_node.child_by_field_id(_F.type)
            chain = type_chain(name_node, self.type_params)
            if chain is not None and name_node is not None:
                if len(chain) == 1:
                    chain = (self.lookup(chain[0]) or chain[0],)
                at = name_node.child_by_field_id(_F.name) or name_node
                self.f.refer(RefKind.CALL, chain, self.scope, at, arg_count=1)
            self.f.walk_types(
                type_node.child_by_field_id(_F.type_arguments), self.scope, self.type_params
            )
        else:
            self.f.walk_types(type_node, self.scope, self.type_params)
        operand = node.child_by_field_id(_F.operand)
        if operand is not None:
            self.visit(operand)

    def composite(self, node: Node) -> None:
        self.f.walk_types(node.child_by_field_id(_F.type), self.scope, self.type_params)
        body = node.child_by_field_id(_F.body)
        if body is not None:
            self.literal(body)

    def literal(self, body: Node) -> None:
        """A ``{...}`` literal value, nested ones (``[]T{{a: 1}}``) too: a bare name as a key
        is a struct field's name, not a variable read (in a map literal it would be one; the
        read is then only not recorded)."""
        for element in body.named_children:
            if element.type == "keyed_element":
                key = element.child_by_field_id(_F.key)
                value = element.child_by_field_id(_F.value)
                if key is not None and not is_bare_name(key):
                    self.visit(key)
                if value is not None:
                    self.visit(value)
            else:
                self.visit(element)

    def short_var(self, node: Node) -> None:
        left = node.child_by_field_id(_F.left)
        right = node.child_by_field_id(_F.right)
        if right is not None:
            self.visit(right)
        names = [n for n in left.named_children if n.type == "identifier"] if left else []
        values = self.paired_values(len(names), right.named_children if right else [])
        line = self.f.line(node.start_byte)
        for n, value in zip(names, values, strict=True):
            self.declare(self.f.text(n), line, value=value)

    def paired_values(self, count: int, values: list[Node]) -> list[Chain | None]:
        """The value each of ``count`` names gets: its own expression, or for ``x, err :=
        f()``, ``v, ok := m[k]``, ``t, ok := x.(T)`` the first name the one expression (a
        call's value is its first declared result) and the others nothing."""
        if len(values) == count:
            return [self.chain(v) for v in values]
        first = self.chain(values[0]) if len(values) == 1 and count else None
        return [first] + [None] * (count - 1) if count else []

    def var_decl(self, node: Node) -> None:
        for spec in specs(node):
            type_node = spec.child_by_field_id(_F.type)
            chain = type_chain(type_node, self.type_params)
            values = spec.child_by_field_id(_F.value)
            if values is not None:
                self.visit(values)
            self.f.walk_types(type_node, self.scope, self.type_params)
            names = spec.children_by_field_id(_F.name)
            paired = self.paired_values(len(names), values.named_children if values else [])
            for n, value in zip(names, paired, strict=True):
                self.declare(self.f.text(n), self.f.line(n.start_byte), type=chain, value=value)

    def range_clause(self, node: Node) -> None:
        left = node.child_by_field_id(_F.left)
        right = node.child_by_field_id(_F.right)
        if right is not None:
            self.visit(right)
        declares = any(c.type == ":=" for c in node.children)
        if left is None or not declares:
            if left is not None:
                self.visit(left)
            return
        names = [n for n in left.named_children if n.type == "identifier"]
        over = self.chain(right)
        for i, n in enumerate(names):
            value = (*over, "[i]") if over and i == 1 else None
            self.declare(self.f.text(n), self.f.line(n.start_byte), value=value)

    def type_switch(self, node: Node) -> None:
        self.push()
        alias = node.child_by_field_id(_F.alias)
        names = [self.f.text(n) for n in alias.named_children] if alias is not None else []
        value = node.child_by_field_id(_F.value)
        initializer = node.child_by_field_id(_F.initializer)
        if initializer is not None:
            self.visit(initializer)
        if value is not None:
            self.visit(value)
        subject = self.chain(value)
        for clause in node.named_children:
            if clause.type not in ("type_case", "default_case"):
                continue
            self.push()
            types = clause.children_by_field_id(_F.type)
            for t in types:
                self.f.walk_types(t, self.scope, self.type_params)
            one = type_chain(types[0], self.type_params) if len(types) == 1 else None
            for name in names:
                line = self.f.line(clause.start_byte)
                if one is not None:
                    self.declare(name, line, type=one)
                else:
                    self.declare(name, line, value=subject)
            for i, child in enumerate(clause.children):
                if child.is_named and clause.field_name_for_child(i) != "type":
                    self.visit(child)
            self.pop()
        self.pop()

    def func_literal(self, node: Node) -> None:
        self.push()
        self.declare_params(node.child_by_field_id(_F.parameters))
        result = node.child_by_field_id(_F.result)
        if result is not None and result.type == "parameter_list":
            self.declare_params(result)
        else:
            self.f.walk_types(result, self.scope, self.type_params)
        body = node.child_by_field_id(_F.body)
        if body is not None:
            self.visit(body)
        self.pop()

    def local_type(self, node: Node) -> None:
        """A type declared inside a function: its name shadows package-level ones."""
        for spec in node.named_children:
            name = spec.child_by_field_id(_F.name)
            if name is not None:
                self.declare(self.f.text(name), self.f.line(spec.start_byte))


_HANDLERS = {
    "call_expression": Scopes.call,
    "type_conversion_expression": Scopes.conversion,
    "composite_literal": Scopes.composite,
    "literal_value": Scopes.literal,
    "short_var_declaration": Scopes.short_var,
    "var_declaration": Scopes.var_decl,
    "const_declaration": Scopes.var_decl,
    "range_clause": Scopes.range_clause,
    "type_switch_statement": Scopes.type_switch,
    "func_literal": Scopes.func_literal,
    "type_declaration": Scopes.local_type,
}
# what the walk does with a node of each kind: its handler, a block scope, the names of a type,
# a name read; None for kinds that name nothing, in themselves or below (the rest are searched)
_INERT = (
    "field_identifier label_name package_identifier blank_identifier dot comment nil true false"
    " iota int_literal float_literal imaginary_literal rune_literal escape_sequence"
    " interpreted_string_literal interpreted_string_literal_content raw_string_literal"
    " raw_string_literal_content break_statement continue_statement goto_statement"
    " fallthrough_statement empty_statement"
).split()
_DISPATCH = {
    **dict.fromkeys(_INERT),
    **dict.fromkeys(_BLOCKS, Scopes.block),
    **dict.fromkeys(
        ("type_identifier", "qualified_type", "generic_type", "pointer_type"), Scopes.types
    ),
    "identifier": Scopes.read_name,
    "selector_expression": Scopes.read_selector,
    **_HANDLERS,
}
# ``_DISPATCH`` by the grammar's kind id (filled by :func:`load_kinds` once the grammar is
# loaded): a node's ``kind_id`` is an int, where its ``type`` is a new string to hash on every
# read (etcd: 380k nodes dispatched); a kind absent here (ERROR too) is searched
_BY_KIND: dict[int, Callable[[Scopes, Node], None] | None] = {}


def load_kinds(language: Language) -> None:
    """Fill ``_BY_KIND``: every kind id whose name ``_DISPATCH`` lists (a node's ``type`` is
    its kind's name, so the handler is the one its name gives)."""
    for kind in range(language.node_kind_count):
        name = language.node_kind_for_id(kind)
        if name in _DISPATCH:
            _BY_KIND[kind] = _DISPATCH[name]
