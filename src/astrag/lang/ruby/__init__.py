"""The Ruby room, at name level: ``.rb`` files through the shared tags frontend
(``astrag/lang/tags.py``); ``require``/``require_relative`` make a file's definitions visible,
``self`` is the receiver, a bare call of a method of the enclosing class is a call on
``self``, and ``Foo.new`` is a use of ``Foo`` that calls its ``initialize``."""

from __future__ import annotations

import tree_sitter_ruby

from astrag.graph.semantics import Receiver
from astrag.lang.tags import TagsLanguage, name_level_room
from astrag.lang.tags_semantics import TagsSemantics
from astrag.lang.treesitter import Grammars

SPEC = TagsLanguage(
    language="ruby",
    package=__name__,
    grammars=Grammars({"ruby": tree_sitter_ruby.language}),
    implicit_receiver="self",
)
ROOM = name_level_room(
    SPEC,
    {".rb": "ruby"},
    TagsSemantics(
        language="ruby",
        room="ruby",
        family=frozenset({"ruby"}),
        receivers={"self": Receiver.INSTANCE, "super": Receiver.SUPER},
        constructor="initialize",
        file_suffixes=(".rb",),
        bare_names_reach_methods=True,
    ),
    support_files={"test": (r"test_[^/]*\.rb", r"[^/]*_(?:test|spec)\.rb")},  # minitest, RSpec
)
