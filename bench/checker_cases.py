"""Cases for the ``astrag check`` benchmark: realistic hallucinations injected into real code.

A *positive* case is a unified diff that changes one line of a corpus file so that it refers to
something the repository does not have (a renamed method, a renamed helper, an import of a name
the module lacks, one argument too many or too few, a keyword the callee does not take), with
the (rule, line) a checker should report. A *negative* case is code that is right: a whole
unmodified file checked as a snippet (findings inside one function's lines are false
positives), or a behaviour-preserving refactoring diff (every finding is a false positive).

Mutations are only made where the index says the original is backed by the repository (the
call site resolves to an in-repo function/method; the receiver's class has only in-repo or
member-less bases), and the new name is checked against every symbol name in the repository,
so a positive is never accidentally right. Everything is deterministic: sorted files, one
seeded ``random.Random``.
"""

from __future__ import annotations

import builtins
import dataclasses
import difflib
import itertools
import keyword
import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath

from tree_sitter import Node, Tree

from astrag.graph.facts import Definition, FileFacts, Reference, RefKind, Symbol
from astrag.lang import extract_facts, grammar_of, language_of, parser

# Bases that add no members an LLM would invent a near-miss of; a class whose every base is
# in the repository or one of these is "closed": a missing member is a real error.
MEMBERLESS_BASES = frozenset(
    {
        "external::object",
        "external::builtins.object",
        "external::abc.ABC",
        "external::typing.Generic",
        "external::typing.Protocol",
        "external::typing_extensions.Protocol",
        "external::java.lang.Object",
        "external::java.io.Serializable",
        "external::java.lang.Cloneable",
    }
)
# Members every object has, which a rename must not land on.
OBJECT_MEMBERS = frozenset(dir(object)) | {
    "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "constructor", "call",
    "apply", "bind", "then", "catch", "finally", "length", "name",
}  # fmt: skip
JS_GLOBALS = frozenset(
    "console Object Array Promise JSON Math Date Error Map Set WeakMap Symbol String Number "
    "Boolean RegExp require module exports process setTimeout clearTimeout setInterval "
    "parseInt parseFloat isNaN undefined globalThis Buffer Reflect Proxy".split()
)
PY_BUILTINS = frozenset(dir(builtins))

# Synonym groups for verb swaps: an LLM reaches for a sibling verb of the real one.
VERB_GROUPS: tuple[tuple[str, ...], ...] = (
    ("get", "fetch", "load", "find", "retrieve", "read"),
    ("create", "make", "build", "generate"),
    ("update", "set", "modify"),
    ("remove", "delete", "drop", "clear"),
    ("add", "append", "insert", "push", "register"),
    ("render", "draw", "display"),
    ("parse", "decode", "load"),
    ("write", "save", "store"),
    ("check", "validate", "verify"),
    ("handle", "process"),
    ("is", "has"),
    ("to", "as"),
)
VERBS = frozenset(v for group in VERB_GROUPS for v in group)
PLAUSIBLE_SUFFIXES = ("all", "item", "value", "data", "async", "sync", "safe")
CLASS_SUFFIXES = ("Style", "Options", "Config", "Type", "Base", "Factory", "Manager", "Info")

Expected = tuple[str, int]  # (rule, line in the new file)


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    lang: str  # python | typescript | java
    category: str  # a rule id for positives; "negative-snippet" / "negative-refactor"
    variant: str  # how it was made: "self", "this-field", "verb", "drop", "rename-local", ...
    path: str  # the file the case is about, repository-relative
    text: str  # a unified diff (diff=True) or a whole file (diff=False)
    diff: bool
    expected: Expected | None = None  # None: a negative, every finding is a false positive
    lines: tuple[int, int] | None = None  # snippets: only findings in this range count
    note: str = ""  # what was changed, for the examples listing
    # further lines of ``path`` where a finding of the expected rule is right too (the other
    # uses an incomplete refactor left behind): neither caught nor false
    also: tuple[int, ...] = ()
    # (path, line) in other files that the change leaves broken too (an incomplete rename's
    # uses through a module attribute): a finding there is neither caught nor false
    elsewhere: tuple[tuple[str, int], ...] = ()

    @property
    def positive(self) -> bool:
        return self.expected is not None


# ---------------------------------------------------------------------------- the corpus


@dataclass
class SourceFile:
    path: str
    text: str

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines(keepends=True)

    @cached_property
    def facts(self) -> FileFacts:
        return extract_facts(self.path, self.text.encode("utf-8"))

    @cached_property
    def tree(self) -> Tree:
        grammar_name = grammar_of(self.path)
        assert grammar_name is not None
        return parser(grammar_name).parse(self.text.encode("utf-8"))

    @cached_property
    def names(self) -> frozenset[str]:
        """Every name the file binds anywhere (definitions, imports, locals): a new name must
        avoid them all or it could be right by accident."""
        facts = self.facts
        return frozenset(
            [d.name for d in facts.definitions]
            + [i.alias for i in facts.imports]
            + [b.name for b in facts.bindings]
        )

    @cached_property
    def definitions(self) -> dict[str, list[Definition]]:
        by_qualname: dict[str, list[Definition]] = defaultdict(list)
        for definition in self.facts.definitions:
            by_qualname[definition.qualname].append(definition)
        return by_qualname

    def node_at(self, line: int, column: int) -> Node:
        """The smallest node at a 1-based (line, character column)."""
        prefix = self.lines[line - 1][: column - 1]
        point = (line - 1, len(prefix.encode("utf-8")))
        node = self.tree.root_node.descendant_for_point_range(point, point)
        assert node is not None
        return node

    def node_text(self, node: Node) -> str:
        return self.text.encode("utf-8")[node.start_byte : node.end_byte].decode("utf-8")


