"""Which of a file's definitions a person's list shows first.

A person's list spreads over files (same-file decay), and a file's later hits count half, so
the places a file gets are few: its first place decides what a reader sees of that file. The
fused score ranks a file's definitions by how well their whole document matches, and a body
or docstring that repeats the question's words outranks the function whose name says what is
asked ("how does loading and deserializing input data work": marshmallow's
``Schema.handle_error`` took ``schema.py``'s place before ``Schema._do_load``). So, after
scoring, each file keeps exactly the places it holds and its definitions are dealt into them
by the fused score times one plus the share of the question's words their own name carries.
Files keep their ranks, so a list judged by file (docs/BENCHMARKS.md section 5) keeps its
files in order (only a judged line span can move); a module keeps its place (it stands for
the whole file).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache

from astrag.graph.facts import Symbol
from astrag.search.text import code_words, same_stem

MODULE = "module"
# how much a name that carries every word of the question adds to its fused score: natural
# questions' tune split (section 7) precision@3 0.537 -> 0.554 at 1.0, 0.550 at 0.5, 0.551 at 1.5
NAME_WEIGHT = 1.0


def name_coverage(words: Collection[str], name: str) -> float:
    """The share of the question's ``words`` that the definition's own ``name`` carries, a
    word counting when one of the name's words has its stem (``serialize`` ~
    ``serialization``)."""
    if not words:
        return 0.0
    own, by_start = _name_words(name)
    found = 0
    for w in words:
        # two words of one stem are equal or share their first three letters (same_stem)
        if w in own or any(same_stem(w, n) for n in by_start.get(w[:3], ())):
            found += 1
    return found / len(words)


@lru_cache(maxsize=1 << 14)
def _name_words(name: str) -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """A name's words, and by their first three letters: a search deals some 40 names into
    places, each against each word of the question, query after query (a warm search: 0.7 of
    5.5 ms on medusa before)."""
    own = frozenset(code_words(name))
    by_start: dict[str, list[str]] = {}
    for n in sorted(own):
        by_start.setdefault(n[:3], []).append(n)
    return own, {k: tuple(v) for k, v in by_start.items()}


def within_files(
    ranked: Sequence[str],
    scores: Mapping[str, float],
    fused: Mapping[str, float],
    symbols: Mapping[str, Symbol],
    words: Collection[str],
) -> tuple[list[str], dict[str, float]]:
    """``ranked`` (best first, ``scores`` its list scores) with each file's definitions dealt
    into the places the file holds, best first by ``fused`` times one plus
    ``NAME_WEIGHT`` times :func:`name_coverage`; each place keeps its score. Modules stay
    where they are."""

    def local(sid: str) -> tuple[float, str]:
        boost = 1.0 + NAME_WEIGHT * name_coverage(words, symbols[sid].name)
        return (-fused.get(sid, 0.0) * boost, sid)

    queues: dict[str, list[str]] = {}
    for sid in ranked:
        if symbols[sid].kind != MODULE:
            queues.setdefault(symbols[sid].path, []).append(sid)
    for queue in queues.values():
        queue.sort(key=local)
    out: list[str] = []
    placed: dict[str, float] = {}
    for sid in ranked:
        shown = sid if symbols[sid].kind == MODULE else queues[symbols[sid].path].pop(0)
        out.append(shown)
        placed[shown] = scores[sid]
    return out, placed
