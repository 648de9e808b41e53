"""Python frontend: one file's source bytes -> :class:`~astrag.graph.facts.FileFacts`.

The file is parsed once and ``queries/python.scm`` is run once over the tree; every fact comes
from those captures plus small walks of the captured nodes (a parameter list, an annotation, an
attribute chain). Nothing here resolves a name: a frontend records what the file says as
written, and the resolver decides what it means.

Scopes are computed without walking parents: the byte ranges of all function and class
definitions are nested intervals, so one sweep over them (sorted by start) yields a sorted list
of breakpoints where the innermost enclosing definition changes, and the scope of any captured
node is a ``bisect`` of its start byte. A class's scope starts at its body, so its bases and
decorators belong to the scope that contains the class, as they do at runtime.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

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
from astrag.lang.python.narrowing import narrow, narrow_bindings, narrowings
from astrag.lang.treesitter import Grammars, count_errors, in_document_order, query_source

LANGUAGE = "python"
_QUERY_FILE = "python.scm"


def _load_python() -> object:
    import tree_sitter_python

    return tree_sitter_python.language()


GRAMMARS = Grammars({"python": _load_python})

# Names a READ is never emitted for: they resolve to nothing in the repository.
_IMPLICIT_NAMES = frozenset(dir(builtins)) | {"__file__", "__path__", "__builtins__"}
_SELF_ROOTS = frozenset({"self", "cls"})

# Annotation heads whose first argument is the principal type.
_WRAPPERS = frozenset(
    {"Optional", "Annotated", "Final", "ClassVar", "Required", "NotRequired", "ReadOnly"}
)
# Homogeneous collections: their principal type is the element's, marked with a trailing "[]"
# (``List[Foo]`` -> ("Foo", "[]")) so that iterating or indexing one gives a Foo.
_ELEMENT_CONTAINERS = frozenset(
    {
        "list", "set", "frozenset", "deque", "List", "Set", "FrozenSet", "Deque", "Sequence",
        "MutableSequence", "Iterable", "Iterator", "AsyncIterable", "AsyncIterator", "Collection",
        "AbstractSet", "MutableSet", "Reversible",
    }
)  # fmt: skip
# Mappings: their principal type is the value's, marked "{}" (``Dict[str, Foo]`` -> ("Foo",
# "{}")), so that ``d[k]`` and ``d.get(k)`` give a Foo (iterating one gives its keys).
_MAPPINGS = frozenset(
    {"dict", "Dict", "Mapping", "MutableMapping", "defaultdict", "DefaultDict", "OrderedDict"}
)
# Containers and typing constructs: an annotation headed by one of them has no principal type.
_NO_PRINCIPAL = frozenset(
    {
        "list", "dict", "set", "frozenset", "tuple", "type", "deque", "defaultdict",
        "OrderedDict", "Counter", "ChainMap", "List", "Dict", "Set", "FrozenSet", "Tuple",
        "Type", "Deque", "DefaultDict", "Iterable", "Iterator", "Generator", "AsyncIterable",
        "AsyncIterator", "AsyncGenerator", "Sequence", "MutableSequence", "Mapping",
        "MutableMapping", "Collection", "Container", "AbstractSet", "MutableSet", "KeysView",
        "ValuesView", "ItemsView", "MappingView", "Reversible", "Callable", "Awaitable",
        "Coroutine", "ContextManager", "AsyncContextManager", "AbstractContextManager",
        "AbstractAsyncContextManager", "Any", "Union", "Optional", "Literal", "Generic",
        "Protocol", "TypeGuard", "TypeIs", "Unpack", "Concatenate", "NoReturn", "Never",
        "LiteralString", "TypeAlias",
    }
)  # fmt: skip
# Module roots under which a container name still means the typing construct.
_TYPING_ROOTS = frozenset(
    {"typing", "typing_extensions", "t", "collections", "abc", "builtins", "types"}
)
# Decorator (last chain element) -> modifiers it implies.
_DECORATOR_MODIFIERS: dict[str, tuple[str, ...]] = {
    "staticmethod": ("static",),
    "classmethod": ("classmethod",),
    "property": ("getter",),
    "cached_property": ("getter",),
    "setter": ("setter",),
    "abstractmethod": ("abstract",),
    "abstractproperty": ("abstract", "getter"),
    "abstractclassmethod": ("abstract", "classmethod"),
    "abstractstaticmethod": ("abstract", "static"),
    "overload": ("overload",),
}
_TARGET_CONTAINERS = frozenset(
    {
        "pattern_list",
        "tuple_pattern",
        "list_pattern",
        "tuple",
        "list",
        "list_splat_pattern",
        "list_splat",
        "parenthesized_expression",
        "as_pattern_target",
    }
)
_CHAINABLE = frozenset({"identifier", "attribute"})
# builtins whose result holds the elements of their one positional argument, in some order
_COPIES = frozenset({"list", "tuple", "sorted", "reversed", "set", "frozenset"})
_COMPREHENSIONS = frozenset({"list_comprehension", "set_comprehension", "generator_expression"})
_STRING_PREFIX = re.compile(rb"[A-Za-z]*")
# A plain ASCII dotted name, which is most attribute chains: split it instead of walking it.
_DOTTED = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_SPACE_AFTER_OPEN = re.compile(r"([(\[]) ")
_SPACE_BEFORE_CLOSE = re.compile(r" ([)\]])")
_SIGNATURE_LIMIT = 200
_NEWLINE = re.compile(rb"\n")

# Annotations repeat (``str``, ``Optional[Dict[str, Any]]``) and what they say depends only on
# their text, so it is computed once per distinct text, across files.
_CACHE_LIMIT = 50_000
_ANNOTATION_NAMES: dict[bytes, list[tuple[Chain, int]]] = {}  # names, end offsets in the text
_PRINCIPALS: dict[bytes, Chain | None] = {}

# (declared type, assigned value chain) of an assignment target
_Details = tuple[Chain | None, Chain | None]
_NO_DETAILS: _Details = (None, None)
# (owning class, field name, assignment node, details) of a ``self.x = ...`` in a method
_SelfField = tuple[str, str, Node, _Details]


def extract(
    path: str, source: bytes, grammar_name: str = LANGUAGE, tree: Tree | None = None
) -> FileFacts:
    """Parse one Python file (unless ``tree`` is its parse already) and return what it says
    about itself, unresolved."""
    tree = tree or GRAMMARS.parser(grammar_name).parse(source)
    captures = in_document_order(QueryCursor(_facts_query()).captures(tree.root_node))
    return _FileExtractor(path, source, tree.root_node, captures).run()


@cache
def _facts_query() -> Query:
    """The compiled facts query. Its tags-convention ``@name`` captures are switched off: names
    are read from the captured definitions and calls, and not materialising one node per
    definition and call is measurably faster."""
    compiled = Query(GRAMMARS.language(LANGUAGE), query_source("astrag.lang.python", _QUERY_FILE))
    compiled.disable_capture("name")
    return compiled


# ---------------------------------------------------------------------------- scopes


@dataclass(slots=True)
class _Scope:
    """A function or class definition seen during the scope sweep."""

    node: Node
    body: Node
    kind: DefKind
    name: str
    qualname: str
    parent: str
    body_start: int  # where names start resolving inside it (see module docstring)


@dataclass(slots=True)
class _ScopeIndex:
    """Innermost enclosing definition of any byte offset, by bisecting breakpoints."""

    starts: list[int] = field(default_factory=lambda: [0])
    names: list[str] = field(default_factory=lambda: [""])
    kinds: dict[str, DefKind] = field(default_factory=dict)
    functions: set[str] = field(default_factory=set)  # qualnames of functions and methods

    def at(self, byte: int) -> str:
        return self.names[bisect_right(self.starts, byte) - 1]

    def is_function(self, qualname: str) -> bool:
        return qualname in self.functions

    def enclosing_functions(self, qualname: str) -> Iterator[str]:
        """``qualname`` and every function around it whose locals a closure can see."""
        while qualname:
            if self.is_function(qualname):
                yield qualname
            qualname = qualname.rpartition(".")[0]


def _build_scopes(defs: list[tuple[Node, bool]], text: _Text) -> tuple[list[_Scope], _ScopeIndex]:
    """Name every definition and index where each one's scope begins and ends."""
    defs.sort(key=lambda item: item[0].start_byte)
    scopes: list[_Scope] = []
    index = _ScopeIndex()
    stack: list[tuple[int, _Scope]] = []  # (end byte, scope) of the open definitions
    for node, is_class in defs:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None or name_node.is_missing:
            continue
        _close_scopes(stack, node.start_byte, index)
        outer = stack[-1][1] if stack else None
        name = text.of(name_node)
        kind = DefKind.CLASS if is_class else DefKind.FUNCTION
        if not is_class and outer is not None and outer.kind is DefKind.CLASS:
            kind = DefKind.METHOD
        parent = outer.qualname if outer else ""
        qualname = f"{parent}.{name}" if parent else name
        scope_start = (body if is_class else node).start_byte
        scope = _Scope(node, body, kind, name, qualname, parent, scope_start)
        scopes.append(scope)
        index.kinds.setdefault(qualname, kind)
        if not is_class:
            index.functions.add(qualname)
        stack.append((node.end_byte, scope))
        index.starts.append(scope.body_start)
        index.names.append(qualname)
    _close_scopes(stack, 1 << 62, index)
    return scopes, index


