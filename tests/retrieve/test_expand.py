"""Expansion reads the neighbourhood two ways: rows through the store's ``neighbours()``, or
arrays of the edges a warm store holds in memory (retrieve/neighbourhood.py). Both give the
same symbols, the same ranks to the last bit, the same hops and the same reasons."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import astrag
from astrag.graph.facts import Symbol
from astrag.indexer import index_repository
from astrag.retrieve import neighbourhood
from astrag.retrieve.expand import Seed, expand
from astrag.retrieve.plan import EdgeStep, Intent, Plan, steps_for
from astrag.search.engine import FIELD_WEIGHTS
from astrag.store.sqlite import SqliteStore

SRC = Path(astrag.__file__).resolve().parent


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A slice of astrag's own source, indexed in two runs: name ids and edge rowids then
    order symbols differently than their ids do (ties are broken by id)."""
    root = tmp_path_factory.mktemp("expand")
    for subs in (("store", "search"), ("graph", "retrieve", "query")):
        for sub in subs:
            shutil.copytree(SRC / sub, root / sub, ignore=shutil.ignore_patterns("__py*"))
        index_repository(root, jobs=1, embedder="none")
    return root


@pytest.fixture
def stores(indexed: Path) -> Iterator[tuple[SqliteStore, SqliteStore]]:
    """A store that answers from SQLite (it has not searched) and one that holds the edges."""
    cold = SqliteStore(indexed / ".astrag", readonly=True)
    warm = SqliteStore(indexed / ".astrag", readonly=True)
    cold.open()
    warm.open()
    try:
        warm.search_text(["store"], FIELD_WEIGHTS, 1)
        warm.search_text(["store"], FIELD_WEIGHTS, 1)
        assert warm.warm_adjacency() is not None
        yield cold, warm
    finally:
        cold.close()
        warm.close()


def _plans() -> list[Plan]:
    plans = [Plan("q", intent, (), "q", steps_for(intent)) for intent in Intent]
    calls = EdgeStep("calls", "in", 0.8)
    odd = [
        (steps_for(Intent.CHANGE), 1),
        (steps_for(Intent.USAGES), 3),
        ((calls, EdgeStep("calls", "in", 0.3), EdgeStep("contains", "out", 1.0)), 2),
        ((EdgeStep("references", "out", 0.5),), 2),
        ((), 2),
    ]
    plans += [Plan("q", Intent.EXPLAIN, (), "q", s, depth=d, decay=0.7) for s, d in odd]
    return plans


def _seed_sets(symbols: list[Symbol]) -> list[list[Seed]]:
    rng = random.Random(32)
    absent = Symbol("no/such.py::ghost", "function", "ghost", "ghost", "no/such.py", 1, 2, "")
    sets = [[Seed(symbols[0], 1.0, "seed")]]
    for size in (1, 2, 3, 8, 12, 30):
        for _ in range(5):
            chosen = rng.sample(symbols, size)
            # equal scores among them: ties are broken by id, whichever path reads the edges
            sets.append([Seed(s, rng.choice((1.0, 0.5, 0.5, 0.25)), "seed") for s in chosen])
    sets.append([Seed(absent, 1.0, "seed"), *sets[3], Seed(absent, 0.4, "seed")])
    return sets


def test_rows_and_arrays_expand_alike(stores: tuple[SqliteStore, SqliteStore]) -> None:
    cold, warm = stores
    symbols = sorted((s for s in cold.all_symbols() if s.path), key=lambda s: s.id)
    reached = 0
    for plan in _plans():
        for seeds in _seed_sets(symbols):
            from_rows = expand(cold, seeds, plan)
            assert cold._adjacency.held is None  # it answered from SQLite
            assert expand(warm, seeds, plan) == from_rows
            reached += len(from_rows)
    assert reached > 20_000


def test_the_neighbourhoods_are_the_same_arrays(stores: tuple[SqliteStore, SqliteStore]) -> None:
    cold, warm = stores
    adjacency = warm.warm_adjacency()
    assert adjacency is not None
    symbols = sorted((s for s in cold.all_symbols() if s.path), key=lambda s: s.id)
    edges = 0
    for plan in _plans():
        for seeds in _seed_sets(symbols):
            restart = {s.symbol.id: s.score for s in reversed(seeds)}
            rows = neighbourhood.from_rows(cold, restart, plan)
            arrays = neighbourhood.from_arrays(adjacency, restart, plan)
            for field in ("here", "there", "step", "how", "hop"):
                assert np.array_equal(getattr(rows, field), getattr(arrays, field)), field
            every = list(range(len(rows.hop)))
            assert rows.ids(every) == arrays.ids(every)
            assert rows.ids(every)[: len(restart)] == list(restart)
            edges += len(rows.here)
    assert edges > 50_000


def test_the_strongest_are_those_a_full_sort_keeps() -> None:
    """The cut sorts only what is at or above it, ties by id, as sorting everything would."""
    rng = random.Random(7)
    for size in (0, 1, 5, 20, 21, 60, 300):
        weights = np.array(
            [rng.choice((0.0, 0.25, 0.5, 0.5, 1.0, rng.random())) for _ in "x" * size]
        )
        names = [f"s{rng.randrange(10_000):05d}-{i}" for i in range(size)]
        for count in (1, 3, 20, 200):
            everything = sorted(range(size), key=lambda i: (-weights[i], names[i]))[:count]
            got = neighbourhood.strongest(weights, count, _lookup(names))
            assert got == everything
    ties = np.array([1.0, 2.0, 2.0, 2.0, 0.5])
    assert neighbourhood.strongest(ties, 2, _lookup(["e", "d", "c", "b", "a"])) == [3, 2]


def _lookup(names: list[str]) -> Callable[[list[int]], list[str]]:
    return lambda picks: [names[i] for i in picks]
