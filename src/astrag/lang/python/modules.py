"""Where a Python import points: dotted module names to indexed files.

A file's dotted module name is its path from the nearest ancestor directory that is not a
package (has no ``__init__.py``), so ``src/pkg/sub/mod.py`` is ``pkg.sub.mod`` when ``src/pkg``
and ``src/pkg/sub`` are packages. Directories without ``__init__.py`` still work as namespace
packages. Relative imports climb from the importing file's package.

Pure functions over the set of indexed paths; nothing here reads the disk.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from astrag.graph.modules import Modules

ROOM = "python"


@dataclass(slots=True)
class PythonModules:
    """Lookup tables from dotted module names to indexed paths."""

    modules: dict[str, str] = field(default_factory=dict)  # dotted name -> path
    namespaces: set[str] = field(default_factory=set)  # dotted names of dirs w/o __init__
    module_of: dict[str, str] = field(default_factory=dict)  # path -> dotted name


def index_modules(all_paths: frozenset[str], layout: Any = None) -> PythonModules:
    index = PythonModules()
    # the Python files alone, sorted once: a TypeScript monorepo's 5.7k paths were each
    # split, tested and sorted twice for none (medusa: 5.8 ms of every resolution run)
    python = sorted(p for p in all_paths if p.endswith((".py", ".pyi")))
    packages = {
        posixpath.dirname(p)
        for p in python
        if posixpath.basename(p) in ("__init__.py", "__init__.pyi")
    }
    for path in python:
        name = _python_module_name(path, packages)
        # a .py beside a .pyi stub wins: it has the bodies
        if name not in index.modules or path.endswith(".py"):
            index.modules[name] = path
        index.module_of[path] = name
        _add_namespaces(index, name)
    for path in python:
        # the path from the root also imports, e.g. ``tests.helpers`` when ``tests/`` has no
        # ``__init__.py`` and the root is on sys.path (how pytest and scripts usually run)
        if "/" in path:
            stem = path.rsplit(".", 1)[0].removesuffix("/__init__")
            rooted = stem.replace("/", ".")
            if rooted not in index.modules:
                index.modules[rooted] = path
                _add_namespaces(index, rooted)
    return index


def _add_namespaces(index: PythonModules, name: str) -> None:
    parts = name.split(".")
    for i in range(1, len(parts)):
        index.namespaces.add(".".join(parts[:i]))


def _python_module_name(path: str, packages: set[str]) -> str:
    directory, filename = posixpath.split(path)
    stem = filename.rsplit(".", 1)[0]
    parts = [] if stem == "__init__" else [stem]
    while directory and directory in packages:
        directory, name = posixpath.split(directory)
        parts.insert(0, name)
    return ".".join(parts) if parts else posixpath.basename(posixpath.dirname(path))


def resolve_python_module(modules: Modules, importer: str, module: str, level: int) -> str | None:
    """The dotted module name an import refers to (None when it climbs above the root)."""
    if level == 0:
        return module
    package = modules.of(ROOM).module_of.get(importer, "")
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


def python_module_path(modules: Modules, dotted: str) -> str | None:
    return modules.of(ROOM).modules.get(dotted)


def is_python_namespace(modules: Modules, dotted: str) -> bool:
    index = modules.of(ROOM)
    return dotted in index.namespaces and dotted not in index.modules


def dotted_name_of(modules: Modules, path: str) -> str:
    return modules.of(ROOM).module_of.get(path, "")


def in_repository_package(modules: Modules, dotted: str) -> bool:
    """Whether a dotted module name lies inside one of the repository's packages (so a
    missing module there is an error, not an external package)."""
    index = modules.of(ROOM)
    top = dotted.partition(".")[0]
    return top in index.modules or top in index.namespaces
