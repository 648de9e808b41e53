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

from functools import cache

from tree_sitter import Node, Query, QueryCursor, Tree

from astrag.graph.facts import Chain, DefKind, FileFacts, Import, Param
from astrag.lang.go.scopes import Scopes, load_kinds
from astrag.lang.go.syntax import (
    Fields as _F,
)
from astrag.lang.go.syntax import (
    Recorder,
    doc_comment,
    import_alias,
    receiver_type,
    spec_doc,
    text,
    type_chain,
    type_names,
)
from astrag.lang.treesitter import Grammars, count_errors, in_document_order, query_source

LANGUAGE = "go"
_QUERY_FILE = "go.scm"


def _load_go() -> object:
    import tree_sitter_go

    return tree_sitter_go.language()


GRAMMARS = Grammars({"go": _load_go})


@cache
def _query() -> Query:
    return Query(GRAMMARS.language("go"), query_source(__package__, _QUERY_FILE))


def extract(path: str, source: bytes, grammar: str = "go", tree: Tree | None = None) -> FileFacts:
    tree = tree or GRAMMARS.parser(grammar).parse(source)
    if not _F.loaded:
        _F.load(GRAMMARS.language("go"), "go")
        load_kinds(GRAMMARS.language("go"))
    root = tree.root_node
    f = _File(path=path, source=source)
    cursor = QueryCursor(_query())
    cursor.set_max_start_depth(0)  # package-level declarations only (see queries/go.scm)
    captures = in_document_order(cursor.captures(root))
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
        errors=count_errors(root),
        definitions=tuple(sorted(f.definitions, key=lambda d: (d.start_byte, d.qualname))),
        references=tuple(f.references),
        imports=tuple(f.imports),
        bindings=tuple(f.bindings),
        docstring=_package_doc(root),
    )


def _package_doc(root: Node) -> str:
    """The package's doc comment: the comment right above the ``package`` clause, which
    comes after any other leading comments (a license header) in the tree."""
    clause = next((c for c in root.named_children if c.type == "package_clause"), None)
    return doc_comment(clause) if clause is not None else ""


