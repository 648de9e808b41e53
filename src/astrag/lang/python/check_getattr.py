"""What a Python ``__getattr__`` answers, read from its text, for the checker's Python rules.

A module or class with ``__getattr__`` was taken as having every name. Many such hooks answer a
fixed few and refuse the rest: toolz's package answers ``__version__`` only, dramatiq's answers
the old name ``ConnectionError`` and, in its backends package, the keys of a dict of importers.
When every way through the body that returns is reached only for names a test spelt out
(``name == "x"``, ``name in ("a", "b")``, ``name in KNOWN``, ``KNOWN.get(name)`` tested against
``None``, ``KNOWN[name]``), and every other way ends in ``raise AttributeError``, the hook adds
exactly those names; anything else (a loop, ``name.startswith(...)``, a delegation through
``getattr``, falling off the end) leaves it answering every name, as before. Pure functions
over text, using the standard library's ``ast`` (a body this Python cannot parse is open).
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Mapping

# None stands for "any name"; a frozenset for the names a path can still carry
Names = frozenset[str] | None
_NONE: frozenset[str] = frozenset()
# statements that neither return nor raise nor branch: the walk goes past them
_PLAIN = (
    ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Import, ast.ImportFrom,
    ast.Pass, ast.Global, ast.Nonlocal,
)  # fmt: skip
# a collection mutated after it is written (``KNOWN["x"] = ...``, ``KNOWN.update(...)``)
_MUTATED = (
    r"\b{0}\s*(?:\[[^\]\n]*\]\s*=(?!=)|[|+]="
    r"|\.\s*(?:update|setdefault|add|append|extend|insert|__setitem__)\s*\()"
)


class _Open(Exception):
    """The hook may answer a name no test spelt out."""


def hook_answers(function_text: str, constants: Mapping[str, frozenset[str]]) -> Names:
    """The names a ``__getattr__`` (its text, a module's or a method) can answer, or None when
    it may answer any; ``constants``: the collections of names its module or class writes
    once (see ``name_constants``)."""
    try:
        tree = ast.parse(textwrap.dedent(function_text))
    except (SyntaxError, ValueError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    fn = tree.body[0]
    positional = [*fn.args.posonlyargs, *fn.args.args]
    if not positional or len(positional) > 2 or fn.args.vararg or fn.args.kwarg:
        return None
    walk = _Walk(positional[-1].arg, constants)
    try:
        answered, rest = walk.block(fn.body, None)
        answered = answered | _need(rest)  # falling off the end returns None: answered
    except _Open:
        return None
    return answered


def name_constants(text: str) -> dict[str, frozenset[str]]:
    """The names bound once, at the top of ``text`` (a module, or a class's body), to a literal
    collection of strings (a dict's keys, a set, tuple or list, ``frozenset(...)`` of one) and
    never changed in place afterwards."""
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return {}
    body = tree.body
    if len(body) == 1 and isinstance(body[0], ast.ClassDef):
        body = body[0].body
    found: dict[str, frozenset[str]] = {}
    bound: dict[str, int] = {}
    for stmt in body:
        targets = (
            stmt.targets
            if isinstance(stmt, ast.Assign)
            else [stmt.target]
            if isinstance(stmt, ast.AnnAssign | ast.AugAssign)
            else []
        )
        for target in targets:
            if isinstance(target, ast.Name):
                bound[target.id] = bound.get(target.id, 0) + 1
                written = isinstance(stmt, ast.Assign | ast.AnnAssign)
                names = _literal_names(getattr(stmt, "value", None)) if written else None
                if names is not None:
                    found[target.id] = names
    return {
        name: names
        for name, names in found.items()
        if bound.get(name) == 1 and re.search(_MUTATED.format(re.escape(name)), text) is None
    }


def _literal_names(node: ast.expr | None) -> frozenset[str] | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
        if node.func.id in ("frozenset", "set", "tuple") and not node.keywords:
            return _literal_names(node.args[0])
        return None
    if isinstance(node, ast.Dict):
        elements = node.keys
    elif isinstance(node, ast.Set | ast.Tuple | ast.List):
        elements = node.elts
    else:
        return None
    names = [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return frozenset(names) if len(names) == len(elements) else None


def _need(names: Names) -> frozenset[str]:
    if names is None:
        raise _Open
    return names


def _both(a: Names, b: Names) -> Names:
    if a is None:
        return b
    return a if b is None else a & b


def _either(a: Names, b: Names) -> Names:
    return None if a is None or b is None else a | b


class _Walk:
    """The body walked statement by statement with the names each way through can carry."""

    def __init__(self, param: str, constants: Mapping[str, frozenset[str]]) -> None:
        self.param = param
        self.constants = constants
        self.lookups: dict[str, frozenset[str]] = {}  # ``found = KNOWN.get(name)``

    def block(self, stmts: list[ast.stmt], allowed: Names) -> tuple[frozenset[str], Names]:
        """(names some return in ``stmts`` answers, names that go on past them)."""
        answered: frozenset[str] = _NONE
        for stmt in stmts:
            if allowed == _NONE:
                break  # no name gets here
            if isinstance(stmt, ast.Return):
                keys = self._subscripted(stmt.value)
                return answered | _need(_both(allowed, keys)), _NONE
            if isinstance(stmt, ast.Raise):
                if not _raises_attribute_error(stmt.exc):
                    raise _Open
                return answered, _NONE
            if isinstance(stmt, ast.If):
                when, unless = self.test(stmt.test)
                a1, r1 = self.block(stmt.body, _both(allowed, when))
                a2, r2 = self.block(stmt.orelse, _both(allowed, unless))
                answered, allowed = answered | a1 | a2, _either(r1, r2)
                continue
            if isinstance(stmt, ast.Try) and self._refusing(stmt):
                inner, allowed = self.block(stmt.body, allowed)
                answered |= inner
                continue
            if isinstance(stmt, _PLAIN):
                allowed = _both(allowed, self._bind(stmt))
                continue
            raise _Open
        return answered, allowed

    def test(self, node: ast.expr) -> tuple[Names, Names]:
        """The names that can make ``node`` true, and false (None: any)."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            when, unless = self.test(node.operand)
            return unless, when
        if isinstance(node, ast.BoolOp):
            parts = [self.test(v) for v in node.values]
            if isinstance(node.op, ast.Or):
                when: Names = _NONE
                unless: Names = None
                for w, u in parts:
                    when, unless = _either(when, w), _both(unless, u)
                return when, unless
            when, unless = None, _NONE
            for w, u in parts:
                when, unless = _both(when, w), _either(unless, u)
            return when, unless
        if isinstance(node, ast.Name) and node.id in self.lookups:
            return self.lookups[node.id], None  # ``if found:``
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, op, right = node.left, node.ops[0], node.comparators[0]
            if isinstance(op, ast.Is | ast.IsNot) and isinstance(left, ast.Name):
                keys = self.lookups.get(left.id)
                if keys is not None and isinstance(right, ast.Constant) and right.value is None:
                    return (None, keys) if isinstance(op, ast.Is) else (keys, None)
            if isinstance(op, ast.Eq | ast.NotEq):
                spelt = self._spelt(left, right) or self._spelt(right, left)
                if spelt is not None:
                    return (spelt, None) if isinstance(op, ast.Eq) else (None, spelt)
            if isinstance(op, ast.In | ast.NotIn) and self._is_param(left):
                names = self._collection(right)
                if names is not None:
                    return (names, None) if isinstance(op, ast.In) else (None, names)
        return None, None

    def _is_param(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id == self.param

    def _spelt(self, param: ast.expr, other: ast.expr) -> frozenset[str] | None:
        if self._is_param(param) and isinstance(other, ast.Constant):
            return frozenset({other.value}) if isinstance(other.value, str) else _NONE
        return None

    def _collection(self, node: ast.expr) -> frozenset[str] | None:
        literal = _literal_names(node)
        if literal is not None:
            return literal
        if isinstance(node, ast.Name):
            return self.constants.get(node.id)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            return self.constants.get(node.attr)
        return None

    def _subscripted(self, node: ast.expr | None) -> Names:
        """``KNOWN[name]``: a lookup that fails for every other name."""
        if isinstance(node, ast.Subscript) and self._is_param(node.slice):
            found = self._collection(node.value)
            if found is not None:
                return found
        return None

    def _bind(self, stmt: ast.stmt) -> Names:
        """Follows the statement's bindings; the names that get past it (a subscript of a
        known collection fails for the rest)."""
        targets = stmt.targets if isinstance(stmt, ast.Assign) else []
        if isinstance(stmt, ast.AnnAssign | ast.AugAssign):
            targets = [stmt.target]
        for target in targets:
            for bound in _bound_names(target):
                if bound == self.param:
                    raise _Open  # the name itself rebound: the tests no longer say
                self.lookups.pop(bound, None)
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            return None
        target, value = stmt.targets[0], stmt.value
        if not isinstance(target, ast.Name):
            return None
        keys = None
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            if value.func.attr == "get" and value.args and self._is_param(value.args[0]):
                defaulted = len(value.args) > 1 and not (
                    isinstance(value.args[1], ast.Constant) and value.args[1].value is None
                )
                keys = None if defaulted else self._collection(value.func.value)
        elif isinstance(value, ast.Subscript):
            found = self._subscripted(value)
            if found is not None:
                return found  # ``found = KNOWN[name]``: other names stop here
        if keys is not None:
            self.lookups[target.id] = keys
        return None

    def _refusing(self, stmt: ast.Try) -> bool:
        """``try: ... except KeyError: raise AttributeError(...)``: every handler refuses."""
        if stmt.orelse or stmt.finalbody or not stmt.handlers:
            return False
        return all(
            len(h.body) == 1
            and isinstance(h.body[0], ast.Raise)
            and _raises_attribute_error(h.body[0].exc)
            for h in stmt.handlers
        )


def _bound_names(target: ast.expr) -> list[str]:
    """The names an assignment target binds (not those read in ``globals()[name] = ...``)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    if isinstance(target, ast.Tuple | ast.List):
        return [name for element in target.elts for name in _bound_names(element)]
    return []


def _raises_attribute_error(exc: ast.expr | None) -> bool:
    if isinstance(exc, ast.Call):
        exc = exc.func
    return isinstance(exc, ast.Name) and exc.id == "AttributeError"
