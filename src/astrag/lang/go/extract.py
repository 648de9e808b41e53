"""Go frontend: one file's source bytes -> :class:`~astrag.graph.facts.FileFacts`.

``queries/go.scm`` finds what the file declares at package level (functions, methods, types,
variables, constants, imports). Bodies are walked once with their lexical scopes, so that each
local name is bound exactly where Go binds it: a variable declared again in an inner block or a
closure (the ``r *http.Request`` of a handler inside a function that has a router ``r``) gets a
name of its own (``r#2``), and every use of it is written with that name. The resolver then
never has to guess which of two ``r``s a chain starts at.

Facts, as the resolver reads them:

* a method is a member of its receiver's type (parent ``Router``, qualname ``Router.Handle``),
  even in a file that does not declare the type; its receiver is a typed local binding;
* a struct's fields are ``field`` members; an embedded field is a field named after its type
  *and* a base of the struct (promotion is member lookup through bases); an interface's
  methods are members and its embedded interfaces bases;
* closures are no definitions: their calls belong to the function around them;
* ``T{...}``, ``&T{...}``, ``new(T)``, ``x.(T)`` and a conversion ``T(x)`` are written as the
  call ``T()``: the resolver gives an instance of ``T``; an explicit instantiation ``F[int](x)``
  is a call of ``F``;
* a result list's first type is the function's return type (``(T, error)`` -> ``T``);
* type parameters are locals without a type: unknown, and shadowing any package-level name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from tree_sitter import Node, Query, QueryCursor

from astrag.graph.facts import (
    Binding,
    Chain,
    Definition,
    DefKind,
    FileFacts,
    Import,
    Param,
    Reference,
    RefKind,
)
from astrag.lang.treesitter import Grammars, in_document_order, query_source

LANGUAGE = "go"
_QUERY_FILE = "go.scm"


def _load_go() -> object:
    import tree_sitter_go

    return tree_sitter_go.language()


GRAMMARS = Grammars({"go": _load_go})

_WHITESPACE = re.compile(r"\s+")
_VERSION = re.compile(r"^v\d+$")
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
_ELEMENT_TYPES = frozenset({"slice_type", "array_type", "implicit_length_array_type"})


@cache
def _query() -> Query:
    return Query(GRAMMARS.language("go"), query_source(__package__, _QUERY_FILE))


def extract(path: str, source: bytes, grammar: str = "go") -> FileFacts:
    tree = GRAMMARS.parser(grammar).parse(source)
    root = tree.root_node
    f = _File(path=path, source=source)
    captures = in_document_order(QueryCursor(_query()).captures(root))
    for node in captures.get("import.spec", ()):
        f.add_import(node)
    for kind, read in (
        ("definition.type", f.add_type),
        ("definition.alias", f.add_alias),
        ("definition.function", f.add_function),
        ("definition.method", f.add_function),
        ("definition.variable", f.add_variable),
    ):
        for node in captures.get(kind, ()):
            read(node)
    return FileFacts(
        path=path,
        language=LANGUAGE,
        lines=source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1),
        errors=_count_errors(root),
        definitions=tuple(sorted(f.definitions, key=lambda d: (d.start_byte, d.qualname))),
        references=tuple(f.references),
        imports=tuple(f.imports),
        bindings=tuple(f.bindings),
        docstring=_doc_comment(root.named_children[0]) if root.named_children else "",
    )


def _count_errors(root: Node) -> int:
    if not root.has_error:
        return 0
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
        elif node.has_error:
            stack.extend(node.children)
    return count


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def _doc_comment(node: Node) -> str:
    """The ``//`` comment lines right above a declaration (Go's doc comment convention)."""
    lines: list[str] = []
    prev = node.prev_sibling
    row = node.start_point[0]
    while prev is not None and prev.type == "comment" and prev.end_point[0] == row - 1:
        text = _text(prev)
        if text.startswith("//"):
            lines.append(text[2:].removeprefix(" "))
        elif text.startswith("/*"):
            lines.append(text[2:-2].strip())
        row = prev.start_point[0]
        prev = prev.prev_sibling
    return "\n".join(reversed(lines)).strip()


def _exported(name: str) -> bool:
    return name[:1].isupper()


