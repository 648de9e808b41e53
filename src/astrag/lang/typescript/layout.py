"""Read what ``tsconfig.json`` and ``package.json`` files say about module resolution.

This is the TypeScript room's I/O edge (``project_layout.py`` calls it): it finds the project's
tsconfig files (following ``extends`` within the repository) and workspace packages, and returns
pure data, a :class:`~astrag.lang.typescript.modules.TsLayout`. Broken or unreadable config
files are skipped: a bad tsconfig must not stop indexing, it only costs the path aliases it
would have provided.
"""

from __future__ import annotations

import json
import os
import posixpath
from collections.abc import Iterable
from pathlib import Path

from astrag import config_reads
from astrag.lang.typescript.modules import TsConfig, TsLayout

_SKIP_DIRS = frozenset({"node_modules", ".git", ".astrag", "dist", "build", "out", "coverage"})
_MAX_CONFIG_BYTES = 1_000_000


def strip_jsonc(text: str) -> str:
    """JSON with comments and trailing commas (what tsconfig allows) -> strict JSON."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "}]":
            k = len(out) - 1
            while k >= 0 and out[k].isspace():
                k -= 1
            if k >= 0 and out[k] == ",":
                del out[k]
            out.append(c)
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _read_json(path: Path) -> dict | None:
    try:
        text = config_reads.read_text(path, _MAX_CONFIG_BYTES)
        if text is None:
            return None
        try:
            data = json.loads(text)  # strict JSON, as package.json is: the same value, faster
        except ValueError:
            data = json.loads(strip_jsonc(text))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _source_dirs(paths: Iterable[str]) -> list[str]:
    """Every directory holding a source file, and their ancestors ("" is the root): the only
    places a tsconfig.json or package.json can say anything about those sources."""
    dirs = config_reads.source_dirs(paths)
    return sorted(d for d in dirs if not _SKIP_DIRS.intersection(d.split("/")))


def _config_files(root: Path, name: str, dirs: list[str]) -> list[str]:
    base = str(root)  # joined as text: a Path per directory cost more than the stat
    return [d for d in dirs if os.path.isfile(os.path.join(base, d, name))]


def _compiler_options(root: Path, rel_file: str, depth: int = 0) -> tuple[dict, str]:
    """compilerOptions merged along ``extends``, with the directory paths are relative to."""
    data = _read_json(root / rel_file) or {}
    directory = posixpath.dirname(rel_file)
    options = dict(data.get("compilerOptions") or {})
    base_dir = directory
    parent = data.get("extends")
    if isinstance(parent, str) and parent.startswith(".") and depth < 8:
        parent_file = posixpath.normpath(posixpath.join(directory, parent))
        if not parent_file.endswith(".json"):
            parent_file += ".json"
        inherited, inherited_dir = _compiler_options(root, parent_file, depth + 1)
        if "paths" not in options and "baseUrl" not in options:
            base_dir = inherited_dir
        options = {**inherited, **options}
    return options, base_dir


def read_tsconfig(root: Path, directory: str) -> TsConfig | None:
    rel_file = posixpath.join(directory, "tsconfig.json") if directory else "tsconfig.json"
    options, options_dir = _compiler_options(root, rel_file)
    base_url = options.get("baseUrl")
    paths = options.get("paths")
    if not isinstance(base_url, str) and not isinstance(paths, dict):
        return None
    base = posixpath.normpath(posixpath.join(options_dir, base_url or "."))
    base = "" if base == "." else base
    mapping: list[tuple[str, tuple[str, ...]]] = []
    if isinstance(paths, dict):
        for pattern, targets in paths.items():
            if isinstance(targets, list):
                strings = [t for t in targets if isinstance(t, str)]
                resolved = tuple(posixpath.normpath(posixpath.join(base, t)) for t in strings)
                mapping.append((pattern, resolved))
    return TsConfig(
        dir=directory,
        base_url=base if isinstance(base_url, str) else None,
        paths=tuple(mapping),
    )


def _package_entries(data: dict) -> tuple[str, ...]:
    entries: list[str] = []
    for key in ("source", "types", "typings", "module", "main"):
        value = data.get(key)
        if isinstance(value, str):
            stem = value.removeprefix("./")
            for ext in (".d.ts", ".ts", ".tsx", ".js", ".mjs", ".cjs"):
                stem = stem.removesuffix(ext)
            entries.append(stem)
            # built output usually mirrors the source tree
            for out_dir in ("dist/", "lib/", "build/", "out/"):
                if stem.startswith(out_dir):
                    entries.append("src/" + stem[len(out_dir) :])
    entries.extend(("src/index", "index"))
    return tuple(dict.fromkeys(entries))


def read_layout(root: Path, paths: Iterable[str]) -> TsLayout:
    """The module-resolution layout of the project at ``root`` whose sources are ``paths``."""
    dirs = _source_dirs(paths)
    tsconfigs = [
        c for d in _config_files(root, "tsconfig.json", dirs) if (c := read_tsconfig(root, d))
    ]
    packages: list[tuple[str, str, tuple[str, ...]]] = []
    for directory in _config_files(root, "package.json", dirs):
        data = _read_json(root / directory / "package.json")
        if data and isinstance(data.get("name"), str):
            # a workspace package is reached by its name (it is linked into node_modules);
            # the root only by relative paths (``require('..')``), and by its own name only
            # where Node's self-reference allows it: its package.json has ``exports``
            root_only = not directory and "exports" not in data
            name = "" if root_only else data["name"]
            packages.append((name, directory, _package_entries(data)))
    return TsLayout(tsconfigs=tuple(tsconfigs), packages=tuple(packages))
