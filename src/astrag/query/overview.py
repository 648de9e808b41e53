"""A context for "give me an overview of the architecture": the repository map, not search hits.

A question about the whole repository has no words to search for: every hit shares at most
"architecture" with it. The answer is the map (:mod:`astrag.query.repomap`) in the context's
budget, its definitions the context's items.

Which questions: an overview word ("overview", "architecture", "tour", "big picture", or
"structure"/"organised"/"layout") and no subject but the repository itself: "overview of the
request lifecycle" names a subject, and is a search. (This rule belongs with the intent rules
of ``retrieve/plan.py`` once those have an overview intent; it lives here until then.)
"""

from __future__ import annotations

import re

from astrag.query.repomap import RepoMap, definition_line
from astrag.retrieve.assemble import Context, ContextItem
from astrag.retrieve.plan import Plan
from astrag.retrieve.tokens import count_tokens
from astrag.search.text import query_words

INTENT = "overview"
_OVERVIEW = re.compile(
    r"\b(overview|architecture|architectural|tour|walk ?through|big picture|high[- ]level|"
    r"bird'?s[- ]eye|structure[d]?|organi[sz]ed|organi[sz]ation|layout|laid out|repo map)\b"
)
# words that say "the whole thing" or how to present it, not what it is about
_NOT_A_SUBJECT = frozenset(
    """overview architecture architectural tour walk walkthrough through big picture high level
    bird eye birds structure structured organized organised organization organisation layout
    laid map repo repository codebase base project app application library package system
    give explain describe summary summarize summarise overall whole entire main parts
    components modules pieces key important understand new newcomer quick brief general
    start starting point look like looks""".split()
)


def asks_for_overview(plan: Plan) -> bool:
    """Whether the question is about the repository as a whole (see the module docstring)."""
    if plan.targets:
        return False
    query = plan.query.lower()
    if not _OVERVIEW.search(query):
        return False
    return all(w in _NOT_A_SUBJECT for w in query_words(query))


def overview_context(query: str, m: RepoMap) -> Context:
    """The repository map ``m`` as a context: its text, its definitions as items."""
    items = tuple(
        ContextItem(
            id=e.symbol.id,
            path=e.symbol.path,
            start_line=e.symbol.start_line,
            end_line=e.symbol.end_line,
            symbol=e.symbol.qualname,
            kind=e.symbol.kind,
            score=round(e.score, 6),
            reason="class around a central member" if e.context else "central in the repository",
            content=e.symbol.signature,
            full=False,
            tokens=count_tokens(definition_line(e.symbol, e.depth)),
        )
        for f in m.files
        for e in f.entries
    )
    return Context(query, INTENT, m.budget, m.tokens, items, m.text)
