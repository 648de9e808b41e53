"""Embedding an index's texts on several cores: batches shared with forked processes give the
same bytes, in the same order, as embedding them all here. Each check runs in a fresh
interpreter: forking the test process would copy whatever earlier tests left open in it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

HELPERS = """
import os
import numpy as np
from astrag.embed.static import StaticEmbedder
from astrag.search.vectors import _embedded


class Pids:
    '''An embedder whose vectors say whether another process made them.'''

    name = "pids"
    dim = 2

    def __init__(self, forks):
        self.embeds_in_forks = forks
        self.home = os.getpid()

    def embed(self, texts):
        elsewhere = float(os.getpid() != self.home)
        return np.array([[elsewhere, len(t)] for t in texts], dtype=np.float32)


def batches(count, size):
    words = "get user by id parse json config http server render progress bar".split()
    texts = [" ".join(words[i % 5 : i % 5 + 1 + i % 9]) for i in range(count * size)]
    return [
        [(f"h{i}", t) for i, t in enumerate(texts[b : b + size], b)]
        for b in range(0, len(texts), size)
    ]


def made_elsewhere(blobs):
    return [bool(np.frombuffer(blob, dtype=np.float16)[0]) for blob in blobs]
"""


def run(code: str) -> str:
    script = HELPERS + textwrap.dedent(code)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_static_vectors_made_in_forks_equal_those_made_here() -> None:
    assert (
        run(
            """
        parts = batches(5, 37)
        here = list(_embedded(StaticEmbedder(), parts, 1))
        shared = list(_embedded(StaticEmbedder(), parts, 2))
        print(len(shared) == len(parts) and shared == here)
        """
        )
        == "True"
    )


def test_the_first_batch_here_then_every_other_one_in_a_fork() -> None:
    # the first here, to load the model before forking; the last in a fork (this process
    # writes what comes back)
    assert run(
        """
        print(made_elsewhere(list(_embedded(Pids(True), batches(5, 3), 2))))
        print(made_elsewhere(list(_embedded(Pids(True), batches(6, 3), 2))))
        """
    ).splitlines() == [
        "[False, True, False, True, True]",
        "[False, True, False, True, False, True]",
    ]


def test_one_job_or_an_embedder_that_must_not_fork_embeds_here() -> None:
    assert (
        run(
            """
        print(made_elsewhere(list(_embedded(Pids(True), batches(4, 3), 1))))
        print(made_elsewhere(list(_embedded(Pids(False), batches(4, 3), 2))))
        """
        ).splitlines()
        == ["[False, False, False, False]"] * 2
    )