@dataclass
class Corpus:
    """A repository's files plus what its index says about them."""

    root: Path
    lang: str
    paths: list[str]  # sorted, the corpus language only
    symbols: dict[str, Symbol]
    calls: dict[tuple[str, int, int], list[str]]  # call site -> in-repo target ids
    imports: dict[tuple[str, int], list[str]]  # import line -> target ids
    bases: dict[str, list[str]]  # class id -> base ids (inherits edges)
    names: frozenset[str]  # every symbol name in the repository
    _files: dict[str, SourceFile] = field(default_factory=dict)

    def restricted(self, paths: list[str]) -> Corpus:
        """The same corpus with generators limited to ``paths`` (caches shared)."""
        copy = dataclasses.replace(self, paths=paths)
        copy.__dict__["closed_classes"] = self.closed_classes
        return copy

    def file(self, path: str) -> SourceFile:
        if path not in self._files:
            text = (self.root / path).read_text("utf-8")
            self._files[path] = SourceFile(path, text)
        return self._files[path]

    def files(self) -> Iterator[SourceFile]:
        for path in self.paths:
            yield self.file(path)

    @cached_property
    def closed_classes(self) -> frozenset[str]:
        memo: dict[str, bool] = {}

        def closed(class_id: str, depth: int = 0) -> bool:
            if class_id not in memo:
                memo[class_id] = False  # cycles are not closed
                symbol = self.symbols.get(class_id)
                memo[class_id] = (
                    symbol is not None
                    and bool(symbol.path)  # a placeholder: its members are unknown
                    and depth < 30
                    and not self._has_dynamic_members(class_id)
                    and all(
                        b in MEMBERLESS_BASES or closed(b, depth + 1)
                        for b in self.bases.get(class_id, [])
                    )
                )
            return memo[class_id]

        return frozenset(
            s.id for s in self.symbols.values() if s.kind in ("class", "interface") and closed(s.id)
        )

    def _has_dynamic_members(self, class_id: str) -> bool:
        dynamic = ("__getattr__", "__getattribute__")
        return any(f"{class_id}.{name}" in self.symbols for name in dynamic)

    def is_free(self, name: str, sf: SourceFile) -> bool:
        """True when ``name`` is defined nowhere: not in the repository, the file, builtins."""
        return not (
            name in self.names
            or name in sf.names
            or name in OBJECT_MEMBERS
            or name in (PY_BUILTINS if self.lang == "python" else JS_GLOBALS)
        )

    def definition_of(self, symbol_id: str) -> Definition | None:
        """The one definition behind a symbol; None when there are several (overloads,
        conditional definitions), whose signature is not one thing."""
        symbol = self.symbols.get(symbol_id)
        if symbol is None or not symbol.path:
            return None
        found = self.file(symbol.path).definitions.get(symbol.qualname, [])
        return found[0] if len(found) == 1 else None


class StaleIndex(RuntimeError):
    """The index does not reflect the files on disk."""


def load_corpus(root: Path, lang: str, *, refresh: bool = False) -> Corpus:
    """Read the index of ``root`` (run ``astrag index`` first). ``lang``: python | typescript
    | java.

    The mutations are drawn from the index's symbols and call edges, so an index that does
    not match the files gives other cases for the same seed: a ``check --changed`` run on a
    mutated tree re-indexes it, and once the tree is restored the index still holds the
    mutated names. A stale index is refused, or brought up to date with ``refresh``."""
    from astrag import api

    idx, status = api.open_fresh(root, refresh=refresh)
    with idx:
        if not status.fresh:
            shown = ", ".join(status.stale[:3])
            raise StaleIndex(f"the index of {root} is stale ({shown}): run astrag index")
        symbols, edges = idx.graph()
    by_id = {s.id: s for s in symbols}
    calls: dict[tuple[str, int, int], list[str]] = defaultdict(list)
    imports: dict[tuple[str, int], list[str]] = defaultdict(list)
    bases: dict[str, list[str]] = defaultdict(list)
    for edge in edges:
        if edge.kind == "calls" and by_id.get(edge.target) and by_id[edge.target].path:
            calls[(edge.path, edge.line, edge.column)].append(edge.target)
        elif edge.kind == "imports":
            imports[(edge.path, edge.line)].append(edge.target)
        elif edge.kind == "inherits" or (edge.kind == "implements" and lang == "java"):
            # a Java interface brings members (default methods, constants); a TS one none
            bases[edge.source].append(edge.target)
    paths = sorted(s.path for s in symbols if s.kind == "module" and language_of(s.path) == lang)
    names = frozenset(s.name for s in symbols if s.path)
    return Corpus(root, lang, paths, by_id, dict(calls), dict(imports), dict(bases), names)


# ---------------------------------------------------------------------------- names


def split_words(name: str) -> tuple[str, list[str], str]:
    """``_get_user_by_id`` -> ("_", ["get", "user", "by", "id"], "snake");
    ``getUserById`` -> ("", ["get", "User", "By", "Id"], "camel")."""
    stripped = name.lstrip("_")
    prefix = name[: len(name) - len(stripped)]
    if "_" in stripped:
        return prefix, [w for w in stripped.split("_") if w], "snake"
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[A-Z]", stripped)
    return prefix, words or [stripped], "camel"


def join_words(prefix: str, words: list[str], style: str) -> str:
    if style == "snake":
        return prefix + "_".join(w.lower() for w in words)
    first, *rest = words
    return prefix + first + "".join(w[:1].upper() + w[1:] for w in rest)


def _recase(template: str, word: str) -> str:
    """``word`` in the case of ``template`` (Get/get/GET)."""
    if template.isupper() and len(template) > 1:
        return word.upper()
    return word.capitalize() if template[:1].isupper() else word


def plausible_renames(name: str) -> list[str]:
    """Near-misses an LLM writes for ``name``: a sibling verb, singular/plural, the other
    case convention, then a common suffix. Deterministic order, without ``name`` itself."""
    if not name or name.startswith("__") or not name.replace("_", "").isalnum():
        return []
    prefix, words, style = split_words(name)
    out: list[str] = []
    head = words[0].lower()
    for group in VERB_GROUPS:
        if head in group:
            out += [join_words(prefix, [_recase(words[0], v), *words[1:]], style) for v in group]
    # UsersService -> UserService, get_item -> get_items; never a verb or an acronym
    positions = {0, len(words) - 1} if name[:1].isupper() else {len(words) - 1}
    for i in sorted(positions):
        word = words[i]
        if word.lower() not in VERBS and not (word.isupper() and len(word) > 1):
            toggled = [*words[:i], _toggle_plural(word), *words[i + 1 :]]
            out.append(join_words(prefix, toggled, style))
    if len(words) > 1 and not name[:1].isupper():  # a class name is never snake_case
        out.append(join_words(prefix, words, "camel" if style == "snake" else "snake"))
    out += suffixed_renames(name)
    return [n for n in dict.fromkeys(out) if n != name]


