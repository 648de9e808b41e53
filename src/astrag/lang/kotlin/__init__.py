"""The Kotlin room, at name level: ``.kt`` and ``.kts`` files through the shared tags frontend
(``astrag/lang/tags.py``); classes, interfaces and objects contain their members (a companion
object's are its class's), ``this`` and ``super`` are the receivers and a bare call of a member
of the enclosing class is a call on ``this``; ``import a.b.C [as D]`` binds names, and a call
of a class's name is its construction (Kotlin writes no ``new``).

The grammar (tree-sitter-kotlin 1.1.0) reads a class body written on one line with a member in
it (``class A : B() { fun f() {} }``) as an error; multi-line bodies, the way Kotlin is
written, parse (2 of moshi's 86 files have an error)."""

from __future__ import annotations

import tree_sitter_kotlin

from astrag.graph.semantics import Receiver
from astrag.lang.tags import TagsLanguage, name_level_room
from astrag.lang.tags_semantics import TagsSemantics
from astrag.lang.treesitter import Grammars

SPEC = TagsLanguage(
    language="kotlin",
    package=__name__,
    grammars=Grammars({"kotlin": tree_sitter_kotlin.language}),
    implicit_receiver="this",
    body_types=frozenset({"function_body", "class_body", "enum_class_body"}),
)
ROOM = name_level_room(
    SPEC,
    {".kt": "kotlin", ".kts": "kotlin"},
    TagsSemantics(
        language="kotlin",
        room="kotlin",
        family=frozenset({"kotlin"}),
        receivers={"this": Receiver.INSTANCE, "super": Receiver.SUPER},
    ),
    support_files={"test": (r"[^/]*[A-Za-z0-9](?:Tests?|IT)\.kts?",)},  # JUnit, Kotest
)
