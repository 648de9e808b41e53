"""What the Python standard library and installed packages define, for the checker's Python
rules: a standard-library module or class is looked up on the real module (imported: the
standard library is safe to import, bar a few modules that act when imported); an installed
third-party module is read statically (``verify/packages.py``), never imported.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable, Iterable
from types import GetSetDescriptorType, MemberDescriptorType, ModuleType

from astrag.graph.facts import Import, Reference
from astrag.verify.findings import Finding
from astrag.verify.inputs import ChangedFile
from astrag.verify.packages import module_names

# (change, line, column, rule, message, name, candidates) -> a finding with suggestions
FindingMaker = Callable[[ChangedFile, int, int, str, str, str, Iterable[str]], Finding]
# standard-library modules whose attributes differ by platform (``sys.getwindowsversion``)
_PLATFORM_DEPENDENT = frozenset(
    {"sys", "os", "signal", "time", "socket", "select", "errno", "mmap", "resource", "posix",
     "nt", "msvcrt", "winreg", "ctypes", "termios", "fcntl", "pwd", "grp"}
)  # fmt: skip

ABSTRACT_MODULES = ("collections.abc.", "abc.", "numbers.")
_DESCRIPTORS = (GetSetDescriptorType, MemberDescriptorType, property)
# standard-library modules that do something when imported
_IMPORT_SIDE_EFFECTS = frozenset({"antigravity", "this", "idlelib", "turtle", "turtledemo"})


def _stdlib_object(dotted: str) -> tuple[object | None, str, list[str]]:
    """Import the longest standard-library module prefix of ``dotted``; the module, its name
    and the attribute path left after it."""
    parts = dotted.split(".")
    if parts[0] not in sys.stdlib_module_names or parts[0] in _IMPORT_SIDE_EFFECTS:
        return None, "", []
    for cut in range(len(parts) - 1, 0, -1):
        name = ".".join(parts[:cut])
        try:
            return importlib.import_module(name), name, parts[cut:]
        except ImportError:
            continue
    return None, "", []


def stdlib_missing_attribute(dotted: str) -> tuple[str | None, str | None]:
    """For a dotted name under a standard-library module whose *last* part is missing: the
    object that lacks it and the name; (None, None) when it exists or cannot be known
    (an intermediate attribute missing may be an instance attribute; a function's result is
    of unknown type; ``typing`` names are not runtime classes)."""
    obj, owner, rest = _stdlib_object(dotted)
    if obj is None or owner.partition(".")[0] in ("typing", "typing_extensions"):
        return None, None
    if owner in _PLATFORM_DEPENDENT:
        return None, None
    for i, part in enumerate(rest):
        called = part.endswith("()")
        attribute = part.removesuffix("()")
        if i < len(rest) - 1 and attribute.startswith("__") and attribute.endswith("__"):
            return None, None  # ``x.__class__``, ``x.__dict__``: the class's differ from x's
        # a module that answers any name (PEP 562); its own names are what they are
        # (``unittest.TestCase``: ``unittest`` answers others lazily)
        lazy = isinstance(obj, ModuleType) and "__getattr__" in vars(obj)
        if lazy and attribute not in vars(obj):
            return None, None
        if obj is ModuleType:
            return None, None  # a module object (``isinstance(m, ModuleType)``): its names
        if isinstance(obj, type) and hasattr(obj, "__getattr__"):
            return None, None  # so do its instances
        if not hasattr(obj, attribute):
            if isinstance(obj, ModuleType) and _submodule_exists(f"{owner}.{attribute}"):
                return None, None  # a submodule not imported yet (``ctypes.wintypes``)
            if isinstance(obj, ModuleType) and _source_names(obj, attribute):
                return None, None  # defined on another platform (``subprocess.STARTUPINFO``)
            return (owner, attribute) if i == len(rest) - 1 and not called else (None, None)
        obj = getattr(obj, attribute)
        owner = f"{owner}.{attribute}"
        if called and obj is type:
            return None, None  # ``type(x)``: the class of x, whatever it is
        if called and not isinstance(obj, type):
            return None, None  # the result of a function: its type is not known
        if called and i < len(rest) - 1 and _abstract(obj):
            return None, None  # an instance of some concrete subclass (``isinstance(x, Mapping)``)
        if isinstance(obj, _DESCRIPTORS):
            return None, None  # an instance attribute (``datetime.tzinfo``): its value unknown
    return None, None


def _source_names(module: ModuleType, name: str) -> bool:
    """Whether the module's own Python source names ``name`` as a whole word: a name it binds
    only on some platforms (``if _mswindows: from _winapi import CREATE_NO_WINDOW``)."""
    path = getattr(module, "__file__", None)
    if not path or not path.endswith(".py"):
        return False
    try:
        with open(path, encoding="utf-8") as source:
            text = source.read()
    except (OSError, UnicodeDecodeError):
        return False
    return re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text) is not None


def _abstract(cls: object) -> bool:
    module = getattr(cls, "__module__", "")
    return inspect.isabstract(cls) or module in ("collections.abc", "_collections_abc", "numbers")


def stdlib_attributes(owner: str) -> list[str]:
    obj, _, rest = _stdlib_object(owner + ".x")
    for attribute in rest[:-1]:
        obj = getattr(obj, attribute, None)
    return [a for a in dir(obj) if not a.startswith("_")] if obj is not None else []


def installed_import(
    change: ChangedFile, imp: Import, dotted: str, finding: FindingMaker
) -> list[Finding]:
    """``from pkg.mod import name`` of an installed package that, read statically, has no
    such name."""
    if imp.name is None:
        return []
    if dotted.partition(".")[0] in sys.stdlib_module_names:
        owner, missing = stdlib_missing_attribute(f"{dotted}.{imp.name}")
        if missing is None:
            return []
        message = f"cannot import {imp.name} from {owner}: no such name"
        candidates = stdlib_attributes(owner)
        return [finding(change, imp.line, 1, "unknown-import", message, missing, candidates)]
    names = module_names(dotted)
    if names is None or imp.name in names:
        return []
    message = f"cannot import {dotted}.{imp.name}: the installed module defines no such name"
    return [finding(change, imp.line, 1, "unknown-import", message, imp.name, names)]


def installed_call(
    change: ChangedFile, ref: Reference, dotted: str, finding: FindingMaker
) -> list[Finding]:
    """``pkg.func()`` on an installed module (not a class, not a call's result)."""
    module, _, name = dotted.rpartition(".")
    if "()" in dotted or not module:
        return []
    names = module_names(module)
    if names is None or name in names:
        return []
    message = f"the installed module {module} has no attribute {name!r}"
    return [finding(change, ref.line, ref.column, "unknown-member", message, name, names)]


def _submodule_exists(dotted: str) -> bool:
    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError):
        return False
