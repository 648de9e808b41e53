"""The Go room: ``.go`` files, packages under ``go.mod`` (see ``astrag/lang/room.py``)."""

from __future__ import annotations

from astrag.lang.go.extract import GRAMMARS, extract
from astrag.lang.go.layout import read_layout
from astrag.lang.go.modules import ROOM as NAME
from astrag.lang.go.modules import index_modules
from astrag.lang.go.semantics import SEMANTICS
from astrag.lang.room import Dialect, Room

ROOM = Room(
    name=NAME,
    package=__name__,
    extensions={".go": Dialect("go", "go")},
    grammars=GRAMMARS,
    extract=extract,
    semantics={"go": SEMANTICS},
    index_modules=index_modules,
    read_layout=read_layout,
    support_files={"test": (r"[^/]*_test\.go",)},  # go test
    # "bind request body to struct": the reader's struct, not every ``type X struct``
    kind_words=frozenset({"struct", "structs", "func", "funcs"}),
)
