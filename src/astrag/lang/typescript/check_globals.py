"""The globals a TypeScript file's program declares outside the repository's indexed files, as
the compiler assembles them: the libs its ``tsconfig.json`` names (``lib``, and ``/// <reference
lib>``), the type packages it names (``types``, or every installed ``@types`` package when it
names none, and ``/// <reference types>``), and the declaration files its files reference
(``/// <reference path>``). A package or file that is installed or on disk is read; a
well-known package that is not installed answers from the lists ``scripts/make_ts_globals.py``
generated from it (``ts_env_globals.txt``); anything else is unknown (``Globals.unread``), and
then a name nothing readable declares may still be global in that program: the checker
reports it as unverified (a warning), naming what it could not read.

The program of a file is the files under its nearest ``tsconfig.json`` (as an editor takes
it); without one, the files without one. A program whose configuration says nothing about type
packages, with nothing installed to read, may use any of the well-known ones.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from tree_sitter import Node

from astrag.lang import parser

# layout.py reads the options the same way for path aliases (it is private there because the
# resolver's fingerprint covers layout.py: a new public name would re-resolve every index)
from astrag.lang.typescript.layout import _compiler_options

_DIRECTIVE = re.compile(r"^\s*///\s*<reference\s+(path|types|lib)\s*=\s*[\"']([^\"']+)[\"']", re.M)
_HEAD_BYTES = 8192  # directives stand before the first statement
_MAX_BYTES = 4_000_000
_MAX_FILES = 400  # a package's declaration files followed through its references
_SCRIPT_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts")
_NAMED = frozenset(
    {"function_signature", "function_declaration", "class_declaration", "interface_declaration",
     "abstract_class_declaration", "type_alias_declaration", "enum_declaration",
     "internal_module", "module"}
)  # fmt: skip
_VARIABLES = frozenset({"lexical_declaration", "variable_declaration"})


@dataclass(frozen=True, slots=True)
class Globals:
    names: frozenset[str]
    # what the program uses that could not be read ("type package 'x'", "declaration file
    # 'a/b.d.ts'"): a name none of ``names`` declares may come from there
    unread: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.unread


# ------------------------------------------------------------------ what a .d.ts declares


def declared_globals(text: str) -> frozenset[str]:
    """The global names a declaration file declares: every top-level declaration of a script
    (no import or export), those inside ``declare global { }`` (also within ``declare module
    "x" { }``), and a UMD module's ``export as namespace X``."""
    root = parser("typescript").parse(text.encode("utf-8")).root_node
    names: set[str] = set()
    statements = root.named_children
    if not any(s.type in ("import_statement", "export_statement") for s in statements):
        for statement in statements:
            names.update(_statement_names(statement))
    for block in _global_blocks(root):
        for statement in block.named_children:
            names.update(_statement_names(statement))
    for statement in statements:
        if statement.type == "export_statement" and _child_types(statement)[:3] == [
            "export", "as", "namespace"
        ]:  # fmt: skip
            names.update(_text(c) for c in statement.named_children if c.type == "identifier")
    return frozenset(names)


def _statement_names(node: Node) -> Iterator[str]:
    if node.type in ("ambient_declaration", "expression_statement"):
        for child in node.named_children:
            if child.type != "statement_block":  # ``declare global { }``: read as a block
                yield from _statement_names(child)
    elif node.type in _NAMED:
        name = node.child_by_field_name("name")
        if name is not None and name.type != "string":  # ``declare module "x"``: no global
            yield _text(name)
    elif node.type in _VARIABLES:
        for declarator in node.named_children:
            name = declarator.child_by_field_name("name")
            if name is not None and name.type == "identifier":
                yield _text(name)


def _global_blocks(node: Node) -> Iterator[Node]:
    """The blocks of ``declare global { }`` and of ``global { }`` inside a module declaration
    (which tree-sitter reads as an error before a block)."""
    children = node.children
    for i, child in enumerate(children):
        if _text(child) == "global" and i + 1 < len(children):
            following = children[i + 1]
            if following.type == "statement_block":
                yield following
        if child.type in ("statement_block", "ambient_declaration", "module", "program"):
            yield from _global_blocks(child)


def _child_types(node: Node) -> list[str]:
    return [c.type for c in node.children]


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text else ""


