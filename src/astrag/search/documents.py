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
from dataclasses import dataclass
from functools import lru_cache

from astrag.graph.facts import Definition, DefKind, FileFacts, RefKind
from astrag.graph.symbols import definition_keys, symbol_id
from astrag.search.text import code_words, distinct_words, name_words, path_words, unique

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

    @property
    def hash(self) -> str:
        """Key of the vector cache: the same text is never embedded twice."""
        return hashlib.blake2b(self.text.encode(), digest_size=12).hexdigest()


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
    qual_words = code_words(d.qualname.replace(".", " "))
    plain_qual = code_words(d.qualname.replace(".", " "), keep_joined=False)
    sig = d.signature or d.name
    relations = [c[-1] for c in (*d.bases, *d.implements) if c]
    body_text = source[d.start_byte : min(d.end_byte, d.start_byte + _BODY_BYTES)].decode(
        "utf-8", errors="replace"
    )
    body_words = distinct_words(body_text, _BODY_WORDS)
    call_words = [w for c in callees for w in name_words(c)]
    rel_words = [w for r in relations for w in name_words(r)]
    doc = d.docstring[:_DOC_CHARS]
    kind = "type" if d.kind == DefKind.TYPE_ALIAS else d.kind.value
    parent = d.qualname.rsplit(".", 1)[0] if "." in d.qualname else ""
    lines = [
        f"{kind} {' '.join(plain_qual)}",
        f"in {' '.join(_plain_path(facts.path))}"
        + (f" of {' '.join(code_words(parent, keep_joined=False))}" if parent else ""),
        " ".join(code_words(sig, keep_joined=False)),
    ]
    if doc:
        lines.append(doc)
    if relations:
        lines.append("extends " + " ".join(relations))
    if callees:
        lines.append("calls " + " ".join(callees))
    lines.append(" ".join(body_words[:_EMBED_BODY_WORDS]))
    return SearchDoc(
        id=sid,
        path=facts.path,
        name=" ".join(unique([*code_words(d.name), d.name.lower()])),
        qual=" ".join(unique(qual_words + pwords)),
        sig=" ".join(code_words(sig)),
        doc=doc,
        body=" ".join(unique([*rel_words, *call_words, *body_words])),
        text="\n".join(lines),
    )


@lru_cache(maxsize=64)
def _plain_path(path: str) -> tuple[str, ...]:
    return tuple(code_words(path.rsplit(".", 1)[0], keep_joined=False))


def encode_documents(docs: list[SearchDoc]) -> bytes:
    return marshal.dumps([tuple(getattr(d, f) for f in _FIELDS) for d in docs])


def decode_documents(blob: bytes) -> list[SearchDoc]:
    return [SearchDoc(*row) for row in marshal.loads(blob)]


_FIELDS = ("id", "path", "name", "qual", "sig", "doc", "body", "text")
