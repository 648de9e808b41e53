"""The Swift room, at name level: ``.swift`` files through the shared tags frontend
(``astrag/lang/tags.py``); classes, structs, enums and protocols contain their members (an
``extension``'s too), ``self`` and ``super`` are the receivers and a bare call of a member of
the enclosing type is a call on ``self``; ``Greeter(name:)`` is a call of the type."""

from __future__ import annotations

import tree_sitter_swift

from astrag.graph.semantics import Receiver
from astrag.lang.tags import TagsLanguage, name_level_room
from astrag.lang.tags_semantics import TagsSemantics
from astrag.lang.treesitter import Grammars

SPEC = TagsLanguage(
    language="swift",
    package=__name__,
    grammars=Grammars({"swift": tree_sitter_swift.language}),
    implicit_receiver="self",
)
ROOM = name_level_room(
    SPEC,
    {".swift": "swift"},
    TagsSemantics(
        language="swift",
        room="swift",
        family=frozenset({"swift"}),
        receivers={"self": Receiver.INSTANCE, "super": Receiver.SUPER},
    ),
    support_files={"test": (r"[^/]*[A-Za-z0-9]Tests?\.swift",)},  # XCTest
)
