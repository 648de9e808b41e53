"""The word-cached split gives the bundled tokenizer's ids exactly, and hands it what it cannot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tokenizers import Tokenizer

from astrag.embed.static import MAX_TOKENS, MODEL_DIR, prepare
from astrag.embed.wordpiece import WordpieceIds


def _tokenizer() -> Tokenizer:
    tokenizer = Tokenizer.from_file(str(Path(MODEL_DIR) / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    return tokenizer


class _Spy:
    """A tokenizer that records which texts it was asked to encode whole."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.inner = tokenizer
        self.model = tokenizer.model
        self.whole: list[str] = []

    def get_added_tokens_decoder(self) -> Any:
        return self.inner.get_added_tokens_decoder()

    def encode(self, text: str, add_special_tokens: bool) -> Any:
        self.whole.append(text)
        return self.inner.encode(text, add_special_tokens=add_special_tokens)


def _reference(texts: list[str]) -> list[list[int]]:
    return [e.ids for e in _tokenizer().encode_batch(texts, add_special_tokens=False)]


PLAIN = [
    "function load config ( path ) open read parse settings file",
    prepare("method getUserById(self, user_id: int) -> User | None"),
    prepare("class HTTPServer extends BaseServer { listen(port) }"),
    "x",
    "",
    "   \n\t\r ",
    "(): -> [] {} <> !@#$%^&*+=~`|\\/?.,;:'\"",
    "tokenisation of unbelievably antidisestablishmentarianism words 12345 abc123def",
    "a" * 100,  # the longest word WordPiece still splits
    "b" * 101 + " next",  # past max_input_chars_per_word: one [UNK]
    "qzxv jjjjq",  # pieces the vocabulary lacks
    "[notatoken] [cls] [ CLS ]",  # brackets, but no added token as the tokenizer matches them
    " ".join(["user"] * (MAX_TOKENS + 40)),  # cut at MAX_TOKENS
    " ".join(["rendering"] * 400),  # several pieces a word, cut mid-word
]
WHOLE = [
    "café naïve résumé",  # non-ASCII: accents, stripped or not, are the tokenizer's business
    "中文 mixed 字",  # CJK characters split one by one
    "tab\there vertical\x0btab unit\x1fseparator",  # control characters the normaliser drops
    "nul\x00byte del\x7f",
    "[CLS] start [SEP] end",  # added tokens, matched in the raw text
    "x[MASK]y [PAD][UNK]",
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_ascii_is_split_here_with_the_tokenizers_ids(text: str) -> None:
    spy = _Spy(_tokenizer())
    assert WordpieceIds(spy, MAX_TOKENS).ids([text]) == _reference([text])
    assert spy.whole == []  # the tokenizer's pipeline was not run on it


@pytest.mark.parametrize("text", WHOLE)
def test_what_the_split_cannot_vouch_for_goes_to_the_tokenizer(text: str) -> None:
    spy = _Spy(_tokenizer())
    assert WordpieceIds(spy, MAX_TOKENS).ids([text]) == _reference([text])
    assert spy.whole == [text]


def test_a_mixed_batch_keeps_its_order_and_the_cache_its_words() -> None:
    texts = PLAIN + WHOLE + PLAIN[::-1]
    words = WordpieceIds(_tokenizer(), MAX_TOKENS)
    assert words.ids(texts) == _reference(texts)
    assert words.ids(texts) == _reference(texts)  # again, every word from the cache


def test_the_cap_is_the_callers() -> None:
    text = " ".join(["user"] * 50)
    assert WordpieceIds(_tokenizer(), 10).ids([text]) == [_reference([text])[0][:10]]
