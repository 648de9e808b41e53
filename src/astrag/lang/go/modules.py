"""Go packages: an import path to the directory of indexed files that is that package.

A package is a directory; its import path is the path of the nearest enclosing module
(``go.mod``'s ``module`` line) joined with the directory below the module's root. A ``replace``
of a module by a local directory (``=> ./api``) is followed. Files ending in ``_test.go`` belong
to their directory's package too, but no other package can import them.

Pure functions over the indexed paths and a :class:`GoLayout` (read by ``layout.py``).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from astrag.graph.modules import Modules

ROOM = "go"


@dataclass(frozen=True, slots=True)
class GoModule:
    dir: str  # repo-relative directory of the go.mod ("" for the root)
    path: str  # its module path
    replaces: tuple[tuple[str, str], ...] = ()  # (module path, repo-relative directory)


@dataclass(frozen=True, slots=True)
class GoLayout:
    modules: tuple[GoModule, ...] = ()


@dataclass(slots=True)
class GoModules:
    # directory -> its .go files, sorted; and the same without _test.go files
    files: dict[str, tuple[str, ...]] = field(default_factory=dict)
    library: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # module path or replaced module path -> repo-relative directory, longest first
    roots: tuple[tuple[str, str], ...] = ()
    # import path -> the module it lies in (None: outside every one), as found so far: one
    # import path is looked up for each file that imports it and each type it declares
    module_of: dict[str, tuple[str, str] | None] = field(default_factory=dict)


def is_test_file(path: str) -> bool:
    return path.endswith("_test.go")


def index_modules(all_paths: frozenset[str], layout: GoLayout | None) -> GoModules:
    files: dict[str, list[str]] = {}
    for path in all_paths:
        if path.endswith(".go"):
            files.setdefault(posixpath.dirname(path), []).append(path)
    roots: dict[str, str] = {}
    for module in (layout or GoLayout()).modules:
        roots.setdefault(module.path, module.dir)
        for old, target in module.replaces:
            roots.setdefault(old, target)
    return GoModules(
        files={d: tuple(sorted(fs)) for d, fs in files.items()},
        library={d: tuple(sorted(f for f in fs if not is_test_file(f))) for d, fs in files.items()},
        roots=tuple(sorted(roots.items(), key=lambda kv: -len(kv[0]))),
    )


def package_dir(modules: Modules, import_path: str) -> str | None:
    """The repository directory an import path names, or None when it names no package of
    indexed files (outside the repository's modules, or missing inside one)."""
    index: GoModules = modules.of(ROOM)
    module = _module_of(index, import_path)
    if module is None:
        return None
    module_path, root = module
    rest = import_path[len(module_path) + 1 :]
    d = posixpath.join(root, rest) if root and rest else root or rest
    return d if d in index.library else None


def in_repository_module(modules: Modules, import_path: str) -> bool:
    """Whether an import path lies inside one of the repository's modules."""
    return _module_of(modules.of(ROOM), import_path) is not None


def _module_of(index: GoModules, import_path: str) -> tuple[str, str] | None:
    try:
        return index.module_of[import_path]
    except KeyError:
        pass
    found = None
    for module_path, root in index.roots:
        if import_path == module_path or import_path.startswith(module_path + "/"):
            found = module_path, root
            break
    index.module_of[import_path] = found
    return found


def package_files(modules: Modules, d: str, tests: bool) -> tuple[str, ...]:
    """The files of the package in directory ``d`` (with its ``_test.go`` files or not)."""
    index: GoModules = modules.of(ROOM)
    return (index.files if tests else index.library).get(d, ())


def representative_file(modules: Modules, d: str) -> str | None:
    """The file an import of package ``d`` points at: the one named after the directory, else
    ``doc.go``, else the first file (imports edges need a node, and a package has none)."""
    files = package_files(modules, d, tests=False)
    if not files:
        return None
    base = posixpath.basename(d) if d else ""
    for name in (f"{base}.go", "doc.go"):
        candidate = posixpath.join(d, name) if d else name
        if candidate in files:
            return candidate
    return files[0]
