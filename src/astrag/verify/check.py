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
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from pathlib import Path
from types import GetSetDescriptorType, MemberDescriptorType, ModuleType

from tree_sitter import Tree

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
from astrag.graph.tables import FileTables, Site
from astrag.graph.values import Value
from astrag.lang import parse_file
from astrag.lang.python.modules import resolve_python_module
from astrag.lang.python.semantics import PY_BUILTINS
from astrag.lang.typescript.modules import resolve_ts_module
from astrag.lang.typescript.semantics import JS_GLOBALS
from astrag.verify.attributes import Access, attribute_accesses
from astrag.verify.findings import Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.members import AttributeRule, ClassBodies, same_kind_mro, scope_at
from astrag.verify.narrowing import narrowed
from astrag.verify.packages import module_names, ts_package_exports
from astrag.verify.syntax import syntax_errors

# decorators known to leave a function's call signature alone
_PLAIN_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "abstractmethod", "override", "typing.override",
     "abc.abstractmethod", "functools.cache", "cache", "lru_cache", "functools.lru_cache"}
)  # fmt: skip
_DYNAMIC_HOOKS = frozenset({"__getattr__", "__getattribute__"})
_UNBOUND_RULES = frozenset({"unknown-function", "undeclared-name", "unknown-type"})
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


# the languages with checker rules (Java's are not written yet)
CHECKED_LANGUAGES = frozenset({"python", "typescript", "javascript", "go"})


