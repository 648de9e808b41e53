"""Texts' rows summed in bulk equal numpy's reduceat of each text, bit for bit."""

from __future__ import annotations

import numpy as np

from astrag.embed.pooling import summed_rows


def _reduceat(id_lists: list[list[int]], table: np.ndarray) -> np.ndarray:
    """The definition: what the static embedder summed, one text at a time."""
    out = np.zeros((len(id_lists), table.shape[1]), dtype=np.float32)
    for i, ids in enumerate(id_lists):
        if ids:
            out[i] = np.add.reduceat(table[np.array(ids)], [0], axis=0)[0]
    return out


def _table(rows: int = 700, dim: int = 16, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    # magnitudes spread over many binades, so a change of summation order shows in the bits
    table = (rng.standard_normal((rows, dim)) * 10.0 ** rng.integers(-3, 4, (rows, 1))).astype(
        np.float32
    )
    table[0] = -0.0  # reduceat keeps the sign of a sum of negative zeros
    return table


def test_every_length_up_to_600_sums_bit_for_bit_as_reduceat() -> None:
    table = _table()
    rng = np.random.default_rng(1)
    id_lists = [rng.integers(0, len(table), n).tolist() for n in range(601)]
    id_lists += [[0], [0, 0, 0], [], [5] * 9, rng.integers(0, 700, 600).tolist()]
    got = summed_rows(id_lists, table.__getitem__, table.shape[1])
    want = _reduceat(id_lists, table)
    assert got.dtype == np.float32 and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def test_texts_of_one_length_across_steps_and_empty_texts_give_zero_rows() -> None:
    table = _table()
    rng = np.random.default_rng(2)
    id_lists = [rng.integers(0, len(table), 300).tolist() for _ in range(9)]  # > one step
    id_lists.insert(4, [])
    got = summed_rows(id_lists, table.__getitem__, table.shape[1])
    assert got.tobytes() == _reduceat(id_lists, table).tobytes()
    assert not got[4].any()


def test_a_plain_running_sum_would_not_pass_the_comparison() -> None:
    # the check above can tell summation orders apart on this table
    table = _table()
    ids = np.random.default_rng(3).integers(0, len(table), 200)
    running = table[ids[0]].copy()
    for i in ids[1:]:
        running += table[i]
    assert running.tobytes() != _reduceat([ids.tolist()], table)[0].tobytes()
