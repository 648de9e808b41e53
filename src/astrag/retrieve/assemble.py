"""Fill a token budget with the most relevant code, and say why each piece is there.

Input: candidates ranked by graph expansion (symbol, score, reason). Output: a
:class:`Context` whose ``text`` is markdown for an LLM — a map of the files touched, then the
items shown in full, most relevant first (what answers the question), then the signatures of
the rest grouped by file (each file's headers first, then its members by relevance) — and
never more than ``budget`` tokens, counted on the final text.

Selection is greedy in relevance order (score, then id, so equal input gives equal output):

* the most relevant symbols get their **full source**, as long as full items stay within
  ``full_share`` of the budget — whole bodies of the few symbols that matter most, and the
  shape of many more;
* everything else gets its **signature form**: the signature plus the first paragraph of its
  docstring; a symbol whose full source does not fit falls back to it;
* a symbol inside an already included full item (a method of a class shown whole) is skipped,
  and a class shown whole replaces the members already included on their own: the same lines
  are never paid for twice;
* modules never get full source — a whole file is rarely the answer and would eat the budget;
  their signature form is their docstring's first paragraph, or just the header line, which
  still tells the reader the file is involved and why (an importer, for a change);
* placeholders (``external::``/``unresolved::``, no path) have no code and are skipped;
* the top candidate is always shown (on its own or inside its class): when even its
  signature form does not fit, it is shown alone, cut to fit (first the code, then the file
  map, finally the header line itself);
* ``items`` are in text order; each item's ``tokens`` is its block alone (header and code).
  ``to_json`` leaves out ``full`` so the JSON shape stays the documented one.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from astrag.graph.facts import CLASS_KINDS, DefKind, Symbol
from astrag.retrieve.tokens import count_joined, count_tokens

DOC_CHARS = 400  # a docstring's first paragraph, at most this long, in a signature form
LEAD = 3  # full items shown first, most relevant first, before the rest grouped by file
MODULE = "module"
_CONTAINERS = frozenset({*CLASS_KINDS, MODULE})
_VALUES = frozenset({DefKind.VARIABLE, DefKind.FIELD})


@dataclass(frozen=True, slots=True)
class Candidate:
    symbol: Symbol
    score: float  # higher is more relevant
    reason: str  # why it is here: "seed: matches 'webhook'", "calls AuthService.login"


@dataclass(frozen=True, slots=True)
class ContextItem:
    id: str
    path: str
    start_line: int
    end_line: int
    symbol: str  # qualname; "" for a module, as in the graph
    kind: str
    score: float
    reason: str
    content: str
    full: bool  # content is the full source; otherwise signature + docstring (maybe cut)
    tokens: int  # of this item's rendered block (header and fenced code), not of the map

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "path": self.path,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "symbol": self.symbol,
            "kind": self.kind,
            "score": self.score,
            "reason": self.reason,
            "content": self.content,
        }


@dataclass(frozen=True, slots=True)
class Context:
    query: str
    intent: str
    budget: int
    tokens: int  # count(text), always <= budget
    items: tuple[ContextItem, ...]  # in the order they appear in text
    text: str

    def to_json(self) -> dict[str, object]:
        return {
            "query": self.query,
            "intent": self.intent,
            "budget": self.budget,
            "tokens": self.tokens,
            "items": [item.to_json() for item in self.items],
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class _Entry:
    """A candidate chosen for the context, in the form it will be shown in."""

    candidate: Candidate
    rank: int  # position in relevance order; lower is more relevant
    full: bool
    content: str

    @property
    def symbol(self) -> Symbol:
        return self.candidate.symbol


# ---------------------------------------------------------------------------------- rendering


def _display_name(symbol: Symbol) -> str:
    return symbol.qualname or symbol.name or symbol.path


def _header(entry: _Entry) -> str:
    s = entry.symbol
    head = f"{s.path}:{s.start_line}-{s.end_line}  {s.kind} {_display_name(s)}"
    return f"{head} — {entry.candidate.reason}" if entry.candidate.reason else head


@lru_cache(maxsize=4096)
def _prepared(text: str) -> str:
    # cached across calls: a warm process shows the same symbols for many queries, and
    # dedenting is a regex pass over every line
    return textwrap.dedent(text).strip("\n").rstrip()


def _block_pieces(entry: _Entry) -> list[str]:
    """An item's block as the pieces ``count_joined`` counts apart: the header, which carries
    this query's reason, and the fenced code, the same for every query."""
    if not entry.content:
        return [_header(entry)]
    return [_header(entry) + "\n", _fenced(entry.content, entry.symbol.language)]


