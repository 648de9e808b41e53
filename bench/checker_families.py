"""More families for the ``astrag check`` benchmark: attribute reads, syntax slips, and
incomplete refactors whose finding lies in a file the diff does not touch.

* ``attribute-read``: one read of ``self.x`` / ``this.x`` in a method of a closed class
  (every base in the repository, no dynamic attribute code) renamed to a plausible name the
  repository has nowhere (``self.check`` -> ``self.check_cache``); expect ``unknown-member``
  on that line.
* ``syntax-error``: a typical slip on one line of a cleanly parsed file (a dropped colon, a
  dropped closing parenthesis, an unclosed string, a dropped comma); expect ``syntax-error``
  on that line.
* ``incomplete-refactor``: a module-level function imported by name in at least two other
  files is renamed at its definition and in every importing file but one, which the diff
  leaves alone; expect ``unknown-import`` at that file's import line.
* ``self-check``: every source file of the corpus checked whole, as it stands. The
  repository is correct code, so every finding is a false alarm: the checker's noise on
  clean code measured at scale, without a mutation in the way.

Same conventions as ``checker_cases.py``: deterministic for a seed, mutations only where the
index says the original is right, new names free everywhere in the repository.
"""

from __future__ import annotations

import dataclasses
import json
import posixpath
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from functools import cache
from pathlib import Path, PurePosixPath

from checker_cases import (
    LANG_TAGS,
    Case,
    Corpus,
    Edit,
    SourceFile,
    choose,
    ends_with_newline,
    make_diff,
    module_file,
    pick_new_name,
    replace_span,
)
from tree_sitter import Node

from astrag.graph.facts import DefKind

FUNCTION_KINDS = (DefKind.FUNCTION, DefKind.METHOD)
_DYNAMIC_CLASS = re.compile(r"setattr|__dict__|__getattr|__slots__|^\s*\[\w+\s*:", re.MULTILINE)
# parents under which an attribute node is read as a value
_READ_PARENTS = frozenset(
    {"argument_list", "arguments", "binary_operator", "binary_expression", "comparison_operator",
     "return_statement", "attribute", "member_expression", "subscript", "subscript_expression",
     "boolean_operator", "not_operator", "unary_expression", "parenthesized_expression",
     "conditional_expression", "ternary_expression", "template_substitution", "if_statement",
     "while_statement", "await", "await_expression", "list", "tuple", "array", "interpolation",
     "spread_element", "list_splat", "assignment", "variable_declarator", "keyword_argument",
     "pair", "expression_statement", "field_access"}
)  # fmt: skip
_VALUE_FIELDS = {
    "assignment": "right",
    "variable_declarator": "value",
    "keyword_argument": "value",
    "pair": "value",
    "attribute": "object",
    "member_expression": "object",
    "field_access": "object",
    "subscript": "value",
    "subscript_expression": "object",
}


# ---------------------------------------------------------------------------- attribute reads


def _class_members(corpus: Corpus) -> dict[str, set[str]]:
    members: dict[str, set[str]] = defaultdict(set)
    for s in corpus.symbols.values():
        if s.parent:
            members[s.parent].add(s.name)
    return members


def _mro_members(corpus: Corpus, class_id: str, members: dict[str, set[str]]) -> set[str]:
    seen, stack, out = set(), [class_id], set()
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        out |= members.get(current, set())
        stack.extend(corpus.bases.get(current, []))
    return out


def _receiver_read(node: Node, sf: SourceFile) -> tuple[str, Node] | None:
    """(root, name node) for ``self.x`` / ``this.x`` read as a value, else None."""
    obj = node.child_by_field_name("object")
    name = (
        node.child_by_field_name("attribute")
        or node.child_by_field_name("property")
        or node.child_by_field_name("field")  # Java
    )
    parent = node.parent
    if obj is None or name is None or parent is None or parent.type not in _READ_PARENTS:
        return None
    if name.type not in ("identifier", "property_identifier"):
        return None
    field = _VALUE_FIELDS.get(parent.type)
    if field is not None:
        child = parent.child_by_field_name(field)
        if child is None or child.id != node.id:
            return None
    if parent.type in ("call", "call_expression"):
        return None
    root = sf.node_text(obj)
    return (root, name) if root in ("self", "this") else None


