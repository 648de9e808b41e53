"""The language rooms and the registry that maps a file to its room.

Each language lives in a room of its own (``astrag/lang/<room>/``, described in ``room.py``):
its tree-sitter queries, its frontend ``(path, bytes) -> FileFacts`` (no I/O, never another
file), its module system and its semantics for the language-neutral resolver. This module
knows which rooms exist and which file extensions each one reads; nothing else here knows a
language.

Grammars come from the per-language wheels (``tree-sitter-python``, ``tree-sitter-typescript``,
``tree-sitter-javascript``, ``tree-sitter-java``, ``tree-sitter-go``, and ``tree-sitter-rust``,
``-c``, ``-cpp``, ``-c-sharp``, ``-ruby``, ``-php``, ``-scala``, ``-swift``, ``-kotlin`` for the
name-level rooms), which ship compiled grammars and never download anything.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import PurePosixPath

from tree_sitter import Language, Parser, Tree

from astrag.graph.facts import FileFacts, Resolution
from astrag.graph.modules import ModuleIndexer
from astrag.graph.semantics import LanguageSemantics
from astrag.lang import (
    c,
    cpp,
    csharp,
    go,
    java,
    kotlin,
    php,
    python,
    ruby,
    rust,
    scala,
    swift,
    typescript,
)
from astrag.lang.room import Dialect, Room

ROOMS: tuple[Room, ...] = (
    python.ROOM,
    typescript.ROOM,
    java.ROOM,
    go.ROOM,
    rust.ROOM,
    c.ROOM,
    cpp.ROOM,
    csharp.ROOM,
    ruby.ROOM,
    php.ROOM,
    scala.ROOM,
    swift.ROOM,
    kotlin.ROOM,
)

_BY_EXTENSION: dict[str, tuple[Room, Dialect]] = {
    ext: (room, dialect) for room in ROOMS for ext, dialect in room.extensions.items()
}
_SEMANTICS: dict[str, LanguageSemantics] = {
    language: semantics for room in ROOMS for language, semantics in room.semantics.items()
}
_LANGUAGE_ROOM: dict[str, Room] = {language: room for room in ROOMS for language in room.semantics}
_GRAMMAR_ROOM: dict[str, Room] = {name: room for room in ROOMS for name in room.grammars.names}

_RESOLUTION: dict[str, Resolution] = {
    language: room.resolution for room in ROOMS for language in room.semantics
}

LANGUAGES = tuple(_SEMANTICS)


def indexed_extensions() -> frozenset[str]:
    """Every file extension some room reads (``".py"``, ``".kt"``), lower case with the dot."""
    return frozenset(_BY_EXTENSION)


@cache
def support_file_patterns() -> dict[str, re.Pattern[str]]:
    """Per support kind (``"test"``, ``"bench"``, ``"declaration"``), one pattern matching a
    path whose file name follows some room's convention for that kind."""
    by_kind: dict[str, list[str]] = {}
    for room in ROOMS:
        for kind, names in room.support_files.items():
            by_kind.setdefault(kind, []).extend(names)
    return {
        kind: re.compile(r"(?:^|/)(?:" + "|".join(f"(?:{n})" for n in names) + r")$")
        for kind, names in by_kind.items()
    }


def question_kind_words() -> frozenset[str]:
    """Every room's words for its kinds of definition (``Room.kind_words``), lower case."""
    return frozenset(w for room in ROOMS for w in room.kind_words)


def resolution_of(language: str) -> Resolution:
    """How the edges of a language's files find their targets (``Room.resolution``)."""
    return _RESOLUTION.get(language, Resolution.RESOLVED)


def levels(files: dict[str, int]) -> dict[str, dict[str, object]]:
    """Files of each indexed language and how its edges find their targets: ``resolved`` (as
    a compiler binds them) or ``name`` (matched by name only), for summaries and stats."""
    return {
        language: {"files": n, "resolution": str(resolution_of(language))}
        for language, n in sorted(files.items())
    }


def language_of(path: str) -> str | None:
    """The language astrag indexes ``path`` as, or None when it does not index it."""
    found = _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
    return found[1].language if found else None


def grammar_of(path: str) -> str | None:
    found = _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
    return found[1].grammar if found else None


def damaged_spans(path: str, source: bytes) -> list[tuple[int, int]] | None:
    """The lines of a damaged file its room's frontend recovered around but could not read
    (1-based, inclusive), or None when the frontend read tree-sitter's parse as it is."""
    found = _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
    if found is None or found[0].damaged_spans is None:
        return None
    return found[0].damaged_spans(source, found[1].grammar)


def room_package(language: str) -> str | None:
    """The package of the room that reads ``language`` (``"astrag.lang.python"``)."""
    room = _LANGUAGE_ROOM.get(language)
    return room.package if room is not None else None


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
    for name in ("__init__.py", "room.py", "treesitter.py", "tags.py", "aliases.py"):
        digest.update(package.joinpath(name).read_bytes())
    for room in ROOMS:
        for entry in room.sources(resolution=False):
            digest.update(entry.read_bytes())
    digest.update(resources.files("astrag.graph").joinpath("facts.py").read_bytes())
    return digest.hexdigest()


def resolution_sources() -> list[bytes]:
    """The rooms' resolution code (semantics, module systems, layout readers), in a stable
    order: part of what the resolver's fingerprint hashes."""
    shared = resources.files("astrag.lang").joinpath("tags_semantics.py").read_bytes()
    return [shared] + [
        entry.read_bytes() for room in ROOMS for entry in room.sources(resolution=True)
    ]


def parse_file(path: str, source: bytes) -> Tree | None:
    """The tree-sitter parse of ``source`` as ``path``'s language reads it (None: a file of no
    indexed language): made once, it serves ``extract_facts`` and the checker's rules."""
    found = _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
    return found[0].grammars.parser(found[1].grammar).parse(source) if found else None


def prepare_grammars(paths: Iterable[str]) -> None:
    """Load the grammar and compile the queries of every dialect among ``paths`` now, by
    extracting an empty file of each: processes forked afterwards inherit them instead of each
    compiling its own (TypeScript's, TSX's and JavaScript's: 0.1 s)."""
    first: dict[str, tuple[Room, str]] = {}  # grammar -> its room and a path it reads
    for path in paths:
        found = _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
        if found is not None and found[1].grammar not in first:
            first[found[1].grammar] = (found[0], path)
    for grammar, (room, path) in first.items():
        room.extract(path, b"", grammar)


def extract_facts(path: str, source: bytes, tree: Tree | None = None) -> FileFacts:
    """Parse one file (unless ``tree`` is its ``parse_file`` already) and return what it says
    about itself. Raises ValueError for an unknown language; a file with syntax errors still
    yields facts (``errors`` counts them)."""
    found = _BY_EXTENSION.get(PurePosixPath(path).suffix.lower())
    if found is None:
        raise ValueError(f"{path}: not a file of a language astrag indexes")
    room, dialect = found
    facts = room.extract(path, source, dialect.grammar, tree=tree)
    if any(not d.qualname for d in facts.definitions):
        # a nameless definition would take the module's id (``path``) and fail the whole index
        # run on a duplicated symbol id: whichever frontend made it, it has no node of its own
        named = tuple(d for d in facts.definitions if d.qualname)
        facts = dataclasses.replace(facts, definitions=named)
    return facts
