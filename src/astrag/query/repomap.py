"""A map of the whole repository within a token budget, the most central code first: aider's
repo map, made from the resolved symbol graph instead of name matches.

**Rank.** PageRank over the repository's symbols, an edge from each user to what it uses:
``calls`` and inheritance weigh most, ``references`` and ``overrides`` half, ``imports`` less
(an import alone says less than a use). Parallel edges count by the square root of their
number, so one caller calling a helper fifty times does not make it the centre. Placeholders
(``external::``, ``unresolved::``) are left out: the map is of this repository.

**Roles.** Tests, benchmarks, examples, fixtures, documentation and vendored code explain or
exercise the implementation but are not it: their edges count a fifth, the random walk rarely
restarts in them, and they are listed only after every implementation definition.

**Selection.** A class is as central as itself plus its members; definitions are taken in rank
order, with the classes around a chosen member shown as its context, and the largest prefix
of that order whose map fits the budget is rendered (found by bisection on the real token
count). Files are listed by their total rank, definitions in source order, nested.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from astrag.graph.facts import Edge, EdgeKind, Symbol
from astrag.retrieve.tokens import count_tokens, truncate_to_tokens
from astrag.search.text import is_test_path

EDGE_WEIGHTS = {
    str(EdgeKind.CALLS): 1.0,
    str(EdgeKind.INHERITS): 1.0,
    str(EdgeKind.IMPLEMENTS): 1.0,
    str(EdgeKind.REFERENCES): 0.5,
    str(EdgeKind.OVERRIDES): 0.5,
    str(EdgeKind.IMPORTS): 0.3,
}
SECONDARY_EDGE = 0.2  # an edge out of test, benchmark, example, vendored code
LOCAL_EDGE = 0.25  # an edge inside one file: a file's helpers are not its architecture
SECONDARY_RESTART = 0.1  # how often the walk restarts at one of their symbols, relative
DAMPING = 0.85
ITERATIONS = 40
SIGNATURE_CHARS = 200  # a longer signature is cut: the map shows shapes, not every parameter

# the order roles are listed in; "code" is the implementation
ROLES = ("code", "test", "bench", "example", "fixture", "docs", "vendor")
_ROLE_PATTERNS = (
    ("fixture", re.compile(r"(^|/)(fixtures?|__fixtures__|testdata|test[-_]data|__mocks__)/")),
    ("vendor", re.compile(r"(^|/)(vendor|vendored|_vendor|third[-_]?party)/")),
    ("bench", re.compile(r"(^|/)(bench|benches|benchmarks?)/|[._-]bench(mark)?\.[a-z]+$")),
    ("example", re.compile(r"(^|/)(examples?|samples?|demos?|docs_src|tutorials?)/")),
    ("docs", re.compile(r"(^|/)(docs?|documentation)/")),
)


def path_role(path: str) -> str:
    """What a file is for, by the conventions of its path: one of :data:`ROLES`."""
    for role, pattern in _ROLE_PATTERNS:
        if pattern.search(path):
            return role
    return "test" if is_test_path(path) else "code"


@dataclass(frozen=True, slots=True)
class MapEntry:
    symbol: Symbol
    depth: int  # nesting inside its file: 0 for top-level
    score: float  # its rank (with its members' for a class); 0 for context-only entries
    context: bool  # shown only as the class around a chosen member


@dataclass(frozen=True, slots=True)
class MapFile:
    path: str
    role: str
    score: float  # the sum of its symbols' ranks
    entries: tuple[MapEntry, ...]  # in source order, nested


@dataclass(frozen=True, slots=True)
class RepoMap:
    budget: int
    tokens: int  # count_tokens(text), never above budget
    files_total: int
    definitions_total: int
    files: tuple[MapFile, ...]  # most central first
    text: str

    @property
    def definitions_shown(self) -> int:
        return sum(1 for f in self.files for e in f.entries if not e.context)


def rank(symbols: Sequence[Symbol], edges: Iterable[Edge]) -> dict[str, float]:
    """Each repository symbol's PageRank (the ranks sum to 1)."""
    nodes = [s.id for s in symbols if s.path]
    index = {sid: i for i, sid in enumerate(nodes)}
    path = {s.id: s.path for s in symbols if s.path}
    secondary = {s.id for s in symbols if s.path and path_role(s.path) != "code"}
    counts: dict[tuple[int, int], list[float]] = {}  # (user, used) -> [weight sum, count]
    for e in edges:
        weight = EDGE_WEIGHTS.get(str(e.kind))
        a, b = index.get(e.source), index.get(e.target)
        if weight is None or a is None or b is None or a == b:
            continue
        if e.source in secondary:
            weight *= SECONDARY_EDGE
        if path[e.source] == path[e.target]:
            weight *= LOCAL_EDGE
        pair = counts.setdefault((a, b), [0.0, 0.0])
        pair[0] += weight
        pair[1] += 1
    n = len(nodes)
    if n == 0:
        return {}
    restart = np.array([SECONDARY_RESTART if sid in secondary else 1.0 for sid in nodes])
    restart /= restart.sum()
    if counts:
        pairs = np.array(list(counts), dtype=np.int64)
        # parallel edges: their mean weight times the square root of their number
        weights = np.array([w / math.sqrt(c) for w, c in counts.values()])
        source, target = pairs[:, 0], pairs[:, 1]
    else:
        source = target = np.zeros(0, dtype=np.int64)
        weights = np.zeros(0)
    out_weight = np.bincount(source, weights=weights, minlength=n)
    share = weights / np.where(out_weight[source] > 0, out_weight[source], 1.0)
    dangling = out_weight == 0
    r = restart.copy()
    for _ in range(ITERATIONS):
        moved = np.bincount(target, weights=r[source] * share, minlength=n)
        r = DAMPING * (moved + r[dangling].sum() * restart) + (1 - DAMPING) * restart
    return {sid: float(r[i]) for i, sid in enumerate(nodes)}


