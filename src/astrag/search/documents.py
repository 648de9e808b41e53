"""What search sees of each symbol: weighted word fields for BM25 and one text to embed.

Built from a file's own facts and bytes only (no resolution), so documents are made in the
parse workers next to the facts and change exactly when the file does. A document carries the
symbol's structure as the blueprint asks: kind, qualified name, path, signature, docstring, the
split identifiers of its body, and its relationships as written (its class, what it extends or
implements, what it calls).
"""

from __future__ import annotations

import hashlib
import marshal
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from operator import attrgetter

from astrag.graph.facts import Definition, DefKind, FileFacts, RefKind
from astrag.graph.slots import fast_init
from astrag.graph.symbols import definition_keys, symbol_id
from astrag.search.text import (
    code_words,
    code_words_both,
    name_words,
    path_words,
    source_words,
    unique,
)

_BODY_BYTES = 8000  # identifiers of a body beyond this add little and cost index size
_BODY_WORDS = 400
_DOC_CHARS = 600
_EMBED_BODY_WORDS = 48  # a static embedding is a mean: a long tail of words drowns the name
_CALLEES = 24
_CALL_KINDS = (RefKind.CALL, RefKind.NEW)


@dataclass(frozen=True, slots=True)
class SearchDoc:
    id: str  # the symbol id (path::Qual, a module's path)
    path: str
    name: str  # split words of the name, plus the joined form
    qual: str  # words of the qualified name and of the path
    sig: str  # words of the signature
    doc: str  # the docstring, as prose
    body: str  # split identifiers of the body, callees, bases
    text: str  # what is embedded
    # the text's hash when it came with the document (made in a parser process, off the
    # writer: medusa's 34k documents, 0.04 CPU s); not compared, being the text's
    digest: str = field(default="", compare=False, repr=False)

    @property
    def hash(self) -> str:
        """Key of the vector cache: the same text is never embedded twice."""
        return self.digest or text_hash(self.text)


def text_hash(text: str) -> str:
    """A document text's key in the vector cache."""
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


fast_init(SearchDoc)  # a parser process makes one per definition: slots filled directly


def documents(facts: FileFacts, source: bytes) -> list[SearchDoc]:
    callees = _callees_by_scope(facts)
    pwords = path_words(facts.path)
    out = [_module_doc(facts, facts.path, pwords)]  # a module's symbol id is its path
    # each definition's symbol id, as file_symbols gives it, without building the symbols
    for key, d in zip(definition_keys(facts), facts.definitions, strict=True):
        sid = symbol_id(facts.path, key)
        out.append(_definition_doc(facts, sid, d, source, callees.get(d.qualname, ()), pwords))
    return out


def _callees_by_scope(facts: FileFacts) -> dict[str, tuple[str, ...]]:
    found: dict[str, dict[str, None]] = {}
    for ref in facts.references:
        if ref.kind in _CALL_KINDS and ref.chain:
            name = ref.chain[-1].removesuffix("()")
            if name and name[0] not in "?[":
                found.setdefault(ref.scope, {})[name] = None
    return {scope: tuple(names)[:_CALLEES] for scope, names in found.items()}


def _module_doc(facts: FileFacts, sid: str, pwords: list[str]) -> SearchDoc:
    top = [d.name for d in facts.definitions if not d.parent][:40]
    words = " ".join(pwords)
    doc = facts.docstring[:_DOC_CHARS]
    body = " ".join(unique(w for name in top for w in code_words(name)))
    text = f"module {facts.path} {words}\n{doc}\ndefines: {' '.join(top)}"
    return SearchDoc(sid, facts.path, words, words, "", doc, body, text)


def _definition_doc(
    facts: FileFacts,
    sid: str,
    d: Definition,
    source: bytes,
    callees: tuple[str, ...],
    pwords: list[str],
) -> SearchDoc:
    # each text is scanned for identifiers once, giving its words with and without the joined
    # forms; a qualified name's parent, the same for every member, is split once
    qualname = d.qualname
    parent, dot, last = qualname.rpartition(".")
    plain_qual, qual_words = _qual_words(parent) if dot else ((), ())
    plain_last, last_words = _qual_words(last)
    sig = d.signature or d.name
    plain_sig, sig_words = code_words_both(sig)
    relations = [c[-1] for c in (*d.bases, *d.implements) if c]
    # the body's distinct identifier words, read from its bytes (search/text.source_words)
    body_words = source_words(
        source[d.start_byte : min(d.end_byte, d.start_byte + _BODY_BYTES)], _BODY_WORDS
    )
    doc = d.docstring[:_DOC_CHARS]
    lines = [
        f"{_KIND_TEXT[d.kind]} {' '.join((*plain_qual, *plain_last))}",
        f"in {_plain_path(facts.path)}" + (f" of {' '.join(plain_qual)}" if dot else ""),
        " ".join(plain_sig),
    ]
    if doc:
        lines.append(doc)
    if relations:
        lines.append("extends " + " ".join(relations))
    if callees:
        lines.append("calls " + " ".join(callees))
    lines.append(" ".join(body_words[:_EMBED_BODY_WORDS]))
    return SearchDoc(
        sid,
        facts.path,
        " ".join(unique([*code_words(d.name), d.name.lower()])),
        " ".join(unique((*qual_words, *last_words, *pwords))),
        " ".join(sig_words),
        doc,
        " ".join(_body_field(relations, callees, body_words)),
        "\n".join(lines),
    )


def _body_field(relations: list[str], callees: tuple[str, ...], body: list[str]) -> list[str]:
    """The words of what a definition extends and calls, then its body's, each once; the body's
    are distinct already, so without the others they are the field as they are."""
    if not relations and not callees:
        return body
    return unique(chain(_words_of(map(name_words, (*relations, *callees))), body))


_words_of = chain.from_iterable
# a kind as the embedded text names it (``.value`` of an enum member is a property call)
_KIND_TEXT = {k: "type" if k == DefKind.TYPE_ALIAS else k.value for k in DefKind}


@lru_cache(maxsize=1 << 12)
def _qual_words(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A dotted name's words without and with joined forms. A qualified name's are its
    parent's and its last part's (no identifier spans a dot), and a parent repeats for each
    member: memoised by part."""
    plain, joined = code_words_both(text.replace(".", " "))
    return tuple(plain), tuple(joined)


@lru_cache(maxsize=64)
def _plain_path(path: str) -> str:
    return " ".join(code_words(path.rsplit(".", 1)[0], keep_joined=False))


def encode_documents(docs: list[SearchDoc]) -> bytes:
    """The documents' fields and each text's hash (made here, in the parser process that made
    the documents: the writer, which decodes them, is the cold run's longer side)."""
    return marshal.dumps([(*_doc_fields(d), d.hash) for d in docs])


def decode_documents(blob: bytes) -> list[SearchDoc]:
    return [SearchDoc(*row) for row in marshal.loads(blob)]


_FIELDS = ("id", "path", "name", "qual", "sig", "doc", "body", "text")
_doc_fields = attrgetter(*_FIELDS)  # a document's fields as a tuple, in order
