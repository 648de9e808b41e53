"""The C room, at name level: ``.c`` and ``.h`` files through the shared tags frontend
(``astrag/lang/tags.py``); ``#include "x.h"`` makes the header's definitions visible, and C and
C++ files link to each other's names (one family)."""

from __future__ import annotations

import tree_sitter_c

from astrag.lang.tags import TagsLanguage, name_level_room
from astrag.lang.tags_semantics import TagsSemantics
from astrag.lang.treesitter import Grammars

SPEC = TagsLanguage(
    language="c", package=__name__, grammars=Grammars({"c": tree_sitter_c.language})
)
ROOM = name_level_room(
    SPEC,
    {".c": "c", ".h": "c"},
    TagsSemantics(language="c", room="c", family=frozenset({"c", "cpp"})),
    support_files={"test": (r"test_[^/]*\.[ch]", r"[^/]*_test\.c")},
)
