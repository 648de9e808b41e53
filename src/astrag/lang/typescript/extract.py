"""TypeScript / JavaScript frontend: ``(path, bytes) -> FileFacts`` for the ``typescript``,
``tsx`` and ``javascript`` grammars.

How it works. One tree-sitter query per grammar (``queries/typescript.scm``, shared by the
typescript and tsx grammars, and ``queries/javascript.scm``) captures every node the frontend
cares about; Python only looks at captured nodes and at small neighbourhoods of them (a parent, a
member-expression spine, a parameter list), never at the whole tree. Three passes:

1. *Definitions.* Definition-like captures are visited in document order with a stack of the
   enclosing definitions, which gives each one its parent and qualname. The same pass records
   module-level variables, CommonJS exports, ``require`` imports, the bindings of
   ``const/let/var`` declarations and ``this.x = ...`` candidates. Every definition that forms a
   scope (class, interface, enum, type alias, function, method, namespace) adds its byte interval
   to a :class:`_Scopes` index; each decorator adds an interval naming the definition it
   decorates, so ``@Injectable()`` is a call made by the class it decorates.
2. *Bindings.* Parameters, loop variables and catch parameters, scoped with the index. Every name
   bound inside a scope is remembered so that reads of it are dropped whatever the order.
3. *References.* Calls, ``new``, types and reads, scoped with the index.

Ranges. A definition spans its declaration node: for exported declarations the inner declaration
(never the ``export_statement``), and never the decorators. A definition bound by a declarator
(``const f = () => {}``, ``const C = class {}``, a module variable) spans from the ``const`` /
``let`` / ``var`` keyword when it is the statement's first declarator (from its name otherwise)
to the end of the declarator, so ``start_line`` is the keyword's line. CommonJS definitions
(``exports.f = ...``) span the assignment expression.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from functools import cache
from operator import attrgetter, itemgetter

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
from astrag.lang.aliases import marked
from astrag.lang.treesitter import Grammars, count_errors, in_document_order, query_source
from astrag.lang.typescript import generics, narrowing
from astrag.lang.typescript.composed import ComposedTypes
from astrag.lang.typescript.contextual import ContextualTypes
from astrag.lang.typescript.nodes import FUNCTION_NODES, climb
from astrag.lang.typescript.nodes import SIMPLE_CHAIN as _SIMPLE_CHAIN
from astrag.lang.typescript.nodes import first_named as _first_named
from astrag.lang.typescript.nodes import unwrap as _unwrap
from astrag.lang.typescript.recover import recover


def _load_typescript() -> object:
    import tree_sitter_typescript

    return tree_sitter_typescript.language_typescript()


def _load_tsx() -> object:
    import tree_sitter_typescript

    return tree_sitter_typescript.language_tsx()


def _load_javascript() -> object:
    import tree_sitter_javascript

    return tree_sitter_javascript.language()


GRAMMARS = Grammars(
    {"typescript": _load_typescript, "tsx": _load_tsx, "javascript": _load_javascript}
)
_PACKAGE = "astrag.lang.typescript"

_SIGNATURE_MAX = 300

# Names a READ of which would only ever resolve to the runtime, never to the repository.
_GLOBALS = frozenset(
    {
        "undefined", "console", "Math", "JSON", "Object", "Array", "Promise", "window",
        "document", "process", "require", "module", "exports", "globalThis", "arguments",
        "NaN", "Infinity", "String", "Number", "Boolean", "Symbol", "Error", "TypeError",
        "Date", "RegExp", "Map", "Set", "WeakMap", "WeakSet", "Reflect", "Proxy", "BigInt",
        "Buffer", "__dirname", "__filename", "global",
    }
)  # fmt: skip

_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "generator_function"})
_BOUND_VALUES = _FUNCTION_VALUES | {"class"}


def _bound_value(value: Node | None) -> bool:
    """Whether a declarator's value is a definition of its own: a class, or a function also
    in parentheses or a cast (``((arg) => ...) as T``, as the compiler names it)."""
    if value is None:
        return False
    inner = _unwrap(value)
    return value.type in _BOUND_VALUES or (inner is not None and inner.type in _FUNCTION_VALUES)


_UNSEEN = object()  # a node not looked up yet (``_Extractor.up``)

_SCOPE_KINDS = frozenset(
    {
        DefKind.CLASS,
        DefKind.INTERFACE,
        DefKind.ENUM,
        DefKind.TYPE_ALIAS,
        DefKind.FUNCTION,
        DefKind.METHOD,
    }
)
_BODY_KINDS = frozenset({DefKind.FUNCTION, DefKind.METHOD})  # scopes that own local bindings
# scopes a second definition of their qualname names ``qualname#N`` (see scope_key)
_NUMBERED = _BODY_KINDS | {DefKind.CLASS}
# what declares members: a type alias of an object type (``type Options = { handler: … }``)
# declares them as an interface does, and the compiler names them ``Options.handler``
_MEMBER_OWNERS = frozenset({DefKind.CLASS, DefKind.INTERFACE, DefKind.TYPE_ALIAS})
# mapped types over T that keep each of T's members (the compiler's homomorphic mapped types,
# and NonNullable<T> of an object type, which is T): ``type F = Readonly<{ raw(): X }>``
# declares ``F.raw`` as ``type F = { raw(): X }`` does, and the compiler names it so
# what a block-scoped name's declaration sits in on the way up to its declaration
_PATTERN_PARTS = frozenset(
    {"variable_declarator", "object_pattern", "array_pattern", "pair_pattern",
     "shorthand_property_identifier_pattern", "assignment_pattern", "rest_pattern",
     "object_assignment_pattern"}
)  # fmt: skip
# what ends the scope of a ``const``/``let``: a block, a ``for`` head, a ``switch``'s cases
_BLOCKS = frozenset(
    {"statement_block", "for_statement", "for_in_statement", "switch_body", "class_static_block",
     "program"}
)  # fmt: skip
_MEMBER_KEEPING = frozenset({"Readonly", "Partial", "Required", "NonNullable"})
# definitions that give their qualname's plain id to a later function or class: the rule of
# graph/symbols.py's primary_definitions, kept here too so that the room's fingerprint (what
# makes stored facts re-extract) covers the scope names it gives
_YIELDING = frozenset({DefKind.VARIABLE, DefKind.FIELD, DefKind.INTERFACE, DefKind.TYPE_ALIAS})

# Anonymous tokens that are modifiers, and the modifier each one means.
_MODIFIER_TOKENS = {
    "static": "static",
    "async": "async",
    "abstract": "abstract",
    "readonly": "readonly",
    "get": "getter",
    "set": "setter",
    "*": "generator",
    "declare": "declare",
    "?": "optional",
}
# facts.py's listing order, so modifier tuples do not depend on how the source orders them.
_MODIFIER_ORDER = {
    name: i
    for i, name in enumerate(
        (
            "static async abstract readonly getter setter constructor overload default_export "
            "generator arrow declare optional namespace"
        ).split()
    )
}

# Parameter lists that belong to a type or a body-less signature and therefore bind nothing.
_SIGNATURE_ONLY = frozenset(
    {
        "function_type",
        "constructor_type",
        "method_signature",
        "abstract_method_signature",
        "function_signature",
        "call_signature",
        "construct_signature",
    }
)

# What ``x!`` may sit in without being a read: a callee, a chain part, or a target.
_NON_NULL = frozenset({"non_null_expression"})
_NON_NULL_SKIP = frozenset(
    {
        "member_expression", "call_expression", "new_expression", "decorator",
        "class_heritage", "extends_clause", "update_expression", "ERROR", "non_null_expression",
    }
)  # fmt: skip
# type_identifier parents where it is a declared name or is reported as INHERIT/IMPLEMENT.
_TYPE_SKIP = frozenset(
    {
        "class_declaration", "abstract_class_declaration", "class", "interface_declaration",
        "type_parameter", "nested_type_identifier", "implements_clause", "extends_type_clause",
        "infer_type",
    }
)  # fmt: skip
_HERITAGE_TYPES = frozenset({"implements_clause", "extends_type_clause"})
_NULLISH = frozenset({"null", "undefined", "void"})
# union members no repository type is (``string | JSXNode``, ``Foo | (() => Foo)``): code
# using a member the repository type declares has narrowed them away, as the compiler checks
_MEMBERLESS = frozenset(
    {"predefined_type", "literal_type", "template_literal_type", "function_type", "object_type"}
)
_OPAQUE = frozenset({"any", "unknown"})  # predefined types that make a union what they are
# mapped types over their first argument that keep its members' declarations: a member of
# ``Required<Options>`` is ``Options``'s (the compiler's go-to-definition lands there too)
_UNWRAP_ALWAYS = frozenset({"Readonly", "Partial", "Required", "NonNullable", "Omit", "Pick"})
# where an anonymous function is a value passed or returned, not a named definition's body
_CALLBACK_PARENTS = frozenset(
    {"arguments", "return_statement", "parenthesized_expression", "pair", "array",
     "assignment_expression", "binary_expression", "ternary_expression", "call_expression"}
)  # fmt: skip
# array methods whose callback receives an element first
_ELEMENT_CALLBACKS = frozenset(
    {"forEach", "map", "filter", "find", "findLast", "findIndex", "findLastIndex", "some",
     "every", "flatMap", "sort"}
)  # fmt: skip
# generic collections whose elements are all of their one type argument
_ELEMENT_GENERICS = frozenset(
    {"Array", "ReadonlyArray", "Set", "ReadonlySet", "Iterable", "IterableIterator", "Iterator",
     "AsyncIterable", "AsyncIterableIterator"}
)  # fmt: skip
# generic mappings, whose second type argument is the mapped values' type
_MAPPING_GENERICS = frozenset({"Map", "ReadonlyMap", "WeakMap", "Record"})
# return types that stand for their type argument: what ``await f()`` gives (the value chain
# drops the ``await``). Not ``Observable<T>``: calling ``from(x)`` gives an Observable, whose
# ``subscribe``/``pipe`` are what ``from(x).subscribe()`` calls.
_UNWRAP_RETURNS = frozenset({"Promise"})

_JSDOC_GUTTER = re.compile(r"^[ \t]*(?:\* ?)?", re.MULTILINE)
_JSDOC_TRAILING = re.compile(r"[ \t\r]+$", re.MULTILINE)
_SPACE_BYTES = frozenset(b" \t\r\n")
_DECORATOR_END_BYTES = frozenset(
    b")$_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
)
_SIMPLE_TEXTS: dict[bytes, bool] = {}  # raw text -> whether _SIMPLE_CHAIN matches it
_CACHE_LIMIT = 1 << 16
_NAME_VALUES = frozenset({"identifier", "member_expression"})  # an alias's value, if plain
_UNKNOWN: Chain = ("?",)  # the chain of an expression no access path describes
_SPACE_AFTER_OPEN = re.compile(r"([(\[<]) ")
_SPACE_BEFORE_CLOSE = re.compile(r" ([)\]>])")

# Definition-pass captures, in the order handlers run for nodes that start and end together:
# a declarator's binding is recorded before the function it may define is pushed.
_DEF_TAGS = (
    "binding.declarator",
    "export.statement",
    "assignment.member",
    "definition.namespace",
    "definition.class",
    "definition.interface",
    "definition.enum",
    "definition.type_alias",
    "definition.function",
    "definition.method",
    "definition.field",
    "definition.object_member",
    "definition.named_function",
)


def extract(path: str, source: bytes, grammar_name: str, tree: Tree | None = None) -> FileFacts:
    """Parse one TypeScript/TSX/JavaScript file (unless ``tree`` is its parse already) and
    return what it says about itself."""
    parser = GRAMMARS.parser(grammar_name)
    tree = tree or parser.parse(source)
    facts = _facts(source, tree, grammar_name)
    if tree.root_node.has_error:
        # a damaged file: the statements that parse alone may hold more (recover.py)
        recovered = recover(parser, source)
        if recovered is not None:
            more = _facts(recovered.source, recovered.tree, grammar_name)
            if len(more["definitions"]) > len(facts["definitions"]):  # type: ignore[arg-type]
                facts = more
    return FileFacts(
        path=path,
        language="javascript" if grammar_name == "javascript" else "typescript",
        lines=_count_lines(source),
        errors=count_errors(tree.root_node),
        **facts,
    )


def damaged_spans(source: bytes, grammar_name: str) -> list[tuple[int, int]] | None:
    """The lines ``extract`` could not read in a damaged file (1-based, inclusive) when it
    recovered statements from it; None when it read the whole parse as it is."""
    parser = GRAMMARS.parser(grammar_name)
    tree = parser.parse(source)
    if not tree.root_node.has_error:
        return None
    recovered = recover(parser, source)
    if recovered is None:
        return None
    whole = _facts(source, tree, grammar_name)["definitions"]
    more = _facts(recovered.source, recovered.tree, grammar_name)["definitions"]
    return list(recovered.spans) if len(more) > len(whole) else None  # type: ignore[arg-type]


def _facts(source: bytes, tree: Tree, grammar_name: str) -> dict[str, object]:
    captures = in_document_order(QueryCursor(_facts_query(grammar_name)).captures(tree.root_node))
    return _Extractor(source, captures, _field_ids(grammar_name)).run()


@dataclass(frozen=True, slots=True)
class _Fields:
    """A grammar's ids of the node fields the frontend reads (0: a field the grammar lacks,
    which no node has). ``child_by_field_id`` costs a third of ``child_by_field_name``, which
    looks the name up among the grammar's field names on every call, and the frontend makes
    close to a million such lookups on a large repository; the ids differ between grammars."""

    alias: int
    arguments: int
    body: int
    constructor: int
    function: int
    key: int
    kind: int
    left: int
    name: int
    object: int
    operator: int
    parameter: int
    parameters: int
    pattern: int
    property: int
    return_type: int
    right: int
    source: int
    type: int
    type_arguments: int
    value: int


@cache
def _field_ids(grammar_name: str) -> _Fields:
    grammar = GRAMMARS.language(grammar_name)
    return _Fields(**{f.name: grammar.field_id_for_name(f.name) or 0 for f in fields(_Fields)})


@cache
def _facts_query(grammar_name: str) -> Query:
    """typescript.scm serves both TS grammars; tsx also gets the JSX patterns, which the plain
    typescript grammar has no nodes for. Its ``@name`` captures are switched off."""
    grammar = GRAMMARS.language(grammar_name)
    if grammar_name == "javascript":
        compiled = Query(grammar, query_source(_PACKAGE, "javascript.scm"))
    elif grammar_name == "tsx":
        typescript, jsx = (query_source(_PACKAGE, f) for f in ("typescript.scm", "jsx.scm"))
        compiled = Query(grammar, typescript + "\n" + jsx)
    else:
        compiled = Query(grammar, query_source(_PACKAGE, "typescript.scm"))
    # The tags-convention @name captures are never read (names come through node fields);
    # not materialising and sorting one node per definition is measurably faster.
    compiled.disable_capture("name")
    return compiled


# ------------------------------------------------------------------------------ small helpers


def _count_lines(source: bytes) -> int:
    if not source:
        return 0
    return source.count(b"\n") + (0 if source.endswith(b"\n") else 1)


def _collapse(text: str) -> str:
    """Whitespace collapsed to single spaces, without the spaces line breaks leave inside
    brackets (``foo(\\n  a: string,\\n)`` -> ``foo(a: string,)``)."""
    if "\n" in text or "  " in text or "\t" in text:
        text = " ".join(text.split())
        text = _SPACE_BEFORE_CLOSE.sub(r"\1", _SPACE_AFTER_OPEN.sub(r"\1", text))
    return text.strip().rstrip(" ;")[:_SIGNATURE_MAX]


def _clean_jsdoc(raw: str) -> str:
    """A ``/** ... */`` block without its markers and ``*`` gutters."""
    body = raw[3:-2] if raw.endswith("*/") else raw[3:]
    return _JSDOC_TRAILING.sub("", _JSDOC_GUTTER.sub("", body)).strip()


def _exported_name(chain: list[str]) -> str | None:
    """The name ``exports.x`` / ``module.exports.x`` exports; None for any other target."""
    if len(chain) == 2 and chain[0] == "exports":
        return chain[1]
    if len(chain) == 3 and chain[0] == "module" and chain[1] == "exports":
        return chain[2]
    return None


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] in "'\"`" and text[-1] == text[0]:
        return text[1:-1]
    return text


def _header_start(node: Node) -> int:
    """Where a declaration's header begins: after its own decorators and comments."""
    for child in node.children:
        if child.type not in ("decorator", "comment"):
            return child.start_byte
    return node.start_byte