class _File(Recorder):
    """Reads one file's package-level declarations into facts."""

    # ------------------------------------------------------------------ imports

    def add_import(self, spec: Node) -> None:
        path_node = spec.child_by_field_id(_F.path)
        if path_node is None:
            return
        module = text(path_node).strip('"`')
        name_node = spec.child_by_field_id(_F.name)
        line = self.line(spec.start_byte)
        if name_node is None:
            self.imports.append(
                Import(module=module, name=None, alias=import_alias(module), line=line)
            )
        elif name_node.type == "dot":
            self.imports.append(Import(module=module, name="*", alias="", line=line))
        elif name_node.type == "blank_identifier":
            self.imports.append(Import(module=module, name=None, alias="", line=line))
        else:
            self.imports.append(Import(module=module, name=None, alias=text(name_node), line=line))

    # ------------------------------------------------------------------ types

    def add_alias(self, spec: Node) -> None:
        name = text(spec.child_by_field_id(_F.name))
        target = type_chain(spec.child_by_field_id(_F.type))
        doc = spec_doc(spec)
        self.define(
            spec,
            DefKind.TYPE_ALIAS,
            name,
            name,
            "",
            docstring=doc,
            type=target,
            signature=self.header(spec, None)[:200],
        )
        self.walk_types(spec.child_by_field_id(_F.type), "", frozenset())

    def add_type(self, spec: Node) -> None:
        name = text(spec.child_by_field_id(_F.name))
        params = type_names(spec.child_by_field_id(_F.type_parameters))
        body = spec.child_by_field_id(_F.type)
        doc = spec_doc(spec)
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
        self.define(
            spec, kind, name, name, "", docstring=doc, bases=tuple(bases), signature=signature
        )

    def add_fields(self, struct: Node, owner: str, params: frozenset[str], bases: list) -> None:
        fields = next(
            (c for c in struct.named_children if c.type == "field_declaration_list"), None
        )
        for decl in fields.named_children if fields is not None else ():
            if decl.type != "field_declaration":
                continue
            type_node = decl.child_by_field_id(_F.type)
            chain = type_chain(type_node, params)
            names = decl.children_by_field_id(_F.name)
            if not names and chain is not None:  # embedded: named after its type, and a base
                bases.append(chain)
                self.define(
                    decl,
                    DefKind.FIELD,
                    chain[-1],
                    f"{owner}.{chain[-1]}",
                    owner,
                    type=chain,
                    docstring=doc_comment(decl),
                )
            for n in names:
                fname = text(n)
                self.define(
                    decl,
                    DefKind.FIELD,
                    fname,
                    f"{owner}.{fname}",
                    owner,
                    type=chain,
                    docstring=doc_comment(decl),
                    signature=self.header(decl, None)[:200],
                )
            self.walk_types(type_node, owner, params)

    def add_interface_members(self, iface: Node, owner: str, params: frozenset, bases: list):
        for member in iface.named_children:
            if member.type == "method_elem":
                name = text(member.child_by_field_id(_F.name))
                self.define(
                    member,
                    DefKind.METHOD,
                    name,
                    f"{owner}.{name}",
                    owner,
                    signature=self.header(member, None),
                    docstring=doc_comment(member),
                    params=self.params(member.child_by_field_id(_F.parameters), params),
                    returns=self.result(member.child_by_field_id(_F.result), params),
                    modifiers=("abstract",),
                )
                self.walk_types(member.child_by_field_id(_F.parameters), owner, params)
                self.walk_types(member.child_by_field_id(_F.result), owner, params)
            elif member.type == "type_elem" and len(member.named_children) == 1:
                chain = type_chain(member.named_children[0], params)
                if chain is not None and chain[-1] != "[]":
                    bases.append(chain)
                self.walk_types(member, owner, params)

    # ------------------------------------------------------------------ functions

    def params(self, plist: Node | None, type_params: frozenset[str]) -> tuple[Param, ...]:
        out: list[Param] = []
        for decl in plist.named_children if plist is not None else ():
            if decl.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            variadic = decl.type == "variadic_parameter_declaration"
            chain = type_chain(decl.child_by_field_id(_F.type), type_params)
            kind = "var_positional" if variadic else "positional"
            names = decl.children_by_field_id(_F.name) or [None]
            for n in names:
                out.append(
                    Param(name=text(n) if n is not None else "_", annotation=chain, kind=kind)
                )
        return tuple(out)

    def result(self, result: Node | None, type_params: frozenset[str]) -> Chain | None:
        if result is None:
            return None
        if result.type == "parameter_list":
            first = next(
                (c for c in result.named_children if c.type == "parameter_declaration"), None
            )
            return type_chain(first.child_by_field_id(_F.type), type_params) if first else None
        return type_chain(result, type_params)

    def add_function(self, node: Node) -> None:
        name = text(node.child_by_field_id(_F.name))
        receiver = node.child_by_field_id(_F.receiver)
        type_params = type_names(node.child_by_field_id(_F.type_parameters))
        parent, recv_name = "", ""
        if receiver is not None:
            parent, recv_params, recv_name = receiver_type(receiver)
            type_params |= recv_params
        qualname = f"{parent}.{name}" if parent else name
        plist = node.child_by_field_id(_F.parameters)
        result = node.child_by_field_id(_F.result)
        body = node.child_by_field_id(_F.body)
        self.define(
            node,
            DefKind.METHOD if parent else DefKind.FUNCTION,
            name,
            qualname,
            parent,
            signature=self.header(node, body),
            docstring=doc_comment(node),
            params=self.params(plist, type_params),
            returns=self.result(result, type_params),
        )
        scope = Scopes(self, qualname, type_params)
        scope.push()
        for tp in sorted(type_params):
            scope.declare(tp, self.line(node.start_byte))
        if receiver is not None and recv_name and parent:
            scope.declare(recv_name, self.line(node.start_byte), type=(parent,))
        scope.declare_params(plist)
        if result is not None and result.type == "parameter_list":
            scope.declare_params(result)
        else:
            self.walk_types(result, qualname, type_params)
        self.walk_types(node.child_by_field_id(_F.type_parameters), qualname, type_params)
        if receiver is not None:
            self.walk_types(receiver, qualname, type_params)
        if body is not None:
            scope.visit(body)

    def add_variable(self, spec: Node) -> None:
        names = spec.children_by_field_id(_F.name)
        type_node = spec.child_by_field_id(_F.type)
        chain = type_chain(type_node)
        values_node = spec.child_by_field_id(_F.value)
        values = values_node.named_children if values_node is not None else []
        body = Scopes(self, "", frozenset())
        body.push()
        for n, value in zip(names, body.paired_values(len(names), values), strict=True):
            self.define(
                spec,
                DefKind.VARIABLE,
                text(n),
                text(n),
                "",
                type=chain,
                value=value,
                signature=self.header(spec, None)[:200],
                docstring=spec_doc(spec),
            )
        self.walk_types(type_node, "", frozenset())
        for v in values:
            body.visit(v)