def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def attribute_read_edits(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, Edit]]:
    members = _class_members(corpus)
    kinds = {"python": ("attribute",), "java": ("field_access",)}.get(
        corpus.lang, ("member_expression",)
    )
    for sf in corpus.files():
        methods = [d for d in sf.facts.definitions if d.kind == DefKind.METHOD]
        for node in _walk(sf.tree.root_node):
            if node.type not in kinds:
                continue
            found = _receiver_read(node, sf)
            if found is None:
                continue
            root, name_node = found
            line = name_node.start_point.row + 1
            method = _innermost(methods, line)
            if method is None:
                continue
            class_id = f"{sf.path}::{method.parent}"
            name = sf.node_text(name_node)
            if class_id not in corpus.closed_classes or name.startswith("__"):
                continue
            if name not in _mro_members(corpus, class_id, members):
                continue  # not a declared member: the original may be dynamic
            if _DYNAMIC_CLASS.search(_class_text(corpus, class_id)):
                continue
            new = pick_new_name(name, corpus, sf, rng)
            if new is None or re.search(rf"(?<![\w$]){re.escape(new)}(?![\w$])", sf.text):
                continue
            text = sf.lines[line - 1]
            start = len(text.encode()[: name_node.start_point.column].decode("utf-8", "ignore"))
            if text[start : start + len(name)] != name:
                continue
            new_line = replace_span(text, start, start + len(name), new)
            note = f"attribute {root}.{name} -> {new}"
            yield root, Edit(sf.path, line, (new_line,), line, method.qualname, note)


def _innermost(definitions, line: int):
    best = None
    for d in definitions:
        if d.start_line <= line <= d.end_line and (best is None or d.start_line >= best.start_line):
            best = d
    return best


def _class_text(corpus: Corpus, class_id: str) -> str:
    symbol = corpus.symbols[class_id]
    lines = corpus.file(symbol.path).lines
    return "".join(lines[symbol.start_line - 1 : symbol.end_line])


# ---------------------------------------------------------------------------- syntax slips

_PY_HEADER = re.compile(r"^\s*(def|if|elif|for|while|with|class|try|except|else|finally)\b.*:\s*$")
_SIMPLE_STRING = re.compile(r"""(['"])[A-Za-z0-9 _.,:-]{2,40}\1""")
_CALL_END = re.compile(r"^\s*[\w.]+\([^()]*\)\s*;?\s*$")
_TWO_ARGS = re.compile(r"\(([^(),]+), ([^(),]+)\)")


def _slips(line: str, python: bool) -> Iterator[tuple[str, str]]:
    """(variant, mutated line) for the slips this line admits."""
    body = line.rstrip("\n")
    if python and _PY_HEADER.match(body) and "#" not in body and "lambda" not in body:
        yield "drop-colon", body.rstrip()[:-1] + "\n"
    if _CALL_END.match(body):
        cut = body.rindex(")")
        yield "unclosed-paren", body[:cut] + body[cut + 1 :] + "\n"
    match = _SIMPLE_STRING.search(body)
    if match and body.count(match.group(1)) == 2 and "#" not in body and "//" not in body:
        yield "unclosed-string", body[: match.end() - 1] + body[match.end() :] + "\n"
    match = _TWO_ARGS.search(body)
    if match:
        yield (
            "dropped-comma",
            body[: match.start(1)] + match.group(1) + " " + body[match.start(2) :] + "\n",
        )


def syntax_edits(corpus: Corpus, rng: random.Random) -> Iterator[tuple[str, Edit]]:
    from astrag.lang import grammar_of, parser

    python = corpus.lang == "python"
    for sf in corpus.files():
        if sf.facts.errors or not ends_with_newline(sf):
            continue
        grammar = grammar_of(sf.path)
        assert grammar is not None
        functions = [d for d in sf.facts.definitions if d.kind in FUNCTION_KINDS]
        for d in functions:
            for line in range(d.start_line + 1, min(d.end_line, d.start_line + 12) + 1):
                for variant, new_line in _slips(sf.lines[line - 1], python):
                    lines = list(sf.lines)
                    lines[line - 1] = new_line
                    tree = parser(grammar).parse("".join(lines).encode("utf-8"))
                    if tree.root_node.has_error:
                        note = f"{variant}: {new_line.strip()}"
                        yield variant, Edit(sf.path, line, (new_line,), line, d.qualname, note)
                        break


