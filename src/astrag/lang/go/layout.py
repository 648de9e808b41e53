"""Read what ``go.mod`` files say about packages: each module's path, and local ``replace``s.

The Go room's I/O edge (``project_layout.py`` calls it). Only the directories that hold indexed
``.go`` files and their ancestors are looked at, so nothing walks the whole tree. A broken or
unreadable ``go.mod`` is skipped: it costs the imports it would have resolved, nothing else.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from pathlib import Path

from astrag import config_reads
from astrag.lang.go.modules import GoLayout, GoModule

_MAX_GOMOD_BYTES = 1_000_000
_MODULE = re.compile(r"^\s*module\s+(\S+)", re.MULTILINE)
# ``replace old [v] => ./dir`` as one line or inside a ``replace ( ... )`` block; only
# replacements by a local directory are static facts of the repository
_REPLACE = re.compile(r"^\s*(?:replace\s+)?(\S+)(?:\s+\S+)?\s*=>\s*(\.\.?/\S*|\.\.?)\s*$", re.M)


def read_layout(root: Path, paths: Iterable[str]) -> GoLayout:
    dirs: set[str] = set()
    for path in paths:
        if not path.endswith(".go"):
            continue
        d = posixpath.dirname(path)
        while d not in dirs:
            dirs.add(d)
            if not d:
                break
            d = posixpath.dirname(d)
    modules = []
    for d in sorted(dirs):
        module = _read_gomod(root / d / "go.mod" if d else root / "go.mod", d)
        if module is not None:
            modules.append(module)
    return GoLayout(modules=tuple(modules))


def _read_gomod(path: Path, d: str) -> GoModule | None:
    try:
        if not path.is_file():
            return None  # its directory holds a source file: one appearing changes its mtime
        text = config_reads.read_text(path, _MAX_GOMOD_BYTES)
        if text is None:
            return None
    except OSError:
        return None
    text = re.sub(r"//.*", "", text)
    found = _MODULE.search(text)
    if found is None:
        return None
    replaces = []
    for old, target in _REPLACE.findall(text):
        joined = posixpath.normpath(posixpath.join(d, target)) if d else posixpath.normpath(target)
        if joined.startswith(".."):
            continue  # outside the repository
        replaces.append((old.strip('"'), "" if joined == "." else joined))
    return GoModule(dir=d, path=found.group(1).strip('"'), replaces=tuple(replaces))
