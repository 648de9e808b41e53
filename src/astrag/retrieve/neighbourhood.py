"""The edges around the seeds that expansion ranks over, and how many hops each symbol is away.

The plan's steps are read from every seed (hop 1), then from the ``FANOUT`` symbols hop 1
reached most strongly (hop 2), both directions of a hop in one ask each. A symbol's strength
is the sum, over the edges that first reach it, of its origin's strength times the step's
weight; ties at the cut go to the smaller id.

Read two ways, to the same :class:`Neighbourhood`: as rows of ids through the store's
``neighbours()`` (``from_rows``), or, where the store holds its edges in memory
(``store/adjacency.py``), as arrays of name ids (``from_arrays``), where a dense graph's
thousands of edges a query (sympy's median context reads 6,700) cost no Python step each and
ids are looked up only for the symbols a choice needs. Both read the same edges in the same
order and add each symbol's strength in that order, so every number is the same.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from astrag.retrieve.plan import EdgeStep, Plan
from astrag.store import adjacency as memory
from astrag.store.base import GraphStore
from astrag.store.codec import RESOLUTION_CODE

FANOUT = 20  # hop-1 symbols whose own edges are read for hop 2


@dataclass(frozen=True, slots=True)
class Neighbourhood:
    """The edges as arrays of node numbers, in the order read. The seeds are nodes 0, 1, ...
    in the order given, then each hop's new symbols in the order first reached."""

    here: np.ndarray  # (edges,) int64: the node an edge was read from
    there: np.ndarray  # (edges,) int64: the node it reached
    step: np.ndarray  # (edges,) int64: the plan step that followed it (index into steps)
    how: np.ndarray  # (edges,) int64: how it was found (index into codec.RESOLUTION_CODES)
    hop: np.ndarray  # (nodes,) int64: each node's hop distance, 0 for the seeds
    steps: tuple[EdgeStep, ...]  # the plan's steps
    ids: Callable[[Sequence[int]], list[str]]  # the symbol ids of some nodes

    @property
    def weight(self) -> np.ndarray:
        """Each edge's step weight."""
        return np.array([s.weight for s in self.steps], dtype=np.float64)[self.step]


def _steps_by_direction(plan: Plan) -> dict[str, dict[str, int]]:
    """For each direction, edge kind -> the index of the step that follows it (the last step
    of a kind, should a plan name one twice)."""
    return {
        d: {s.kind: i for i, s in enumerate(plan.steps) if s.direction == d} for d in ("in", "out")
    }


def from_rows(store: GraphStore, restart: dict[str, float], plan: Plan) -> Neighbourhood:
    """The neighbourhood of the seeds (``restart``: id -> score) read through
    ``store.neighbours()``."""
    by_dir = _steps_by_direction(plan)
    steps = plan.steps
    hops = dict.fromkeys(restart, 0)
    edges: list[tuple[str, str, int, int]] = []
    frontier = list(restart)
    weight = dict(restart)  # how strongly a symbol is reached so far: picks the hop-2 frontier
    codes = RESOLUTION_CODE
    for hop in range(1, plan.depth + 1):
        reached: dict[str, float] = {}
        for direction, kinds in by_dir.items():
            if not kinds or not frontier:
                continue
            rows = store.neighbours(frontier, list(kinds), incoming=direction == "in")
            for here, there, kind, how in rows:
                step = kinds[kind]
                edges.append((here, there, step, codes[how]))
                if there not in hops:
                    reached[there] = reached.get(there, 0.0) + weight[here] * steps[step].weight
        for sid, w in reached.items():
            hops[sid] = hop
            weight[sid] = w
        frontier = heapq.nsmallest(FANOUT, reached, key=lambda sid: (-reached[sid], sid))
    nodes = list(hops)
    index = {n: i for i, n in enumerate(nodes)}
    m = len(edges)
    return Neighbourhood(
        np.fromiter((index[e[0]] for e in edges), dtype=np.int64, count=m),
        np.fromiter((index[e[1]] for e in edges), dtype=np.int64, count=m),
        np.fromiter((e[2] for e in edges), dtype=np.int64, count=m),
        np.fromiter((e[3] for e in edges), dtype=np.int64, count=m),
        np.fromiter(hops.values(), dtype=np.int64, count=len(nodes)),
        steps,
        lambda picks: [nodes[i] for i in picks],
    )


