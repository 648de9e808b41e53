"""What every room's frontend shares about tree-sitter: grammars, parsers, queries, capture order.

Grammars come from per-language wheels that ship compiled grammars and never download anything;
a room names its grammars and how to load each (:class:`Grammars`). Queries live in the room's
``queries/*.scm`` and follow the tree-sitter tags convention.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from itertools import accumulate
from operator import attrgetter

from tree_sitter import Language, Node, Parser

_PLUS_ONE = (1).__add__


def line_starts(source: bytes) -> list[int]:
    """Each line's first byte: a node's line from its start byte by bisection, instead of
    ``Node.start_point``, whose named tuple costs several times as much (250k of them on
    jackson-databind). tree-sitter counts rows by "\n" alone, as this does."""
    return list(accumulate(map(_PLUS_ONE, map(len, source.split(b"\n"))), initial=0))


class FieldIds:
    """A room's table of the grammar's node-field ids, as class attributes named after the
    fields (each written ``= 0`` until loaded): ``child_by_field_id`` skips the search of the
    grammar's field names that ``child_by_field_name`` makes on every call (half the cost of
    ~500k–900k such calls on a large Java or Go repository). A room subclasses it and calls
    ``load`` once its grammar is loaded."""

    loaded = False

    @classmethod
    def load(cls, language: Language, grammar: str) -> None:
        for name, value in list(vars(cls).items()):
            if isinstance(value, int) and not isinstance(value, bool):
                field_id = language.field_id_for_name(name)
                if field_id is None:
                    raise ValueError(f"the {grammar} grammar has no field {name!r}")
                setattr(cls, name, field_id)
        cls.loaded = True


class Grammars:
    """A room's grammars by name, each loaded (and its parser made) on first use."""

    def __init__(self, loaders: Mapping[str, Callable[[], object]]) -> None:
        self._loaders = dict(loaders)
        self._languages: dict[str, Language] = {}
        self._parsers: dict[str, Parser] = {}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._loaders)

    def language(self, name: str) -> Language:
        found = self._languages.get(name)
        if found is None:
            loader = self._loaders.get(name)
            if loader is None:
                raise ValueError(f"no tree-sitter grammar named {name!r}")
            found = self._languages[name] = Language(loader())
        return found

    def parser(self, name: str) -> Parser:
        found = self._parsers.get(name)
        if found is None:
            found = self._parsers[name] = Parser(self.language(name))
        return found


@cache
def query_source(package: str, filename: str) -> str:
    """The text of ``queries/<filename>`` inside a room's package."""
    return resources.files(package).joinpath("queries", filename).read_text("utf-8")


def in_document_order(captures: dict[str, list[Node]]) -> dict[str, list[Node]]:
    """Capture lists sorted by position. py-tree-sitter's ``captures()`` does not promise an
    order (it varies between parses of one file), and frontends keep "the first" assignment
    or read: without this, indexing the same code twice could give different graphs."""
    for nodes in captures.values():
        if len(nodes) < 2:
            continue
        # when no two nodes start at one byte the start alone orders them: one read of each
        # node instead of three (most lists; the reads make most of the cost, not the sorts)
        starts = list(map(_START_BYTE, nodes))
        if len(set(starts)) == len(starts):
            if starts != sorted(starts):
                nodes.sort(key=_START_BYTE)
            continue
        # by start, then outer before inner (two nodes can start at one byte: ``f.bind(x)()``
        # and ``f.bind(x)``), then by type; three stable C-level sorts, no frame per node
        nodes.sort(key=_TYPE)
        nodes.sort(key=_END_BYTE, reverse=True)
        nodes.sort(key=_START_BYTE)
    return captures


def count_errors(root: Node) -> int:
    """ERROR and MISSING nodes; only subtrees that report an error are descended into."""
    if not root.has_error:
        return 0
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return count


_START_BYTE = attrgetter("start_byte")
_END_BYTE = attrgetter("end_byte")
_TYPE = attrgetter("type")


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Line spans (1-based, inclusive) sorted, with overlapping and adjacent ones joined."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