def repo_map(symbols: Sequence[Symbol], edges: Iterable[Edge], budget: int) -> RepoMap:
    """The map of the repository of ``symbols`` and ``edges`` in at most ``budget`` tokens."""
    if budget <= 0:
        raise ValueError(f"budget must be a positive number of tokens, not {budget}")
    ranks = rank(symbols, edges)
    by_id = {s.id: s for s in symbols if s.path}
    scores = ranks
    files = {s.path for s in by_id.values()}
    file_score: dict[str, float] = {}
    for sid, s in by_id.items():
        file_score[s.path] = file_score.get(s.path, 0.0) + ranks.get(sid, 0.0)
    roles = {path: ROLES.index(path_role(path)) for path in files}
    order = sorted(
        (s for s in by_id.values() if s.kind != "module"),
        key=lambda s: (roles[s.path], _tier(s, by_id), -scores[s.id], s.path, s.start_line, s.id),
    )
    total = (len(files), len(order))

    def build(k: int) -> tuple[tuple[MapFile, ...], str]:
        chosen = _layout(order[:k], by_id, scores, file_score, roles)
        return chosen, _render(chosen, total, k)

    # every shown definition costs a few tokens at least: no need to try more than that
    lo, hi = 0, min(len(order), budget // 3)
    while lo < hi:  # the largest prefix that fits
        mid = (lo + hi + 1) // 2
        if count_tokens(build(mid)[1]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    chosen, text = build(lo)
    if count_tokens(text) > budget:  # not even the header fits: cut it
        chosen, text = (), truncate_to_tokens(text, budget)
    return RepoMap(budget, count_tokens(text), total[0], total[1], chosen, text)


def _tier(s: Symbol, by_id: dict[str, Symbol]) -> int:
    """0 for a main definition: a public class, interface, enum, type, function, method or
    module-level variable; 1 for the rest (private names, fields, functions local to another):
    shown once every main definition of the same role is."""
    private = s.visibility == "private" or (s.name.startswith("_") and not s.name.endswith("__"))
    parent = by_id.get(s.parent)
    local = parent is not None and parent.kind in ("function", "method")
    return 1 if private or local or s.kind == "field" else 0


def _layout(
    chosen: Sequence[Symbol],
    by_id: dict[str, Symbol],
    scores: dict[str, float],
    file_score: dict[str, float],
    roles: dict[str, int],
) -> tuple[MapFile, ...]:
    picked = {s.id for s in chosen}
    shown: dict[str, bool] = {}  # id -> context only
    for s in chosen:
        shown[s.id] = False
        parent = by_id.get(s.parent)
        while parent is not None and parent.kind != "module":
            shown.setdefault(parent.id, parent.id not in picked)
            parent = by_id.get(parent.parent)
    per_file: dict[str, list[Symbol]] = {}
    for sid in shown:
        per_file.setdefault(by_id[sid].path, []).append(by_id[sid])
    out = []
    for path in sorted(per_file, key=lambda p: (roles[p], -file_score[p], p)):
        entries = [
            MapEntry(s, _depth(s, by_id), 0.0 if shown[s.id] else scores[s.id], shown[s.id])
            for s in _source_order(per_file[path], by_id)
        ]
        out.append(MapFile(path, ROLES[roles[path]], file_score[path], tuple(entries)))
    return tuple(out)


def _depth(s: Symbol, by_id: dict[str, Symbol]) -> int:
    depth = 0
    parent = by_id.get(s.parent)
    while parent is not None and parent.kind != "module":
        depth += 1
        parent = by_id.get(parent.parent)
    return depth


def _source_order(symbols: list[Symbol], by_id: dict[str, Symbol]) -> list[Symbol]:
    """Depth-first, siblings by line: a member right after its class even when the file
    defines it far away (``res.json = function`` under ``res``)."""

    def path_key(s: Symbol) -> tuple[tuple[int, int, str], ...]:
        chain = [s]
        parent = by_id.get(s.parent)
        while parent is not None and parent.kind != "module":
            chain.append(parent)
            parent = by_id.get(parent.parent)
        return tuple((c.start_line, -c.end_line, c.id) for c in reversed(chain))

    return sorted(symbols, key=path_key)


def definition_line(s: Symbol, depth: int) -> str:
    """``  181      def matches(self, scope)``: the start line, then the signature indented by
    nesting; the shape outlines and maps share."""
    signature = " ".join(s.signature.split()) or f"{s.kind} {s.name}"
    if len(signature) > SIGNATURE_CHARS:
        signature = signature[: SIGNATURE_CHARS - 1] + "…"
    return f"{s.start_line:>6}  {'  ' * depth}{signature}"


def _render(files: Sequence[MapFile], total: tuple[int, int], k: int) -> str:
    shown = sum(len(f.entries) for f in files)
    head = (
        f"Repository map: {total[0]:,} files, {total[1]:,} definitions; the {k:,} most central "
        f"in {len(files):,} files (ranked by calls, references, inheritance and imports)"
    )
    blocks = [head]
    for f in files:
        lines = [f.path + (f"  ({f.role})" if f.role != "code" else "")]
        lines += [definition_line(e.symbol, e.depth) for e in f.entries]
        blocks.append("\n".join(lines))
    if shown == 0 and total[1]:
        blocks.append("(the budget leaves no room for a definition)")
    return "\n\n".join(blocks)
