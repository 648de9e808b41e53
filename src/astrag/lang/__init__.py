"""The language rooms and the registry that maps a file to its room.

Each language lives in a room of its own (``astrag/lang/<room>/``, described in ``room.py``):
its tree-sitter queries, its frontend ``(path, bytes) -> FileFacts`` (no I/O, never another
file), its module system and its semantics for the language-neutral resolver. This module
knows which rooms exist and which file extensions each one reads; nothing else here knows a
language.

Grammars come from the per-language wheels (``tree-sitter-python``, ``tree-sitter-typescript``,
``tree-sitter-javascript``, ``tree-sitter-go``), which ship compiled grammars and never download
anything.
"""

from __future__ import annotations

import dataclasses
import hashlib
from functools import cache
from importlib import resources
from pathlib import PurePosixPath

from tree_sitter import Language, Parser

from astrag.graph.facts import FileFacts
from astrag.graph.modules import ModuleIndexer
from astrag.graph.semantics import LanguageSemantics
from astrag.lang import go, python, typescript
from astrag.lang.room import Dialect, Room

ROOMS: tuple[Room, ...] = (python.ROOM, typescript.ROOM, go.ROOM)

_BY_EXTENSION: dict[str, tuple[Room, Dialect]] = {
    ext: (room, dialect) for room in ROOMS for ext, dialect in room.extensions.items()
}
_SEMANTICS: dict[str, LanguageSemantics] = {
    language: semantics for room in ROOMS for language, semantics in room.semantics.items()
}
_GRAMMAR_ROOM: dict[str, Room] = {name: room for room in ROOMS for name in room.grammars.names}

LANGUAGES = tuple(_SEMANTICS)


def language_of(path: str) -> str | None:
    """The language astrag indexes ``path`` as, or None when it does not index it."""
    found = _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
    return found[1].language if found else None


def grammar_of(path: str) -> str | None:
    found = _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
    return found[1].grammar if found else None


def semantics_for(language: str) -> LanguageSemantics:
    """The resolver's view of a language (every FileFacts.language has one)."""
    return _SEMANTICS[language]


def module_indexers() -> list[tuple[str, ModuleIndexer]]:
    """Each room's module-table builder, by room name."""
    return [(room.name, room.index_modules) for room in ROOMS]


def grammar(name: str) -> Language:
    room = _GRAMMAR_ROOM.get(name)
    if room is None:
        raise ValueError(f"no tree-sitter grammar named {name!r}")
    return room.grammars.language(name)


def parser(name: str) -> Parser:
    room = _GRAMMAR_ROOM.get(name)
    if room is None:
        raise ValueError(f"no tree-sitter grammar named {name!r}")
    return room.grammars.parser(name)


@cache
def extractor_fingerprint() -> str:
    """Changes whenever a frontend or query changes, so cached facts are re-extracted."""
    digest = hashlib.blake2b(digest_size=12)
    package = resources.files("astrag.lang")
    for name in ("__init__.py", "room.py", "treesitter.py"):
        digest.update(package.joinpath(name).read_bytes())
    for room in ROOMS:
        for entry in room.sources(resolution=False):
            digest.update(entry.read_bytes())
    digest.update(resources.files("astrag.graph").joinpath("facts.py").read_bytes())
    return digest.hexdigest()


def resolution_sources() -> list[bytes]:
    """The rooms' resolution code (semantics, module systems, layout readers), in a stable
    order: part of what the resolver's fingerprint hashes."""
    return [entry.read_bytes() for room in ROOMS for entry in room.sources(resolution=True)]


def extract_facts(path: str, source: bytes) -> FileFacts:
    """Parse one file and return what it says about itself. Raises ValueError for an unknown
    language; a file with syntax errors still yields facts (``errors`` counts them)."""
    found = _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
    if found is None:
        raise ValueError(f"{path}: not a Python, TypeScript, JavaScript or Go file")
    room, dialect = found
    facts = room.extract(path, source, dialect.grammar)
    if any(not d.qualname for d in facts.definitions):
        # a nameless definition would take the module's id (``path``) and fail the whole index
        # run on a duplicated symbol id: whichever frontend made it, it has no node of its own
        named = tuple(d for d in facts.definitions if d.qualname)
        facts = dataclasses.replace(facts, definitions=named)
    return facts
