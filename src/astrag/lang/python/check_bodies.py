"""What a Python class's text says about its instances' attributes beyond its definitions,
for the checker's Python rules: ``self.x``/``cls.x`` targets anywhere in it (tuple, ``for``,
``with`` and nested-function targets too, which the frontend does not record), the names a
static ``__slots__`` lists, and whether it adds attributes astrag cannot follow (``setattr``,
``__dict__``). Pure functions over text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from astrag.lang import parser
from astrag.verify.attributes import access_nodes, is_target

# code in a class that adds attributes astrag cannot see
_PY_DYNAMIC = re.compile(r"\bsetattr\s*\(|__dict__|\bvars\s*\(\s*self\b|__setattr__")
_PY_SLOTS = re.compile(r"^\s*__slots__\s*(?::[^=]*)?=\s*(.*)$", re.MULTILINE)
_PY_RECEIVERS = frozenset({"self", "cls"})


@dataclass(frozen=True, slots=True)
class PythonClassBody:
    dynamic: bool  # sets attributes in ways astrag cannot follow (setattr, __dict__, ...)
    assigned: frozenset[str]  # ``self.x`` / ``cls.x`` assignment targets anywhere in it
    slots: frozenset[str]  # names a static ``__slots__`` lists


def python_class_body(body: str) -> PythonClassBody:
    """What a Python class's text says about its attributes beyond its definitions: the
    frontend records ``self.x = ...`` but not tuple, ``for``, ``with ... as`` or nested-function
    targets, nor slot names."""
    slots: set[str] = set()
    dynamic = _PY_DYNAMIC.search(body) is not None
    for match in _PY_SLOTS.finditer(body):
        names = re.findall(r"""['"]([A-Za-z_]\w*)['"]""", match.group(1))
        if not names and not re.match(r"""\s*[(\[{]\s*[)\]}]""", match.group(1)):
            dynamic = True  # ``__slots__ = NAMES``: not a literal astrag can read
        slots.update(names)
    source = body.encode("utf-8")
    root = parser("python").parse(source).root_node
    assigned = set()
    for node in access_nodes("python", root):
        obj = node.child_by_field_name("object")
        name = node.child_by_field_name("attribute")
        if obj is None or name is None or obj.type != "identifier" or not is_target(node):
            continue
        if source[obj.start_byte : obj.end_byte].decode() in _PY_RECEIVERS:
            assigned.add(source[name.start_byte : name.end_byte].decode())
    return PythonClassBody(dynamic, frozenset(assigned), frozenset(slots))