# ---------------------------------------------------------------------------- incomplete refactors


def _meanings(corpus: Corpus) -> dict[str, set[str]]:
    """Name -> what it denotes at module level: the repository's functions and classes of
    that name, and what imports of it bring in (``external::pygments.style.Style``)."""
    out: dict[str, set[str]] = defaultdict(set)
    for sid, symbol in corpus.symbols.items():
        parent = corpus.symbols.get(symbol.parent)
        if symbol.kind in ("function", "class") and parent is not None and parent.kind == "module":
            out[symbol.name].add(sid)
    for targets in corpus.imports.values():
        for target in targets:
            symbol = corpus.symbols.get(target)
            name = symbol.name if symbol is not None else target.rsplit(".", 1)[-1]
            out[name].add(target)
    return out


def _importers(corpus: Corpus) -> dict[str, list[tuple[str, int]]]:
    """Module-level function or class id -> the (file, line) of each ``import name`` of it."""
    out: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for (path, line), targets in corpus.imports.items():
        for target in set(targets):
            symbol = corpus.symbols.get(target)
            if symbol is None or symbol.kind not in ("function", "class") or not symbol.path:
                continue
            parent = corpus.symbols.get(symbol.parent)
            if parent is None or parent.kind != "module" or path == symbol.path:
                continue
            text = _statement(corpus.file(path).lines, line) if path in corpus.paths else ""
            if re.search(rf"(?<![\w$.]){re.escape(symbol.name)}(?![\w$])", text):
                out[target].append((path, line))
    return out


def _star_edges(corpus: Corpus) -> dict[str, list[str]]:
    """Python module -> the files that take its names by ``from ... import *``."""
    out: dict[str, list[str]] = defaultdict(list)
    if corpus.lang != "python":
        return out
    for rel in corpus.paths:
        sf = corpus.file(rel)
        for imp in sf.facts.imports:
            if imp.name == "*" and not imp.scope:
                source = _imported_module(corpus, sf, imp.module, imp.level)
                if source is not None:
                    out[source].append(rel)
    return out


def _star_importers(
    stars: dict[str, list[str]], corpus: Corpus, module: str, name: str
) -> list[str]:
    """The files that take ``module``'s names by ``from ... import *`` (``stars``), directly
    or through a package that star-imports it, and name ``name``."""
    reached, todo = {module}, [module]
    while todo:
        for rel in stars.get(todo.pop(), ()):
            if rel not in reached:
                reached.add(rel)
                todo.append(rel)
    word = re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")
    return sorted(p for p in reached - {module} if word.search(corpus.file(p).text))


def _statement(lines: list[str], line: int) -> str:
    """The import statement starting at ``line``, over the lines it spans (``export {\n
    isHTTPError,\n} from './guards.js'``; Python's parenthesised ``from x import (...)``)."""
    out = []
    for text in lines[line - 1 : line + 60]:
        out.append(text)
        if re.search(r"""\bfrom\s*['"]|;\s*$|\)\s*$""", text) or (
            len(out) == 1 and "(" not in text and "{" not in text
        ):
            break
    return "".join(out)


# a module specifier (``from "./errors/HTTPError.js"``): a file's name, which a rename of the
# class it holds does not change
_SPECIFIER = re.compile(
    r"""(?:\bfrom\s*|\b(?:require|import)\s*\(\s*|^\s*import\s+)(['"])[^'"\n]*\1""", re.M
)


def _renamed(text: str, old: str, new: str) -> str:
    """``old`` renamed to ``new`` as a whole word, except inside module specifiers and after
    a member access's dot (a spread's ``...old`` is the name: neverthrow's
    ``...ResultAsync<unknown, unknown>[]``)."""
    word = re.compile(rf"(?:(?<=\.\.\.)|(?<![\w$.])){re.escape(old)}(?![\w$])")
    out, last = [], 0
    for match in _SPECIFIER.finditer(text):
        out += [word.sub(new, text[last : match.start()]), match.group(0)]
        last = match.end()
    return "".join(out) + word.sub(new, text[last:])


