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
import difflib
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
PLAUSIBLE_SUFFIXES = ("all", "item", "value", "data", "async", "sync", "safe")

Expected = tuple[str, int]  # (rule, line in the new file)


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    lang: str  # python | typescript
    category: str  # a rule id for positives; "negative-snippet" / "negative-refactor"
    variant: str  # how it was made: "self", "this-field", "verb", "drop", "rename-local", ...
    path: str  # the file the case is about, repository-relative
    text: str  # a unified diff (diff=True) or a whole file (diff=False)
    diff: bool
    expected: Expected | None = None  # None: a negative, every finding is a false positive
    lines: tuple[int, int] | None = None  # snippets: only findings in this range count
    note: str = ""  # what was changed, for the examples listing

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
        return any(f"{class_id}.{name}" in self.symbols for name in ("__getattr__", "__getattribute__"))

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


def load_corpus(root: Path, lang: str) -> Corpus:
    """Read the index of ``root`` (run ``astrag index`` first). ``lang``: python | typescript."""
    from astrag import api

    with api.open_index(root) as idx:
        symbols, edges = idx.graph()
    by_id = {s.id: s for s in symbols}
    calls: dict[tuple[str, int, int], list[str]] = defaultdict(list)
    imports: dict[tuple[str, int], list[str]] = defaultdict(list)
    bases: dict[str, list[str]] = defaultdict(list)
    for edge in edges:
        if edge.kind == "calls" and by_id.get(edge.target, None) and by_id[edge.target].path:
            calls[(edge.path, edge.line, edge.column)].append(edge.target)
        elif edge.kind == "imports":
            imports[(edge.path, edge.line)].append(edge.target)
        elif edge.kind == "inherits":
            bases[edge.source].append(edge.target)
    paths = sorted(
        s.path for s in symbols if s.kind == "module" and language_of(s.path) == lang
    )
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
        return prefix + "_".join(w.lower() if w.isupper() else w for w in words)
    first, *rest = words
    return prefix + first + "".join(w[:1].upper() + w[1:] for w in rest)


def _recase(template: str, word: str) -> str:
    """``word`` in the case of ``template`` (Get/get/GET)."""
    if template.isupper() and len(template) > 1:
        return word.upper()
    return word.capitalize() if template[:1].isupper() else word


def plausible_renames(name: str) -> list[str]:
    """Near-misses an LLM writes for ``name``: a sibling verb, singular/plural, the other
    case convention, a common suffix. Deterministic order, without ``name`` itself."""
    if not name or name.startswith("__") or not name.replace("_", "").isalnum():
        return []
    prefix, words, style = split_words(name)
    out: list[str] = []
    head = words[0].lower()
    for group in VERB_GROUPS:
        if head in group:
            out += [join_words(prefix, [_recase(words[0], v), *words[1:]], style) for v in group]
    last = words[-1]
    plural = last[:-1] if last.endswith("s") and len(last) > 3 else last + "s"
    out.append(join_words(prefix, [*words[:-1], plural], style))
    if len(words) > 1:
        other = "camel" if style == "snake" else "snake"
        out.append(join_words(prefix, words, other))
    cased = [s.capitalize() if style == "camel" else s for s in PLAUSIBLE_SUFFIXES]
    out += [join_words(prefix, [*words, suffix], style) for suffix in cased]
    return [n for n in dict.fromkeys(out) if n != name]


def pick_new_name(name: str, corpus: Corpus, sf: SourceFile, rng: random.Random) -> str | None:
    options = [n for n in plausible_renames(name) if corpus.is_free(n, sf)]
    # Prefer verb swaps and plural/case confusions (listed first) over invented suffixes.
    head = options[: max(1, len(options) - len(PLAUSIBLE_SUFFIXES))]
    return rng.choice(head) if options else None


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
        if node.type in ("call", "call_expression"):
            callee = node.child_by_field_name("function")
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
        is_module = any(i.alias == root and i.name in (None, "*") for i in sf.facts.imports)
        return "module" if is_module and len(ref.chain) == 2 else ""
    if target.kind != "method" or target.parent not in corpus.closed_classes:
        return ""
    if root in SELF_ROOTS:
        return "self" if len(ref.chain) == 2 else f"{root}-field"
    return "" if root.startswith("super") or root == "?" else "typed"


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
    function, imported ("imported") or defined in the same file ("local-helper")."""
    for sf in corpus.files():
        for ref in _call_refs(sf):
            target = _single_target(corpus, sf, ref) if len(ref.chain) == 1 else None
            if target is None or target.kind != "function":
                continue
            parent = corpus.symbols.get(target.parent)
            if parent is None or parent.kind != "module":
                continue
            edit = _rename_edit(corpus, sf, ref, rng, "function")
            if edit:
                yield ("local-helper" if target.path == sf.path else "imported"), edit


IMPORT_NODE_TYPES = ("import_statement", "import_from_statement", "future_import_statement")


def after_imports_line(sf: SourceFile) -> int | None:
    """1-based line of the end of the last top-level import statement, None without any."""
    rows = [n.end_point.row for n in sf.tree.root_node.children if n.type in IMPORT_NODE_TYPES]
    return max(rows) + 1 if rows else None


def module_file(corpus: Corpus, sf: SourceFile, module: str, level: int) -> str | None:
    """The repository file an import's module denotes, or None (external, unresolvable)."""
    known = set(corpus.paths)
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


def module_top_names(corpus: Corpus, path: str) -> dict[str, Definition]:
    """Top-level definitions of a module a reader could import (TS: exported ones)."""
    facts = corpus.file(path).facts
    return {
        d.name: d
        for d in facts.definitions
        if d.parent == "" and (corpus.lang == "python" or d.exported)
    }


def import_line(sf: SourceFile, module: str, level: int, name: str) -> str:
    if grammar_of(sf.path) == "python":
        return f"from {'.' * level}{module} import {name}\n"
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
        target = module_file(corpus, sf, imp.module, imp.level)
        if target is None or (imp.module, imp.level) in seen:
            continue
        seen.add((imp.module, imp.level))
        yield imp.module, imp.level, imp.name or "", target


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
            options = [
                n for n in plausible_renames(real) if corpus.is_free(n, sf) and n not in defined
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
    """"drop" when the last given argument fills a required plain parameter, "add" when every
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
    extras = ("True", "None", "0") if corpus.lang == "python" else ("true", "undefined", "{}")
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