def directives(text: str) -> list[tuple[str, str]]:
    """The ``/// <reference path|types|lib="..." />`` directives at the head of a file."""
    return _DIRECTIVE.findall(text[:_HEAD_BYTES])


# ------------------------------------------------------------------ packages and files


def file_globals(path: Path, memo: dict) -> tuple[frozenset[str], bool]:
    """A declaration file's globals and those of the files it references, as far as they go;
    False when one of them could not be read (kept in ``memo``)."""
    files: dict[Path, tuple[frozenset[str], bool]] = memo.setdefault("files", {})
    if path in files:
        return files[path]
    names: set[str] = set()
    complete = True
    todo, seen = [path], set()
    while todo and len(seen) < _MAX_FILES:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        text = _read(current)
        if text is None:
            complete = False
            continue
        names.update(declared_globals(text))
        for kind, value in directives(text):
            if kind == "path":
                todo.append((current.parent / value).resolve())
            elif kind == "types":
                entry = package_entry(current.parent, None, value)
                complete &= entry is not None
                todo += [entry] if entry is not None else []
    files[path] = frozenset(names), complete and not todo
    return files[path]


def _read(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_BYTES:
            return None
        return path.read_text("utf-8", errors="replace")
    except OSError:
        return None


def package_entry(directory: Path, root: Path | None, name: str) -> Path | None:
    """The declaration entry point of type package ``name`` (``node``, ``@types/node``,
    ``vitest/globals``) in the nearest ``node_modules`` at or above ``directory`` (not above
    ``root``): ``@types/<name>`` first, then the package itself."""
    name = name.removeprefix("@types/")
    if name.startswith("@"):
        scope, _, rest = name.partition("/")
        bare, _, sub = rest.partition("/")
        package, at_types = f"{scope}/{bare}", f"@types/{scope[1:]}__{bare}"
    else:
        package, _, sub = name.partition("/")
        at_types = f"@types/{package}"
    while True:
        modules = directory / "node_modules"
        if modules.is_dir():
            bases = [modules / package] if sub else [modules / at_types, modules / package]
            for base in bases:
                found = _entry_in(base, sub)
                if found is not None:
                    return found
        if directory == root or directory == directory.parent:
            return None
        directory = directory.parent


def _entry_in(base: Path, sub: str) -> Path | None:
    if sub:
        for candidate in (base / f"{sub}.d.ts", base / sub / "index.d.ts"):
            if candidate.is_file():
                return candidate
        return None
    try:
        meta = json.loads((base / "package.json").read_text("utf-8"))
    except (OSError, ValueError):
        meta = None
    entry = meta.get("types") or meta.get("typings") if isinstance(meta, dict) else None
    if isinstance(entry, str) and (base / entry).is_file():
        return base / entry
    return base / "index.d.ts" if (base / "index.d.ts").is_file() else None


def _installed_types(directory: Path, root: Path) -> set[str] | None:
    """The ``@types`` packages installed at or above ``directory`` (what the compiler includes
    when ``types`` is not set); None when no ``node_modules`` is there at all."""
    found: set[str] | None = None
    while True:
        modules = directory / "node_modules"
        if modules.is_dir():
            found = found or set()
            at_types = modules / "@types"
            if at_types.is_dir():
                found |= {p.name for p in at_types.iterdir() if p.is_dir()}
        if directory == root or directory == directory.parent:
            return found
        directory = directory.parent


# ------------------------------------------------------------------ the bundled lists


@cache
def bundled() -> dict[str, frozenset[str]]:
    """``ts_env_globals.txt``: section (``lib webworker``, ``types node``) -> its names."""
    sections: dict[str, set[str]] = {}
    current: set[str] | None = None
    text = resources.files(__package__).joinpath("ts_env_globals.txt").read_text("utf-8")
    for line in text.splitlines():
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], set())
        elif line and not line.startswith("#") and current is not None:
            current.add(line)
    return {k: frozenset(v) for k, v in sections.items()}


@cache
def _well_known_types() -> frozenset[str]:
    return frozenset().union(*(v for k, v in bundled().items() if k.startswith("types ")))


# ------------------------------------------------------------------ a file's program


@dataclass(frozen=True, slots=True)
class _Program:
    libs: frozenset[str]
    types: frozenset[str] | None  # ``types``; None: not set (the installed ones count)
    # what its files' directives add: type packages, declaration files (root-relative)
    referenced_types: frozenset[str]
    referenced: frozenset[str]


