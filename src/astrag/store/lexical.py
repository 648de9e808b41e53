"""SQLite FTS5's tokenizer and BM25, reproduced for stores that have no FTS5.

Why not PostgreSQL's own full-text search: ``to_tsvector('english')`` stems with Snowball
(Porter 2) and drops stop words, ``'simple'`` does not stem at all, and ``ts_rank_cd`` is not
BM25; any of them would rank the same query differently on the two stores. Instead:

* **Tokens are made by SQLite itself.** The search documents go through an in-memory FTS5 table
  with the embedded store's tokenizer (``porter unicode61``) and ``fts5vocab`` reads back each
  document's terms per field. Same C code, same terms, on both stores — no reimplementation of
  Porter's or unicode61's corner cases to get wrong.
* **The server stores postings** ``(term, symbol, count per field)`` and each document's token
  count; the ranking below is FTS5's ``bm25()`` (``fts5_aux.c``), evaluated with the same
  double-precision operations in the same order, so scores are bit-identical and ties break
  the same way (by symbol id, byte order).
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterable, Sequence

from astrag.search.documents import SearchDoc

FIELDS = ("name", "qual", "sig", "doc", "body")  # the FTS5 columns, in weight order
TOKENIZER = "porter unicode61"  # must equal store/sqlite.py's docs_fts tokenizer
K1 = 1.2  # FTS5's bm25 constants (fts5_aux.c)
B = 0.75
K1_PLUS_1 = K1 + 1.0  # evaluated in double precision exactly as the C expression is
ONE_MINUS_B = 1 - B
_BATCH = 2000

_lock = threading.Lock()
_conn: sqlite3.Connection | None = None


def _tokenizer() -> sqlite3.Connection:
    """One in-memory FTS5 table per process, used only to tokenize (guarded by ``_lock``)."""
    global _conn
    if _conn is None:
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        columns = ", ".join(FIELDS)
        conn.execute(f"CREATE VIRTUAL TABLE t USING fts5({columns}, tokenize = '{TOKENIZER}')")
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
        _conn = conn
    return _conn


Postings = dict[str, list[int]]  # term -> occurrences per field (name, qual, sig, doc, body)

# What search/documents.py makes of identifiers: lowercase ASCII words and single spaces. For
# such a field unicode61 is str.split() (no other separator, nothing to fold), so only the
# Porter stem of each distinct word is asked of FTS5; any other text (docstrings) goes through
# FTS5 whole. Reading every token back through fts5vocab instead costs 4 s per 20k documents.
_PLAIN = re.compile(r"[a-z0-9 ]*")
_stems: dict[str, str | None] = {}


def tokenize_docs(docs: Sequence[SearchDoc]) -> list[tuple[int, Postings]]:
    """Per document, in order: its token count over all fields (FTS5's ``xColumnSize(-1)``)
    and the number of times each term occurs in each field."""
    fields = [(d.name, d.qual, d.sig, d.doc, d.body) for d in docs]
    plain = [[_PLAIN.fullmatch(text) is not None for text in row] for row in fields]
    _learn_stems(
        {
            w
            for row, ok in zip(fields, plain, strict=True)
            for t, p in zip(row, ok, strict=True)
            if p
            for w in t.split()
        }
    )
    other = _tokenize_with_fts5(
        [
            (i, c, text)
            for i, (row, ok) in enumerate(zip(fields, plain, strict=True))
            for c, (text, p) in enumerate(zip(row, ok, strict=True))
            if not p and text
        ]
    )
    out: list[tuple[int, Postings]] = []
    stems = _stems
    for i, (row, ok) in enumerate(zip(fields, plain, strict=True)):
        postings: Postings = {}
        total = 0
        for c, (text, p) in enumerate(zip(row, ok, strict=True)):
            if not text:
                continue
            if p:
                for word in text.split():
                    term = stems[word]
                    if term is None:
                        continue
                    total += 1
                    slot = postings.get(term)
                    if slot is None:
                        slot = postings[term] = [0, 0, 0, 0, 0]
                    slot[c] += 1
            else:
                for term, n in other.get((i, c), {}).items():
                    total += n
                    slot = postings.get(term)
                    if slot is None:
                        slot = postings[term] = [0, 0, 0, 0, 0]
                    slot[c] += n
        out.append((total, postings))
    return out


def _learn_stems(words: Iterable[str]) -> None:
    """Ask FTS5 for the Porter stem of every word not seen yet (one row per word)."""
    new = sorted(w for w in words if w not in _stems)
    if not new:
        return
    with _lock:
        conn = _tokenizer()
        for start in range(0, len(new), _BATCH * 10):
            batch = new[start : start + _BATCH * 10]
            conn.execute("BEGIN")
            conn.executemany("INSERT INTO t (rowid, name) VALUES (?, ?)", list(enumerate(batch)))
            found: dict[int, list[str]] = {}
            for doc, term in conn.execute("SELECT doc, term FROM v"):
                found.setdefault(doc, []).append(term)
            conn.execute("DELETE FROM t")
            conn.execute("COMMIT")
            for i, word in enumerate(batch):
                terms = found.get(i, [])
                _stems[word] = terms[0] if len(terms) == 1 else None


def _tokenize_with_fts5(texts: list[tuple[int, int, str]]) -> dict[tuple[int, int], Counter[str]]:
    """Terms of arbitrary texts, keyed by (document, field), counted by FTS5 itself."""
    out: dict[tuple[int, int], Counter[str]] = {}
    with _lock:
        conn = _tokenizer()
        for start in range(0, len(texts), _BATCH):
            batch = texts[start : start + _BATCH]
            conn.execute("BEGIN")
            conn.executemany(
                "INSERT INTO t (rowid, doc) VALUES (?, ?)",
                [(j, text) for j, (_, _, text) in enumerate(batch)],
            )
            for j, term in conn.execute("SELECT doc, term FROM v"):
                i, c, _ = batch[j]
                out.setdefault((i, c), Counter())[term] += 1
            conn.execute("DELETE FROM t")
            conn.execute("COMMIT")
    return out


def query_terms(words: Sequence[str]) -> list[str | None]:
    """:func:`query_term` of each word, the new plain words stemmed in one ask of FTS5: each
    ask is a transaction on the tokenizer's table, 0.2-0.4 ms whether of one word or ten."""
    _learn_stems(w for w in words if _PLAIN.fullmatch(w) and " " not in w)
    return [query_term(w) for w in words]


def query_term(word: str) -> str | None:
    """The FTS5 term a query word matches (stemmed); None if it makes no single token, which
    ``search.text.query_words`` never produces (its words are ASCII letters and digits)."""
    if word not in _stems:
        if _PLAIN.fullmatch(word) and " " not in word:
            _learn_stems([word])
        else:
            counted = _tokenize_with_fts5([(0, 0, word)]).get((0, 0), Counter())
            return next(iter(counted)) if sum(counted.values()) == 1 else None
    return _stems[word]


def idf(rows: int, hits: int) -> float:
    """FTS5's IDF of a phrase found in ``hits`` of ``rows`` documents (never <= 0)."""
    value = math.log((rows - hits + 0.5) / (hits + 0.5))
    return value if value > 0.0 else 1e-6


def bm25(freqs: Iterable[float], idfs: Sequence[float], doc_tokens: int, avgdl: float) -> float:
    """FTS5's bm25 score (positive: higher is better) of one document, phrase by phrase in
    query order; ``freqs`` are the field-weighted counts of each phrase. A reference for tests;
    the server evaluates the same expression in SQL."""
    score = 0.0
    for f, w in zip(freqs, idfs, strict=True):
        score += w * ((f * K1_PLUS_1) / (f + K1 * (ONE_MINUS_B + B * doc_tokens / avgdl)))
    return score