def import_alias(import_path: str) -> str:
    """The name an import without an explicit name binds: the package's name, which by
    convention is the path's last element (``gopkg.in/yaml.v3`` -> ``yaml``, a trailing major
    version ``/v2`` skipped)."""
    parts = import_path.split("/")
    last = parts[-1]
    if _VERSION.match(last) and len(parts) > 1:
        last = parts[-2]
    last = last.split(".")[0]
    return last.removeprefix("go-").removesuffix("-go").replace("-", "_")


# ---------------------------------------------------------------------------- types


def type_chain(node: Node | None, type_params: frozenset[str] = frozenset()) -> Chain | None:
    """The principal named type of a type expression: ``*T`` and ``T[int]`` -> ``("T",)``,
    ``pkg.T`` -> ``("pkg", "T")``, ``[]T``/``map[K]T``/``chan T`` -> ``("T", "[]")``; None for
    type parameters and types without one name (functions, literal structs)."""
    if node is None:
        return None
    kind = node.type
    if kind == "type_identifier":
        name = _text(node)
        return None if name in type_params else (name,)
    if kind == "qualified_type":
        package, name = node.child_by_field_name("package"), node.child_by_field_name("name")
        return (_text(package), _text(name)) if package and name else None
    if kind in ("pointer_type", "parenthesized_type", "type_elem", "type_constraint"):
        inner = node.named_children
        return type_chain(inner[0], type_params) if len(inner) == 1 else None
    if kind == "generic_type":
        return type_chain(node.child_by_field_name("type"), type_params)
    if kind in _ELEMENT_TYPES or kind in ("map_type", "channel_type"):
        element = node.child_by_field_name("element" if kind != "map_type" else "value")
        if element is None and kind == "channel_type":
            element = node.child_by_field_name("value")
        inner = type_chain(element, type_params)
        return (*inner, "[]") if inner and inner[-1] != "[]" else None
    return None


def _type_names(node: Node | None) -> frozenset[str]:
    """The names a ``type_parameter_list`` (or a receiver's ``T[K, V]``) declares."""
    if node is None:
        return frozenset()
    names = []
    for child in node.named_children:
        if child.type == "type_parameter_declaration":
            names += [_text(n) for n in child.children_by_field_name("name")]
        elif child.type == "type_elem":  # a receiver's type arguments: bare names
            names += [_text(n) for n in child.named_children if n.type == "type_identifier"]
        elif child.type in ("type_identifier", "identifier"):
            names.append(_text(child))
    return frozenset(names)


def _receiver_type(receiver: Node) -> tuple[str, frozenset[str], str]:
    """(type name, its type parameters as the method names them, receiver name) of a
    method's receiver list ``(l *List[T])``."""
    for param in receiver.named_children:
        if param.type != "parameter_declaration":
            continue
        t = param.child_by_field_name("type")
        while t is not None and t.type in ("pointer_type", "parenthesized_type"):
            t = t.named_children[0] if t.named_children else None
        params: frozenset[str] = frozenset()
        if t is not None and t.type == "generic_type":
            params = _type_names(t.child_by_field_name("type_arguments"))
            t = t.child_by_field_name("type")
        name = param.child_by_field_name("name")
        return (_text(t) if t is not None else "", params, _text(name) if name else "")
    return "", frozenset(), ""


# ---------------------------------------------------------------------------- the file


