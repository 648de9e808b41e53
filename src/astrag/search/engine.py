"""Hybrid symbol search: exact names first, then BM25 and vectors fused by reciprocal rank.

Three rankers, each good where the others fail:

* **exact**: a name, qualified name or path written in the query (``AuthService``,
  ``AuthService.login``, ``auth/service.ts``) is what the user means; it ranks first. A plain
  name shared by many symbols (``run``, ``get``) says little and is only boosted.
* **lexical**: BM25 (SQLite FTS5, Porter stemming) over the document fields of
  ``search/documents.py`` with identifiers split, the name field weighted highest.
* **dense**: cosine similarity of the query to each symbol's embedded text; finds
  ``verify webhook signature`` in ``checkHmac`` where no word is shared.

Fusion is weighted reciprocal rank (Cormack et al. 2009): scores of different rankers are not
comparable, ranks are. The weights and k were chosen on the retrieval benchmarks
(docs/BENCHMARKS.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from astrag.embed import Embedder
from astrag.graph.facts import Symbol
from astrag.search.support import asked_kinds, is_support
from astrag.search.text import (
    looks_like_path,
    path_match,
    path_query_words,
    query_words,
)
from astrag.search.vectors import DenseIndex, query_embedder
from astrag.search.within import within_files
from astrag.store.base import GraphStore

MODES = ("hybrid", "lexical", "dense", "exact")
FIELD_WEIGHTS = (10.0, 4.0, 2.0, 2.0, 3.0)  # name, qual, sig, doc, body
RRF_K = 20  # 60 in the paper; 20 measured slightly better here (0.790 -> 0.795)
LEXICAL_WEIGHT = 1.0
DENSE_WEIGHT = 0.75
EXACT_BONUS = 1.0  # above any fused score (at most (1 + 1) / (k + 1))
AMBIGUOUS_NAME = 12  # when seeding a context, a name with more definitions is boosted only
_POOL = 200  # candidates each ranker contributes to the fusion
# After fusion each further hit from a file already listed counts half as much: ten hits from
# one file answer less than ten files would (semble's benchmark: NDCG@10 0.748 -> 0.790).
# On natural questions judged by definition (section 7), 0.7 / 0.85 lift precision@3 by
# 0.03 / 0.01 but cost code search 0.018 / 0.044: it stays.
SAME_FILE_DECAY = 0.5
# ...and a hit gains a tenth of what the other hits from its file scored: a file where many
# symbols match is likelier the one asked about (0.804 -> 0.819 on the same benchmark; 0.15,
# 0.2, 0.3 and 0.6 measured lower). Both apply to people's searches, not to seeding a context.
FILE_EVIDENCE = 0.1
# ...and code under an older version directory kept beside a newer one (``v3/`` next to
# ``v4/``) counts half: zod 0.571 -> 0.636, mean 0.825 -> 0.830 on the same benchmark.
SUPERSEDED_WEIGHT = 0.5
# ...and a hit whose file name or directory carries the question's words gains up to 1.5 times
# the best fused score, in proportion to the share of words matched (semble's stem boost):
# a file is named for what it does. Not for a one-word query, which names a symbol.
# 0.830 -> 0.851 on the same benchmark (1.0: 0.849, 2.0: 0.842).
PATH_MATCH = 1.5
# ...and a file that supports the code rather than being it (tests, examples, benchmarks,
# fixtures, docs sites, .d.ts declarations: search/support.py) counts a hundredth, so it comes
# after the code, unless the question asks for its kind; it is never dropped, since it may be
# the only match. Natural questions (tune split, docs/BENCHMARKS.md section 7), precision@3 at
# 0.5 / 0.25 / 0.1: 0.422 / 0.468 / 0.471, on each of the four repositories; at 0.01 (with
# the later rules) 0.501 -> 0.511, level or up on each; code search the same (tests only:
# 0.857 -> 0.860 at 0.5).
SUPPORT_WEIGHT = 0.01
# ...and a field the question does not name is listed as its class, at half the field's score
# (the class's own words are stronger evidence): see _fields_as_owners. Code search 0.860 ->
# 0.865, natural questions 0.471 -> 0.501 precision@3 (demoting fields instead: code search
# 0.860 -> 0.855, since a field is often the first hit of the right file).
OWNER_WEIGHT = 0.5
_VERSION_DIR = re.compile(r"v(\d+)")


@dataclass(frozen=True, slots=True)
class Hit:
    symbol: Symbol
    score: float
    rankers: tuple[str, ...]  # which rankers found it, strongest first: exact, lexical, dense
    matched: str = ""  # the query words or name it matched, for explanations


@dataclass(slots=True)
class Searcher:
    """Search over one open index. Loads the vectors and the query embedder on first use and
    keeps them: a long-lived process (the MCP server) pays for that once."""

    store: GraphStore
    _dense: DenseIndex | None = None
    _embedder: Embedder | None = None
    _loaded: bool = False
    _superseded: list[str] | None = None

    def search(
        self,
        query: str,
        limit: int = 10,
        *,
        targets: Sequence[str] = (),
        plain: Collection[str] = (),
        mode: str = "hybrid",
        diversify: bool = True,
    ) -> list[Hit]:
        """The best ``limit`` symbols; ``diversify`` spreads a list over files (for people
        and code search); seeding a context does not want it, since a change often touches
        several functions of one file. ``plain`` are the targets the query writes as plain
        words (``schema``, not `schema`): see :meth:`exact`."""
        if mode not in MODES:
            raise ValueError(f"unknown search mode {mode!r}; use one of {', '.join(MODES)}")
        words = query_words(query)
        fused: dict[str, float] = {}
        rankers: dict[str, list[str]] = {}

        def add(ranked: list[str], weight: float, name: str) -> None:
            shares = _shares(weight, len(ranked))
            if not fused and len(set(ranked)) == len(ranked):
                # the first list: each hit's score is its share (0.0 + share is share)
                fused.update(zip(ranked, shares, strict=True))
                rankers.update((sid, [name]) for sid in ranked)
                return
            get, listed = fused.get, rankers.setdefault
            for sid, share in zip(ranked, shares, strict=True):
                fused[sid] = get(sid, 0.0) + share
                listed(sid, []).append(name)

        # the vector product runs on the other core while words are ranked (search/product.py)
        dense = self._dense_begun(query, _POOL) if mode in ("hybrid", "dense") else None
        if mode in ("hybrid", "lexical") and words:
            add([sid for sid, _ in self.lexical(words, _POOL)], LEXICAL_WEIGHT, "lexical")
        if dense is not None:
            add([sid for sid, _ in dense()], DENSE_WEIGHT, "dense")
        pin_limit = 1 if diversify else AMBIGUOUS_NAME
        word_limit = limit if diversify else AMBIGUOUS_NAME
        exact = (
            self.exact(targets, pin_limit, plain, word_limit) if mode in ("hybrid", "exact") else {}
        )
        for sid, (pinned, _) in exact.items():
            fused[sid] = fused.get(sid, 0.0) + (EXACT_BONUS if pinned else 1 / RRF_K)
            rankers.setdefault(sid, []).insert(0, "exact")
        ranked = sorted(fused, key=lambda sid: (-fused[sid], sid))
        window = ranked[: max(limit * 4, 40)]
        symbols = self.store.get_symbols(window)
        # a stale row of a symbol that no longer exists, or a placeholder, is not a hit
        kept = [sid for sid in window if sid in symbols and symbols[sid].path]
        if diversify:
            kept = self._fields_as_owners(kept, fused, symbols, rankers, exact)
        scores = (
            self._for_people(kept, fused, symbols, query)
            if diversify
            else {sid: fused[sid] for sid in kept}
        )
        best = sorted(kept, key=lambda sid: (-scores[sid], sid))
        if diversify:
            best, scores = within_files(best, scores, fused, symbols, words)
            best = self._implementations(best, scores, symbols, rankers)
            best = self._variables_as_owners(best, scores, symbols, rankers, exact)
        best = best[:limit]
        return [
            Hit(
                symbols[sid],
                round(scores[sid], 6),
                tuple(rankers[sid]),
                exact[sid][1] if sid in exact else " ".join(words),
            )
            for sid in best
        ]

    def _for_people(
        self,
        kept: list[str],
        fused: dict[str, float],
        symbols: dict[str, Symbol],
        query: str,
    ) -> dict[str, float]:
        """Fused scores reshaped for a list a person reads: files named like the question up,
        file evidence, same-file decay in rank order, older version trees down (see the
        constants)."""
        fused = {sid: fused[sid] for sid in kept}
        in_names = path_query_words(query) if len(query.split()) > 1 else set()
        if in_names and fused:
            # relative to the best ranked score, not to a pinned name's bonus
            lift = PATH_MATCH * max(
                v - EXACT_BONUS if v >= EXACT_BONUS else v for v in fused.values()
            )
            # hits share files: each file's name is matched once
            matched = {path: path_match(in_names, path) for path in paths(kept, symbols)}
            for sid in kept:
                fused[sid] += lift * matched[symbols[sid].path]
            kept = sorted(kept, key=lambda sid: (-fused[sid], sid))
        superseded = self._older_trees(query)
        asked = asked_kinds(path_query_words(query))
        support = {path: is_support(path, asked) for path in paths(kept, symbols)}
        older = {path: any(path.startswith(p) for p in superseded) for path in support}
        file_sum: dict[str, float] = {}
        for sid in kept:
            path = symbols[sid].path
            file_sum[path] = file_sum.get(path, 0.0) + fused[sid]
        seen: dict[str, int] = {}
        scores: dict[str, float] = {}
        for sid in kept:
            path = symbols[sid].path
            evidence = FILE_EVIDENCE * (file_sum[path] - fused[sid])
            score = (fused[sid] + evidence) * SAME_FILE_DECAY ** seen.get(path, 0)
            if support[path]:
                score *= SUPPORT_WEIGHT
            if older[path]:
                score *= SUPERSEDED_WEIGHT
            seen[path] = seen.get(path, 0) + 1
            scores[sid] = score
        return scores

    def _fields_as_owners(
        self,
        kept: list[str],
        fused: dict[str, float],
        symbols: dict[str, Symbol],
        rankers: dict[str, list[str]],
        named: Collection[str],
    ) -> list[str]:
        """A field the query does not name is shown as the class it belongs to: a one-line
        `self.pin = None` shares the question's words and shows nothing of how anything is
        done; its class does. The class takes the field's score if that is better and is
        listed once."""
        owners = {
            sid: _owner(symbols[sid])
            for sid in kept
            if symbols[sid].kind == "field" and sid not in named and "." in symbols[sid].qualname
        }
        out = self._listed_as(kept, owners, OWNER_WEIGHT, fused, symbols, rankers)
        return sorted(out, key=lambda sid: (-fused[sid], sid))

    def _implementations(
        self,
        ranked: list[str],
        scores: dict[str, float],
        symbols: dict[str, Symbol],
        rankers: dict[str, list[str]],
    ) -> list[str]:
        """An overload declaration (``@overload``, a TypeScript overload signature) is listed
        as the function it declares, at its place: a signature without a body shows nothing
        of how anything is done, and the function keeps the plain id (graph/symbols.py). Done
        after scoring, so the stubs still count as evidence for their file (collapsing them
        first cost redux in code search 0.05: its overloads carry the doc comments)."""
        stubs = {
            sid: sid.rsplit("#", 1)[0]
            for sid in ranked
            if "#" in sid and "overload" in symbols[sid].modifiers
        }
        return self._listed_as(ranked, stubs, 1.0, scores, symbols, rankers)

    def _variables_as_owners(
        self,
        ranked: list[str],
        scores: dict[str, float],
        symbols: dict[str, Symbol],
        rankers: dict[str, list[str]],
        named: Collection[str],
    ) -> list[str]:
        """A variable the query does not name is listed as the definition around it (its
        module, when it is top-level), at its place: ``EXCLUDE = "exclude"`` shares the
        question's words and shows one line of nothing; the file it is in is the answer.
        Done after scoring, unlike fields, so the variable still counted as evidence for its
        file (listing it first cost code search 0.005: its score left the file's evidence)."""
        owners = {
            sid: _owner(symbols[sid])
            for sid in ranked
            if symbols[sid].kind == "variable" and sid not in named
        }
        return self._listed_as(ranked, owners, 1.0, scores, symbols, rankers)

    def _listed_as(
        self,
        ranked: list[str],
        shown: dict[str, str],
        weight: float,
        scores: dict[str, float],
        symbols: dict[str, Symbol],
        rankers: dict[str, list[str]],
    ) -> list[str]:
        """``ranked`` with each hit of ``shown`` replaced by the definition it is shown as
        (when the index holds it), in order, each once; the definition takes the hit's
        score times ``weight`` if that is better."""
        if not shown:
            return ranked
        missing = [t for t in set(shown.values()) if t not in symbols]
        symbols.update(self.store.get_symbols(missing) if missing else {})
        out: dict[str, None] = {}
        for sid in ranked:
            target = shown.get(sid, sid)
            if target != sid and target in symbols:
                scores[target] = max(scores.get(target, 0.0), scores[sid] * weight)
                rankers.setdefault(target, list(rankers[sid]))
                sid = target
            out.setdefault(sid)
        return list(out)

    # ------------------------------------------------------------------ rankers

    def lexical(self, words: Sequence[str], limit: int) -> list[tuple[str, float]]:
        return self.store.search_text(words, FIELD_WEIGHTS, limit)

    def dense(self, query: str, limit: int) -> list[tuple[str, float]]:
        return self._dense_begun(query, limit)()

    def _dense_begun(self, query: str, limit: int) -> Callable[[], list[tuple[str, float]]]:
        """:meth:`dense` begun: the returned function waits for its result."""
        self._load()
        if self._dense is None or self._embedder is None:
            return list
        vector = self._embedder.embed([query])[0]
        return self._dense.begin(vector, limit)

    def exact(
        self,
        targets: Sequence[str],
        pin_limit: int = AMBIGUOUS_NAME,
        plain: Collection[str] = (),
        word_limit: int = AMBIGUOUS_NAME,
    ) -> dict[str, tuple[bool, str]]:
        """Symbols the query names, with whether they are pinned first: a name with at most
        ``pin_limit`` definitions. A person's search pins only a unique name and lets words
        and meaning order the namesakes (``ZodType`` in v3 and v4: code search 0.819 ->
        0.827); seeding a context pins them all, since a change to a name may touch each.
        A target written as a plain word that more than ``word_limit`` definitions share is
        a word of the codebase, not a name: ``schema`` in zod names 16 fields, variables and
        types, where flask's ``session`` or ``g`` name two."""
        found: dict[str, tuple[bool, str]] = {}
        for target in targets:
            symbols = self._named(target)
            if target in plain and len(symbols) > word_limit:
                continue
            pinned = len(symbols) <= pin_limit
            for s in symbols:
                if s.id not in found:
                    found[s.id] = (pinned, target)
        return found

    def _named(self, target: str) -> list[Symbol]:
        store = self.store
        if looks_like_path(target) and "::" not in target:
            path = target.lstrip("./")
            module = store.get_symbol(path)
            if module is not None:
                return [module]
            return [s for s in store.all_modules_ending(path)]
        if "::" in target:
            symbol = store.get_symbol(target)
            return [symbol] if symbol is not None else []
        if "." in target:
            found = [s for s in store.symbols_by_qualname(target) if s.path]
            if found:
                return found
            target = target.rsplit(".", 1)[-1]
        return [s for s in store.symbols_named(target) if s.path]

    def forget(self) -> None:
        """Drop what was loaded from the index: call after the index changed underneath."""
        self._dense = None
        self._embedder = None
        self._loaded = False
        self._superseded = None

    def _older_trees(self, query: str) -> list[str]:
        """The older version trees of this index, less those the query names."""
        if self._superseded is None:
            self._superseded = _superseded_dirs(self.store.file_records())
        named = set(re.findall(r"\bv\d+\b", query.lower()))
        return [p for p in self._superseded if p.rstrip("/").rsplit("/", 1)[-1] not in named]

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        self._embedder = query_embedder(self.store.meta())
        if self._embedder is not None:
            self._dense = DenseIndex.load(self.store)


@lru_cache(maxsize=16)
def _shares(weight: float, count: int) -> tuple[float, ...]:
    """What each rank of a ranker's list of ``count`` adds to a hit's fused score, made once
    per weight and length (the same divisions a search made for each hit)."""
    return tuple(weight / (RRF_K + rank) for rank in range(1, count + 1))


def paths(ids: Iterable[str], symbols: dict[str, Symbol]) -> set[str]:
    """The files of ``ids``."""
    return {symbols[sid].path for sid in ids}


def _owner(symbol: Symbol) -> str:
    """The id of the definition ``symbol`` is declared in: its class or function, or its
    module (the path) when it is top-level."""
    qualname = symbol.qualname.rsplit("#", 1)[0]
    if "." not in qualname:
        return symbol.path
    return f"{symbol.path}::{qualname.rsplit('.', 1)[0]}"


def _superseded_dirs(paths: Iterable[str]) -> list[str]:
    """Directory prefixes of an older version kept beside a newer one: ``src/v3/`` next to
    ``src/v4/``, or a lone ``pydantic/v1/`` that repeats the file names of the code around
    it. A question is about the current code unless it names the version. A lone
    ``api/v1/`` that repeats nothing is the current code and stays."""
    versions: dict[str, list[tuple[int, str]]] = {}
    names: dict[str, set[str]] = {}  # directory -> file names directly in it
    for path in paths:
        parts = path.split("/")
        names.setdefault("/".join(parts[:-1]), set()).add(parts[-1])
        for i, part in enumerate(parts[:-1]):
            m = _VERSION_DIR.fullmatch(part)
            if m:
                parent = "/".join(parts[:i])
                versions.setdefault(parent, []).append((int(m.group(1)), part))
    out: list[str] = []
    for parent, found in versions.items():
        newest = max(n for n, _ in found)
        for n, part in set(found):
            prefix = f"{parent}/{part}" if parent else part
            # a lone copy is older only as v1 (or v0): the unversioned code beside it is then
            # at least v2, where a lone v2/ beside unversioned code is the newer one (Go)
            lone_old = n <= 1 and _repeats(names.get(prefix, set()), names.get(parent, set()))
            if n < newest or lone_old:
                out.append(prefix + "/")
    return sorted(out)


def _repeats(old: set[str], current: set[str]) -> bool:
    """Most of ``old``'s modules have a namesake in ``current``: a kept copy of the API."""
    mine = {n for n in old if n.rsplit(".", 1)[0] not in ("__init__", "index")}
    return len(mine) >= 3 and len(mine & current) * 2 >= len(mine)