def _close_scopes(stack: list[tuple[int, _Scope]], before: int, index: _ScopeIndex) -> None:
    while stack and stack[-1][0] <= before:
        end, _ = stack.pop()
        index.starts.append(end)
        index.names.append(stack[-1][1].qualname if stack else "")


# ---------------------------------------------------------------------------- text helpers


class _Text:
    """Slices of the source, and 1-based character columns of byte offsets."""

    __slots__ = ("ascii", "chains", "line_starts", "source")

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.ascii = source.isascii()
        # The same few names recur all over a file; splitting each once is measurably cheaper.
        self.chains: dict[bytes, Chain] = {}
        self.line_starts: list[int] | None = None

    def of(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def column(self, byte: int, byte_column: int) -> int:
        if self.ascii:
            return byte_column + 1
        line = self.source[byte - byte_column : byte]
        return len(line.decode("utf-8", "replace")) + 1 if not line.isascii() else byte_column + 1

    def last_name_position(self, node: Node, name: str) -> tuple[int, int]:
        """Position of ``name``, the token ``node`` ends with (an attribute's last name)."""
        row, col = node.end_point
        size = len(name) if self.ascii else len(name.encode())
        start = node.end_byte - size
        return row + 1, self.column(start, col - size)

    def dotted(self, node: Node) -> Chain | None:
        """The chain of a name or an attribute chain of names (``a.b.c``), else None."""
        raw = self.source[node.start_byte : node.end_byte]
        chain = self.chains.get(raw)
        if chain is not None:
            return chain
        if _DOTTED.fullmatch(raw):
            chain = self.chains[raw] = tuple(raw.decode().split("."))
            return chain
        if node.type == "type" and node.named_child_count == 1:
            return self.dotted(node.named_child(0))  # type: ignore[arg-type]
        chain = _chain(node, self)
        return chain if _is_pure(chain) else None

    def point(self, byte: int) -> tuple[int, int]:
        """(line, column) of any byte offset; builds a line index on first use."""
        if self.line_starts is None:
            self.line_starts = [0, *(m.end() for m in _NEWLINE.finditer(self.source))]
        row = bisect_right(self.line_starts, byte) - 1
        return row + 1, self.column(byte, byte - self.line_starts[row])

    def first_line(self, node: Node) -> str:
        end = self.source.find(b"\n", node.start_byte, node.end_byte)
        end = node.end_byte if end < 0 else end
        line = self.source[node.start_byte : end].decode("utf-8", "replace").strip()
        return line[:_SIGNATURE_LIMIT]


def _collapse(header: str) -> str:
    """One-line form of a multi-line header: ``def f(\\n  a,\\n)`` -> ``def f(a,)``."""
    if "\n" not in header and "  " not in header and "( " not in header and " )" not in header:
        return header.strip()
    flat = " ".join(header.split())
    return _SPACE_BEFORE_CLOSE.sub(r"\1", _SPACE_AFTER_OPEN.sub(r"\1", flat))


def _string_parts(raw: bytes) -> tuple[bytes, int, int] | None:
    """(prefix, quote length, content start) of a string literal, or None for f-strings."""
    prefix = _STRING_PREFIX.match(raw)
    plen = prefix.end() if prefix else 0
    letters = raw[:plen].lower()
    if b"f" in letters or b"t" in letters:
        return None
    body = raw[plen:]
    quote = 3 if body[:3] in (b'"""', b"'''") else 1
    if len(body) < 2 * quote:
        return None
    return letters, quote, plen + quote


def _string_value(raw: bytes) -> str | None:
    """The value of one plain (non-f) string literal as written in the source."""
    parts = _string_parts(raw)
    if parts is None:
        return None
    letters, quote, start = parts
    content = raw[start : len(raw) - quote]
    if b"\\" in content and b"r" not in letters:
        try:
            value = ast.literal_eval(raw.decode("utf-8", "replace"))
        except (SyntaxError, ValueError):
            return None
        return value.decode("latin-1") if isinstance(value, bytes) else str(value)
    return content.decode("utf-8", "replace")


def _literal_strings(node: Node, text: _Text) -> list[str] | None:
    """The strings of a list/tuple of string literals, or None if it is anything else."""
    values: list[str] = []
    for child in node.named_children:
        if child.type == "comment":
            continue
        value = _string_value(text.source[child.start_byte : child.end_byte])
        if child.type != "string" or value is None:
            return None
        values.append(value)
    return values


def _docstring(block: Node | None, text: _Text) -> str:
    """``inspect.cleandoc`` of the string literal that opens ``block``, if there is one."""
    if block is None:
        return ""
    for i in range(block.named_child_count):
        statement = block.named_child(i)
        if statement is None or statement.type == "comment":
            continue
        if statement.type != "expression_statement" or statement.named_child_count != 1:
            return ""
        literal = statement.named_child(0)
        if literal is None or literal.type not in ("string", "concatenated_string"):
            return ""
        pieces = literal.named_children if literal.type == "concatenated_string" else [literal]
        values = [_string_value(text.source[p.start_byte : p.end_byte]) for p in pieces]
        if None in values:
            return ""
        doc = "".join(v for v in values if v)
        return inspect.cleandoc(doc) if "\n" in doc or "\t" in doc else doc.strip()
    return ""


# ---------------------------------------------------------------------------- chains


def _chain(node: Node, text: _Text) -> Chain:
    """The access path of an expression: ``a.b().c`` -> ("a", "b()", "c"); else ("?", ...)."""
    parts: list[str] = []
    suffix = ""
    current: Node | None = node
    while current is not None:
        kind = current.type
        if kind == "identifier":
            parts.append(text.of(current) + suffix)
            break
        if kind == "attribute":
            attribute = current.child_by_field_name("attribute")
            parts.append((text.of(attribute) if attribute else "?") + suffix)
            suffix = ""
            current = current.child_by_field_name("object")
            continue
        if kind == "call":
            function = current.child_by_field_name("function")
            if function is not None and function.type in _CHAINABLE:
                suffix = "()"
                current = function
                continue
        if kind == "await":
            current = current.named_child(0) if current.named_child_count else None
            continue
        if kind == "subscript":  # ``xs[0].m``, ``d[k].m``: m of an element, a mapped value
            parts.append("[k]" + suffix)
            suffix = ""
            current = current.child_by_field_name("value")
            continue
        parts.append("?")
        break
    else:
        parts.append("?")
    parts.reverse()
    return tuple(parts)


def _value_chain(node: Node | None, text: _Text) -> Chain | None:
    """The chain of an assigned value when it is one, ignoring ``await`` and parentheses."""
    while (
        node is not None
        and node.type in ("await", "parenthesized_expression")
        and node.named_child_count
    ):
        node = node.named_child(0)
    if node is None:
        return None
    kind = node.type
    if kind in _CHAINABLE:
        return text.dotted(node) or _impure_value(node, text)
    if kind == "subscript":  # ``xs[0]``: an element of xs; ``xs[1:]``: xs's elements still
        inner = _value_chain(node.child_by_field_name("value"), text)
        index = node.child_by_field_name("subscript")
        if inner is None or index is None or node.named_child_count != 2:
            return None  # ``grid[i, j]`` / ``xs[a][b:c]`` forms beyond one index: unknown
        return inner if index.type == "slice" else (*inner, "[k]")
    if kind == "conditional_expression" or (
        kind == "boolean_operator" and node.child_by_field_name("operator").type == "or"
    ):
        # ``a if c else b`` / ``a or b``: both sides nearly always have one type; take the
        # first side that is a chain
        for side in (
            node.named_children[::2]
            if kind == "conditional_expression"
            else (
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
            )
        ):
            chain = _value_chain(side, text)
            if chain is not None:
                return chain
        return None
    if kind in _COMPREHENSIONS:
        return _filtered_collection(node, text)
    if kind != "call":
        return None
    function = node.child_by_field_name("function")
    if function is not None and function.type in _CHAINABLE:
        chain = text.dotted(function)
        if chain is not None:
            special = _copied_collection(chain, node, text) or _cast_value(chain, node, text)
            return special if special is not None else (*chain[:-1], chain[-1] + "()")
    return _impure_value(node, text)


def _copied_collection(function: Chain, call: Node, text: _Text) -> Chain | None:
    """``list(xs)``, ``tuple(xs)``, ``sorted(xs, key=k)``...: a copy holds xs's elements, so its
    value is xs's (iterating or indexing either gives the same element type)."""
    if len(function) != 1 or function[0] not in _COPIES:
        return None
    arguments = call.child_by_field_name("arguments")
    if arguments is not None and arguments.type == "generator_expression":
        return _filtered_collection(arguments, text)  # ``tuple(r for r in xs if r)``
    if arguments is None or arguments.type != "argument_list":
        return None
    positional = [a for a in arguments.named_children if a.type != "keyword_argument"]
    if len(positional) != 1 or positional[0].type == "call":
        return None  # ``list(map(f, xs))``: not xs's elements
    return _value_chain(positional[0], text)


def _cast_value(function: Chain, call: Node, text: _Text) -> Chain | None:
    """``typing.cast(Foo, x)`` is an instance of Foo (a class named as a plain chain)."""
    if function[-1] != "cast" or (len(function) == 2 and function[0] not in _TYPING_ROOTS):
        return None
    if len(function) > 2:
        return None
    arguments = call.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments and arguments.named_child_count else None
    chain = text.dotted(first) if first is not None and first.type in _CHAINABLE else None
    return (*chain[:-1], chain[-1] + "()") if chain else None


def _filtered_collection(node: Node, text: _Text) -> Chain | None:
    """``[r for r in xs if ...]``: a comprehension that keeps its loop variable holds xs's
    elements (one ``for`` clause only: a second one would iterate something else)."""
    body = node.child_by_field_name("body")
    clauses = [c for c in node.named_children if c.type == "for_in_clause"]
    if body is None or body.type != "identifier" or len(clauses) != 1:
        return None
    target = clauses[0].child_by_field_name("left")
    if target is None or target.type != "identifier" or text.of(target) != text.of(body):
        return None
    iterable = clauses[0].child_by_field_name("right")
    return _value_chain(iterable, text) if iterable is not None else None


def _impure_value(node: Node, text: _Text) -> Chain | None:
    """A value chain with calls inside (``a.b().c``), or None when its root is not a name."""
    chain = _chain(node, text)
    return None if chain[0] == "?" else chain


def _is_pure(chain: Chain) -> bool:
    return "?" not in chain and not any(part.endswith("()") for part in chain)


def _callee_chain(function: Node, text: _Text) -> Chain:
    if function.type in _CHAINABLE:
        return text.dotted(function) or _chain(function, text)
    return _chain(function, text)


# ---------------------------------------------------------------------------- annotations


def _annotation_principal(node: Node | None, text: _Text) -> Chain | None:
    """:func:`_principal` of an annotation, cached by its text."""
    if node is None:
        return None
    raw = text.source[node.start_byte : node.end_byte]
    try:
        return _PRINCIPALS[raw]
    except KeyError:
        principal = _principal(node, text)
        _remember(_PRINCIPALS, raw, principal)
        return principal


def _remember(cache: dict[bytes, Any], key: bytes, value: Any) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()  # cheaper than LRU bookkeeping; the common texts come straight back
    cache[key] = value


def _principal(node: Node | None, text: _Text) -> Chain | None:
    """The one named type an annotation is about (``Optional[Foo]`` -> ("Foo",)), or None."""
    if node is None:
        return None
    kind = node.type
    if kind in ("type", "parenthesized_expression"):
        return _principal(node.named_child(0), text) if node.named_child_count else None
    if kind in _CHAINABLE:
        chain = text.dotted(node)
        return None if chain is None or _is_typing_construct(chain) else chain
    if kind == "generic_type":
        arguments = node.named_child(1)
        members = arguments.named_children if arguments is not None else []
        return _principal_generic(node.named_child(0), members, text)
    if kind == "subscript":
        members = node.children_by_field_name("subscript")
        return _principal_generic(node.child_by_field_name("value"), members, text)
    if kind in ("union_type", "binary_operator"):
        return _principal_union(_union_members(node), text)
    if kind == "string":
        return _principal_of_string(text.source[node.start_byte : node.end_byte])
    return None


def _principal_generic(head: Node | None, members: list[Node], text: _Text) -> Chain | None:
    if head is None or head.type not in _CHAINABLE:
        return None
    chain = text.dotted(head)
    if chain is None:
        return None
    name = chain[-1]
    typing_like = len(chain) == 1 or chain[0] in _TYPING_ROOTS
    if typing_like and name in _WRAPPERS:
        return _principal(members[0], text) if members else None
    if typing_like and name == "Union":
        return _principal_union(members, text)
    if typing_like and name in ("type", "Type") and len(members) == 1:
        # ``type[Foo]`` is the class Foo itself (``typeof Foo``, facts.py): calling one of its
        # methods through it calls Foo's, as on the class
        named = _principal(members[0], text)
        return ("typeof", *named) if named is not None and _is_name(named) else None
    if typing_like and name in _ELEMENT_CONTAINERS and len(members) == 1:
        element = _principal(members[0], text)
        return (*element, "[]") if element is not None and element[-1] != "[]" else None
    if typing_like and name in _MAPPINGS and len(members) == 2:
        value = _principal(members[1], text)
        return (*value, "{}") if value is not None and value[-1] not in ("[]", "{}") else None
    return None if _is_typing_construct(chain) else chain


def _is_name(chain: Chain) -> bool:
    """A principal type naming one type: no collection, union or other composite."""
    return not any(part in ("[]", "{}", "|", "&", "typeof") for part in chain)


def _typevar_bound(value: Node | None, text: _Text) -> Chain | None:
    """The principal type of ``bound=`` in ``TypeVar("T", bound=Foo)`` (or ``"Foo"``)."""
    if value is None or value.type != "call":
        return None
    function = value.child_by_field_name("function")
    chain = text.dotted(function) if function is not None and function.type in _CHAINABLE else None
    if (
        chain is None
        or chain[-1] != "TypeVar"
        or (len(chain) > 1 and chain[0] not in _TYPING_ROOTS)
    ):
        return None
    arguments = value.child_by_field_name("arguments")
    for argument in arguments.named_children if arguments is not None else ():
        name = argument.child_by_field_name("name") if argument.type == "keyword_argument" else None
        if name is not None and text.of(name) == "bound":
            return _principal(argument.child_by_field_name("value"), text)
    return None


def _unpacked(target: Node, value: Chain | None) -> dict[int, Chain]:
    """``a, self.b = f(x)``: each target element's value by its start byte, the declared
    type of the element of f's ``tuple[...]`` return at its position (``(r:j)``, facts.py)."""
    if value is None or not value[-1].endswith("()"):
        return {}
    if target.type not in ("pattern_list", "tuple_pattern", "list_pattern"):
        return {}
    callee = (*value[:-1], value[-1][:-2])
    out: dict[int, Chain] = {}
    for j, element in enumerate(target.named_children):
        if element.type in ("list_splat_pattern", "list_splat"):
            break  # positions after a star are unknown
        if element.type in _CHAINABLE:
            out[element.start_byte] = (*callee, f"(r:{j})")
    return out


def _tuple_members(node: Node | None, text: _Text) -> list[Node]:
    """The member annotations of a fixed-size ``tuple[A, B]`` / ``Tuple[A, B]`` (not
    ``tuple[A, ...]``), else none."""
    while node is not None and node.type in ("type", "parenthesized_expression"):
        node = node.named_child(0) if node.named_child_count else None
    if node is None:
        return []
    if node.type == "generic_type":
        arguments = node.named_child(1)
        head, members = node.named_child(0), arguments.named_children if arguments else []
    elif node.type == "subscript":
        head, members = node.child_by_field_name("value"), node.children_by_field_name("subscript")
    else:
        return []
    chain = text.dotted(head) if head is not None and head.type in _CHAINABLE else None
    if chain is None or chain[-1] not in ("tuple", "Tuple"):
        return []
    if len(chain) > 1 and chain[0] not in _TYPING_ROOTS:
        return []
    if any(text.of(m) == "..." or m.type == "ellipsis" for m in members):
        return []
    return members


def _principal_union(members: list[Node], text: _Text) -> Chain | None:
    named = [m for m in members if not _is_none(m)]
    return _principal(named[0], text) if len(named) == 1 else None


def _union_members(node: Node) -> list[Node]:
    """Flatten ``A | B | C`` (nested binary operators or union_type) into its members."""
    members: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("union_type", "binary_operator"):
            stack.extend(reversed(current.named_children))
        else:
            members.append(current)
    return members


def _is_none(node: Node) -> bool:
    if node.type == "type" and node.named_child_count == 1:
        child = node.named_child(0)
        return child is not None and child.type == "none"
    return node.type == "none"


def _is_typing_construct(chain: Chain) -> bool:
    return chain[-1] in _NO_PRINCIPAL and (len(chain) == 1 or chain[0] in _TYPING_ROOTS)


@lru_cache(maxsize=4096)
def _parse_annotation(content: bytes) -> Node | None:
    """The expression inside a string annotation, or None if it is not one expression."""
    root = GRAMMARS.parser(LANGUAGE).parse(content).root_node
    if root.has_error or root.named_child_count != 1:
        return None
    statement = root.named_child(0)
    if statement is None or statement.type != "expression_statement":
        return None
    return statement.named_child(0)


def _string_annotation(raw: bytes) -> tuple[Node, _Text, int] | None:
    """(parsed expression, its text, offset of its content in ``raw``) of a string annotation."""
    parts = _string_parts(raw)
    if parts is None or b"\\" in raw:
        return None
    _, quote, start = parts
    content = raw[start : len(raw) - quote]
    expression = _parse_annotation(content)
    return (expression, _Text(content), start) if expression is not None else None


@lru_cache(maxsize=4096)
def _principal_of_string(raw: bytes) -> Chain | None:
    parsed = _string_annotation(raw)
    return _principal(parsed[0], parsed[1]) if parsed else None


def _type_names(node: Node, text: _Text, base: int = 0) -> Iterator[tuple[Chain, int]]:
    """Every named type in an annotation: (chain, end byte of its last name + ``base``).

    ``Literal[...]`` arguments are values, and ``Annotated[T, ...]`` metadata is not a type,
    so neither is searched; nor are calls (their names are CALL references already).
    """
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind in _CHAINABLE:
            chain = text.dotted(current)
            if chain is not None:
                yield chain, base + current.end_byte
        elif kind in ("generic_type", "subscript"):
            stack.extend(reversed(_searched_type_arguments(current, text)))
        elif kind == "string":
            raw = text.source[current.start_byte : current.end_byte]
            parsed = _string_annotation(raw)
            if parsed is not None:
                expression, content, offset = parsed
                yield from _type_names(expression, content, base + current.start_byte + offset)
        elif kind not in ("call", "keyword_argument", "comment"):
            stack.extend(reversed(current.named_children))


def _searched_type_arguments(node: Node, text: _Text) -> list[Node]:
    """The head of a subscripted annotation plus the arguments that are types."""
    if node.type == "generic_type":
        head = node.named_child(0)
        arguments = node.named_child(1)
        members = arguments.named_children if arguments is not None else []
    else:
        head = node.child_by_field_name("value")
        members = node.children_by_field_name("subscript")
    if head is None:
        return members
    chain = text.dotted(head) if head.type in _CHAINABLE else None
    name = chain[-1] if chain else ""
    if name == "Literal":
        members = []
    elif name == "Annotated":
        members = members[:1]
    return [head, *members]


# ---------------------------------------------------------------------------- targets


def _target_names(node: Node) -> Iterator[Node]:
    """Identifiers bound by an assignment/loop target, through tuples, lists and stars. A name
    the parser only inserted to recover (``: x = 1`` has a MISSING one) binds nothing."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            if not current.is_missing:
                yield current
        elif current.type in _TARGET_CONTAINERS:
            stack.extend(reversed(current.named_children))


def _attribute_targets(node: Node) -> Iterator[Node]:
    """Attributes assigned by a ``for``/``with`` target (``for self.i in ...``)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "attribute":
            yield current
        elif current.type in _TARGET_CONTAINERS or current.type == "as_pattern_target":
            stack.extend(reversed(current.named_children))


def _assignment_targets(node: Node) -> tuple[list[Node], Node | None]:
    """Left-hand sides of ``a = b = value`` and the final value."""
    targets: list[Node] = []
    current: Node | None = node
    while current is not None and current.type == "assignment":
        left = current.child_by_field_name("left")
        if left is not None:
            targets.append(left)
        current = current.child_by_field_name("right")
    return targets, current


def _line_count(source: bytes) -> int:
    if not source:
        return 0
    return source.count(b"\n") + (0 if source.endswith(b"\n") else 1)


def _visibility(name: str) -> tuple[bool, str]:
    """(exported, visibility) from Python naming conventions."""
    if not name.startswith("_"):
        return True, "public"
    if name.startswith("__") and name.endswith("__") and len(name) > 4:
        return True, "public"
    if name.startswith("__"):
        return False, "private"
    if name.startswith("_"):
        return False, "protected"
    return True, "public"


def _target_values(target: Node, text: _Text) -> dict[int, Chain]:
    """What the names of a ``for``/``with``/``except`` target hold, by their start byte:
    ``for x in xs`` an element of xs; ``for i, x in enumerate(xs)`` and ``for a, b in
    zip(as_, bs)`` elements of the zipped collections; ``with X() as x`` what ``__enter__``
    returns; ``except E as e`` an instance of E."""
    parent = target.parent
    if parent is None:
        return {}
    if target.type == "as_pattern_target":
        names = target.named_children
        value = _as_value(parent, text)
        if value is None or len(names) != 1 or names[0].type != "identifier":
            return {}
        return {names[0].start_byte: value}
    if parent.type not in ("for_statement", "for_in_clause"):
        return {}
    iterable = parent.child_by_field_name("right")
    if target.type == "identifier":
        chain = _value_chain(iterable, text)
        return {target.start_byte: (*chain, "[i]")} if chain is not None else {}
    if target.type not in ("pattern_list", "tuple_pattern") or iterable is None:
        return {}
    return _zipped_elements(target.named_children, iterable, text)


def _zipped_elements(names: list[Node], iterable: Node, text: _Text) -> dict[int, Chain]:
    if iterable.type != "call":
        return {}
    function = iterable.child_by_field_name("function")
    arguments = iterable.child_by_field_name("arguments")
    if function is None or arguments is None or arguments.type != "argument_list":
        return {}
    head = text.of(function)
    sources = [a for a in arguments.named_children if a.type != "keyword_argument"]
    if head == "enumerate" and len(sources) == 1:
        sources = [None, *sources]  # the index first
    elif head != "zip":
        return {}
    values: dict[int, Chain] = {}
    if len(names) != len(sources):
        return values
    for name, source in zip(names, sources, strict=True):
        chain = _value_chain(source, text) if source is not None else None
        if name.type == "identifier" and chain is not None:
            values[name.start_byte] = (*chain, "[i]")
    return values


def _as_value(pattern: Node, text: _Text) -> Chain | None:
    """The value an ``as`` name gets in a ``with`` item or an ``except`` clause."""
    owner = pattern.parent
    subject = pattern.named_children[0] if pattern.named_child_count else None
    if owner is None or subject is None:
        return None
    if owner.type == "with_item":
        chain = _value_chain(subject, text)
        statement = owner.parent.parent if owner.parent is not None else None
        is_async = statement is not None and text.source.startswith(b"async", statement.start_byte)
        enter = "__aenter__()" if is_async else "__enter__()"
        return (*chain, enter) if chain is not None else None
    if owner.type == "except_clause" and subject.type in _CHAINABLE:
        chain = text.dotted(subject)
        return (*chain[:-1], chain[-1] + "()") if chain else None
    return None


# ---------------------------------------------------------------------------- extractor


class _FileExtractor:
    """Turns one file's captures into facts; each ``_collect_*`` handles one capture family."""

    def __init__(self, path: str, source: bytes, root: Node, captures: dict[str, list[Node]]):
        self.path = path
        self.root = root
        self.captures = captures
        self.text = _Text(source)
        self.definitions: list[Definition] = []
        self.references: list[Reference] = []
        self.imports: list[Import] = []
        self.bindings: list[Binding] = []
        # Names READs must not be emitted for, per scope: locals and comprehension variables.
        self.local_names: dict[str, set[str]] = {}
        self.global_names: dict[str, set[str]] = {}
        self.all_names: list[str] | None = None
        self.all_static = True
        # aliases (facts.ALIAS): (start, end) of a module- or class-level assignment's whole
        # value that is a name -> the qualnames it is assigned to; and how often each
        # module- or class-level name is assigned (a second assignment makes it REBOUND)
        self.alias_values: dict[tuple[int, int], list[str]] = {}
        self.assigned: dict[str, int] = {}
        self.base_starts: set[int] = set()
        # calls whose receiver starts with self.x (function node, chain, scope)
        self.self_receivers: list[tuple[Node, Chain, str]] = []
        defs = [(n, True) for n in captures.get("definition.class", ())]
        defs += [(n, False) for n in captures.get("definition.function", ())]
        self.scopes, self.index = _build_scopes(defs, self.text)

    def run(self) -> FileFacts:
        self._collect_globals()
        self._collect_definitions()
        self._collect_assignments()
        self._collect_targets()
        self._collect_returns()
        self._collect_calls()
        self._collect_annotations()
        self._collect_reads()
        self._collect_imports()
        self._mark_aliases()
        if b"isinstance" in self.text.source:
            calls = self.captures.get("reference.call", [])
            found = narrowings(calls, self.text.source, self.text.dotted, self.text.point)
            self.references = narrow(self.references, found)
            self.bindings = narrow_bindings(self.bindings, found)
        bindings = [b for b in self.bindings if b.name not in self.global_names.get(b.scope, ())]
        self.references.sort(key=lambda r: (r.line, r.column))
        return FileFacts(
            path=self.path,
            language=LANGUAGE,
            lines=_line_count(self.text.source),
            errors=count_errors(self.root),
            definitions=tuple(sorted(self.definitions, key=lambda d: d.start_byte)),
            references=tuple(self.references),
            imports=tuple(self.imports),
            bindings=tuple(sorted(bindings, key=lambda b: b.line)),
            docstring=_docstring(self.root, self.text),
            all_names=tuple(self.all_names) if self.all_names is not None else None,
        )

    # -- helpers ---------------------------------------------------------------------------

    def _reference(
        self,
        kind: RefKind,
        chain: Chain,
        scope: str,
        node: Node,
        arg_count: int = -1,
        keywords: tuple[str, ...] = (),
    ) -> None:
        """Record a reference positioned at the name ``node`` ends with (a callee's name)."""
        if self.text.ascii:
            row, col = node.end_point
            line, column = row + 1, col - len(chain[-1]) + 1
        else:
            line, column = self.text.last_name_position(node, chain[-1])
        self.references.append(Reference(kind, chain, scope, line, column, arg_count, keywords))

    def _bind(
        self, scope: str, name_node: Node, type_: Chain | None = None, value: Chain | None = None
    ) -> None:
        """Record a local name: a Binding inside functions, a READ filter everywhere."""
        self._bind_name(scope, self.text.of(name_node), name_node, type_, value)

    def _bind_name(
        self, scope: str, name: str, name_node: Node, type_: Chain | None, value: Chain | None
    ) -> None:
        names = self.local_names.get(scope)
        if names is None:
            names = self.local_names[scope] = set()
        names.add(name)
        if scope in self.index.functions:
            line = name_node.start_point[0] + 1
            self.bindings.append(Binding(scope, name, line, type_, value))

    # -- definitions -----------------------------------------------------------------------

    def _collect_globals(self) -> None:
        for statement in self.captures.get("binding.global", ()):
            names = self.global_names.setdefault(self.index.at(statement.start_byte), set())
            names.update(self.text.of(n) for n in statement.named_children)

    def _collect_definitions(self) -> None:
        decorators: dict[int, list[Node]] = {}
        for decorated in self.captures.get("definition.decorated", ()):
            definition = decorated.child_by_field_name("definition")
            if definition is not None:
                found = [c for c in decorated.named_children if c.type == "decorator"]
                decorators[definition.start_byte] = found
        generators = {
            self.index.at(y.start_byte) for y in self.captures.get("definition.generator", ())
        }
        for scope in self.scopes:
            found = decorators.get(scope.node.start_byte, [])
            if found:
                self._decorator_calls(found, scope.parent)
            if scope.kind is DefKind.CLASS:
                self._class_definition(scope, found)
            else:
                self._function_definition(scope, found, scope.qualname in generators)

    def _decorator_calls(self, decorators: list[Node], scope: str) -> None:
        """A bare ``@name`` calls ``name`` with the definition; ``@f(...)`` is a call already."""
        for decorator in decorators:
            expression = decorator.named_child(0)
            if expression is not None and expression.type in _CHAINABLE:
                chain = _callee_chain(expression, self.text)
                self._reference(RefKind.CALL, chain, scope, expression, arg_count=1)

    def _decorator_info(self, decorators: list[Node]) -> tuple[tuple[str, ...], list[str]]:
        """(decorator texts without "@", modifiers they imply)."""
        texts: list[str] = []
        modifiers: list[str] = []
        for decorator in decorators:
            expression = decorator.named_child(0)
            if expression is None:
                continue
            texts.append(_collapse(self.text.of(expression)))
            if expression.type == "call":
                expression = expression.child_by_field_name("function") or expression
            last = _callee_chain(expression, self.text)[-1]
            modifiers.extend(_DECORATOR_MODIFIERS.get(last, ()))
        return tuple(texts), modifiers

    def _header(self, node: Node, end: int) -> str:
        """Definition header text up to byte ``end``, comments dropped, on one line."""
        source = self.text.source
        header = source[node.start_byte : end]
        if b"#" in header:
            header = self._strip_comments(node, end)
        return _collapse(header.decode("utf-8", "replace"))

    def _strip_comments(self, node: Node, end: int) -> bytes:
        source = self.text.source
        pieces: list[bytes] = []
        position = node.start_byte
        stack = [node]
        while stack:
            current = stack.pop()
            if current.start_byte >= end or current.type == "block":
                continue
            if current.type == "comment":
                pieces.append(source[position : current.start_byte])
                position = current.end_byte
            else:
                stack.extend(reversed(current.children))
        pieces.append(source[position:end])
        return b"".join(pieces)

    def _class_definition(self, scope: _Scope, decorators: list[Node]) -> None:
        node = scope.node
        bases: list[Chain] = []
        superclasses = node.child_by_field_name("superclasses")
        header_end = node.child_by_field_name("name").end_byte  # type: ignore[union-attr]
        type_parameters = node.child_by_field_name("type_parameters")
        if type_parameters is not None:
            header_end = type_parameters.end_byte
        if superclasses is not None:
            header_end = superclasses.end_byte
            bases = self._bases(superclasses, scope.parent)
        texts, modifiers = self._decorator_info(decorators)
        self._add_definition(
            scope,
            signature=self._header(node, header_end),
            decorators=texts,
            modifiers=tuple(dict.fromkeys(modifiers)),
            bases=tuple(bases),
        )

    def _bases(self, superclasses: Node, scope: str) -> list[Chain]:
        bases: list[Chain] = []
        for base in superclasses.named_children:
            if base.type == "subscript":  # a generic base: Repo(Base[User]) extends Base
                base = base.child_by_field_name("value") or base
            if base.type not in ("identifier", "attribute", "call"):
                continue
            chain = _callee_chain(base, self.text)
            if chain[0] == "?":
                continue
            self.base_starts.add(base.start_byte)  # an INHERIT, so not also a READ
            bases.append(chain)
            if base.type == "call":  # class A(with_metaclass(M, B)): the callee's name
                base = base.child_by_field_name("function") or base
                line, column = self.text.last_name_position(base, chain[-1][:-2])
                self.references.append(Reference(RefKind.INHERIT, chain, scope, line, column))
            else:
                self._reference(RefKind.INHERIT, chain, scope, base)
        return bases

    def _function_definition(self, scope: _Scope, decorators: list[Node], generator: bool) -> None:
        node = scope.node
        parameters = node.child_by_field_name("parameters")
        returns = node.child_by_field_name("return_type")
        header_end = (returns or parameters or node).end_byte
        texts, modifiers = self._decorator_info(decorators) if decorators else ((), [])
        if self.text.source.startswith(b"async", node.start_byte):
            modifiers.insert(0, "async")
        if scope.name == "__init__" and scope.kind is DefKind.METHOD:
            modifiers.append("constructor")
        if generator:
            modifiers.append("generator")
        params: tuple[Param, ...] = ()
        if parameters is not None and parameters.named_child_count:
            params = self._params(parameters, scope.qualname)
        self._add_definition(
            scope,
            signature=self._header(node, header_end),
            decorators=texts,
            modifiers=tuple(dict.fromkeys(modifiers)) if modifiers else (),
            params=params,
            returns=_annotation_principal(returns, self.text),
        )
        for j, member in enumerate(_tuple_members(returns, self.text)):
            # ``-> tuple[Pattern, str, dict]``: what unpacking a call of it binds, by position
            principal = _annotation_principal(member, self.text)
            if principal is not None:
                line = returns.start_point[0] + 1 if returns is not None else 0
                self.bindings.append(Binding(scope.qualname, f"(r:{j})", line, principal))

    def _add_definition(self, scope: _Scope, **details: Any) -> None:
        node = scope.node
        exported, visibility = _visibility(scope.name)
        self.definitions.append(
            Definition(
                kind=scope.kind,
                name=scope.name,
                qualname=scope.qualname,
                parent=scope.parent,
                start_line=node.start_point[0] + 1,
                end_line=node.end_point[0] + 1,
                start_byte=node.start_byte,
                end_byte=node.end_byte,
                docstring=_docstring(scope.body, self.text),
                exported=exported,
                visibility=visibility,
                **details,
            )
        )

    def _params(self, parameters: Node, scope: str) -> tuple[Param, ...]:
        params: list[Param] = []
        kind = "positional"
        for child in parameters.named_children:
            ctype = child.type
            if ctype == "keyword_separator":
                kind = "keyword_only"
                continue
            if ctype == "positional_separator":
                params = [_with_kind(p, "positional_only") for p in params]
                continue
            parsed = self._param(child, kind)
            if parsed is None:
                continue
            param, name_node = parsed
            if param.kind == "var_positional":
                kind = "keyword_only"
            params.append(param)
            # ``*args: T`` / ``**kw: T`` bind a tuple / dict of T, not a T
            packed = param.kind in ("var_positional", "var_keyword")
            type_ = None if packed else param.annotation
            self._bind_name(scope, param.name, name_node, type_, None)
        return tuple(params)

    def _param(self, node: Node, kind: str) -> tuple[Param, Node] | None:
        """One parameter node -> (Param, its name token); None for comments and the like."""
        ctype = node.type
        annotation = None
        has_default = ctype in ("default_parameter", "typed_default_parameter")
        if ctype in ("typed_parameter", "typed_default_parameter"):
            annotation = _annotation_principal(node.child_by_field_name("type"), self.text)
        if ctype in ("default_parameter", "typed_default_parameter"):
            node = node.child_by_field_name("name") or node
        elif ctype == "typed_parameter":
            node = node.named_child(0) or node
        if node.type == "list_splat_pattern":
            kind, node = "var_positional", node.named_child(0) or node
        elif node.type == "dictionary_splat_pattern":
            kind, node = "var_keyword", node.named_child(0) or node
        if node.type != "identifier":
            return None
        return Param(self.text.of(node), annotation, has_default, kind), node

    # -- assignments: module variables, class fields, local bindings -----------------------

    def _collect_assignments(self) -> None:
        seen_variables: set[str] = set()
        body_fields: dict[str, set[str]] = {}
        self_fields: list[_SelfField] = []
        functions = self.index.functions
        for node in self.captures.get("binding.assignment", ()):
            scope = self.index.at(node.start_byte)
            targets, value = _assignment_targets(node)
            type_ = _annotation_principal(node.child_by_field_name("type"), self.text)
            value_chain = _value_chain(value, self.text)
            self._count_assignment(scope, targets, value)
            for target in targets:
                simple = target.type in _CHAINABLE
                details = (type_, value_chain) if simple else _NO_DETAILS
                unpacked = {} if simple else _unpacked(target, value_chain)
                if scope in functions:
                    self._local_assignment(scope, node, target, details, self_fields, unpacked)
                else:
                    fields = body_fields.setdefault(scope, set()) if scope else seen_variables
                    self._member_assignment(scope, node, target, details, fields, unpacked)
            if not scope and len(targets) == 1:
                self._dunder_all(targets[0], value, augmented=False)
        for node in self.captures.get("binding.augmented", ()):
            self._augmented_assignment(node, seen_variables, body_fields)
        for target in self.captures.get("binding.target", ()):  # for/with ... as self.x
            scope = self.index.at(target.start_byte)
            if self.index.kinds.get(scope) is DefKind.METHOD and target.parent is not None:
                for element in _attribute_targets(target):
                    self._local_assignment(scope, target.parent, element, _NO_DETAILS, self_fields)
        self._self_fields(self_fields, body_fields)

    def _count_assignment(self, scope: str, targets: list[Node], value: Node | None) -> None:
        """Count the module- and class-level names an assignment binds (in a function, the
        names it declares ``global``), and note an alias: ``compat = real``, ``a = b = f``,
        ``__repr__ = __str__``, every target a plain name and the whole value a name chain."""
        if scope in self.index.functions:
            declared = self.global_names.get(scope, ())
            for target in targets:
                for name_node in _target_names(target):
                    if (name := self.text.of(name_node)) in declared:
                        self.assigned[name] = self.assigned.get(name, 0) + 1
            return
        prefix = f"{scope}." if scope else ""
        names = [f"{prefix}{self.text.of(n)}" for t in targets for n in _target_names(t)]
        for qual in names:
            self.assigned[qual] = self.assigned.get(qual, 0) + 1
        if (
            value is not None
            and value.type in _CHAINABLE
            and (written := self.text.dotted(value)) is not None
            and written[0] not in _SELF_ROOTS
            and all(t.type == "identifier" for t in targets)
        ):
            self.alias_values[(value.start_byte, value.end_byte)] = names

    def _mark_aliases(self) -> None:
        """Mark the aliases (facts.ALIAS); REBOUND when the name is assigned again, imported,
        or defined as a function or class in the same scope."""
        if not self.alias_values:
            return
        aliases = {q for names in self.alias_values.values() for q in names}
        bound = dict(self.assigned)
        for imp in self.imports:
            if imp.alias and imp.scope not in self.index.functions:
                key = f"{imp.scope}.{imp.alias}" if imp.scope else imp.alias
                bound[key] = bound.get(key, 0) + 1
        for d in self.definitions:
            if d.kind in (DefKind.FUNCTION, DefKind.METHOD, DefKind.CLASS):
                bound[d.qualname] = bound.get(d.qualname, 0) + 1
        rebound = {q for q in aliases if bound.get(q, 0) > 1}
        self.definitions = marked(self.definitions, aliases, rebound)

    def _member_assignment(
        self,
        scope: str,
        node: Node,
        target: Node,
        details: _Details,
        seen: set[str],
        unpacked: dict[int, Chain] | None = None,
    ) -> None:
        """Module-level VARIABLEs and class-body FIELDs: one Definition per name; a
        ``T = TypeVar("T", bound=Foo)`` is a TYPE_ALIAS of its bound (what a ``T`` is)."""
        kind = DefKind.FIELD if scope else DefKind.VARIABLE
        bound = _typevar_bound(_assignment_targets(node)[1], self.text)
        if bound is not None and target.type == "identifier":
            kind, details = DefKind.TYPE_ALIAS, (bound, None)
        for name_node in _target_names(target):
            name = self.text.of(name_node)
            if name not in seen:
                seen.add(name)
                value = unpacked.get(name_node.start_byte) if unpacked else None
                self._variable(kind, name, scope, node, (None, value) if value else details)

    def _variable(
        self, kind: DefKind, name: str, parent: str, node: Node, details: _Details
    ) -> None:
        exported, visibility = _visibility(name)
        type_, value = details
        self.definitions.append(
            Definition(
                kind=kind,
                name=name,
                qualname=f"{parent}.{name}" if parent else name,
                parent=parent,
                start_line=node.start_point[0] + 1,
                end_line=node.end_point[0] + 1,
                start_byte=node.start_byte,
                end_byte=node.end_byte,
                signature=self.text.first_line(node),
                exported=exported,
                visibility=visibility,
                type=type_,
                value=value,
            )
        )

    def _local_assignment(
        self,
        scope: str,
        node: Node,
        target: Node,
        details: _Details,
        self_fields: list[_SelfField],
        unpacked: dict[int, Chain] | None = None,
    ) -> None:
        kind = target.type
        if kind == "identifier":
            self._bind(scope, target, *details)
            return
        if kind == "attribute":
            chain = self.text.dotted(target)
            is_method = self.index.kinds.get(scope) is DefKind.METHOD
            if is_method and chain is not None and len(chain) == 2 and chain[0] in _SELF_ROOTS:
                self_fields.append((scope.rpartition(".")[0], chain[1], node, details))
            return
        unpacked = unpacked or {}
        for name_node in _target_names(target):
            self._bind(scope, name_node, None, unpacked.get(name_node.start_byte))
        for element in target.named_children:  # self.a, self.b = ...
            if element.type == "attribute":
                value = unpacked.get(element.start_byte)
                details = (None, value) if value else _NO_DETAILS
                self._local_assignment(scope, node, element, details, self_fields)

    def _self_fields(self, found: list[_SelfField], body_fields: dict[str, set[str]]) -> None:
        """``self.x = ...`` in methods: one field per name per class unless the body declares x,
        placed at the first assignment and typed by the first one that says something
        (``self.x = None`` in ``__init__``, ``self.x = Headers()`` in a later method)."""
        fields: dict[tuple[str, str], tuple[Node, _Details]] = {}
        for owner, name, node, details in found:
            if name in body_fields.get(owner, ()):
                continue
            known = fields.get((owner, name))
            if known is None:
                fields[(owner, name)] = (node, details)
            elif known[1] == _NO_DETAILS and details != _NO_DETAILS:
                fields[(owner, name)] = (known[0], details)
        for (owner, name), (node, details) in fields.items():
            body_fields.setdefault(owner, set()).add(name)
            self._variable(DefKind.FIELD, name, owner, node, details)

    def _augmented_assignment(
        self, node: Node, seen_variables: set[str], body_fields: dict[str, set[str]]
    ) -> None:
        target = node.child_by_field_name("left")
        if target is None or target.type != "identifier":
            return
        scope = self.index.at(node.start_byte)
        if self.index.is_function(scope):
            self._bind(scope, target)
            return
        seen = body_fields.setdefault(scope, set()) if scope else seen_variables
        self._member_assignment(scope, node, target, _NO_DETAILS, seen)
        if not scope:
            self._dunder_all(target, node.child_by_field_name("right"), augmented=True)

    def _dunder_all(self, target: Node, value: Node | None, augmented: bool) -> None:
        if self.text.source[target.start_byte : target.end_byte] != b"__all__":
            return
        names = None
        if value is not None and value.type in ("list", "tuple"):
            names = _literal_strings(value, self.text)
        if names is None:
            self.all_static = False
        elif augmented and self.all_names is not None:
            self.all_names.extend(names)
        elif not augmented:
            self.all_names = names
        if not self.all_static:
            self.all_names = None

    # -- other local bindings ----------------------------------------------------------------

    def _collect_targets(self) -> None:
        for target in self.captures.get("binding.target", ()):
            scope = self.index.at(target.start_byte)
            values = _target_values(target, self.text)
            for name_node in _target_names(target):
                self._bind(scope, name_node, None, values.get(name_node.start_byte))
        for parameters in self.captures.get("binding.lambda", ()):
            scope = self.index.at(parameters.start_byte)
            for child in parameters.named_children:
                parsed = self._param(child, "positional")
                if parsed is not None:
                    self._bind(scope, parsed[1])

    def _collect_returns(self) -> None:
        """``return <chain>`` as the pseudo-binding ``return`` of its function (see facts.py):
        what an unannotated function returns, for the resolver to evaluate."""
        for node in self.captures.get("binding.return", ()):
            scope = self.index.at(node.start_byte)
            if not self.index.is_function(scope):
                continue
            value = _value_chain(node, self.text)
            if value is not None:
                self.bindings.append(Binding(scope, "return", node.start_point[0] + 1, None, value))

    # -- references --------------------------------------------------------------------------

    def _collect_calls(self) -> None:
        # the hottest loop on Python code: lookups hoisted, _reference inlined for ASCII files
        text = self.text
        dotted, scope_at, append = text.dotted, self.index.at, self.references.append
        kind = RefKind.CALL
        for call in self.captures.get("reference.call", ()):
            function = call.child_by_field_name("function")
            if function is None:
                continue
            chain = dotted(function) or _chain(function, text)
            arg_count, keywords = _arguments(call.child_by_field_name("arguments"), text)
            scope = scope_at(call.start_byte)
            if len(chain) > 2 and chain[0] in _SELF_ROOTS:  # its receiver reads self.x
                self.self_receivers.append((function, chain, scope))
            if not text.ascii:
                self._reference(kind, chain, scope, function, arg_count, keywords)
                continue
            row, col = function.end_point
            column = col - len(chain[-1]) + 1
            append(Reference(kind, chain, scope, row + 1, column, arg_count, keywords))

    def _collect_annotations(self) -> None:
        """TYPE references, from a cache of each distinct annotation text's names."""
        self.annotation_starts: list[int] = []
        self.annotation_ends: list[int] = []
        source = self.text.source
        # capture lists follow pattern order, not document order: sort, _in_annotation bisects
        annotations = sorted(self.captures.get("reference.type", ()), key=lambda n: n.start_byte)
        for annotation in annotations:
            start, end = annotation.start_byte, annotation.end_byte
            self.annotation_starts.append(start)
            self.annotation_ends.append(end)
            raw = source[start:end]
            names = _ANNOTATION_NAMES.get(raw)
            if names is None:
                names = [(c, e - start) for c, e in _type_names(annotation, self.text)]
                _remember(_ANNOTATION_NAMES, raw, names)
            if not names:
                continue
            scope = self.index.at(start)
            row, col = annotation.start_point
            for chain, offset in names:
                size = len(chain[-1]) if self.text.ascii else len(chain[-1].encode())
                name_start = start + offset - size
                if b"\n" in raw:
                    line, column = self.text.point(name_start)
                else:
                    line, column = row + 1, self.text.column(name_start, col + offset - size)
                self.references.append(Reference(RefKind.TYPE, chain, scope, line, column))

    def _in_annotation(self, byte: int) -> bool:
        i = bisect_right(self.annotation_starts, byte) - 1
        return i >= 0 and byte < self.annotation_ends[i]

    def _collect_reads(self) -> None:
        emitted: set[tuple[str, Chain]] = set()
        dotted, scope_at, base_starts = self.text.dotted, self.index.at, self.base_starts
        for node in self.captures.get("reference.read", ()):
            start = node.start_byte
            if start in base_starts or (self.annotation_starts and self._in_annotation(start)):
                continue
            chain = dotted(node)
            if chain is None or chain[0] in _IMPLICIT_NAMES:
                continue
            root = chain[0]
            scope = scope_at(start)
            if root in _SELF_ROOTS:
                self._self_read(chain, scope, node, emitted)
                continue
            if self._is_local(scope, root):
                continue
            # an alias's value is read by the alias (facts.ALIAS), once for each name it gets
            for holder in self.alias_values.get((start, node.end_byte), (scope,)):
                if (holder, chain) not in emitted:
                    emitted.add((holder, chain))
                    self._reference(RefKind.READ, chain, holder, node)
        for function, chain, scope in self.self_receivers:  # ``self.headers.get()``
            receiver = function.child_by_field_name("object")
            if receiver is not None:
                self._self_read(chain[:-1], scope, receiver, emitted)

    def _self_read(
        self, chain: Chain, scope: str, node: Node, emitted: set[tuple[str, Chain]]
    ) -> None:
        """``self.x`` / ``cls.x`` (of any longer chain) read as a value: the reference is to
        the member itself (a field, a property, a method passed on), once per scope."""
        if len(chain) < 2 or not chain[1].isidentifier():
            return  # ``self.make().x``: a call's result, not a member read
        member = chain[:2]
        if (scope, member) in emitted:
            return
        emitted.add((scope, member))
        found: Node | None = node
        while found is not None and self.text.dotted(found) != member:
            found = (  # down a receiver: ``self.x.y``, ``self.x[0].y``, ``self.x(...).y``
                found.child_by_field_name("object")
                or found.child_by_field_name("value")
                or found.child_by_field_name("function")
            )
        if found is not None:
            self._reference(RefKind.READ, member, scope, found)

    def _is_local(self, scope: str, name: str) -> bool:
        names = self.local_names.get(scope)
        if names is not None and name in names:
            return True
        if not scope:
            return False
        for function in self.index.enclosing_functions(scope):
            if name in self.local_names.get(function, ()):
                return True
        return False

    # -- imports -----------------------------------------------------------------------------

    def _collect_imports(self) -> None:
        check_type_only = b"TYPE_CHECKING" in self.text.source
        kinds = ("import.statement", "import.from", "import.future")
        statements = [n for kind in kinds for n in self.captures.get(kind, ())]
        statements.sort(key=lambda n: n.start_byte)
        for statement in statements:
            scope = self.index.at(statement.start_byte)
            type_only = check_type_only and self._under_type_checking(statement)
            for module, level, name, alias, token in _imported_names(statement, self.text):
                line = token.start_point[0] + 1
                self.imports.append(
                    Import(module, name, alias, line, level, scope, False, type_only)
                )

    def _under_type_checking(self, statement: Node) -> bool:
        """Whether ``statement`` only runs for type checkers (``if TYPE_CHECKING:``).

        Found by walking up, not by a query: a query predicate on every ``if`` costs more than
        this walk on the few files that mention TYPE_CHECKING at all.
        """
        child, parent = statement, statement.parent
        while parent is not None and parent.type != "module":
            if parent.type == "if_statement" and child.type == "block":
                condition = parent.child_by_field_name("condition")
                consequence = parent.child_by_field_name("consequence")
                chain = self.text.dotted(condition) if condition is not None else None
                if chain and chain[-1] == "TYPE_CHECKING" and consequence == child:
                    return True
            child, parent = parent, parent.parent
        return False


def _with_kind(param: Param, kind: str) -> Param:
    return Param(param.name, param.annotation, param.has_default, kind)


def _arguments(arguments: Node | None, text: _Text) -> tuple[int, tuple[str, ...]]:
    """(positional argument count or -1 with a splat, keyword names) of a call."""
    if arguments is None:
        return 0, ()
    if arguments.type != "argument_list":  # f(x for x in y)
        return 1, ()
    raw = text.source[arguments.start_byte : arguments.end_byte]
    if b"=" not in raw and b"*" not in raw and b"#" not in raw:
        return arguments.named_child_count, ()
    count = 0
    keywords: list[str] = []
    splat = False
    for argument in arguments.named_children:
        kind = argument.type
        if kind == "keyword_argument":
            name = argument.child_by_field_name("name")
            if name is not None:
                keywords.append(text.of(name))
        elif kind in ("list_splat", "dictionary_splat"):
            splat = True
        elif kind != "comment":
            count += 1
    return (-1 if splat else count), tuple(keywords)


def _imported_names(
    statement: Node, text: _Text
) -> Iterator[tuple[str, int, str | None, str, Node]]:
    """(module, level, name, alias, token) for each name an import statement binds."""
    if statement.type == "import_statement":
        for child in statement.children_by_field_name("name"):
            if child.type == "aliased_import":
                dotted = child.child_by_field_name("name")
                alias = child.child_by_field_name("alias")
                if dotted is not None and alias is not None:
                    yield _dotted(dotted, text), 0, None, text.of(alias), child
            elif child.type == "dotted_name":
                module = _dotted(child, text)
                yield module, 0, None, module.partition(".")[0], child
        return
    module, level = "__future__", 0
    if statement.type == "import_from_statement":
        module, level = _from_module(statement.child_by_field_name("module_name"), text)
    for child in statement.named_children:
        if child.type == "wildcard_import":
            yield module, level, "*", "", child
    for child in statement.children_by_field_name("name"):
        if child.type == "aliased_import":
            dotted = child.child_by_field_name("name")
            alias = child.child_by_field_name("alias")
            if dotted is not None and alias is not None:
                yield module, level, _dotted(dotted, text), text.of(alias), child
        elif child.type == "dotted_name":
            name = _dotted(child, text)
            yield module, level, name, name, child


def _from_module(node: Node | None, text: _Text) -> tuple[str, int]:
    if node is None:
        return "", 0
    if node.type == "relative_import":
        level = 0
        module = ""
        for child in node.named_children:
            if child.type == "import_prefix":
                level = text.of(child).count(".")
            elif child.type == "dotted_name":
                module = _dotted(child, text)
        return module, level
    return _dotted(node, text), 0


def _dotted(node: Node, text: _Text) -> str:
    """A dotted name without the whitespace Python allows around its dots."""
    raw = text.of(node)
    return "".join(raw.split()) if " " in raw or "\n" in raw else raw