def _toggle_plural(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word + "s"


def suffixed_renames(name: str) -> list[str]:
    """``Text`` -> ``TextStyle``, ``render`` -> ``render_all``: the weaker kind of near-miss."""
    prefix, words, style = split_words(name)
    if name[:1].isupper():
        return [name + s for s in CLASS_SUFFIXES]
    cased = [s.capitalize() if style == "camel" else s for s in PLAUSIBLE_SUFFIXES]
    return [join_words(prefix, [*words, suffix], style) for suffix in cased]


# words no identifier may be (``raises`` -> ``raise`` made the renamed code unparseable: the
# checker's syntax errors were then counted as false alarms)
RESERVED_WORDS = frozenset(keyword.kwlist) | frozenset(
    "break case catch class const continue debugger default delete do else enum export extends "
    "false finally for function if import in instanceof new null return super switch this "
    "throw true try typeof var void while with let static yield await implements interface "
    "package private protected public abstract assert boolean byte char double final float "
    "goto int long native short synchronized throws transient volatile".split()
)


def pick_new_name(name: str, corpus: Corpus, sf: SourceFile, rng: random.Random) -> str | None:
    """A free near-miss of ``name``, preferring verb swaps and plural/case confusions over
    invented suffixes."""
    options = [
        n for n in plausible_renames(name) if n not in RESERVED_WORDS and corpus.is_free(n, sf)
    ]
    weak = set(suffixed_renames(name))
    strong = [n for n in options if n not in weak]
    return rng.choice(strong or options) if options else None


# ---------------------------------------------------------------------------- diffs and edits


def make_diff(path: str, old: list[str], new: list[str]) -> str:
    return "".join(difflib.unified_diff(old, new, f"a/{path}", f"b/{path}", n=3))


def replace_span(line: str, start: int, end: int, text: str) -> str:
    """``line`` with characters [start, end) (0-based) replaced."""
    return line[:start] + text + line[end:]


def char_col(sf: SourceFile, row: int, byte_col: int) -> int:
    """0-based character column of a tree-sitter (row, byte column)."""
    return len(sf.lines[row].encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


@dataclass(frozen=True, slots=True)
class Edit:
    """One mutation of one file: replace line ``line`` (1-based) by ``new`` lines."""

    path: str
    line: int
    new: tuple[str, ...]
    expected_line: int  # where the finding belongs in the new file
    scope: str  # the function it sits in ("" at module level)
    note: str

    def apply(self, lines: list[str]) -> list[str]:
        return lines[: self.line - 1] + list(self.new) + lines[self.line :]


def apply_edits(lines: list[str], edits: Iterable[Edit]) -> list[str]:
    """Apply edits to distinct lines, bottom-up so earlier line numbers stay valid."""
    out = list(lines)
    for edit in sorted(edits, key=lambda e: e.line, reverse=True):
        out = edit.apply(out)
    return out


def call_node(sf: SourceFile, ref: Reference) -> Node | None:
    """The call expression whose callee name token is at the reference's position."""
    node: Node | None = sf.node_at(ref.line, ref.column)
    name_end = node.end_byte if node else -1
    while node is not None:
        if node.type in CALL_TYPES:
            # Java's ``a.b(x)`` names its callee ``name``; the others, ``function``
            callee = node.child_by_field_name("function") or node.child_by_field_name("name")
            return node if callee is not None and callee.end_byte == name_end else None
        node = node.parent
    return None


def ends_with_newline(sf: SourceFile) -> bool:
    return sf.text.endswith("\n")


# ---------------------------------------------------------------------------- positives

SELF_ROOTS = ("self", "cls", "this")


def _call_refs(sf: SourceFile) -> Iterator[Reference]:
    for ref in sf.facts.references:
        if ref.kind == RefKind.CALL and ref.scope:
            yield ref


def _single_target(corpus: Corpus, sf: SourceFile, ref: Reference) -> Symbol | None:
    targets = corpus.calls.get((sf.path, ref.line, ref.column), [])
    return corpus.symbols[targets[0]] if len(set(targets)) == 1 else None


def _rename_edit(
    corpus: Corpus, sf: SourceFile, ref: Reference, rng: random.Random, what: str
) -> Edit | None:
    name = ref.chain[-1]
    line = sf.lines[ref.line - 1]
    start = ref.column - 1
    if line[start : start + len(name)] != name:
        return None  # the position is not the name token as written: skip, don't guess
    new_name = pick_new_name(name, corpus, sf, rng)
    if new_name is None:
        return None
    new_line = replace_span(line, start, start + len(name), new_name)
    note = f"{what} {'.'.join(ref.chain)} -> {new_name}"
    return Edit(sf.path, ref.line, (new_line,), ref.line, ref.scope, note)


def _member_variant(corpus: Corpus, sf: SourceFile, ref: Reference, target: Symbol) -> str:
    """How the receiver's type is known, or "" when a missing member would not be an error
    the checker can prove (open class hierarchy, dynamic members)."""
    root = ref.chain[0]
    if target.kind == "function":
        modules = [i for i in sf.facts.imports if i.alias == root and i.name in (None, "*")]
        if any(_answers_any_name(corpus, sf, i.line) for i in modules):
            return ""  # PEP 562 ``__getattr__``: a missing name is no provable error
        return "module" if modules and len(ref.chain) == 2 else ""
    if target.kind != "method" or target.parent not in corpus.closed_classes:
        return ""
    if root in SELF_ROOTS:
        return "self" if len(ref.chain) == 2 else f"{root}-field"
    return "" if root.startswith("super") or root == "?" else "typed"


def _answers_any_name(corpus: Corpus, sf: SourceFile, line: int) -> bool:
    """The module an import line of ``sf`` binds defines ``__getattr__`` at its top level."""
    for target in corpus.imports.get((sf.path, line), []):
        symbol = corpus.symbols.get(target)
        if symbol is not None and f"{symbol.path}::__getattr__" in corpus.symbols:
            return True
    return False


def member_edits(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, Edit]]:
    """``self.get_x()`` -> ``self.fetch_x()``: a call on a receiver of known, closed type."""
    for sf in corpus.files():
        for ref in _call_refs(sf):
            target = _single_target(corpus, sf, ref) if len(ref.chain) >= 2 else None
            variant = _member_variant(corpus, sf, ref, target) if target else ""
            if variant:
                edit = _rename_edit(corpus, sf, ref, rng, "member")
                if edit:
                    yield variant, edit


def function_edits(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, Edit]]:
    """``get_console()`` -> ``fetch_console()``: a bare call of a module-level repository
    function, imported ("imported") or defined in the same file ("local-helper"); in Java,
    of a method of the classes around the call, all closed ("own-method")."""
    for sf in corpus.files():
        for ref in _call_refs(sf):
            target = _single_target(corpus, sf, ref) if len(ref.chain) == 1 else None
            if target is not None and corpus.lang == "java" and target.kind == "method":
                if _around_closed(corpus, sf, ref.scope, target):
                    edit = _rename_edit(corpus, sf, ref, rng, "method")
                    if edit:
                        yield "own-method", edit
                continue
            if target is None or target.kind != "function":
                continue
            parent = corpus.symbols.get(target.parent)
            if parent is None or parent.kind != "module":
                continue
            edit = _rename_edit(corpus, sf, ref, rng, "function")
            if edit:
                yield ("local-helper" if target.path == sf.path else "imported"), edit


