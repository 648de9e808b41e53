"""Where a TypeScript/JavaScript import points: module specifiers to indexed files.

Relative specifiers resolve like ``moduleResolution: bundler``: the exact file, the specifier
with a source extension added (``.js`` written in ESM TypeScript maps back to ``.ts``), then
``index.*`` inside a directory; ``tsconfig.json`` ``paths`` and ``baseUrl`` apply to bare
specifiers, then workspace packages by ``package.json`` name; anything else is an external
package.

Pure functions over the set of indexed paths plus a :class:`TsLayout` (what the project's
``tsconfig.json`` and ``package.json`` files say, read at the I/O edge by ``layout.py``).
Nothing here reads the disk.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from astrag.graph.modules import Modules

ROOM = "typescript"
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
class TsLayout:
    tsconfigs: tuple[TsConfig, ...] = ()
    # workspace package name -> (directory, entry candidates without extension)
    packages: tuple[tuple[str, str, tuple[str, ...]], ...] = ()


@dataclass(slots=True)
class TsModules:
    """What specifier resolution looks at: the indexed paths and the project's layout."""

    paths: frozenset[str]
    layout: TsLayout = field(default_factory=TsLayout)
    # (importer's directory, specifier) -> file: a barrel's `export *` specifiers are resolved
    # again for every name looked up through it (medusa: 346k resolutions, 25 s under a profiler)
    resolved: dict[tuple[str, str], str | None] = field(default_factory=dict)
    # (importer, specifier) -> file, in front of ``resolved``: the same answer without
    # splitting the importer's directory off its path again for every name looked up
    resolved_from: dict[tuple[str, str], str | None] = field(default_factory=dict)
    star_reach: dict[str, Any] = field(default_factory=dict)  # path -> semantics.StarReach


def index_modules(all_paths: frozenset[str], layout: TsLayout | None) -> TsModules:
    return TsModules(paths=all_paths, layout=layout or TsLayout())


def resolve_ts_module(modules: Modules, importer: str, spec: str) -> str | None:
    """The indexed file a specifier resolves to, or None when it is not in the repository.

    Only the importer's directory matters (relative specifiers start there, and the nearest
    tsconfig.json is found from there), so answers are kept per directory and specifier."""
    index: TsModules = modules.of(ROOM)
    by_file = (importer, spec)
    try:
        return index.resolved_from[by_file]
    except KeyError:
        pass
    key = (posixpath.dirname(importer), spec)
    try:
        found = index.resolved[key]
    except KeyError:
        found = index.resolved[key] = _resolve(index, key[0], spec)
    index.resolved_from[by_file] = found
    return found


def _resolve(index: TsModules, directory: str, spec: str) -> str | None:
    if spec.startswith("."):
        base = posixpath.normpath(posixpath.join(directory, spec))
        return _ts_file(index, base) or _package_directory_file(index, base)
    for target in _tsconfig_candidates(index, directory + "/", spec):
        found = _ts_file(index, target)
        if found:
            return found
    return _workspace_package_file(index, spec)


def _ts_file(index: TsModules, base: str) -> str | None:
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


def _nearest_tsconfig(index: TsModules, importer: str) -> TsConfig | None:
    best: TsConfig | None = None
    for config in index.layout.tsconfigs:
        inside = not config.dir or importer.startswith(config.dir + "/")
        if inside and (best is None or len(config.dir) > len(best.dir)):
            best = config
    return best


def _tsconfig_candidates(index: TsModules, importer: str, spec: str) -> list[str]:
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


def _entry_file(index: TsModules, directory: str, entries: tuple[str, ...]) -> str | None:
    for entry in entries:
        found = _ts_file(index, posixpath.normpath(posixpath.join(directory, entry)))
        if found:
            return found
    return None


def _package_directory_file(index: TsModules, base: str) -> str | None:
    """A relative specifier naming a package's directory (``require('..')`` in a package's
    tests): its package.json's entry, as Node and the compiler resolve it."""
    directory = "" if base == "." else base
    for _, package_dir, entries in index.layout.packages:
        if package_dir == directory:
            return _entry_file(index, package_dir, entries)
    return None


def _workspace_package_file(index: TsModules, spec: str) -> str | None:
    for name, directory, entries in index.layout.packages:
        if spec == name:
            found = _entry_file(index, directory, entries)
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
