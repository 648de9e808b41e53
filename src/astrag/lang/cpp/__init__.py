"""The C++ room, at name level: ``.cc``/``.cpp``/``.cxx``/``.hpp``/``.hh``/``.hxx`` files
through the shared tags frontend (``astrag/lang/tags.py``); namespaces and classes contain their
members (``Shape::area`` defined outside the class too), ``this`` is the receiver and a bare
call of a member of the enclosing class is a call on ``this``. A ``.h`` header is read as C."""

from __future__ import annotations

import tree_sitter_cpp

from astrag.graph.semantics import Receiver
from astrag.lang.tags import TagsLanguage, name_level_room
from astrag.lang.tags_semantics import TagsSemantics
from astrag.lang.treesitter import Grammars

SPEC = TagsLanguage(
    language="cpp",
    package=__name__,
    grammars=Grammars({"cpp": tree_sitter_cpp.language}),
    implicit_receiver="this",
)
ROOM = name_level_room(
    SPEC,
    dict.fromkeys((".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++"), "cpp"),
    TagsSemantics(
        language="cpp",
        room="cpp",
        family=frozenset({"c", "cpp"}),
        receivers={"this": Receiver.INSTANCE},
    ),
    support_files={
        "test": (r"test_[^/]*\.(?:cc|cpp|cxx)", r"[^/]*_(?:test|unittest)\.(?:cc|cpp|cxx)")
    },
)
