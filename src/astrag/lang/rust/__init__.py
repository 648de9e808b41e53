"""The Rust room, at name level: ``.rs`` files through the shared tags frontend
(``astrag/lang/tags.py``); ``self`` and ``Self`` are the receivers, ``impl`` blocks give types
their methods, ``use`` binds names."""

from __future__ import annotations

import tree_sitter_rust

from astrag.graph.semantics import Receiver
from astrag.lang.tags import TagsLanguage, name_level_room
from astrag.lang.tags_semantics import TagsSemantics
from astrag.lang.treesitter import Grammars

SPEC = TagsLanguage(
    language="rust",
    package=__name__,
    grammars=Grammars({"rust": tree_sitter_rust.language}),
)
ROOM = name_level_room(
    SPEC,
    {".rs": "rust"},
    TagsSemantics(
        language="rust",
        room="rust",
        family=frozenset({"rust"}),
        receivers={"self": Receiver.INSTANCE, "Self": Receiver.CLASS},
        constructor="new",
        file_suffixes=(".rs",),
    ),
)
