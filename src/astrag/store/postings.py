"""FTS5's BM25 over the index's postings held in memory, for a process that searches often.

SQLite's FTS5 answers a query by scoring every document that holds any of its words, one by
one (about 5,400 a query on a 495k-line repository: half of a warm ``search``). A process that
keeps the index open (the MCP server, the web view) reads the postings once instead: every
(term, document) pair with its count in each field, from FTS5's own vocabulary, so the terms
are FTS5's (its tokenizer made them). A query then scores the pairs of its terms with numpy in
the double-precision operations of ``fts5_aux.c``, in the same order (``store/lexical.py``), so
every score is bit-identical to FTS5's and the ranking is the store's query's: best first, ties
by id, and of the documents tied at its cut the ones FTS5 keeps.

Built from rows the store reads (``build``), ranked without I/O (``rank``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from astrag.store import lexical

_FIELDS = len(lexical.FIELDS)


@dataclass(frozen=True, slots=True)
class Postings:
    """Every (term, document) pair of an FTS5 table, grouped by term."""

    spans: dict[str, tuple[int, int]]  # term -> its pairs' [start, end) in the arrays below
    docs: np.ndarray  # (pairs,) int64: each pair's rowid (the symbol's name id)
    counts: np.ndarray  # (pairs, fields) int32: the term's occurrences in each field
    doc_tokens: np.ndarray  # float64 by rowid: the document's tokens (``xColumnSize(-1)``)
    rows: int  # documents in the table (``xRowCount``)
    tokens: int  # tokens in the table (``xColumnTotalSize(-1)``)
    names: dict[int, str]  # rowid -> symbol id
    # what a query's scores are made of that no query changes, made at its first use: each
    # pair's field-weighted count, by the weights, and each document's length term
    weighted: dict[tuple[float, ...], np.ndarray] = dataclasses.field(default_factory=dict)
    lengths: list[np.ndarray] = dataclasses.field(default_factory=list)
    by_name: list[np.ndarray] = dataclasses.field(default_factory=list)  # rowid -> id's rank

    @property
    def nbytes(self) -> int:
        """Memory of the arrays (the dictionaries add about as much again on a large index)."""
        return self.docs.nbytes + self.counts.nbytes + self.doc_tokens.nbytes


def build(
    rows: int, terms: Iterable[tuple[str, str, str]], names: Iterable[tuple[int, str]]
) -> Postings:
    """Postings from what the store reads: the number of documents; per term, the rowid and
    the field number of each of its occurrences (comma-separated, and digit by digit, in the
    same order); and each document's symbol id."""
    keys: list[str] = []
    doc_parts: list[np.ndarray] = []
    field_text: list[str] = []
    for term, docs, fields in terms:
        keys.append(term)
        # each term's rowids parsed by numpy as its row arrives: a Python string per
        # occurrence (1.4 million on a 495k-line repository) cost 0.19 s and most of the peak
        doc_parts.append(np.fromstring(docs, dtype=np.int64, sep=","))
        field_text.append(fields)
    lengths = np.fromiter(map(len, field_text), dtype=np.int64, count=len(field_text))
    docs = np.concatenate(doc_parts) if doc_parts else np.zeros(0, dtype=np.int64)
    del doc_parts
    fields = np.frombuffer("".join(field_text).encode(), dtype=np.uint8) - ord("0")
    del field_text
    if len(docs) != len(fields) or len(docs) != int(lengths.sum()):
        raise ValueError(f"{len(docs)} rowids for {len(fields)} fields")
    size = int(docs.max()) + 1 if len(docs) else 1
    term_of = np.repeat(np.arange(len(keys), dtype=np.int32), lengths)
    # by term, then rowid: fts5vocab lists them so (and SQLite groups in its order without
    # sorting), but nothing promises it, hence the check
    same_term = term_of[1:] == term_of[:-1]
    if not bool(np.all(~same_term | (docs[1:] >= docs[:-1]))):
        order = np.lexsort((docs, term_of))
        docs, fields, term_of = docs[order], fields[order], term_of[order]
        same_term = term_of[1:] == term_of[:-1]
    starts = np.ones(len(docs), dtype=bool)  # the first occurrence of each (term, rowid) pair
    starts[1:] = ~same_term | (docs[1:] != docs[:-1])
    del same_term
    pair = np.cumsum(starts, dtype=np.int32) - 1
    pairs = int(pair[-1]) + 1 if len(pair) else 0
    counts = np.zeros((pairs, _FIELDS), dtype=np.int32)
    for field in range(_FIELDS):
        counts[:, field] = np.bincount(pair[fields == field], minlength=pairs)
    del pair
    first = np.searchsorted(term_of[starts], np.arange(len(keys) + 1)).tolist()
    return Postings(
        spans={t: (first[i], first[i + 1]) for i, t in enumerate(keys)},
        docs=docs[starts],
        counts=counts,
        doc_tokens=np.bincount(docs, minlength=size).astype(np.float64),
        rows=rows,
        tokens=len(docs),
        names=dict(names),
    )


