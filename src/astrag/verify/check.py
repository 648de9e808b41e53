"""The hallucination checker: resolve changed code against the index and report what the
codebase cannot back.

Changed files are parsed by the same frontends as the index and put in place of (or beside)
the indexed files; the same resolver then walks every reference on a changed line. A finding
is reported only where the answer is certain: the name is unbound everywhere in scope, or the
receiver's type is fully known — a repository class whose every base is in the repository and
which has no dynamic attribute hook, or a repository module — and lacks the member, or the
callee's signature is known and plain. Anything dynamic (unknown or external receivers, ``any``,
``__getattr__``, ``*args``/``**kwargs``, decorators that may change a signature, interfaces that
may carry index signatures) yields no finding: a false alarm costs an agent more than a miss.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import posixpath
import re
import sys
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from types import ModuleType

from astrag.graph.facts import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Definition,
    DefKind,
    FileFacts,
    Import,
    Param,
    Reference,
    RefKind,
)
from astrag.graph.resolve import Resolver
from astrag.graph.tables import Site
from astrag.graph.values import Value
from astrag.lang.python.modules import resolve_python_module
from astrag.lang.python.semantics import PY_BUILTINS
from astrag.lang.typescript.modules import resolve_ts_module
from astrag.lang.typescript.semantics import JS_GLOBALS
from astrag.verify.findings import Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.packages import module_names, ts_package_exports

# decorators known to leave a function's call signature alone
_PLAIN_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "abstractmethod", "override", "typing.override",
     "abc.abstractmethod", "functools.cache", "cache", "lru_cache", "functools.lru_cache"}
)  # fmt: skip
_DYNAMIC_HOOKS = frozenset({"__getattr__", "__getattribute__"})
_PROPERTY_ACCESSORS = frozenset({"setter", "getter", "deleter"})
# markers by which the code's author already told a type checker to let a line be
_SUPPRESS = re.compile(
    r"#\s*(type:\s*ignore|noqa|pyright:\s*ignore)|//\s*@ts-(ignore|expect-error)"
)
# standard-library modules whose attributes differ by platform (``sys.getwindowsversion``)
_PLATFORM_DEPENDENT = frozenset(
    {"sys", "os", "signal", "time", "socket", "select", "errno", "mmap", "resource", "posix",
     "nt", "msvcrt", "winreg", "ctypes", "termios", "fcntl", "pwd", "grp"}
)  # fmt: skip
_OBJECT_MEMBERS = frozenset(dir(object))
_JS_OBJECT_MEMBERS = frozenset(
    {"constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty",
     "isPrototypeOf", "propertyIsEnumerable"}
)  # fmt: skip
# names a TS/JS file may use without declaring them: the TypeScript lib (generated list),
# test runners and host environments
_TS_LIB = frozenset(
    line
    for line in resources.files("astrag.verify")
    .joinpath("ts_lib_globals.txt")
    .read_text("utf-8")
    .splitlines()
    if line and not line.startswith("#")
)
_AMBIENT = (
    JS_GLOBALS
    | _TS_LIB
    | frozenset(  # test runners, Node.js, framework and tsc-helper globals the lib lacks
        """BufferEncoding Express HasTaskState NodeJS NodeRequire Zone ZoneDelegate afterAll
    afterEach arguments beforeAll beforeEach bigint describe expect expectAsync fail
    fdescribe fit global it jasmine jest never ngDevMode object pending spyOn
    spyOnAllFunctions spyOnProperty symbol test unknown xdescribe xit __decorate __metadata
    __param __awaiter __generator __importDefault __importStar __exportStar __assign __rest
    __spreadArray __extends __values __read __createBinding __setModuleDefault""".split()
    )
)


class Checker:
    """Checks changed files with a resolver built over the index plus the changes."""

    def __init__(self, resolver: Resolver, root: Path | None = None) -> None:
        self.r = resolver
        self.root = root  # where node_modules are looked up; None: not at all

    def check(self, change: ChangedFile, facts: FileFacts) -> list[Finding]:
        if "@ts-nocheck" in change.text[:500]:
            return []  # the file opts out of checking
        wanted = change.lines
        silenced = _suppressed(change.text)
        if silenced:
            every = frozenset(range(1, change.text.count("\n") + 2))
            wanted = (every if wanted is None else wanted) - silenced
        out: list[Finding] = []
        for imp in facts.imports:
            if wanted is None or imp.line in wanted:
                out.extend(self._check_import(change, imp))
        for ref in facts.references:
            if wanted is None or ref.line in wanted:
                out.extend(self._check_reference(change, ref))
        shifted = [_shift(f, change.line_offset) for f in out]
        return sorted(set(shifted), key=lambda f: (f.path, f.line, f.column, f.rule))

    # ------------------------------------------------------------------ imports

    def _check_import(self, change: ChangedFile, imp: Import) -> list[Finding]:
        t = self.r.tables[change.path]
        target = self.r.import_target(t, imp) if imp.name != "*" else ("star",)
        if target is not None and target[0] != "ext":
            return []
        if target is not None and not t.python:
            return self._package_import(change, imp)
        if target is not None:  # an installed package, perhaps
            dotted = resolve_python_module(self.r.modules, t.path, imp.module, imp.level)
            return _installed_import(change, imp, dotted) if dotted else []
        if t.python:
            dotted = resolve_python_module(self.r.modules, t.path, imp.module, imp.level)
            if dotted is None:
                return []
            if not self.r.in_repository_package(dotted):
                return _installed_import(change, imp, dotted)
            module = self.r.python_module(dotted)
            what = f"{dotted}.{imp.name}" if imp.name else dotted
        else:
            target = resolve_ts_module(self.r.modules, t.path, imp.module)
            if target is None and not imp.module.startswith("."):
                return self._package_import(change, imp)
            escaped = posixpath.normpath(posixpath.join(posixpath.dirname(t.path), imp.module))
            if target is None and escaped.startswith("../"):
                return []  # outside the indexed root (one package of a monorepo): not ours
            module = ("mod", target) if target else None
            what = f"{imp.name} from {imp.module!r}" if imp.name else repr(imp.module)
        candidates = self.r.member_names(module) if module and imp.name else set()
        name = imp.name or imp.module
        message = (
            f"cannot import {what}: no such module in the repository"
            if module is None
            else f"cannot import {what}: the module defines no such name"
        )
        return [_finding(change, imp.line, 1, "unknown-import", message, name, candidates)]

    def _package_import(self, change: ChangedFile, imp: Import) -> list[Finding]:
        """``import { x } from 'pkg'`` where pkg's declarations in node_modules lack x."""
        if imp.name in (None, "default", "*") or self.root is None:
            return []
        exports = ts_package_exports(self.root, change.path, imp.module)
        if exports is None or imp.name in exports:
            return []
        message = f"cannot import {imp.name} from {imp.module!r}: the package does not export it"
        return [_finding(change, imp.line, 1, "unknown-import", message, imp.name, exports)]

    # ------------------------------------------------------------------ references

    def _check_reference(self, change: ChangedFile, ref: Reference) -> list[Finding]:
        t = self.r.tables[change.path]
        if "?" in ref.chain or any("[i]" in part for part in ref.chain):
            return []
        site = Site(t, ref.scope, ref.line)
        if ref.chain[-1].endswith("()") or ref.chain[-1] in _PROPERTY_ACCESSORS:
            return []  # a call's result called; ``@width.setter`` on a property
        denot, receiver = self.r.walk(site, ref.chain)
        if denot is None:
            return self._unbacked(change, ref, site, receiver)
        if denot[0] == "ext" and t.python and ref.kind == RefKind.CALL and len(ref.chain) > 1:
            return self._check_standard_library(change, ref, denot[1]) or _installed_call(
                change, ref, denot[1]
            )
        if ref.kind in (RefKind.CALL, RefKind.NEW):
            return self._check_arguments(change, ref, denot, receiver)
        return []

    @staticmethod
    def _check_standard_library(change: ChangedFile, ref: Reference, dotted: str) -> list[Finding]:
        """``os.path.joinz(...)``: a call on a standard-library module or class that has no
        such attribute (looked up on the imported module itself)."""
        owner, missing = stdlib_missing_attribute(dotted)
        if owner is None or missing is None:
            return []
        message = f"{owner} has no attribute {missing!r}"
        candidates = stdlib_attributes(owner)
        return [
            _finding(change, ref.line, ref.column, "unknown-member", message, missing, candidates)
        ]

    def _unbacked(
        self, change: ChangedFile, ref: Reference, site: Site, receiver: Value | None
    ) -> list[Finding]:
        name = ref.chain[-1]
        if len(ref.chain) == 1:
            return self._unbound_name(change, ref, site, name)
        if receiver is None or ref.kind not in (RefKind.CALL, RefKind.READ, RefKind.NEW):
            return []
        if receiver[0] == "mod":
            if ref.kind == RefKind.READ and not site.t.python:
                return []
            if self.r.module_is_dynamic(receiver[1]):
                return []
            owner = receiver[1]
        elif receiver[0] in ("inst", "super") or (
            receiver[0] == "sym" and self.r.is_class(receiver)
        ):
            if ref.kind != RefKind.CALL or not self._closed_class(receiver):
                return []
            if name in (_OBJECT_MEMBERS if site.t.python else _JS_OBJECT_MEMBERS):
                return []  # inherited from object / Object.prototype
            if not site.t.python and name in ("then", "catch", "finally"):
                return []  # a Promise whose value astrag took for the awaited one
            owner = receiver[2]
        else:
            return []
        message = f"{owner} has no member {name!r}"
        candidates = self.r.member_names(receiver)
        return [_finding(change, ref.line, ref.column, "unknown-member", message, name, candidates)]

    def _unbound_name(
        self, change: ChangedFile, ref: Reference, site: Site, name: str
    ) -> list[Finding]:
        t = site.t
        if name in ("self", "cls", "this", "super", "super()"):
            return []
        if not t.python and name in _AMBIENT:
            return []
        if t.facts.language == "javascript" and ref.kind != RefKind.CALL:
            return []  # plain JS: too many globals come from the host to call a read unbound
        if t.python and name in PY_BUILTINS:
            return []
        if self.r.bound_by_import(site, name):
            return []  # an import binds it: any problem is the import's finding
        if ref.kind in (RefKind.CALL, RefKind.NEW):
            rule, message = "unknown-function", f"{name!r} is not defined anywhere in scope"
        elif ref.kind == RefKind.TYPE:
            rule, message = "unknown-type", f"type {name!r} is not declared or imported"
        elif ref.kind == RefKind.READ:
            rule, message = "undeclared-name", f"{name!r} is not declared anywhere in scope"
        else:
            return []
        candidates = self.r.names_in_scope(site)
        return [_finding(change, ref.line, ref.column, rule, message, name, candidates)]

    def _closed_class(self, receiver: Value) -> bool:
        """A class whose members can all be seen: every class it extends is in the repository,
        and none has a dynamic attribute hook. A TS interface is never closed (index signatures
        and declaration merging are invisible to astrag); what a TS class ``implements`` adds
        no members. Class decorators are assumed to leave the class's own members alone."""
        d = self.r.definition(receiver)
        if d is None or d.kind != DefKind.CLASS:
            return False
        if self.r.tables[receiver[1]].python:
            mro, external = self.r.mro(receiver[1], receiver[2])
            if external:
                return False
            return not any(
                _DYNAMIC_HOOKS.intersection(self.r.tables[p].children.get(q, {})) for p, q in mro
            )
        return self._closed_ts_class(receiver[1], receiver[2], set())

    def _closed_ts_class(self, path: str, qual: str, seen: set[tuple[str, str]]) -> bool:
        if (path, qual) in seen:
            return True
        seen.add((path, qual))
        t = self.r.tables[path]
        d = t.defs.get(qual)
        if d is None or d.kind != DefKind.CLASS:
            return False
        site = Site(t, d.parent, d.start_line)
        for chain in d.bases:
            base, _ = self.r.walk(site, chain)
            if (
                base is None
                or base[0] != "sym"
                or not self._closed_ts_class(base[1], base[2], seen)
            ):
                return False
        return True

    # ------------------------------------------------------------------ arguments

    def _check_arguments(
        self, change: ChangedFile, ref: Reference, denot: Value, receiver: Value | None
    ) -> list[Finding]:
        if ref.arg_count < 0 or denot[0] != "sym":
            return []
        callee, bound = self._callable(denot, ref, receiver)
        if callee is None or any(d not in _PLAIN_DECORATORS for d in _decorators(callee)):
            return []
        params = callee.params[1:] if bound else callee.params
        kinds = {p.kind for p in params}
        findings = []
        if "var_keyword" not in kinds:
            findings.extend(self._unknown_keywords(change, ref, callee, params))
        if "var_positional" in kinds:
            return findings  # any number of positional arguments is fine
        positional = [p for p in params if p.kind in ("positional", "positional_only")]
        given = ref.arg_count + sum(p.name in ref.keywords for p in positional[ref.arg_count :])
        required = sum(not p.has_default for p in positional)
        too_few = given < required and "var_keyword" not in kinds
        # an arrow bound to a typed field/variable may take fewer parameters than callers pass
        too_many = ref.arg_count > len(positional) and "arrow" not in callee.modifiers
        if too_many or too_few:
            plural = "s" if len(positional) != 1 else ""
            message = (
                f"{callee.qualname}() takes {_count(required, len(positional))} positional "
                f"argument{plural}, {ref.arg_count} given"
            )
            findings.append(Finding(change.path, ref.line, ref.column, "wrong-arguments", message))
        return findings

    @staticmethod
    def _unknown_keywords(
        change: ChangedFile, ref: Reference, callee: Definition, params: Iterable[Param]
    ) -> list[Finding]:
        names = {p.name for p in params if p.kind != "positional_only"}
        return [
            _finding(
                change,
                ref.line,
                ref.column,
                "unknown-keyword",
                f"{callee.qualname}() takes no keyword argument {keyword!r}",
                keyword,
                names,
            )
            for keyword in ref.keywords
            if keyword not in names
        ]

    def _callable(
        self, denot: Value, ref: Reference, receiver: Value | None
    ) -> tuple[Definition | None, bool]:
        """The definition whose parameters a call binds, and whether its first parameter is
        bound already (a method called on an instance, a constructor)."""
        d = self.r.definition(denot)
        if d is None:
            return None, False
        if d.kind in CLASS_KINDS:
            if d.kind != DefKind.CLASS or not self._closed_class(denot):
                return None, False
            init = "__init__" if self.r.tables[denot[1]].python else "constructor"
            ctor = self.r.class_member(denot[1], denot[2], init)
            ctor_def = self.r.definition(ctor) if ctor else None
            if ctor_def is None:
                return None, False
            return ctor_def, self.r.tables[denot[1]].python
        if d.kind not in FUNCTION_KINDS or "overload" in d.modifiers or "#" in denot[2]:
            return None, False
        if self.r.tables[denot[1]].facts.language != "python":
            return d, False  # TS/JS methods have no self parameter
        if d.kind == DefKind.FUNCTION:
            return d, False
        if "static" in d.modifiers:
            return d, False
        via_instance = receiver is not None and receiver[0] in ("inst", "super")
        via_self = ref.chain[0] in ("self", "cls", "super()")
        if "classmethod" in d.modifiers or via_instance or via_self:
            return d, True
        return None, False  # ``Class.method(obj, ...)``: leave the unbound call alone


