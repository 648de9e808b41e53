"""Where an import points: module specifiers to indexed files, for Python and TypeScript/JS.

Pure functions over the set of indexed paths plus a :class:`ProjectLayout` (what the project's
``tsconfig.json`` and ``package.json`` files say, read at the I/O edge by ``layout_io``).
Nothing here reads the disk.

Python: a file's dotted module name is its path from the nearest ancestor directory that is not
a package (has no ``__init__.py``), so ``src/pkg/sub/mod.py`` is ``pkg.sub.mod`` when ``src/pkg``
and ``src/pkg/sub`` are packages. Directories without ``__init__.py`` still work as namespace
packages. Relative imports climb from the importing file's package.

TypeScript/JavaScript: relative specifiers resolve like ``moduleResolution: bundler``: the exact
file, the specifier with a source extension added (``.js`` written in ESM TypeScript maps back to
``.ts``), then ``index.*`` inside a directory; ``tsconfig.json`` ``paths`` and ``baseUrl`` apply
to bare specifiers, then workspace packages by ``package.json`` name; anything else is an
external package.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field

TS_EXTENSIONS = (".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_JS_TO_TS = {
    ".js": (".ts", ".tsx", ".d.ts"),
    ".jsx": (".tsx",),
    ".mjs": (".mts", ".d.mts"),
    ".cjs": (".cts", ".d.cts"),
}


@dataclass(frozen=True, slots=True)
class TsConfig:
    """The module-resolution part of one tsconfig.json (after following ``extends``)."""

    dir: str  # repo-relative directory of the tsconfig.json ("" for the root)
    base_url: str | None = None  # repo-relative, resolved against ``dir``
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()  # pattern -> targets (repo-relative)


@dataclass(frozen=True, slots=True)
class ProjectLayout:
    tsconfigs: tuple[TsConfig, ...] = ()
    # workspace package name -> (directory, entry candidates without extension)
    packages: tuple[tuple[str, str, tuple[str, ...]], ...] = ()


@dataclass(slots=True)
class ModuleIndex:
    """Lookup tables from module names and specifiers to indexed paths."""

    paths: frozenset[str]
    py_modules: dict[str, str] = field(default_factory=dict)  # dotted name -> path
    py_namespaces: set[str] = field(default_factory=set)  # dotted names of dirs w/o __init__
    py_module_of: dict[str, str] = field(default_factory=dict)  # path -> dotted name
    layout: ProjectLayout = field(default_factory=ProjectLayout)


def build_module_index(paths: Iterable[str], layout: ProjectLayout | None = None) -> ModuleIndex:
    all_paths = frozenset(paths)
    index = ModuleIndex(paths=all_paths, layout=layout or ProjectLayout())
    packages = {
        posixpath.dirname(p)
        for p in all_paths
        if posixpath.basename(p) in ("__init__.py", "__init__.pyi")
    }
    for path in sorted(all_paths):
        if not path.endswith((".py", ".pyi")):
            continue
        name = _python_module_name(path, packages)
        # a .py beside a .pyi stub wins: it has the bodies
        if name not in index.py_modules or path.endswith(".py"):
            index.py_modules[name] = path
        index.py_module_of[path] = name
        _add_namespaces(index, name)
    for path in sorted(all_paths):
        # the path from the root also imports, e.g. ``tests.helpers`` when ``tests/`` has no
        # ``__init__.py`` and the root is on sys.path (how pytest and scripts usually run)
        if path.endswith((".py", ".pyi")) and "/" in path:
            stem = path.rsplit(".", 1)[0].removesuffix("/__init__")
            rooted = stem.replace("/", ".")
            if rooted not in index.py_modules:
                index.py_modules[rooted] = path
                _add_namespaces(index, rooted)
    return index


def _add_namespaces(index: ModuleIndex, name: str) -> None:
    parts = name.split(".")
    for i in range(1, len(parts)):
        index.py_namespaces.add(".".join(parts[:i]))


def _python_module_name(path: str, packages: set[str]) -> str:
    directory, filename = posixpath.split(path)
    stem = filename.rsplit(".", 1)[0]
    parts = [] if stem == "__init__" else [stem]
    while directory and directory in packages:
        directory, name = posixpath.split(directory)
        parts.insert(0, name)
    return ".".join(parts) if parts else posixpath.basename(posixpath.dirname(path))


def resolve_python_module(index: ModuleIndex, importer: str, module: str, level: int) -> str | None:
    """The dotted module name an import refers to (None when it climbs above the root)."""
    if level == 0:
        return module
    package = index.py_module_of.get(importer, "")
    parts = package.split(".") if package else []
    if not importer.endswith(("__init__.py", "__init__.pyi")) and parts:
        parts = parts[:-1]
    if level - 1 > len(parts):
        return None
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    if module:
        parts = [*parts, *module.split(".")]
    return ".".join(parts)


def python_module_path(index: ModuleIndex, dotted: str) -> str | None:
    return index.py_modules.get(dotted)


def is_python_namespace(index: ModuleIndex, dotted: str) -> bool:
    return dotted in index.py_namespaces and dotted not in index.py_modules


# ------------------------------------------------------------------------------ TypeScript


def resolve_ts_module(index: ModuleIndex, importer: str, spec: str) -> str | None:
    """The indexed file a specifier resolves to, or None when it is not in the repository."""
    if spec.startswith("."):
        base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec))
        return _ts_file(index, base)
    for target in _tsconfig_candidates(index, importer, spec):
        found = _ts_file(index, target)
        if found:
            return found
    return _workspace_package_file(index, spec)


def _ts_file(index: ModuleIndex, base: str) -> str | None:
    base = base.lstrip("/") if base != "." else ""
    paths = index.paths
    if base in paths:
        return base
    stem, ext = posixpath.splitext(base)
    for replacement in _JS_TO_TS.get(ext, ()):
        if stem + replacement in paths:
            return stem + replacement
    for ext in TS_EXTENSIONS:
        if base + ext in paths:
            return base + ext
    prefix = f"{base}/index" if base else "index"
    for ext in TS_EXTENSIONS:
        if prefix + ext in paths:
            return prefix + ext
    return None


def _nearest_tsconfig(index: ModuleIndex, importer: str) -> TsConfig | None:
    best: TsConfig | None = None
    for config in index.layout.tsconfigs:
        inside = not config.dir or importer.startswith(config.dir + "/")
        if inside and (best is None or len(config.dir) > len(best.dir)):
            best = config
    return best


def _tsconfig_candidates(index: ModuleIndex, importer: str, spec: str) -> list[str]:
    config = _nearest_tsconfig(index, importer)
    if config is None:
        return []
    candidates: list[str] = []
    for pattern, targets in config.paths:
        star = _match_path_pattern(pattern, spec)
        if star is None:
            continue
        candidates.extend(posixpath.normpath(t.replace("*", star, 1)) for t in targets)
    if config.base_url is not None:
        candidates.append(posixpath.normpath(posixpath.join(config.base_url, spec)))
    return candidates


def _match_path_pattern(pattern: str, spec: str) -> str | None:
    if "*" not in pattern:
        return "" if pattern == spec else None
    prefix, suffix = pattern.split("*", 1)
    if spec.startswith(prefix) and spec.endswith(suffix) and len(spec) >= len(prefix + suffix):
        return spec[len(prefix) : len(spec) - len(suffix)]
    return None


def _workspace_package_file(index: ModuleIndex, spec: str) -> str | None:
    for name, directory, entries in index.layout.packages:
        if spec == name:
            for entry in entries:
                found = _ts_file(index, posixpath.normpath(posixpath.join(directory, entry)))
                if found:
                    return found
        elif spec.startswith(name + "/"):
            rest = spec[len(name) + 1 :]
            for sub in (rest, f"src/{rest}"):
                found = _ts_file(index, posixpath.normpath(posixpath.join(directory, sub)))
                if found:
                    return found
    return None


def package_name(spec: str) -> str:
    """The npm package a bare specifier belongs to (``@scope/pkg/sub`` -> ``@scope/pkg``)."""
    parts = spec.split("/")
    return "/".join(parts[:2]) if spec.startswith("@") else parts[0]
