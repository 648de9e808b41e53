"""The checker's Python rules (``verify/rules.py``): builtins, ``self`` bound by a call,
imports of repository and installed modules, the standard library checked on its real
modules, classes closed over standard-library bases that lack the name, and what a class
body adds to its instances (``self.x = ...`` anywhere, slots; ``setattr``/``__dict__`` open it).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from astrag.graph.facts import CLASS_KINDS, FUNCTION_KINDS, Definition, DefKind, Import, Reference
from astrag.graph.tables import FileTables, Site
from astrag.graph.values import Value
from astrag.lang.python.check_stdlib import (
    ABSTRACT_MODULES,
    installed_call,
    installed_import,
    stdlib_attributes,
    stdlib_missing_attribute,
)
from astrag.lang.python.modules import in_repository_package, resolve_python_module
from astrag.lang.python.semantics import PY_BUILTINS, module_value
from astrag.verify.findings import Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.rules import LanguageRules

if TYPE_CHECKING:
    from astrag.verify.check import Checker
    from astrag.verify.members import ClassBodies

_SUPPRESS = re.compile(r"#\s*(type:\s*ignore|noqa|pyright:\s*ignore)")
_DYNAMIC_HOOKS = frozenset({"__getattr__", "__getattribute__"})
_OBJECT_MEMBERS = frozenset(dir(object))


class PythonRules(LanguageRules):
    language = "python"
    receivers = frozenset({"self", "cls", "super", "super()"})
    call_members = _OBJECT_MEMBERS
    attribute_members = frozenset(dir(object)) | frozenset(dir(type))
    judges_module_reads = True
    writes_create_attributes = True
    self_parameter = True
    constructor = "__init__"

    def suppressed(self, text: str) -> frozenset[int]:
        return frozenset(
            number for number, line in enumerate(text.splitlines(), 1) if _SUPPRESS.search(line)
        )

    def needs_no_declaration(
        self, checker: Checker, site: Site, name: str, ref: Reference, text: str
    ) -> bool:
        return name in PY_BUILTINS or _class_name_in_header(
            site.t, site.scope, name, ref.line, text
        )

    def import_findings(
        self, checker: Checker, change: ChangedFile, imp: Import, target: Value | None
    ) -> list[Finding]:
        r = checker.r
        dotted = resolve_python_module(r.modules, change.path, imp.module, imp.level)
        if dotted is None:
            return []
        if target is not None or not in_repository_package(r.modules, dotted):
            return installed_import(change, imp, dotted, checker.finding)
        what = f"{dotted}.{imp.name}" if imp.name else dotted
        return checker.missing_import(change, imp, module_value(r, dotted), what)

    def star_sources(self, checker: Checker, t: FileTables) -> list[str]:
        found = []
        for imp in t.star_imports.get("", []):
            module = checker.r.import_target(t, imp)
            if module is not None and module[0] == "mod":
                found.append(module[1])
        return found

    def external_call(
        self, checker: Checker, change: ChangedFile, ref: Reference, dotted: str,
        receiver: Value | None,
    ) -> list[Finding]:  # fmt: skip
        if receiver is not None and checker.r.definition(receiver) is not None:
            return _missing_on_repository_class(checker, change, ref, receiver)
        owner, missing = stdlib_missing_attribute(dotted)
        if owner is not None and missing is not None:
            message = f"{owner} has no attribute {missing!r}"
            candidates = stdlib_attributes(owner)
            line, column = ref.line, ref.column
            return [
                checker.finding(
                    change, line, column, "unknown-member", message, missing, candidates
                )
            ]
        return installed_call(change, ref, dotted, checker.finding)

    def closed_class(
        self, checker: Checker, receiver: Value, d: Definition, name: str | None, attribute: bool
    ) -> bool:
        """Every base is in the repository, or a standard-library class that lacks ``name``
        too (for an attribute, an abstract one, since a concrete class's instance
        attributes cannot be seen on the class: ``logging.Handler().formatter``); none has
        ``__getattr__``/``__getattribute__``. Class decorators are assumed to leave the
        class's own members alone."""
        if d.kind == DefKind.INTERFACE:
            return False
        r = checker.r
        mro, external = r.mro(receiver[1], receiver[2])
        if external and not (name and _standard_bases_lack(external, name, attribute)):
            return False
        return not any(_DYNAMIC_HOOKS.intersection(r.tables[p].children.get(q, {})) for p, q in mro)

    def open_class_body(self, bodies: ClassBodies, path: str, qual: str) -> bool:
        body = bodies.python(path, qual)
        return body is None or body.dynamic

    def body_declares(
        self, bodies: ClassBodies, path: str, qual: str, name: str, resolved: bool
    ) -> bool:
        body = bodies.python(path, qual)
        return body is None or name in body.assigned or name in body.slots


def _missing_on_repository_class(
    checker: Checker, change: ChangedFile, ref: Reference, receiver: Value
) -> list[Finding]:
    """``request.formdata()`` where Request's repository classes lack the method and its
    standard-library bases (``Mapping``) do too: named after the receiver's own type."""
    r = checker.r
    name = ref.chain[-1]
    if receiver[0] not in ("inst", "super") and not r.is_class(receiver):
        return []
    if name in _OBJECT_MEMBERS or not checker._closed_class(receiver, name):
        return []
    site = Site(r.tables[change.path], ref.scope, ref.line)
    if checker.is_narrowed(change, site, ref.chain):
        return []
    message = f"{receiver[2]} has no member {name!r}"
    candidates = r.member_names(receiver)
    return [
        checker.finding(change, ref.line, ref.column, "unknown-member", message, name, candidates)
    ]


def _standard_bases_lack(external: list[Value], name: str, abstract_only: bool) -> bool:
    """Every base outside the repository is a standard-library class without ``name`` (an
    abstract one of ``collections.abc``/``abc``/``numbers``, with ``abstract_only``)."""
    return all(
        base[0] == "ext"
        and (not abstract_only or base[1].startswith(ABSTRACT_MODULES))
        and stdlib_missing_attribute(f"{base[1]}.{name}")[1] == name
        for base in external
    )


def _class_name_in_header(t: FileTables, scope: str, name: str, line: int, text: str) -> bool:
    """``def __init__(self, precision=SECONDS)``: a method's defaults and annotations are
    evaluated in the class body, where the class's own names are bound."""
    d = t.defs.get(scope)
    if d is None or d.kind not in FUNCTION_KINDS or name not in t.children.get(d.parent, {}):
        return False
    parent = t.defs.get(d.parent)
    if parent is None or parent.kind not in CLASS_KINDS or line < d.start_line:
        return False
    lines = text.split("\n")
    for number in range(d.start_line, min(d.end_line, len(lines)) + 1):
        code = lines[number - 1].split("#", 1)[0].rstrip()
        if code.endswith(":") and not code.lstrip().startswith("@"):
            return line <= number  # the header ends here
    return False


RULES = {"python": PythonRules()}
