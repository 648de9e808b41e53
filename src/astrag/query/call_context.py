"""What a context for "who calls X" / "what does X call" adds to graph expansion: the calls
that may dispatch to X (or from X's calls to overriders), the calls of X's aliases, the
unresolved call sites that may be calls of X, and, at the top of the text, what was not found
("no resolved callers of X; 3 call sites with an unknown receiver call `.matches(`
(unverified): …").

Expansion follows the graph's edges only, so for ``Route.matches`` it finds no caller at all
when every call goes through ``BaseRoute.matches`` or an untyped receiver; an agent told that
nothing calls a method deletes it. The callers and callees listed here are exactly those of
``astrag callers``/``callees`` (:mod:`astrag.query.calls`), so the CLI, the MCP tools and the
context never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from astrag.graph.facts import Symbol
from astrag.query import calls
from astrag.retrieve.assemble import Candidate, Context
from astrag.retrieve.tokens import count_tokens
from astrag.store.base import GraphStore

NAMED = 3  # the named symbols of a question looked at: "who calls A or B" names two
CANDIDATES = 8  # unverified call sites shown as items; the note counts them all
DISPATCH_SHARE = 0.5  # a dispatch (or alias) caller's score, relative to the symbol it reaches
CANDIDATE_SHARE = 0.25
NOTE_SHARE = 0.5  # notes never take more than this share of the budget


def call_evidence(
    store: GraphStore, relation: str, named: Sequence[Symbol], score: Callable[[str], float]
) -> tuple[list[str], list[Candidate]]:
    """Notes and extra context candidates for a ``relation`` ("callers" or "callees")
    question about ``named``; ``score(id)`` is a named symbol's score in the expansion."""
    notes: list[str] = []
    extra: list[Candidate] = []
    for symbol in [s for s in named if s.kind != "module"][:NAMED]:
        walk = calls.callers if relation == "callers" else calls.callees
        found = walk(store, symbol, 1)
        notes += calls.notes(symbol, relation, found)
        base = score(symbol.id) or 1.0
        shown = 0
        for r in found:
            if r.link in (calls.DISPATCH, calls.ALIASED):
                extra.append(Candidate(r.symbol, base * DISPATCH_SHARE, _reason(r, symbol)))
            elif r.link == calls.CANDIDATE and shown < CANDIDATES:
                shown += 1
                extra.append(Candidate(r.symbol, base * CANDIDATE_SHARE, _reason(r, symbol)))
    return notes, extra


def _reason(r: calls.Related, asked: Symbol) -> str:
    through = r.through.removeprefix("unresolved::")
    label = through.rpartition("::")[2] or through
    if r.link == calls.CANDIDATE and r.through == calls.AS_VALUE:
        return f"unverified: uses {asked.qualname} as a value at line {r.edge.line}"
    if r.link == calls.CANDIDATE:
        return f"unverified: calls `{label.removeprefix('?')}(` at line {r.edge.line}"
    if r.link == calls.ALIASED:
        return f"calls {label}, an alias of {asked.qualname}"
    if r.symbol.id == r.edge.source:  # a caller of the method asked about, through its base
        return f"calls {label}, which may dispatch to {asked.qualname}"
    return f"may run where {asked.qualname} calls {label} (overrides it)"


def notes_budget(notes: Sequence[str], budget: int) -> tuple[str, int]:
    """The notes' block for the top of a context (whole notes, as many as fit in a share of
    the budget) and what it leaves of ``budget``."""
    lines: list[str] = []
    for note in notes:
        block = "\n".join([*lines, f"Note: {note}"])
        if count_tokens(block) > budget * NOTE_SHARE:
            break
        lines.append(f"Note: {note}")
    block = "\n".join(lines)
    room = budget - count_tokens(block + "\n\n")
    if not block or room < 1:  # the smallest budgets: the context itself comes first
        return "", budget
    return block, room


def with_notes(context: Context, block: str, budget: int) -> Context:
    """``context`` (assembled in what ``notes_budget`` left) with ``block`` at the top of its
    text, counted against the whole ``budget`` again: the tokens of both are within it."""
    if not block:
        return context
    text = f"{block}\n\n{context.text}" if context.text else block
    return replace(context, text=text, tokens=count_tokens(text), budget=budget)