def _around_closed(corpus: Corpus, sf: SourceFile, scope: str, target: Symbol) -> bool:
    """Java: the method is a member of a class around ``scope`` (or of its bases), and
    every class around ``scope`` is closed, so a bare name none of them has is unbound."""
    classes = [
        f"{sf.path}::{q}"
        for q, found in sf.definitions.items()
        if scope == q or scope.startswith(q + ".")
        if any(d.kind in ("class", "enum", "interface") for d in found)
    ]
    return (
        bool(classes)
        and all(c in corpus.closed_classes for c in classes)
        and target.parent in corpus.closed_classes
        and not _overloaded(corpus, target)
    )


def _overloaded(corpus: Corpus, target: Symbol) -> bool:
    """Java: another method of the same name in the class (``m``, ``m#2``)."""
    base = target.id.split("#", 1)[0]
    return base != target.id or f"{base}#2" in corpus.symbols


IMPORT_NODE_TYPES = (
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "import_declaration",  # Java
)


def after_imports_line(sf: SourceFile) -> int | None:
    """1-based line of the end of the last top-level import statement, None without any."""
    rows = [n.end_point.row for n in sf.tree.root_node.children if n.type in IMPORT_NODE_TYPES]
    return max(rows) + 1 if rows else None


def module_file(corpus: Corpus, sf: SourceFile, module: str, level: int) -> str | None:
    """The repository file an import's module denotes, or None (external, unresolvable)."""
    known = set(corpus.paths)
    if corpus.lang == "java":  # ``import a.b.C``: module ``a.b``, the class file ``a/b/C.java``
        return None
    if corpus.lang == "python":
        base = PurePosixPath(sf.path).parent if level else PurePosixPath()
        for _ in range(max(level - 1, 0)):
            base = base.parent
        stem = str(base.joinpath(*module.split("."))) if module else ""
        candidates = [f"{stem}.py", f"{stem}/__init__.py"] if stem else []
    else:
        if not module.startswith("."):
            return None
        joined = PurePosixPath(sf.path).parent / module
        stem = re.sub(r"\.(js|ts|mjs|cjs)$", "", _normpath(str(joined)))
        candidates = [f"{stem}.ts", f"{stem}.tsx", f"{stem}/index.ts"]
    return next((c for c in candidates if c in known), None)


def _normpath(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part == ".." and parts and parts[-1] != "..":
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts)


# Not variables: a module-level variable may be bound only under ``if __name__ == ...``.
IMPORTABLE_KINDS = ("class", "function", "interface", "enum", "type_alias")


def module_top_names(corpus: Corpus, path: str) -> dict[str, Definition]:
    """Top-level definitions of a module a reader could import (TS: exported ones)."""
    facts = corpus.file(path).facts
    return {
        d.name: d
        for d in facts.definitions
        if d.parent == "" and d.kind in IMPORTABLE_KINDS and (corpus.lang == "python" or d.exported)
    }


def import_line(sf: SourceFile, module: str, level: int, name: str) -> str:
    if grammar_of(sf.path) == "python":
        return f"from {'.' * level}{module} import {name}\n"
    if grammar_of(sf.path) == "java":
        return f"import {module}.{name};\n"
    quote = "'" if "from '" in sf.text else '"'
    semi = ";" if re.search(r"^import .*;\s*$", sf.text, re.M) else ""
    return f"import {{ {name} }} from {quote}{module}{quote}{semi}\n"


def _repo_imports(corpus: Corpus, sf: SourceFile) -> Iterator[tuple[str, int, str, str]]:
    """(module as written, level, imported name, module file) for module-level
    ``from m import name`` / ``import { name } from 'm'`` of repository modules."""
    seen: set[tuple[str, int]] = set()
    for imp in sf.facts.imports:
        if imp.scope or imp.reexport or imp.name in (None, "*", "default"):
            continue
        if corpus.lang == "java":
            target = _java_class_file(corpus, imp.module, imp.name or "")
        else:
            target = module_file(corpus, sf, imp.module, imp.level)
        if target is None or (imp.module, imp.level) in seen:
            continue
        seen.add((imp.module, imp.level))
        yield imp.module, imp.level, imp.name or "", target


