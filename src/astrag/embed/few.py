"""The static embedder for a few texts without numpy: the same float16 bytes, in Python.

An edit re-indexed embeds a handful of new texts (an exported function appended: two). Through
numpy that meant importing numpy (0.06-0.1 s), the tokenizers library and its tokenizer.json
(0.04 s) and ``np.load`` of the table: 0.13 s of medusa's 0.52 s interface edit. Here a call of
at most :data:`MAX_TOKENS` tokens is tokenised from the vocabulary itself
(:class:`~astrag.embed.wordpiece.VocabPieces`) and each text's rows are summed, normalised and
halved with float32 arithmetic carried out on Python floats, rounded to float32 after every
operation: a double's 53 bits are at least 2 x 24 + 2, so a float32 sum, product, quotient or
square root computed in double and rounded once more is the correctly rounded float32 result.
The order of the additions is numpy's (``pairwise_sum`` in loops_utils.h): per column the first
row, plus the pairwise sum of the others (``np.add.reduceat``, as pooling.py reproduces it); the
norm ``sqrt(0 + pairwise sum of the squares)`` (``np.linalg.norm(axis=1)``, an add reduction
starting from its identity); each value divided by it; float16 rounded to nearest even from the
float32 value, as ``astype("float16")`` does. ``tests/embed/test_few.py`` holds the bytes to
the numpy path's on every text of a corpus.

Texts the tokenizer must take whole (non-ASCII, control characters, added tokens: see
wordpiece.py) and calls of more tokens go through numpy (:meth:`StaticEmbedder.embed`).
"""

from __future__ import annotations

import ast
import json
import math
import struct
import sys
import zipfile
import zlib
from array import array
from collections.abc import Sequence
from itertools import chain, repeat
from operator import add, mul
from pathlib import Path
from typing import BinaryIO

from astrag.embed.wordpiece import VocabPieces, added_tokens, plain_words

#: Tokens in one call up to which it is embedded here (~20 us a token: 2,048 cost ~0.04 s).
MAX_TOKENS = 2048
# numpy's pairwise summation: below this many values a block is summed with 8 accumulators
_BLOCK = 128

# a zip member's local header: signature ... file name length, extra field length
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")

Row = array  # float32 values, typecode "f": storing a Python float rounds it to float32


class Vocabulary:
    """tokenizer.json's WordPiece vocabulary and added tokens, read as plain JSON (0.01 s)."""

    def __init__(self, model_dir: Path, max_tokens: int) -> None:
        spec = json.loads((model_dir / "tokenizer.json").read_bytes())
        model = spec["model"]
        if model.get("type") != "WordPiece" or spec.get("normalizer", {}).get("lowercase") is False:
            raise ValueError("not a lowercasing WordPiece tokenizer")
        vocab: dict[str, int] = model["vocab"]
        self.words = VocabPieces(
            vocab,
            vocab[model["unk_token"]],
            model["continuing_subword_prefix"],
            model["max_input_chars_per_word"],
        )
        self._added = added_tokens([t["content"] for t in spec.get("added_tokens", [])])
        self._max = max_tokens

    def ids(self, texts: Sequence[str], limit: int) -> list[list[int]] | None:
        """Each text's ids as :class:`WordpieceIds` gives them, or None when a text must go to
        the tokenizer whole or the call holds more than ``limit`` tokens."""
        out: list[list[int]] = []
        pieces, total = self.words.__getitem__, 0
        for text in texts:
            words = plain_words(text, self._added)
            if words is None:
                return None
            ids = list(chain.from_iterable(map(pieces, words)))[: self._max]
            total += len(ids)
            if total > limit:
                return None
            out.append(ids)
        return out


class Table:
    """vectors.npz's int8 rows and float32 scales as bytes (no numpy: the arrays' .npy
    headers are read here)."""

    def __init__(self, model_dir: Path) -> None:
        if sys.byteorder != "little":
            raise ValueError("the stored scales are little-endian")
        with open(model_dir / "vectors.npz", "rb") as file:
            rows, (count, self.dim) = _array(_member(file, "vectors.npy"), "|i1", 2)
            scales, shape = _array(_member(file, "scales.npy"), "<f4", 1)
        if shape != (count,):
            raise ValueError("one scale per row expected")
        self._rows = rows.cast("b")
        self._scales = array("f")
        self._scales.frombytes(scales)
        self._cache: dict[int, Row] = {}

    def row(self, token: int) -> Row:
        """The float32 row of a token: each int8 times the row's scale, as the numpy path's
        ``rows *= scales`` makes it."""
        row = self._cache.get(token)
        if row is None:
            values = self._rows[token * self.dim : (token + 1) * self.dim]
            row = self._cache[token] = array("f", map(mul, values, repeat(self._scales[token])))
        return row


