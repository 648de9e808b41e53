"""Turning :class:`FileFacts` into bytes and back, fast, and building graph values from rows.

Every incremental update loads the facts of every unchanged file, so decoding is on the hot
path. Measured on 1,000 files holding 50k definitions and 400k references (CPython 3.11, one
core of a shared VM; best of several runs):

* ``pickle`` protocol 5 of the dataclasses: 34 MB, ~2.1 s to load (gc paused), ~3.5 s (gc on);
* plain tuples + ``marshal`` decoded through the dataclasses' ``__init__``: 34 MB, ~1.2 s;
* plain tuples + ``marshal`` decoded through :func:`fast_constructor`: ~0.8 s, and ~1.0 s CPU
  for ``SqliteStore.load_facts()`` of all of them including the database read.

So a blob is ``marshal`` of nested plain tuples in field order (enums as their string values),
and decoding (a) pauses the cyclic garbage collector, which otherwise runs dozens of useless
collections over the hundreds of thousands of fresh tuples, and (b) fills the slots of the frozen
dataclasses directly (``graph/slots.py``: a frozen dataclass's own ``__init__`` sets each field
through ``object.__setattr__``, which costs 2.5x more than the slot descriptor). None of these
classes has a ``__post_init__`` or validation, so the objects are identical to constructed ones.

The tuple layout is pinned by ``_LAYOUTS``: if ``graph/facts.py`` gains, loses or reorders a
field, importing this module fails until the codec is updated, and :data:`FACTS_FORMAT` changes,
which makes existing indexes incompatible (their facts must be re-parsed).
"""

from __future__ import annotations

import gc
import hashlib
import marshal
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import fields
from operator import attrgetter

from astrag.graph.facts import (
    Binding,
    Definition,
    DefKind,
    Edge,
    EdgeKind,
    FileFacts,
    Import,
    Param,
    Reference,
    RefKind,
    Resolution,
    Symbol,
)
from astrag.graph.slots import fast_constructor
from astrag.store.base import IndexCorrupt

# fmt: off
_LAYOUTS: dict[type, tuple[str, ...]] = {
    Param: ("name", "annotation", "has_default", "kind"),
    Definition: (
        "kind", "name", "qualname", "parent", "start_line", "end_line", "start_byte", "end_byte",
        "signature", "docstring", "decorators", "exported", "visibility", "modifiers", "bases",
        "implements", "params", "returns", "type", "value",
    ),
    Reference: ("kind", "chain", "scope", "line", "column", "arg_count", "keywords", "args"),
    Import: ("module", "name", "alias", "line", "level", "scope", "reexport", "type_only"),
    Binding: ("scope", "name", "line", "type", "value", "block"),
    FileFacts: (
        "path", "language", "lines", "errors", "definitions", "references", "imports",
        "bindings", "exports", "docstring", "all_names",
    ),
    Symbol: (
        "id", "kind", "name", "qualname", "path", "start_line", "end_line", "parent", "language",
        "signature", "docstring", "decorators", "exported", "visibility", "modifiers",
    ),
}
# fmt: on


def _check_layouts() -> str:
    for cls, layout in _LAYOUTS.items():
        actual = tuple(f.name for f in fields(cls))
        if actual != layout:
            raise RuntimeError(
                f"astrag.store.codec is out of date: {cls.__name__} fields are {actual}, "
                f"the codec encodes {layout}; update codec.py together with graph/facts.py"
            )
        if hasattr(cls, "__post_init__"):
            raise RuntimeError(f"{cls.__name__} has __post_init__; fast_constructor would skip it")
    text = repr([(cls.__name__, layout) for cls, layout in _LAYOUTS.items()])
    return f"marshal{marshal.version}-" + hashlib.sha256(text.encode()).hexdigest()[:12]


FACTS_FORMAT = _check_layouts()


_symbol_fields = attrgetter(*_LAYOUTS[Symbol])  # a symbol's fields as a tuple, in order
_new_param = fast_constructor(Param)
_new_definition = fast_constructor(Definition)
_new_reference = fast_constructor(Reference)
_new_import = fast_constructor(Import)
_new_binding = fast_constructor(Binding)
_new_facts = fast_constructor(FileFacts)
new_symbol = fast_constructor(Symbol)
new_edge = Edge  # a NamedTuple already builds fast

