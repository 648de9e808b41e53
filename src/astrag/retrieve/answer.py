"""A question in, a budgeted context out: plan, seed, expand, assemble.

The one place the retrieval stages meet; each stage is its own module and knows nothing of
the others. Deterministic: the same index and query give the same context.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from astrag.discover import SourceFile, content_hash, read_source
from astrag.graph.facts import Symbol
from astrag.query.call_context import call_evidence, notes_budget, with_notes
from astrag.query.overview import asks_for_overview, overview_context
from astrag.query.repomap import RepoMap, repo_map
from astrag.retrieve.assemble import Candidate, Context, assemble
from astrag.retrieve.expand import Reached, Seed, expand
from astrag.retrieve.plan import Intent, Plan, plain_words, plan_query
from astrag.search.engine import Hit, Searcher
from astrag.search.support import asked_kinds, is_support
from astrag.search.text import code_words, path_query_words, query_words
from astrag.search.within import name_coverage
from astrag.sources import shown_lines
from astrag.store.base import FileRecord

SUPPORT_WEIGHT = 0.4
# An item whose own name carries the question's words leads before one that is only as
# relevant (search/within.py does the same for a file's places in a person's list); the
# items and their forms stay the same. Natural questions, tune split: context precision@3
# 0.585 -> 0.615, each repository level or up; at 1.0 0.618, but the retrieval benchmark's
# tune MRR at 2,000 tokens then drops 0.002 where at 0.5 it is level (docs/BENCHMARKS.md §7).
LEAD_NAME_WEIGHT = 0.5
# How many seeds, and what share of the budget shows full source (the rest: signatures), by
# intent. Work on code (a change, a bug, a loose description of either) needs the bodies it
# will edit, from a wide set of seeds; a question about the graph (who calls X) needs many
# neighbours' signatures more than any one body. Measured on the retrieval benchmark at 4k
# tokens (commit messages, so change/bug/search): 8 seeds and 0.6 -> function recall 47 %,
# needed definitions 62 %; 16 and 0.9 -> 53 % and 51 % (docs/BENCHMARKS.md section 4).
_SHAPES: dict[Intent, tuple[int, float]] = {
    Intent.CHANGE: (16, 0.9),
    Intent.BUG: (16, 0.9),
    Intent.SEARCH: (16, 0.9),
    Intent.EXPLAIN: (12, 0.75),
}
_DEFAULT_SHAPE = (8, 0.6)
_ASSEMBLE = 160
# graph questions: about a named symbol, they start from it alone
_GRAPH_INTENTS = {
    Intent.CALLERS,
    Intent.CALLEES,
    Intent.IMPLEMENTATIONS,
    Intent.USAGES,
    Intent.DEFINITION,
}

# intents whose answer is every use of something, tests included
_EVERY_USE = {Intent.CALLERS, Intent.USAGES, Intent.IMPLEMENTATIONS, Intent.CHANGE}
_NAMED = "seed: named in the query"

Planner = Callable[[str], Mapping[str, object]]


@dataclass(frozen=True, slots=True)
class Answer:
    plan: Plan
    seeds: tuple[Hit, ...]
    reached: tuple[Reached, ...]
    context: Context
    notes: tuple[str, ...] = ()  # what the context says was not found, at the top of its text


def answer(
    searcher: Searcher,
    root: Path,
    query: str,
    budget: int,
    *,
    llm: Planner | None = None,
    sources: SourceCache | None = None,
    overview: Callable[[int], RepoMap] | None = None,
) -> Answer:
    """``overview(budget)`` makes the repository map an overview question is answered with
    (default: ranked from the store, each time)."""
    if budget <= 0:
        raise ValueError(f"budget must be a positive number of tokens, not {budget}")
    plan = plan_query(query, llm=llm)
    if asks_for_overview(plan):
        repo_map = (overview or (lambda b: _repo_map(searcher, b)))(budget)
        return Answer(plan, (), (), overview_context(plan.query, repo_map))
    seeds_wanted, full_share = _SHAPES.get(plan.intent, _DEFAULT_SHAPE)
    # more hits than seeds: tests that match the words best are pushed down, not out
    plain = plain_words(query, plan.targets) if plan.rule != "llm" else frozenset()
    hits = searcher.search(
        plan.terms, limit=seeds_wanted * 3, targets=plan.targets, plain=plain, diversify=False
    )
    asked = asked_kinds(path_query_words(query))
    hits = sorted(hits, key=lambda h: (-h.score * _prior(h.symbol, asked), h.symbol.id))
    hits = hits[:seeds_wanted]
    hits = _focus(hits, plan)
    seeds = _seeds(hits, plan)
    reached = expand(searcher.store, seeds, plan)
    notes, extra = _call_evidence(searcher, plan, hits, reached)
    candidates = sorted(
        [
            Candidate(r.symbol, round(r.score * _prior(r.symbol, asked), 6), r.reason)
            for r in _shown(reached, plan, asked)
        ]
        + extra,
        key=lambda c: (-c.score, c.symbol.id),
    )[:_ASSEMBLE]  # beyond the best few hundred, nothing fits even the largest budget used
    source = sources or SourceCache(root)
    source.begin()
    block, room = notes_budget(notes, budget)
    words = query_words(plan.terms)
    context = assemble(
        query,
        plan.intent.value,
        candidates,
        room,
        source=source,
        full_share=full_share,
        lead_boost=lambda s: 1.0 + LEAD_NAME_WEIGHT * name_coverage(words, s.name),
    )
    context = with_notes(context, block, budget)
    return Answer(plan, tuple(hits), tuple(reached), context, tuple(notes))


def _repo_map(searcher: Searcher, budget: int) -> RepoMap:
    with searcher.store.snapshot():
        symbols, edges = searcher.store.all_symbols(), searcher.store.all_edges()
    return repo_map(symbols, edges, budget)


def _call_evidence(
    searcher: Searcher, plan: Plan, hits: list[Hit], reached: list[Reached]
) -> tuple[list[str], list[Candidate]]:
    """For "who calls X" / "what does X call": the dispatch and candidate links the graph's
    edges alone miss, and notes on what was not found (:mod:`astrag.query.call_context`)."""
    if plan.intent not in (Intent.CALLERS, Intent.CALLEES):
        return [], []
    named = [h.symbol for h in hits if h.rankers[0] == "exact"]
    scores = {r.symbol.id: r.score for r in reached}
    relation = "callers" if plan.intent == Intent.CALLERS else "callees"
    return call_evidence(searcher.store, relation, named, lambda sid: scores.get(sid, 0.0))


def _prior(symbol: Symbol, asked: frozenset[str]) -> float:
    """Tests, examples and the other support files explain code but are rarely what a question
    or change is about: they come after the code itself unless the question asks for their
    kind (tests alone, retrieval benchmark at 4k tokens, tune split: function recall 46 -> 47 %,
    needed definitions 57 -> 63 %)."""
    return SUPPORT_WEIGHT if is_support(symbol.path, asked) else 1.0


def _shown(reached: list[Reached], plan: Plan, asked: frozenset[str]) -> list[Reached]:
    """What a context may show: support files (tests, examples, ...) only when the question
    asks for their kind, names them, or is a task or relation where every use counts (a
    test that calls what a change renames must change too)."""
    if plan.intent in _EVERY_USE:
        return reached
    return [
        r
        for r in reached
        if _prior(r.symbol, asked) == 1.0 or (r.hop == 0 and r.reason.startswith(_NAMED))
    ]


def _focus(hits: list[Hit], plan: Plan) -> list[Hit]:
    """A graph question about a named symbol starts from the named symbols alone: "who calls
    X" is answered by X's callers, not by whatever else shares X's words."""
    if plan.intent not in _GRAPH_INTENTS:
        return hits
    named = [h for h in hits if h.rankers[0] == "exact"]
    return named or hits


