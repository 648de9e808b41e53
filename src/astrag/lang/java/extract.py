"""Java frontend: one ``.java`` file -> :class:`FileFacts`, nothing resolved, no other file read.

The tags query (``queries/java.scm``) finds the definitions, local names and references; this
module names them the way javac's symbols are named in astrag's ids:

* classes, interfaces, enums, records and annotation types by their nesting (``Outer.Inner``;
  a local class inside method ``m`` is ``C.m.Local``); an anonymous class is ``$1``, ``$2``...
  in document order under its enclosing definition; an enum constant with a body is a class
  named after the constant;
* a constructor is the member ``constructor``; fields, enum constants and record components
  are fields; a name declared twice under one parent (overloads, a field and a method of one
  name) gets ``#2``, ``#3``... in its *qualname*, so each overload is a scope of its own (its
  parameters and locals, its anonymous classes) and a call can name the one it runs;
* a reference's scope is the innermost class or method around it: lambdas and field
  initialisers are transparent (their calls come from the method or class around them).

Calls are chains as the core expects (``("this", "m")``, ``("a", "b()", "c")``); ``new C()``,
``this(...)``, ``super(...)`` and an enum constant are calls of the class (the Java room's
``call_target`` picks the constructor); ``Outer.this`` and a cast ``(C) x`` are written as an
instance of their class, ``("C()",)``; each call records its arguments as chains, literals as
their type called (``"s"`` -> ``("String()",)``), for overload selection by argument type.
A typed local is recorded by its value (an instance of its type) rather than its type, so that
two same-named locals of sibling blocks each keep their own type (the core prefers a declared
type over position); parameters keep their declared type.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cache

from tree_sitter import Node, Query, QueryCursor, Tree

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
from astrag.lang.treesitter import (
    FieldIds,
    Grammars,
    count_errors,
    in_document_order,
    line_starts,
    query_source,
)


def _load_java() -> object:
    import tree_sitter_java

    return tree_sitter_java.language()


GRAMMARS = Grammars({"java": _load_java})


class _Fields(FieldIds):
    """The grammar's field ids, read once the grammar is loaded: ``child_by_field_id`` skips
    the search of the grammar's field names that ``child_by_field_name`` makes on every call
    (jackson-databind: 470k calls, half their cost)."""

    alternative = arguments = array = body = consequence = constructor = dimensions = 0
    element = field = left = name = object = operator = parameters = right = type = 0
    type_parameters = value = 0


_F = _Fields

_CLASS_KIND = {
    "class": DefKind.CLASS,
    "record": DefKind.CLASS,
    "enum": DefKind.ENUM,
    "interface": DefKind.INTERFACE,
    "annotation": DefKind.INTERFACE,
    "anonymous": DefKind.CLASS,
}
_LITERAL_TYPES = {
    "string_literal": "String",
    "text_block": "String",
    "character_literal": "char",
    "true": "boolean",
    "false": "boolean",
    "decimal_floating_point_literal": "double",
    "hex_floating_point_literal": "double",
}
_INTEGER_LITERALS = frozenset(
    {"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal"}
    | {"binary_integer_literal"}
)
_OPERATOR_EXPRESSIONS = frozenset(
    {"binary_expression", "unary_expression", "instanceof_expression", "ternary_expression"}
)
_BOOLEAN_OPERATORS = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||"})
_PRIMITIVES = frozenset({"integral_type", "floating_point_type", "boolean_type"})
_VISIBILITY = ("private", "protected", "public")
_KEPT_MODIFIERS = ("static", "abstract", "final", "default", "synchronized", "native")
_SPACES = re.compile(r"\s+")
_COMMENTS = frozenset({"line_comment", "block_comment"})


def extract(path: str, source: bytes, grammar_name: str, tree: Tree | None = None) -> FileFacts:
    """Parse one Java file (unless ``tree`` is its parse already) and return what it says
    about itself."""
    tree = tree or GRAMMARS.parser(grammar_name).parse(source)
    if not _F.loaded:
        _F.load(GRAMMARS.language("java"), "java")
    captures = in_document_order(QueryCursor(_facts_query()).captures(tree.root_node))
    extractor = _Extractor(source, captures)
    facts = extractor.run(tree.root_node)
    if path.rsplit("/", 1)[-1] == "package-info.java":
        # the package's documentation, which javadoc reads there only (elsewhere a comment
        # above `package` is a file header, a license)
        facts["docstring"] = extractor.package_doc(tree.root_node)
    return FileFacts(
        path=path,
        language="java",
        lines=source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1),
        errors=count_errors(tree.root_node),
        **facts,
    )


@cache
def _facts_query() -> Query:
    return Query(GRAMMARS.language("java"), query_source(__package__, "java.scm"))


def _merged(captures: dict[str, list[Node]], prefix: str) -> list[tuple[Node, str]]:
    """The captures named ``prefix.*`` in one document-ordered list of (node, suffix)."""
    found = [
        (node, name.partition(".")[2])
        for name, nodes in captures.items()
        if name.startswith(prefix)
        for node in nodes
    ]
    found.sort(key=lambda item: (item[0].start_byte, -item[0].end_byte))
    return found


class _Extractor:
    def __init__(self, source: bytes, captures: dict[str, list[Node]]) -> None:
        self.src = source
        self.ascii = source.isascii()
        self._starts = line_starts(source)
        self._lines: list[bytes] | None = None
        self.captures = captures
        # the byte intervals of classes (an anonymous one's body) and methods: their scopes
        self._scope_starts: list[int] = []
        self._scope_ends: list[int] = []
        self._scope_quals: list[str] = []
        self._scope_parents: list[int] = []  # index of the enclosing interval, -1 at the top
        self.parent_of: dict[str, str] = {}  # qualname -> its parent's
        self.kinds: dict[str, DefKind] = {}  # qualname of a class or method -> its kind
        self.self_types: dict[str, set[str]] = {}  # class qualname -> its self-type parameters
        # type parameter names declared anywhere in the file: never a class's name here
        self.type_params: set[str] = set()
        self.taken: dict[tuple[str, str], int] = {}
        self.anonymous: dict[str, int] = {}
        self.definitions: list[Definition] = []
        self.references: list[Reference] = []
        self.bindings: list[Binding] = []
        self.imports: list[Import] = []

    def run(self, root: Node) -> dict[str, object]:
        self.collect_imports(root)
        for node in self.captures.get("binding.type_parameter", ()):
            if node.named_children:
                self.type_params.add(self.text(node.named_children[0]))
        for node, kind in _merged(self.captures, "definition."):
            self.on_definition(node, kind)
        self.collect_bindings()
        self.collect_references()
        return {
            "definitions": tuple(self.definitions),
            "references": tuple(self.references),
            "imports": tuple(self.imports),
            "bindings": tuple(self.bindings),
            "docstring": "",
        }

    # ------------------------------------------------------------------ text and positions

    def text(self, node: Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def line(self, pos: int) -> int:
        """The 1-based line of byte ``pos``."""
        return bisect_right(self._starts, pos)

    def position(self, node: Node) -> tuple[int, int]:
        """1-based line and column (in characters; tree-sitter counts bytes) of a node."""
        start = node.start_byte
        row = bisect_right(self._starts, start) - 1
        byte_column = start - self._starts[row]
        if self.ascii:
            return row + 1, byte_column + 1
        if self._lines is None:
            self._lines = self.src.split(b"\n")
        return row + 1, len(self._lines[row][:byte_column].decode("utf-8", "replace")) + 1

    def scope_of(self, node: Node) -> str:
        """The qualname of the innermost class or method around ``node`` ("" at the top).

        Scopes are byte intervals registered in document order, looked up by bisection:
        ``Node.parent`` costs a walk down from the root in tree-sitter, once per level."""
        i = self.innermost(node.start_byte)
        return self._scope_quals[i] if i >= 0 else ""

    def innermost(self, pos: int) -> int:
        i = bisect_right(self._scope_starts, pos) - 1
        while i >= 0 and self._scope_ends[i] <= pos:
            i = self._scope_parents[i]
        return i

    # ------------------------------------------------------------------ types

    def type_chain(self, node: Node | None, scope: str) -> Chain | None:
        """The principal type a type node names: ``List<Foo>`` -> ``("List",)``, ``Foo[]`` ->
        ``("Foo", "[]")``, ``int`` -> ``("int",)``; None for ``void``, ``var``, a type
        parameter or anything else."""
        if node is None:
            return None
        kind = node.type
        if kind == "type_identifier":
            name = self.text(node)
            if name == "var" or name in self.type_params:
                return None
            return (name,)
        if kind == "scoped_type_identifier":  # ``Map.Entry``, ``org.acme.Node``: every part
            return tuple(self.text(c) for c in _scoped_parts(node)) or None
        if kind == "generic_type":
            return self.type_chain(node.named_children[0], scope) if node.named_children else None
        if kind == "array_type":
            element = self.type_chain(node.child_by_field_id(_F.element), scope)
            return (*element, "[]") if element else None
        if kind in _PRIMITIVES:
            return (self.text(node),)
        if kind == "annotated_type":
            inner = [c for c in node.named_children if not c.type.endswith("annotation")]
            return self.type_chain(inner[0], scope) if inner else None
        return None

    def instance_of(self, chain: Chain | None) -> Chain | None:
        """An instance of a type as a value chain (``Foo`` -> ``("Foo()",)``); arrays stay
        types (a value chain cannot say "an array of")."""
        if not chain or chain[-1] == "[]":
            return None
        return (*chain[:-1], chain[-1] + "()")

    # ------------------------------------------------------------------ definitions

    def qualify(self, parent: str, name: str) -> str:
        n = self.taken[(parent, name)] = self.taken.get((parent, name), 0) + 1
        own = name if n == 1 else f"{name}#{n}"
        return f"{parent}.{own}" if parent else own

    def on_definition(self, node: Node, kind: str) -> None:
        parent = self.scope_of(node)
        if kind in _CLASS_KIND:
            self.on_class(node, kind, parent)
        elif kind in ("method", "constructor"):
            self.on_method(node, kind, parent)
        elif kind in ("field", "component"):
            self.on_field(node, kind, parent)
        elif kind == "constant" and node.child_by_field_id(_F.body) is None:
            name = self.text(node.child_by_field_id(_F.name))
            self.add(
                node,
                DefKind.FIELD,
                name,
                self.qualify(parent, name),
                parent,
                modifiers=("static", "final"),
                type=(parent.rsplit(".", 1)[-1],),
            )

    def add(self, node: Node, kind: DefKind, name: str, qual: str, parent: str, **extra) -> None:
        self.definitions.append(
            Definition(
                kind,
                name,
                qual,
                parent,
                self.line(node.start_byte),
                self.line(node.end_byte),
                node.start_byte,
                node.end_byte,
                **extra,
            )
        )

    def modifiers(self, node: Node) -> tuple[tuple[str, ...], str, tuple[str, ...]]:
        """(kept modifiers, visibility, annotations as written without "@")."""
        mods: list[str] = []
        annotations: list[str] = []
        visibility = ""
        for child in node.named_children:
            if child.type != "modifiers":
                continue
            for m in child.children:
                if m.type in ("marker_annotation", "annotation"):
                    annotations.append(self.text(m).lstrip("@"))
                elif m.type in _VISIBILITY:
                    visibility = m.type
                elif m.type in _KEPT_MODIFIERS:
                    mods.append(m.type)
        return tuple(mods), visibility, tuple(annotations)

    def in_interface(self, parent: str) -> bool:
        owner = self.kinds.get(parent)
        return owner == DefKind.INTERFACE

    def visibility(self, declared: str, parent: str) -> tuple[str, bool]:
        """(visibility, exported): interface members are public; package-private is shown as
        public but not exported (other packages cannot see it)."""
        if not declared and self.in_interface(parent):
            declared = "public"
        return (declared or "public"), declared in ("public", "protected")

    def on_class(self, node: Node, kind: str, parent: str) -> None:
        if kind == "anonymous":  # a class_body: of ``new T() {...}`` or of an enum constant
            creation = node.parent
            if creation.type == "enum_constant":
                name = self.text(creation.child_by_field_id(_F.name))
                bases: tuple[Chain, ...] = ((parent.rsplit(".", 1)[-1],),)
            else:
                self.anonymous[parent] = n = self.anonymous.get(parent, 0) + 1
                name = f"${n}"
                base = self.type_chain(creation.child_by_field_id(_F.type), parent)
                bases = (base,) if base else ()
            qual = self.qualify(parent, name)
            self.register(node, qual, parent, DefKind.CLASS)
            self.add(
                creation,
                DefKind.CLASS,
                name,
                qual,
                parent,
                bases=bases,
                exported=False,
                modifiers=("anonymous",) if name.startswith("$") else (),
            )
            return
        name = self.text(node.child_by_field_id(_F.name))
        qual = self.qualify(parent, name)
        self.register(node, qual, parent, _CLASS_KIND[kind])
        mods, declared, annotations = self.modifiers(node)
        visibility, exported = self.visibility(declared, parent)
        bases, implements = self.heritage(node, kind, qual)
        self.note_self_types(node, qual, name)
        if kind in ("record", "annotation"):
            mods = (*mods, kind)
        self.add(
            node,
            _CLASS_KIND[kind],
            name,
            qual,
            parent,
            bases=bases,
            implements=implements,
            modifiers=mods,
            visibility=visibility,
            exported=exported,
            decorators=annotations,
            signature=self.signature(node),
            docstring=self.javadoc(node),
        )

    def register(self, node: Node, qual: str, parent: str, kind: DefKind) -> None:
        # (definitions come in document order, so the interval lists stay sorted)
        self._scope_parents.append(self.innermost(node.start_byte))
        self._scope_starts.append(node.start_byte)
        self._scope_ends.append(node.end_byte)
        self._scope_quals.append(qual)
        self.parent_of[qual] = parent
        self.kinds[qual] = kind

    def heritage(self, node: Node, kind: str, qual: str) -> tuple[tuple[Chain, ...], ...]:
        bases: list[Chain] = []
        implements: list[Chain] = []
        for child in node.named_children:
            if child.type == "superclass":
                bases.extend(self.type_list(child, qual))
            elif child.type == "super_interfaces":
                implements.extend(self.type_list(child, qual))
            elif child.type == "extends_interfaces":
                bases.extend(self.type_list(child, qual))
        return tuple(bases), tuple(implements)

    def type_list(self, node: Node, scope: str) -> list[Chain]:
        items = node.named_children
        if len(items) == 1 and items[0].type == "type_list":
            items = items[0].named_children
        return [c for c in (self.type_chain(i, scope) for i in items) if c]

    def on_method(self, node: Node, kind: str, parent: str) -> None:
        name = (
            "constructor" if kind == "constructor" else self.text(node.child_by_field_id(_F.name))
        )
        qual = self.qualify(parent, name)
        self.register(node, qual, parent, DefKind.METHOD)
        mods, declared, annotations = self.modifiers(node)
        if kind == "constructor":
            mods = (*mods, "constructor")
        elif self.in_interface(parent) and node.child_by_field_id(_F.body) is None:
            mods = (*mods, "abstract")
        visibility, exported = self.visibility(declared, parent)
        if node.type == "compact_constructor_declaration":
            params = self.record_components(node.parent.parent, qual)
        else:
            params = self.params(node.child_by_field_id(_F.parameters), qual)
        returns = None if kind == "constructor" else self.return_type(node, parent)
        self.add(
            node,
            DefKind.METHOD,
            name,
            qual,
            parent,
            params=params,
            returns=returns,
            modifiers=mods,
            visibility=visibility,
            exported=exported,
            decorators=annotations,
            signature=self.signature(node),
            docstring=self.javadoc(node),
        )

    def return_type(self, method: Node, parent: str) -> Chain | None:
        """The declared return type; a class's self-type parameter (``B`` of ``class
        Builder<B extends Builder<B>>``, the fluent-builder idiom) is the receiver: ``this``."""
        type_node = method.child_by_field_id(_F.type)
        if type_node is not None and type_node.type == "type_identifier":
            name = self.text(type_node)
            scope = parent
            while scope:
                if name in self.self_types.get(scope, ()):
                    return ("this",)
                scope = self.parent_of.get(scope, "")
        return self.type_chain(type_node, parent)

    def note_self_types(self, node: Node, qual: str, name: str) -> None:
        params = node.child_by_field_id(_F.type_parameters)
        for param in params.named_children if params is not None else ():
            kids = param.named_children
            bound = next((k for k in kids if k.type == "type_bound"), None)
            if (
                kids
                and bound is not None
                and any(_first_type_name(self, b) == name for b in bound.named_children)
            ):
                self.self_types.setdefault(qual, set()).add(self.text(kids[0]))

    def record_components(self, record: Node, scope: str) -> tuple[Param, ...]:
        return self.params(record.child_by_field_id(_F.parameters) if record else None, scope)

    def params(self, node: Node | None, scope: str) -> tuple[Param, ...]:
        out: list[Param] = []
        for p in node.named_children if node is not None else ():
            if p.type == "formal_parameter":
                name = p.child_by_field_id(_F.name)
                out.append(
                    Param(
                        self.text(name) if name else "",
                        self.type_chain(p.child_by_field_id(_F.type), scope),
                    )
                )
            elif p.type == "spread_parameter":
                types = [
                    c
                    for c in p.named_children
                    if c.type not in ("modifiers", "variable_declarator")
                ]
                declarator = next(
                    (c for c in p.named_children if c.type == "variable_declarator"), None
                )
                name = declarator.child_by_field_id(_F.name) if declarator else None
                element = self.type_chain(types[0], scope) if types else None
                out.append(Param(self.text(name) if name else "", element, kind="var_positional"))
        return tuple(out)

    def on_field(self, node: Node, kind: str, parent: str) -> None:
        """A field's declarator (``int a, b = 2;`` is two fields) or a record component."""
        name_node = node.child_by_field_id(_F.name)
        name = self.text(name_node)
        declaration = node if kind == "component" else node.parent
        mods, declared, annotations = self.modifiers(declaration)
        if kind == "component":
            mods, declared = ("final",), "private"
        elif self.in_interface(parent):
            mods = tuple(dict.fromkeys((*mods, "static", "final")))
        visibility, exported = self.visibility(declared, parent)
        field_type = self.type_chain(declaration.child_by_field_id(_F.type), parent)
        if node.child_by_field_id(_F.dimensions) is not None and field_type:
            field_type = (*field_type, "[]")  # ``int a[]``
        self.add(
            node if kind == "component" else declaration,
            DefKind.FIELD,
            name,
            self.qualify(parent, name),
            parent,
            type=field_type,
            modifiers=mods,
            visibility=visibility,
            exported=exported,
            decorators=annotations,
        )

    def signature(self, node: Node) -> str:
        body = node.child_by_field_id(_F.body)
        end = body.start_byte if body is not None else node.end_byte
        start = node.start_byte
        for child in node.children:  # the header starts after the annotations
            if child.type == "modifiers":
                kept = [m for m in child.children if "annotation" not in m.type]
                start = kept[0].start_byte if kept else child.end_byte
                break
        header = self.src[start:end].decode("utf-8", "replace")
        return _SPACES.sub(" ", header).strip().rstrip("{").strip()

    def package_doc(self, root: Node) -> str:
        """The Javadoc of the ``package`` declaration."""
        clause = next((c for c in root.named_children if c.type == "package_declaration"), None)
        return self.javadoc(clause) if clause is not None else ""

    def javadoc(self, node: Node) -> str:
        """The nearest ``/** */`` comment before the declaration, as javac finds it: other
        comments in between (``//@Immutable`` under commons-lang's StringUtils doc) do not
        hide it, anything else does."""
        prev = node.prev_named_sibling
        while prev is not None and prev.type in _COMMENTS and not self.text(prev).startswith("/**"):
            prev = prev.prev_named_sibling
        if prev is None or prev.type != "block_comment":
            return ""
        raw = self.text(prev)
        lines = [line.strip().lstrip("*").strip() for line in raw[3:-2].splitlines()]
        return "\n".join(line for line in lines if line).strip()

    # ------------------------------------------------------------------ imports

    def collect_imports(self, root: Node) -> None:
        for node in root.named_children:
            if node.type != "import_declaration":
                continue
            dotted = next(
                (c for c in node.named_children if c.type in ("scoped_identifier", "identifier")),
                None,
            )
            if dotted is None:
                continue
            parts = self.text(dotted).replace(" ", "").split(".")
            line = self.line(node.start_byte)
            if any(c.type == "asterisk" for c in node.children):
                self.imports.append(Import(".".join(parts), "*", "", line))
            elif len(parts) > 1:
                self.imports.append(Import(".".join(parts[:-1]), parts[-1], parts[-1], line))

    # ------------------------------------------------------------------ local names

    def bind(
        self,
        scope: str,
        name: Node | None,
        line: int,
        type_: Chain | None = None,
        value: Chain | None = None,
    ) -> None:
        if name is not None:
            self.bindings.append(Binding(scope, self.text(name), line, type_, value))

    def collect_bindings(self) -> None:
        c = self.captures
        components = {n.id for n in c.get("skip.parameter", ())}
        for node in c.get("binding.parameter", ()):
            if node.id in components:
                continue  # a record component is a field, not a local
            scope = self.scope_of(node)
            if node.type == "spread_parameter":
                decl = next(
                    (x for x in node.named_children if x.type == "variable_declarator"), None
                )
                types = [
                    x
                    for x in node.named_children
                    if x.type not in ("modifiers", "variable_declarator")
                ]
                element = self.type_chain(types[0], scope) if types else None
                name = decl.child_by_field_id(_F.name) if decl else None
                self.bind(
                    scope, name, self.line(node.start_byte), (*element, "[]") if element else None
                )
                continue
            self.bind(
                scope,
                node.child_by_field_id(_F.name),
                self.line(node.start_byte),
                self.type_chain(node.child_by_field_id(_F.type), scope),
            )
        for node in c.get("binding.untyped", ()):
            self.bind(self.scope_of(node), node, self.line(node.start_byte))
        for node in c.get("binding.local", ()):
            self.local_declaration(node)
        for node in c.get("binding.loop", ()):
            self.loop_variable(node)
        for node in c.get("binding.catch", ()):
            scope = self.scope_of(node)
            caught = next((x for x in node.named_children if x.type == "catch_type"), None)
            types = [self.type_chain(t, scope) for t in caught.named_children] if caught else []
            one = types[0] if len(types) == 1 else None  # a multi-catch is their common base
            self.bind(
                scope,
                node.child_by_field_id(_F.name),
                self.line(node.start_byte),
                value=self.instance_of(one),
            )
        for node in (*c.get("binding.resource", ()), *c.get("binding.pattern", ())):
            scope = self.scope_of(node)
            type_node = node.child_by_field_id(_F.type) or node.child_by_field_id(_F.right)
            declared = self.type_chain(type_node, scope)
            value = (
                self.instance_of(declared)
                if declared
                else self.value_chain(node.child_by_field_id(_F.value))
            )
            self.bind(
                scope, node.child_by_field_id(_F.name), self.line(node.start_byte), value=value
            )
        for node in c.get("binding.type_pattern", ()):
            scope = self.scope_of(node)
            kids = node.named_children
            if len(kids) == 2 and kids[1].type == "identifier":
                self.bind(
                    scope,
                    kids[1],
                    self.line(node.start_byte),
                    value=self.instance_of(self.type_chain(kids[0], scope)),
                )

    def local_declaration(self, node: Node) -> None:
        scope = self.scope_of(node)
        declared = self.type_chain(node.child_by_field_id(_F.type), scope)
        for declarator in node.named_children:
            if declarator.type != "variable_declarator":
                continue
            name = declarator.child_by_field_id(_F.name)
            line = self.line(declarator.start_byte)
            if declared and declarator.child_by_field_id(_F.dimensions) is None:
                if declared[-1] == "[]":
                    self.bind(scope, name, line, declared)
                else:
                    self.bind(scope, name, line, value=self.instance_of(declared))
            elif declared:
                self.bind(scope, name, line, (*declared, "[]"))
            else:  # ``var x = ...``: the initialiser's value
                self.bind(
                    scope,
                    name,
                    line,
                    value=self.value_chain(declarator.child_by_field_id(_F.value)),
                )

    def loop_variable(self, node: Node) -> None:
        scope = self.scope_of(node)
        declared = self.type_chain(node.child_by_field_id(_F.type), scope)
        line = self.line(node.start_byte)
        name = node.child_by_field_id(_F.name)
        if declared:
            self.bind(scope, name, line, value=self.instance_of(declared))
        else:
            iterated = self.value_chain(node.child_by_field_id(_F.value))
            self.bind(scope, name, line, value=(*iterated, "[i]") if iterated else None)

    # ------------------------------------------------------------------ value chains

    def value_chain(self, node: Node | None) -> Chain | None:
        """An expression as a chain, or None when it is none (an operator, a lambda...)."""
        if node is None:
            return None
        kind = node.type
        if kind in ("identifier", "this", "super"):
            return (self.text(node),)
        if kind == "parenthesized_expression":
            inner = node.named_children
            return self.value_chain(inner[0]) if len(inner) == 1 else None
        if kind == "field_access":
            obj = node.child_by_field_id(_F.object)
            fld = node.child_by_field_id(_F.field)
            if fld is not None and fld.type == "this":  # ``Outer.this``
                outer = self.value_chain(obj)
                return self.instance_of(outer)
            base = self.value_chain(obj)
            return (*base, self.text(fld)) if base and fld is not None else None
        if kind == "method_invocation":
            name = node.child_by_field_id(_F.name)
            obj = node.child_by_field_id(_F.object)
            base = self.value_chain(obj) if obj is not None else ()
            return (
                (*base, self.text(name) + "()") if base is not None and name is not None else None
            )
        if kind == "object_creation_expression":
            scope = self.scope_of(node)
            return self.instance_of(self.type_chain(node.child_by_field_id(_F.type), scope))
        if kind == "cast_expression":
            return self.instance_of(
                self.type_chain(node.child_by_field_id(_F.type), self.scope_of(node))
            )
        if kind == "array_access":
            base = self.value_chain(node.child_by_field_id(_F.array))
            return (*base, "[i]") if base else None
        literal = self.literal_type(node)
        return (literal + "()",) if literal else None

    def operator_type(self, node: Node) -> str | None:
        """What an operator expression is, where its operator alone says: a comparison or a
        logical operator is a boolean, ``+`` with a string literal operand a String."""
        if node.type == "instanceof_expression":
            return "boolean"
        if node.type == "ternary_expression":  # ``c ? " " : "\n"``: both branches agree
            sides = [node.child_by_field_id(f) for f in (_F.consequence, _F.alternative)]
            types = {self.literal_type(x) if x is not None else None for x in sides}
            return types.pop() if len(types) == 1 else None
        if node.type == "unary_expression":
            return "boolean" if node.child_by_field_id(_F.operator).type == "!" else None
        if node.type != "binary_expression":
            return None
        op = node.child_by_field_id(_F.operator).type
        if op in _BOOLEAN_OPERATORS:
            return "boolean"
        if op == "+":
            sides = (node.child_by_field_id(_F.left), node.child_by_field_id(_F.right))
            if any(
                s.type in ("string_literal", "text_block")
                or (s.type == "binary_expression" and self.operator_type(s) == "String")
                for s in sides
            ):
                return "String"
        return None

    def literal_type(self, node: Node) -> str | None:
        kind = node.type
        if kind in _OPERATOR_EXPRESSIONS:
            return self.operator_type(node)
        if kind in _INTEGER_LITERALS:
            return "long" if self.text(node)[-1:] in ("l", "L") else "int"
        if kind == "decimal_floating_point_literal" and self.text(node)[-1:] in ("f", "F"):
            return "float"
        if kind == "class_literal":
            return "Class"
        return _LITERAL_TYPES.get(kind)

    def argument_chains(self, args: Node | None) -> tuple[int, tuple[Chain | None, ...]]:
        if args is None:
            return 0, ()
        items = args.named_children
        items = [a for a in items if a.type not in ("line_comment", "block_comment")]
        return len(items), tuple(self.value_chain(a) for a in items)

    # ------------------------------------------------------------------ references

    def add_ref(
        self,
        kind: RefKind,
        chain: Chain,
        at: Node,
        scope: str,
        args: Node | None = None,
        count: int | None = None,
    ) -> None:
        n, chains = self.argument_chains(args) if count is None else (count, ())
        line, column = self.position(at)
        self.references.append(Reference(kind, chain, scope, line, column, n, (), chains))

    def collect_references(self) -> None:
        c = self.captures
        for node in c.get("reference.call", ()):
            name = node.child_by_field_id(_F.name)
            obj = node.child_by_field_id(_F.object)
            base = self.value_chain(obj) if obj is not None else ()
            chain = (*(base if base is not None else ("?",)), self.text(name))
            self.add_ref(
                RefKind.CALL,
                chain,
                name,
                self.scope_of(node),
                node.child_by_field_id(_F.arguments),
            )
        for node in c.get("reference.new", ()):
            self.on_new(node)
        for node in c.get("reference.constructor", ()):
            ctor = node.child_by_field_id(_F.constructor)
            if ctor is not None and node.child_by_field_id(_F.object) is None:
                self.add_ref(
                    RefKind.CALL,
                    (ctor.type,),
                    ctor,
                    self.scope_of(node),
                    node.child_by_field_id(_F.arguments),
                )
        for node in c.get("reference.methodref", ()):
            self.on_method_reference(node)
        for node in c.get("reference.enum", ()):
            scope = self.scope_of(node)
            enum = scope.rsplit(".", 1)[-1]
            self.add_ref(
                RefKind.CALL,
                (enum,),
                node.child_by_field_id(_F.name),
                scope,
                node.child_by_field_id(_F.arguments),
            )
        self.collect_types()

    def on_new(self, node: Node) -> None:
        type_node = node.child_by_field_id(_F.type)
        scope = self.scope_of(node)
        chain = self.type_chain(type_node, "")  # a type parameter cannot be instantiated
        if not chain or chain[-1] == "[]":
            return
        outer = next(
            (
                x
                for x in node.named_children
                if x.end_byte <= type_node.start_byte
                and x.type not in ("type_arguments",)
                and "annotation" not in x.type
            ),
            None,
        )
        if outer is not None:  # ``outer.new Inner()``: a member class of outer's class
            base = self.value_chain(outer)
            chain = (*(base if base else ("?",)), *chain)
        at = _last_identifier(type_node)
        self.add_ref(RefKind.CALL, chain, at, scope, node.child_by_field_id(_F.arguments))

    def on_method_reference(self, node: Node) -> None:
        kids = node.children
        colons = next((i for i, k in enumerate(kids) if k.type == "::"), None)
        if colons is None or colons + 1 >= len(kids):
            return
        target = kids[colons + 1]
        receiver = kids[0]
        scope = self.scope_of(node)
        if receiver.type in (
            "type_identifier",
            "scoped_type_identifier",
            "generic_type",
            "array_type",
        ):
            base = self.type_chain(receiver, scope)
        else:
            base = self.value_chain(receiver)
        if target.type == "new":
            if base and base[-1] != "[]":
                self.add_ref(RefKind.CALL, base, target, scope, count=-1)
            return
        self.add_ref(RefKind.CALL, (*(base or ("?",)), self.text(target)), target, scope, count=-1)

    def collect_types(self) -> None:
        # part of a longer name (which is the reference), or a type parameter's declaration
        skip = {n.id for n in self.captures.get("skip.type", ())}
        for node in self.captures.get("reference.type", ()):
            if node.id in skip:
                continue
            scope = self.scope_of(node)
            chain = self.type_chain(node, scope)
            if chain and chain[0] not in ("var",):
                self.add_ref(RefKind.TYPE, chain, _last_identifier(node), scope, count=-1)
        for node in self.captures.get("reference.annotation", ()):
            parts = tuple(self.text(node).replace(" ", "").split("."))
            # the name's scope is its annotation's: no scope starts between ``@`` and the name
            scope = self.scope_of(node)
            self.add_ref(RefKind.TYPE, parts, _last_identifier(node), scope, count=-1)


def _first_type_name(x: _Extractor, node: Node) -> str:
    """``AbstractBuilder`` of ``AbstractBuilder<T, B>`` (or of ``a.AbstractBuilder<...>``)."""
    if node.type == "generic_type" and node.named_children:
        node = node.named_children[0]
    return x.text(_last_identifier(node))


def _scoped_parts(node: Node) -> list[Node]:
    """The identifiers of a qualified type name in order (``org.acme.Node`` nests as
    ``((org . acme) . Node)``; an annotated part ``@A Node`` keeps its name)."""
    parts: list[Node] = []
    for child in node.named_children:
        if child.type == "scoped_type_identifier":
            parts += _scoped_parts(child)
        elif child.type in ("type_identifier", "identifier"):
            parts.append(child)
    return parts


def _last_identifier(node: Node) -> Node:
    """The simple name at the end of a (scoped, generic) type or name: where javac puts a site."""
    while True:
        if node.type == "generic_type" and node.named_children:
            node = node.named_children[0]
        elif node.type in ("scoped_type_identifier", "scoped_identifier") and node.named_children:
            node = node.named_children[-1]
        else:
            return node