def _default_export(sf: SourceFile, name: str) -> bool:
    """Whether the TypeScript file exports ``name`` as its default (``export default name``,
    ``export default class name``)."""
    pattern = re.compile(
        rf"^\s*export\s+default\s+(?:abstract\s+)?(?:async\s+)?"
        rf"(?:(?:function\s*\*?|class|interface)\s+)?{re.escape(name)}\b",
        re.M,
    )
    return bool(pattern.search(sf.text))


def incomplete_refactor_cases(corpus: Corpus, rng: random.Random, quota: int) -> list[Case]:
    candidates: list[tuple[str, list[Edit]]] = []
    plans: dict[int, tuple[str, str, str, str, list[str], tuple[str, int]]] = {}
    importers = _importers(corpus)
    # the rename is by name in every file it edits: a name that means something else too
    # (cattrs' ``make_converter`` in each of its preconf modules, pygments' ``Style`` beside
    # rich's) would be renamed in imports of the other one as well, a break the mutation
    # makes, not the one it means
    meanings = _meanings(corpus)
    stars = _star_edges(corpus)
    for target, sites in sorted(importers.items()):
        files = sorted({p for p, _ in sites})
        if len(files) < 2 or len(meanings[corpus.symbols[target].name]) > 1:
            continue
        symbol = corpus.symbols[target]
        home = corpus.file(symbol.path)
        if corpus.lang == "typescript" and _default_export(home, symbol.name):
            # importers name a default export as they like (``import Registry from``,
            # ``export {default as inject} from``): renaming its declaration breaks none of them
            continue
        new = pick_new_name(symbol.name, corpus, home, rng)
        if new is None or len(symbol.name) < 5:
            continue
        forgotten = rng.choice(files)
        line = min(line for p, line in sites if p == forgotten)
        # a file that takes the name by ``from module import *`` uses it as an importer
        # does: renamed with the rest (funcy's tests star-import the modules they test; a
        # rename that left them would break their every use, not just the forgotten import)
        starred = _star_importers(stars, corpus, symbol.path, symbol.name)
        starred = [p for p in starred if p not in files]
        edited = [symbol.path, *(p for p in files if p != forgotten), *starred]
        note = f"rename {symbol.name} -> {new} everywhere but {forgotten}"
        marker = Edit(forgotten, line, (), line, symbol.qualname, note)
        plans[id(marker)] = (target, symbol.name, new, forgotten, edited, (forgotten, line))
        candidates.append(("rename-import", [marker]))
    return _import_cases(corpus, rng, quota, candidates, plans)


def _refactor_case(
    corpus: Corpus, variant: str, marker: Edit, parts: list[str], rule: str, also: tuple[int, ...]
) -> Case:
    """An incomplete refactor: the diff ``parts`` leave ``marker.path`` alone, and the finding
    belongs at ``marker.line`` there (or at the ``also`` lines, its other uses)."""
    return Case(
        id=f"{LANG_TAGS[corpus.lang]}/incomplete-refactor/{variant}/{marker.path}:{marker.line}",
        lang=corpus.lang,
        category="incomplete-refactor",
        variant=variant,
        path=marker.path,
        text="".join(parts),
        diff=True,
        expected=(rule, marker.line),
        note=marker.note,
        also=also,
    )


def _naming_lines(sf: SourceFile, name: str) -> tuple[int, ...]:
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    return tuple(n for n, line in enumerate(sf.lines, 1) if word.search(line))