def _last_token(node: Node) -> Node:
    """The name token of a chain's last element: the position references are reported at."""
    while True:
        kind = node.type
        if kind == "member_expression":
            nxt = node.child_by_field_name("property")
        elif kind in ("nested_type_identifier", "generic_type"):
            nxt = node.child_by_field_name("name")
        elif kind == "call_expression":
            nxt = node.child_by_field_name("function")
        elif kind == "new_expression":
            nxt = node.child_by_field_name("constructor")
        elif kind == "non_null_expression":
            nxt = _first_named(node)
        else:
            return node
        if nxt is None:
            return node
        node = nxt


_parent = attrgetter("parent")


def _outer(node: Node) -> tuple[Node, bool, bool, bool]:
    """The statement carrying ``node``'s export, ``declare`` and JSDoc, and those three flags:
    (outer node, exported, default export, declare)."""
    outer, exported, default, declare = node, False, False, False
    parent = node.parent
    while parent is not None:
        kind = parent.type
        if kind == "ambient_declaration":
            declare = True
        elif kind == "export_statement":
            exported = True
            default = any(c.type == "default" for c in parent.children)
        elif not (kind == "expression_statement" and node.type in ("internal_module", "module")):
            break  # TS wraps a bare ``namespace X {}`` in an expression statement
        outer, parent = parent, parent.parent
    return outer, exported, default, declare


def _is_module_level(statement: Node, up: Callable[[Node], Node | None] = _parent) -> bool:
    """Whether a declaration statement sits at module level (or directly in a namespace).
    ``up``: how a node's parent is found (``_Extractor.up`` remembers them)."""
    parent = up(statement)
    while parent is not None and parent.type in ("export_statement", "ambient_declaration"):
        parent = up(parent)
    if parent is None:
        return False
    if parent.type == "program":
        return True
    owner = up(parent)
    return (
        parent.type == "statement_block"
        and owner is not None
        and owner.type
        in (
            "internal_module",
            "module",
        )
    )


_CHAINED_ASSIGNMENT = frozenset({"assignment_expression", "variable_declarator"})
# where a function expression is named by what holds it: its own name is a local alias
_NAMING_PARENTS = frozenset(
    {
        "variable_declarator",
        "pair",
        "assignment_expression",
        "public_field_definition",
        "field_definition",
        "export_statement",
    }
)


def _owner_chain(owner: str) -> Chain:
    """What ``this`` is in a member of the object ``owner`` names; ``""`` is ``module.exports
    = {...}``, whose members are the module's own exports."""
    return tuple(owner.split(".")) if owner else ("exports",)


def _first_declarator(statement: Node) -> Node | None:
    for child in statement.named_children:
        if child.type == "variable_declarator":
            return child
    return None


def _pattern_names(node: Node) -> list[Node]:
    """The identifier nodes a binding pattern binds, in source order."""
    out: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            out.append(current)
        elif kind == "pair_pattern":
            value = current.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        elif kind in ("assignment_pattern", "object_assignment_pattern"):
            left = current.child_by_field_name("left")
            if left is not None:
                stack.append(left)
        elif kind in ("object_pattern", "array_pattern", "rest_pattern"):
            stack.extend(reversed(current.named_children))
        elif kind in ("required_parameter", "optional_parameter"):
            pattern = current.child_by_field_name("pattern")
            if pattern is not None:
                stack.append(pattern)
    return out


def _sorted_modifiers(mods: list[str]) -> tuple[str, ...]:
    if len(mods) < 2:
        return tuple(mods)
    return tuple(sorted(set(mods), key=_MODIFIER_ORDER.__getitem__))


class _Scopes:
    """Innermost enclosing scope of a byte offset, over properly nested intervals."""

    def __init__(self, intervals: list[tuple[int, int, str]]) -> None:
        intervals.sort(key=lambda it: (it[0], -it[1]))
        self.starts = [it[0] for it in intervals]
        self.ends = [it[1] for it in intervals]
        self.names = [it[2] for it in intervals]
        self.parent: list[int] = []
        stack: list[int] = []
        for i, (start, _, _) in enumerate(intervals):
            while stack and self.ends[stack[-1]] <= start:
                stack.pop()
            self.parent.append(stack[-1] if stack else -1)
            stack.append(i)

    def at(self, offset: int) -> str:
        i = bisect_right(self.starts, offset) - 1
        while i >= 0 and self.ends[i] <= offset:
            i = self.parent[i]
        return self.names[i] if i >= 0 else ""


# Field rules: for these parents an identifier is a READ only in one position.
def _not_first(node: Node, parent: Node) -> bool:
    return node.start_byte != parent.start_byte


def _is_field(name: str) -> Callable[[Node, Node], bool]:
    def check(node: Node, parent: Node) -> bool:
        child = parent.child_by_field_name(name)
        return child is not None and child.start_byte == node.start_byte

    return check


_READ_RULES: dict[str, Callable[[Node, Node], bool]] = {
    "variable_declarator": _not_first,
    "assignment_expression": _not_first,
    "augmented_assignment_expression": _not_first,
    "assignment_pattern": _not_first,
    "object_assignment_pattern": _not_first,
    "for_in_statement": _is_field("right"),
    "arrow_function": _is_field("body"),
    "required_parameter": _is_field("value"),
    "optional_parameter": _is_field("value"),
}


# ---------------------------------------------------------------------------------- extractor


