"""What the receiver of a TypeScript/JavaScript ``x.m()`` call is bound to, read with tree-sitter.

``constructs.py --bindings`` uses it to split its largest group, "receiver is an identifier",
into the constructs a resolver rule would have to handle: a parameter typed by a union, an
untyped parameter of a callback passed to ``operate(...)``, a local initialised by ``new X()``
or ``await``, a destructured name, a ``for … of`` variable and so on. Only the source is read;
the oracle says nothing about bindings, so this is the benchmark's view, not astrag's.
"""

from __future__ import annotations

from pathlib import Path

import tree_sitter
import tree_sitter_typescript

ARRAY_METHODS = {"map", "forEach", "filter", "find", "some", "every", "reduce", "flatMap"}
FUNCTIONS = {"arrow_function", "function_expression", "function_declaration", "method_definition"}
FUNCTIONS |= {"generator_function", "generator_function_declaration"}
PATTERNS = {"object_pattern", "array_pattern"}
WRAPPERS = {"non_null_expression", "parenthesized_expression"}
DEFAULTS = {"assignment_pattern", "object_assignment_pattern"}


class Bindings:
    """Parses each file once and answers ``kind(path, line, column)`` for a member call."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._trees: dict[str, tuple[tree_sitter.Tree, bytes] | None] = {}
        self._parsers = {
            tsx: tree_sitter.Parser(
                tree_sitter.Language(
                    tree_sitter_typescript.language_tsx()
                    if tsx
                    else tree_sitter_typescript.language_typescript()
                )
            )
            for tsx in (False, True)
        }

    def _tree(self, path: str) -> tuple[tree_sitter.Tree, bytes] | None:
        if path not in self._trees:
            try:
                data = (self.root / path).read_bytes()
            except OSError:
                self._trees[path] = None
                return None
            tsx = path.endswith((".tsx", ".jsx", ".js", ".mjs", ".cjs"))
            self._trees[path] = (self._parsers[tsx].parse(data), data)
        return self._trees[path]

    def kind(self, path: str, line: int, column: int) -> tuple[str, str]:
        """(construct, detail) for the receiver of the member call whose name is at line:column.

        ``column`` is 1-based; the oracle counts UTF-16 units, tree-sitter bytes, so a line with
        non-ASCII text before the call may land off the name (then: "receiver not found").
        """
        parsed = self._tree(path)
        if parsed is None:
            return "receiver not found", ""
        tree, data = parsed
        point = (line - 1, column - 1)
        node = tree.root_node.named_descendant_for_point_range(point, point)
        member = node.parent if node is not None else None
        if member is None or member.type != "member_expression":
            return "receiver not found", ""
        receiver = member.child_by_field_name("object")
        while receiver is not None and receiver.type in WRAPPERS:
            receiver = receiver.named_children[0] if receiver.named_children else None
        if receiver is None or receiver.type != "identifier":
            return "receiver not an identifier", ""
        return _binding(member, _text(receiver, data), data)


def _text(node: tree_sitter.Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _names_in(pattern: tree_sitter.Node, data: bytes) -> set[str]:
    """Every identifier a destructuring pattern binds (shorthand, renamed, nested, rest)."""
    names: set[str] = set()
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node.type in ("shorthand_property_identifier_pattern", "identifier"):
            parent = node.parent
            # `{ a: b }` binds b, not a; default values' identifiers bind nothing
            key = parent.child_by_field_name("key") if parent is not None else None
            if parent is not None and parent.type == "pair_pattern" and node == key:
                continue
            if parent is not None and parent.type in DEFAULTS and node != parent.named_children[0]:
                continue
            names.add(_text(node, data))
        stack.extend(node.named_children)
    return names


def _param(fn: tree_sitter.Node, name: str, data: bytes) -> tuple[str, str] | None:
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    if params is None:
        return None
    if params.type == "identifier":  # `x => …`
        return _untyped_param(fn, data) if _text(params, data) == name else None
    for param in params.named_children:
        pattern = param.child_by_field_name("pattern")
        if pattern is None:
            continue
        annotation = param.child_by_field_name("type")
        if pattern.type in PATTERNS:
            if name in _names_in(pattern, data):
                return "parameter: destructured", _text(param, data)[:60]
            continue
        if _text(pattern, data) != name:
            continue
        if annotation is None:
            return _untyped_param(fn, data)
        type_text = _text(annotation, data).lstrip(":").strip()
        if "|" in type_text.replace("||", ""):
            return "parameter: union type", type_text[:60]
        return "parameter: typed", type_text[:60]
    return None


def _untyped_param(fn: tree_sitter.Node, data: bytes) -> tuple[str, str]:
    """An unannotated parameter: its type comes from where the function is passed."""
    args = fn.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    if call is None:
        return "parameter: untyped, function not passed to a call", ""
    callee = call.child_by_field_name("function") or call.child_by_field_name("constructor")
    text = _text(callee, data) if callee is not None else "?"
    if call.type == "new_expression":
        return "parameter: untyped, callback of new X(...)", f"new {text}"
    last = text.rsplit(".", 1)[-1]
    if "." in text and last in ARRAY_METHODS:
        return "parameter: untyped, array-method callback", f".{last}"
    return "parameter: untyped, callback of f(...)", text[:40]


def _declarator(decl: tree_sitter.Node, name: str, data: bytes) -> tuple[str, str] | None:
    for declarator in decl.named_children:
        if declarator.type != "variable_declarator":
            continue
        target = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if target is None:
            continue
        if target.type in PATTERNS:
            if name in _names_in(target, data):
                value_type = value.type if value is not None else "none"
                return "local: destructured", f"from {value_type}"
            continue
        if _text(target, data) != name:
            continue
        if declarator.child_by_field_name("type") is not None:
            annotation = _text(declarator.child_by_field_name("type"), data).lstrip(":").strip()
            union = "|" in annotation.replace("||", "")
            return ("local: union type" if union else "local: typed"), annotation[:60]
        if value is None:
            return "local: no initialiser, no type", ""
        while value.type in ("as_expression", "non_null_expression", "parenthesized_expression"):
            value = value.named_children[0]
        return f"local: = {value.type}", _text(value, data).split("(", 1)[0][:40]
    return None


def _in_scope(scope: tree_sitter.Node, name: str, data: bytes) -> tuple[str, str] | None:
    if scope.type in FUNCTIONS:
        found = _param(scope, name, data)
        if found:
            return found
    if scope.type in ("for_in_statement",):
        left = scope.child_by_field_name("left")
        if left is not None and (_text(left, data) == name or name in _names_in(left, data)):
            return "for … of variable", _text(scope.child_by_field_name("right"), data)[:40]
    if scope.type == "catch_clause":
        param = scope.child_by_field_name("parameter")
        if param is not None and _text(param, data) == name:
            return "catch variable", ""
    for child in scope.named_children:
        kind = child.type
        if kind == "export_statement" and child.named_children:
            child, kind = child.named_children[0], child.named_children[0].type
        if kind in ("lexical_declaration", "variable_declaration"):
            found = _declarator(child, name, data)
            if found:
                return found
        elif kind in ("function_declaration", "class_declaration", "abstract_class_declaration"):
            id_node = child.child_by_field_name("name")
            if id_node is not None and _text(id_node, data) == name:
                return f"{kind.replace('_declaration', '')} named at the call", ""
        elif kind == "import_statement" and name in _text(child, data):
            return "import", _text(child, data).rsplit("from", 1)[-1].strip()[:40]
    return None


def _binding(call: tree_sitter.Node, name: str, data: bytes) -> tuple[str, str]:
    node: tree_sitter.Node | None = call
    while node is not None:
        found = _in_scope(node, name, data)
        if found:
            return found
        node = node.parent
    return "not declared in the file (global)", name