_DEF_KINDS = {k.value: k for k in DefKind}
_REF_KINDS = {k.value: k for k in RefKind}
# member -> its text: ``.value`` on an enum member is a property call, ~5x a dict lookup, and
# encoding pays it once per definition, reference and edge
DEF_KIND_TEXT = {k: k.value for k in DefKind}
REF_KIND_TEXT = {k: k.value for k in RefKind}
EDGE_KIND_TEXT = {k: k.value for k in EdgeKind}
EDGE_KINDS: dict[str, EdgeKind] = {k.value: k for k in EdgeKind}
# an edge's resolution as the stores keep it: a small integer (0 costs SQLite no byte per row),
# never reordered, only appended to
RESOLUTION_CODES: tuple[Resolution, ...] = (Resolution.RESOLVED, Resolution.NAME)
RESOLUTION_CODE: dict[Resolution, int] = {how: i for i, how in enumerate(RESOLUTION_CODES)}
# the same, keyed by the resolution's text, as IndexUpdate.edge_rows carry it (an enum member
# hashes by its name, so the text would not find it in RESOLUTION_CODE)
RESOLUTION_TEXT_CODE: dict[str, int] = {how.value: i for i, how in enumerate(RESOLUTION_CODES)}


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic collector while building many acyclic objects (see module docstring)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def encode_facts(facts: FileFacts) -> bytes:
    """``facts`` as a compact blob; the inverse of :func:`decode_facts`."""
    def_text, ref_text = DEF_KIND_TEXT, REF_KIND_TEXT
    # fmt: off
    definitions = tuple(
        (
            def_text[d.kind], d.name, d.qualname, d.parent, d.start_line, d.end_line, d.start_byte,
            d.end_byte, d.signature, d.docstring, d.decorators, d.exported, d.visibility,
            d.modifiers, d.bases, d.implements,
            tuple((p.name, p.annotation, p.has_default, p.kind) for p in d.params),
            d.returns, d.type, d.value,
        )
        for d in facts.definitions
    )
    # fmt: on
    references = tuple(
        (ref_text[r.kind], r.chain, r.scope, r.line, r.column, r.arg_count, r.keywords, r.args)
        for r in facts.references
    )
    imports = tuple(
        (i.module, i.name, i.alias, i.line, i.level, i.scope, i.reexport, i.type_only)
        for i in facts.imports
    )
    bindings = tuple((b.scope, b.name, b.line, b.type, b.value, b.block) for b in facts.bindings)
    # fmt: off
    row = (
        facts.path, facts.language, facts.lines, facts.errors, definitions, references, imports,
        bindings, facts.exports, facts.docstring, facts.all_names,
    )
    # fmt: on
    return marshal.dumps(row, 4)


def decode_facts(blob: bytes) -> FileFacts:
    """The :class:`FileFacts` encoded in ``blob``; call inside :func:`gc_paused` for bulk loads.

    Raises ``ValueError`` (or ``EOFError``/``TypeError``) when the blob is not one of ours.
    """
    path, language, lines, errors, defs, refs, imports, bindings, exports, doc, all_names = (
        marshal.loads(blob)
    )
    def_kinds, ref_kinds = _DEF_KINDS, _REF_KINDS
    new_def, new_param, new_ref = _new_definition, _new_param, _new_reference
    # fmt: off
    definitions = tuple(
        [
            new_def(
                def_kinds[d[0]], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10],
                d[11], d[12], d[13], d[14], d[15], tuple([new_param(*p) for p in d[16]]),
                d[17], d[18], d[19],
            )
            for d in defs
        ]
    )
    # fmt: on
    references = tuple(
        [new_ref(ref_kinds[r[0]], r[1], r[2], r[3], r[4], r[5], r[6], r[7]) for r in refs]
    )
    # fmt: off
    return _new_facts(
        path, language, lines, errors, definitions, references,
        tuple([_new_import(*i) for i in imports]), tuple([_new_binding(*b) for b in bindings]),
        exports, doc, all_names,
    )
    # fmt: on


def encode_depends(deps: Iterable[str]) -> bytes:
    """A file's dependency set as the PostgreSQL store keeps it: its paths sorted, marshalled
    (the SQLite store keeps ids of paths instead: store/depends.py)."""
    return marshal.dumps(sorted(deps))


def encode_symbols(symbols: Iterable[Symbol]) -> bytes:
    """A file's symbols as a compact blob (a parser process sends them with the facts)."""
    return marshal.dumps([_symbol_fields(s) for s in symbols], 4)


def decode_symbols(blob: bytes) -> list[Symbol]:
    """The inverse of :func:`encode_symbols`."""
    return [new_symbol(*row) for row in marshal.loads(blob)]


class LazyFacts(Mapping[str, FileFacts]):
    """Facts by path, decoded on first access (and then kept). Blobs are given, or fetched
    one at a time by ``fetch`` when first needed; more files can be added."""

    def __init__(
        self,
        blobs: dict[str, bytes | None],
        where: str = "the index",
        fetch: Callable[[str], bytes] | None = None,
    ) -> None:
        self._blobs = blobs  # None: not read yet, ``fetch`` will
        self._decoded: dict[str, FileFacts] = {}
        self._where = where
        self._fetch = fetch

    def __getitem__(self, path: str) -> FileFacts:
        found = self._decoded.get(path)
        if found is None:
            blob = self._blobs[path]
            if blob is None and self._fetch is not None:
                blob = self._fetch(path)
            try:
                found = self._decoded[path] = decode_facts(blob)  # type: ignore[arg-type]
            except (ValueError, EOFError, TypeError, KeyError) as err:
                raise IndexCorrupt(
                    f"the stored facts of {path} in {self._where} are unreadable ({err})",
                    hint="run `astrag index --rebuild`",
                ) from err
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._blobs)

    def __len__(self) -> int:
        return len(self._blobs)

    def __contains__(self, path: object) -> bool:
        return path in self._blobs

    def drop(self, paths: Iterable[str]) -> None:
        for path in paths:
            self._blobs.pop(path, None)
            self._decoded.pop(path, None)

    def forget_blobs(self, paths: Iterable[str]) -> None:
        """Let the encoded facts of ``paths`` go where they are decoded already (once they are
        stored, the decoded facts are all a run still reads)."""
        for path in paths:
            if path in self._decoded:
                self._blobs[path] = None

    def add(self, path: str, blob: bytes | None, facts: FileFacts | None = None) -> None:
        """Add or replace a file: its encoded facts, or its decoded ones, or both."""
        if blob is None and facts is None:
            raise ValueError(f"{path}: give its facts, encoded or decoded")
        self._blobs[path] = blob
        self._decoded.pop(path, None)
        if facts is not None:
            self._decoded[path] = facts
