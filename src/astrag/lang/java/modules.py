"""Where a Java name points: qualified names to indexed files, found from the paths alone.

Java puts class ``a.b.C`` in a file ``.../a/b/C.java`` under some source root (``src/main/java``,
``src/test/java``, ``src``, or the repository itself); the roots are not configured but found: a
qualified name resolves to the indexed file whose path *ends* in its parts, ``a/b/C.java``,
longest qualified prefix first (``a.b.C.Inner`` is member ``Inner`` of ``a/b/C.java``). Where
several files end so (a multi-module build with two copies), the one sharing the longest path
prefix with the importing file wins. A package is a directory: a file's own package is its
directory, so same-package classes are its siblings.

Pure functions over the set of indexed paths. Nothing here reads the disk.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from astrag.graph.modules import Modules

ROOM = "java"


@dataclass(slots=True)
class JavaModules:
    by_name: dict[str, list[str]] = field(default_factory=dict)  # "C" -> paths of C.java files
    # every package a qualified name may pass through, dotted: each run of directory names
    # above a source file (``a/b/C.java`` gives "a", "b", "a.b"), since roots are not known
    packages: frozenset[str] = frozenset()
    # (importer, on-demand import's dotted name) -> its parts, the file of the class it names
    # (``import a.b.C.*``; None for a package) and the file of its longest prefix that is a
    # class: found once per file and import, not once per name the import is asked for
    stars: dict[tuple[str, str], tuple[list[str], str | None, str | None]] = field(
        default_factory=dict
    )


def index_modules(all_paths: frozenset[str], layout: object) -> JavaModules:
    by_name: dict[str, list[str]] = {}
    directories: set[str] = set()
    for path in sorted(all_paths):
        if path.endswith(".java"):
            by_name.setdefault(posixpath.basename(path)[:-5], []).append(path)
            directories.add(posixpath.dirname(path))
    packages: set[str] = set()
    for directory in directories:
        parts = directory.split("/") if directory else []
        packages.update(".".join(parts[i:j]) for j in range(1, len(parts) + 1) for i in range(j))
    return JavaModules(by_name, frozenset(packages))


def is_package(modules: Modules, dotted: str) -> bool:
    """Whether a qualified name's prefix ``dotted`` may be a package of the repository."""
    return dotted in modules.of(ROOM).packages


def class_file(modules: Modules, importer: str, parts: list[str]) -> str | None:
    """The indexed file of the top-level class the qualified name ``parts`` names exactly."""
    if not parts:
        return None
    found = modules.of(ROOM).by_name.get(parts[-1])
    if not found:
        return None
    suffix = "/".join(parts) + ".java"
    matches = [p for p in found if p == suffix or p.endswith("/" + suffix)]
    if len(matches) > 1:
        return max(matches, key=lambda p: (len(posixpath.commonprefix([p, importer])), p))
    return matches[0] if matches else None


def longest_class_file(
    modules: Modules, importer: str, parts: list[str]
) -> tuple[str, list[str]] | None:
    """The file of the longest prefix of ``parts`` that is a top-level class, and the rest
    (``a.b.C.Inner.m`` -> ``(".../a/b/C.java", ["Inner", "m"])``)."""
    for k in range(len(parts), 0, -1):
        path = class_file(modules, importer, parts[:k])
        if path is not None:
            return path, parts[k:]
    return None


def star_import(
    modules: Modules, importer: str, dotted: str
) -> tuple[list[str], str | None, str | None]:
    """An on-demand import ``dotted.*`` of ``importer``: its parts, the file of the class it
    names exactly (None: a package), and the file of its longest prefix that is a class."""
    index: JavaModules = modules.of(ROOM)
    key = (importer, dotted)
    found = index.stars.get(key)
    if found is None:
        parts = dotted.split(".")
        longest = longest_class_file(modules, importer, parts)
        found = (parts, class_file(modules, importer, parts), longest[0] if longest else None)
        index.stars[key] = found
    return found


def has_class_named(modules: Modules, name: str) -> bool:
    """Whether any indexed file is named after a class ``name`` (``name.java``)."""
    return name in modules.of(ROOM).by_name


def sibling_class_file(modules: Modules, importer: str, name: str) -> str | None:
    """The file of class ``name`` in the importer's own package (its directory)."""
    found = modules.of(ROOM).by_name.get(name)
    if not found:
        return None
    directory = posixpath.dirname(importer)
    for path in found:
        if posixpath.dirname(path) == directory:
            return path
    return None