def rank(
    postings: Postings, terms: Sequence[str], weights: Sequence[float], limit: int
) -> list[tuple[str, float]]:
    """The ``limit`` best documents holding any of ``terms`` (the query's phrases, each one
    term, in order), with FTS5's ``bm25()`` score negated (higher is better), ties by id, as
    ``SqliteStore._search_fts`` ranks them.
    ``weights`` must be whole numbers: FTS5 adds a field's weight once per occurrence, and
    only then is any order of the sum the same number."""
    p = postings
    if not terms or p.rows == 0:
        return []
    w = np.array((tuple(float(x) for x in weights) + (1.0,) * _FIELDS)[:_FIELDS])
    weighted, length = _query_independent(p, w)
    score = np.zeros(len(p.doc_tokens))
    found = np.zeros(len(p.doc_tokens), dtype=bool)
    for term in terms:
        start, end = p.spans.get(term, (0, 0))
        idf = lexical.idf(p.rows, end - start)
        if start == end:
            continue
        docs = p.docs[start:end]
        f = weighted[start:end]
        # fts5_aux.c: score += idf * ((f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)))
        score[docs] += idf * ((f * lexical.K1_PLUS_1) / (f + length[docs]))
        found[docs] = True
    hits = np.flatnonzero(found)  # by rowid
    scores = score[hits]
    # the store's query: FTS5 keeps the best 2 * limit by score alone, and of the documents
    # tied at that cut, SQLite's sorter keeps those it met first (FTS5 yields rowid order);
    # only then are they ordered by score and id
    kept = 2 * limit
    if len(hits) > kept:
        cut = np.partition(scores, len(hits) - kept)[len(hits) - kept]
        keep = scores > cut
        tied = np.flatnonzero(scores == cut)
        keep[tied[: kept - int(keep.sum())]] = True
        hits, scores = hits[keep], scores[keep]
    # by score, then id: the ids' order as numbers, so that only the best are named
    order = np.lexsort((_by_name(p)[hits], -scores))[:limit]
    names = p.names
    return [
        (names[d], s) for d, s in zip(hits[order].tolist(), scores[order].tolist(), strict=True)
    ]


def _query_independent(p: Postings, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pair's field-weighted count ``f`` for the weights ``w`` and each document's
    ``k1 * (1 - b + b * D / avgdl)``, made once and kept: the same double operations, element
    by element, as a query would make of its own pairs (bit-identical; the weights are whole,
    so ``f`` is exact in any order), without a query paying for them (a sixth of its BM25)."""
    key = tuple(w.tolist())
    weighted = p.weighted.get(key)
    if weighted is None:
        weighted = p.weighted[key] = p.counts @ w
    if not p.lengths:
        avgdl = p.tokens / p.rows
        p.lengths.append(lexical.K1 * (lexical.ONE_MINUS_B + lexical.B * p.doc_tokens / avgdl))
    return weighted, p.lengths[0]


def _by_name(p: Postings) -> np.ndarray:
    """Each rowid's place in the order of the symbol ids (Python's string order), made once:
    ranking up to 400 (score, id) pairs of Python objects per query was as long as scoring."""
    if not p.by_name:
        # a document without a term (every field empty) may lie past the last scored rowid
        rank = np.zeros(max(len(p.doc_tokens), max(p.names, default=-1) + 1), dtype=np.int64)
        ordered = sorted(p.names, key=p.names.__getitem__)
        rank[np.array(ordered, dtype=np.int64)] = np.arange(len(ordered), dtype=np.int64)
        p.by_name.append(rank)
    return p.by_name[0]
