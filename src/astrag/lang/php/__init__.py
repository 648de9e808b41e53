"""The PHP room, at name level: ``.php`` files through the shared tags frontend
(``astrag/lang/tags.py``); ``use`` binds names, ``require``/``include`` make a file's
definitions visible, ``$this`` is the receiver, ``self::``/``static::`` the class and
``parent::`` its base, ``new Foo`` calls ``__construct``."""

from __future__ import annotations

import tree_sitter_php

from astrag.graph.semantics import Receiver
from astrag.lang.tags import TagsLanguage, name_level_room
from astrag.lang.tags_semantics import TagsSemantics
from astrag.lang.treesitter import Grammars

SPEC = TagsLanguage(
    language="php",
    package=__name__,
    grammars=Grammars({"php": tree_sitter_php.language_php}),
    receiver_aliases={"$this": "this"},
)
ROOM = name_level_room(
    SPEC,
    {".php": "php"},
    TagsSemantics(
        language="php",
        room="php",
        family=frozenset({"php"}),
        receivers={
            "this": Receiver.INSTANCE,
            "self": Receiver.CLASS,
            "static": Receiver.CLASS,
            "parent": Receiver.SUPER,
        },
        constructor="__construct",
        file_suffixes=(".php",),
    ),
    support_files={"test": (r"[^/]*[A-Za-z0-9]Test\.php",)},  # PHPUnit
)