class Checker:
    """Checks changed files with a resolver built over the index plus the changes."""

    def __init__(
        self,
        resolver: Resolver,
        root: Path | None = None,
        texts: Mapping[str, str] | None = None,
        ambient: frozenset[str] = frozenset(),
        declarations: Callable[[str], int] | None = None,
        shared: dict | None = None,
    ) -> None:
        self.r = resolver
        self.root = root  # where node_modules are looked up; None: not at all
        self.ambient = ambient  # TS globals the repository declares
        # how many classes/interfaces of a name the repository declares (merging)
        self.declarations = declarations or (lambda name: 1)
        # texts: the changed files' new text; shared: what was read of the others, kept
        self.bodies = ClassBodies(resolver, texts or {}, root, shared)
        self.attributes = AttributeRule(resolver, self.bodies, self._closed_class)

    def check(
        self, change: ChangedFile, facts: FileFacts, tree: Tree | None = None
    ) -> list[Finding]:
        """Findings on the wanted lines of ``change``; ``tree``: its parse when the caller
        made one already (the text is parsed here otherwise, once, only if a rule needs it)."""
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
        if facts.language != "javascript":  # plain JS classes grow by assignment
            tree = tree or _parse(change)
            for access in attribute_accesses(change.path, change.text, wanted, tree):
                if wanted is None or access.line in wanted:
                    out.extend(self._check_attribute(change, facts, access))
        if facts.errors:
            out = _with_syntax_errors(change, wanted, out, tree or _parse(change))
        shifted = [_shift(f, change.line_offset) for f in out]
        return sorted(set(shifted), key=lambda f: (f.path, f.line, f.column, f.rule))

    # ------------------------------------------------------------------ imports

    def _check_import(self, change: ChangedFile, imp: Import) -> list[Finding]:
        t = self.r.tables[change.path]
        target = self.r.import_target(t, imp) if imp.name != "*" else ("star",)
        if target is not None and target[0] != "ext":
            return []
        if target is None and t.sem.language == "go":  # inside the repository's modules
            message = f"cannot import {imp.module!r}: no such package in the repository"
            return [_finding(change, imp.line, 1, "unknown-import", message, imp.module, set())]
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
        if module is not None and module[0] == "mod" and self._damaged_module(module[1], imp.name):
            return []  # the parser lost part of that module: its names are not all known
        candidates = self.r.member_names(module) if module and imp.name else set()
        name = imp.name or imp.module
        message = (
            f"cannot import {what}: no such module in the repository"
            if module is None
            else f"cannot import {what}: the module defines no such name"
        )
        return [_finding(change, imp.line, 1, "unknown-import", message, name, candidates)]

    def _damaged_module(self, path: str, name: str | None, seen: set[str] | None = None) -> bool:
        """Whether the module, or one it re-exports everything from, has syntax errors that
        may have swallowed a definition of ``name`` (its text names it)."""
        seen = set() if seen is None else seen
        if path in seen or path not in self.r.tables.facts:
            return False
        seen.add(path)
        t = self.r.tables[path]
        if t.facts.errors and (name is None or _names(self.bodies.file_text(path), name)):
            return True
        stars = t.star_imports.get("", []) if t.python else t.star_reexports
        for imp in stars:
            target = resolve_ts_module(self.r.modules, path, imp.module) if not t.python else None
            if t.python:
                module = self.r.import_target(t, imp)
                target = module[1] if module is not None and module[0] == "mod" else None
            if target is not None and self._damaged_module(target, name, seen):
                return True
        return False

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
        if "?" in ref.chain or any("[i]" in part or "[k]" in part for part in ref.chain):
            return []
        site = Site(t, ref.scope, ref.line)
        if ref.chain[-1].endswith("()") or ref.chain[-1] in _PROPERTY_ACCESSORS:
            return []  # a call's result called; ``@width.setter`` on a property
        denot, receiver = self.r.walk(site, ref.chain)
        if denot is None or self._implemented_only(denot, receiver):
            return self._unbacked(change, ref, site, receiver)
        if denot[0] == "ext" and t.python and ref.kind == RefKind.CALL and len(ref.chain) > 1:
            if receiver is not None and self.r.definition(receiver) is not None:
                return self._missing_on_repository_class(change, ref, receiver)
            return self._check_standard_library(change, ref, denot[1]) or _installed_call(
                change, ref, denot[1]
            )
        if ref.kind in (RefKind.CALL, RefKind.NEW):
            return self._check_arguments(change, ref, denot, receiver)
        return []

    def _check_attribute(
        self, change: ChangedFile, facts: FileFacts, access: Access
    ) -> list[Finding]:
        site = Site(self.r.tables[change.path], scope_at(facts, access.byte), access.line)
        missing = self.attributes.missing(site, access)
        if missing is None or self._narrowed(change, site, access.chain):
            return []
        if not self._declared_receiver(site, access.chain):
            return []
        owner, receiver = missing
        name = access.chain[-1]
        verb = "declares no member" if access.write else "has no attribute"
        message = f"{owner} {verb} {name!r}"
        candidates = self.r.member_names(receiver)
        line, column = access.line, access.column
        return [_finding(change, line, column, "unknown-member", message, name, candidates)]

    def _implemented_only(self, denot: Value, receiver: Value | None) -> bool:
        """A TS class member found only in an external interface the class ``implements``
        (``class ObservableMap implements Map``): implementing adds no members, so a closed
        class that does not declare it does not have it."""
        if denot[0] != "ext" or receiver is None or receiver[0] not in ("inst", "super"):
            return False
        if self.r.tables[receiver[1]].python:
            return False
        d = self.r.definition(receiver)
        return d is not None and d.kind == DefKind.CLASS and self._closed_class(receiver)

    def _missing_on_repository_class(
        self, change: ChangedFile, ref: Reference, receiver: Value
    ) -> list[Finding]:
        """``request.formdata()`` where Request's repository classes lack the method and its
        standard-library bases (``Mapping``) do too: named after the receiver's own type."""
        name = ref.chain[-1]
        if receiver[0] not in ("inst", "super") and not self.r.is_class(receiver):
            return []
        if name in _OBJECT_MEMBERS or not self._closed_class(receiver, name):
            return []
        site = Site(self.r.tables[change.path], ref.scope, ref.line)
        if self._narrowed(change, site, ref.chain):
            return []
        message = f"{receiver[2]} has no member {name!r}"
        candidates = self.r.member_names(receiver)
        return [_finding(change, ref.line, ref.column, "unknown-member", message, name, candidates)]

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
            if self.r.module_is_dynamic(receiver[1]) or self._damaged_module(receiver[1], name):
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
            if self._narrowed(change, site, ref.chain):
                return []
            interface = self.r.definition(receiver)
            inferred = not self._declared_receiver(site, ref.chain)
            if interface is not None and interface.kind == DefKind.INTERFACE and inferred:
                return []  # an inferred interface type may be the wrong one
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
        if not t.python and name in self.ambient:
            return []  # declared by a script ``.d.ts`` of the repository (a global)
        if t.python and _class_name_in_header(t, site.scope, name, ref.line, change.text):
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

    def _declared_receiver(self, site: Site, chain: tuple[str, ...]) -> bool:
        """Whether the receiver's type is written in the code, not inferred: ``self``/``this``,
        a call (its declared return), or a name whose every binding in scope is annotated (a
        callback's parameter typed from the array it iterates is not: ``xs.map(m => m.x)``)."""
        root = chain[0]
        if root in ("self", "cls", "this", "super", "super()") or root.endswith("()"):
            return True
        t, scope = site.t, site.scope
        while True:
            bound = t.bindings.get(scope, {}).get(root)
            if bound:
                return all(b.type is not None for b in bound)
            d = t.defs.get(scope) if scope else None
            if d is not None and d.kind in FUNCTION_KINDS and any(p.name == root for p in d.params):
                return all(p.annotation is not None for p in d.params if p.name == root)
            if not scope:
                break
            scope = d.parent if d is not None else ""
        top = t.defs.get(root)
        return top is None or top.kind in CLASS_KINDS or top.type is not None

    def _narrowed(self, change: ChangedFile, site: Site, chain: tuple[str, ...]) -> bool:
        """The receiver is tested or cast on the way to the use (``instanceof``, a guard)."""
        d = site.t.defs.get(site.scope)
        first = d.start_line if d is not None else 1
        return narrowed(change.text, first, site.line, ".".join(chain[:-1]))

    def _closed_class(
        self, receiver: Value, name: str | None = None, attribute: bool = False
    ) -> bool:
        """A class whose members can all be seen: every class it extends is in the repository
        (Python: or a standard-library class that lacks ``name`` too; for an attribute, an
        abstract one, since a concrete class's instance attributes cannot be seen on the
        class: ``logging.Handler().formatter``), none has a dynamic
        attribute hook, and no file it lives in lost code to a syntax error. A TS interface
        counts when it is the repository's only declaration of that name (no merging or
        augmentation), has no index signature and extends only such types; what a TS class
        ``implements`` adds no members. Class decorators are assumed to leave the class's own
        members alone."""
        d = self.r.definition(receiver)
        python = self.r.tables[receiver[1]].python
        if d is None or d.kind not in (DefKind.CLASS, DefKind.INTERFACE):
            return False
        if d.kind == DefKind.INTERFACE and python:
            return False
        mro, external = self.r.mro(receiver[1], receiver[2])
        if any(self.bodies.damaged(p, q) for p, q in same_kind_mro(self.r, receiver)):
            return False  # the parser lost part of a class: its members are not all known
        if python:
            if external and not (name and _standard_bases_lack(external, name, attribute)):
                return False
            return not any(
                _DYNAMIC_HOOKS.intersection(self.r.tables[p].children.get(q, {})) for p, q in mro
            )
        return self._closed_ts_type(receiver[1], receiver[2], set())

    def _closed_ts_type(self, path: str, qual: str, seen: set[tuple[str, str]]) -> bool:
        if (path, qual) in seen:
            return True
        seen.add((path, qual))
        t = self.r.tables[path]
        d = t.defs.get(qual)
        if d is None or d.kind not in (DefKind.CLASS, DefKind.INTERFACE):
            return False
        if d.kind == DefKind.INTERFACE and not self._closed_interface(path, qual, d.name):
            return False
        site = Site(t, d.parent, d.start_line)
        for chain in d.bases:
            base, _ = self.r.walk(site, chain)
            if base is None or base[0] != "sym" or not self._closed_ts_type(base[1], base[2], seen):
                return False
        return True

    def _closed_interface(self, path: str, qual: str, name: str) -> bool:
        if self.declarations(name) > 1:
            return False  # merged with, or augmented by, another declaration of that name
        return self.bodies.ts_declared(path, qual) is not None  # None: an index signature

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