def _java_class_file(corpus: Corpus, package: str, name: str) -> str | None:
    """The repository file of class ``package.name`` (the path ends in its parts)."""
    suffix = "/".join([*package.split("."), name]) + ".java"
    found = [p for p in corpus.paths if p == suffix or p.endswith("/" + suffix)]
    return found[0] if len(found) == 1 else None


def _insert_after_imports(sf: SourceFile, text: str, note: str) -> Edit | None:
    at = after_imports_line(sf)
    if at is None or at >= len(sf.lines):
        return None
    return Edit(sf.path, at, (sf.lines[at - 1], text), at + 1, "", note)


def import_edits(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, Edit]]:
    """``from .text import TextStyle``: a new import of a name a real repository module (one
    the file already imports from) does not define, placed after the existing imports."""
    for sf in corpus.files():
        for module, level, real, target in _repo_imports(corpus, sf):
            defined = module_top_names(corpus, target)
            options = [  # never a reserved word: ``import raise`` would be a syntax error
                n
                for n in plausible_renames(real)
                if corpus.is_free(n, sf) and n not in defined and n not in RESERVED_WORDS
            ]
            if options:
                fake = rng.choice(options)
                line = import_line(sf, module, level, fake)
                edit = _insert_after_imports(sf, line, f"import {fake} (near {real}) from {module}")
                if edit:
                    yield "name", edit


def positional_params(corpus: Corpus, sf: SourceFile, ref: Reference, target: Symbol):
    """The parameters a call binds positionally, or None when the callee's signature is not a
    plain one a checker can count (decorated, overloaded, unbound method, *args/**kwargs)."""
    definition = corpus.definition_of(target.id)
    if definition is None or "overload" in definition.modifiers:
        return None
    if corpus.lang == "python" and definition.decorators:
        return None  # a decorator may change the signature
    params = list(definition.params)
    if target.kind == "method" and corpus.lang == "java" and _overloaded(corpus, target):
        return None  # one argument more or fewer may be another overload's
    if target.kind == "method":
        root = ref.chain[0]
        bound = root in SELF_ROOTS or any(
            b.name == root and b.scope == ref.scope for b in sf.facts.bindings
        )
        if len(ref.chain) < 2 or not bound or "static" in definition.modifiers:
            return None
        if corpus.lang == "python":
            if not params or params[0].name != "self":
                return None
            params = params[1:]
    elif target.kind != "function" or len(ref.chain) != 1:
        return None
    return params


def _arguments_node(sf: SourceFile, ref: Reference) -> Node | None:
    """The call's argument list when it sits on the call's line, with nothing in it a
    textual edit could break (generator argument, splats, comments)."""
    call = call_node(sf, ref)
    args = call.child_by_field_name("arguments") if call else None
    if args is None or args.start_point.row != ref.line - 1 or args.end_point.row != ref.line - 1:
        return None
    bad = {"generator_expression", "list_splat", "dictionary_splat", "spread_element", "comment"}
    if any(child.type in bad for child in args.named_children):
        return None
    return args


def _insert_argument(sf: SourceFile, args: Node, text: str) -> str:
    """The call's line with ``text`` added as the last argument."""
    row = args.start_point.row
    line = sf.lines[row]
    if args.named_children:
        at = char_col(sf, row, args.named_children[-1].end_point.column)
        return replace_span(line, at, at, f", {text}")
    at = char_col(sf, row, args.end_point.column) - 1  # before ")"
    return replace_span(line, at, at, text)


def _drop_last_argument(sf: SourceFile, args: Node) -> str:
    row = args.start_point.row
    children = args.named_children
    last_end = char_col(sf, row, children[-1].end_point.column)
    if len(children) == 1:
        start = char_col(sf, row, args.start_point.column) + 1  # after "("
    else:
        start = char_col(sf, row, children[-2].end_point.column)
    return replace_span(sf.lines[row], start, last_end, "")


PLAIN_KINDS = ("positional", "positional_only")


def _argument_variant(params: list, arg_count: int, rng: random.Random) -> str | None:
    """ "drop" when the last given argument fills a required plain parameter, "add" when every
    parameter is plain and already filled; a coin decides when both hold."""
    head = params[:arg_count]
    can_drop = (
        arg_count >= 1
        and len(head) == arg_count
        and all(p.kind in PLAIN_KINDS for p in head)
        and not head[-1].has_default
    )
    can_add = arg_count == len(params) and all(p.kind in PLAIN_KINDS for p in params)
    choices = [v for v, ok in (("drop", can_drop), ("add", can_add)) if ok]
    return rng.choice(choices) if choices else None


def argument_edits(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, Edit]]:
    """One positional argument too many or too few for a repository callee whose parameters
    at that position are required and plain."""
    extras = {"python": ("True", "None", "0"), "java": ("true", "null", "0")}.get(
        corpus.lang, ("true", "undefined", "{}")
    )
    for sf in corpus.files():
        for ref in _call_refs(sf):
            target = _single_target(corpus, sf, ref)
            params = positional_params(corpus, sf, ref, target) if target else None
            if params is None or ref.arg_count < 0 or ref.keywords:
                continue
            args = _arguments_node(sf, ref)
            if args is None or len(args.named_children) != ref.arg_count:
                continue
            variant = _argument_variant(params, ref.arg_count, rng)
            if variant == "drop":
                new = _drop_last_argument(sf, args)
            elif variant == "add":
                new = _insert_argument(sf, args, rng.choice(extras))
            else:
                continue
            note = f"{variant} argument: {'.'.join(ref.chain)}() takes {len(params)}"
            yield variant, Edit(sf.path, ref.line, (new,), ref.line, ref.scope, note)


PLAUSIBLE_KEYWORDS = ("strict", "verbose", "timeout", "encoding", "force", "recursive", "debug")


