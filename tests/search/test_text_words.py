"""The one-pass word functions search documents are made with give exactly what the plain
ones give: a document's words must not depend on which path made them."""

from __future__ import annotations

import random
import re

import pytest

from astrag.search.text import code_words, code_words_both, source_words, split_identifier

_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def distinct_words(text: str, limit: int) -> list[str]:
    """The plain definition ``source_words`` keeps to (documents were once made with it): the
    first ``limit`` distinct words of the distinct identifiers of the decoded text, skipping
    one-letter words."""
    words: dict[str, None] = {}
    for ident in dict.fromkeys(_IDENT.findall(text)):
        for w in split_identifier(ident):
            if len(w) > 1:
                words[w] = None
        if len(words) >= limit:
            break
    return list(words)[:limit]


# identifiers after digits, digits inside identifiers, $ and _, non-ASCII letters around and
# inside identifiers, a multi-byte character cut in half, repeated and one-letter words
TEXTS = [
    "getHTTPResponse(user_id, $el) { return 0x1F + x2y + 12abc + _9 + $1; }",
    "naïve café = résumé.valueOf(ÆtherCount) // ünïcode",
    "class XMLParser extends AParser implements I18n, Ok2Go {}",
    "a b c d e f",
    "",
    "   \n\t",
    "foo.bar.baz foo.bar.baz Foo_Bar__baz$$qux",
]


@pytest.mark.parametrize("text", TEXTS)
def test_source_words_are_distinct_words_of_the_decoded_text(text: str) -> None:
    raw = text.encode()
    for limit in (1, 3, 400):
        assert source_words(raw, limit) == distinct_words(text, limit)


def test_source_words_of_a_cut_multibyte_character_are_those_of_its_replacement() -> None:
    raw = "leftSide é rightSide".encode()
    cut = raw[: raw.index("é".encode()) + 1]  # the first byte of two
    assert source_words(cut, 400) == distinct_words(cut.decode("utf-8", "replace"), 400)
    assert source_words(cut, 400) == ["left", "side"]


def test_source_words_skip_the_digits_an_identifier_cannot_start_with() -> None:
    # the leading digits of a run are not words; digits after a letter or _ are
    assert source_words(b"123abc", 400) == ["abc"]
    assert source_words(b"42", 400) == []
    assert source_words(b"item42count", 400) == ["item", "42", "count"]
    assert source_words(b"_12", 400) == ["12"]
    assert source_words(b"0xFFaa", 400) == ["faa"]  # the identifier xFFaa: x, f, faa


def test_source_words_agree_with_distinct_words_on_random_texts() -> None:
    rng = random.Random(7)
    alphabet = "aAbBzZxX09_$-. é\n(){}1XMLHttp\u00ff"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        limit = rng.randint(1, 8)
        assert source_words(text.encode(), limit) == distinct_words(text, limit), text


@pytest.mark.parametrize("text", TEXTS)
def test_code_words_both_are_the_two_code_words(text: str) -> None:
    assert code_words_both(text) == (code_words(text, keep_joined=False), code_words(text))


def test_code_words_both_join_only_identifiers_of_several_words() -> None:
    assert code_words_both("getUser id") == (
        ["get", "user", "id"],
        ["get", "user", "getuser", "id"],
    )
