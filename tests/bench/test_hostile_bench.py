"""hostile.py's outcome rules and input makers (the run itself needs the corpora)."""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path

from astrag.errors import AstragError

_BENCH = Path(__file__).resolve().parents[2] / "bench"
_spec = importlib.util.spec_from_file_location("hostile", _BENCH / "hostile.py")
assert _spec is not None and _spec.loader is not None
hostile = importlib.util.module_from_spec(_spec)
sys.modules["hostile"] = hostile  # dataclasses look their module up by name
_spec.loader.exec_module(hostile)


def test_each_outcome_is_told_apart(tmp_path: Path) -> None:
    tally = hostile.Tally()

    def refuse() -> None:
        raise AstragError("no", "hint")

    def crash() -> None:
        raise IndexError("child index out of range")

    os.mkfifo(tmp_path / "pipe")

    def read_fifo() -> str:
        with open(tmp_path / "pipe") as fh:
            return fh.read()

    outcomes = [
        hostile.attempt(tally, "fine", lambda: 1, 5)[0],
        hostile.attempt(tally, "refused", refuse, 5)[0],
        hostile.attempt(tally, "crash", crash, 5)[0],
        hostile.attempt(tally, "fifo", read_fifo, 0.3)[0],
        hostile.attempt(tally, "leak", lambda: f"x {hostile.CANARY} y", 5)[0],
    ]
    assert outcomes == ["ok", "refused", "internal", "hang", "outside"]
    assert tally.counts == {"ok": 1, "refused": 1, "internal": 1, "hang": 1, "outside": 1}
    assert tally.examples["internal"] == ["crash: IndexError: child index out of range"]
    assert tally.examples["hang"] == ["fifo"]


def test_the_fuzzed_tree_has_every_language_and_mutation(tmp_path: Path) -> None:
    rng = random.Random(1)
    made = hostile.fuzz_tree(tmp_path, rng, 80)
    assert len(made) == 80
    assert {Path(p).suffix for p in made} == {".py", ".ts", ".tsx", ".js"}
    assert all((tmp_path / p).is_file() for p in made)
    sample = b"def f(x):\n    return x\n" * 20
    for name, mutate in hostile.MUTATIONS.items():
        assert isinstance(mutate(rng, sample, sample), bytes), name


def test_diff_mutations_make_text_and_odd_queries_are_many() -> None:
    rng = random.Random(2)
    diff = "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,3 @@\n a\n+b\n c\n"
    for name, mutate in hostile.DIFF_MUTATIONS.items():
        assert isinstance(mutate(rng, diff), str), name
    queries = hostile.odd_queries(rng, 1000)
    assert len(queries) == 1000 and "" in queries and "NEAR(" in queries
    assert any("\ud800" in q for q in queries)