@dataclass
class _File:
    path: str
    source: bytes
    definitions: list[Definition] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    bindings: list[Binding] = field(default_factory=list)
    _line_starts: list[int] = field(default_factory=list)

    def column(self, node: Node) -> int:
        """1-based column in characters (tree-sitter counts bytes)."""
        row, col = node.start_point
        start = node.start_byte - col
        prefix = self.source[start : node.start_byte]
        return (len(prefix.decode("utf-8", "replace")) if not prefix.isascii() else col) + 1

    def header(self, node: Node, body: Node | None) -> str:
        end = body.start_byte if body is not None else node.end_byte
        text = self.source[node.start_byte : end].decode("utf-8", "replace")
        return _WHITESPACE.sub(" ", text).strip()

    def define(self, node: Node, kind: DefKind, name: str, qualname: str, parent: str, **kw):
        self.definitions.append(
            Definition(
                kind=kind,
                name=name,
                qualname=qualname,
                parent=parent,
                start_line=node.start_point[0] + 1,
                end_line=node.end_point[0] + 1,
                start_byte=node.start_byte,
                end_byte=node.end_byte,
                exported=_exported(name),
                **kw,
            )
        )

    # ------------------------------------------------------------------ imports

    def add_import(self, spec: Node) -> None:
        path_node = spec.child_by_field_name("path")
        if path_node is None:
            return
        module = _text(path_node).strip('"`')
        name_node = spec.child_by_field_name("name")
        line = spec.start_point[0] + 1
        if name_node is None:
            self.imports.append(Import(module=module, name=None, alias=import_alias(module), line=line))
        elif name_node.type == "dot":
            self.imports.append(Import(module=module, name="*", alias="", line=line))
        elif name_node.type == "blank_identifier":
            self.imports.append(Import(module=module, name=None, alias="", line=line))
        else:
            self.imports.append(Import(module=module, name=None, alias=_text(name_node), line=line))

    # ------------------------------------------------------------------ types

    def add_alias(self, spec: Node) -> None:
        name = _text(spec.child_by_field_name("name"))
        target = type_chain(spec.child_by_field_name("type"))
        doc = _spec_doc(spec)
        self.define(spec, DefKind.TYPE_ALIAS, name, name, "", docstring=doc, type=target,
                    signature=self.header(spec, None)[:200])  # fmt: skip
        self.walk_types(spec.child_by_field_name("type"), "", frozenset())

    def add_type(self, spec: Node) -> None:
        name = _text(spec.child_by_field_name("name"))
        params = _type_names(spec.child_by_field_name("type_parameters"))
        body = spec.child_by_field_name("type")
        doc = _spec_doc(spec)
        bases: list[Chain] = []
        if body is not None and body.type == "struct_type":
            kind = DefKind.CLASS
            self.add_fields(body, name, params, bases)
            signature = f"type {name} struct"
        elif body is not None and body.type == "interface_type":
            kind = DefKind.INTERFACE
            self.add_interface_members(body, name, params, bases)
            signature = f"type {name} interface"
        else:
            # a named type of any other kind can have methods too (``type HandlerFunc func``)
            kind = DefKind.CLASS
            signature = "type " + self.header(spec, None)[:200]
            self.walk_types(body, "", params)
        self.define(spec, kind, name, name, "", docstring=doc, bases=tuple(bases),
                    signature=signature)  # fmt: skip

    def add_fields(self, struct: Node, owner: str, params: frozenset[str], bases: list) -> None:
        fields = next((c for c in struct.named_children if c.type == "field_declaration_list"), None)
        for decl in fields.named_children if fields is not None else ():
            if decl.type != "field_declaration":
                continue
            type_node = decl.child_by_field_name("type")
            chain = type_chain(type_node, params)
            names = decl.children_by_field_name("name")
            if not names:  # embedded: a field named after its type, and a base
                if chain is not None:
                    bases.append(chain)
                    self.define(decl, DefKind.FIELD, chain[-1], f"{owner}.{chain[-1]}", owner,
                                type=chain, docstring=_doc_comment(decl))  # fmt: skip
            for n in names:
                fname = _text(n)
                self.define(decl, DefKind.FIELD, fname, f"{owner}.{fname}", owner, type=chain,
                            docstring=_doc_comment(decl),
                            signature=self.header(decl, None)[:200])  # fmt: skip
            self.walk_types(type_node, owner, params)

    def add_interface_members(self, iface: Node, owner: str, params: frozenset, bases: list):
        for member in iface.named_children:
            if member.type == "method_elem":
                name = _text(member.child_by_field_name("name"))
                self.define(member, DefKind.METHOD, name, f"{owner}.{name}", owner,
                            signature=self.header(member, None), docstring=_doc_comment(member),
                            params=self.params(member.child_by_field_name("parameters"), params),
                            returns=self.result(member.child_by_field_name("result"), params),
                            modifiers=("abstract",))  # fmt: skip
                self.walk_types(member.child_by_field_name("parameters"), owner, params)
                self.walk_types(member.child_by_field_name("result"), owner, params)
            elif member.type == "type_elem" and len(member.named_children) == 1:
                chain = type_chain(member.named_children[0], params)
                if chain is not None and chain[-1] != "[]":
                    bases.append(chain)
                self.walk_types(member, owner, params)

    def walk_types(self, node: Node | None, scope: str, params: frozenset[str]) -> None:
        """TYPE references for every named type inside a type expression."""
        if node is None:
            return
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("type_identifier", "qualified_type"):
                chain = type_chain(n, params)
                if chain is not None:
                    at = n.child_by_field_name("name") if n.type == "qualified_type" else n
                    self.references.append(Reference(RefKind.TYPE, chain, scope,
                                                     at.start_point[0] + 1, self.column(at)))  # fmt: skip
                continue
            stack.extend(reversed(n.named_children))

    # ------------------------------------------------------------------ functions

    def params(self, plist: Node | None, type_params: frozenset[str]) -> tuple[Param, ...]:
        out: list[Param] = []
        for decl in plist.named_children if plist is not None else ():
            if decl.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            variadic = decl.type == "variadic_parameter_declaration"
            chain = type_chain(decl.child_by_field_name("type"), type_params)
            kind = "var_positional" if variadic else "positional"
            names = decl.children_by_field_name("name") or [None]
            for n in names:
                out.append(Param(name=_text(n) if n is not None else "_", annotation=chain,
                                 kind=kind))  # fmt: skip
        return tuple(out)

    def result(self, result: Node | None, type_params: frozenset[str]) -> Chain | None:
        if result is None:
            return None
        if result.type == "parameter_list":
            first = next((c for c in result.named_children if c.type == "parameter_declaration"),
                         None)  # fmt: skip
            return type_chain(first.child_by_field_name("type"), type_params) if first else None
        return type_chain(result, type_params)

    def add_function(self, node: Node) -> None:
        name = _text(node.child_by_field_name("name"))
        receiver = node.child_by_field_name("receiver")
        type_params = _type_names(node.child_by_field_name("type_parameters"))
        parent, recv_name = "", ""
        if receiver is not None:
            parent, recv_params, recv_name = _receiver_type(receiver)
            type_params |= recv_params
        qualname = f"{parent}.{name}" if parent else name
        plist = node.child_by_field_name("parameters")
        result = node.child_by_field_name("result")
        body = node.child_by_field_name("body")
        self.define(node, DefKind.METHOD if parent else DefKind.FUNCTION, name, qualname, parent,
                    signature=self.header(node, body), docstring=_doc_comment(node),
                    params=self.params(plist, type_params),
                    returns=self.result(result, type_params))  # fmt: skip
        scope = _Body(self, qualname, type_params)
        scope.push()
        for tp in sorted(type_params):
            scope.declare(tp, node.start_point[0] + 1)
        if receiver is not None and recv_name and parent:
            scope.declare(recv_name, node.start_point[0] + 1, type=(parent,))
        scope.declare_params(plist)
        if result is not None and result.type == "parameter_list":
            scope.declare_params(result)
        else:
            self.walk_types(result, qualname, type_params)
        self.walk_types(node.child_by_field_name("type_parameters"), qualname, type_params)
        if receiver is not None:
            self.walk_types(receiver, qualname, type_params)
        if body is not None:
            scope.visit(body)

    def add_variable(self, spec: Node) -> None:
        names = spec.children_by_field_name("name")
        type_node = spec.child_by_field_name("type")
        chain = type_chain(type_node)
        values_node = spec.child_by_field_name("value")
        values = values_node.named_children if values_node is not None else []
        body = _Body(self, "", frozenset())
        body.push()
        for i, n in enumerate(names):
            value = body.chain(values[i]) if len(values) == len(names) else None
            if len(values) == 1 and i == 0:
                value = body.chain(values[0])
            self.define(spec, DefKind.VARIABLE, _text(n), _text(n), "", type=chain, value=value,
                        signature=self.header(spec, None)[:200], docstring=_spec_doc(spec))
        self.walk_types(type_node, "", frozenset())
        for v in values:
            body.visit(v)