def _suppressed(text: str) -> frozenset[int]:
    """Lines a suppression comment covers: its own line, and for TS's ``// @ts-ignore`` (on a
    line of its own) the next one."""
    lines: set[int] = set()
    for number, line in enumerate(text.splitlines(), 1):
        match = _SUPPRESS.search(line)
        if match:
            lines.add(number)
            if match.group(2) and line.strip().startswith("//"):
                lines.add(number + 1)
    return frozenset(lines)


def _decorators(d: Definition) -> Iterable[str]:
    return (dec.split("(", 1)[0].strip() for dec in d.decorators)


def _count(required: int, total: int) -> str:
    return str(total) if required == total else f"{required} to {total}"


def _finding(
    change: ChangedFile,
    line: int,
    column: int,
    rule: str,
    message: str,
    name: str,
    candidates: Iterable[str],
) -> Finding:
    pool = sorted({c for c in candidates if c and c != name and not c.startswith("#")})
    suggestions = tuple(difflib.get_close_matches(name, pool, n=3, cutoff=0.6))
    if suggestions:
        message = f"{message} (did you mean {', '.join(suggestions)}?)"
    return Finding(change.path, line, column, rule, message, "error", suggestions)


def _shift(f: Finding, offset: int) -> Finding:
    if not offset:
        return f
    return Finding(f.path, f.line - offset, f.column, f.rule, f.message, f.severity, f.suggestions)