def _import_cases(
    corpus: Corpus,
    rng: random.Random,
    quota: int,
    candidates: list[tuple[str, list[Edit]]],
    plans: dict[int, tuple[str, str, str, str, list[str], tuple[str, int]]],
) -> list[Case]:
    cases = []
    for _variant, (marker,) in choose(candidates, quota, rng):
        target, old, new, _forgotten, edited, (path, _line) = plans[id(marker)]
        parts, after = [], {}
        for rel in edited:
            sf = corpus.file(rel)
            if not ends_with_newline(sf):
                break
            after[rel] = changed = _renamed(sf.text, old, new)
            parts.append(make_diff(rel, sf.lines, changed.splitlines(keepends=True)))
        else:
            also = _naming_lines(corpus.file(path), old)
            case = _refactor_case(corpus, "rename-import", marker, parts, "unknown-import", also)
            left = _left_through_attributes(corpus, target, old, after)
            left += _imported_through_forgotten(corpus, old, path, edited)
            left += _imported_unrenamed(corpus, old, path, edited)
            left += _members_renamed_too(corpus, old, edited, after)
            cases.append(dataclasses.replace(case, elsewhere=tuple(sorted(set(left)))))
    return cases


def _left_through_attributes(
    corpus: Corpus, target: str, old: str, after: dict[str, str]
) -> tuple[tuple[str, int], ...]:
    """The uses of ``target`` through a module attribute (``util.deprecated(...)``,
    ``isinstance(x, base.FieldABC)``) that still name it after the diff: the by-name rename
    does not reach them, so the change really breaks them, in the forgotten file and
    elsewhere. Found two ways: calls the index resolves to ``target``, and ``alias.old`` where
    ``alias`` is a name a file imports the target's module as."""
    module = corpus.symbols[target].parent
    stem = PurePosixPath(module).stem
    attribute = re.compile(rf"\.\s*{re.escape(old)}(?![\w$])")

    def lines_of(path: str) -> list[str]:
        text = after.get(path)
        return text.splitlines() if text is not None else corpus.file(path).lines

    left = set()
    for (path, line, _column), targets in corpus.calls.items():
        found = lines_of(path) if target in targets else []
        if line <= len(found) and attribute.search(found[line - 1]):
            left.add((path, line))
    aliases: dict[str, set[str]] = defaultdict(set)
    # ``import attr as _attr`` then ``_attr.filters.include``: the module through a package
    # above it, by the rest of its dotted name
    through = {module: "", **_packages_above(module)}
    # a package whose ``__init__`` imports the name from the module re-exports it there
    # (glom's ``glom.BadSpec``): the rename renamed that import too
    ways = [(package, rest) for package, rest in through.items()]
    ways += [
        (path, "")
        for (path, _line), targets in corpus.imports.items()
        if target in targets and path.endswith("__init__.py") and path != module
    ]
    for (path, line), targets in corpus.imports.items():
        for package, rest in ways:
            if package not in targets or path not in corpus.paths:
                continue
            text = corpus.file(path).lines[line - 1]
            named = set(re.findall(r"\bas\s+([A-Za-z_$][\w$]*)", text))
            packaged = rest or (package != module and package.endswith("__init__.py"))
            own = PurePosixPath(package).parent.name if packaged else stem
            if re.search(rf"(?<![\w$]){re.escape(own)}(?![\w$])", text):
                named.add(own)
            aliases[path].update(f"{name}.{rest}" if rest else name for name in named)
    for path, names in aliases.items():
        spelled = (r"\s*\.\s*".join(map(re.escape, n.split("."))) for n in sorted(names))
        use = re.compile(rf"(?<![\w$.])(?:{'|'.join(spelled)})\s*\.\s*{re.escape(old)}(?![\w$])")
        for number, text in enumerate(lines_of(path), 1):
            if use.search(text):
                left.add((path, number))
    return tuple(sorted(left))


