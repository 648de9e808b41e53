"""The checker's TypeScript and JavaScript rules (``verify/rules.py``): the lib's globals and
the repository's script ``.d.ts`` declarations, imports of repository modules and of npm
packages' declarations, classes closed through ``extends`` only (``implements`` adds no
members), interfaces closed when declared once without an index signature, and the members a
class body declares (fields, parameter properties; a write must hit one). Plain JavaScript is
judged on calls only: its classes grow by assignment and its host provides its globals.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable
from importlib import resources
from typing import TYPE_CHECKING

from astrag.graph.facts import Chain, Definition, DefKind, Import, Reference
from astrag.graph.tables import FileTables, Site
from astrag.graph.values import Value
from astrag.lang.brackets import split_outside
from astrag.lang.typescript.check_globals import Globals, program_globals
from astrag.lang.typescript.check_members import ts_declared_members
from astrag.lang.typescript.check_params import (
    accepts_void,
    alias_type,
    function_type_arity,
    parameter_type,
    type_parameter_names,
    voidable_parameters,
    voidable_type_parameters,
    written_type_arguments,
)
from astrag.lang.typescript.modules import resolve_ts_module
from astrag.lang.typescript.semantics import JS_GLOBALS
from astrag.verify.findings import Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.packages import ts_package_exports
from astrag.verify.rules import LanguageRules
from astrag.verify.syntax import BLAME_IF_CLEAN_BEFORE

if TYPE_CHECKING:
    from astrag.verify.check import Checker
    from astrag.verify.members import ClassBodies

_SUPPRESS = re.compile(r"//\s*@ts-(ignore|expect-error)")
# names a TS/JS file may use without declaring them: the TypeScript lib (generated list),
# test runners and host environments
_TS_LIB = frozenset(
    line
    for line in resources.files(__package__)
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
    # TypeScript's predefined types, where a grammar reads a type argument as a value
    # (``parse<Record<string, unknown>>(x)``)
    | frozenset("string number boolean any void undefined null".split())
)
# what a specifier may name on disk besides itself (``./x.js`` is ``./x.ts`` before emit)
_SOURCE_SUFFIXES = (".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_JS_OBJECT_MEMBERS = frozenset(
    {"constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty",
     "isPrototypeOf", "propertyIsEnumerable"}
)  # fmt: skip


# what every function, a class too, has
_FUNCTION_MEMBERS = frozenset({"call", "apply", "bind", "name", "length", "prototype"})


class TypeScriptRules(LanguageRules):
    language = "typescript"
    receivers = frozenset({"this", "super"})
    class_merges_interfaces = True
    # and ``then``/``catch``/``finally``: a Promise whose value astrag took for the awaited one
    call_members = _JS_OBJECT_MEMBERS | {"then", "catch", "finally"}
    attribute_members = frozenset(
        {"constructor", "prototype", "name", "length", "call", "apply", "bind", "toString",
         "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString",
         "then", "catch", "finally", "caller", "arguments"}
    )  # fmt: skip
    # text the parser could not read that began on a line the change did not write (an
    # unclosed `(` inside a callback the statement above opened) is the change's when the old
    # version parsed cleanly: the grammar read that very code before the change
    damage_begun_elsewhere = BLAME_IF_CLEAN_BEFORE
    calls_bind_overload_signatures = True

    def opted_out(self, text: str) -> bool:
        return "@ts-nocheck" in text[:500]

    def suppressed(self, text: str) -> frozenset[int]:
        """Lines under ``// @ts-ignore`` / ``// @ts-expect-error``: its own line, and the next
        one when the comment stands on a line of its own."""
        lines: set[int] = set()
        for number, line in enumerate(text.splitlines(), 1):
            if _SUPPRESS.search(line):
                lines.add(number)
                if line.strip().startswith("//"):
                    lines.add(number + 1)
        return frozenset(lines)

    def declares(self, line: str, name: str) -> bool:
        return re.search(rf"\b(?:const|let|var)\s+{re.escape(name)}(?![\w$])", line) is not None

    def needs_no_declaration(
        self, checker: Checker, site: Site, name: str, ref: Reference, text: str
    ) -> bool:
        # the lib's and the host's globals, and the repository's own script ``.d.ts`` ones
        if name in _AMBIENT or name in checker.ambient:
            return True
        if checker.root is None:
            return False
        # what the file's program adds (its tsconfig's libs and type packages, declaration
        # files it references)
        return name in self._program_globals(checker, site, text).names

    def parameter_arity(
        self, text: str, function: str, param: str
    ) -> tuple[int, int | None] | None:
        written = parameter_type(text, function, param)  # ``listener: (s: T, p: T) => void``
        return function_type_arity(written) if written is not None else None

    def alias_arity(self, text: str, name: str) -> tuple[int, int | None] | None:
        written = alias_type(text, name)  # ``type Listener<S> = (state: S, prev: S) => void``
        return function_type_arity(written) if written is not None else None

    def unverified_name(
        self, checker: Checker, site: Site, name: str, ref: Reference, text: str
    ) -> str | None:
        # a program part that cannot be read may declare any name: say so, not nothing
        if checker.root is None:
            return None
        unread = self._program_globals(checker, site, text).unread
        if not unread:
            return None
        what = ", ".join(unread[:2]) + (f" and {len(unread) - 2} more" if len(unread) > 2 else "")
        return f"this file's program uses {what}, which could not be read and may declare it"

    def _program_globals(self, checker: Checker, site: Site, text: str) -> Globals:
        indexed = checker.r.tables.facts
        return program_globals(
            checker.root, site.t.path, text, indexed.__contains__, indexed, checker.memo("ts")
        )

    def omittable(
        self,
        checker: Checker,
        path: str,
        callee: Definition,
        change: ChangedFile | None = None,
        ref: Reference | None = None,
    ) -> frozenset[str]:
        """A trailing argument whose type accepts ``void`` may be left out, and one typed
        by a type parameter that may be ``void`` (``Emitter<void>.fire()``) unless the
        receiver says how the class is instantiated: ``this.list.add()`` on ``list:
        LinkedList<T>``, or ``this.searchNode(node)`` in the class itself, where the type
        parameter is a type parameter and not ``void``."""
        t = checker.r.tables[path]
        if t.sem.language == "javascript":
            return javascript_omittable(callee)
        source = checker.bodies.file_text(path).encode("utf-8")

        def text(d: Definition) -> str:
            return source[d.start_byte : d.end_byte].decode("utf-8", "replace")

        owner = t.defs.get(callee.parent) if callee.parent else None
        outer = voidable_type_parameters(text(owner), owner.name) if owner else frozenset()

        def alias_may_be_void(name: str) -> bool:
            """A repository type alias whose definition names ``void`` (a conditional
            type, ``keyof T extends never ? void : T``)."""
            if name in _ACCEPTS_NO_VOID:
                return False
            found, _ = checker.r.walk(Site(t, callee.parent, callee.start_line), (name,))
            alias = checker.r.definition(found) if found and found[0] == "sym" else None
            if alias is None or alias.kind != DefKind.TYPE_ALIAS:
                return False
            source = checker.bodies.file_text(found[1]).encode("utf-8")
            body = source[alias.start_byte : alias.end_byte].decode("utf-8", "replace")
            return _alias_may_be_void(body)

        if outer and owner is not None and change is not None and ref is not None:
            written = _instantiation(checker, change, ref, (path, owner), text(owner))
            if written is not None:
                outer = frozenset(
                    p
                    for p in outer
                    if p not in written or accepts_void(written[p], alias_may_be_void)
                )
        return voidable_parameters(text(callee), callee.name, outer, alias_may_be_void)

    def import_findings(
        self, checker: Checker, change: ChangedFile, imp: Import, target: Value | None
    ) -> list[Finding]:
        if target is not None:
            return _package_import(checker, change, imp)
        found = resolve_ts_module(checker.r.modules, change.path, imp.module)
        if found is None and not imp.module.startswith("."):
            return _package_import(checker, change, imp)
        escaped = posixpath.normpath(posixpath.join(posixpath.dirname(change.path), imp.module))
        if found is None:  # ``'../platform'``: a directory whose package.json names its entry
            entry = _package_entry(checker, escaped)
            if entry is not None:
                spec = posixpath.relpath(entry, posixpath.dirname(change.path) or ".")
                spec = spec if spec.startswith(".") else f"./{spec}"
                found = resolve_ts_module(checker.r.modules, change.path, spec)
                if found is not None and not imp.name:
                    return []  # the whole module, which is there
        if found is None and escaped.startswith("../"):
            return []  # outside the indexed root (one package of a monorepo): not ours
        if found is None and _on_disk(checker, escaped):
            return []  # a file the index leaves out (excluded, ignored): not a hallucination
        if found is not None and imp.name and _declared(checker, found, imp.name, set()):
            return []  # its text exports the name: the index missed it, the name is there
        typed = _declarations_beside(checker, found) if found is not None else None
        if typed is not None and imp.name and _declared(checker, typed, imp.name, set()):
            return []  # a JavaScript file's own .d.ts, which the compiler reads instead
        module = ("mod", found) if found else None
        what = f"{imp.name} from {imp.module!r}" if imp.name else repr(imp.module)
        return checker.missing_import(change, imp, module, what)

    def star_sources(self, checker: Checker, t: FileTables) -> list[str]:
        found = (resolve_ts_module(checker.r.modules, t.path, i.module) for i in t.star_reexports)
        return [path for path in found if path is not None]

    def module_declares(self, checker: Checker, path: str, name: str, importer: str) -> bool:
        """The module passes on names of a module the index does not hold (``export { a as
        b } from "../excluded"``, ``export * from "pkg"``): it may have ``name``."""
        t = checker.r.tables[path]
        sources = [t.reexports[name]] if name in t.reexports else []
        sources += t.star_reexports
        return any(
            resolve_ts_module(checker.r.modules, path, imp.module) is None for imp in sources
        )

    def unknowable(self, checker: Checker, site: Site, chain: Chain) -> bool:
        return len(chain) > 1 and _awaited_thenable(checker, site, chain)

    def implemented_only(self, checker: Checker, denot: Value, receiver: Value | None) -> bool:
        """A class member found only in an external interface the class ``implements``
        (``class ObservableMap implements Map``): implementing adds no members, so a closed
        class that does not declare it does not have it; nor static members, read on the
        class itself (neverthrow's ``ResultAsync.combine`` on a class that implements
        ``PromiseLike``)."""
        if denot[0] != "ext" or receiver is None or receiver[0] not in ("inst", "super", "sym"):
            return False
        if receiver[0] == "sym" and denot[1].rpartition(".")[2] in _FUNCTION_MEMBERS:
            return False  # a class is a function: ``Foo.bind(...)``
        d = checker.r.definition(receiver)
        return d is not None and d.kind == DefKind.CLASS and checker.closed_class(receiver)

    def closed_class(
        self, checker: Checker, receiver: Value, d: Definition, name: str | None, attribute: bool
    ) -> bool:
        """Every type it extends is a repository class, or an interface that is the
        repository's only declaration of its name (no merging or augmentation) without an
        index signature."""

        def accept(path: str, qual: str, d: Definition) -> bool:
            if d.kind != DefKind.INTERFACE:
                return True
            if checker.declarations(d.name) > 1:
                return False  # merged with, or augmented by, another declaration of that name
            return (
                _declared_members(checker.bodies, path, qual) is not None
            )  # None: index signature

        return checker.closed_by_bases(receiver, d, accept)

    def receiver_rebound(
        self, checker: Checker, change: ChangedFile, site: Site, column: int
    ) -> bool:
        """``this`` inside a ``function`` expression or an object literal's method that the
        index records as no scope of its own (yup's ``createValidation({ test(value) {
        this.schema } })`` inside a class method) is bound by that function's call, not the
        class; an arrow function keeps the enclosing ``this``, and a method the index records
        (an object literal bound to a typed name) is the scope the resolver already reads."""
        tree = checker.parsed(change)
        if tree is None:
            return False
        scope = site.t.defs.get(site.scope) if site.scope else None
        point = (site.line - 1, max(column - 1, 0))
        node = tree.root_node.descendant_for_point_range(point, point)
        while node is not None:
            if node.type in _THIS_BINDING_FUNCTIONS or node.type == "method_definition":
                if scope is not None and node.start_point[0] + 1 == scope.start_line:
                    owner = site.t.defs.get(scope.parent) if scope.parent else None
                    on_object = owner is not None and owner.kind in (
                        DefKind.VARIABLE,
                        DefKind.FIELD,
                    )
                    if scope.kind == DefKind.METHOD or on_object:
                        return False  # a method the index records: its ``this`` is resolved
                if node.type != "method_definition":
                    return True
                return node.parent is None or node.parent.type != "class_body"
            if node.type in ("class_body", "class_declaration", "class"):
                return False
            node = node.parent
        return False

    def bases(self, bodies: ClassBodies, path: str, qual: str, d: Definition) -> Iterable[Chain]:
        """An interface extending ``Omit<Impl<T>, 'value'>`` (``Pick``, ``Partial``,
        ``Required``, ``Readonly``) has no member ``Impl`` lacks: it extends ``Impl`` here
        (true-myth's ``Nothing<T>``); the index keeps the utility's name alone."""
        if d.kind != DefKind.INTERFACE or not any(c[-1] in _MEMBER_SUBSETS for c in d.bases):
            return d.bases
        written = [
            chain
            for part in _extends_clause(bodies.read("ts-extends", path, qual, _extends) or "")
            if (chain := _subset_of(part)) is not None
        ]
        out = []
        for chain in d.bases:
            if chain[-1] in _MEMBER_SUBSETS:
                if not written:
                    return d.bases  # not read as written: the index's chain, outside
                chain = written.pop(0)
            out.append(chain)
        return out

    def open_class_body(self, bodies: ClassBodies, path: str, qual: str) -> bool:
        if _declared_members(bodies, path, qual) is None:
            return True  # an index signature
        t = bodies.r.tables[path]
        if t.defs[qual].kind != DefKind.CLASS:
            return False
        # an interface of the same name in its file is merged into the class: the class
        # stays closed when each such interface lists its members (yup's ``Schema``) and
        # extends only what the class does (``ObjectSchema``'s restates ``Schema<...>``),
        # not when one has an index signature or another base
        own = {chain[-1] for chain in t.defs[qual].bases}
        return any(
            d.kind == DefKind.INTERFACE
            and (
                any(chain[-1] not in own for chain in d.bases)
                or _declared_members(bodies, path, key) is None
            )
            for key, d in t.others(qual)
        )

    def body_declares(
        self, bodies: ClassBodies, path: str, qual: str, name: str, resolved: bool
    ) -> bool:
        """A write must hit a member the class declares (a field, a parameter property): an
        assignment in a method declares nothing."""
        if not resolved:
            return False
        declared = _declared_members(bodies, path, qual)
        return declared is None or name in declared


class JavaScriptRules(TypeScriptRules):
    language = "javascript"
    judges_attributes = False  # plain JS classes grow by assignment
    judges_unbound_reads = False  # too many globals come from the host to call a read unbound


def _awaited_thenable(checker: Checker, site: Site, chain: Chain) -> bool:
    """``const teed = await teedAsync; teed.isOk()``: the index records ``await x`` as ``x``,
    but awaiting a repository class with a ``then`` member (neverthrow's ``ResultAsync
    implements PromiseLike<Result>``) gives what ``then`` resolves to, not the class."""
    root = chain[0]
    lines = _awaiting_lines(checker, site.t.path)
    if lines is None:
        return False
    awaited = re.compile(rf"(?<![\w$]){re.escape(root)}\b[^=\n]*=\s*await\b")
    used = re.compile(rf"\(\s*await\s+{re.escape(root)}\s*\)")  # ``(await x).m()``
    found = 0 < site.line <= len(lines) and used.search(lines[site.line - 1]) is not None
    if not found and (binding := site.t.binding_scope(site.scope, root)) is not None:
        found = any(
            0 < b.line <= len(lines) and awaited.search(lines[b.line - 1]) for b in binding[1]
        )
    if not found:
        return False
    _, receiver = checker.r.walk(site, chain)
    values = receiver[1] if receiver is not None and receiver[0] == "union" else (receiver,)
    return any(
        v is not None
        and v[0] == "inst"
        and (then := checker.r.class_member(v[1], v[2], "then")) is not None
        and then[0] == "sym"  # the class's own, not one an outside type may have
        for v in values
    )


def _awaiting_lines(checker: Checker, path: str) -> list[str] | None:
    """The file's lines when it awaits anything (None otherwise), split once per text: every
    chain of the file asks."""
    text = checker.bodies.file_text(path)
    memo = checker.memo("ts-await")
    key = (path, text)  # the same text object each time: hashed once, compared by identity
    if key not in memo:
        if len(memo) > 64:
            memo.clear()  # a long session's earlier texts
        memo[key] = text.split("\n") if "await" in text else None
    return memo[key]


def _alias_may_be_void(text: str) -> bool:
    """A type alias's text whose value may be ``void``: ``void`` as a branch of a conditional
    type (``keyof T extends never ? void : T``) or a member of a union (``T | void``); not a
    function type that merely takes or returns one (``(returns?: void) => T``)."""
    parts = split_outside(text, "=", opening="<([{", closing=">)]}", not_closing="=>")
    if len(parts) < 2:
        return False
    value = "=".join(parts[1:]).strip().rstrip(";").strip()
    if re.search(r"\?\s*void\s*:|:\s*void$", value):
        return True
    alternatives = split_outside(value, "|", opening="<([{", closing=">)]}", not_closing="=>")
    return "void" in {a.strip() for a in alternatives}


# names a parameter's type often starts with that are no type alias of the repository
_ACCEPTS_NO_VOID = frozenset({"string", "number", "boolean", "Array", "Record", "Promise"})
# utility types whose members are some of their first argument's
_EXPORT_DEFAULT = re.compile(r"^\s*export\s+default\b", re.MULTILINE)
# functions that bind ``this`` of their own (an arrow keeps the enclosing one)
_THIS_BINDING_FUNCTIONS = frozenset(
    {"function_expression", "function", "function_declaration", "generator_function",
     "generator_function_declaration"}
)  # fmt: skip
_MEMBER_SUBSETS = frozenset({"Omit", "Pick", "Partial", "Required", "Readonly"})
_EXTENDS = re.compile(r"^\s*(?:export\s+)?(?:declare\s+)?interface\s+[\w$]+")


def _extends(body: str) -> str:
    """The ``extends`` list of an interface declaration's text (after its name and type
    parameters, up to its body's brace); "" when there is none."""
    head = _EXTENDS.match(body)
    if head is None:
        return ""
    i, depth = head.end(), 0
    for j in range(i, len(body)):
        c = body[j]
        if c in "<([":
            depth += 1
        elif c in ">)]" and depth:
            depth -= 1
        elif c == "{" and depth == 0:
            rest = body[i:j].strip()
            return rest[len("extends") :] if rest.startswith("extends") else ""
        elif c == "e" and depth == 0 and body.startswith("extends", j):
            i = j
    return ""


def _extends_clause(text: str) -> list[str]:
    return [p.strip() for p in split_outside(text, ",", opening="<([{", closing=">)]}") if p]


def _subset_of(part: str) -> Chain | None:
    """``Omit<MaybeImpl<T>, 'value'>`` -> ``("MaybeImpl",)``; None for any other base."""
    found = re.fullmatch(r"([\w$]+)\s*<\s*([\w$.]+)[\s\S]*>", part)
    if found is None or found.group(1) not in _MEMBER_SUBSETS:
        return None
    return tuple(found.group(2).split("."))


def _declared_members(bodies: ClassBodies, path: str, qual: str) -> frozenset[str] | None:
    """The names a class or interface declares (None: any name, an index signature)."""
    return bodies.read("ts", path, qual, lambda body: ts_declared_members(path, body))


def _declarations_beside(checker: Checker, path: str) -> str | None:
    """The indexed ``x.d.ts`` (``.d.mts``, ``.d.cts``) of a JavaScript file ``x.js``."""
    stem, dot, extension = path.rpartition(".")
    if not dot or extension not in ("js", "mjs", "cjs", "jsx"):
        return None
    kind = {"mjs": "mts", "cjs": "cts"}.get(extension, "ts")
    found = f"{stem}.d.{kind}"
    return found if found in checker.r.tables.facts else None


# ``@param {Type} name`` / ``@param name``; ``[name]`` or ``{Type=}`` marks it optional
_JSDOC_PARAM = re.compile(r"@param\s+(?:\{([^}]*)\}\s*)?(\[?)\s*([\w$]+)")


def javascript_omittable(callee: Definition) -> frozenset[str]:
    """What a call of a function defined in a JavaScript file may leave out: every parameter,
    as the compiler reads a .js file (nothing marks one optional there, so a call may pass
    fewer arguments than declared: hapi's ``this._reply()`` of ``_reply(exit)``), except one
    its JSDoc names with a type and no brackets (``@param {string} name``): a JSDoc-typed
    function is held to its declared parameters."""
    required = {
        name
        for typ, bracket, name in _JSDOC_PARAM.findall(callee.docstring or "")
        if typ and not bracket and not typ.rstrip().endswith("=")
    }
    return frozenset(p.name for p in callee.params if p.name not in required)


def _package_entry(checker: Checker, escaped: str) -> str | None:
    """The file (relative to the root, as ``escaped``) a directory's own ``package.json``
    names as its entry (``types``, ``main``, ``module``: clipanion's
    ``sources/platform/package.json`` with ``"main": "./node"``); None when it names none."""
    if checker.root is None:
        return None
    try:
        text = (checker.root / escaped / "package.json").read_text("utf-8")
        manifest = json.loads(text)
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict):
        return None
    for field in ("types", "typings", "main", "module"):
        entry = manifest.get(field)
        if isinstance(entry, str) and entry:
            return posixpath.normpath(posixpath.join(escaped, entry))
    return None