def from_arrays(
    adjacency: memory.Adjacency, restart: dict[str, float], plan: Plan
) -> Neighbourhood:
    """The neighbourhood of the seeds read from the store's edges in memory: what
    :func:`from_rows` reads, made with numpy on name ids. A seed the names lack has no edges
    and no name id: it is a node all the same."""
    by_dir = _steps_by_direction(plan)
    steps = plan.steps
    step_weight = np.array([s.weight for s in steps], dtype=np.float64)
    seeds = list(restart)
    names = adjacency.names
    # each direction's kinds as the adjacency's codes, and the step each code follows
    asked: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for direction, kinds in by_dir.items():
        step_of = np.full(len(adjacency.kinds), -1, dtype=np.int64)
        for code, kind in enumerate(adjacency.kinds):
            step_of[code] = kinds.get(kind, -1)
        asked[direction] = (memory.kind_codes(adjacency, kinds), step_of)

    def id_of(nid: int) -> str:
        return names[nid] or ""  # a reached node always has a name: the adjacency keeps those

    # node number by name id, a sparse set: slots[nid] is only trusted where the node it
    # names has that name id, so the table needs no filling (np.empty: 2.4 MB on sympy)
    nodes = memory.numbers(adjacency, seeds)  # name id of each node so far; -1 for none
    slots = np.empty(len(names), dtype=np.int64)
    named = np.flatnonzero(nodes >= 0)
    slots[nodes[named]] = named
    strength = np.fromiter(restart.values(), dtype=np.float64, count=len(seeds))
    hops = [np.zeros(len(seeds), dtype=np.int64)]
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    frontier = nodes
    for hop in range(1, plan.depth + 1):
        read = []
        for direction, kinds in by_dir.items():
            if not kinds or not len(frontier):
                continue
            codes, step_of = asked[direction]
            here, there, kind, res = memory.edges(
                adjacency, frontier, codes, incoming=direction == "in"
            )
            read.append((here, there, step_of[kind], res.astype(np.int64)))
        if not read:
            frontier = frontier[:0]
            continue
        here, there, step, how = (np.concatenate(a) for a in zip(*read, strict=True))
        parts.append((here, there, step, how))
        # each new symbol's strength: its origins' strengths times the steps' weights, added
        # in the order read (bincount adds in input order, as the dict of from_rows does)
        slot = slots[there]
        known = (slot >= 0) & (slot < len(nodes))
        known[known] = nodes[slot[known]] == there[known]
        new = ~known
        gain = strength[slots[here[new]]] * step_weight[step[new]]
        found, first, group = np.unique(there[new], return_index=True, return_inverse=True)
        gained = np.bincount(group, weights=gain, minlength=len(found))
        order = np.argsort(first)  # first reached first, as the dict keeps them
        reached = found[order]
        slots[reached] = np.arange(len(nodes), len(nodes) + len(reached), dtype=np.int64)
        nodes = np.concatenate([nodes, reached])
        strength = np.concatenate([strength, gained[order]])
        hops.append(np.full(len(reached), hop, dtype=np.int64))
        if hop < plan.depth:  # the last hop's frontier would not be read
            pick = strongest(gained[order], FANOUT, _named(reached, id_of))
            frontier = reached[pick]
    count = len(seeds)

    def ids(picks: Sequence[int]) -> list[str]:
        numbers = nodes[list(picks)].tolist()
        return [seeds[i] if i < count else id_of(n) for i, n in zip(picks, numbers, strict=True)]

    if parts:
        here, there, step, how = (np.concatenate(a) for a in zip(*parts, strict=True))
    else:
        here = there = step = how = np.empty(0, dtype=np.int64)
    return Neighbourhood(slots[here], slots[there], step, how, np.concatenate(hops), steps, ids)


def _named(numbers: np.ndarray, id_of: Callable[[int], str]) -> Callable[[list[int]], list[str]]:
    """The ids of some positions of ``numbers``."""
    return lambda picks: [id_of(n) for n in numbers[picks].tolist()]


def strongest(weight: np.ndarray, count: int, ids: Callable[[list[int]], list[str]]) -> list[int]:
    """The positions of the ``count`` largest of ``weight``, largest first, ties by the id
    ``ids`` gives a position: what sorting all by (-weight, id) and cutting would keep, with
    only those at or above the cut sorted and named."""
    if len(weight) > count:
        cut = np.partition(weight, len(weight) - count)[len(weight) - count]
        candidates = np.flatnonzero(weight >= cut).tolist()
    else:
        candidates = list(range(len(weight)))
    values = weight[candidates].tolist()
    key = {i: (-v, name) for i, v, name in zip(candidates, values, ids(candidates), strict=True)}
    return sorted(candidates, key=key.__getitem__)[:count]