def _packages_above(module: str) -> dict[str, str]:
    """The ``__init__.py`` of each package above a Python module, with the rest of the
    module's dotted name from there (``src/attr/filters.py``: ``src/attr/__init__.py`` ->
    ``filters``)."""
    parts = list(PurePosixPath(module).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return {
        "/".join([*parts[:k], "__init__.py"]): ".".join(parts[k:]) for k in range(1, len(parts))
    }


def _imported_module(corpus: Corpus, sf: SourceFile, module: str, level: int) -> str | None:
    """The repository file an import's module denotes; ``from . import x`` (no module
    name) denotes the package's own ``__init__.py``; an absolute import in a ``src/``
    layout, the one file whose path ends in the module's."""
    if module and not level and corpus.lang == "python":
        found = module_file(corpus, sf, module, level)
        stem = module.replace(".", "/")
        ends = [p for p in corpus.paths if p.endswith((f"/{stem}.py", f"/{stem}/__init__.py"))]
        return found or (ends[0] if len(ends) == 1 else None)
    if module or not level or corpus.lang != "python":
        return module_file(corpus, sf, module, level)
    base = PurePosixPath(sf.path).parent
    for _ in range(level - 1):
        base = base.parent
    init = str(base / "__init__.py")
    return init if init in corpus.paths else None


def _members_renamed_too(
    corpus: Corpus, old: str, edited: list[str], after: dict[str, str]
) -> tuple[tuple[str, int], ...]:
    """The uses ``x.old`` of a member of the same name that an edited file declares (mobx's
    ``IAtom.reportObserved()`` beside the function ``reportObserved``): the by-name rename
    renames the member's declaration too but not the uses through a receiver, so the change
    really breaks them, in every file."""
    declares = any(
        symbol.name == old
        and symbol.path in edited
        and (parent := corpus.symbols.get(symbol.parent)) is not None
        and parent.kind in ("class", "interface")
        for symbol in corpus.symbols.values()
    )
    if not declares:
        return ()
    use = re.compile(rf"\.\s*{re.escape(old)}(?![\w$])")
    found = []
    for path in corpus.paths:
        text = after.get(path)
        lines = text.splitlines() if text is not None else corpus.file(path).lines
        found += [(path, n) for n, line in enumerate(lines, 1) if use.search(line)]
    return tuple(found)


def _imported_through_forgotten(
    corpus: Corpus, old: str, forgotten: str, edited: list[str]
) -> tuple[tuple[str, int], ...]:
    """The import lines of edited files that take the renamed name from the forgotten file
    itself: a package ``__init__.py`` (or an ``index.ts``) that re-exports it. The diff renames
    them to the new name, which the forgotten file does not have, so they really break."""
    found = []
    for rel in edited:
        sf = corpus.file(rel)
        for imp in sf.facts.imports:
            if imp.name != old:  # at module level or in a function: renamed either way
                continue
            module = _imported_module(corpus, sf, imp.module, imp.level)
            if module is None and corpus.lang in ("typescript", "javascript"):
                module = _path_alias_file(corpus, imp.module)
            if module == forgotten:
                found.append((rel, imp.line))
    return tuple(found)


def _imported_unrenamed(
    corpus: Corpus, old: str, forgotten: str, edited: list[str]
) -> tuple[tuple[str, int], ...]:
    """The imports of the renamed name in files the diff leaves, besides the forgotten one (a
    re-export the index did not list as an importer: mobx's ``export { isFlow } from
    "./internal"``). The name means one thing at module level in the repository (the rename
    skips any other), so each one really breaks."""
    found = []
    for rel in corpus.paths:
        if rel in edited or rel == forgotten:
            continue
        for imp in corpus.file(rel).facts.imports:
            if imp.name == old:
                found.append((rel, imp.line))
    return tuple(found)


def _path_alias_file(corpus: Corpus, module: str) -> str | None:
    """The repository file a bare module specifier denotes through the root ``tsconfig.json``'s
    ``paths`` (jotai: ``"jotai/*": ["./src/*.ts"]``, so ``jotai/vanilla/utils`` is
    ``src/vanilla/utils.ts``); read here, apart from astrag's own resolver, to judge it."""
    for pattern, targets in _tsconfig_paths(corpus.root).items():
        head, star, tail = pattern.partition("*")
        if star and module.startswith(head) and module.endswith(tail):
            matched = module[len(head) : len(module) - len(tail)]
        elif not star and module == pattern:
            matched = ""
        else:
            continue
        for target in targets:
            stem = target.replace("*", matched)
            stem = re.sub(r"\.(js|ts|tsx|mjs|cjs)$", "", stem)
            for candidate in (f"{stem}.ts", f"{stem}.tsx", f"{stem}/index.ts"):
                if candidate in corpus.paths:
                    return candidate
    return None


@cache
def _tsconfig_paths(root: Path) -> dict[str, list[str]]:
    try:
        text = (root / "tsconfig.json").read_text("utf-8")
    except OSError:
        return {}
    text = re.sub(  # comments, not inside strings ("jotai/*")
        r'("(?:\\.|[^"\\])*")|/\*.*?\*/|//[^\n]*', lambda m: m.group(1) or "", text, flags=re.S
    )
    text = re.sub(r",(\s*[}\]])", r"\1", text)  # trailing commas
    try:
        options = json.loads(text).get("compilerOptions", {})
        paths, base = options.get("paths", {}), str(options.get("baseUrl", "."))
    except (ValueError, AttributeError):
        return {}
    if not isinstance(paths, dict):
        return {}
    return {
        k: [posixpath.normpath(posixpath.join(base, str(t))) for t in v]
        for k, v in paths.items()
        if isinstance(v, list)
    }


def _method_callers(corpus: Corpus) -> dict[str, list[tuple[str, int]]]:
    """Method of a closed class with a repository-unique name -> its call sites' (file, line)
    outside the class's own file."""
    counts: dict[str, int] = defaultdict(int)
    for symbol in corpus.symbols.values():
        if symbol.path:
            counts[symbol.name] += 1
    out: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for (path, line, _col), targets in corpus.calls.items():
        if len(set(targets)) != 1:
            continue
        symbol = corpus.symbols[targets[0]]
        if symbol.kind != "method" or symbol.parent not in corpus.closed_classes:
            continue
        if counts[symbol.name] == 1 and path != symbol.path and not symbol.name.startswith("_"):
            out[symbol.id].append((path, line))
    return out


def _resolved_lines(corpus: Corpus, target: str, path: str) -> set[int]:
    """Lines of ``path`` with a call the index resolves to ``target`` (and nothing else)."""
    return {
        line
        for (p, line, _col), targets in corpus.calls.items()
        if p == path and set(targets) == {target}
    }


def _method_rename(
    sf: SourceFile, old: str, new: str, lines: set[int], starts: set[int] | None = None
) -> list[str]:
    """``.old(`` renamed on the given call lines (the calls the index resolves to the
    method). In the class's own file (``starts``: the lines its definitions begin on, given
    there only) also the definition and every ``self.old(`` / ``cls.old(`` / ``this.old(``:
    the name is unique in the repository, so those are the method. Other ``x.old(`` there are
    left alone: ``x`` may be a ``str`` whose ``rstrip`` has nothing to do with the class's,
    and renaming it breaks what the refactor never touched; so is a free function of the
    name the file calls (oclif-core's ``wrap(...)`` of wrap-ansi beside
    ``HelpFormatter.wrap``): only the first ``old(`` at or after each definition's start (a
    decorator may come first) is the definition."""
    call = re.compile(rf"\.{re.escape(old)}(?=\s*\()")
    own = re.compile(rf"(?<![\w$.])(self|cls|this)\s*\.\s*{re.escape(old)}(?=\s*\()")
    definition = re.compile(rf"(?<![\w$.]){re.escape(old)}(?=\s*[(<])")
    pending = sorted(starts or ())
    out = []
    for number, line in enumerate(sf.lines, 1):
        if number in lines:
            line = call.sub(f".{new}", line)
        if starts is not None:
            line = own.sub(rf"\1.{new}", line)
            if pending and pending[0] <= number and definition.search(line):
                line = definition.sub(new, line, count=1)
                pending = [start for start in pending if start > number]
        out.append(line)
    return out


def method_refactor_cases(corpus: Corpus, rng: random.Random, quota: int) -> list[Case]:
    """A method renamed at its definition and every call but those of one file."""
    candidates: list[tuple[str, list[Edit]]] = []
    plans: dict[int, tuple[str, str, str, str, list[str], dict[str, set[int]]]] = {}
    for target, sites in sorted(_method_callers(corpus).items()):
        files = sorted({p for p, _ in sites})
        if len(files) < 2:
            continue
        symbol = corpus.symbols[target]
        new = pick_new_name(symbol.name, corpus, corpus.file(symbol.path), rng)
        if new is None or len(symbol.name) < 4:
            continue
        forgotten = rng.choice(files)
        line = min(line for p, line in sites if p == forgotten)
        note = f"rename method {symbol.qualname} -> {new} everywhere but {forgotten}"
        marker = Edit(forgotten, line, (), line, symbol.qualname, note)
        edited = [symbol.path, *(p for p in files if p != forgotten)]
        lines_of: dict[str, set[int]] = defaultdict(set)
        for p, n in sites:
            lines_of[p].add(n)
        plans[id(marker)] = (target, symbol.name, new, symbol.path, edited, lines_of)
        candidates.append(("rename-method", [marker]))
    cases = []
    for _variant, (marker,) in choose(candidates, quota, rng):
        target, old, new, home, edited, lines_of = plans[id(marker)]
        parts = []
        after: dict[str, list[str]] = {}
        for rel in edited:
            sf = corpus.file(rel)
            if not ends_with_newline(sf):
                break
            lines = _resolved_lines(corpus, target, rel) if rel == home else lines_of[rel]
            starts = _definition_starts(corpus, target) if rel == home else None
            changed = _method_rename(sf, old, new, lines, starts)
            if changed == sf.lines:
                break  # the definition or a call is not written as astrag expects: skip
            after[rel] = changed
            parts.append(make_diff(rel, sf.lines, changed))
        else:
            also = tuple(sorted(lines_of[marker.path]))
            case = _refactor_case(corpus, "rename-method", marker, parts, "unknown-member", also)
            left = _members_left(corpus, old, after)
            cases.append(dataclasses.replace(case, elsewhere=left))
    return cases


def _definition_starts(corpus: Corpus, target: str) -> set[int]:
    """The lines the method's definitions begin on in its file (a TS overload signature is a
    definition of its own)."""
    method = corpus.symbols[target]
    return {
        symbol.start_line
        for symbol in corpus.symbols.values()
        if symbol.path == method.path
        and symbol.parent == method.parent
        and symbol.name == method.name
    }


def _members_left(
    corpus: Corpus, old: str, after: dict[str, list[str]]
) -> tuple[tuple[str, int], ...]:
    """Every ``x.old`` the method rename leaves, anywhere in the repository after the diff
    (a read such as ``render_lines = console.render_lines``, a call the index did not resolve):
    the name is the method's alone in the repository, so a finding there that the member is
    missing is a break the change really made, not a false alarm."""
    member = re.compile(rf"\.\s*{re.escape(old)}(?![\w$])")
    left = []
    for path in corpus.paths:
        lines = after.get(path) or corpus.file(path).lines
        left += [(path, n) for n, text in enumerate(lines, 1) if member.search(text)]
    return tuple(sorted(left))


# ---------------------------------------------------------------------------- self-check


def self_check_cases(corpus: Corpus) -> list[Case]:
    """One negative per source file of the corpus: the whole file, unmodified."""
    tag = LANG_TAGS[corpus.lang]
    return [
        Case(
            id=f"{tag}/self-check/file/{sf.path}",
            lang=corpus.lang,
            category="self-check",
            variant="file",
            path=sf.path,
            text=sf.text,
            diff=False,
            note=f"unmodified {sf.path}",
        )
        for sf in corpus.files()
        if sf.text.strip()
    ]


# ---------------------------------------------------------------------------- all of them

FAMILIES = {
    "attribute-read": ("unknown-member", attribute_read_edits),
    "syntax-error": ("syntax-error", syntax_edits),
}


def family_cases(corpus: Corpus, *, seed: int = 0, per_category: int = 30) -> list[Case]:
    from checker_cases import _diff_case

    rng = random.Random(f"{seed}:{corpus.lang}:families")
    cases: list[Case] = []
    for family, (rule, generate) in FAMILIES.items():
        candidates = [(variant, [edit]) for variant, edit in generate(corpus, rng)]
        for variant, edits in choose(candidates, per_category, rng):
            case = _diff_case(corpus, family, variant, edits, rule)
            if case is not None:
                cases.append(case)
    half = (per_category + 1) // 2 if corpus.lang != "java" else per_category
    methods = method_refactor_cases(corpus, rng, half)
    if corpus.lang == "java":  # a class renamed without its file is another mistake
        return cases + methods
    return cases + methods + incomplete_refactor_cases(corpus, rng, per_category - len(methods))
