"""Embedding an index's texts on several cores: batches shared with forked processes give the
same bytes, in the same order, as embedding them all here."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from astrag.embed.static import StaticEmbedder
from astrag.search.vectors import _embedded


class _Pids:
    """An embedder whose vectors say which process made them."""

    name = "pids"
    dim = 2

    def __init__(self, forks: bool) -> None:
        self.embeds_in_forks = forks
        self.home = os.getpid()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        elsewhere = float(os.getpid() != self.home)
        return np.array([[elsewhere, len(t)] for t in texts], dtype=np.float32)


def _batches(count: int, size: int) -> list[list[tuple[str, str]]]:
    words = "get user by id parse json config http server render progress bar".split()
    texts = [" ".join(words[i % 5 : i % 5 + 1 + i % 9]) for i in range(count * size)]
    return [
        [(f"h{i}", t) for i, t in enumerate(texts[b : b + size], b)]
        for b in range(0, len(texts), size)
    ]


def _made_elsewhere(blobs: list[bytes]) -> list[bool]:
    return [bool(np.frombuffer(blob, dtype=np.float16)[0]) for blob in blobs]


def test_static_vectors_made_in_forks_equal_those_made_here() -> None:
    batches = _batches(5, 37)
    here = list(_embedded(StaticEmbedder(), batches, 1))
    shared = list(_embedded(StaticEmbedder(), batches, 2))
    assert len(shared) == len(batches) and shared == here


def test_the_first_batch_here_then_every_other_one_in_a_fork() -> None:
    # the first here, to load the model before forking; the last in a fork (this process
    # writes what comes back)
    blobs = list(_embedded(_Pids(forks=True), _batches(5, 3), 2))
    assert _made_elsewhere(blobs) == [False, True, False, True, True]
    blobs = list(_embedded(_Pids(forks=True), _batches(6, 3), 2))
    assert _made_elsewhere(blobs) == [False, True, False, True, False, True]


def test_one_job_or_an_embedder_that_must_not_fork_embeds_here() -> None:
    for embedder, jobs in ((_Pids(forks=True), 1), (_Pids(forks=False), 2)):
        blobs = list(_embedded(embedder, _batches(4, 3), jobs))
        assert _made_elsewhere(blobs) == [False] * 4