# ---------------------------------------------------------------------------- bodies


class _Body:
    """One function's (or one package-level initializer's) lexical scopes while its body is
    walked: binds locals under unique names, records references as written."""

    def __init__(self, f: _File, scope: str, type_params: frozenset[str]) -> None:
        self.f = f
        self.scope = scope
        self.type_params = type_params
        self.stack: list[dict[str, str]] = []
        self.used: dict[str, int] = {}

    def push(self) -> None:
        self.stack.append({})

    def pop(self) -> None:
        self.stack.pop()

    def lookup(self, name: str) -> str | None:
        for frame in reversed(self.stack):
            found = frame.get(name)
            if found is not None:
                return found
        return None

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
        self.f.bindings.append(Binding(self.scope, unique, line, type=type, value=value))

    def declare_params(self, plist: Node | None) -> None:
        for decl in plist.named_children if plist is not None else ():
            if decl.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            type_node = decl.child_by_field_name("type")
            chain = type_chain(type_node, self.type_params)
            if decl.type == "variadic_parameter_declaration" and chain and chain[-1] != "[]":
                chain = (*chain, "[]")
            for n in decl.children_by_field_name("name"):
                self.declare(_text(n), n.start_point[0] + 1, type=chain)
            self.f.walk_types(type_node, self.scope, self.type_params)

    # ------------------------------------------------------------------ chains

    def chain(self, node: Node | None) -> Chain | None:
        """An expression as an access path (None when it has no name to start from)."""
        if node is None:
            return None
        kind = node.type
        if kind == "identifier":
            name = _text(node)
            return (self.lookup(name) or name,)
        if kind == "selector_expression":
            operand = self.chain(node.child_by_field_name("operand"))
            fld = node.child_by_field_name("field")
            return (*operand, _text(fld)) if operand and fld is not None else None
        if kind == "call_expression":
            return self._call_chain(node)
        if kind in ("type_conversion_expression", "composite_literal", "type_assertion_expression"):
            made = type_chain(node.child_by_field_name("type"), self.type_params)
            return _called(made) if made and made[-1] != "[]" else None
        if kind == "index_expression":
            generic = self.instantiated(node)
            if generic is not None:
                return self.chain(generic)
            operand = self.chain(node.child_by_field_name("operand"))
            return (*operand, "[i]") if operand else None
        if kind == "slice_expression":
            return self.chain(node.child_by_field_name("operand"))
        if kind == "parenthesized_expression":
            inner = node.named_children
            return self.chain(inner[0]) if len(inner) == 1 else None
        if kind == "unary_expression":
            operator = node.child_by_field_name("operator")
            operand = self.chain(node.child_by_field_name("operand"))
            op = _text(operator) if operator is not None else ""
            if op in ("&", "*"):
                return operand
            if op == "<-" and operand:
                return (*operand, "[i]")
        return None

    def instantiated(self, node: Node) -> Node | None:
        """The generic function of ``F[T]`` when an index expression instantiates one rather
        than indexes a value (the grammar cannot tell ``New[string]`` from ``fs[i]``): its
        index is a type parameter, a predeclared type, a capitalised name or ``pkg.T``, and
        no local variable."""
        index = node.child_by_field_name("index")
        operand = node.child_by_field_name("operand")
        if index is None or operand is None:
            return None
        if index.type in ("identifier", "type_identifier"):
            name = _text(index)
            if name in self.type_params:
                return operand
            if self.lookup(name) is not None:
                return None
            typeish = name in _PREDECLARED_TYPES or name[:1].isupper()
        elif index.type == "selector_expression":
            root = index.child_by_field_name("operand")
            fld = index.child_by_field_name("field")
            typeish = (
                root is not None
                and root.type == "identifier"
                and self.lookup(_text(root)) is None
                and fld is not None
                and _text(fld)[:1].isupper()
            )
        else:
            typeish = index.type.endswith("_type")
        return operand if typeish else None

    def _call_chain(self, node: Node) -> Chain | None:
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "identifier" and _text(fn) in ("new", "make"):
            args = node.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            made = type_chain(first, self.type_params)
            if made and self.lookup(_text(fn)) is None:
                return _called(made) if made[-1] != "[]" else None
        callee = self.chain(fn)
        if not callee or callee[-1].endswith("()") or callee[-1] == "[i]":
            return None
        return _called(callee)

    # ------------------------------------------------------------------ the walk

    def visit(self, node: Node) -> None:
        kind = node.type
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, node)
        elif kind in _BLOCKS:
            self.push()
            self.visit_children(node)
            self.pop()
        elif kind in ("type_identifier", "qualified_type", "generic_type", "pointer_type"):
            self.f.walk_types(node, self.scope, self.type_params)
        elif kind in ("identifier", "selector_expression"):
            self.read(node)
        else:
            self.visit_children(node)

    def visit_children(self, node: Node) -> None:
        for child in node.named_children:
            self.visit(child)

    def read(self, node: Node) -> None:
        """A name or selector used as a value (a function value, a field read)."""
        chain = self.chain(node)
        if chain is None:
            return
        if node.type == "identifier" and (
            self.lookup(_text(node)) or chain[0] in _PREDECLARED or chain[0] == "_"
        ):
            return  # a local or a predeclared name: never a graph node
        at = node.child_by_field_name("field") if node.type == "selector_expression" else node
        self.f.references.append(
            Reference(RefKind.READ, chain, self.scope, at.start_point[0] + 1, self.f.column(at))
        )
        if node.type == "selector_expression":
            operand = node.child_by_field_name("operand")
            while operand is not None and operand.type == "selector_expression":
                operand = operand.child_by_field_name("operand")
            if operand is not None and operand.type != "identifier":
                self.visit(operand)

    def call(self, node: Node) -> None:
        fn = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        arg_nodes = args.named_children if args is not None else []
        if fn is not None:
            target, at = self._callee(fn)
            if target is not None and at is not None:
                variadic = any(a.type == "variadic_argument" for a in arg_nodes)
                self.f.references.append(
                    Reference(RefKind.CALL, target, self.scope, at.start_point[0] + 1,
                              self.f.column(at), arg_count=-1 if variadic else len(arg_nodes))
                )  # fmt: skip
            self._visit_callee(fn)
        for type_args in node.children_by_field_name("type_arguments"):
            self.f.walk_types(type_args, self.scope, self.type_params)
        for arg in arg_nodes:
            self.visit(arg)

    def _callee(self, fn: Node) -> tuple[Chain | None, Node | None]:
        """The chain a call's callee is written as, and its name node (the call's site)."""
        if fn.type == "identifier":
            return self.chain(fn), fn
        if fn.type == "selector_expression":
            return self.chain(fn), fn.child_by_field_name("field")
        if fn.type == "parenthesized_expression" and len(fn.named_children) == 1:
            return self._callee(fn.named_children[0])
        if fn.type == "index_expression":
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
                inner = node.child_by_field_name("operand")
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
        type_node = node.child_by_field_name("type")
        if type_node is not None and type_node.type == "pointer_type":
            # ``*pkg.F[K, V](x)``: a conversion to a pointer type needs parentheses, so this is
            # the dereference of an instantiated call
            inner = type_node.named_children
            if len(inner) == 1 and inner[0].type == "generic_type":
                type_node = inner[0]
        if type_node is not None and type_node.type == "generic_type":
            name_node = type_node.child_by_field_name("type")
            chain = type_chain(name_node, self.type_params)
            if chain is not None and name_node is not None:
                if len(chain) == 1:
                    chain = (self.lookup(chain[0]) or chain[0],)
                at = name_node.child_by_field_name("name") or name_node
                self.f.references.append(
                    Reference(RefKind.CALL, chain, self.scope, at.start_point[0] + 1,
                              self.f.column(at), arg_count=1)
                )  # fmt: skip
            self.f.walk_types(type_node.child_by_field_name("type_arguments"), self.scope,
                              self.type_params)  # fmt: skip
        else:
            self.f.walk_types(type_node, self.scope, self.type_params)
        operand = node.child_by_field_name("operand")
        if operand is not None:
            self.visit(operand)

    def composite(self, node: Node) -> None:
        self.f.walk_types(node.child_by_field_name("type"), self.scope, self.type_params)
        body = node.child_by_field_name("body")
        for element in body.named_children if body is not None else ():
            if element.type == "keyed_element":
                key, value = element.child_by_field_name("key"), element.child_by_field_name("value")
                # a struct literal's key is a field name, not a variable read
                if key is not None and not _is_bare_name(key):
                    self.visit(key)
                if value is not None:
                    self.visit(value)
            else:
                self.visit(element)

    def short_var(self, node: Node) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if right is not None:
            self.visit(right)
        self._declare_list(left, right, None, node)

    def _declare_list(self, left, right, type_chain_: Chain | None, node: Node) -> None:
        names = [n for n in (left.named_children if left is not None else [])
                 if n.type == "identifier"]  # fmt: skip
        values = right.named_children if right is not None else []
        line = node.start_point[0] + 1
        for i, n in enumerate(names):
            value = None
            if len(values) == len(names):
                value = self.chain(values[i])
            elif len(values) == 1 and i == 0:
                # ``x, err := f()``, ``v, ok := m[k]``, ``t, ok := x.(T)``: the first variable
                # gets the value (``f()``'s first result is its declared return type)
                value = self.chain(values[0])
            self.declare(_text(n), line, type=type_chain_, value=value)

    def var_decl(self, node: Node) -> None:
        for spec in _specs(node):
            type_node = spec.child_by_field_name("type")
            chain = type_chain(type_node, self.type_params)
            values = spec.child_by_field_name("value")
            if values is not None:
                self.visit(values)
            self.f.walk_types(type_node, self.scope, self.type_params)
            names = spec.children_by_field_name("name")
            vals = values.named_children if values is not None else []
            for i, n in enumerate(names):
                value = self.chain(vals[i]) if len(vals) == len(names) else None
                if len(vals) == 1 and i == 0:
                    value = self.chain(vals[0])
                self.declare(_text(n), n.start_point[0] + 1, type=chain, value=value)

    def range_clause(self, node: Node) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
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
            self.declare(_text(n), n.start_point[0] + 1, value=value)

    def for_statement(self, node: Node) -> None:
        self.push()
        for child in node.named_children:
            self.visit(child)
        self.pop()

    def type_switch(self, node: Node) -> None:
        self.push()
        alias = node.child_by_field_name("alias")
        names = [_text(n) for n in alias.named_children] if alias is not None else []
        value = node.child_by_field_name("value")
        initializer = node.child_by_field_name("initializer")
        if initializer is not None:
            self.visit(initializer)
        if value is not None:
            self.visit(value)
        subject = self.chain(value)
        for clause in node.named_children:
            if clause.type not in ("type_case", "default_case"):
                continue
            self.push()
            types = clause.children_by_field_name("type")
            for t in types:
                self.f.walk_types(t, self.scope, self.type_params)
            one = type_chain(types[0], self.type_params) if len(types) == 1 else None
            for name in names:
                line = clause.start_point[0] + 1
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
        self.declare_params(node.child_by_field_name("parameters"))
        result = node.child_by_field_name("result")
        if result is not None and result.type == "parameter_list":
            self.declare_params(result)
        else:
            self.f.walk_types(result, self.scope, self.type_params)
        body = node.child_by_field_name("body")
        if body is not None:
            self.visit(body)
        self.pop()

    def local_type(self, node: Node) -> None:
        """A type declared inside a function: its name shadows package-level ones."""
        for spec in node.named_children:
            name = spec.child_by_field_name("name")
            if name is not None:
                self.declare(_text(name), spec.start_point[0] + 1)


