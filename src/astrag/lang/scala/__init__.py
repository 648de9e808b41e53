"""The Scala room, at name level: ``.scala`` and ``.sc`` files through the shared tags frontend
(``astrag/lang/tags.py``); classes, traits and objects contain their members, ``this`` and
``super`` are the receivers and a bare call of a member of the enclosing type is a call on
``this``; ``import a.b.{C, D}`` binds names."""

from __future__ import annotations

import tree_sitter_scala

from astrag.graph.semantics import Receiver
from astrag.lang.tags import TagsLanguage, name_level_room
from astrag.lang.tags_semantics import TagsSemantics
from astrag.lang.treesitter import Grammars

SPEC = TagsLanguage(
    language="scala",
    package=__name__,
    grammars=Grammars({"scala": tree_sitter_scala.language}),
    implicit_receiver="this",
)
ROOM = name_level_room(
    SPEC,
    {".scala": "scala", ".sc": "scala"},
    TagsSemantics(
        language="scala",
        room="scala",
        family=frozenset({"scala"}),
        receivers={"this": Receiver.INSTANCE, "super": Receiver.SUPER},
    ),
    support_files={"test": (r"[^/]*[A-Za-z0-9](?:Spec|Suite|Tests?)\.scala",)},  # ScalaTest, MUnit
)
