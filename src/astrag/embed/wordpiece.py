"""A BERT (uncased) tokenizer's ids for plain ASCII texts, one cached lookup per word.

The static embedder's texts are identifiers and words, and a repository repeats few of them
(medusa: 1.87M wordpieces from 6.8k distinct words). Running the whole ``tokenizers`` pipeline
on every text (normalise, pre-tokenise, WordPiece, truncate) cost 3.7 CPU s on one core for
medusa's 34k texts; splitting each into words here and looking every word's pieces up in a
dict costs 0.5 s, and a word is handed to the tokenizer's WordPiece model once, the first time
it is seen.

The split is the tokenizer's own for the texts it takes: after ``BertNormalizer`` (control
characters dropped, whitespace made a space, lowercase; accents and CJK do not occur in ASCII)
``BertPreTokenizer`` cuts at whitespace and isolates each punctuation character, which in
ASCII leaves runs of ``[a-z0-9]``. Anything else goes through the tokenizer whole: a text with
a non-ASCII character, with a control character other than tab and line breaks (dropped by
the normaliser, where Python's ``\\s`` would see some of them as spaces), or with one of the
tokenizer's added tokens (``[CLS]``, ``[MASK]``...: matched in the raw text before any split).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import chain
from typing import Any

# After lowercasing, in ASCII without control characters: a word or one punctuation character.
_PIECE = re.compile(r"[a-z0-9]+|[^\sa-z0-9]")
# What the normaliser would drop or rewrite in a way the split above would not match.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def plain_words(text: str, added: re.Pattern[str] | None) -> list[str] | None:
    """The words the tokenizer's normaliser and pre-tokeniser would cut ``text`` into, or None
    for a text it must take whole (see the module's docstring). ``added`` matches the
    tokenizer's added tokens."""
    if not text.isascii() or _CONTROL.search(text) or (added and added.search(text)):
        return None
    return _PIECE.findall(text.lower())


def added_tokens(contents: list[str]) -> re.Pattern[str] | None:
    """A pattern for the tokenizer's added tokens, longest first as the tokenizer matches them."""
    alternatives = "|".join(re.escape(a) for a in sorted(contents, key=len, reverse=True))
    return re.compile(alternatives) if contents else None


class WordpieceIds:
    """``tokenizer.encode_batch(texts, add_special_tokens=False)``'s ids, cut at
    ``max_tokens``, for a ``tokenizers.Tokenizer`` with BERT's normaliser (lowercasing, no
    accent stripping), pre-tokeniser and a WordPiece model. Not thread-safe: the word cache
    is filled as texts come (callers hold a lock)."""

    def __init__(self, tokenizer: Any, max_tokens: int) -> None:
        self._tokenizer = tokenizer
        self._max = max_tokens
        self._words = _Pieces(tokenizer.model)
        self._added = added_tokens(
            [t.content for t in tokenizer.get_added_tokens_decoder().values()]
        )

    def ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's token ids, in order."""
        out: list[list[int]] = []
        slow: list[int] = []  # texts the tokenizer takes whole
        pieces, limit = self._words.__getitem__, self._max
        control, added = _CONTROL.search, self._added
        for text in texts:
            if not text.isascii() or control(text) or (added and added.search(text)):
                slow.append(len(out))
                out.append([])
                continue
            ids = list(chain.from_iterable(map(pieces, _PIECE.findall(text.lower()))))
            out.append(ids[:limit] if len(ids) > limit else ids)
        for i in slow:
            # one at a time: encode_batch would start the tokenizer's thread pool, which a
            # process forked after it can no longer use (search/vectors.py embeds in forks)
            out[i] = self._tokenizer.encode(texts[i], add_special_tokens=False).ids
        return out


class _Pieces(dict[str, list[int]]):
    """word -> its wordpiece ids; a word not seen yet is asked of the model on lookup (a
    dict's own lookup for the rest: no Python call per word)."""

    def __init__(self, model: Any) -> None:
        super().__init__()
        self._model = model

    def __missing__(self, word: str) -> list[int]:
        # the model alone: the word is normalised and split already
        ids = self[word] = [t.id for t in self._model.tokenize(word)]
        return ids


class VocabPieces(dict[str, list[int]]):
    """word -> its wordpiece ids, found in the vocabulary itself as the tokenizer's WordPiece
    model finds them (without loading the tokenizers library: 0.04 s): the longest prefix the
    vocabulary holds, then the longest ``prefix``-marked continuation, and so on; one
    ``unk`` for a word longer than ``max_chars`` or with a rest no piece starts."""

    def __init__(self, vocab: dict[str, int], unk: int, prefix: str, max_chars: int) -> None:
        super().__init__()
        self._vocab, self._unk, self._prefix, self._max = vocab, unk, prefix, max_chars

    def __missing__(self, word: str) -> list[int]:
        ids = self[word] = self._pieces(word)
        return ids

    def _pieces(self, word: str) -> list[int]:
        if len(word) > self._max:
            return [self._unk]
        vocab, ids, start = self._vocab, [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else self._prefix + word[start:end]
                found = vocab.get(piece)
                if found is not None:
                    ids.append(found)
                    break
                end -= 1
            else:
                return [self._unk]
            start = end
        return ids