# ------------------------------------------------------------------ the standard library

# standard-library modules that do something when imported
_IMPORT_SIDE_EFFECTS = frozenset({"antigravity", "this", "idlelib", "turtle", "turtledemo"})


def _stdlib_object(dotted: str) -> tuple[object | None, str, list[str]]:
    """Import the longest standard-library module prefix of ``dotted``; the module, its name
    and the attribute path left after it."""
    parts = dotted.split(".")
    if parts[0] not in sys.stdlib_module_names or parts[0] in _IMPORT_SIDE_EFFECTS:
        return None, "", []
    for cut in range(len(parts) - 1, 0, -1):
        name = ".".join(parts[:cut])
        try:
            return importlib.import_module(name), name, parts[cut:]
        except ImportError:
            continue
    return None, "", []


def stdlib_missing_attribute(dotted: str) -> tuple[str | None, str | None]:
    """For a dotted name under a standard-library module whose *last* part is missing: the
    object that lacks it and the name; (None, None) when it exists or cannot be known
    (an intermediate attribute missing may be an instance attribute; a function's result is
    of unknown type; ``typing`` names are not runtime classes)."""
    obj, owner, rest = _stdlib_object(dotted)
    if obj is None or owner.partition(".")[0] in ("typing", "typing_extensions"):
        return None, None
    if owner in _PLATFORM_DEPENDENT:
        return None, None
    for i, part in enumerate(rest):
        called = part.endswith("()")
        attribute = part.removesuffix("()")
        if isinstance(obj, ModuleType) and "__getattr__" in vars(obj):
            return None, None  # the module answers any name (PEP 562)
        if isinstance(obj, type) and hasattr(obj, "__getattr__"):
            return None, None  # so do its instances
        if not hasattr(obj, attribute):
            if isinstance(obj, ModuleType) and _submodule_exists(f"{owner}.{attribute}"):
                return None, None  # a submodule not imported yet (``ctypes.wintypes``)
            return (owner, attribute) if i == len(rest) - 1 and not called else (None, None)
        obj = getattr(obj, attribute)
        owner = f"{owner}.{attribute}"
        if called and not isinstance(obj, type):
            return None, None  # the result of a function: its type is not known
    return None, None