def _block(entry: _Entry) -> str:
    return "".join(_block_pieces(entry))


def _counted(pieces: list[str], count: Callable[[str], int]) -> int:
    """``count("".join(pieces))``; for cl100k from the pieces' cached counts (exact, see
    ``count_joined``), for any other counter on the joined text."""
    return count_joined(pieces) if count is count_tokens else count("".join(pieces))


@lru_cache(maxsize=4096)
def _fenced(content: str, language: str) -> str:
    # a fence longer than any backtick run inside, so markdown in docstrings cannot close it
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{content}\n{fence}"


def _level(symbol: Symbol) -> float:
    """No item leads for anything but its relevance."""
    return 1.0


def _grouped(
    entries: Sequence[_Entry],
    lead: int = 0,
    lead_boost: Callable[[Symbol], float] = _level,
    within: Mapping[str, Sequence[Candidate]] | None = None,
) -> list[_Entry]:
    """Entries in text order: the ``lead`` items that answer best first, by relevance times
    ``lead_boost`` (what answers the question), then the rest grouped: files by their best
    item, and in each file its frame then its members (:func:`_in_file`). ``within``: by an
    item's id, the candidates whose lines it shows besides its own (a class shown whole and
    its methods): an item leads as well as the best of them would have."""
    inside = within or {}

    def answers_as(e: _Entry) -> float:
        shown = (c for c in inside.get(e.symbol.id, ()) if c.symbol.kind not in _VALUES)
        return max(c.score * lead_boost(c.symbol) for c in (e.candidate, *shown))

    first = sorted(
        (e for e in entries if _answers(e)),
        key=lambda e: (-answers_as(e), e.rank),
    )[:lead]
    # by identity: comparing entries field by field compared their symbols (a thousand
    # comparisons a context); an entry is one object from selection to text
    entries = [e for e in entries if not any(e is f for f in first)]
    best: dict[str, tuple[float, int]] = {}
    for e in entries:
        key = (-e.candidate.score, e.rank)
        best[e.symbol.path] = min(best.get(e.symbol.path, key), key)
    return first + sorted(
        entries,
        key=lambda e: (
            best[e.symbol.path],
            e.symbol.path,
            _in_file(e),
            e.symbol.start_line,
            -e.symbol.end_line,
            e.symbol.id,
        ),
    )


def _in_file(entry: _Entry) -> tuple[bool, int]:
    """Where an item stands in its file's group: the file's frame first, in line order (its
    module's and classes' headers: where the rest lives), then its members most relevant
    first. The group is an excerpt, not the file, so a reader who stops early (or an LLM,
    whose attention fades with position) has met what the question is about before what the
    graph only reached."""
    frame = entry.symbol.kind in _CONTAINERS and not entry.full
    return (not frame, 0 if frame else entry.rank)


def _answers(entry: _Entry) -> bool:
    """An entry that can lead: shown in full, or a function's signature; a class or module
    shown by its header alone is a map of its members, and a variable or field is one line
    of value: neither shows how anything is done (they keep their place in their file)."""
    kind = entry.symbol.kind
    return kind not in _VALUES and (entry.full or kind not in _CONTAINERS)


def _file_map(ordered: Sequence[_Entry]) -> str:
    """The files touched, in the order given (text order when rendering), with how many
    items each contributes: the headers below name the symbols, so the map does not."""
    files: dict[str, int] = {}
    for e in ordered:
        files[e.symbol.path] = files.get(e.symbol.path, 0) + 1
    return "Files:\n" + "\n".join(
        f"- {path} ({n} {'item' if n == 1 else 'items'})" for path, n in files.items()
    )


