"""The Python room: ``.py`` and ``.pyi`` files (see ``astrag/lang/room.py`` for the layout)."""

from __future__ import annotations

from astrag.lang.python.extract import GRAMMARS, extract
from astrag.lang.python.modules import ROOM as NAME
from astrag.lang.python.modules import index_modules
from astrag.lang.python.semantics import SEMANTICS
from astrag.lang.room import Dialect, Room

_PY = Dialect("python", "python")

ROOM = Room(
    name=NAME,
    package=__name__,
    extensions={".py": _PY, ".pyi": _PY},
    grammars=GRAMMARS,
    extract=extract,
    semantics={"python": SEMANTICS},
    index_modules=index_modules,
    support_files={
        "test": (r"test_[^/]*\.pyi?", r"[^/]*_test\.py", r"conftest\.py"),  # pytest
        # pytest-benchmark and asv: bench_x.py, benchmarks.py, x_benchmark.py
        "bench": (r"(?:bench|benchmark)s?(?:[_.-][^/]*)?\.py", r"[^/]*_bench(?:mark)?s?\.py"),
        # a stub declares what its ``.py`` twin (or an extension module) implements
        "declaration": (r"[^/]*\.pyi",),
    },
)