def governing_config(root: Path, path: str, memo: dict[str, str | None]) -> str | None:
    """The nearest ``tsconfig.json`` at or above ``path``'s directory (relative to the root)."""
    directory = posixpath.dirname(path)
    walked: list[str] = []
    found: str | None = None
    while True:
        if directory in memo:
            found = memo[directory]
            break
        walked.append(directory)
        candidate = posixpath.join(directory, "tsconfig.json") if directory else "tsconfig.json"
        if (root / candidate).is_file():
            found = candidate
            break
        if not directory:
            break
        directory = posixpath.dirname(directory)
    for d in walked:
        memo[d] = found
    return found


def _program(root: Path, config: str | None, members: Iterable[str]) -> _Program:
    """What the program of ``config`` takes in: its options, and the directives of its files
    (``members``: the indexed files it governs, their heads read from the disk)."""
    libs: set[str] = set()
    types: frozenset[str] | None = None
    if config is not None:
        options, _ = _compiler_options(root, config)
        if isinstance(options.get("lib"), list):
            libs.update(str(x).lower() for x in options["lib"])
        if isinstance(options.get("types"), list):
            types = frozenset(str(x) for x in options["types"])
    referenced_types: set[str] = set()
    referenced: set[str] = set()
    for member in members:
        for kind, value in directives(_head(root / member)):
            _take(kind, value, member, libs, referenced_types, referenced)
    return _Program(frozenset(libs), types, frozenset(referenced_types), frozenset(referenced))


def _take(
    kind: str, value: str, member: str, libs: set[str], types: set[str], paths: set[str]
) -> None:
    if kind == "lib":
        libs.add(value.lower())
    elif kind == "types":
        types.add(value)
    else:
        paths.add(posixpath.normpath(posixpath.join(posixpath.dirname(member), value)))


def _head(path: Path) -> str:
    try:
        with path.open("rb") as f:
            return f.read(_HEAD_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""


def program_globals(
    root: Path,
    path: str,
    text: str,
    indexed: Callable[[str], bool],
    paths: Iterable[str],
    memo: dict,
) -> Globals:
    """The globals ``path`` (now holding ``text``) may use beyond the default libs and the
    indexed script declarations; ``indexed``: whether the index holds a file, ``paths``: the
    indexed files; ``memo`` keeps what was read for the session."""
    configs: dict[str, str | None] = memo.setdefault("configs", {})
    config = governing_config(root, path, configs)
    programs: dict[str | None, _Program] = memo.setdefault("programs", {})
    if config not in programs:
        members = [
            p for p in paths if p.endswith(_SCRIPT_EXTENSIONS)
            and governing_config(root, p, configs) == config
        ]  # fmt: skip
        programs[config] = _program(root, config, members)
    program = programs[config]
    libs, types, referenced = (
        set(program.libs),
        set(program.referenced_types),
        set(program.referenced),
    )
    for kind, value in directives(text):  # the file's own, as the change leaves them
        _take(kind, value, path, libs, types, referenced)
    names: set[str] = set()
    for lib in libs:
        names |= bundled().get(f"lib {lib}", frozenset())
    directory = (root / path).parent
    if program.types is not None:
        types |= program.types
    else:
        installed = _installed_types(directory, root)
        if installed is None:
            names |= _well_known_types()  # nothing says which: any of the well-known ones
        types |= installed or set()
    unread: list[str] = []
    for name in sorted(types):
        found = _package_globals(directory, root, name, memo)
        if found is None:
            unread.append(f"type package {name!r}")
        names |= found or frozenset()
    for rel in sorted(referenced - {p for p in referenced if indexed(p)}):
        # a declaration file the index does not hold (left out, or outside the root)
        declared, whole = file_globals((root / rel).resolve(), memo)
        if not whole:
            unread.append(f"declaration file {rel!r}")
        names |= declared
    return Globals(frozenset(names), tuple(unread))


def _package_globals(directory: Path, root: Path, name: str, memo: dict) -> frozenset[str] | None:
    """A type package's globals: read where installed, else the bundled list; None: neither."""
    entry = package_entry(directory, root, name)
    if entry is not None:
        declared, whole = file_globals(entry.resolve(), memo)
        if whole:
            return declared
    return bundled().get("types " + name.removeprefix("@types/"))