def _render(entries: Sequence[_Entry], with_map: bool = True) -> tuple[list[_Entry], str]:
    ordered, pieces = _pieces(entries, with_map)
    return ordered, "".join(pieces)


def _pieces(
    entries: Sequence[_Entry],
    with_map: bool = True,
    lead: int = 0,
    lead_boost: Callable[[Symbol], float] = _level,
    within: Mapping[str, Sequence[Candidate]] | None = None,
) -> tuple[list[_Entry], list[str]]:
    """The text in pieces that join to it, cut after line breaks (see ``_block_pieces``), so
    ``count_joined`` finds most of them counted already."""
    ordered = _grouped(entries, lead, lead_boost, within)
    pieces: list[str] = []
    if with_map and ordered:
        pieces.append(_file_map(ordered) + "\n\n")
    for e in ordered:
        block = _block_pieces(e)
        block[-1] += "\n\n"
        pieces += block
    if pieces:
        pieces[-1] = pieces[-1][:-2]  # the blocks are joined by a blank line, not ended by one
    return ordered, pieces


# ------------------------------------------------------------------------------------ content


def _first_paragraph(docstring: str) -> str:
    paragraph = docstring.strip().split("\n\n", 1)[0]
    text = " ".join(paragraph.split())
    if len(text) <= DOC_CHARS:
        return text
    cut = text.rfind(" ", 0, DOC_CHARS)
    return text[: cut if cut > 0 else DOC_CHARS] + " …"


def _signature_form(symbol: Symbol, source: Callable[[Symbol], str]) -> str:
    doc = _first_paragraph(symbol.docstring)
    python = symbol.language == "python"
    if symbol.kind == MODULE:
        if not doc:
            return ""
        return f'"""{doc}"""' if python else f"/** {doc} */"
    signature = symbol.signature.strip()
    if not signature:
        # variables and fields may have no signature; their first line is what declares them
        signature = next((ln.strip() for ln in source(symbol).split("\n") if ln.strip()), "")
    if not doc:
        return signature
    # the docstring where the language puts it, so the block still reads as code
    return f'{signature}\n    """{doc}"""' if python else f"/** {doc} */\n{signature}"


def _contains(outer: Symbol, inner: Symbol) -> bool:
    return (
        outer.id != inner.id
        and outer.path == inner.path
        and outer.start_line <= inner.start_line
        and inner.end_line <= outer.end_line
    )


