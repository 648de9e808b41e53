"""A language room: everything astrag knows about one language (or a family of dialects).

Each room is a package under ``astrag/lang/`` holding the language's tree-sitter queries
(``queries/*.scm``), its frontend (``extract.py``: ``(path, bytes) -> FileFacts``), its module
system (``modules.py``), its project configuration reader when it has one (``layout.py``) and
its semantics for the resolver (``semantics.py``, one :class:`LanguageSemantics` per language)
and, for a language ``astrag check`` serves, the checker's rules (``check.py``, with helpers in
``check_*.py``; see ``verify/rules.py``). Its ``__init__.py`` describes it with one
:class:`Room`, which ``astrag.lang`` registers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from astrag.graph.facts import FileFacts, Resolution
from astrag.graph.modules import ModuleIndexer
from astrag.graph.semantics import LanguageSemantics
from astrag.lang.treesitter import Grammars

# the room's files the resolver's fingerprint covers; every other file is the frontend's,
# except the checker's rules, which decide neither what is extracted nor how it resolves
RESOLUTION_FILES = frozenset({"semantics.py", "modules.py", "layout.py"})


def _checker_file(name: str) -> bool:
    return name == "check.py" or name.startswith("check_")


@dataclass(frozen=True)
class Dialect:
    """How files of one extension are read: the language they are, the grammar parsing them."""

    language: str  # FileFacts.language
    grammar: str  # a name in the room's Grammars


@dataclass(frozen=True)
class Room:
    name: str
    package: str  # "astrag.lang.<room>"
    extensions: Mapping[str, Dialect]  # ".py" -> Dialect("python", "python")
    grammars: Grammars
    # (path, source, grammar name[, tree]) -> facts; ``tree``: the source's parse already made
    extract: Callable[..., FileFacts]
    semantics: Mapping[str, LanguageSemantics]  # language -> its semantics
    index_modules: ModuleIndexer  # (indexed paths, this room's layout) -> module tables
    # (root, indexed paths) -> this room's layout (pure data), for rooms with config files
    read_layout: Callable[[Path, list[str]], Any] | None = None
    # how the room's references find their targets: RESOLVED (scopes, imports and types, as a
    # compiler binds them) or NAME (by name only: every edge but ``contains`` says so)
    resolution: Resolution = Resolution.RESOLVED
    # (source, grammar name) -> the lines its extract could not read in a damaged file, when
    # the room recovers more of such files than tree-sitter's ERROR regions leave; None
    # there (or no hook): the ERROR regions are what was lost
    damaged_spans: Callable[[bytes, str], list[tuple[int, int]] | None] | None = None
    # the ecosystem's file-name conventions for files that support the code rather than being
    # it: kind ("test", "bench", "declaration") -> regexes a file's name must match whole
    # (``.*_test\.go``); directory conventions (``tests/``, ``examples/``) are language-neutral
    # and live in ``astrag.search.support``
    support_files: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # words a question uses for the language's kinds of definition, as it uses "class" or
    # "function" (Go's "struct", "func"): they say what kind of thing is meant, not which, and
    # the language writes every definition of that kind with them (``type X struct``), so a
    # question's "struct" would meet every struct type. Search does not look for them
    # (``astrag.search.text.STOPWORDS``); a name that holds one keeps it in its joined form.
    kind_words: frozenset[str] = frozenset()

    def sources(self, resolution: bool) -> Iterator[Traversable]:
        """The room's files that decide resolution (``resolution=True``) or extraction, in a
        stable order: what the index's fingerprints hash. ``__init__.py`` (which extensions,
        grammars and semantics) counts for both."""
        package = resources.files(self.package)
        for entry in sorted(package.iterdir(), key=lambda e: e.name):
            name = entry.name
            if (
                name.endswith(".py")
                and not _checker_file(name)
                and (name == "__init__.py" or (name in RESOLUTION_FILES) == resolution)
            ):
                yield entry
        if not resolution:
            yield from sorted(package.joinpath("queries").iterdir(), key=lambda e: e.name)