def keyword_edits(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, Edit]]:
    """Python: ``f(x)`` -> ``f(x, strict=True)`` for a repository callee without ``**kwargs``
    and without a parameter of that name."""
    if corpus.lang != "python":
        return
    for sf in corpus.files():
        for ref in _call_refs(sf):
            target = _single_target(corpus, sf, ref)
            params = positional_params(corpus, sf, ref, target) if target else None
            if params is None or any(p.kind == "var_keyword" for p in params):
                continue
            args = _arguments_node(sf, ref)
            if args is None:
                continue
            taken = {p.name for p in params}
            keyword = rng.choice([k for k in PLAUSIBLE_KEYWORDS if k not in taken])
            new = _insert_argument(sf, args, f"{keyword}=True")
            note = f"keyword {keyword}= to {'.'.join(ref.chain)}()"
            yield "keyword", Edit(sf.path, ref.line, (new,), ref.line, ref.scope, note)


# ---------------------------------------------------------------------------- negatives

FUNCTION_KINDS = ("function", "method")
BLOCK_TYPES = ("block", "statement_block")
NESTED_SCOPE_TYPES = frozenset(
    "function_definition class_definition lambda function_declaration function_expression "
    "arrow_function method_definition class_declaration class lambda_expression "
    "method_declaration constructor_declaration class_body".split()
)
CALL_TYPES = ("call", "call_expression", "method_invocation")


def function_bodies(sf: SourceFile) -> Iterator[tuple[Definition, Node]]:
    """Functions/methods of the file with a block body, and that body."""
    for definition in sf.facts.definitions:
        if definition.kind not in FUNCTION_KINDS:
            continue
        node = sf.tree.root_node.descendant_for_byte_range(
            definition.start_byte, definition.end_byte
        )
        if node is not None and node.type == "decorated_definition":
            node = node.child_by_field_name("definition")
        body = node.child_by_field_name("body") if node is not None else None
        if body is not None and body.type in BLOCK_TYPES and body.named_child_count >= 2:
            yield definition, body


def _own_line(sf: SourceFile, node: Node) -> bool:
    """The node is alone on its one line (so moving or copying the line moves just it)."""
    row = node.start_point.row
    if row != node.end_point.row:
        return False
    line = sf.lines[row]
    start = char_col(sf, row, node.start_point.column)
    end = char_col(sf, row, node.end_point.column)
    return not line[:start].strip() and not line[end:].strip()


def _starts_line(sf: SourceFile, node: Node) -> bool:
    row = node.start_point.row
    return not sf.lines[row][: char_col(sf, row, node.start_point.column)].strip()


def _is_call_statement(node: Node) -> bool:
    if node.type != "expression_statement" or node.named_child_count != 1:
        return False
    inner = node.named_children[0]
    if inner.type in ("await", "await_expression") and inner.named_child_count == 1:
        inner = inner.named_children[0]
    return inner.type in CALL_TYPES


def call_statements(sf: SourceFile, body: Node) -> Iterator[Node]:
    """Single-line call statements of a body, nested blocks included, nested functions not.
    Only statements of a block: the brace-less body of a ``for``/``if`` (``for (...)\n
    op();``) is no statement of its own, and a copy of its line lands after the loop, where
    the loop's names are out of scope (clipanion's ``op()``, a real error, not a negative)."""
    stack = [body]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if child.type in NESTED_SCOPE_TYPES:
                continue
            if _is_call_statement(child) and node.type in BLOCK_TYPES and _own_line(sf, child):
                yield child
            else:
                stack.append(child)


def _comment(sf: SourceFile, indent: str, text: str) -> str:
    mark = "#" if grammar_of(sf.path) == "python" else "//"
    return f"{indent}{mark} {text}\n"


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


DEBUG_LINES = {
    "python": 'print("debug: {qualname}")',
    "typescript": 'console.debug("{qualname}");',
    "java": 'System.out.println("{qualname}");',
}
COMMENTS = (
    "NOTE: keep this in sync with the docs",
    "TODO: handle the empty case separately",
    "The order below matters.",
)


def statement_refactors(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, list[Edit]]]:
    """Comment line, debug line, duplicated call line, two adjacent calls swapped."""
    for sf in corpus.files():
        for definition, body in function_bodies(sf):
            scope = definition.qualname
            last = body.named_children[-1]  # the last statement: never a docstring
            row = last.start_point.row
            line = sf.lines[row]
            if _starts_line(sf, last):
                comment = _comment(sf, _indent(line), rng.choice(COMMENTS))
                yield "add-comment", [Edit(sf.path, row + 1, (comment, line), 0, scope, comment)]
                # not in constructors: a statement before TS's super() call is a compile error
                if "constructor" not in definition.modifiers:
                    debug = DEBUG_LINES[corpus.lang].format(qualname=scope)
                    new = (f"{_indent(line)}{debug}\n", line)
                    yield "add-debug", [Edit(sf.path, row + 1, new, 0, scope, debug)]
            calls = sorted(call_statements(sf, body), key=lambda n: n.start_byte)
            for node in calls[:1]:
                text = sf.lines[node.start_point.row]
                edit = Edit(sf.path, node.start_point.row + 1, (text, text), 0, scope, text.strip())
                yield "duplicate-call", [edit]
            yield from _swaps(sf, calls, scope)


def _swaps(sf: SourceFile, calls: list[Node], scope: str) -> Iterator[tuple[str, list[Edit]]]:
    for a, b in itertools.pairwise(calls):
        ra, rb = a.start_point.row, b.start_point.row
        if rb == ra + 1 and a.parent == b.parent and sf.lines[ra] != sf.lines[rb]:
            note = f"swap {sf.lines[ra].strip()} / {sf.lines[rb].strip()}"
            yield (
                "swap-calls",
                [
                    Edit(sf.path, ra + 1, (sf.lines[rb],), 0, scope, note),
                    Edit(sf.path, rb + 1, (sf.lines[ra],), 0, scope, note),
                ],
            )
            return


def _fresh_local_name(name: str, sf: SourceFile) -> str | None:
    core = name.lstrip("_")
    new = f"new_{core}" if grammar_of(sf.path) == "python" else f"new{core[:1].upper()}{core[1:]}"
    return None if re.search(rf"\b{re.escape(new)}\b", sf.text) else new