def _parse(change: ChangedFile) -> Tree | None:
    return parse_file(change.path, change.text.encode("utf-8"))


def _with_syntax_errors(
    change: ChangedFile, wanted: frozenset[int] | None, found: list[Finding], tree: Tree | None
) -> list[Finding]:
    """``found`` plus the syntax errors on the wanted lines; other findings inside a damaged
    region are dropped: they describe the parser's recovery, not the code."""
    spots, every = syntax_errors(change.path, change.text, change.old, wanted, tree)
    if not every:
        return found
    damaged = [(s.line, s.last_line) for s in every]
    kept = [
        f
        for f in found  # a damaged region may have swallowed the definition a name needs
        if f.rule not in _UNBOUND_RULES and not any(low <= f.line <= high for low, high in damaged)
    ]
    errors = [Finding(change.path, s.line, s.column, "syntax-error", s.message) for s in spots]
    return kept + errors


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text) is not None


def _standard_bases_lack(external: list[Value], name: str, abstract_only: bool) -> bool:
    """Every base outside the repository is a standard-library class without ``name`` (an
    abstract one of ``collections.abc``/``abc``/``numbers``, with ``abstract_only``)."""
    return all(
        base[0] == "ext"
        and (not abstract_only or base[1].startswith(_ABSTRACT_MODULES))
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

_ABSTRACT_MODULES = ("collections.abc.", "abc.", "numbers.")
_DESCRIPTORS = (GetSetDescriptorType, MemberDescriptorType, property)
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
        if isinstance(obj, _DESCRIPTORS):
            return None, None  # an instance attribute (``datetime.tzinfo``): its value unknown
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