def _seeds(hits: list[Hit], plan: Plan) -> list[Seed]:
    if not hits:
        return []
    top = hits[0].score or 1.0
    words = query_words(plan.terms)
    return [Seed(h.symbol, h.score / top, _seed_reason(h, words)) for h in hits]


def _seed_reason(hit: Hit, words: list[str]) -> str:
    if hit.rankers[0] == "exact":
        return f"{_NAMED} ({hit.matched})"
    s = hit.symbol
    own = set(code_words(f"{s.qualname} {s.path} {s.signature} {s.docstring}"))
    # a stem is enough: "signatures" in the query matches "signature" in the code
    shared = [w for w in words if w in own or any(o.startswith(w[:5]) for o in own if len(w) > 5)]
    if shared:
        return f"seed: matches '{' '.join(shared)}'"
    if "lexical" in hit.rankers:
        return "seed: its body uses the query's words"
    return "seed: similar in meaning to the query"


class SourceCache:
    """Symbol source from the files on disk. Kept by an open index across answers: a file is
    read again only when its size or mtime changed (an agent edits while it asks).

    With ``recorded`` (the index's file records), the text read must be the text the index
    was built from (same content hash): a file rewritten since would put new lines under an
    old symbol's name and line numbers, so its symbols get a note saying so instead. Lines
    are split as editors and the parsers count them (``\\n``, ``\\r\\n``), never at a form
    feed or U+2028."""

    def __init__(
        self, root: Path, recorded: Callable[[], Mapping[str, FileRecord]] | None = None
    ) -> None:
        self.root = root
        self._root = os.fspath(root)
        self.recorded = recorded
        self.records: Mapping[str, FileRecord] = {}
        self.files: dict[str, tuple[tuple[int, int, str | None], list[str] | None]] = {}
        self.checked: set[str] = set()  # files stat()ed during the current answer

    def begin(self) -> None:
        """A new answer: each file is checked against the disk again, once."""
        self.checked.clear()
        if self.recorded is not None:
            # looked up per file shown, not copied: a large index has thousands of records
            self.records = self.recorded()

    def __call__(self, symbol: Symbol) -> str:
        if not symbol.path:
            return ""
        lines = self._lines(symbol.path)
        if lines is None:
            return (
                f"(source not shown: {symbol.path} changed on disk since it was indexed; "
                "re-index to see it)"
            )
        return "\n".join(lines[symbol.start_line - 1 : symbol.end_line])

    def _lines(self, path: str) -> list[str] | None:
        if path in self.checked and path in self.files:
            return self.files[path][1]
        self.checked.add(path)
        try:
            # a string join, not pathlib: a context checks some forty files, each answer
            st = os.stat(os.path.join(self._root, path))
        except OSError:
            return []
        record = self.records.get(path)
        known = record.hash if record is not None else None
        key = (st.st_size, st.st_mtime_ns, known)
        cached = self.files.get(path)
        if cached is None or cached[0] != key:
            sf = SourceFile(path, "", st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino, link=True)
            data = read_source(self.root, sf).source
            changed = data is not None and known is not None and content_hash(data) != known
            lines = None if changed else shown_lines(data if data is not None else b"")
            cached = (key, lines)
            self.files[path] = cached
        return cached[1]
