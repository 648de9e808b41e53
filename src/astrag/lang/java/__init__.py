"""The Java room: ``.java`` files (see ``astrag/lang/room.py`` for the layout)."""

from __future__ import annotations

from astrag.lang.java.extract import GRAMMARS, extract
from astrag.lang.java.modules import ROOM as NAME
from astrag.lang.java.modules import index_modules
from astrag.lang.java.semantics import SEMANTICS
from astrag.lang.room import Dialect, Room

ROOM = Room(
    name=NAME,
    package=__name__,
    extensions={".java": Dialect("java", "java")},
    grammars=GRAMMARS,
    extract=extract,
    semantics={"java": SEMANTICS},
    index_modules=index_modules,
    support_files={"test": (r"[^/]*[A-Za-z0-9](?:Tests?|IT)\.java",)},  # JUnit, Failsafe
)
