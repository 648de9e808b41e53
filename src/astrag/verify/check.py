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

Nothing here knows a language: where the rules differ, the file's room answers through its
:class:`~astrag.verify.rules.LanguageRules` (``lang/<room>/check.py``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

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
from astrag.verify.attributes import Access, attribute_accesses
from astrag.verify.findings import Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.members import AttributeRule, ClassBodies, same_kind_mro, scope_at
from astrag.verify.narrowing import DISCRIMINANT, narrowed
from astrag.verify.rules import DEFAULT, Guard, LanguageRules, rules_for
from astrag.verify.syntax import syntax_errors

# decorators known to leave a function's call signature alone
_PLAIN_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "abstractmethod", "override", "typing.override",
     "abc.abstractmethod", "functools.cache", "cache", "lru_cache", "functools.lru_cache"}
)  # fmt: skip
# what a local taken from a collection is bound to (a callback's or a loop's element, an
# index, a map's ``get``): the steps from the collection's type to the element's
_ELEMENT_STEPS = frozenset({"[i]", "[k]", "get()"})
_MEMBER = re.compile(r"[A-Za-z_$][\w$]*")  # a plain member name in a chain: no call, no index
_UNBOUND_RULES = frozenset({"unknown-function", "undeclared-name", "unknown-type"})
_PROPERTY_ACCESSORS = frozenset({"setter", "getter", "deleter"})
# the index marks the second declaration of a name in one scope ``name#2`` (an overload, a
# class declared twice); a ``#`` before a name's first letter is an ECMAScript private
# member's own name (``Queue.#compact``), which is judged like any other
_TWIN = re.compile(r"#\d+")


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
        subclasses: Callable[[str, str], list[tuple[str, str]]] | None = None,
    ) -> None:
        self.r = resolver
        self.root = root  # where installed packages are looked up; None: not at all
        self.ambient = ambient  # globals the repository declares (TS script ``.d.ts`` files)
        # how many classes/interfaces of a name the repository declares (merging)
        self.declarations = declarations or (lambda name: 1)
        # the repository classes that extend a class directly, as the index knows them
        self.subclasses = subclasses or (lambda path, qual: [])
        self._guards: dict[tuple[str, str], list[Guard]] = {}
        self._trees: dict[tuple[str, str], Tree | None] = {}
        # base class (path, qual) -> the changed files' classes extending it, as resolved now
        self._changed_bases: dict[tuple[str, str], list[tuple[str, str]]] | None = None
        # texts: the changed files' new text; shared: what was read of the others, kept
        self.bodies = ClassBodies(resolver, texts or {}, root, shared)
        self.attributes = AttributeRule(
            resolver, self.bodies, self.closed_class, self.rules, self._declared_in_closure
        )

    def memo(self, room: str) -> dict:
        """Where a room keeps what it read of the project beyond the index (configuration
        files, installed packages) for the session: every check of it shares the dict."""
        return self.bodies.shared.setdefault(("memo", room, ""), {})

    def rules(self, t: FileTables) -> LanguageRules:
        return rules_for(t.sem.language) or DEFAULT

    def parsed(self, change: ChangedFile) -> Tree | None:
        """The changed file's parse, made once per text for the rules that read it."""
        key = (change.path, change.text)
        if key not in self._trees:
            self._trees = {key: _parse(change)}  # the file being checked: one at a time
        return self._trees[key]

    def guards(self, change: ChangedFile) -> list[Guard]:
        """The regions of a changed file whose failures its author handles (parsed once)."""
        key = (change.path, change.text)
        if key not in self._guards:
            rules = rules_for(self.r.tables[change.path].sem.language) or DEFAULT
            self._guards[key] = rules.guarded(change.text, self.parsed(change))
        return self._guards[key]

    def check(
        self, change: ChangedFile, facts: FileFacts, tree: Tree | None = None
    ) -> list[Finding]:
        """Findings on the wanted lines of ``change``; ``tree``: its parse when the caller
        made one already (the text is parsed here otherwise, once, only if a rule needs it)."""
        rules = rules_for(facts.language) or DEFAULT
        if rules.opted_out(change.text):
            return []
        if tree is not None:
            self._trees = {(change.path, change.text): tree}
        else:
            self._trees = {}  # parsed on the first rule that needs it, then shared
        wanted = change.lines
        silenced = rules.suppressed(change.text)
        if silenced:
            every = frozenset(range(1, change.text.count("\n") + 2))
            wanted = (every if wanted is None else wanted) - silenced
        out: list[Finding] = []
        spread = _SpreadImports(change)
        for imp in facts.imports:
            if wanted is None or imp.line in wanted or spread.wanted(imp, wanted, tree):
                out.extend(self._check_import(change, imp))
        for ref in facts.references:
            if wanted is None or ref.line in wanted:
                out.extend(self._check_reference(change, ref))
        if rules.judges_attributes:
            tree = self.parsed(change)  # the caller's tree, if it passed one
            for access in attribute_accesses(change.path, change.text, wanted, tree):
                if wanted is None or access.line in wanted:
                    out.extend(self._check_attribute(change, facts, access))
        if out:  # what the code's author expected to fail, and handles
            guards = self.guards(change)
            out = [f for f in out if not _handled(f, guards)]
        if facts.errors or rules.lax_grammar:
            tree = self.parsed(change)
            out = _with_syntax_errors(change, wanted, out, tree, rules)
        shifted = [_shift(f, change.line_offset) for f in out]
        return sorted(set(shifted), key=lambda f: (f.path, f.line, f.column, f.rule))

    # ------------------------------------------------------------------ imports

    def _check_import(self, change: ChangedFile, imp: Import) -> list[Finding]:
        t = self.r.tables[change.path]
        target = self.r.import_target(t, imp) if imp.name != "*" else ("star",)
        if target is not None and target[0] != "ext":
            return []
        return self.rules(t).import_findings(self, change, imp, target)

    def damaged_module(self, path: str, name: str | None, seen: set[str] | None = None) -> bool:
        """Whether the module, or one it re-exports everything from, has syntax errors that
        may have swallowed a definition of ``name`` (its text names it)."""
        seen = set() if seen is None else seen
        if path in seen or path not in self.r.tables.facts:
            return False
        seen.add(path)
        t = self.r.tables[path]
        # only a statement the parser could not read whole may hide a definition: a name
        # the file's clean statements mention (an import of it) is not lost there
        if t.facts.errors and (name is None or names(self.bodies.damaged_text(path), name)):
            return True
        return any(
            self.damaged_module(source, name, seen)
            for source in self.rules(t).star_sources(self, t)
        )

    def missing_import(
        self, change: ChangedFile, imp: Import, module: Value | None, what: str
    ) -> list[Finding]:
        """An import of ``what`` from a repository ``module`` that lacks the name (or, with
        ``module`` None, of a module the repository does not have)."""
        if module is not None and module[0] == "mod" and imp.name is not None:
            if self.damaged_module(module[1], imp.name):
                return []  # the parser lost part of that module: its names are not all known
            rules = self.rules(self.r.tables[module[1]])
            if imp.name in rules.module_members:
                return []  # every module has it (``from pkg import __doc__``)
            if rules.module_declares(self, module[1], imp.name, change.path):
                return []  # the module has it, in a way the resolver did not see
        candidates = self.r.member_names(module) if module and imp.name else set()
        name = imp.name or imp.module
        message = (
            f"cannot import {what}: no such module in the repository"
            if module is None
            else f"cannot import {what}: the module defines no such name"
        )
        return [self.finding(change, imp.line, 1, "unknown-import", message, name, candidates)]

    # ------------------------------------------------------------------ references

    def _check_reference(self, change: ChangedFile, ref: Reference) -> list[Finding]:
        t = self.r.tables[change.path]
        if len(ref.chain) == 2 and ref.chain[1] in ("[i]", "[k]") and ref.kind == RefKind.CALL:
            return self._element_call(change, ref)  # ``listeners[0](a, b)``
        if "?" in ref.chain or any("[i]" in part or "[k]" in part for part in ref.chain):
            return []
        site = Site(t, ref.scope, ref.line)
        if ref.chain[-1].endswith("()") or ref.chain[-1] in _PROPERTY_ACCESSORS:
            return []  # a call's result called; ``@width.setter`` on a property
        rules = self.rules(t)
        if ref.chain[0] in rules.receivers:
            found = rules.receiver_site(site, ref.chain[0])
            if found is None:
                return []  # a receiver's name used as an ordinary one: its value is not known
            if rules.receiver_rebound(self, change, site, ref.column):
                return []  # ``this`` in a function of its own inside the method
            site = found
        if rules.unknowable(self, site, ref.chain):
            return []
        denot, receiver = self.r.walk(site, ref.chain)
        # a package alone is no value (a bare name only a directory of sources matches)
        package = denot is not None and denot[0] == "ns" and len(ref.chain) == 1
        if denot is None or package or rules.implemented_only(self, denot, receiver):
            return self._unbacked(change, ref, site, receiver)
        if denot[0] == "ext" and ref.kind == RefKind.CALL:
            if len(ref.chain) == 1:
                return rules.external_name(self, change, ref, site, denot[1])
            return rules.external_call(self, change, ref, denot[1], receiver)
        if ref.kind in (RefKind.CALL, RefKind.NEW):
            return self._check_arguments(change, ref, denot, receiver)
        return []

    def _check_attribute(
        self, change: ChangedFile, facts: FileFacts, access: Access
    ) -> list[Finding]:
        site = Site(self.r.tables[change.path], scope_at(facts, access.byte), access.line)
        rules = self.rules(site.t)
        if access.chain[0] in rules.receivers:
            found = rules.receiver_site(site, access.chain[0])
            if found is None or rules.receiver_rebound(self, change, site, access.column):
                return []
            site = found
        if rules.unknowable(self, site, access.chain):
            return []
        missing = self.attributes.missing(site, access)
        if missing is None or self.is_narrowed(change, site, access.chain):
            return []
        if not self._declared_receiver(site, access.chain):
            return []
        owner, receiver = missing
        name = access.chain[-1]
        if self._subclass_may_have(site, access.chain, receiver, attribute=True):
            return []
        if rules.adds_member(change.text, receiver[2].rpartition(".")[2], name):
            return []
        verb = "declares no member" if access.write else "has no attribute"
        message = f"{owner} {verb} {name!r}"
        candidates = self.r.member_names(receiver)
        line, column = access.line, access.column
        return [self.finding(change, line, column, "unknown-member", message, name, candidates)]

    def _unbacked(
        self, change: ChangedFile, ref: Reference, site: Site, receiver: Value | None
    ) -> list[Finding]:
        name = ref.chain[-1]
        if len(ref.chain) == 1:
            return self._unbound_name(change, ref, site, name)
        if receiver is None or ref.kind not in (RefKind.CALL, RefKind.READ, RefKind.NEW):
            return []
        rules = self.rules(site.t)
        if receiver[0] == "mod":
            if ref.kind == RefKind.READ and not rules.judges_module_reads:
                return []
            module_rules = self.rules(self.r.tables[receiver[1]])
            if module_rules.module_may_have(self, receiver[1], name):
                return []
            if self.damaged_module(receiver[1], name):
                return []
            if name in module_rules.module_members:
                return []  # every module has it (``__file__``)
            if module_rules.module_declares(self, receiver[1], name, change.path):
                return []
            owner = receiver[1]
        elif receiver[0] in ("inst", "super") or (
            receiver[0] == "sym" and self.r.is_class(receiver)
        ):
            if ref.kind != RefKind.CALL or not self.closed_class(receiver):
                return []
            if name in rules.call_members or (name.startswith("__") and name.endswith("__")):
                return []  # every object has it (``toString``, ``__eq__``); a hook's name
            if self.is_narrowed(change, site, ref.chain) or self._redeclared(change, site, ref):
                return []
            if self._subclass_may_have(site, ref.chain, receiver):
                return []
            if rules.adds_member(change.text, receiver[2].rpartition(".")[2], name):
                return []  # the file gives the class the member from outside its body
            if self._body_has(receiver, name):
                return []  # its text has it (``self.x = f``, a name its ``__getattr__`` answers)
            interface = self.r.definition(receiver)
            inferred = not self._declared_receiver(site, ref.chain)
            if interface is not None and interface.kind == DefKind.INTERFACE and inferred:
                return []  # an inferred interface type may be the wrong one
            if inferred and self._kin_have(receiver, name):
                return []  # an inferred class may be the wrong one of its hierarchy
            owner = receiver[2]
        elif receiver[0] == "union" and ref.kind == RefKind.CALL:
            owner = self._union_lacking(change, site, ref.chain, receiver) or ""
            if not owner:
                return []
            return self._no_member(change, ref, owner, receiver[1][0])
        else:
            return []
        return self._no_member(change, ref, owner, receiver)

    def _union_lacking(
        self, change: ChangedFile, site: Site, chain: tuple[str, ...], receiver: Value
    ) -> str | None:
        """``m.ands()`` on ``m: Maybe<T>``, ``Maybe<T> = Just<T> | Nothing<T>``: the union's
        members written out (``A | B``), when every one is a repository class or interface
        whose members can all be seen (``closed_class``) and none has the member; None
        otherwise. The receiver's type must be written, not inferred, and not narrowed on the
        way (a discriminant test picks one member)."""
        name = chain[-1]
        members = receiver[1]
        if name.startswith("__") and name.endswith("__"):
            return None
        if name in self.rules(site.t).call_members:
            return None  # every object has it (``toString``)
        for member in members:
            if member[0] != "inst" or not self.closed_class(member, name):
                return None
            if self._closure_has(member, name):
                return None
        if not self._declared_receiver(site, chain) or self.is_narrowed(change, site, chain):
            return None
        return " | ".join(member[2] for member in members)

    def _closure_has(self, receiver: Value, name: str) -> bool:
        """Some class or interface ``receiver``'s type is made of (through the bases the
        language reads, ``Omit<Impl, 'value'>`` as ``Impl``) declares ``name``; for a class
        with a base outside the repository (a standard one, which ``closed_class`` found
        lacking it), what the resolver finds."""
        closure = self._closure(receiver)
        if closure is None:
            if self.r.class_member(receiver[1], receiver[2], name) is not None:
                return True
            closure = same_kind_mro(self.r, receiver)
        for path, qual in closure:
            t = self.r.tables[path]
            if name in t.children.get(qual, {}):
                return True
            if self.rules(t).body_declares(self.bodies, path, qual, name, False):
                return True
        return False

    def _kin_have(self, receiver: Value, name: str) -> bool:
        """Some repository class of ``receiver``'s hierarchy (a subclass of any class it is
        made of) declares ``name``: for a type the resolver inferred (yup's ``then: (schema)
        => schema.min(1)``, typed through a ``this`` type as the wrong subclass of
        ``Schema``), the member may well be there."""
        mro, _ = self.r.mro(receiver[1], receiver[2])
        for path, qual in mro:
            for sub_path, sub_qual in self._descendants(path, qual):
                if sub_path not in self.r.tables.facts:
                    return True  # the index moved on: cannot tell
                if name in self.r.tables[sub_path].children.get(sub_qual, {}):
                    return True
        return False

    def _declared_in_closure(self, receiver: Value, name: str, write: bool = False) -> bool:
        """A type ``receiver``'s type is made of, through the bases its language reads
        (``Omit<MarkedExtension, 'hooks'>`` as ``MarkedExtension``), declares ``name``: what
        the resolver, following the index's bases alone, did not find. For a write, as the
        room counts a declaration a write may hit (TypeScript: written in the type's text,
        not made by an assignment in a method)."""
        closure = self._closure(receiver)
        return closure is not None and any(
            name in self.r.tables[path].children.get(qual, {})
            and (
                not write
                or self.rules(self.r.tables[path]).body_declares(
                    self.bodies, path, qual, name, True
                )
            )
            for path, qual in closure
        )

    def _body_has(self, receiver: Value, name: str) -> bool:
        """The text of a class ``receiver``'s type is made of declares ``name`` beyond the
        definitions the resolver looked through (see ``LanguageRules.body_declares``)."""
        closure = self._closure(receiver) or same_kind_mro(self.r, receiver)
        return any(
            self.rules(self.r.tables[path]).body_declares(self.bodies, path, qual, name, False)
            for path, qual in closure
        )

    def _no_member(
        self, change: ChangedFile, ref: Reference, owner: str, receiver: Value
    ) -> list[Finding]:
        """The finding that ``owner`` (the receiver's type, as written) lacks the member the
        reference names, with the receiver's members to choose from."""
        name = ref.chain[-1]
        message = f"{owner} has no member {name!r}"
        candidates = self.r.member_names(receiver)
        return [
            self.finding(change, ref.line, ref.column, "unknown-member", message, name, candidates)
        ]

    def _unbound_name(
        self, change: ChangedFile, ref: Reference, site: Site, name: str
    ) -> list[Finding]:
        rules = self.rules(site.t)
        if name in rules.receivers:
            return []
        if not rules.judges_unbound_reads and ref.kind != RefKind.CALL:
            return []  # plain JS: too many globals come from the host to call a read unbound
        if rules.needs_no_declaration(self, site, name, ref, change.text):
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
        home = self._importable_from(site, name)
        candidates: Iterable[str] = ()
        if home is not None:  # the name is right; the import that would bind it is missing
            message = f"{message}; {home} defines it: import it from there"
        else:
            candidates = self.r.names_in_scope(site)
        found = self.finding(change, ref.line, ref.column, rule, message, name, candidates)
        why = rules.unverified_name(self, site, name, ref, change.text)
        if why is not None:  # something the index could not read may declare it
            message = f"{found.message}; unverified: {why}"
            found = replace(found, severity="warning", message=message)
        return [found]

    def _importable_from(self, site: Site, name: str) -> str | None:
        """A repository module the file already imports names from that defines ``name``
        (``from tenacity import wait_exponentail`` then ``wait_exponential(...)``): the
        close match the file binds is the misspelt import, not the fix, so the finding
        says where the name lives instead of suggesting it."""
        seen: set[tuple[str, int]] = set()
        for imp in site.t.imports.get("", {}).values():
            if imp.name is None or imp.name == "*" or (imp.module, imp.level) in seen:
                continue
            seen.add((imp.module, imp.level))
            target = self.r.import_target(site.t, replace(imp, name=name, alias=name))
            if target is not None and target[0] != "ext":
                return "." * imp.level + imp.module
        return None

    def _declared_receiver(self, site: Site, chain: tuple[str, ...], depth: int = 0) -> bool:
        """Whether the receiver's type is written in the code, not inferred: ``self``/``this``,
        a call (its declared return), or a name whose every binding in scope is annotated or
        is a read of members of such a receiver (``const storage = options.storage``, as
        declared as ``options.storage`` itself); a callback's parameter typed from the array
        it iterates is not (``xs.map(m => m.x)``)."""
        root = chain[0]
        if root in self.rules(site.t).receivers or root.endswith("()"):
            return True
        t, scope = site.t, site.scope
        while True:
            bound = t.bindings.get(scope, {}).get(root)
            if bound:
                return all(
                    b.type is not None
                    or (
                        depth < 3
                        and b.value is not None
                        and len(b.value) > 1
                        and b.value[0] != root
                        and all(_MEMBER.fullmatch(part) for part in b.value[1:])
                        and self._declared_receiver(Site(t, scope, b.line), b.value, depth + 1)
                    )
                    for b in bound
                )
            d = t.defs.get(scope) if scope else None
            if d is not None and d.kind in FUNCTION_KINDS and any(p.name == root for p in d.params):
                return all(p.annotation is not None for p in d.params if p.name == root)
            if not scope:
                break
            scope = d.parent if d is not None else ""
        top = t.defs.get(root)
        return top is None or top.kind in CLASS_KINDS or top.type is not None

    def _redeclared(self, change: ChangedFile, site: Site, ref: Reference) -> bool:
        """The receiver's name is declared with a type and declared again, without one, before
        the use (a loop's ``const node = elem.node`` in a method whose parameter is ``node:
        RuleSet``): the resolver keeps the first's type, but the use sees the second."""
        t, name = site.t, ref.chain[0]
        found = t.binding_scope(site.scope, name)
        if found is None:
            return False
        bound = found[1]
        typed = [b.line for b in bound if b.type is not None]
        lines = change.text.split("\n")
        return bool(typed) and any(
            b.type is None
            and min(typed) < b.line <= ref.line <= len(lines)
            and self.rules(t).declares(lines[b.line - 1], name)
            for b in bound
        )

    def _overridden_otherwise(self, site: Site, receiver: Value | None, callee: Definition) -> bool:
        """``x.m(a, b)`` where ``x`` may be an instance of a subclass, in a language that
        allows it, and some repository subclass overrides ``m`` with other parameters (Python
        lets an override change its signature: ``Pattern.handleMatch(m)``,
        ``InlineProcessor.handleMatch(m, data)``): which one runs is not known. An override
        that only widens what the method accepts (cachetools' ``cache(self, minsize,
        **kwargs)`` over ``cache(self, _minsize)``) leaves the base's signature the contract
        every call through it must keep."""
        if receiver is None or receiver[0] != "inst":
            return False
        if not self.rules(site.t).receiver_may_be_subclass:
            return False
        shape = [(p.kind, p.has_default) for p in callee.params]
        for path, qual in self._descendants(receiver[1], receiver[2]):
            if path not in self.r.tables.facts:
                return True  # the index moved on: cannot tell
            own = self.r.tables[path].defs.get(f"{qual}.{callee.name}")
            if own is None or [(p.kind, p.has_default) for p in own.params] == shape:
                continue
            if own.kind not in FUNCTION_KINDS or not _widens(callee.params, own.params):
                return True
        return False

    def _descendants(self, path: str, qual: str) -> Iterator[tuple[str, str]]:
        """Every repository subclass of the class, at any depth, once each (a caller that
        returns early stops the walk)."""
        seen: set[tuple[str, str]] = set()
        todo = [(path, qual)]
        while todo:
            base = todo.pop()
            for sub in [*self.subclasses(*base), *self._changed_subclasses(*base)]:
                if sub not in seen:
                    seen.add(sub)
                    yield sub
                    todo.append(sub)

    def _changed_subclasses(self, path: str, qual: str) -> list[tuple[str, str]]:
        """The classes of the changed files that extend ``path``'s class ``qual`` directly:
        the index knows a class by its old name only (cachetools' renamed ``CacheTestMixin``,
        whose subclasses the same change renames in their bases). Their bases are resolved
        once per check, on the first question: every subclass walk asks, base after base."""
        if self._changed_bases is None:
            self._changed_bases = {}
            for changed in self.bodies.changed:
                t = self.r.tables[changed] if changed in self.r.tables.facts else None
                for d in t.facts.definitions if t is not None else ():
                    if d.kind != DefKind.CLASS or not d.bases:
                        continue
                    site = Site(t, d.parent, d.start_line)
                    for chain in d.bases:
                        base, _ = self.r.walk(site, chain)
                        if base is not None and base[0] == "sym":
                            extends = self._changed_bases.setdefault((base[1], base[2]), [])
                            extends.append((changed, d.qualname))
        return self._changed_bases.get((path, qual), [])

    def _subclass_may_have(
        self, site: Site, chain: tuple[str, ...], receiver: Value, attribute: bool = False
    ) -> bool:
        """``self.x`` where the class lacks ``x`` but ``self`` may be an instance of a
        subclass that has it (a mixin, a base calling what its subclasses define), in a
        language that allows it: some repository subclass declares ``x``, or is not closed
        (a base outside the repository that may have it)."""
        rules = self.rules(site.t)
        if not rules.receiver_may_be_subclass or chain[0] not in rules.receivers:
            return False
        if len(chain) != 2:
            return False  # ``self.broker.emit()``: the receiver is a field of its own type
        name = chain[-1]
        for path, qual in self._descendants(receiver[1], receiver[2]):
            if path not in self.r.tables.facts or qual not in self.r.tables[path].defs:
                return True  # the index moved on: cannot tell
            member = self.r.class_member(path, qual, name)
            if member is not None and member[0] == "sym":
                return True  # declared there (or by another repository base of it)
            sub = ("sym" if receiver[0] == "sym" else "inst", path, qual)  # as the receiver
            if not self.closed_class(sub, name, attribute) and not self._hooks_only(
                sub, name, attribute
            ):
                return True  # a base outside the repository may have it
            if self.rules(self.r.tables[path]).body_declares(self.bodies, path, qual, name, False):
                return True
        return False

    def is_narrowed(self, change: ChangedFile, site: Site, chain: tuple[str, ...]) -> bool:
        """The receiver is tested or cast on the way to the use (``instanceof``, a guard),
        or the member's presence on it is (``getattr(x, "name", None)``)."""
        d = site.t.defs.get(site.scope)
        first = d.start_line if d is not None else 1
        rules = self.rules(site.t)
        receiver, tests = ".".join(chain[:-1]), rules.narrowing
        if receiver in rules.receivers:  # self/this: the class itself, never a union
            tests = tuple(t for t in tests if t != DISCRIMINANT)
        return narrowed(change.text, first, site.line, receiver, chain[-1], tests)

    # ------------------------------------------------------------------ closed classes

    def closed_class(
        self, receiver: Value, name: str | None = None, attribute: bool = False
    ) -> bool:
        """A class whose members can all be seen: the language decides which bases it may
        have (``LanguageRules.closed_class``); none of its classes may have lost code to a
        syntax error."""
        d = self._whole_class(receiver)
        if d is None:
            return False
        return self.rules(self.r.tables[receiver[1]]).closed_class(
            self, receiver, d, name, attribute
        )

    def _whole_class(self, receiver: Value) -> Definition | None:
        """The class's definition when its code and name are whole: a class or interface no
        syntax error cut into, the only one of its name in its scope."""
        d = self.r.definition(receiver)
        if d is None or d.kind not in (DefKind.CLASS, DefKind.INTERFACE):
            return None
        if any(self.bodies.damaged(p, q) for p, q in same_kind_mro(self.r, receiver)):
            return None  # the parser lost part of a class: its members are not all known
        t = self.r.tables[receiver[1]]
        if _declared_twice(t, receiver[2], self.rules(t).class_merges_interfaces):
            return None  # which of two classes of one name a type names depends on the site
        return d

    def _hooks_only(self, sub: Value, name: str, attribute: bool) -> bool:
        """A subclass not closed only because it (or a class between) answers any name
        through a hook (dramatiq's ``RedisBroker.__getattr__`` for ``do_*`` commands): the
        base's own members are still judged (``self.emit_after()`` in ``Broker``)."""
        d = self._whole_class(sub)
        return d is not None and self.rules(self.r.tables[sub[1]]).opened_by_hooks_only(
            self, sub, d, name, attribute
        )

    def missing_member(
        self, change: ChangedFile, ref: Reference, receiver: Value, inherited: frozenset[str]
    ) -> list[Finding]:
        """``x.name(...)`` on an instance (or the class) of a repository class whose members can
        all be seen (``closed_class``) and that lacks ``name``: the lookup stopped outside the
        repository, yet no base can have it. ``inherited`` are the members every class has
        (the language's root object's)."""
        name = ref.chain[-1]
        if receiver[0] not in ("inst", "super") and not self.r.is_class(receiver):
            return []
        if name in inherited or not self.closed_class(receiver, name):
            return []
        site = Site(self.r.tables[change.path], ref.scope, ref.line)
        if self.is_narrowed(change, site, ref.chain):
            return []
        if self._subclass_may_have(site, ref.chain, receiver):
            return []  # cachetools' ``self.expire()`` in ``_TimedCache``, its subclasses'
        return self._no_member(change, ref, receiver[2], receiver)

    def closed_by_bases(
        self,
        receiver: Value,
        d: Definition,
        accept: Callable[[str, str, Definition], bool] | None = None,
    ) -> bool:
        """Every type ``d`` extends, transitively, is in the repository, and each one (``d``
        too) is one ``accept`` takes (default: a class; an interface may be merged or carry
        members nobody declared)."""
        take = accept or (lambda path, qual, d: d.kind == DefKind.CLASS)
        return self._closure(receiver, take) is not None

    def _closure(
        self,
        receiver: Value,
        take: Callable[[str, str, Definition], bool] = lambda path, qual, d: True,
    ) -> list[tuple[str, str]] | None:
        """The repository classes and interfaces ``receiver``'s type extends, transitively,
        itself first, through the bases its language reads (``LanguageRules.bases``); None
        when one is outside the repository or one ``take`` refuses."""
        seen: list[tuple[str, str]] = []

        def closed(path: str, qual: str) -> bool:
            if (path, qual) in seen:
                return True
            seen.append((path, qual))
            t = self.r.tables[path]
            base_def = t.defs.get(qual)
            if base_def is None or base_def.kind not in (DefKind.CLASS, DefKind.INTERFACE):
                return False
            if not take(path, qual, base_def):
                return False
            site = Site(t, base_def.parent, base_def.start_line)
            for chain in self.rules(t).bases(self.bodies, path, qual, base_def):
                base, _ = self.r.walk(site, chain)
                if base is None or base[0] != "sym" or not closed(base[1], base[2]):
                    return False
            return True

        return seen if closed(receiver[1], receiver[2]) else None

    # ------------------------------------------------------------------ arguments

    def _check_arguments(
        self, change: ChangedFile, ref: Reference, denot: Value, receiver: Value | None
    ) -> list[Finding]:
        if denot[0] == "local" and len(ref.chain) == 1 and ref.kind == RefKind.CALL:
            return self._parameter_call(change, ref) if ref.arg_count >= 0 else []
        if denot[0] == "union" and receiver is not None and receiver[0] == "union":
            # ``r.map()`` on ``Result = Ok | Err``: each class's own method, counted when
            # they all take the same parameters (the count is then the same whichever runs)
            one = _one_signature(self.r, denot[1])
            return self._check_arguments(change, ref, one, receiver[1][0]) if one else []
        if ref.arg_count < 0 or denot[0] != "sym":
            return []
        site = Site(self.r.tables[change.path], ref.scope, ref.line)
        if len(ref.chain) == 1 and self._ambiguous(site, ref.chain[0]):
            return []
        if self._bound_later(site, denot):
            return []
        callee_rules = self.rules(self.r.tables[denot[1]])
        if callee_rules.overloaded:
            overloads = callee_rules.overloads(self, denot)
            return _overloaded_arguments(change, ref, denot, overloads) if overloads else []
        callee, bound = self._callable(denot, ref, receiver)
        if callee is None or any(d not in _PLAIN_DECORATORS for d in _decorators(callee)):
            return []
        if bound and self._overridden_otherwise(site, receiver, callee):
            return []
        params = callee.params[1:] if bound else callee.params
        kinds = {p.kind for p in params}
        findings = []
        if "var_keyword" not in kinds:
            findings.extend(self._unknown_keywords(change, ref, callee, params))
        # a TS function with overload signatures is called through them, never through its
        # implementation's own parameters (clipanion's Option.Boolean(descriptor) against an
        # implementation that takes two or three)
        signatures = [callee]
        if callee_rules.calls_bind_overload_signatures:
            signatures = _overload_signatures(self.r.tables[denot[1]], denot[2]) or signatures
        problems = [
            self._count_problem(change, ref, denot, callee_rules, signature, bound)
            for signature in signatures
        ]
        if all(problems):
            if len(problems) == 1:
                findings.extend(p for p in problems if p is not None)
            else:
                message = (
                    f"{callee.qualname}() has no overload taking {ref.arg_count} positional "
                    f"argument{'s' if ref.arg_count != 1 else ''}"
                )
                findings.append(
                    Finding(change.path, ref.line, ref.column, "wrong-arguments", message)
                )
        return findings

    def _count_problem(
        self,
        change: ChangedFile,
        ref: Reference,
        denot: Value,
        callee_rules: LanguageRules,
        callee: Definition,
        bound: bool,
    ) -> Finding | None:
        """A wrong-arguments finding when the call passes more positional arguments than
        ``callee`` has or fewer than it requires; None when the count fits."""
        params = callee.params[1:] if bound else callee.params
        # ``*args`` / ``...rest`` takes any number more, but not fewer than the positional
        # parameters before it require (``def repeat(job, *args)`` called as ``repeat()``)
        varargs = any(p.kind == "var_positional" for p in params)
        positional = [p for p in params if p.kind in ("positional", "positional_only")]
        given = ref.arg_count + sum(p.name in ref.keywords for p in positional[ref.arg_count :])
        required = sum(not p.has_default for p in positional)
        if given < required:  # what the language lets a call leave out, read only now
            omitted = callee_rules.omittable(self, denot[1], callee, change, ref)
            required = sum(not p.has_default and p.name not in omitted for p in positional)
        # ``**kwargs`` in the callee fills no required positional parameter (a call passing
        # ``**options`` has no count at all): glom's ``glom(target, spec, **kwargs)``
        too_few = given < required
        # an arrow bound to a typed field/variable may take fewer parameters than callers pass
        # (a variable's declared type is known; a field's is not recorded: any arrow field)
        typed_arrow = "arrow" in callee.modifiers and (
            callee.type is not None or callee.kind != DefKind.FUNCTION
        )
        too_many = ref.arg_count > len(positional) and not typed_arrow and not varargs
        if not (too_many or too_few):
            return None
        most = None if varargs else len(positional)
        takes = f"at least {required}" if most is None else _count(required, most)
        plural = "s" if (most if most is not None else required) != 1 else ""
        message = (
            f"{callee.qualname}() takes {takes} positional argument{plural}, {ref.arg_count} given"
        )
        return Finding(change.path, ref.line, ref.column, "wrong-arguments", message)

    def _parameter_call(self, change: ChangedFile, ref: Reference) -> list[Finding]:
        """A call of a local whose type is a function type (``listener(a, b, c)``): a parameter
        with the function type written out, or a local whose declared type names an alias of
        one, directly (``cb: Listener``) or as the element of a collection it is taken from
        (``listeners: Set<Listener>``; ``listeners.forEach((l) => l(a, b))``, ``for (const l
        of listeners)``, ``handlers.get(k)``), where the language can count the arguments."""
        t, name = self.r.tables[change.path], ref.chain[0]
        site = Site(t, ref.scope, ref.line)
        found = self._local_declaration(site, name)
        if found is None:
            return []
        d, _ = found
        arity = None
        if d is not None:  # a parameter of ``d``: its written type first
            source = change.text.encode("utf-8")[d.start_byte : d.end_byte]
            text = source.decode("utf-8", "replace")
            arity = self.rules(t).parameter_arity(text, d.name, name)
        if arity is None:
            arity = self._alias_arity(site, name, 0)
        if arity is None:
            return []
        return _arity_findings(change, ref, f"{name}()", arity)

    def _local_declaration(
        self, site: Site, name: str
    ) -> tuple[Definition | None, Param | None] | None:
        """Where the local ``name`` seen from ``site`` is declared: (the function, its
        parameter) for a parameter never assigned, (None, None) for a local bound by
        declarations only; None when a function of that name is declared on the way, the
        parameter is assigned, or the name is no local."""
        t, scope = site.t, site.scope
        while True:
            d = t.defs.get(scope) if scope else None
            bound = t.bindings.get(scope, {}).get(name, [])
            if t.children.get(scope, {}).get(name):
                return None  # a function of that name declared on the way
            params = [p for p in d.params if p.name == name] if d is not None else []
            if d is not None and d.kind in FUNCTION_KINDS and params:
                if len(bound) > 1:
                    return None  # the parameter is assigned too: which value is called is open
                return d, params[0]
            if bound:
                return None, None
            if d is None:
                return None
            scope = d.parent or ""

    def _local_type(self, site: Site, name: str, depth: int) -> tuple[str, ...] | None:
        """The declared type (a type chain) of local ``name``: its parameter's annotation, its
        declaration's type, or, for a local taken from a collection with no type of its own
        (a callback's or a loop's element, ``m.get(k)``, ``xs[i]``), the collection's element
        type. None when any visible declaration of it says otherwise or nothing is written."""
        if depth > 3:
            return None
        found = self._local_declaration(site, name)
        if found is None:
            return None
        _, param = found
        if param is not None:
            return param.annotation
        t = site.t
        found = t.binding_scope(site.scope, name)
        if found is None:
            return None
        scope, bound = found
        typed: set[tuple[str, ...] | None] = set()
        for b in bound:
            if b.block is not None and not b.block[0] <= site.line <= b.block[1]:
                continue
            if b.type is not None:
                typed.add(b.type)
            elif b.value is not None and len(b.value) == 2 and b.value[1] in _ELEMENT_STEPS:
                outer = self._local_type(Site(t, scope, b.line), b.value[0], depth + 1)
                typed.add(_element_type(outer, b.value[1]) if outer else None)
            else:
                return None
        return typed.pop() if len(typed) == 1 else None

    def _element_call(self, change: ChangedFile, ref: Reference) -> list[Finding]:
        """A call of an element of a local collection (``listeners[0](a, b)``, ``handlers[k](e)``)
        whose declared element type is a repository alias of a function type."""
        if ref.arg_count < 0:
            return []
        site = Site(self.r.tables[change.path], ref.scope, ref.line)
        outer = self._local_type(site, ref.chain[0], 0)
        element = _element_type(outer, ref.chain[1]) if outer else None
        arity = self._type_arity(site, element) if element else None
        if arity is None:
            return []
        return _arity_findings(change, ref, f"{ref.chain[0]}[...]()", arity)

    def _alias_arity(self, site: Site, name: str, depth: int) -> tuple[int, int | None] | None:
        """How many arguments a call of local ``name`` takes when its declared type is the name
        of a repository type alias of a function type (``type Listener = (s: S) => void``)."""
        return self._type_arity(site, self._local_type(site, name, depth))

    def _type_arity(
        self, site: Site, chain: tuple[str, ...] | None
    ) -> tuple[int, int | None] | None:
        """How many arguments a value of type ``chain`` takes when it names a repository type
        alias of a function type."""
        if chain is None or len(chain) != 1 or not chain[0].isidentifier():
            return None
        denot, _ = self.r.walk(site, chain)
        if denot is None or denot[0] != "sym":
            return None
        alias = self.r.definition(denot)
        if alias is None or alias.kind not in (DefKind.TYPE_ALIAS, DefKind.VARIABLE):
            return None  # a variable may be an alias (Python ``Listener = Callable[...]``)
        source = self.bodies.file_text(denot[1]).encode("utf-8")
        text = source[alias.start_byte : alias.end_byte].decode("utf-8", "replace")
        return self.rules(self.r.tables[denot[1]]).alias_arity(text, alias.name)

    def _ambiguous(self, site: Site, name: str) -> bool:
        """A bare name its scope binds more than once, a definition and an assignment or two
        definitions (a callback's own ``function _test`` beside another's): which one a call
        runs is not known."""
        t, scope = site.t, site.scope
        while True:
            child = t.children.get(scope, {}).get(name)
            bound = t.bindings.get(scope, {}).get(name)
            if child is not None:
                return bool(bound) or f"{child}#2" in t.defs
            if bound:
                return False
            if not scope:
                return False
            d = t.defs.get(scope)
            scope = d.parent if d is not None else ""

    def _bound_later(self, site: Site, denot: Value) -> bool:
        """A class body runs top to bottom: ``@classmethod`` above ``def classmethod`` is
        the builtin, not the method that line defines."""
        d = site.t.defs.get(site.scope)
        if d is None or d.kind not in CLASS_KINDS or not site.t.sem.class_body_is_scope:
            return False
        callee = self.r.definition(denot)
        return (
            callee is not None
            and denot[1] == site.t.path
            and callee.parent == site.scope
            and callee.start_line >= site.line
        )

    def _unknown_keywords(
        self, change: ChangedFile, ref: Reference, callee: Definition, params: Iterable[Param]
    ) -> list[Finding]:
        names = {p.name for p in params if p.kind != "positional_only"}
        return [
            self.finding(
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
        rules = self.rules(self.r.tables[denot[1]])
        if d.kind in CLASS_KINDS:
            if d.kind != DefKind.CLASS or not self.closed_class(denot):
                return None, False
            if not rules.signature_known(self, d):
                return None, False
            ctor = self.r.class_member(denot[1], denot[2], rules.constructor)
            ctor_def = self.r.definition(ctor) if ctor else None
            if ctor_def is None:
                return None, False
            return ctor_def, rules.self_parameter
        if d.kind not in FUNCTION_KINDS or "overload" in d.modifiers or _TWIN.search(denot[2]):
            return None, False
        if "getter" in d.modifiers:
            return None, False  # ``x.event(fn)`` calls what the getter returns, not the getter
        by_name = receiver is not None and receiver[0] == "sym"
        instance = d.kind == DefKind.METHOD and not {"static", "classmethod"} & set(d.modifiers)
        if by_name and instance and ref.chain[0] not in rules.receivers:
            # an instance method called through a name, not an instance: a namespace merged
            # with the interface or class of that name (``Observable.update``), whose member
            # the index mixed up with its own; Python's ``Class.method(obj)``
            return None, False
        if not rules.self_parameter:
            return d, False  # the receiver is no parameter
        if d.kind == DefKind.FUNCTION or "static" in d.modifiers:
            return d, False
        via_instance = receiver is not None and receiver[0] in ("inst", "super")
        via_self = ref.chain[0] in rules.receivers
        if "classmethod" in d.modifiers or via_instance or via_self:
            return d, True
        return None, False  # ``Class.method(obj, ...)``: leave the unbound call alone

    # ------------------------------------------------------------------ findings

    @staticmethod
    def finding(
        change: ChangedFile,
        line: int,
        column: int,
        rule: str,
        message: str,
        name: str,
        candidates: Iterable[str],
    ) -> Finding:
        """A finding with up to three close names from ``candidates`` as suggestions."""
        pool = sorted({c for c in candidates if c and c != name and not c.startswith("#")})
        suggestions = tuple(difflib.get_close_matches(name, pool, n=3, cutoff=0.6))
        if suggestions:
            message = f"{message} (did you mean {', '.join(suggestions)}?)"
        return Finding(change.path, line, column, rule, message, "error", suggestions)


class _SpreadImports:
    """An import statement over several lines (``import {\n  a,\n  b,\n} from './x'``)
    is recorded at its first line; a change that wrote only the line naming ``b`` wrote
    ``b``'s import. The statement's extent comes from the parse, made only when needed."""

    def __init__(self, change: ChangedFile) -> None:
        self.change = change
        self.lines = change.text.split("\n")
        self.tree: Tree | None = None

    def wanted(self, imp: Import, wanted: frozenset[int], tree: Tree | None) -> bool:
        name = imp.alias or imp.name
        first = self.lines[imp.line - 1] if 0 < imp.line <= len(self.lines) else ""
        if not name or names(first, name):
            return False  # named on its first line, which the change did not write
        if self.tree is None:
            self.tree = tree or _parse(self.change)
        if self.tree is None:
            return False
        indent = len(first.encode("utf-8")) - len(first.lstrip().encode("utf-8"))
        last = _statement_end(self.tree, imp.line - 1, indent) + 1
        return any(
            n in wanted and names(self.lines[n - 1], name)
            for n in range(imp.line + 1, min(last, len(self.lines)) + 1)
        )


def _statement_end(tree: Tree, row: int, column: int) -> int:
    """The last row of the outermost node that starts at (``row``, ``column``), where the
    statement on that row begins."""
    node = tree.root_node.named_descendant_for_point_range((row, column), (row, column))
    if node is None or node.start_point.row != row:
        return row
    while node.parent is not None and node.parent.parent is not None:
        if node.parent.start_point != node.start_point:
            break
        node = node.parent
    return node.end_point.row


def _overloaded_arguments(
    change: ChangedFile, ref: Reference, denot: Value, overloads: list[Definition]
) -> list[Finding]:
    """A call none of whose overloads takes as many arguments as it passes."""
    n = ref.arg_count
    counts = []
    for d in overloads:
        varargs = bool(d.params) and d.params[-1].kind == "var_positional"
        if n == len(d.params) or (varargs and n >= len(d.params) - 1):
            return []
        counts.append(f"{len(d.params) - 1} or more" if varargs else str(len(d.params)))
    takes = " or ".join(sorted(set(counts), key=lambda c: (len(c), c)))
    name = _TWIN.split(denot[2], 1)[0]
    message = f"{name}() takes {takes} argument(s), {n} given"
    return [Finding(change.path, ref.line, ref.column, "wrong-arguments", message)]


def _parse(change: ChangedFile) -> Tree | None:
    return parse_file(change.path, change.text.encode("utf-8"))


def _with_syntax_errors(
    change: ChangedFile,
    wanted: frozenset[int] | None,
    found: list[Finding],
    tree: Tree | None,
    rules: LanguageRules,
) -> list[Finding]:
    """``found`` plus the syntax errors on the wanted lines; other findings inside a damaged
    region are dropped: they describe the parser's recovery, not the code."""
    blame, accepts = rules.damage_begun_elsewhere, rules.parser_accepts
    lax = rules.lax_syntax if rules.lax_grammar else None
    spots, every = syntax_errors(
        change.path, change.text, change.old, wanted, tree, blame, accepts, lax
    )
    if not every:
        return found
    damaged = [(s.line, s.last_line) for s in every]
    lines = change.text.split("\n")
    hidden = "\n".join(
        "\n".join(lines[low - 1 : high]) for low, high in _statements_around(damaged, tree)
    )
    kept = [
        f
        for f in found
        if not any(low <= f.line <= high for low, high in damaged)
        # a damaged region may have swallowed the definition a name needs, but only one
        # whose text holds the name: a name it does not mention is unbound all the same
        and (f.rule not in _UNBOUND_RULES or _unmentioned(_name_at(lines, f), hidden))
    ]
    errors = [Finding(change.path, s.line, s.column, "syntax-error", s.message) for s in spots]
    return kept + errors


def _statements_around(damaged: list[tuple[int, int]], tree: Tree | None) -> list[tuple[int, int]]:
    """The damaged line ranges widened to the top-level statements they fall in: a declaration
    the grammar misreads from its second line on (``export interface F extends A {`` over a
    generic call signature) names itself on its first."""
    wide = list(damaged)
    for node in tree.root_node.children if tree is not None else ():
        first, last = node.start_point.row + 1, node.end_point.row + 1
        if any(first <= high and low <= last for low, high in damaged):
            wide.append((first, last))
    return wide


def _unmentioned(name: str | None, text: str) -> bool:
    return name is not None and not names(text, name)


def _name_at(lines: list[str], f: Finding) -> str | None:
    """The identifier a finding points at (its line and 1-based column)."""
    if not 0 < f.line <= len(lines):
        return None
    match = re.match(r"[\w$]+", lines[f.line - 1][max(f.column - 1, 0) :])
    return match.group(0) if match else None


def _handled(f: Finding, guards: list[Guard]) -> bool:
    return any(g.covers(f.line) and f.rule in g.rules for g in guards)


def names(text: str, name: str) -> bool:
    """Whether ``text`` mentions ``name`` as a whole word."""
    return re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text) is not None


def _decorators(d: Definition) -> Iterable[str]:
    return (dec.split("(", 1)[0].strip() for dec in d.decorators)


def _count(required: int, total: int) -> str:
    return str(total) if required == total else f"{required} to {total}"


def _shift(f: Finding, offset: int) -> Finding:
    if not offset:
        return f
    return Finding(f.path, f.line - offset, f.column, f.rule, f.message, f.severity, f.suggestions)


def _overload_signatures(t: FileTables, qual: str) -> list[Definition]:
    """The overload signatures declared beside the implementation ``qual`` (TS: body-less
    declarations of its name, kept as ``qual#2``, ``qual#3``…): what a call is checked
    against instead of the implementation's own parameters. Empty when there are none."""
    return [d for _, d in t.others(qual) if "overload" in d.modifiers]


def _arity_findings(
    change: ChangedFile, ref: Reference, callee: str, arity: tuple[int, int | None]
) -> list[Finding]:
    """A wrong-arguments finding when the call ``ref`` of a value typed by a function type
    (``callee`` as the message names it) passes a count outside ``arity``."""
    required, most = arity
    # a keyword passes a parameter as a positional one would (``main(args=a, env=e)`` on a
    # ``Callable[[A, E], R]``: a type checker objects, the call runs)
    given = ref.arg_count + len(ref.keywords)
    if required <= given and (most is None or given <= most):
        return []
    takes = f"at least {required}" if most is None else _count(required, most)
    plural = "s" if (most if most is not None else required) != 1 else ""
    message = f"{callee} takes {takes} positional argument{plural}, {given} given"
    return [Finding(change.path, ref.line, ref.column, "wrong-arguments", message)]


def _one_signature(r: Resolver, members: tuple[Value, ...]) -> Value | None:
    """The first of a union's member functions when every one is a plain repository method
    or function with parameters of the same kinds and defaults; None otherwise."""
    shapes = set()
    for member in members:
        d = r.definition(member) if member[0] == "sym" else None
        if d is None or d.kind not in FUNCTION_KINDS or d.decorators or "overload" in d.modifiers:
            return None
        if _TWIN.search(member[2]) or _overload_signatures(r.tables[member[1]], member[2]):
            return None
        shapes.add(tuple((p.kind, p.has_default) for p in d.params))
    return members[0] if len(shapes) == 1 else None


def _declared_twice(t: FileTables, qual: str, merges: bool = False) -> bool:
    """Whether the scope that declares the class ``qual`` declares another class of its name
    (test callbacks each with their own ``class Bar``): the index keeps the second as
    ``Bar#2``, and a type written ``Bar`` resolves to the first wherever it is read. A
    variable that rebinds the name (``Converter = _add_hash(Converter)``) is not another
    class; with ``merges`` (TypeScript), neither is an interface merged into the one class of
    its name (yup's ``class Schema`` and ``interface Schema``: one type, whose members the
    room's ``open_class_body`` weighs)."""
    prefix, _, last = qual.rpartition(".")
    stem = last.split("#", 1)[0]
    twin = f"{prefix}.{stem}" if prefix else stem
    first = t.defs.get(twin)
    if first is None:
        return False
    classes = [first, *(d for _, d in t.others(twin))]
    kinds = [d.kind for d in classes if d.kind in CLASS_KINDS]
    if merges and kinds.count(DefKind.CLASS) == 1:
        return any(k not in (DefKind.CLASS, DefKind.INTERFACE) for k in kinds)
    return len(kinds) > 1


def _element_type(collection: tuple[str, ...], step: str) -> tuple[str, ...] | None:
    """The element type of a collection type chain taken by ``step``: a sequence's or a
    set's (``X[]``, ``Set<X>``) by iteration or index, a map's value (``Map<K, X>``,
    ``Record<K, X>``) by index or ``get``; iterating a map gives pairs, so no element."""
    if collection[-1:] == ("[]",) and step in ("[i]", "[k]"):
        return collection[:-1]
    if collection[-1:] == ("{}",) and step in ("[k]", "get()"):
        return collection[:-1]
    return None


def _widens(base: Sequence[Param], own: Sequence[Param]) -> bool:
    """Every call ``base``'s parameters accept, ``own``'s accept too: the override takes at
    least the base's positions, leaves optional what a call may leave out, takes the base's
    keyword-only parameters by name and requires none of its own; it may add optional
    parameters, ``*args`` and ``**kwargs`` (a positional parameter renamed is not checked: a
    call naming it fits the base, and only calls the base rejects are findings)."""
    kinds = {p.kind for p in own}
    for variadic in ("var_positional", "var_keyword"):
        if any(p.kind == variadic for p in base) and variadic not in kinds:
            return False
    positional = ("positional", "positional_only")
    base_positions = [p for p in base if p.kind in positional]
    own_positions = [p for p in own if p.kind in positional]
    if len(own_positions) < len(base_positions) and "var_positional" not in kinds:
        return False
    required = sum(not p.has_default for p in base_positions)
    if any(not p.has_default for p in own_positions[required:]):
        return False
    by_name = {p.name for p in own if p.kind in ("positional", "keyword_only")}
    base_keywords = {p.name: p for p in base if p.kind == "keyword_only"}
    if any(name not in by_name for name in base_keywords) and "var_keyword" not in kinds:
        return False
    return all(
        p.has_default or (p.name in base_keywords and not base_keywords[p.name].has_default)
        for p in own
        if p.kind == "keyword_only"
    )