def _on_disk(checker: Checker, escaped: str) -> bool:
    """A specifier (relative to the root) that names a source file or directory there."""
    if checker.root is None:
        return False
    stem = re.sub(r"\.[cm]?[jt]sx?$", "", escaped)
    candidates = [escaped, *(stem + s for s in _SOURCE_SUFFIXES)]
    candidates += [f"{stem}/index{s}" for s in _SOURCE_SUFFIXES]
    return any((checker.root / c).is_file() for c in candidates)


def _declared(checker: Checker, path: str, name: str, seen: set[str]) -> bool:
    """The module's text exports a top-level definition ``name`` (or one of the modules it
    re-exports everything from does), whatever the resolver made of it (a named function
    expression beside the ``export const`` of the same name hides the export)."""
    if path in seen or path not in checker.r.tables.facts:
        return False
    seen.add(path)
    t = checker.r.tables[path]
    if any(d.name == name and not d.parent and d.exported for d in t.facts.definitions):
        return True
    if name == "default" and _EXPORT_DEFAULT.search(checker.bodies.file_text(path)):
        return True  # ``export default Object.assign(...)``: an expression, no definition
    return any(_declared(checker, p, name, seen) for p in TYPESCRIPT_RULES.star_sources(checker, t))


def _package_import(checker: Checker, change: ChangedFile, imp: Import) -> list[Finding]:
    """``import { x } from 'pkg'`` where pkg's declarations in node_modules lack x."""
    if imp.name in (None, "default", "*") or checker.root is None:
        return []
    exports = ts_package_exports(checker.root, change.path, imp.module)
    if exports is None or imp.name in exports:
        return []
    message = f"cannot import {imp.name} from {imp.module!r}: the package does not export it"
    return [checker.finding(change, imp.line, 1, "unknown-import", message, imp.name, exports)]


