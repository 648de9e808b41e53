"""The ranked lists scored on the natural questions, each as a list of line spans.

* ``search``: astrag's list for a person (``Index.search``), its hits' own lines;
* ``seeds``: the seeds a context starts from (``Index.answer(...).seeds``), in seed order;
* ``context``: the items of the assembled context in the order the text shows them, each as
  the lines it shows: a full item its span, a signature form its header line only (a class
  shown as its signature shows none of its methods);
* ``bm25-files``: Okapi BM25 over whole files (the code-search benchmark's baseline);
* ``bm25-symbols``: Okapi BM25 over each definition's own source lines, path included.

Both BM25 baselines use semble's tokenizer (``code_search/bm25.py``) over the files astrag
discovers, so every system searches the same corpus.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from code_search.bm25 import BM25, enrich, tokenize

from questions.metrics import K, Span

Ranker = Callable[[str], list[Span]]
ASTRAG = ("search", "seeds", "context")
BASELINES = ("bm25-files", "bm25-symbols")


def corpus_files(root: Path) -> list[str]:
    from astrag.config import load_config
    from astrag.discover import discover

    return sorted(f.path for f in discover(root, load_config(root)).files)


def _read(root: Path, rel: str) -> str:
    return (root / rel).read_text(encoding="utf-8", errors="replace")


def bm25_files(root: Path, files: list[str]) -> Ranker:
    lines: dict[str, int] = {}
    docs = []
    for rel in files:
        text = _read(root, rel)
        lines[rel] = text.count("\n") + 1
        docs.append((rel, tokenize(enrich(rel, text))))
    index = BM25.build(docs)
    return lambda q: [Span(p, 1, lines[p]) for p, _ in index.search(tokenize(q), K)]


def bm25_symbols(root: Path, symbols: list[Any]) -> Ranker:
    """Every definition but modules (a module's text is its file's: ``bm25-files``)."""
    texts: dict[str, list[str]] = {}
    spans: dict[str, Span] = {}
    docs = []
    for s in symbols:
        if not s.path or s.kind == "module":
            continue
        if s.path not in texts:
            texts[s.path] = _read(root, s.path).splitlines()
        body = "\n".join(texts[s.path][s.start_line - 1 : s.end_line])
        spans[s.id] = Span(s.path, s.start_line, s.end_line)
        docs.append((s.id, tokenize(enrich(s.path, body))))
    index = BM25.build(docs)
    return lambda q: [spans[sid] for sid, _ in index.search(tokenize(q), K)]


def span_of(symbol: Any) -> Span:
    return Span(symbol.path, symbol.start_line, symbol.end_line)


class AstragRankers:
    """``search``, ``seeds`` and ``context`` from one open index; an answer is computed
    once per question for both of its lists."""

    def __init__(self, idx: Any, budget: int) -> None:
        self.idx = idx
        self.budget = budget
        self._answers: dict[str, Any] = {}

    def answer(self, query: str) -> Any:
        if query not in self._answers:
            self._answers[query] = self.idx.answer(query, self.budget)
        return self._answers[query]

    def search(self, query: str) -> list[Span]:
        return [span_of(h.symbol) for h in self.idx.search(query, limit=K)]

    def seeds(self, query: str) -> list[Span]:
        return [span_of(h.symbol) for h in self.answer(query).seeds[:K]]

    def context(self, query: str) -> list[Span]:
        items = self.answer(query).context.items
        return [Span(i.path, i.start_line, i.end_line if i.full else i.start_line) for i in items]

    def context_paths(self, query: str) -> list[str]:
        return [i.path for i in self.answer(query).context.items]