def _spec_doc(spec: Node) -> str:
    """A spec's doc comment: above it inside a group, else above its declaration."""
    prev = spec.prev_sibling
    return _doc_comment(spec if prev is not None and prev.type == "comment" else spec.parent)


def _specs(node: Node) -> Iterator[Node]:
    for child in node.named_children:
        if child.type in ("var_spec", "const_spec"):
            yield child
        elif child.type == "var_spec_list":
            yield from (c for c in child.named_children if c.type == "var_spec")


def _is_bare_name(node: Node) -> bool:
    inner = node.named_children
    return node.type == "literal_element" and len(inner) == 1 and inner[0].type == "identifier"


def _called(chain: Chain) -> Chain:
    return (*chain[:-1], chain[-1] + "()")


_HANDLERS = {
    "call_expression": _Body.call,
    "type_conversion_expression": _Body.conversion,
    "composite_literal": _Body.composite,
    "short_var_declaration": _Body.short_var,
    "var_declaration": _Body.var_decl,
    "const_declaration": _Body.var_decl,
    "range_clause": _Body.range_clause,
    "for_statement": _Body.for_statement,
    "type_switch_statement": _Body.type_switch,
    "func_literal": _Body.func_literal,
    "type_declaration": _Body.local_type,
    "field_identifier": lambda self, node: None,
    "label_name": lambda self, node: None,
    "package_identifier": lambda self, node: None,
}

# Go's predeclared identifiers (the universe block)
_PREDECLARED_FUNCS = frozenset(
    {
        "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make",
        "max", "min", "new", "panic", "print", "println", "real", "recover",
    }
)  # fmt: skip
_PREDECLARED_TYPES = frozenset(
    {
        "any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32",
        "float64", "int", "int8", "int16", "int32", "int64", "rune", "string", "uint", "uint8",
        "uint16", "uint32", "uint64", "uintptr",
    }
)  # fmt: skip
_PREDECLARED = _PREDECLARED_FUNCS | _PREDECLARED_TYPES | {"true", "false", "iota", "nil"}
PREDECLARED = _PREDECLARED
