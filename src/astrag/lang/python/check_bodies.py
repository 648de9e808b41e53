"""What a Python class's text says about its instances' attributes beyond its definitions,
for the checker's Python rules: ``self.x``/``cls.x`` targets anywhere in it (tuple, ``for``,
``with`` and nested-function targets too, which the frontend does not record, and what a
``__new__`` assigns on the instance it makes), the names a
static ``__slots__`` lists, and whether it adds attributes astrag cannot follow (``setattr``,
writes through ``__dict__``). Pure functions over text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from astrag.lang import parser
from astrag.lang.python.check_getattr import hook_answers, name_constants
from astrag.verify.attributes import access_nodes, is_target

# ``setattr(x, "name", value)`` with the name written out adds that one attribute, which the
# class then has (to its own instances or, through ``x``, to another's: the class whose text
# holds the call is the one the checker consults): pyparsing's ``And`` sets
# ``"parent_anchor"`` on a block, and opening it for that left a typo of a base's property
# unreported. The receiver is a plain or dotted name; anything else stays dynamic below.
_PY_NAMED_SETATTR = re.compile(
    r"""\bsetattr\s*\(\s*[A-Za-z_][\w.]*\s*,\s*(['"])([A-Za-z_]\w*)\1\s*,"""
)
# code in a class that adds attributes astrag cannot see: setattr, a write through __dict__
# (an item, update/setdefault, the dict replaced), vars(self), a __setattr__ of its own. A read
# of __dict__ or vars(self) (a repr, a comparison, a copy for __getstate__) adds nothing.
_PY_DYNAMIC = re.compile(
    r"\bsetattr\s*\("
    r"|__dict__\s*(?:\[[^\]]*\]\s*=(?!=)|\.\s*(?:update|setdefault|__setitem__)\s*\(|=(?!=))"
    # ``vars(self)`` as written to, or handed on; compared or read from it adds nothing
    # (pyparsing's ``__eq__``: ``vars(self) == vars(other)``)
    r"|\bvars\s*\(\s*self\s*\)(?!\s*(?:[=!]=|\.(?:items|keys|values|get|copy)\s*\())"
    r"|__setattr__"
)
# ``__setstate__`` restores what ``__getstate__`` took from an instance of the class, so
# whatever it writes (``self.__dict__.update(state)``) is an attribute the class already has
_RESTORES_PICKLED_STATE = b"__setstate__"
_PY_SLOTS = re.compile(r"^\s*__slots__\s*(?::[^=]*)?=\s*(.*)$", re.MULTILINE)
_PY_RECEIVERS = frozenset({"self", "cls"})
# ``klass = super().__new__(mcs, ...)`` / ``obj = object.__new__(cls)``: the instance being
# made, whose attributes (``klass.opts = ...``) are the class's as much as ``self.x`` ones
_PY_NEW_INSTANCE = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*[\w.()]*\.__new__\s*\(", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class PythonClassBody:
    dynamic: bool  # sets attributes in ways astrag cannot follow (setattr, __dict__, ...)
    assigned: frozenset[str]  # ``self.x`` / ``cls.x`` assignment targets anywhere in it
    slots: frozenset[str]  # names a static ``__slots__`` lists
    # what its own ``__getattr__`` answers: none without one, None for any name (a fixed few
    # when every way through it that returns was reached by a name spelt out, see
    # check_getattr)
    getattr_answers: frozenset[str] | None = frozenset()


def python_class_body(body: str) -> PythonClassBody:
    """What a Python class's text says about its attributes beyond its definitions: the
    frontend records ``self.x = ...`` but not tuple, ``for``, ``with ... as`` or nested-function
    targets, nor slot names."""
    slots: set[str] = set()
    source = body.encode("utf-8")
    root = parser("python").parse(source).root_node
    text = _without_setstate(source, root)
    named = {m.group(2) for m in _PY_NAMED_SETATTR.finditer(text)}
    dynamic = _PY_DYNAMIC.search(_PY_NAMED_SETATTR.sub("", text)) is not None
    for match in _PY_SLOTS.finditer(body):
        names = re.findall(r"""['"]([A-Za-z_]\w*)['"]""", match.group(1))
        if not names and not re.match(r"""\s*[(\[{]\s*[)\]}]""", match.group(1)):
            dynamic = True  # ``__slots__ = NAMES``: not a literal astrag can read
        slots.update(names)
    receivers = _PY_RECEIVERS | _new_instances(body)
    assigned = set(named)
    for node in access_nodes("python", root):
        obj = node.child_by_field_name("object")
        name = node.child_by_field_name("attribute")
        if obj is None or name is None or obj.type != "identifier" or not is_target(node):
            continue
        if source[obj.start_byte : obj.end_byte].decode() in receivers:
            assigned.add(source[name.start_byte : name.end_byte].decode())
    answers = _getattr_answers(source, root, body)
    return PythonClassBody(dynamic, frozenset(assigned), frozenset(slots), answers)


def _getattr_answers(source: bytes, root: Node, body: str) -> frozenset[str] | None:
    """What the class's own ``__getattr__`` method answers (see PythonClassBody)."""
    if b"__getattr__" not in source:
        return frozenset()
    for cls in root.children:
        if cls.type == "decorated_definition":
            cls = cls.child_by_field_name("definition") or cls
        block = cls.child_by_field_name("body") if cls.type == "class_definition" else None
        for method in block.children if block is not None else ():
            name = method.child_by_field_name("name")
            if method.type == "decorated_definition" or name is None:
                continue
            if source[name.start_byte : name.end_byte] != b"__getattr__":
                continue
            text = source[method.start_byte : method.end_byte].decode("utf-8", "replace")
            return hook_answers(text, name_constants(body))
    return frozenset()


def _without_setstate(source: bytes, root: Node) -> str:
    """The class's text with its ``__setstate__`` bodies left out (see above)."""
    kept: list[bytes] = []
    start = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            name = node.child_by_field_name("name")
            named = source[name.start_byte : name.end_byte] if name is not None else b""
            if named == _RESTORES_PICKLED_STATE:
                kept.append(source[start : node.start_byte])
                start = node.end_byte
                continue
        stack.extend(reversed(node.children))
    kept.append(source[start:])
    return b"".join(kept).decode("utf-8", "replace")


def _new_instances(body: str) -> frozenset[str]:
    """The names a ``__new__`` binds the instance it makes to (see _PY_NEW_INSTANCE)."""
    return frozenset(_PY_NEW_INSTANCE.findall(body))