def _ranked(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Renderable candidates, most relevant first, each symbol once (at its best score)."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for c in sorted(candidates, key=lambda c: (-c.score, c.symbol.id)):
        if c.symbol.path and c.symbol.id not in seen:
            seen.add(c.symbol.id)
            out.append(c)
    return out


# --------------------------------------------------------------------------------- truncation


def _longest_prefix(text: str, fits: Callable[[str], bool]) -> str:
    """The longest prefix of ``text`` that ``fits``: whole lines if at least one line fits,
    else part of the first line. Only prefixes ``fits`` accepted are returned ("" otherwise),
    so the result fits even if ``fits`` is not monotonic."""
    lines = text.split("\n")
    lo, hi = 0, len(lines)  # invariant: lines[:lo] fits (or lo == 0), lines[:hi+1] does not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits("\n".join(lines[:mid])):
            lo = mid
        else:
            hi = mid - 1
    if lo > 0:
        return "\n".join(lines[:lo])
    first = lines[0]
    lo, hi = 0, len(first)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(first[:mid]):
            lo = mid
        else:
            hi = mid - 1
    return first[:lo] if lo and fits(first[:lo]) else ""


def _cut_to_fit(
    candidate: Candidate, content: str, budget: int, count: Callable[[str], int]
) -> tuple[list[_Entry], str]:
    """One item alone, cut down until the text fits: code first, then the map, then the
    header line itself."""

    def entry(text: str) -> _Entry:
        return _Entry(candidate, 0, False, text)

    for with_map in (True, False):
        if count(_render([entry("")], with_map)[1]) <= budget:
            kept = _longest_prefix(
                content, lambda c, m=with_map: count(_render([entry(c)], m)[1]) <= budget
            )
            return _render([entry(kept)], with_map)
    header = _longest_prefix(_header(entry("")), lambda t: count(t) <= budget)
    return [entry("")], header


# ----------------------------------------------------------------------------------- assemble

_SMALLEST_BLOCK = 12  # tokens: a header line with a short signature
_MAX_CHARS_PER_TOKEN = 6  # code averages 3-4 characters a token


def assemble(
    query: str,
    intent: str,
    candidates: Sequence[Candidate],
    budget: int,
    *,
    source: Callable[[Symbol], str],
    count: Callable[[str], int] = count_tokens,
    full_share: float = 0.6,
    lead: int | None = None,
    lead_boost: Callable[[Symbol], float] = _level,
) -> Context:
    """The best context for ``candidates`` within ``budget`` tokens of ``count``.

    ``lead_boost(symbol)`` multiplies an item's relevance when the lead is chosen (which
    items are shown, and in what form, follows relevance alone).

    ``source(symbol)`` gives a symbol's full source (its lines, 1-based inclusive), or ``""``
    when it is unavailable (then the symbol gets its signature form). Raises ``ValueError`` for
    a budget below 1 or a ``full_share`` outside [0, 1].
    """
    if budget <= 0:
        raise ValueError(f"budget must be a positive number of tokens, got {budget}")
    if not (0.0 <= full_share <= 1.0) or math.isnan(full_share):
        raise ValueError(f"full_share must be between 0 and 1, got {full_share}")

    sources: dict[str, str] = {}

    def source_of(symbol: Symbol) -> str:
        if symbol.id not in sources:
            # dedented: a method reads as a unit without its class's indentation, and the
            # indentation would cost tokens on every line
            sources[symbol.id] = _prepared(source(symbol))
        return sources[symbol.id]

    costs: dict[tuple[str, bool], int] = {}

    def cost(e: _Entry) -> int:
        # an entry's content follows from its symbol and form, so they key the cache. The
        # header (it carries this query's reason) and the fenced code are counted apart: the
        # code's count is then the same for every query and count()'s cache serves it. The
        # sum can differ from the joint count by a token at the seam; the final text is
        # counted for real below.
        key = (e.symbol.id, e.full)
        if key not in costs:
            fenced = _fenced(e.content, e.symbol.language) if e.content else ""
            # a header line is short, mostly path and identifiers: a quarter of its characters
            # bounds its tokens from above, without tokenizing a line unique to this query
            costs[key] = len(_header(e)) // 4 + 2 + (count(fenced) if fenced else 0)
        return costs[key]

    ranked = _ranked(candidates)
    selected: list[_Entry] = []
    # the selected entries by file, in selection order: what can contain a candidate, or be
    # contained by it, is in its own file (a scan of all selected per candidate and option
    # was a tenth of a warm context on a large repository)
    by_path: dict[str, list[_Entry]] = {}
    # by a class shown whole, the candidates whose lines it shows besides its own: it is where
    # its methods' answers are read, so it leads as they would have (hapi's "how are routes
    # matched": the router's ``Server.match`` was the best answer, its class replaced it and
    # led nothing). Not a function shown whole, whose nested functions would lift it: on the
    # retrieval benchmark's tune split that cost MRR at 2,000 tokens (docs/BENCHMARKS.md §7).
    within: dict[str, list[Candidate]] = {}
    blocks = 0  # sum of cost() over selected
    full_blocks = 0  # the same over selected full items
    map_tokens = 0  # count() of the file map of selected
    full_limit = full_share * budget

    def options(cand: Candidate, rank: int, room: int) -> Iterator[_Entry]:
        sym = cand.symbol
        # code averages well under _MAX_CHARS_PER_TOKEN characters a token, so a source longer
        # than that many per token of room cannot fit: skip it without tokenizing it
        if (
            sym.kind != MODULE
            and source_of(sym)
            and len(source_of(sym)) <= room * _MAX_CHARS_PER_TOKEN
        ):
            yield _Entry(cand, rank, True, source_of(sym))
        yield _Entry(cand, rank, False, _signature_form(sym, source_of))

    for rank, cand in enumerate(ranked):
        sym = cand.symbol
        here = by_path.get(sym.path, ())
        shown_in = next((e for e in here if e.full and _contains(e.symbol, sym)), None)
        if shown_in is not None:
            if shown_in.symbol.kind in _CONTAINERS:
                within.setdefault(shown_in.symbol.id, []).append(cand)
            continue  # its lines are already in the context
        room = budget - (blocks + len(selected) + map_tokens)
        for option in options(cand, rank, room):
            # a class shown whole replaces its members shown on their own
            dropped = [e for e in here if _contains(sym, e.symbol)] if option.full else []
            new_blocks = blocks - sum(cost(e) for e in dropped) + cost(option)
            new_full = full_blocks - sum(cost(e) for e in dropped if e.full)
            if option.full:
                new_full += cost(option)
                if new_full > full_limit:
                    continue
            # Estimate: each block counted once (cached), about a token per "\n\n" seam, and
            # the file map, counted only when the blocks alone leave room for it. The
            # estimate steers the greedy choice; the final text is counted for real below.
            seams = len(selected) - len(dropped) + 1
            # the map only grows unless members are dropped: its last size is a lower bound
            floor = 0 if dropped else map_tokens
            if new_blocks + seams + floor > budget:
                continue
            trial = (
                [e for e in selected if e not in dropped] + [option]
                if dropped
                else [*selected, option]
            )
            if dropped or not selected:
                trial_map = count(_file_map(trial))
            else:
                # a new file adds a line to the map (a known file at most changes a count);
                # recounting the whole map per candidate made assembly quadratic
                new_file = sym.path not in by_path
                trial_map = map_tokens + (count(f"- {sym.path} (1 item)\n") if new_file else 0)
            if trial_map + new_blocks + seams <= budget:
                selected = trial
                if dropped:
                    by_path[sym.path] = [e for e in here if e not in dropped]
                    if sym.kind in _CONTAINERS:
                        inner = within.setdefault(sym.id, [])
                        for e in dropped:
                            inner += [e.candidate, *within.pop(e.symbol.id, ())]
                by_path.setdefault(sym.path, []).append(option)
                blocks, full_blocks, map_tokens = new_blocks, new_full, trial_map
                break
        else:
            if rank == 0:
                break  # the top candidate must be shown: cut it to fit, alone, below
        if budget - (blocks + len(selected) + map_tokens) < _SMALLEST_BLOCK:
            break  # nothing more fits: stop instead of trying every remaining candidate

    boosts: dict[str, float] = {}

    def boost(symbol: Symbol) -> float:
        # each symbol's once: the text is rendered again for every entry dropped below
        if symbol.id not in boosts:
            boosts[symbol.id] = lead_boost(symbol)
        return boosts[symbol.id]

    def rendered(entries: list[_Entry]) -> tuple[list[_Entry], str, int]:
        ordered, pieces = _pieces(
            entries, lead=LEAD if lead is None else lead, lead_boost=boost, within=within
        )
        return ordered, "".join(pieces), _counted(pieces, count)

    ordered, text, tokens = rendered(selected)
    # the estimate can be short of the real count at seams; drop the least relevant until the
    # real text fits, keeping the top candidate whatever happens
    while selected and tokens > budget and len(selected) > 1:
        selected.remove(max(selected, key=lambda e: e.rank))
        ordered, text, tokens = rendered(selected)
    if ranked and (not selected or tokens > budget):
        top = ranked[0]
        ordered, text = _cut_to_fit(top, _signature_form(top.symbol, source_of), budget, count)
        tokens = count(text)

    items = tuple(
        ContextItem(
            id=e.symbol.id,
            path=e.symbol.path,
            start_line=e.symbol.start_line,
            end_line=e.symbol.end_line,
            symbol=e.symbol.qualname,
            kind=e.symbol.kind,
            score=e.candidate.score,
            reason=e.candidate.reason,
            content=e.content,
            full=e.full,
            # a header cut to fit (the smallest budgets) is shorter than its block
            tokens=_counted(_block_pieces(e), count) if _block(e) in text else count(text),
        )
        for e in ordered
    )
    return Context(query, intent, budget, tokens, items, text)