def stdlib_attributes(owner: str) -> list[str]:
    obj, _, rest = _stdlib_object(owner + ".x")
    for attribute in rest[:-1]:
        obj = getattr(obj, attribute, None)
    return [a for a in dir(obj) if not a.startswith("_")] if obj is not None else []


# ------------------------------------------------------------------ installed packages


def _installed_import(change: ChangedFile, imp: Import, dotted: str) -> list[Finding]:
    """``from pkg.mod import name`` of an installed package that, read statically, has no
    such name."""
    if imp.name is None:
        return []
    if dotted.partition(".")[0] in sys.stdlib_module_names:
        owner, missing = stdlib_missing_attribute(f"{dotted}.{imp.name}")
        if missing is None:
            return []
        message = f"cannot import {imp.name} from {owner}: no such name"
        candidates = stdlib_attributes(owner)
        return [_finding(change, imp.line, 1, "unknown-import", message, missing, candidates)]
    names = module_names(dotted)
    if names is None or imp.name in names:
        return []
    message = f"cannot import {dotted}.{imp.name}: the installed module defines no such name"
    return [_finding(change, imp.line, 1, "unknown-import", message, imp.name, names)]


def _installed_call(change: ChangedFile, ref: Reference, dotted: str) -> list[Finding]:
    """``pkg.func()`` on an installed module (not a class, not a call's result)."""
    module, _, name = dotted.rpartition(".")
    if "()" in dotted or not module:
        return []
    names = module_names(module)
    if names is None or name in names:
        return []
    message = f"the installed module {module} has no attribute {name!r}"
    return [_finding(change, ref.line, ref.column, "unknown-member", message, name, names)]


def _submodule_exists(dotted: str) -> bool:
    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError):
        return False