def float16_bytes(table: Table, id_lists: list[list[int]]) -> bytes:
    """Each text's unit vector as float16 bytes, as ``StaticEmbedder.embed`` then
    ``astype("float16").tobytes()`` give them."""
    dim = table.dim
    half = struct.Struct(f"={dim}e")
    out = bytearray()
    for ids in id_lists:
        if not ids:
            out += bytes(half.size)  # a zero row: +0.0 in every column
            continue
        rows = [table.row(t) for t in ids]
        total = rows[0] if len(rows) == 1 else _add(rows[0], _pairwise_rows(rows[1:]))
        norm = _f32(math.sqrt(_f32(0.0 + _pairwise(array("f", map(mul, total, total))))))
        if norm > 0:
            total = array("f", [v / norm for v in total])
        out += half.pack(*total)
    return bytes(out)


def _f32(value: float) -> float:
    return array("f", (value,))[0]


def _add(a: Row, b: Row) -> Row:
    return array("f", map(add, a, b))


def _pairwise_rows(rows: list[Row]) -> Row:
    """numpy's pairwise sum of rows, column by column (pooling.py's ``_pairwise``)."""
    n = len(rows)
    if n < 8:
        total = rows[0]  # numpy starts from -0.0, and -0.0 + v is v
        for row in rows[1:]:
            total = _add(total, row)
        return total
    if n <= _BLOCK:
        acc = rows[:8]
        end = n - n % 8
        for i in range(8, end, 8):
            acc = [_add(a, r) for a, r in zip(acc, rows[i : i + 8], strict=True)]
        total = _add(_add(acc[0], acc[1]), _add(acc[2], acc[3]))
        total = _add(total, _add(_add(acc[4], acc[5]), _add(acc[6], acc[7])))
        for row in rows[end:]:
            total = _add(total, row)
        return total
    half = n // 2
    half -= half % 8
    return _add(_pairwise_rows(rows[:half]), _pairwise_rows(rows[half:]))


def _pairwise(values: Row) -> float:
    """numpy's pairwise sum of float32 values (``pairwise_sum`` in loops_utils.h)."""
    n = len(values)
    if n < 8:
        total = -0.0
        for v in values:
            total = _f32(total + v)
        return total
    if n <= _BLOCK:
        acc = list(values[:8])
        end = n - n % 8
        for i in range(8, end, 8):
            acc = list(array("f", map(add, acc, values[i : i + 8])))
        r = array("f", map(add, acc[0::2], acc[1::2]))  # (0+1), (2+3), (4+5), (6+7)
        total = _f32(_f32(r[0] + r[1]) + _f32(r[2] + r[3]))
        for v in values[end:]:
            total = _f32(total + v)
        return total
    half = n // 2
    half -= half % 8
    return _f32(_pairwise(values[:half]) + _pairwise(values[half:]))


def _member(file: BinaryIO, name: str) -> bytes:
    """A member of a zip file, inflated in one ``zlib`` call, which runs without the GIL
    (``ZipFile.read`` inflates in steps and takes it back between them: the thread that
    warms the table slowed the one resolving by 0.03 s)."""
    try:
        info = zipfile.ZipFile(file).getinfo(name)
    except KeyError:
        raise ValueError(f"no {name}: a float table, no int8 rows to scale") from None
    file.seek(info.header_offset)
    header = file.read(_LOCAL_HEADER.size)
    magic, *_, name_length, extra_length = _LOCAL_HEADER.unpack(header)
    if magic != b"PK\x03\x04":
        raise ValueError(f"{name}: not a zip member")
    file.seek(info.header_offset + _LOCAL_HEADER.size + name_length + extra_length)
    raw = file.read(info.compress_size)
    if info.compress_type == zipfile.ZIP_DEFLATED:
        data = zlib.decompress(raw, -zlib.MAX_WBITS, info.file_size)
    elif info.compress_type == zipfile.ZIP_STORED:
        data = raw
    else:
        raise ValueError(f"{name}: compression {info.compress_type}")
    if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
        raise ValueError(f"{name}: damaged")
    return data


def _array(blob: bytes, descr: str, dims: int) -> tuple[memoryview, tuple[int, ...]]:
    """The data of a .npy file of a C-ordered array of ``descr`` with ``dims`` dimensions,
    and its shape."""
    if blob[:6] != b"\x93NUMPY":
        raise ValueError("not a .npy array")
    size, start = (2, 8) if blob[6] == 1 else (4, 8)
    length = int.from_bytes(blob[start : start + size], "little")
    header = ast.literal_eval(blob[start + size : start + size + length].decode("latin-1"))
    shape = tuple(header["shape"])
    if header["descr"] != descr or header["fortran_order"] or len(shape) != dims:
        raise ValueError(f"unexpected array {header}")
    return memoryview(blob)[start + size + length :], shape
