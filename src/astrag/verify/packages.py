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
