"""The C# room, at name level: ``.cs`` files through the shared tags frontend
(``astrag/lang/tags.py``); namespaces and types contain their members, ``this`` and ``base``
are the receivers and a bare call of a member of the enclosing class is a call on ``this``."""

from __future__ import annotations

import tree_sitter_c_sharp

from astrag.graph.semantics import Receiver
from astrag.lang.tags import TagsLanguage, name_level_room
from astrag.lang.tags_semantics import TagsSemantics
from astrag.lang.treesitter import Grammars

SPEC = TagsLanguage(
    language="csharp",
    package=__name__,
    grammars=Grammars({"csharp": tree_sitter_c_sharp.language}),
    implicit_receiver="this",
)
ROOM = name_level_room(
    SPEC,
    {".cs": "csharp"},
    TagsSemantics(
        language="csharp",
        room="csharp",
        family=frozenset({"csharp"}),
        receivers={"this": Receiver.INSTANCE, "base": Receiver.SUPER},
    ),
    support_files={"test": (r"[^/]*[A-Za-z0-9]Tests?\.cs",)},  # xUnit, NUnit
)
