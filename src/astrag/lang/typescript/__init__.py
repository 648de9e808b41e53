"""The TypeScript room, with JavaScript as its dialect (see ``astrag/lang/room.py``).

JavaScript shares TypeScript's frontend (its own grammar and query), its module resolution and
its semantics, except what "exported" means: one room, two :class:`LanguageSemantics`.
"""

from __future__ import annotations

from astrag.lang.room import Dialect, Room
from astrag.lang.typescript.extract import GRAMMARS, damaged_spans, extract
from astrag.lang.typescript.layout import read_layout
from astrag.lang.typescript.modules import ROOM as NAME
from astrag.lang.typescript.modules import index_modules
from astrag.lang.typescript.semantics import JAVASCRIPT, TYPESCRIPT

_TS = Dialect("typescript", "typescript")
_TSX = Dialect("typescript", "tsx")
_JS = Dialect("javascript", "javascript")

ROOM = Room(
    name=NAME,
    package=__name__,
    extensions={
        ".ts": _TS,
        ".mts": _TS,
        ".cts": _TS,
        ".tsx": _TSX,
        ".js": _JS,
        ".jsx": _JS,
        ".mjs": _JS,
        ".cjs": _JS,
    },
    grammars=GRAMMARS,
    extract=extract,
    semantics={"typescript": TYPESCRIPT, "javascript": JAVASCRIPT},
    index_modules=index_modules,
    read_layout=read_layout,
    damaged_spans=damaged_spans,
    support_files={
        # Jest, Mocha, Vitest, tsd / tstyche type tests: x.test.ts, x.spec.js, x.test-d.ts
        "test": (r"[^/]*[._-](?:test|spec|test-d|tst)\.[cm]?[jt]sx?",),
        "bench": (r"[^/]*[._-]bench\.[cm]?[jt]sx?",),  # Vitest's x.bench.ts
        "declaration": (r"[^/]*\.d\.[cm]?ts",),
    },
)
