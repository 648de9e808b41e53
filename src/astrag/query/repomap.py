"""A map of the whole repository within a token budget, the most central code first: aider's
repo map, made from the resolved symbol graph instead of name matches.

**Rank.** PageRank over the repository's symbols, an edge from each user to what it uses:
``calls`` and inheritance weigh most, ``references`` and ``overrides`` half, ``imports`` less
(an import alone says less than a use). Parallel edges count by the square root of their
number, so one caller calling a helper fifty times does not make it the centre. Placeholders
(``external::``, ``unresolved::``) are left out: the map is of this repository.

**Roles.** Tests, benchmarks, examples, fixtures, documentation, declaration files (``.pyi``
stubs, ``.d.ts`` typings) and vendored code explain, exercise or restate the implementation but
are not it: their edges count a fifth, the random walk rarely restarts in them, and they are
listed only after every implementation definition.

**Selection.** A class is as central as itself plus its members; definitions are taken in rank
order, with the classes around a chosen member shown as its context, and the largest prefix
of that order whose map fits the budget is rendered (found by bisection on the real token
count). Files are listed by their total rank, definitions in source order, nested.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from astrag.graph.facts import Edge, EdgeKind, Symbol
from astrag.retrieve.tokens import count_tokens, truncate_to_tokens
from astrag.search.support import is_declaration, is_test_path

if TYPE_CHECKING:
    import numpy as np

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
ROLES = ("code", "test", "bench", "example", "fixture", "docs", "declaration", "vendor")
_ROLE_PATTERNS = (
    ("fixture", re.compile(r"(^|/)(fixtures?|__fixtures__|testdata|test[-_]data|__mocks__)/")),
    ("vendor", re.compile(r"(^|/)(vendor|vendored|_vendor|third[-_]?party)/")),
    ("bench", re.compile(r"(^|/)(bench|benches|benchmarks?)/|[._-]bench(mark)?\.[a-z]+$")),
    ("example", re.compile(r"(^|/)(examples?|samples?|demos?|docs_src|tutorials?)/")),
    ("docs", re.compile(r"(^|/)(docs?|documentation)/")),
)


@lru_cache(maxsize=1 << 14)
def path_role(path: str) -> str:
    """What a file is for, by the conventions of its path: one of :data:`ROLES`."""
    for role, pattern in _ROLE_PATTERNS:
        if pattern.search(path):
            return role
    if is_test_path(path):
        return "test"
    return "declaration" if is_declaration(path) else "code"


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
    import numpy as np  # loaded here: the module's constants and dataclasses need no numpy

    nodes = [s for s in symbols if s.path]
    n = len(nodes)
    if n == 0:
        return {}
    index = {s.id: i for i, s in enumerate(nodes)}
    files: dict[str, int] = {}
    file_of = np.array([files.setdefault(s.path, len(files)) for s in nodes], dtype=np.int64)
    secondary = np.array([path_role(p) != "code" for p in files], dtype=bool)[file_of]
    source, target, weights = _links(edges, index, file_of, secondary)
    restart = np.where(secondary, SECONDARY_RESTART, 1.0)
    restart /= restart.sum()
    out_weight = np.bincount(source, weights=weights, minlength=n)
    share = weights / np.where(out_weight[source] > 0, out_weight[source], 1.0)
    dangling = out_weight == 0
    r = restart.copy()
    for _ in range(ITERATIONS):
        moved = np.bincount(target, weights=r[source] * share, minlength=n)
        r = DAMPING * (moved + r[dangling].sum() * restart) + (1 - DAMPING) * restart
    return {s.id: float(r[i]) for i, s in enumerate(nodes)}


def _links(
    edges: Iterable[Edge], index: dict[str, int], file_of: np.ndarray, secondary: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(user, used, weight) per pair of symbols, parallel edges merged: their mean weight
    times the square root of their number. Vectorised: a large repository has ~300k edges."""
    import numpy as np

    get = index.get
    weight_of = EDGE_WEIGHTS.get
    rows = [(get(e[0], -1), get(e[1], -1), weight_of(e[2], 0.0)) for e in edges]
    if not rows:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    table = np.array(rows, dtype=np.float64)
    a, b, w = table[:, 0].astype(np.int64), table[:, 1].astype(np.int64), table[:, 2]
    keep = (a >= 0) & (b >= 0) & (a != b) & (w > 0)
    a, b, w = a[keep], b[keep], w[keep]
    w = w * np.where(secondary[a], SECONDARY_EDGE, 1.0)
    w = w * np.where(file_of[a] == file_of[b], LOCAL_EDGE, 1.0)
    n = len(file_of)
    pairs, inverse = np.unique(a * n + b, return_inverse=True)
    total = np.bincount(inverse, weights=w)
    count = np.bincount(inverse)
    return pairs // n, pairs % n, total / np.sqrt(count)


@dataclass(frozen=True, slots=True)
class Ranked:
    """What every map of one index version is cut from, computed once: the definitions in the
    order they are shown (role, main before the rest, rank), and the ranks."""

    by_id: dict[str, Symbol]
    scores: dict[str, float]
    file_score: dict[str, float]
    roles: dict[str, int]  # path -> index into ROLES
    order: tuple[Symbol, ...]


def ranked(symbols: Sequence[Symbol], edges: Iterable[Edge]) -> Ranked:
    scores = rank(symbols, edges)
    by_id = {s.id: s for s in symbols if s.path}
    file_score: dict[str, float] = {}
    for sid, s in by_id.items():
        file_score[s.path] = file_score.get(s.path, 0.0) + scores.get(sid, 0.0)
    roles = {path: ROLES.index(path_role(path)) for path in file_score}
    order = sorted(
        (s for s in by_id.values() if s.kind != "module"),
        key=lambda s: (roles[s.path], _tier(s, by_id), -scores[s.id], s.path, s.start_line, s.id),
    )
    return Ranked(by_id, scores, file_score, roles, tuple(order))


def repo_map(symbols: Sequence[Symbol], edges: Iterable[Edge], budget: int) -> RepoMap:
    """The map of the repository of ``symbols`` and ``edges`` in at most ``budget`` tokens."""
    return cut(ranked(symbols, edges), budget)


def cut(r: Ranked, budget: int) -> RepoMap:
    """The largest prefix of ``r.order`` whose map fits ``budget`` tokens, rendered."""
    if budget <= 0:
        raise ValueError(f"budget must be a positive number of tokens, not {budget}")
    total = (len(r.file_score), len(r.order))

    def build(k: int) -> tuple[tuple[MapFile, ...], str]:
        chosen = _layout(r.order[:k], r)
        return chosen, _render(chosen, total, k)

    # every shown definition costs a few tokens at least: no need to try more than that
    lo, hi = 0, min(len(r.order), budget // 3)
    while lo < hi:
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


def _layout(chosen: Sequence[Symbol], r: Ranked) -> tuple[MapFile, ...]:
    by_id = r.by_id
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
    for path in sorted(per_file, key=lambda p: (r.roles[p], -r.file_score[p], p)):
        entries = [
            MapEntry(s, _depth(s, by_id), 0.0 if shown[s.id] else r.scores[s.id], shown[s.id])
            for s in _source_order(per_file[path], by_id)
        ]
        role = ROLES[r.roles[path]]
        out.append(MapFile(path, role, r.file_score[path], tuple(entries)))
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