TYPESCRIPT_RULES = TypeScriptRules()
RULES = {"typescript": TYPESCRIPT_RULES, "javascript": JavaScriptRules()}


def _instantiation(
    checker: Checker,
    change: ChangedFile,
    ref: Reference,
    owner: tuple[str, Definition],
    owner_text: str,
) -> dict[str, str] | None:
    """The type arguments the call's receiver gives the callee's class ``owner`` (its file
    and definition), by type parameter, as written where the receiver is declared: the
    class's own parameters for ``this.m()`` in that class, what a field's, a parameter's
    or a local's declaration writes (``list: LinkedList<T>``, ``new Emitter<void>()``);
    None when that cannot be read."""
    path, cls = owner
    params = type_parameter_names(owner_text, cls.name)
    if not params:
        return None
    t = checker.r.tables[change.path]
    chain = ref.chain
    enclosing = t.enclosing_class(ref.scope)
    if len(chain) == 2 and chain[0] == "this":
        if (change.path, enclosing) == (path, cls.qualname):
            return {p: p for p in params}  # inside the class: its parameters as themselves
        return None
    declared = None
    source = change.text.encode("utf-8")
    if len(chain) == 3 and chain[0] == "this" and enclosing is not None:
        field = t.defs.get(f"{enclosing}.{chain[1]}")
        if field is not None:
            declared = source[field.start_byte : field.end_byte].decode("utf-8", "replace")
    elif len(chain) == 2:
        found = t.binding_scope(ref.scope, chain[0])
        lines = change.text.split("\n")
        bound = [b for b in found[1] if b.line <= ref.line] if found is not None else []
        if found is not None and bound and len(found[1]) == 1 and bound[0].line <= len(lines):
            declared = lines[bound[0].line - 1]
            function = t.defs.get(found[0])
            if function is not None and function.start_line == bound[0].line:
                text = source[function.start_byte : function.end_byte].decode("utf-8", "replace")
                declared = parameter_type(text, function.name, chain[0])
    if declared is None:
        return None
    arguments = written_type_arguments(declared, cls.name)
    return dict(zip(params, arguments, strict=False)) if arguments is not None else None