class _Extractor(ContextualTypes, ComposedTypes):
    """One file's facts; see the module docstring for the passes."""

    def __init__(self, source: bytes, captures: dict[str, list[Node]], fid: _Fields) -> None:
        self.src = source
        self.fid = fid  # the grammar's field ids: ``node.child_by_field_id(self.fid.name)``
        self.caps = captures
        self.ascii = source.isascii()
        self._lines: list[bytes] | None = None
        self._ups: dict[Node, Node | None] = {}  # see ``up``
        self.defs: list[Definition] = []
        self.refs: list[Reference] = []
        self.imports: list[Import] = []
        self.bindings: list[Binding] = []
        self.exports: list[tuple[str, str]] = []
        self.intervals: list[tuple[int, int, str]] = []
        self.scope_nodes: dict[tuple[int, int], str] = {}  # (start, end) of its node -> scope
        self.kinds: dict[str, DefKind] = {}  # scope-forming qualname -> kind
        self.parents: dict[str, str] = {}
        self.members: dict[str, set[str]] = {}  # class/interface qualname -> member names
        self.locals: dict[str, set[str]] = {}
        self.type_params: dict[str, set[str]] = {}
        self.import_calls: set[int] = set()  # start bytes of require()/import() already imports
        self.this_assignments: list[tuple[Node, str]] = []
        self.anonymous_methods: list[tuple[Node, str]] = []  # (function, owner): see there
        self.import_types: set[str] = set()  # aliases of ``import('x').Y`` types recorded
        self.constructor_functions: set[str] = set()  # ``F`` of ``F.prototype.m = ...``
        self.overload_candidates: list[int] = []
        # definitions of a qualname so far, whether its primary (a function, method or class
        # that is no overload signature) is among them, and the kind of a signature among them
        self.qualnames: dict[str, tuple[int, bool, DefKind | None]] = {}
        # start byte of a module-level declarator holding an object literal -> its qualname
        self.object_variables: dict[int, str] = {}
        # enclosing scope definitions: (end byte, qualname, (scope node start, end))
        self.stack: list[tuple[int, str, tuple[int, int]]] = []
        self.scopes: _Scopes
        # type parameters (generics.py): the names the file declares, the constraints noted
        self.generic_names = generics.type_parameters(captures, source)
        self.constraints_noted: set[tuple[str, int]] = set()
        self.constraint_depth = 0
        self.shapes_noted: set[tuple[str, str]] = set()  # (scope, ``{:N}``) recorded
        # aliases (facts.ALIAS): (start, end) of a value that is a whole name -> the aliases
        # reading it; each alias -> how an assignment to it is written and how many such
        # assignments define it (``None``: a ``const``, which nothing assigns again)
        self.alias_values: dict[tuple[int, int], list[str]] = {}
        self.aliases: dict[str, tuple[str, int] | None] = {}

    def run(self) -> dict[str, object]:
        self.collect_definitions()
        self.scopes = _Scopes(self.intervals)
        self.collect_bindings()
        self.bind_anonymous_this()
        self.collect_predicates()
        self.collect_constructed_arguments()
        self.collect_shapes()
        self.collect_returned_arguments()
        self.collect_local_assignments()
        self.collect_returns()
        self.collect_imports()
        self.collect_calls()
        self.collect_types()
        self.collect_reads()
        self.narrow()
        if self.aliases:
            self.defs = marked(self.defs, set(self.aliases), self.rebound_aliases())
        self.refs.sort(key=attrgetter("line", "column"))
        self.defs.sort(key=attrgetter("start_byte"))
        self.imports.sort(key=attrgetter("line"))
        self.bindings.sort(key=attrgetter("line"))
        return {
            "definitions": tuple(self.defs),
            "references": tuple(self.refs),
            "imports": tuple(self.imports),
            "bindings": tuple(self.bindings),
            "exports": tuple(self.exports),
        }

    # -------------------------------------------------------------------------- primitives

    def up(self, node: Node) -> Node | None:
        """``node.parent``, remembered. tree-sitter keeps no parent links: each ``parent``
        searches down from the root (0.5–0.8 µs at a statement's depth), and several passes
        ask for the same few ancestors again: a local declaration's statement, block and
        function, a class body's class, a callback's argument list and call (medusa: 0.85
        million look-ups, half of them repeats). Used where repeats are common; a node asked
        once costs a dictionary entry more than ``parent``."""
        ups = self._ups
        found = ups.get(node, _UNSEEN)
        if found is _UNSEEN:
            found = ups[node] = node.parent
        return found  # type: ignore[return-value]

    def text(self, node: Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def column_at(self, row: int, byte_column: int) -> int:
        """1-based column in characters of a (row, byte column) point."""
        if self.ascii:
            return byte_column + 1
        if self._lines is None:
            self._lines = self.src.split(b"\n")
        return len(self._lines[row][:byte_column].decode("utf-8", "replace")) + 1

    def signature(self, start: int, end: int) -> str:
        return _collapse(self.src[start:end].decode("utf-8", "replace"))

    def docstring(self, pos: int) -> str:
        """The JSDoc block ending right before byte ``pos``, with at most one line break
        between. Found in the bytes: sibling lookups cost more and this runs per definition."""
        src, end = self.src, pos
        while end > 0 and src[end - 1] in _SPACE_BYTES:
            end -= 1
        if end < 4 or src[end - 2 : end] != b"*/" or src.count(b"\n", end, pos) > 1:
            return ""
        start = src.rfind(b"/**", 0, end - 1)
        if start < 0 or src.find(b"*/", start + 3, end - 2) != -1:
            return ""  # a plain ``/* */`` comment, or no comment at all
        return _clean_jsdoc(src[start:end].decode("utf-8", "replace"))

    def chain(self, node: Node, values: bool = True) -> list[str]:
        """The access path of an expression, root "?" when the receiver is not expressible;
        with ``values``, a call's class arguments too (``class_arguments``: not for a base
        class expression, which names a definition rather than a value)."""
        raw = self.src[node.start_byte : node.end_byte]
        if _SIMPLE_CHAIN.fullmatch(raw):
            return raw.decode("ascii").replace("?.", ".").split(".")
        parts: list[str] = []
        suffix = ""
        current: Node | None = node
        while current is not None:
            kind = current.type
            if kind == "member_expression":
                prop = current.child_by_field_id(self.fid.property)
                parts.append((self.text(prop) if prop is not None else "?") + suffix)
                suffix = ""
                current = current.child_by_field_id(self.fid.object)
            elif kind == "call_expression":
                if values and not suffix:  # ``get(Foo).m``: what the call returns may be a Foo
                    parts.extend(
                        self.class_arguments(current.child_by_field_id(self.fid.arguments))
                    )
                suffix += "()"
                current = current.child_by_field_id(self.fid.function)
            elif kind == "new_expression":
                suffix += "()"
                current = current.child_by_field_id(self.fid.constructor)
            elif kind == "non_null_expression":
                current = _first_named(current)
            elif kind in ("parenthesized_expression", "await_expression") and not suffix:
                current = _first_named(current)  # ``(await load(Foo)).m``: what load gives
            elif kind == "subscript_expression":  # ``xs[0].m``, ``byCode[c].m``: an element
                parts.append("[k]" + suffix)  # or a mapped value
                suffix = ""
                current = current.child_by_field_id(self.fid.object)
            elif kind in ("identifier", "this", "super"):
                parts.append(self.text(current) + suffix)
                break
            else:
                current = None
        else:
            parts.append("?")
        parts.reverse()
        return parts

    def value_chain(self, node: Node | None) -> Chain | None:
        """An initializer as a chain when it is one (``await`` and casts stripped; an element
        of ``xs[i]`` is ``(..., "[i]")``; ``a ? b : c``, ``a || b``, ``a ?? b`` take the first
        side that is a chain, both sides nearly always having one type)."""
        while node is not None and node.type in (
            "await_expression",
            "non_null_expression",
            "as_expression",
            "satisfies_expression",
            "parenthesized_expression",
        ):
            node = _first_named(node)
        if node is None:
            return None
        if node.type == "subscript_expression":
            inner = self.value_chain(node.child_by_field_id(self.fid.object))
            return (*inner, "[k]") if inner is not None else None
        if node.type == "ternary_expression" or (
            node.type == "binary_expression"
            and self.text(node.child_by_field_id(self.fid.operator)) in ("||", "??")
        ):
            sides = (
                ("consequence", "alternative")
                if node.type == "ternary_expression"
                else (
                    "left",
                    "right",
                )
            )
            for side in sides:
                chain = self.value_chain(node.child_by_field_name(side))
                if chain is not None:
                    return chain
            return None
        if node is None or node.type not in (
            "identifier",
            "member_expression",
            "call_expression",
            "new_expression",
            "this",
        ):
            return None
        chain = self.chain(node)
        return None if chain == ["?"] else tuple(chain)

    def type_chain(self, node: Node) -> Chain | None:
        kind = node.type
        if kind == "type_identifier":
            return (self.text(node),)
        if kind == "nested_type_identifier":
            return tuple("".join(self.text(node).split()).split("."))
        if kind == "generic_type":
            name = node.child_by_field_id(self.fid.name)
            return self.type_chain(name) if name is not None else None
        return None

    def principal_type(self, node: Node | None, returns: bool = False) -> Chain | None:
        """The one named type an annotation is about (see facts.py), or None."""
        for _ in range(32):  # bounded: a type nests only so deep in practice
            if node is None:
                return None
            kind = node.type
            if kind == "type_identifier":
                text = self.text(node)
                return self.type_parameter(node, text) if text in self.generic_names else (text,)
            if kind in ("type_annotation", "parenthesized_type"):
                node = _first_named(node)
                if node is not None and node.type == "comment":
                    node = node.next_named_sibling
            elif kind == "array_type":
                return self.element_type(_first_named(node))
            elif kind == "generic_type":
                name = node.child_by_field_id(self.fid.name)
                text = self.text(name) if name is not None else ""
                if text in _ELEMENT_GENERICS:
                    args = node.child_by_field_id(self.fid.type_arguments)
                    inner = [c for c in args.named_children if c.type != "comment"] if args else []
                    return self.element_type(inner[0]) if len(inner) == 1 else None
                if text in _MAPPING_GENERICS:
                    args = generics.type_arguments(node)
                    return self.mapped_type(args[1]) if len(args) == 2 else None
                if text not in _UNWRAP_ALWAYS and not (returns and text in _UNWRAP_RETURNS):
                    return self.type_chain(node)
                args = node.child_by_field_id(self.fid.type_arguments)
                inner = [c for c in args.named_children if c.type != "comment"] if args else []
                node = inner[0] if len(inner) == 1 or (inner and text in _UNWRAP_ALWAYS) else None
            elif kind == "union_type":
                members = self.union_members(node)
                if len(members) != 1:
                    return self.union_type(members)
                node = members[0]
            elif kind == "member_expression":  # ``import('./a').Foo``: an import type
                return self.import_type(node)
            elif kind == "intersection_type":  # ``A & typeof B``: composed.py
                return self.intersection_type(node)
            elif kind == "type_query":
                return self.type_query(node)
            elif kind == "function_type":  # ``() => Foo``: a function whose call gives a Foo
                returned = self.principal_type(node.child_by_field_id(self.fid.return_type), True)
                return ("=>", *returned) if returned is not None else None
            elif kind == "object_type":  # ``{ [code: string]: Action }``: a mapping
                members = [c for c in node.named_children if c.type != "comment"]
                if len(members) != 1 or members[0].type != "index_signature":
                    return None
                return self.mapped_type(members[0].child_by_field_id(self.fid.type))
            else:
                return self.type_chain(node)
        return None

    def type_parameter(self, node: Node, name: str) -> Chain:
        """A type named like a type parameter (generics.py): ``<Q:i>`` for parameter i of the
        class or interface Q around it, the constraint for one of a function, else the name."""
        found = generics.declaring_parameter(node, self.generic_names[name])
        if found is None:
            return (name,)
        declaration, index, param = found
        if generics.is_generic_owner(declaration):
            owner = self.scope_nodes.get((declaration.start_byte, declaration.end_byte))
            if owner is not None:
                self.note_constraint(owner, index, param)
                return (generics.marker(owner, index),)
            return (name,)
        return self.constraint_type(param) or (name,)

    def constraint_type(self, param: Node) -> Chain | None:
        constraint = generics.constraint_of(param)
        if constraint is None or self.constraint_depth > 8:
            return None  # bounded: ``T extends U, U extends T`` is an error, not a loop
        self.constraint_depth += 1
        try:
            return self.principal_type(constraint)
        finally:
            self.constraint_depth -= 1

    def note_constraint(self, owner: str, index: int, param: Node) -> None:
        """The pseudo-binding ``<index>`` of ``owner``: its parameter's constraint, once."""
        if (owner, index) in self.constraints_noted:
            return
        self.constraints_noted.add((owner, index))
        type_ = self.constraint_type(param)
        if type_ is not None:
            line = param.start_point[0] + 1
            self.bindings.append(Binding(owner, f"<{index}>", line, type_))

    def note_type_arguments(self, owner: str, per_base: list[list[Node]]) -> None:
        """The pseudo-bindings ``<k:j>`` of ``owner``: what it passes to its bases."""
        for k, args in enumerate(per_base):
            for j, arg in enumerate(args):
                type_ = self.principal_type(arg)
                if type_ is not None:
                    line = arg.start_point[0] + 1
                    self.bindings.append(Binding(owner, f"<{k}:{j}>", line, type_))

    def import_type(self, node: Node) -> Chain | None:
        """``import('../connection').Connection`` in a type: the import it is, recorded once
        under a name no code can write (``(import:../connection).Connection``), as its chain."""
        call, prop = (
            node.child_by_field_id(self.fid.object),
            node.child_by_field_id(self.fid.property),
        )
        fn = call.child_by_field_id(self.fid.function) if call is not None else None
        if fn is None or fn.type != "import" or prop is None:
            return None
        module = self.call_module(call)
        name = self.text(prop)
        alias = f"(import:{module}).{name}"
        if alias not in self.import_types:
            self.import_types.add(alias)
            line = node.start_point[0] + 1
            self.imports.append(Import(module, name, alias, line, type_only=True))
        return (alias,)

    def union_type(self, members: list[Node]) -> Chain | None:
        """``A | B``: the members' principal types joined by ``|`` (facts.py), when each
        member has one or is no repository type (``string | JSXNode``: ``("JSXNode", "|",
        "*")``, the ``*`` a member code narrows away before using JSXNode's); at most eight."""
        if not 1 < len(members) <= 8:
            return None
        parts: list[Chain] = []
        for member in members:
            while member.type == "parenthesized_type" and member.named_child_count:
                member = member.named_children[0]  # ``(() => void)``
            kind = member.type
            if kind in _MEMBERLESS:
                if kind == "predefined_type" and self.text(member) in _OPAQUE:
                    return None
                chain: Chain | None = ("*",)
            else:
                chain = self.principal_type(member)
            if chain is None:
                return None
            if chain not in parts:
                parts.append(chain)
        if all(part == ("*",) for part in parts):
            return None
        out: list[str] = []
        for chain in parts:
            out.extend((*(("|",) if out else ()), *chain))
        return tuple(out)

    def mapped_type(self, node: Node | None) -> Chain | None:
        """``Map<K, Foo>`` / ``Record<K, Foo>`` values: the principal type marked ``{}``
        (not of functions: ``("=>", "Foo", "{}")`` reads as a function returning a mapping)."""
        value = self.principal_type(node)
        if value is None or value[0] == "=>":
            return None
        return (*value, "{}")

    def element_type(self, node: Node | None) -> Chain | None:
        """``Foo[]`` / ``Array<Foo>``: the element's principal type marked ``[]`` (not of
        functions, as for ``mapped_type``)."""
        element = self.principal_type(node)
        if element is None or element[0] == "=>":
            return None
        return (*element, "[]")

    def union_members(self, node: Node) -> list[Node]:
        """The non-nullish members of a (nested, binary) union type."""
        out: list[Node] = []
        stack = [node]
        while stack:
            current = stack.pop()
            for child in current.named_children:
                if child.type == "union_type":
                    stack.append(child)
                elif child.type != "comment" and self.text(child) not in _NULLISH:
                    out.append(child)
        return out

    def modifiers(self, node: Node) -> tuple[list[str], str]:
        """Modifier tokens among a declaration's children, and its accessibility."""
        mods, visibility, _, _ = self.scan(node)
        return mods, visibility

    def scan(self, node: Node) -> tuple[list[str], str, int, list[Node]]:
        """One pass over a declaration's children: (modifiers, accessibility, where the header
        starts after decorators and comments, decorator children)."""
        mods: list[str] = []
        decorators: list[Node] = []
        visibility, header = "public", -1
        for child in node.children:
            kind = child.type
            if kind == "decorator":
                decorators.append(child)
                continue
            if kind == "comment":
                continue
            if header < 0:
                header = child.start_byte
            if kind in _MODIFIER_TOKENS and not child.is_named:
                mods.append(_MODIFIER_TOKENS[kind])
            elif kind == "accessibility_modifier":
                visibility = self.text(child)
        return mods, visibility, header if header >= 0 else node.start_byte, decorators

    # ------------------------------------------------------------------------ definitions

    def parent(self) -> str:
        return self.stack[-1][1] if self.stack else ""

    def emit(
        self,
        kind: DefKind,
        name: str,
        parent: str,
        span: tuple[Node, Node],
        scope_node: Node | None = None,
        decorators: Iterable[Node] = (),
        **fields: object,
    ) -> Definition:
        """Record a definition; a scope-forming one also opens a scope over ``scope_node``."""
        qualname = f"{parent}.{name}" if parent else name
        key = self.scope_key(qualname, kind, scope_node)
        decorator_texts = []
        for dec in decorators:
            self.intervals.append((dec.start_byte, dec.end_byte, key))
            decorator_texts.append(_collapse(self.text(dec)[1:]))
        start, end = span
        definition = Definition(
            kind=kind,
            name=name,
            qualname=qualname,
            parent=parent,
            start_line=start.start_point[0] + 1,
            end_line=end.end_point[0] + 1,
            start_byte=start.start_byte,
            end_byte=end.end_byte,
            decorators=tuple(decorator_texts),
            **fields,  # type: ignore[arg-type]
        )
        self.defs.append(definition)
        self.parents.setdefault(qualname, parent)
        if kind in (DefKind.FIELD, DefKind.METHOD):
            self.members.setdefault(parent, set()).add(name)
        if scope_node is not None:
            self.scope_nodes[(scope_node.start_byte, scope_node.end_byte)] = key
            self.kinds[key] = kind
            self.parents.setdefault(key, parent)
            self.intervals.append((scope_node.start_byte, scope_node.end_byte, key))
            span = (scope_node.start_byte, scope_node.end_byte)
            self.stack.append((scope_node.end_byte, key, span))
        return definition

    def scope_key(self, qualname: str, kind: DefKind, scope_node: Node | None) -> str:
        """The scope name of a function, method or class: its qualname, or ``qualname#N``
        when an earlier definition of that qualname is not an overload signature (a static
        and an instance method of one name, a getter and its setter, ``if`` / ``else``
        redefinitions, a class declared again in another test callback), so that what happens
        inside it comes from it and what it declares is ``qualname#N.member`` (the numbering
        of ``graph.symbols.definition_keys``)."""
        key = self.peek_key(qualname, kind, scope_node)
        count, primary, signed = self.qualnames.get(qualname, (0, False, None))
        signature = bool(self.overload_candidates) and self.overload_candidates[-1] == len(
            self.defs
        )
        # a variable, field or type declared first yields to a later function or class
        # (symbols.py: ``interface X`` + ``function X`` are one merged symbol)
        value = kind in _YIELDING
        self.qualnames[qualname] = (
            count + 1,
            primary or (signed is not None and signed != kind) or not (signature or value),
            kind if signature and signed is None else signed,
        )
        return key

    def peek_key(self, qualname: str, kind: DefKind, scope_node: Node | None) -> str:
        """What ``scope_key`` will name the next definition of ``qualname``, without
        counting it (a class's heritage is read before the class is recorded)."""
        count, primary, signed = self.qualnames.get(qualname, (0, False, None))
        # a signature overloads only its own kind: an interface's ``init(): void`` and a
        # function-local ``function init()`` are two definitions (see mark_overloads)
        primary = primary or (signed is not None and signed != kind)
        if primary and scope_node is not None and kind in _NUMBERED:
            return f"{qualname}#{count + 1}"
        return qualname

    def collect_definitions(self) -> None:
        handlers: list[Callable[[Node], None]] = [
            self.on_declarator,
            self.on_export,
            self.on_assignment,
            self.on_namespace,
            self.on_class,
            self.on_interface,
            self.on_enum,
            self.on_type_alias,
            self.on_function,
            self.on_method,
            self.on_field,
            self.on_object_member,
            self.on_named_function,
        ]
        items: list[tuple[int, int, int, Node]] = []
        caps = self.caps
        for order, tag in enumerate(_DEF_TAGS):
            if tag in caps:  # most of the 13 tags are absent from a file: no generator then
                items.extend((n.start_byte, -n.end_byte, order, n) for n in caps[tag])
        items.sort(key=itemgetter(0, 1, 2))
        for start, _, order, node in items:
            while self.stack and self.stack[-1][0] <= start:
                self.stack.pop()
            handlers[order](node)
        self.add_this_fields()
        self.mark_overloads()

    def container(self, member: Node) -> tuple[str, DefKind] | None:
        """The class/interface a member belongs to, when that owner is a definition."""
        body = member.parent
        owner = self.up(body) if body is not None else None  # one look-up per class body
        while owner is not None and owner.type == "type_arguments":  # ``Readonly<{ … }>``
            wrapper = owner.parent
            name = wrapper.child_by_field_id(self.fid.name) if wrapper is not None else None
            if name is None or self.text(name) not in _MEMBER_KEEPING:
                return None
            if len([c for c in owner.named_children if c.type != "comment"]) != 1:
                return None
            owner = wrapper.parent
        if owner is None or not self.stack:
            return None
        _, qualname, key = self.stack[-1]
        kind = self.kinds.get(qualname)
        if key != (owner.start_byte, owner.end_byte) or kind not in _MEMBER_OWNERS:
            return None
        return qualname, kind

    def member_name(self, node: Node | None) -> str | None:
        if node is None or node.type == "computed_property_name":
            return None  # ``[Symbol.iterator]()`` cannot be referred to by name
        return _unquote(self.text(node))

    def on_class(self, node: Node) -> None:
        if node.type == "variable_declarator":
            name, value = (
                node.child_by_field_id(self.fid.name),
                node.child_by_field_id(self.fid.value),
            )
            statement = node.parent
            if name is None or value is None or statement is None:
                return
            first = _first_declarator(statement)
            start = statement if first is not None and first.start_byte == node.start_byte else node
            self.class_def(value, self.text(name), (start, node), _outer(statement))
            return
        name = node.child_by_field_id(self.fid.name)
        if name is not None:
            self.class_def(node, self.text(name), (node, node), _outer(node))

    def class_def(
        self,
        cls: Node,
        name: str,
        span: tuple[Node, Node],
        outer_info: tuple[Node, bool, bool, bool],
        owner: str | None = None,
    ) -> None:
        """A CLASS; ``owner`` is the definition it is attached to (``internals.Auth = class``),
        when it is not the enclosing scope."""
        outer, exported, default, declare = outer_info
        parent = self.parent() if owner is None else owner
        qualname = f"{parent}.{name}" if parent else name
        decorators = [c for c in cls.children if c.type == "decorator"]
        if outer.type == "export_statement":
            decorators = [c for c in outer.children if c.type == "decorator"] + decorators
        mods = ["abstract"] if cls.type == "abstract_class_declaration" else []
        mods += ["default_export"] * default + ["declare"] * declare
        # heritage type arguments may name the class's own type parameters (generics.py)
        key = self.peek_key(qualname, DefKind.CLASS, cls)
        self.scope_nodes[(cls.start_byte, cls.end_byte)] = key
        bases, implements = self.heritage(cls, key)
        body = cls.child_by_field_id(self.fid.body)
        header_start = span[0].start_byte if span[0] is not cls else _header_start(cls)
        self.emit(
            DefKind.CLASS,
            name,
            parent,
            span,
            cls,
            decorators,
            signature=self.signature(header_start, body.start_byte if body else cls.end_byte),
            docstring=self.docstring(outer.start_byte),
            exported=exported,
            modifiers=_sorted_modifiers(mods),
            bases=bases,
            implements=implements,
        )

    def heritage(self, cls: Node, qualname: str) -> tuple[tuple[Chain, ...], tuple[Chain, ...]]:
        """``extends`` / ``implements`` chains of a class, also reported as references."""
        bases: list[Chain] = []
        implements: list[Chain] = []
        base_args: list[list[Node]] = []  # each base's type arguments, bases then implements
        implement_args: list[list[Node]] = []
        inherit, implement = RefKind.INHERIT, RefKind.IMPLEMENT
        for clause in cls.children:
            if clause.type != "class_heritage":
                continue
            for part in clause.named_children:
                if part.type == "extends_clause":
                    for value in part.children_by_field_name("value"):
                        chain = tuple(self.chain(value, values=False))
                        self.heritage_ref(value, chain, qualname, bases, inherit)
                        base_args.append(generics.type_arguments(part))
                elif part.type == "implements_clause":
                    for typ in part.named_children:
                        chain = self.type_chain(typ)
                        if chain is not None:
                            self.heritage_ref(typ, chain, qualname, implements, implement)
                            implement_args.append(generics.type_arguments(typ))
                elif part.type != "comment":  # JavaScript: the base expression itself
                    chain = tuple(self.chain(part, values=False))
                    self.heritage_ref(part, chain, qualname, bases, inherit)
                    base_args.append([])
        if any(base_args) or any(implement_args):
            self.note_type_arguments(qualname, base_args + implement_args)
        return tuple(bases), tuple(implements)

    def heritage_ref(
        self, node: Node, chain: Chain, scope: str, into: list[Chain], kind: RefKind
    ) -> None:
        into.append(chain)
        self.add_ref(kind, chain, scope, _last_token(node).start_point)

    def on_interface(self, node: Node) -> None:
        name = node.child_by_field_id(self.fid.name)
        if name is None:
            return
        outer, exported, default, declare = _outer(node)
        parent = self.parent()
        qualname = f"{parent}.{self.text(name)}" if parent else self.text(name)
        self.scope_nodes[(node.start_byte, node.end_byte)] = qualname  # see class_def
        bases: list[Chain] = []
        base_args: list[list[Node]] = []
        for clause in node.children:
            if clause.type == "extends_type_clause":
                for typ in clause.children_by_field_name("type"):
                    chain = self.type_chain(typ)
                    if chain is not None:
                        self.heritage_ref(typ, chain, qualname, bases, RefKind.INHERIT)
                        base_args.append(generics.type_arguments(typ))
        if any(base_args):
            self.note_type_arguments(qualname, base_args)
        body = node.child_by_field_id(self.fid.body)
        self.emit(
            DefKind.INTERFACE,
            self.text(name),
            parent,
            (node, node),
            node,
            signature=self.signature(node.start_byte, body.start_byte if body else node.end_byte),
            docstring=self.docstring(outer.start_byte),
            exported=exported,
            # ``export default interface X``: what ``import X from`` the module names
            modifiers=("default_export",) * default + ("declare",) * declare,
            bases=tuple(bases),
        )
        calls = [m for m in body.named_children if m.type == "call_signature"] if body else []
        for member in calls:  # ``interface Handler { (c: Context): void }``
            self.signature_param_types(self.stack[-1][1], member)
            self.signature_callbacks(self.stack[-1][1], member)
        if len(calls) == 1:  # overloads return what the arguments choose
            self.signature_return(self.stack[-1][1], calls[0])

    def on_enum(self, node: Node) -> None:
        self.simple_def(node, DefKind.ENUM, node.child_by_field_id(self.fid.body))

    def on_type_alias(self, node: Node) -> None:
        # ``type ZodTypeAny = ZodType<any>``: the one named type it stands for, if any
        value = node.child_by_field_id(self.fid.value)
        aliased = self.principal_type(value)
        self.simple_def(node, DefKind.TYPE_ALIAS, None, aliased)
        # ``type Handler = (c: Context, next: Next) => void``: its parameters' types, ``(p:j)``
        fn_type = self.function_type(value) if value is not None else None
        if fn_type is None and value is not None and value.type == "function_type":
            fn_type = value
        if fn_type is not None:
            self.signature_param_types(self.stack[-1][1], fn_type)

    def simple_def(
        self, node: Node, kind: DefKind, body: Node | None, type_: Chain | None = None
    ) -> None:
        name = node.child_by_field_id(self.fid.name)
        if name is None:
            return
        outer, exported, _, declare = _outer(node)
        self.emit(
            kind,
            self.text(name),
            self.parent(),
            (node, node),
            node,
            signature=self.signature(node.start_byte, body.start_byte if body else node.end_byte),
            docstring=self.docstring(outer.start_byte),
            exported=exported,
            modifiers=("declare",) if declare else (),
            type=type_,
        )

    def on_namespace(self, node: Node) -> None:
        name = node.child_by_field_id(self.fid.name)
        if name is None:
            return
        outer, exported, _, declare = _outer(node)
        body = node.child_by_field_id(self.fid.body)
        self.emit(
            DefKind.VARIABLE,
            "".join(_unquote(self.text(name)).split()),
            self.parent(),
            (node, node),
            node,
            signature=self.signature(node.start_byte, body.start_byte if body else node.end_byte),
            docstring=self.docstring(outer.start_byte),
            exported=exported,
            modifiers=_sorted_modifiers(["namespace"] + ["declare"] * declare),
        )
        self.kinds[self.defs[-1].qualname] = DefKind.VARIABLE

    def on_function(self, node: Node) -> None:
        if node.type == "variable_declarator":
            self.on_bound_function(node)
            return
        name = node.child_by_field_id(self.fid.name)
        if name is None:
            return
        outer, exported, default, declare = _outer(node)
        mods, _ = self.modifiers(node)
        if node.type == "generator_function_declaration":
            mods.append("generator")
        mods += ["default_export"] * default + ["declare"] * declare
        body = node.child_by_field_id(self.fid.body)
        if node.type == "function_signature":
            self.overload_candidates.append(len(self.defs))
        self.emit(
            DefKind.FUNCTION,
            self.text(name),
            self.parent(),
            (node, node),
            node,
            signature=self.signature(node.start_byte, body.start_byte if body else node.end_byte),
            docstring=self.docstring(outer.start_byte),
            exported=exported,
            modifiers=_sorted_modifiers(mods),
            params=self.params(node.child_by_field_id(self.fid.parameters)),
            returns=self.principal_type(node.child_by_field_id(self.fid.return_type), returns=True),
        )

    def on_bound_function(self, node: Node) -> None:
        name, written = (
            node.child_by_field_id(self.fid.name),
            node.child_by_field_id(self.fid.value),
        )
        statement = node.parent
        value = _unwrap(written)  # ``const f = ((arg) => ...) as T`` is the function all the same
        if name is None or value is None or value.type not in _FUNCTION_VALUES or statement is None:
            return
        first = _first_declarator(statement)
        start = statement if first is not None and first.start_byte == node.start_byte else node
        declared = node.child_by_field_id(
            self.fid.type
        )  # else the cast's type, which f is declared
        self.function_value_def(
            value,
            self.text(name),
            (start, node),
            _outer(statement),
            self.principal_type(declared) if declared is not None else self.cast_type(written),
        )

    def function_value_def(
        self,
        fn: Node,
        name: str,
        span: tuple[Node, Node],
        outer_info: tuple[Node, bool, bool, bool],
        declared_type: Chain | None = None,
        owner: str | None = None,
    ) -> None:
        """A FUNCTION whose body is an arrow function or function expression; ``owner`` is
        the definition it is attached to, when it is not the enclosing scope."""
        outer, exported, default, declare = outer_info
        mods, _ = self.modifiers(fn)
        mods += ["arrow"] * (fn.type == "arrow_function") + ["generator"] * (
            fn.type == "generator_function"
        )
        mods += ["default_export"] * default + ["declare"] * declare
        body = fn.child_by_field_id(self.fid.body)
        params = fn.child_by_field_id(self.fid.parameters)
        single = fn.child_by_field_id(self.fid.parameter)  # ``x => ...``
        self.emit(
            DefKind.FUNCTION,
            name,
            self.parent() if owner is None else owner,
            span,
            fn,
            signature=self.signature(span[0].start_byte, body.start_byte if body else fn.end_byte),
            docstring=self.docstring(outer.start_byte),
            exported=exported,
            modifiers=_sorted_modifiers(mods),
            params=(Param(self.text(single)),) if single is not None else self.params(params),
            returns=self.principal_type(fn.child_by_field_id(self.fid.return_type), returns=True),
            type=declared_type,
        )

    def params(self, node: Node | None) -> tuple[Param, ...]:
        if node is None:
            return ()
        out: list[Param] = []
        for param in node.named_children:
            kind = param.type
            if kind in ("required_parameter", "optional_parameter"):
                ts_param = self.ts_param(param)
                if ts_param is not None:
                    out.append(ts_param)
            elif kind == "assignment_pattern":
                left = param.child_by_field_id(self.fid.left)
                out.append(Param(_collapse(self.text(left or param)), has_default=True))
            elif kind == "rest_pattern":
                inner = _first_named(param)
                out.append(Param(self.text(inner or param), kind="var_positional"))
            elif kind in ("identifier", "object_pattern", "array_pattern"):
                out.append(Param(_collapse(self.text(param))))
        return tuple(out)

    def ts_param(self, param: Node) -> Param | None:
        pattern = param.child_by_field_id(self.fid.pattern)
        if pattern is None or pattern.type == "this":
            return None  # TS ``this: Foo`` is not an argument
        rest = pattern.type == "rest_pattern"
        name = _first_named(pattern) if rest else pattern
        name = name if name is not None else pattern
        return Param(
            self.text(name) if name.type == "identifier" else _collapse(self.text(name)),
            self.principal_type(param.child_by_field_id(self.fid.type)),
            param.type == "optional_parameter"
            or param.child_by_field_id(self.fid.value) is not None,
            "var_positional" if rest else "positional",
        )

    def on_method(self, node: Node) -> None:
        owner = self.container(node)
        name_node = node.child_by_field_id(self.fid.name)
        name = self.member_name(name_node)
        if owner is None and name is not None and (parent := node.parent) is not None:
            self.object_method(node, name, parent)
            return
        if owner is None or name is None or name_node is None:
            return
        owner_name, owner_kind = owner
        mods, visibility, header, decorators = self.scan(node)
        if name_node.type == "private_property_identifier":
            visibility = "private"
        if node.type == "abstract_method_signature":
            mods.append("abstract")
        is_ctor = name == "constructor" and owner_kind == DefKind.CLASS
        mods += ["constructor"] * is_ctor
        if node.type == "method_signature":
            self.overload_candidates.append(len(self.defs))
        body = node.child_by_field_id(self.fid.body)
        siblings = self.preceding_decorators(node)  # TS: decorators precede the member
        decorators = siblings + decorators
        self.emit(
            DefKind.METHOD,
            name,
            owner_name,
            (node, node),
            node,
            decorators,
            signature=self.signature(header, body.start_byte if body else node.end_byte),
            docstring=self.docstring((siblings[0] if siblings else node).start_byte),
            exported=owner_kind == DefKind.INTERFACE or visibility != "private",
            visibility=visibility,
            modifiers=_sorted_modifiers(mods),
            params=self.params(node.child_by_field_id(self.fid.parameters)),
            returns=self.principal_type(node.child_by_field_id(self.fid.return_type), returns=True),
        )
        if is_ctor:
            self.parameter_properties(node.child_by_field_id(self.fid.parameters), owner_name)

    def preceding_decorators(self, member: Node) -> list[Node]:
        """Decorators of a class member: the grammar makes them the member's siblings."""
        src, i = self.src, member.start_byte
        while i > 0 and src[i - 1] in _SPACE_BYTES:
            i -= 1
        if i == 0 or src[i - 1] not in _DECORATOR_END_BYTES:
            return []  # what precedes cannot end a decorator: skip the sibling walk
        out = []
        prev = member.prev_named_sibling
        while prev is not None and prev.type in ("decorator", "comment"):
            if prev.type == "decorator":
                out.append(prev)
            prev = prev.prev_named_sibling
        out.reverse()
        return out

    def parameter_properties(self, params: Node | None, cls: str) -> None:
        """``constructor(private readonly auth: AuthService)`` declares the field ``auth``."""
        if params is None:
            return
        for param in params.named_children:
            if param.type not in ("required_parameter", "optional_parameter"):
                continue
            if not any(
                c.type in ("accessibility_modifier", "readonly", "override_modifier")
                for c in param.children
            ):
                continue
            pattern = param.child_by_field_id(self.fid.pattern)
            if pattern is None or pattern.type != "identifier":
                continue
            mods, visibility, header, decorators = self.scan(param)
            annotation = param.child_by_field_id(self.fid.type)
            type_ = self.principal_type(annotation)
            if type_ is not None and annotation is not None:
                self.instance_arguments(cls, pattern, annotation, type_)
            self.emit(
                DefKind.FIELD,
                self.text(pattern),
                cls,
                (param, param),
                None,
                decorators,
                signature=self.signature(header, param.end_byte),
                exported=visibility != "private",
                visibility=visibility,
                modifiers=_sorted_modifiers(mods),
                type=type_,
                value=self.value_chain(param.child_by_field_id(self.fid.value)),
            )

    def on_field(self, node: Node) -> None:
        owner = self.container(node)
        name_node = node.child_by_field_id(self.fid.name) or node.child_by_field_id(
            self.fid.property
        )
        name = self.member_name(name_node)
        if owner is None or name is None or name_node is None:
            return
        owner_name, owner_kind = owner
        mods, visibility, header, decorators = self.scan(node)
        if name_node.type == "private_property_identifier":
            visibility = "private"
        value = node.child_by_field_id(self.fid.value)
        type_node = node.child_by_field_id(self.fid.type)
        fields: dict[str, object] = {
            "docstring": self.docstring(node.start_byte),
            "exported": owner_kind == DefKind.INTERFACE or visibility != "private",
            "visibility": visibility,
        }
        fn_type = self.function_type(type_node) if node.type == "property_signature" else None
        if value is not None and value.type in ("arrow_function", "function_expression"):
            body = value.child_by_field_id(self.fid.body)
            mods += ["arrow"] * (value.type == "arrow_function")
            self.emit(
                DefKind.METHOD,
                name,
                owner_name,
                (node, node),
                node,
                decorators,
                signature=self.signature(header, body.start_byte if body else node.end_byte),
                modifiers=_sorted_modifiers(mods + self.modifiers(value)[0]),
                params=self.params(value.child_by_field_id(self.fid.parameters))
                or self.single_param(value),
                returns=self.principal_type(value.child_by_field_id(self.fid.return_type), True),
                **fields,
            )
        elif fn_type is not None:
            self.emit(
                DefKind.METHOD,
                name,
                owner_name,
                (node, node),
                node,
                decorators,
                signature=self.signature(node.start_byte, node.end_byte),
                modifiers=_sorted_modifiers(mods),
                params=self.params(fn_type.child_by_field_id(self.fid.parameters)),
                returns=self.principal_type(fn_type.child_by_field_id(self.fid.return_type), True),
                **fields,
            )
        else:
            type_ = self.principal_type(type_node) or self.cast_type(value)
            if type_node is not None:
                self.literal_field(owner_name, name, type_node)
                if type_ is not None:
                    self.instance_arguments(owner_name, name_node, type_node, type_)
            if owner_kind == DefKind.TYPE_ALIAS and type_ is None and self.plain_data(type_node):
                # a member of an object type alias holding only primitives or literals (``id:
                # string``, ``__typename?: 'Address'``; generated API types have thousands):
                # no call reaches through it, and as nodes they crowded retrieval
                return
            self.emit(
                DefKind.FIELD,
                name,
                owner_name,
                (node, node),
                None,
                decorators,
                signature=self.signature(
                    header, value.start_byte if value else node.end_byte
                ).rstrip(" ="),
                modifiers=_sorted_modifiers(mods),
                type=type_,
                value=self.value_chain(value),
                **fields,
            )

    def plain_data(self, annotation: Node | None) -> bool:
        """Whether a type annotation admits only primitives and literals (``string``, ``'a' |
        'b'``, ``number[] | null``): nothing with members or a call of its own."""
        stack = [_first_named(annotation)] if annotation is not None else []
        while stack:
            node = stack.pop()
            if node is None:
                return False
            kind = node.type
            if kind in ("union_type", "parenthesized_type", "array_type"):
                stack.extend(node.named_children)
            elif kind == "predefined_type":
                if self.text(node) in _OPAQUE:
                    return False
            elif kind not in ("literal_type", "template_literal_type", "comment"):
                return False
        return annotation is not None

    def single_param(self, fn: Node) -> tuple[Param, ...]:
        single = fn.child_by_field_id(self.fid.parameter)
        return (Param(self.text(single)),) if single is not None else ()

    def function_type(self, annotation: Node | None) -> Node | None:
        if annotation is None:
            return None
        inner = next((c for c in annotation.named_children if c.type != "comment"), None)
        if inner is not None and inner.type == "parenthesized_type":
            inner = _first_named(inner)
        return inner if inner is not None and inner.type == "function_type" else None

    # ------------------------------------------------- declarators, exports, assignments

    def on_declarator(self, node: Node) -> None:
        name = node.child_by_field_id(self.fid.name)
        value = node.child_by_field_id(self.fid.value)
        statement = node.parent
        if name is None or statement is None:
            return
        if value is not None and self.require_import(name, value, statement):
            return
        bound = _bound_value(value)
        if _is_module_level(statement, self.up):
            if not bound or name.type != "identifier":
                self.module_variables(node, name, value, statement)
            return
        scope = self.parent()
        if name.type == "identifier" and bound:
            # ``const inner = () => ...`` is a definition of its own (``outer.inner``): the
            # scope's children find it, a binding without a value would hide it
            self.locals.setdefault(scope, set()).add(self.text(name))
            return
        if name.type == "identifier":
            annotation = node.child_by_field_id(self.fid.type)
            type_ = self.principal_type(annotation) or self.cast_type(value)
            if type_ is not None and annotation is not None:
                self.instance_arguments(scope, name, annotation, type_)
            # the name's declarator is ``node``, whose parent is ``statement``: given, not
            # looked up again (``Node.parent`` searches down from the root on every call)
            self.bind(scope, name, type_, self.value_chain(value), statement)
        elif name.type == "object_pattern" and (source := self.value_chain(value)):
            self.bind_destructured(scope, name, source)
        else:
            for bound in _pattern_names(name):
                self.bind(scope, bound)

    def cast_type(self, value: Node | None) -> Chain | None:
        """``expr as Foo`` (through ``await``/parentheses): the type the cast claims; ``new
        Map<K, Foo>()`` / ``new Set<Foo>()``: the collection its type arguments make;
        ``Object.assign(a, b)``: the intersection of its arguments' types."""
        while value is not None and value.type in ("await_expression", "parenthesized_expression"):
            value = _first_named(value)
        if value is not None and value.type == "new_expression":
            return self.collection_type(value)
        if value is not None and value.type == "call_expression":
            return self.assigned_type(value)  # ``Object.assign(a, b)``: composed.py
        if value is None or value.type not in ("as_expression", "satisfies_expression"):
            return None
        count = value.named_child_count
        return self.principal_type(value.named_child(count - 1)) if count else None

    def collection_type(self, new: Node) -> Chain | None:
        """``new Map<K, Foo>()`` is a ``("Foo", "{}")``, ``new Set<Foo>()`` a ``("Foo", "[]")``:
        what the compiler reads from a built-in collection's type arguments."""
        constructor = new.child_by_field_id(self.fid.constructor)
        name = self.text(constructor) if constructor is not None else ""
        if name not in _MAPPING_GENERICS and name not in _ELEMENT_GENERICS:
            return None
        args = generics.type_arguments(new)
        if name in _MAPPING_GENERICS:
            return self.mapped_type(args[1]) if len(args) == 2 else None
        return self.element_type(args[0]) if len(args) == 1 else None

    def bind_destructured(self, scope: str, pattern: Node, source: Chain) -> None:
        """``const { a, b: c } = expr`` binds a to ``expr.a`` and c to ``expr.b``."""
        for child in pattern.named_children:
            if child.type == "shorthand_property_identifier_pattern":
                self.bind(scope, child, None, (*source, self.text(child)))
                continue
            key = child.child_by_field_id(self.fid.key) if child.type == "pair_pattern" else None
            value = child.child_by_field_id(self.fid.value) if key is not None else None
            if key is not None and value is not None and value.type == "identifier":
                self.bind(scope, value, None, (*source, self.text(key)))
                continue
            for bound in _pattern_names(child):
                self.bind(scope, bound)

    def collect_returns(self) -> None:
        """``return <chain>`` as the pseudo-binding ``return`` of the named function it is in
        (see facts.py); returns inside anonymous callbacks belong to the callbacks."""
        for node in self.caps.get("binding.return", ()):
            # the scope first: a bisect, where the walk up to the function makes a node a step
            scope = self.scopes.at(node.start_byte)
            if self.kinds.get(scope) not in _BODY_KINDS:
                continue
            fn = self.up(node)  # a function's returns share most of the walk up to it
            while fn is not None and fn.type not in FUNCTION_NODES:
                fn = self.up(fn)
            if fn is None or ((up := self.up(fn)) is not None and up.type in _CALLBACK_PARENTS):
                continue
            value = self.value_chain(node)
            if value is not None:
                self.bindings.append(Binding(scope, "return", node.start_point[0] + 1, None, value))

    def collect_local_assignments(self) -> None:
        """``x = expr`` to a name declared in the same scope: a later value for x. Assignments
        to names the scope does not declare write an outer variable and bind nothing here."""
        for node in self.caps.get("assignment.local", ()):
            left, right = (
                node.child_by_field_id(self.fid.left),
                node.child_by_field_id(self.fid.right),
            )
            if left is None or right is None:
                continue
            scope = self.scopes.at(node.start_byte)
            name = self.text(left)
            if name in self.locals.get(scope, ()):
                line = left.start_point[0] + 1
                self.bindings.append(Binding(scope, name, line, None, self.value_chain(right)))

    def bind(
        self,
        scope: str,
        name: Node,
        type_: Chain | None = None,
        value: Chain | None = None,
        statement: Node | None = None,
    ) -> None:
        """``statement``: what holds ``name``'s pattern (``declaring_block``), when known."""
        text = self.text(name)
        self.locals.setdefault(scope, set()).add(text)
        # scope "" here means inside an anonymous callback at module level (``describe(() =>
        # { const svc = new Svc(); ... })``): real module-level names never come through here
        if scope == "" or self.kinds.get(scope) in _BODY_KINDS:
            line, block = name.start_point[0] + 1, self.declaring_block(name, statement)
            self.bindings.append(Binding(scope, text, line, type_, value, block))

    def declaring_block(self, name: Node, statement: Node | None = None) -> tuple[int, int] | None:
        """The lines of the block a ``const``/``let`` name is declared in, when that block is
        not the body of the definition the name is a local of (a loop's body, an anonymous
        callback's): the compiler's block scope. None for ``var``, parameters and the rest.
        ``statement``: the first of the name's ancestors that is no pattern part, when the
        caller has it."""
        node = statement
        if node is None:
            node = name.parent
            while node is not None and node.type in _PATTERN_PARTS:
                node = node.parent
        if node is None:
            return None
        if node.type == "for_in_statement":  # ``for (const x of xs)``: the loop is its block
            kind = node.child_by_field_id(self.fid.kind)
            if kind is None or self.text(kind) not in ("const", "let"):
                return None
            block = node
        elif node.type == "lexical_declaration":
            block = self.up(node)
            while block is not None and block.type not in _BLOCKS:
                block = self.up(block)
            if block is None or block.type == "program":
                return None
        else:
            return None
        owner = self.up(block) if block.type == "statement_block" else None
        if owner is not None and owner.type in FUNCTION_NODES:
            for n in (owner, block):
                if (n.start_byte, n.end_byte) in self.scope_nodes:
                    return None  # the body of the definition itself: the whole scope
        return (block.start_point[0] + 1, block.end_point[0] + 1)

    def module_variables(self, node: Node, name: Node, value: Node | None, statement: Node) -> None:
        outer, exported, _, declare = _outer(statement)
        first = _first_declarator(statement)
        start = statement if first is not None and first.start_byte == node.start_byte else node
        keyword = statement.child_by_field_id(self.fid.kind) or statement.child(0)
        head = self.signature(node.start_byte, value.start_byte if value else node.end_byte)
        common = {
            "docstring": self.docstring(outer.start_byte),
            "exported": exported,
            "modifiers": ("declare",) if declare else (),
            "signature": f"{self.text(keyword)} {head.rstrip(' =')}" if keyword else head,
        }
        if name.type == "identifier":
            type_ = self.principal_type(node.child_by_field_id(self.fid.type)) or self.cast_type(
                value
            )
            if _unwrap(value) is not None and _unwrap(value).type == "object":
                parent = self.parent()
                self.object_variables[node.start_byte] = (
                    f"{parent}.{self.text(name)}" if parent else self.text(name)
                )
            self.emit(
                DefKind.VARIABLE,
                self.text(name),
                self.parent(),
                (start, node),
                type=type_,
                value=self.value_chain(value),
                **common,
            )
            if keyword is not None and value is not None and value.type in _NAME_VALUES:
                self.module_alias(name, value, self.text(keyword))
            return
        for bound in _pattern_names(name):
            self.emit(DefKind.VARIABLE, self.text(bound), self.parent(), (start, node), **common)

    def module_alias(self, name: Node, value: Node, keyword: str) -> None:
        """``export const alias = fn`` / ``var compat = lib.real``: a variable whose whole value
        is a name is an alias of what it names (facts.ALIAS); a ``let`` or ``var`` may be
        assigned again, a ``const`` not."""
        if _simple_chain(self.src[value.start_byte : value.end_byte]) is None:
            return  # ``a[0]``, ``f().x``: not a name
        parent = self.parent()
        qualname = f"{parent}.{self.text(name)}" if parent else self.text(name)
        self.alias_values.setdefault((value.start_byte, value.end_byte), []).append(qualname)
        # a declarator is no assignment expression: any assignment of the name is another
        self.aliases[qualname] = None if keyword == "const" else (self.text(name), 0)

    def rebound_aliases(self) -> set[str]:
        """The aliases assigned again in the file (``compat = other`` for a ``let compat =
        fn``; a second ``res.type = ...`` for an attached alias), or declared again."""
        written: dict[str, int] = {}
        for tag in ("assignment.local", "assignment.member"):
            for node in self.caps.get(tag, ()):
                left = node.child_by_field_id(self.fid.left)
                if left is not None:
                    text = _collapse(self.text(left))
                    written[text] = written.get(text, 0) + 1
        declared: dict[str, int] = {}
        for d in self.defs:
            declared[d.qualname] = declared.get(d.qualname, 0) + 1
        return {
            qualname
            for qualname, assigned in self.aliases.items()
            if declared.get(qualname, 0) > 1
            or (assigned is not None and written.get(assigned[0], 0) > assigned[1])
        }

    # ------------------------------------------------------------ object literal members

    def object_owner(self, obj: Node) -> str | None:
        """The qualname an object literal's members are defined under: a module-level
        variable's (``const api = {...}`` -> ``api``), a member's of such a literal
        (``api.nested``), or the module's for ``module.exports = {...}`` (``""``); None for
        any other literal (an argument, a local's value: its members are anonymous)."""
        _, parent = climb(obj)
        if parent is None:
            return None
        if parent.type == "variable_declarator":
            return self.object_variables.get(parent.start_byte)
        if parent.type == "pair" and (obj := parent.parent) is not None and obj.type == "object":
            outer = self.object_owner(obj)
            key = self.member_name(parent.child_by_field_id(self.fid.key))
            if outer is None or key is None:
                return None
            return f"{outer}.{key}" if outer else key
        if parent.type == "assignment_expression":
            left = parent.child_by_field_id(self.fid.left)
            if left is not None and self.text(left) in ("module.exports", "exports"):
                # ``module.exports = {...}``, also as ``const proto = module.exports = {...}``
                statement = parent.parent
                while statement is not None and statement.type in _CHAINED_ASSIGNMENT:
                    statement = statement.parent
                outer = statement.parent if statement is not None else None
                if outer is not None and outer.type == "program":
                    return ""
        return None

    def on_object_member(self, pair: Node) -> None:
        """``key: () => ...`` / ``key: function () {}`` / ``key: {...}`` in a literal bound
        to a module-level name: a function ``owner.key`` (a nested literal a variable that
        only qualifies its members)."""
        value, key = pair.child_by_field_id(self.fid.value), pair.child_by_field_id(self.fid.key)
        value = _unwrap(value)  # ``key: ((arg) => ...) as T`` is the function all the same
        if value is None or (value.type not in _FUNCTION_VALUES and value.type != "object"):
            return
        owner = self.object_owner(parent) if (parent := pair.parent) is not None else None
        name = self.member_name(key)
        if owner is None or name is None:
            return
        if value.type == "object":
            self.emit(
                DefKind.VARIABLE,
                name,
                owner,
                (pair, pair),
                signature=self.signature(pair.start_byte, value.start_byte).rstrip(" :"),
            )
            return
        self.function_value_def(value, name, (pair, pair), (pair, True, False, False), owner=owner)
        self.object_member_export(owner, name)
        self.bind_this(value, _owner_chain(owner))

    def on_named_function(self, fn: Node) -> None:
        """``register(function handler() {...})``: a function expression with a name of its
        own that nothing else names (a declarator, a member, ``a.b =`` name theirs)."""
        _, parent = climb(fn)
        if parent is None or parent.type in _NAMING_PARENTS:
            return
        name = fn.child_by_field_id(self.fid.name)
        if name is not None:
            self.function_value_def(fn, self.text(name), (fn, fn), (fn, False, False, False))

    def object_method(self, node: Node, name: str, obj: Node) -> None:
        """``m() {}`` in a literal bound to a module-level name: the function ``owner.m``."""
        owner = self.object_owner(obj)
        if owner is None:
            return
        mods, _, header, _ = self.scan(node)
        body = node.child_by_field_id(self.fid.body)
        self.emit(
            DefKind.FUNCTION,
            name,
            owner,
            (node, node),
            node,
            signature=self.signature(header, body.start_byte if body else node.end_byte),
            docstring=self.docstring(node.start_byte),
            modifiers=_sorted_modifiers(mods),
            params=self.params(node.child_by_field_id(self.fid.parameters)),
            returns=self.principal_type(node.child_by_field_id(self.fid.return_type), returns=True),
        )
        self.object_member_export(owner, name)
        self.bind_this(node, _owner_chain(owner))

    def object_member_export(self, owner: str, name: str) -> None:
        if not owner:  # ``module.exports = { get() {} }``: the module's export ``get``
            self.exports.append((name, name))

    def bind_this(self, fn: Node, owner: Chain) -> None:
        """``this`` inside the function just defined onto an object (its scope is the top of
        the stack: ``body#2`` for a setter after its getter) is that object; an arrow
        function has no ``this`` of its own."""
        if fn.type != "arrow_function" and self.stack:
            scope = self.stack[-1][1]
            self.bindings.append(Binding(scope, "this", fn.start_point[0] + 1, None, owner))

    def import_source(self, node: Node | None) -> Node | None:
        """The ``require('x')`` / ``import('x')`` call an expression is, or None."""
        while node is not None and node.type == "await_expression":
            node = _first_named(node)
        if node is None or node.type != "call_expression":
            return None
        fn = node.child_by_field_id(self.fid.function)
        if fn is None or not (fn.type == "import" or self.text(fn) == "require"):
            return None
        args = node.child_by_field_id(self.fid.arguments)
        first = _first_named(args) if args is not None else None
        return node if first is not None and first.type == "string" else None

    def call_module(self, call: Node) -> str:
        args = call.child_by_field_id(self.fid.arguments)
        first = _first_named(args) if args is not None else None
        return _unquote(self.text(first)) if first is not None else ""

    def require_import(self, name: Node, value: Node, statement: Node) -> bool:
        """``const x = require('y')``, ``const {a: b} = require('y')``,
        ``const f = require('y').f`` -> imports; True when the declarator was one."""
        member = None
        call = self.import_source(value)
        if call is None and value.type == "member_expression":
            call = self.import_source(value.child_by_field_id(self.fid.object))
            member = value.child_by_field_id(self.fid.property)
        if call is None:
            return False
        self.import_calls.add(call.start_byte)
        module, line, scope = self.call_module(call), statement.start_point[0] + 1, self.parent()
        if name.type == "identifier":
            imported = self.text(member) if member is not None else None
            self.imports.append(Import(module, imported, self.text(name), line, scope=scope))
            return True
        for child in name.named_children if member is None else ():
            if child.type == "shorthand_property_identifier_pattern":
                text = self.text(child)
                self.imports.append(Import(module, text, text, line, scope=scope))
            elif child.type == "pair_pattern":
                key, bound = (
                    child.child_by_field_id(self.fid.key),
                    child.child_by_field_id(self.fid.value),
                )
                if key is not None and bound is not None and bound.type == "identifier":
                    key_text, alias = _unquote(self.text(key)), self.text(bound)
                    self.imports.append(Import(module, key_text, alias, line, scope=scope))
        return True

    def on_export(self, node: Node) -> None:
        source = node.child_by_field_id(self.fid.source)
        if source is not None:
            self.reexport(node, _unquote(self.text(source)))
            return
        assigns = False
        for child in node.children:
            if child.type == "export_clause":
                for spec in child.named_children:
                    local = spec.child_by_field_id(self.fid.name)
                    alias = spec.child_by_field_id(self.fid.alias)
                    if spec.type == "export_specifier" and local is not None:
                        exported = _unquote(self.text(alias or local))
                        self.exports.append((_unquote(self.text(local)), exported))
            elif child.type == "=":
                assigns = True
            elif assigns and child.type == "identifier":
                self.exports.append((self.text(child), "="))  # TS ``export = x``
        value = node.child_by_field_id(self.fid.value)
        if value is None:
            return
        if value.type == "identifier":
            self.exports.append((self.text(value), "default"))
        elif value.type in _BOUND_VALUES:
            self.anonymous_default(node, value)

    def anonymous_default(self, statement: Node, value: Node) -> None:
        name_node = value.child_by_field_id(self.fid.name)
        name = self.text(name_node) if name_node is not None else "default"
        outer_info = (statement, True, True, False)
        if value.type == "class":
            self.class_def(value, name, (value, value), outer_info)
        else:
            self.function_value_def(value, name, (value, value), outer_info)

    def reexport(self, node: Node, module: str) -> None:
        line = node.start_point[0] + 1
        type_only = any(c.type == "type" for c in node.children)
        for child in node.named_children:
            if child.type == "export_clause":
                for spec in child.named_children:
                    name = spec.child_by_field_id(self.fid.name)
                    alias = spec.child_by_field_id(self.fid.alias)
                    if spec.type != "export_specifier" or name is None:
                        continue
                    text = _unquote(self.text(name))
                    alias_text = _unquote(self.text(alias)) if alias is not None else text
                    spec_type = type_only or any(c.type == "type" for c in spec.children)
                    self.imports.append(
                        Import(module, text, alias_text, line, reexport=True, type_only=spec_type)
                    )
                return
            if child.type == "namespace_export":
                alias = _first_named(child)
                text = _unquote(self.text(alias)) if alias is not None else ""
                self.imports.append(
                    Import(module, None, text, line, reexport=True, type_only=type_only)
                )
                return
        self.imports.append(Import(module, "*", "", line, reexport=True, type_only=type_only))

    def on_assignment(self, node: Node) -> None:
        left, right = node.child_by_field_id(self.fid.left), node.child_by_field_id(self.fid.right)
        if right is not None and right.type == "assignment_expression":
            self.chained_assignment(node, right)
            return
        target = left.child_by_field_id(self.fid.object) if left is not None else None
        if left is None or right is None or target is None:
            return
        if target.type == "this":
            if self.stack:
                self.this_assignments.append((node, self.stack[-1][1]))
            return
        statement = node.parent
        if statement is None or statement.type != "expression_statement":
            return
        if (outer := statement.parent) is None or outer.type != "program":
            self.anonymous_method(target, right)
            return
        if left.type != "member_expression":  # ``app[method] = function`` at the top level
            self.anonymous_method(target, right)
            return
        chain = self.chain(left)
        if chain == ["module", "exports"]:
            self.module_exports(node, right, statement)
        elif (exported := _exported_name(chain)) is not None:
            self.commonjs_export(node, exported, right, statement)
        elif right.type in _FUNCTION_VALUES and (
            len(chain) == 2 or (len(chain) == 3 and chain[1] == "prototype")
        ):
            self.attached_function(node, chain[0], chain[-1], right, statement)
        elif right.type == "class" and len(chain) == 2:
            self.attached_class(node, chain[0], chain[1], right, statement)

    def chained_assignment(self, node: Node, right: Node) -> None:
        """``exports = module.exports = internals.Auth = class {}`` at the top level (hapi's
        modules, and CommonJS code written like them): the innermost target names the value, as
        a single assignment to it would (an attached ``owner.name`` or an ``exports.name``);
        every outer ``module.exports`` or ``exports.x`` exports that definition, and every outer
        ``owner.name`` on a top-level definition is an alias of it (:meth:`attached_alias`). A
        chain of anything else (``a = b = 0``, ``this.x = this.y = null``) defines nothing."""
        statement = node.parent
        if statement is None or statement.type != "expression_statement":
            return
        if statement.parent is None or statement.parent.type != "program":
            return
        outer_targets = [node.child_by_field_id(self.fid.left)]
        inner = right
        value = inner.child_by_field_id(self.fid.right)
        while value is not None and value.type == "assignment_expression":
            outer_targets.append(inner.child_by_field_id(self.fid.left))
            inner, value = value, value.child_by_field_id(self.fid.right)
        left = inner.child_by_field_id(self.fid.left)
        if value is None or value.type not in _BOUND_VALUES:
            return
        if left is None or left.type != "member_expression":
            return
        chain = self.chain(left)
        if (qualname := _exported_name(chain)) is not None:
            self.commonjs_export(inner, qualname, value, statement)
        elif len(chain) == 2 and self.parents.get(chain[0]) == "":
            qualname = ".".join(chain)  # the attached definition's own qualname
            attach = self.attached_class if value.type == "class" else self.attached_function
            attach(inner, chain[0], chain[1], value, statement)
        else:
            return
        aliases: list[str] = []
        for target in outer_targets:
            outer = self.chain(target) if target is not None else []
            if outer == ["module", "exports"]:
                self.exports.append((qualname, "="))
            elif (exported := _exported_name(outer)) is not None:
                self.exports.append((qualname, exported))
            elif len(outer) == 2 and self.parents.get(outer[0]) == "" and target is not None:
                self.attached_alias(target, outer[0], outer[1], qualname, statement)
                aliases.append(".".join(outer))
        # the value is read into each alias, as ``alias = fn`` reads ``fn`` (facts.ALIAS)
        if aliases:
            chain, point = self.chain_at(left)
            for alias in aliases:
                self.add_ref(RefKind.READ, chain, alias, point)
                self.aliases[alias] = (alias, 1)  # this ``res.contentType = …`` is one

    def attached_alias(
        self, target: Node, owner: str, name: str, qualname: str, statement: Node
    ) -> None:
        """``res.contentType = res.type = function contentType() {}`` (express's style): the
        value is defined once, under the innermost name; each outer ``owner.name`` is a
        variable holding it, as ``const alias = fn`` is: the documented name can be looked up,
        calls of ``res.contentType(...)`` resolve to that variable, and the chain's read of
        ``res.type`` lists the alias among its uses as a value."""
        self.emit(
            DefKind.VARIABLE,
            name,
            owner,
            (target, target),
            signature=f"{_collapse(self.text(target))} = {qualname}",
            docstring=self.docstring(statement.start_byte),
            value=qualname.split("."),
        )

    def attached_function(
        self, node: Node, owner: str, name: str, fn: Node, statement: Node
    ) -> None:
        """``res.json = function json() {}`` / ``Foo.prototype.bar = function () {}``: how a
        module written before classes defines its API. Only onto an owner this file defines
        at top level, as ``owner.name``: a dotted qualname never shadows a module-level name
        (``res.send`` beside an imported ``send``)."""
        if self.parents.get(owner) != "":
            return  # not a top-level definition of this file (an import, a global, a typo)
        outer_info = (statement, True, False, False)
        self.function_value_def(fn, name, (node, node), outer_info, owner=owner)
        self.bind_this(fn, (owner,))
        left = node.child_by_field_id(self.fid.left)
        if left is not None and b".prototype." in self.src[left.start_byte : left.end_byte]:
            self.constructor_functions.add(owner)

    def attached_class(self, node: Node, owner: str, name: str, cls: Node, statement: Node) -> None:
        """``internals.Auth = class { ... }``: a class kept on a top-level object of the file,
        as ``owner.name`` (see :meth:`attached_function`)."""
        if self.parents.get(owner) == "":
            self.class_def(cls, name, (node, node), (statement, True, False, False), owner=owner)

    def module_exports(self, node: Node, right: Node, statement: Node) -> None:
        """``module.exports = X`` / ``= { a, b: c }`` / ``= class Foo {}``."""
        kind = right.type
        if kind == "identifier":
            self.exports.append((self.text(right), "="))
        elif kind == "object":
            for child in right.named_children:
                if child.type == "shorthand_property_identifier":
                    self.exports.append((self.text(child), self.text(child)))
                elif child.type == "pair":
                    key, value = (
                        child.child_by_field_id(self.fid.key),
                        child.child_by_field_id(self.fid.value),
                    )
                    if key is not None and value is not None and value.type == "identifier":
                        self.exports.append((self.text(value), _unquote(self.text(key))))
        elif kind in _BOUND_VALUES:
            name = right.child_by_field_id(self.fid.name)
            if name is not None:
                self.commonjs_export(node, self.text(name), right, statement)
                self.exports.append((self.text(name), "="))

    def commonjs_export(self, node: Node, name: str, right: Node, statement: Node) -> None:
        outer_info = (statement, True, False, False)
        if right.type == "class":
            self.class_def(right, name, (node, node), outer_info)
        elif right.type in _FUNCTION_VALUES:
            self.function_value_def(right, name, (node, node), outer_info)
        else:
            self.emit(
                DefKind.VARIABLE,
                name,
                "",
                (node, node),
                signature=self.signature(node.start_byte, right.start_byte).rstrip(" ="),
                docstring=self.docstring(statement.start_byte),
                value=self.value_chain(right),
            )

    def add_this_fields(self) -> None:
        """``this.x = ...`` in a method declares field ``x`` unless the class already has it;
        so does it in a constructor function (``function View() { this.engine = … }``, one
        with prototype members): ``View.engine``, as the compiler's JavaScript names it."""
        for node, scope in self.this_assignments:
            cls = self.parents.get(scope, "")
            kind = self.kinds.get(scope)
            if kind == DefKind.FUNCTION and scope in self.constructor_functions:
                cls = scope
            elif kind != DefKind.METHOD or self.kinds.get(cls) != DefKind.CLASS:
                continue
            left = node.child_by_field_id(self.fid.left)
            prop = left.child_by_field_id(self.fid.property) if left is not None else None
            if left is None or prop is None:
                continue
            name = self.text(prop)
            if name in self.members.get(cls, ()):
                continue
            private = name.startswith("#")
            self.emit(
                DefKind.FIELD,
                name,
                cls,
                (node, node),
                signature=_collapse(self.text(left)),
                exported=not private,
                visibility="private" if private else "public",
                value=self.value_chain(node.child_by_field_id(self.fid.right)),
            )

    def mark_overloads(self) -> None:
        """A body-less signature is an overload when its qualname is declared more than once
        as the same kind (a lone ``declare function f(): void`` in a .d.ts is not, nor an
        interface method beside a function-local function of its qualname)."""
        counts: dict[tuple[str, DefKind], int] = {}
        for d in self.defs:
            if d.kind in (DefKind.FUNCTION, DefKind.METHOD):
                key = (d.qualname, d.kind)
                counts[key] = counts.get(key, 0) + 1
        for i in self.overload_candidates:
            d = self.defs[i]
            if counts.get((d.qualname, d.kind), 0) > 1:
                self.defs[i] = replace(d, modifiers=_sorted_modifiers([*d.modifiers, "overload"]))

    # ---------------------------------------------------------------------------- bindings

    def collect_bindings(self) -> None:
        at = self.scopes.at
        for params in self.caps.get("binding.parameters", ()):
            owner = params.parent
            if owner is None or owner.type in _SIGNATURE_ONLY:
                continue
            scope = at(params.start_byte)
            element = self.callback_element(owner)
            context = self.callback_context(owner) if element is None else None
            member = self.member_context(owner) if element is context is None else None
            declared = self.declared_signature(owner) if member is None else None
            if isinstance(declared, tuple):
                member, declared = declared, None  # its ``(p:j)`` type the parameters
            declared_params = self.function_params(declared) if declared is not None else []
            own_scope = self.scope_nodes.get((owner.start_byte, owner.end_byte))
            if context is not None and owner.type in ("function_expression", "generator_function"):
                # ``schedule(function () { this.schedule() })``: the callee's ``this:`` type,
                # unless the function declares its own (read below)
                this = (*context[0], f"({context[1]}:this)")
                target = own_scope if own_scope is not None else scope
                self.bindings.append(Binding(target, "this", owner.start_point[0] + 1, None, this))
            position = 0  # among the arguments: TS ``this: Foo`` is none
            for i, param in enumerate(params.named_children):
                pattern = (
                    param.child_by_field_id(self.fid.pattern)
                    if param.type in ("required_parameter", "optional_parameter")
                    else None
                )
                if pattern is not None and pattern.type == "this":
                    # ``function (this: SchedulerAction<T>) { this.schedule() }``
                    this_type = self.principal_type(param.child_by_field_id(self.fid.type))
                    if this_type is not None:
                        line = param.start_point[0] + 1
                        target = own_scope if own_scope is not None else scope
                        self.bindings.append(Binding(target, "this", line, this_type))
                    continue
                if own_scope is not None and pattern is not None:
                    self.callback_param_types(own_scope, position, param)
                if pattern is not None and pattern.type == "identifier":
                    annotation = param.child_by_field_id(self.fid.type)
                    type_ = self.principal_type(annotation)
                    if type_ is None and annotation is not None:
                        type_ = self.object_shape(scope, annotation)
                    elif type_ is not None:
                        self.instance_arguments(scope, pattern, annotation, type_)
                    if type_ is None and position < len(declared_params):
                        type_ = self.principal_type(declared_params[position])
                    value = element if i == 0 and not type_ else None
                    if context is not None and not type_ and value is None:
                        value = (*context[0], f"({context[1]}:{position})")
                    elif member is not None and not type_:
                        value = (*member, f"(p:{position})")
                    # the name's parent is ``param``, no pattern part: no block (declaring_block)
                    self.bind(scope, pattern, type_, value, param)
                elif pattern is not None and pattern.type == "object_pattern":
                    source = self.parameter_source(param, i, position, element, context, member)
                    if source is not None:
                        self.bind_destructured(scope, pattern, source)
                    else:
                        for name in _pattern_names(param):
                            self.bind(scope, name)
                else:
                    for name in _pattern_names(param):
                        self.bind(scope, name)
                position += 1
        for params in self.caps.get("binding.signature_parameters", ()):
            owner = params.parent
            own_scope = self.scope_nodes.get((owner.start_byte, owner.end_byte)) if owner else None
            position = 0
            for param in params.named_children if own_scope is not None else ():
                pattern = param.child_by_field_id(self.fid.pattern)
                if pattern is None or pattern.type == "this":
                    continue
                self.callback_param_types(own_scope, position, param)
                position += 1
        # a named function expression's name is bound where it stands (``return function
        # dfs(n) { dfs(n.next) }``)
        for tag in ("binding.parameter", "binding.loop", "binding.catch", "binding.function_name"):
            for node in self.caps.get(tag, ()):
                scope = at(node.start_byte)
                if tag == "binding.loop":
                    element = self.iterated_element(node)
                elif tag == "binding.parameter" and (fn := node.parent) is not None:
                    element = self.callback_element(fn)
                    context = self.callback_context(fn) if element is None else None
                    if context is not None:
                        element = (*context[0], f"({context[1]}:0)")
                    elif element is None and (member := self.member_context(fn)):
                        element = (*member, "(p:0)")
                else:
                    element = None
                for name in _pattern_names(node):
                    self.bind(scope, name, None, element)
        for node in self.caps.get("binding.type_parameter", ()):
            self.type_params.setdefault(at(node.start_byte), set()).add(self.text(node))

    def callback_element(self, fn: Node) -> Chain | None:
        """``xs.forEach((x) => ...)`` and the other array callbacks: the callback's first
        parameter is an element of xs (what the compiler infers from the contextual type)."""
        args = self.up(fn)  # the contextual probes of one callback ask for these again
        call = self.up(args) if args is not None else None
        if call is None or call.type != "call_expression" or args.type != "arguments":
            return None
        if _first_named(args) != fn:
            return None
        callee = call.child_by_field_id(self.fid.function)
        if callee is None or callee.type != "member_expression":
            return None
        method = callee.child_by_field_id(self.fid.property)
        if method is None or self.text(method) not in _ELEMENT_CALLBACKS:
            return None
        receiver = self.value_chain(callee.child_by_field_id(self.fid.object))
        return (*receiver, "[i]") if receiver is not None else None

    def callback_context(self, fn: Node) -> tuple[Chain, int] | None:
        """``operate((source, subscriber) => ...)``, ``new Observable((subscriber) => ...)``:
        the callee and the callback's position among its arguments. An untyped parameter of the
        callback has the type the callee declares for it (the compiler's contextual type),
        which the callee's file records as the pseudo-binding ``(k:j)`` (see facts.py)."""
        argument = self.call_argument(fn)
        if argument is None:
            return None
        call, callee, position = argument
        declared = self.declared_arguments(call)  # ``const X: Box<Foo> = make((inst) => …)``
        if declared is not None:
            callee = (*callee, declared)
        return callee, position

    def callback_param_types(
        self, scope: str, position: int, param: Node, any_scope: bool = False
    ) -> None:
        """A parameter of ``scope`` typed by a function type (``init: (source: Observable<T>,
        subscriber: Subscriber<R>) => void``): the declared type of each of that function's
        parameters, as the pseudo-binding ``(position:j)`` of ``scope``, and of its ``this:``
        parameter as ``(position:this)``."""
        fn_type = self.function_type(param.child_by_field_id(self.fid.type))
        if fn_type is None or not (any_scope or self.kinds.get(scope) in _BODY_KINDS):
            return
        inner = fn_type.child_by_field_id(self.fid.parameters)
        j = 0
        for p in inner.named_children if inner is not None else ():
            pattern = p.child_by_field_id(self.fid.pattern)
            if pattern is None:
                continue
            if pattern.type == "this":
                type_ = self.principal_type(p.child_by_field_id(self.fid.type))
                if type_ is not None:
                    line = p.start_point[0] + 1
                    self.bindings.append(Binding(scope, f"({position}:this)", line, type_))
                continue
            type_ = self.principal_type(p.child_by_field_id(self.fid.type))
            if type_ is not None:
                line = p.start_point[0] + 1
                self.bindings.append(Binding(scope, f"({position}:{j})", line, type_))
            self.returned_parameter(scope, f"({position}:{j}:ret)", p, param)
            j += 1

    def iterated_element(self, left: Node) -> Chain | None:
        """``for (const x of xs)`` binds x to an element of xs (a single name only)."""
        statement = left.parent
        if left.type != "identifier" or statement is None:
            return None
        if not any(c.type == "of" for c in statement.children):
            return None
        iterable = self.value_chain(statement.child_by_field_id(self.fid.right))
        return (*iterable, "[i]") if iterable is not None else None

    def narrow(self) -> None:
        """Chains on a subject an ``instanceof`` test or a guard call narrows (narrowing.py)."""
        tests = self.caps.get("narrowing.instanceof", ())
        calls = self.caps.get("reference.call", ())
        ins = self.caps.get("narrowing.in", ())
        eqs = self.caps.get("narrowing.eq", ())
        switches = self.caps.get("narrowing.switch", ())
        found = narrowing.narrowings(tests, calls, self.src, self.position, ins, eqs, switches)
        if found:
            self.refs = narrowing.narrow(self.refs, found)
            self.bindings = narrowing.narrow_bindings(self.bindings, found)

    def position(self, point: tuple[int, int]) -> tuple[int, int]:
        """A tree-sitter point as a reference's (line, column)."""
        row, col = point
        return row + 1, col + 1 if self.ascii else self.column_at(row, col)

    def collect_imports(self) -> None:
        for node in self.caps.get("import.statement", ()):
            source = node.child_by_field_id(self.fid.source)
            clauses = [c for c in node.named_children if c.type.startswith("import_")]
            if source is None and clauses:
                source = clauses[0].child_by_field_id(self.fid.source)
            if source is None:
                continue
            module = _unquote(self.text(source))
            line, scope = node.start_point[0] + 1, self.scopes.at(node.start_byte)
            type_only = any(c.type == "type" for c in node.children)
            before = len(self.imports)
            for clause in clauses:
                self.import_clause(clause, module, line, scope, type_only)
            if len(self.imports) == before:
                self.imports.append(Import(module, None, "", line, scope=scope))

    def import_clause(
        self, clause: Node, module: str, line: int, scope: str, type_only: bool
    ) -> None:
        def add(name: str | None, alias: str, spec_type: bool = False) -> None:
            imp = Import(module, name, alias, line, scope=scope, type_only=type_only or spec_type)
            self.imports.append(imp)

        if clause.type == "import_require_clause":
            ident = _first_named(clause)
            if ident is not None and ident.type == "identifier":
                add(None, self.text(ident))
            return
        for part in clause.named_children:
            if part.type == "identifier":
                add("default", self.text(part))
            elif part.type == "namespace_import":
                ident = _first_named(part)
                add(None, self.text(ident) if ident is not None else "")
            elif part.type == "named_imports":
                for spec in part.named_children:
                    name, alias = (
                        spec.child_by_field_id(self.fid.name),
                        spec.child_by_field_id(self.fid.alias),
                    )
                    if spec.type != "import_specifier" or name is None:
                        continue
                    text = _unquote(self.text(name))
                    spec_type = any(c.type == "type" for c in spec.children)
                    add(text, self.text(alias) if alias is not None else text, spec_type)

    # -------------------------------------------------------------------------- references

    def add_ref(
        self, kind: RefKind, chain: Chain, scope: str, point: tuple[int, int], argc: int = -1
    ) -> None:
        row, col = point
        column = col + 1 if self.ascii else self.column_at(row, col)
        self.refs.append(Reference(kind, chain, scope, row + 1, column, argc))

    def chain_at(self, node: Node) -> tuple[Chain, tuple[int, int]]:
        """A chain and the (row, byte column) of its last element's name token."""
        raw = self.src[node.start_byte : node.end_byte]
        parts = _simple_chain(raw)
        if parts is not None:
            row, col = node.end_point
            return parts, (row, col - len(parts[-1]))
        return tuple(self.chain(node)), _last_token(node).start_point

    def collect_calls(self) -> None:
        at, src, chain_at, add_ref = self.scopes.at, self.src, self.chain_at, self.add_ref
        call, new = RefKind.CALL, RefKind.NEW
        for node in self.caps.get("reference.call", ()):
            fn = node.child_by_field_id(self.fid.function)
            if fn is None:
                continue
            kind = fn.type
            if kind == "import" or (
                kind == "identifier" and src[fn.start_byte : fn.end_byte] == b"require"
            ):
                self.bare_import(node)
                continue
            chain, point = chain_at(fn)
            if chain != _UNKNOWN:
                argc = _arg_count(node.child_by_field_id(self.fid.arguments), src)
                add_ref(call, chain, at(node.start_byte), point, argc)
                if chain[-1] == "assign" and chain[0] == "Object":
                    self.static_mixin(node)  # ``Object.assign(C.prototype, m)``: composed.py
        for node in self.caps.get("reference.new", ()):
            ctor = node.child_by_field_id(self.fid.constructor)
            if ctor is None:
                continue
            chain, point = chain_at(ctor)
            if chain != _UNKNOWN:
                args = node.child_by_field_id(self.fid.arguments)
                argc = _arg_count(args, src) if args is not None else 0
                add_ref(new, chain, at(node.start_byte), point, argc)
        for node in self.caps.get("reference.decorator", ()):
            chain, point = chain_at(node)
            if chain != _UNKNOWN:
                add_ref(call, chain, at(node.start_byte), point)

    def bare_import(self, call: Node) -> None:
        """A ``require('x')`` / ``import('x')`` not bound by a declarator: a side-effect import."""
        if call.start_byte in self.import_calls or self.import_source(call) is None:
            return
        module = self.call_module(call)
        scope = self.scopes.at(call.start_byte)
        self.imports.append(Import(module, None, "", call.start_point[0] + 1, scope=scope))

    def collect_types(self) -> None:
        at = self.scopes.at
        for node in self.caps.get("reference.type", ()):
            parent = node.parent
            if parent is None or parent.type in _TYPE_SKIP:
                continue
            if parent.type in ("type_alias_declaration", "mapped_type_clause"):
                name = parent.child_by_field_id(self.fid.name)
                if name is not None and name.start_byte == node.start_byte:
                    continue
            elif parent.type == "generic_type" and node.start_byte == parent.start_byte:
                owner = parent.parent
                if owner is not None and owner.type in _HERITAGE_TYPES:
                    continue  # the INHERIT/IMPLEMENT reference already names it
            chain = self.type_chain(node)
            if chain is None:
                continue
            scope = at(node.start_byte)
            if len(chain) == 1 and self.is_type_parameter(chain[0], scope):
                continue
            self.add_ref(RefKind.TYPE, chain, scope, _last_token(node).start_point)

    def is_type_parameter(self, name: str, scope: str) -> bool:
        for _ in range(64):
            if name in self.type_params.get(scope, ()):
                return True
            if not scope:
                return False
            scope = self.parents.get(scope, "")
        return False

    def collect_reads(self) -> None:
        """READs; the query only captures value positions, except under ``x!`` and JSX tags."""
        seen: set[tuple[str, object]] = set()
        for node in self.caps.get("reference.read", ()):
            self.add_read(node, seen)
        for node in self.caps.get("reference.non_null", ()):
            if self.non_null_is_read(node):
                self.add_read(node, seen)
        for node in self.caps.get("reference.jsx", ()):
            if (
                node.type != "identifier"
                or self.src[node.start_byte : node.start_byte + 1].isupper()
            ):
                self.add_read(node, seen)  # ``<div>`` is an intrinsic element, not a reference

    def non_null_is_read(self, node: Node) -> bool:
        node, parent = climb(node, _NON_NULL)
        if parent is None or parent.type in _NON_NULL_SKIP:
            return False
        rule = _READ_RULES.get(parent.type)
        return rule is None or rule(node, parent)

    def add_read(self, node: Node, seen: set[tuple[str, object]]) -> None:
        start = node.start_byte
        holders = self.alias_values.get((start, node.end_byte)) if self.alias_values else None
        if holders is not None:
            self.alias_read(node, holders, seen)
            return
        scope = self.scopes.at(start)
        written = (scope, self.src[start : node.end_byte])
        if written in seen:
            return  # cheap first-occurrence check on the text before building the chain
        seen.add(written)
        chain, point = self.chain_at(node)
        root = chain[0].partition("(")[0]  # ``require('x').y`` is an import, not a read
        if root in _GLOBALS or root == "this" or root == "?":
            return
        key = (scope, chain)
        if key in seen or root in self.locals.get(scope, ()):
            return
        seen.add(key)
        self.add_ref(RefKind.READ, chain, scope, point)

    def alias_read(self, node: Node, holders: list[str], seen: set[tuple[str, object]]) -> None:
        """The value of an alias, read by the alias itself (facts.ALIAS)."""
        chain, point = self.chain_at(node)
        root = chain[0]
        if root in _GLOBALS or root == "this" or root in self.locals.get("", ()):
            return
        for holder in holders:
            if (holder, chain) not in seen:
                seen.add((holder, chain))
                self.add_ref(RefKind.READ, chain, holder, point)


def _simple_chain(raw: bytes) -> Chain | None:
    """The parts of a chain written plainly (see ``_SIMPLE_CHAIN``), else None.

    Only the regex verdict is cached (the same few receivers and callees recur across a whole
    code base): the parts are built afresh, as sharing one tuple between references would
    change how the facts encode (marshal writes shared objects as back-references)."""
    simple = _SIMPLE_TEXTS.get(raw)
    if simple is None:
        if len(_SIMPLE_TEXTS) >= _CACHE_LIMIT:
            _SIMPLE_TEXTS.clear()  # cheaper than LRU bookkeeping; common texts come back
        simple = _SIMPLE_TEXTS[raw] = _SIMPLE_CHAIN.fullmatch(raw) is not None
    if not simple:
        return None
    return tuple(raw.decode("ascii").replace("?.", ".").split("."))


def _arg_count(args: Node | None, src: bytes) -> int:
    """Number of arguments; -1 with a spread or for a tagged template."""
    if args is None or args.type != "arguments":
        return -1
    raw = src[args.start_byte : args.end_byte]
    if b"..." not in raw and b"/" not in raw:
        return args.named_child_count  # no spread and no comment among the children
    count = 0
    for child in args.named_children:
        if child.type == "spread_element":
            return -1
        if child.type != "comment":
            count += 1
    return count
