"""The word lists search documents are made of, exactly."""

from __future__ import annotations

from astrag.search.text import code_words, code_words_both, distinct_words


def test_both_word_lists_of_a_text_come_from_one_pass() -> None:
    text = "def getHTTPResponse(self, user_id: int) -> Dict[str, x]"
    joined, plain = code_words_both(text)
    assert joined == code_words(text)
    assert plain == code_words(text, keep_joined=False)
    assert joined == [
        "def", "get", "http", "response", "gethttpresponse", "self", "user", "id", "userid",
        "int", "dict", "str", "x",
    ]  # fmt: skip
    assert code_words_both("") == ([], [])


def test_distinct_words_are_the_first_distinct_words_of_longer_than_one_letter() -> None:
    text = "fooBar(a, b) { bazFoo = fooBar + q9; return barQux_x }"
    assert distinct_words(text, 100) == ["foo", "bar", "baz", "return", "qux"]
    assert distinct_words(text, 3) == ["foo", "bar", "baz"]
    assert distinct_words(text, 0) == []
    # a limit reached inside an identifier's words cuts them there
    assert distinct_words("oneTwo threeFour fiveSix oneTwo", 3) == ["one", "two", "three"]
