"""Language frontends: ``(path, bytes) -> FileFacts``, one module per language, no I/O.

Grammars come from the per-language wheels (``tree-sitter-python``, ``tree-sitter-typescript``,
``tree-sitter-javascript``), which ship compiled grammars and never download anything.
Queries live in ``queries/*.scm`` and follow the tree-sitter tags convention.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from operator import attrgetter
from pathlib import PurePosixPath

from tree_sitter import Language, Node, Parser, Query

from astrag.graph.facts import FileFacts

# extension -> (language, grammar)
_EXTENSIONS: dict[str, tuple[str, str]] = {
    ".py": ("python", "python"),
    ".pyi": ("python", "python"),
    ".ts": ("typescript", "typescript"),
    ".mts": ("typescript", "typescript"),
    ".cts": ("typescript", "typescript"),
    ".tsx": ("typescript", "tsx"),
    ".js": ("javascript", "javascript"),
    ".jsx": ("javascript", "javascript"),
    ".mjs": ("javascript", "javascript"),
    ".cjs": ("javascript", "javascript"),
}

LANGUAGES = ("python", "typescript", "javascript")


def language_of(path: str) -> str | None:
    """The language astrag indexes ``path`` as, or None when it does not index it."""
    spec = _EXTENSIONS.get(PurePosixPath(path).suffix.lower())
    return spec[0] if spec else None


def grammar_of(path: str) -> str | None:
    spec = _EXTENSIONS.get(PurePosixPath(path).suffix.lower())
    return spec[1] if spec else None


@cache
def grammar(name: str) -> Language:
    if name == "python":
        import tree_sitter_python as mod

        return Language(mod.language())
    if name in ("typescript", "tsx"):
        import tree_sitter_typescript as ts_mod

        return Language(
            ts_mod.language_typescript() if name == "typescript" else ts_mod.language_tsx()
        )
    if name == "javascript":
        import tree_sitter_javascript as js_mod

        return Language(js_mod.language())
    raise ValueError(f"no tree-sitter grammar named {name!r}")


@cache
def parser(name: str) -> Parser:
    return Parser(grammar(name))


@cache
def query_source(filename: str) -> str:
    return resources.files("astrag.lang").joinpath("queries", filename).read_text("utf-8")


@cache
def query(grammar_name: str, filename: str) -> Query:
    return Query(grammar(grammar_name), query_source(filename))


def in_document_order(captures: dict[str, list[Node]]) -> dict[str, list[Node]]:
    """Capture lists sorted by position. py-tree-sitter's ``captures()`` does not promise an
    order (it varies between parses of one file), and frontends keep "the first" assignment
    or read: without this, indexing the same code twice could give different graphs."""
    for nodes in captures.values():
        # by start, then outer before inner (two nodes can start at one byte: ``f.bind(x)()``
        # and ``f.bind(x)``), then by type; three stable C-level sorts, no frame per node
        nodes.sort(key=_TYPE)
        nodes.sort(key=_END_BYTE, reverse=True)
        nodes.sort(key=_START_BYTE)
    return captures


_START_BYTE = attrgetter("start_byte")
_END_BYTE = attrgetter("end_byte")
_TYPE = attrgetter("type")


@cache
def extractor_fingerprint() -> str:
    """Changes whenever a frontend or query changes, so cached facts are re-extracted."""
    digest = hashlib.blake2b(digest_size=12)
    package = resources.files("astrag.lang")
    for name in ("__init__.py", "python.py", "typescript.py"):
        digest.update(package.joinpath(name).read_bytes())
    for entry in sorted(package.joinpath("queries").iterdir(), key=lambda e: e.name):
        digest.update(entry.read_bytes())
    digest.update(resources.files("astrag.graph").joinpath("facts.py").read_bytes())
    return digest.hexdigest()


def extract_facts(path: str, source: bytes) -> FileFacts:
    """Parse one file and return what it says about itself. Raises ValueError for an unknown
    language; a file with syntax errors still yields facts (``errors`` counts them)."""
    grammar_name = grammar_of(path)
    if grammar_name is None:
        raise ValueError(f"{path}: not a Python, TypeScript or JavaScript file")
    if grammar_name == "python":
        from astrag.lang import python

        return python.extract(path, source)
    from astrag.lang import typescript

    return typescript.extract(path, source, grammar_name)
