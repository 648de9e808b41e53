"""What installed third-party Python modules define, read statically: their files are found on
``sys.path`` and parsed by astrag's own frontend; nothing is imported (importing a package can
run arbitrary code). A module whose names cannot all be seen — a PEP 562 ``__getattr__``, a
star import, an extension module without a ``.pyi`` stub — answers "unknown".
"""

from __future__ import annotations

import sys
from functools import cache
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from astrag.lang import extract_facts
from astrag.lang.typescript.modules import package_name

_MAX_BYTES = 2_000_000


@cache
def module_file(dotted: str) -> Path | None:
    """The source (or stub) file of an installed module, found without importing anything;
    a package's ``__init__``. None when it is not installed as Python source."""
    parts = dotted.split(".")
    for entry in sys.path:
        base = Path(entry or ".")
        found = _find(base, parts)
        if found is not None:
            return found
    return None


def _find(base: Path, parts: list[str]) -> Path | None:
    directory = base.joinpath(*parts[:-1])
    leaf = parts[-1]
    for candidate in (
        directory / leaf / "__init__.pyi",
        directory / leaf / "__init__.py",
        directory / f"{leaf}.pyi",
        directory / f"{leaf}.py",
    ):
        if candidate.is_file():
            return candidate
    return None


def _is_extension(dotted: str) -> bool:
    parts = dotted.split(".")
    for entry in sys.path:
        directory = Path(entry or ".").joinpath(*parts[:-1])
        if any((directory / f"{parts[-1]}{suffix}").exists() for suffix in EXTENSION_SUFFIXES):
            return True
    return False


@cache
def module_names(dotted: str) -> frozenset[str] | None:
    """Every name the module defines or imports at top level, plus its submodules; None when
    that cannot be known statically."""
    if dotted.split(".")[0] in sys.stdlib_module_names or _is_extension(dotted):
        return None
    path = module_file(dotted)
    if path is None:
        return None
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        facts = extract_facts(path.name, path.read_bytes())
    except (OSError, ValueError):
        return None
    top = {d.name for d in facts.definitions if d.parent == ""}
    if "__getattr__" in top or any(i.name == "*" and i.scope == "" for i in facts.imports):
        return None
    names = top | {i.alias for i in facts.imports if i.scope == "" and i.alias}
    names |= set(facts.all_names or ())
    if path.stem == "__init__":
        names |= {
            p.stem if p.is_file() else p.name
            for p in path.parent.iterdir()
            if (p.suffix in (".py", ".pyi") and p.stem != "__init__")
            or (p.is_dir() and (p / "__init__.py").exists())
        }
    return frozenset(names)


# ------------------------------------------------------------------ npm packages


def ts_package_exports(root: Path, importer: str, spec: str) -> frozenset[str] | None:
    """The names an npm package's type declarations export, read from ``node_modules`` (the
    nearest one above the importing file); None when absent or not statically clear (``export
    =``, ``declare module``, a re-export from another package)."""
    name = package_name(spec)
    if name != spec:
        return None  # a subpath import: entry points vary too much to judge
    directory = (root / importer).parent
    while True:
        package = directory / "node_modules" / name
        if (package / "package.json").is_file():
            return _declared_exports(package)
        if directory == root or directory == directory.parent:
            return None
        directory = directory.parent


@cache
def _declared_exports(package: Path) -> frozenset[str] | None:
    import json

    try:
        meta = json.loads((package / "package.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    entry = meta.get("types") or meta.get("typings") if isinstance(meta, dict) else None
    if not isinstance(entry, str):
        entry = "index.d.ts" if (package / "index.d.ts").is_file() else None
    if entry is None:
        return None
    return _dts_exports(package / entry, depth=0)


def _dts_exports(path: Path, depth: int) -> frozenset[str] | None:
    if depth > 8 or not path.is_file() or path.stat().st_size > _MAX_BYTES:
        return None
    text = path.read_bytes()
    if b"export =" in text or b"declare module" in text or b"declare global" in text:
        return None
    facts = extract_facts(path.name.replace(".d.ts", ".ts"), text)
    names = {d.name for d in facts.definitions if d.parent == "" and d.exported}
    names |= {exported for _, exported in facts.exports}
    for imp in facts.imports:
        if not imp.reexport:
            continue
        if imp.name == "*" and not imp.alias:
            if not imp.module.startswith("."):
                return None
            target = _dts_file(path.parent / imp.module)
            inner = _dts_exports(target, depth + 1) if target else None
            if inner is None:
                return None
            names |= inner
        else:
            names.add(imp.alias or imp.name or "")
    return frozenset(n for n in names if n)


def _dts_file(base: Path) -> Path | None:
    for candidate in (
        base.with_name(base.name + ".d.ts"),
        base / "index.d.ts",
        base.with_suffix(".d.ts"),
    ):
        if candidate.is_file():
            return candidate
    return None