def _renamable_occurrences(sf: SourceFile, fn: Node, name: str) -> list[Node] | None:
    """Identifier nodes of ``name`` inside the function that a consistent rename must touch;
    None when the rename could change meaning (shorthand properties, global/nonlocal)."""
    found: list[Node] = []
    stack = [fn]
    while stack:
        node = stack.pop()
        if node.type in ("global_statement", "nonlocal_statement") and name in sf.node_text(node):
            return None
        if node.type.startswith("shorthand_property_identifier") and sf.node_text(node) == name:
            return None
        if node.type == "identifier" and sf.node_text(node) == name and not _is_key(node):
            found.append(node)
        stack.extend(node.children)
    return found


KEY_FIELDS = (
    ("attribute", "attribute"),
    ("field_access", "field"),  # Java
    ("method_invocation", "name"),
    ("method_declaration", "name"),
    ("class_declaration", "name"),
    ("keyword_argument", "name"),
    ("function_definition", "name"),
    ("class_definition", "name"),
    ("function_declaration", "name"),
)


def _is_key(node: Node) -> bool:
    """``obj.name``, ``f(name=...)``, ``def name``, an import path: the same text, not the
    variable."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "dotted_name":  # an import path: ``from rich.tree import Tree``
        return True
    for kind, field_name in KEY_FIELDS:
        if parent.type == kind:
            child = parent.child_by_field_name(field_name)
            return child is not None and child.start_byte == node.start_byte
    return False


def _rename_edits(sf: SourceFile, nodes: list[Node], new: str, scope: str, note: str) -> list[Edit]:
    by_row: dict[int, list[Node]] = defaultdict(list)
    for node in nodes:
        by_row[node.start_point.row].append(node)
    edits = []
    for row, row_nodes in sorted(by_row.items()):
        line = sf.lines[row]
        for node in sorted(row_nodes, key=lambda n: n.start_byte, reverse=True):
            start = char_col(sf, row, node.start_point.column)
            end = char_col(sf, row, node.end_point.column)
            line = replace_span(line, start, end, new)
        edits.append(Edit(sf.path, row + 1, (line,), 0, scope, note))
    return edits


def _names_a_parameter(sf: SourceFile, body: Node, name: str) -> bool:
    fn = body.parent
    params = fn.child_by_field_name("parameters") if fn is not None else None
    return (
        params is not None
        and re.search(rf"\b{re.escape(name)}\b", sf.node_text(params)) is not None
    )


def rename_local_refactors(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, list[Edit]]]:
    """A local variable renamed consistently inside its function: correct by construction."""
    for sf in corpus.files():
        module_names = {d.name for d in sf.facts.definitions if d.parent == ""} | {
            i.alias for i in sf.facts.imports if not i.scope
        }
        for definition, body in function_bodies(sf):
            params = {p.name for p in definition.params}
            local_names = sorted(
                {b.name for b in sf.facts.bindings if b.scope == definition.qualname}
                - params
                - module_names
                - {"return", "self", "cls", "this", "_", definition.name}
            )
            for name in local_names[:1]:
                new = _fresh_local_name(name, sf)
                if new is None or _names_a_parameter(sf, body, name):
                    continue  # a destructured parameter ``([x]) =>`` is not in ``params``
                nodes = _renamable_occurrences(sf, body, name)
                if nodes and len(nodes) >= 2:
                    note = f"rename local {name} -> {new} in {definition.qualname}"
                    yield "rename-local", _rename_edits(sf, nodes, new, definition.qualname, note)


def real_import_refactors(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, list[Edit]]]:
    """An import of a name the module really defines, from a module the file already uses."""
    for sf in corpus.files():
        for module, level, _real, target in _repo_imports(corpus, sf):
            options = sorted(n for n in module_top_names(corpus, target) if n not in sf.names)
            if options:
                name = rng.choice(options)
                line = import_line(sf, module, level, name)
                edit = _insert_after_imports(sf, line, f"import real {name} from {module}")
                if edit:
                    yield "add-real-import", [edit]
                break  # one per file


# ---------------------------------------------------------------------------- building cases

Generator = Callable[[Corpus, random.Random], Iterator[tuple[str, Edit]]]
RefactorGenerator = Callable[[Corpus, random.Random], Iterator[tuple[str, list[Edit]]]]

POSITIVE_GENERATORS: dict[str, Generator] = {
    "unknown-member": member_edits,
    "unknown-function": function_edits,
    "unknown-import": import_edits,
    "wrong-arguments": argument_edits,
    "unknown-keyword": keyword_edits,
}
REFACTOR_GENERATORS: tuple[RefactorGenerator, ...] = (
    statement_refactors,
    rename_local_refactors,
    real_import_refactors,
)
# The headline hallucination (a method that does not exist) gets twice the cases.
QUOTA_WEIGHTS = {"unknown-member": 2}
LANG_TAGS = {"python": "py", "typescript": "ts", "java": "java"}


def choose(candidates: list[tuple[str, list[Edit]]], quota: int, rng: random.Random):
    """Up to ``quota`` candidates, round-robin over variants so every kind of mutation is
    represented, and at most one per function while there are others to take."""
    by_variant: dict[str, list[tuple[str, list[Edit]]]] = defaultdict(list)
    for variant, edits in candidates:
        by_variant[variant].append((variant, edits))
    queues = [by_variant[v] for v in sorted(by_variant)]
    for queue in queues:
        rng.shuffle(queue)
    picked: list[tuple[str, list[Edit]]] = []
    used: set[tuple[str, str]] = set()
    for allow_repeat in (False, True):
        progress = True
        while len(picked) < quota and progress:
            progress = False
            for queue in queues:
                taken = _take(queue, used, allow_repeat)
                if taken and len(picked) < quota:
                    picked.append(taken)
                    used.add((taken[1][0].path, taken[1][0].scope))
                    progress = True
    return picked


def _take(queue: list, used: set[tuple[str, str]], allow_repeat: bool):
    for i, (_variant, edits) in enumerate(queue):
        key = (edits[0].path, edits[0].scope)
        if allow_repeat or key not in used or not edits[0].scope:
            return queue.pop(i)
    return None


def _diff_case(
    corpus: Corpus, category: str, variant: str, edits: list[Edit], rule: str | None
) -> Case | None:
    sf = corpus.file(edits[0].path)
    if not ends_with_newline(sf):
        return None  # difflib writes no "\ No newline at end of file" marker
    new_lines = apply_edits(sf.lines, edits)
    tag = LANG_TAGS[corpus.lang]
    line = edits[0].expected_line or edits[0].line
    return Case(
        id=f"{tag}/{category}/{variant}/{sf.path}:{line}",
        lang=corpus.lang,
        category=category,
        variant=variant,
        path=sf.path,
        text=make_diff(sf.path, sf.lines, new_lines),
        diff=True,
        expected=(rule, edits[0].expected_line) if rule else None,
        note=edits[0].note,
    )


def positive_cases(corpus: Corpus, rng: random.Random, per_category: int) -> list[Case]:
    cases: list[Case] = []
    for rule, generate in POSITIVE_GENERATORS.items():
        candidates = [(variant, [edit]) for variant, edit in generate(corpus, rng)]
        quota = per_category * QUOTA_WEIGHTS.get(rule, 1)
        for variant, edits in choose(candidates, quota, rng):
            case = _diff_case(corpus, rule, variant, edits, rule)
            if case:
                cases.append(case)
    return cases


def refactor_cases(corpus: Corpus, rng: random.Random, count: int) -> list[Case]:
    candidates = [c for generate in REFACTOR_GENERATORS for c in generate(corpus, rng)]
    picked = choose(candidates, count, rng)
    cases = [_diff_case(corpus, "negative-refactor", v, edits, None) for v, edits in picked]
    return [c for c in cases if c is not None]


def snippet_cases(
    corpus: Corpus, positives: list[Case], rng: random.Random, count: int
) -> list[Case]:
    """Whole unmodified files checked as snippets, judged on one function's lines each: the
    functions the positives mutated first, then others at random, up to ``count``."""
    functions: dict[tuple[str, str], Definition] = {}
    wanted = [(c.path, _scope_of(corpus, c)) for c in positives]
    pool = [
        (sf.path, d.qualname) for sf in corpus.files() for d in sf.facts.definitions
        if d.kind in FUNCTION_KINDS and d.end_line > d.start_line
    ]  # fmt: skip
    rng.shuffle(pool)
    for path, qualname in [*wanted, *pool]:
        definitions = corpus.file(path).definitions.get(qualname, []) if qualname else []
        if len(functions) < count and len(definitions) == 1:
            functions.setdefault((path, qualname), definitions[0])
    tag = LANG_TAGS[corpus.lang]
    return [
        Case(
            id=f"{tag}/negative-snippet/function/{path}:{d.start_line}",
            lang=corpus.lang,
            category="negative-snippet",
            variant="function",
            path=path,
            text=corpus.file(path).text,
            diff=False,
            lines=(d.start_line, d.end_line),
            note=f"unmodified {qualname}",
        )
        for (path, qualname), d in functions.items()
    ]


def _scope_of(corpus: Corpus, case: Case) -> str:
    """The function a positive case mutated (the innermost definition around its line)."""
    line = case.expected[1] if case.expected else 0
    best = ""
    for d in corpus.file(case.path).facts.definitions:
        if d.kind in FUNCTION_KINDS and d.start_line <= line <= d.end_line:
            best = d.qualname  # definitions come outer first, so the last is innermost
    return best


def build_cases(corpus: Corpus, *, seed: int = 0, per_category: int = 30) -> list[Case]:
    """Positives (``per_category`` of each rule), as many snippet negatives, and
    ``2 * per_category`` refactoring negatives, all deterministic for a seed."""
    rng = random.Random(f"{seed}:{corpus.lang}")
    positives = positive_cases(corpus, rng, per_category)
    snippets = snippet_cases(corpus, positives, rng, len(positives))
    refactors = refactor_cases(corpus, rng, 2 * per_category)
    return positives + snippets + refactors


# ---------------------------------------------------------------------------- the speed diff


def build_speed_diff(
    root: Path,
    *,
    seed: int = 0,
    target_lines: int = 200,
    per_file: int = 10,
    max_files: int = 10**6,
) -> tuple[str, list[Edit], int]:
    """A multi-file diff of about ``target_lines`` lines: up to ``per_file`` member/function
    renames in different functions of each of the largest non-test TypeScript files.
    Returns (diff, the edits, number of files)."""
    # its callers check the mutated tree, which re-indexes it: read the restored tree's facts
    corpus = load_corpus(root, "typescript", refresh=True)
    rng = random.Random(f"speed:{seed}")
    sizes = [
        ((root / p).stat().st_size, p)
        for p in corpus.paths
        if "test" not in p and not p.endswith(".d.ts")
    ]
    diffs: list[str] = []
    chosen: list[Edit] = []
    for _size, path in sorted(sizes, reverse=True):
        if sum(d.count("\n") for d in diffs) >= target_lines or len(diffs) >= max_files:
            break
        one = corpus.restricted([path])
        edits = [e for gen in (member_edits, function_edits) for _v, e in gen(one, rng)]
        picked = _spread(edits, per_file)
        sf = corpus.file(path)
        if picked and ends_with_newline(sf):
            diffs.append(make_diff(path, sf.lines, apply_edits(sf.lines, picked)))
            chosen += picked
    return "".join(diffs), chosen, len(diffs)


def _spread(edits: list[Edit], limit: int) -> list[Edit]:
    """At most ``limit`` edits, one per function and per line, spread over the file."""
    picked: dict[str, Edit] = {}
    lines: set[int] = set()
    for edit in edits:
        if edit.scope not in picked and edit.line not in lines:
            picked[edit.scope] = edit
            lines.add(edit.line)
    ordered = sorted(picked.values(), key=lambda e: e.line)
    step = max(1, len(ordered) // limit)
    return ordered[::step][:limit]
