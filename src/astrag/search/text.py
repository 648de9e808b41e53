"""Words of code and of questions, in one vocabulary.

Identifiers are split the way people read them (``getHTTPResponse`` -> get, http, response;
``update_user`` -> update, user) so that a question in English meets the code that implements
it; the joined lowercase form is kept too, so an exact identifier in a query still matches
best. Both the index and the query side go through these functions: a token only matches if
both sides made it the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from itertools import chain

from astrag.lang import indexed_extensions, question_kind_words

_chain = chain.from_iterable
_EXTENSIONS = indexed_extensions()  # what a token must end in to name a file by itself
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# lower→Upper, ACRONYMWord, letter→digit boundaries
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
# what a path or dotted name is made of, for targets such as src/auth/service.ts
_SEPARATORS = re.compile(r"[_$\-]+")

# English glue and question words: they carry no meaning for code search. Intent words such
# as "call" or "implement" are kept: they are also identifier parts ("callback", "impl").
# A word for a kind of definition ("class", "function", and the rooms' own: Go's "struct")
# says what kind of thing is meant, not which.
STOPWORDS = (
    frozenset(
        """a an the and or but if of to in on at by for from with without into onto over under
    is are was were be been being do does did done doing has have had having can could should
    would will shall may might must not no yes this that these those there here it its it's
    i me my we our us you your he she they them their what which who whom whose where when why
    how all any some each every both either neither such than then too very so just only also
    as about above below up down out off again further once more most other same own s t
    get gets got use used uses using code function functions method methods class classes
    file files please show find tell let make sure way thing things""".split()
    )
    | question_kind_words()
)
_SHORT_OK = frozenset({"id", "db", "io", "ui", "os", "fs", "ip", "js", "ts", "py", "ok"})


def split_identifier(word: str) -> list[str]:
    """``getHTTPResponse`` -> [get, http, response]; ``_update_user2`` -> [update, user, 2]."""
    return list(_split(word))


@lru_cache(maxsize=1 << 16)
def _split(word: str) -> tuple[str, ...]:
    # cached: a codebase repeats its identifiers, and splitting is most of a document's cost
    return tuple(map(str.lower, _CAMEL.findall(_SEPARATORS.sub(" ", word))))


def code_words(text: str, *, keep_joined: bool = True) -> list[str]:
    """Every identifier of ``text`` split into words, in order; with ``keep_joined`` an
    identifier made of several words also contributes its joined lowercase form."""
    out: list[str] = []
    for ident in _IDENT.findall(text):
        parts = _split(ident)
        out.extend(parts)
        if keep_joined and len(parts) > 1:
            out.append("".join(parts))
    return out


def code_words_both(text: str) -> tuple[list[str], list[str]]:
    """``code_words(text, keep_joined=False)`` and ``code_words(text)`` from one scan of
    ``text`` (the identifiers found once, each split once: both memos are C-level caches)."""
    idents = _IDENT.findall(text)
    return list(_chain(map(_split, idents))), list(_chain(map(name_words, idents)))


@lru_cache(maxsize=1 << 16)
def name_words(name: str) -> tuple[str, ...]:
    """Words of one identifier and, if it has several, their joined form."""
    parts = _split(name)
    return (*parts, "".join(parts)) if len(parts) > 1 else parts


def source_words(source: bytes, limit: int) -> list[str]:
    """The first ``limit`` distinct words of the distinct identifiers (``_IDENT``) of the text
    ``source`` decodes to, skipping one-letter words: a bag for search. Made without decoding
    the text or running a regular expression over it: the search documents' largest step, so
    it stays in C up to each distinct identifier's memoised words.

    Identifiers are ASCII (``_IDENT``), and UTF-8 keeps ASCII bytes as they are and codes every
    other character (or a malformed byte, which decoding replaces) with bytes >= 0x80 only, so
    blanking every byte that is no identifier character and splitting at the blanks yields the
    text's runs of identifier characters, in order. A run is an identifier but for the digits
    it may start with (``_IDENT`` never starts with one); ``_run_words`` drops them. Taking the
    first ``limit`` distinct words of all runs equals stopping at the limit while scanning: a
    repeated identifier adds no new word. (tests/search/test_text_words.py holds the plain
    definition this equals, on decoded text with the regular expression.)"""
    runs = dict.fromkeys(source.translate(_BLANK_NON_IDENT).split())
    words = list(dict.fromkeys(_chain(map(_run_words, runs))))
    return words[:limit] if len(words) > limit else words


_BLANK_NON_IDENT = bytes(
    c if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "_$") else 0x20 for c in range(256)
)


@lru_cache(maxsize=1 << 16)
def _run_words(run: bytes) -> tuple[str, ...]:
    """The words of more than one letter of a run of identifier characters."""
    ident = run.lstrip(b"0123456789").decode("ascii")
    return tuple([w for w in _split(ident) if len(w) > 1]) if ident else ()


def unique(words: Iterable[str], limit: int | None = None) -> list[str]:
    if limit is None:
        return list(dict.fromkeys(words))  # the same, without a Python step per word
    seen: dict[str, None] = {}
    for w in words:
        if w not in seen:
            seen[w] = None
            if limit is not None and len(seen) >= limit:
                break
    return list(seen)


def query_words(query: str) -> list[str]:
    """The searchable words of a question: identifiers split, stop words and one-letter
    noise dropped, order kept, duplicates removed."""
    words = []
    for w in code_words(query):
        if w in STOPWORDS:
            continue
        if len(w) < 2 or (len(w) == 2 and w not in _SHORT_OK and not w.isdigit()):
            continue
        words.append(w)
    return unique(words)


def path_words(path: str) -> list[str]:
    """Words of a repository path without its extension: src/auth/jwt_service.ts ->
    [src, auth, jwt, service, jwtservice]."""
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    return code_words(stem.replace("/", " "))


# English glue only: a file name may well be "config" or "utils", which STOPWORDS drops
_PATH_STOPWORDS = frozenset(
    """a an and are as at be by do does for from has have how if in is it not of on or the to
    was what when where which who why with""".split()
)
_MIN_PREFIX = 3


def path_query_words(query: str) -> set[str]:
    """The words of a question to look for in file names: whole words, lower-cased, longer
    than two letters, without English glue."""
    return {
        w.lower() for w in _IDENT.findall(query) if len(w) > 2 and w.lower() not in _PATH_STOPWORDS
    }


def path_match(words: set[str], path: str) -> float:
    """The share of ``words`` found in the file's name or its directory's name, a word
    matching when one is a prefix of the other (``configuration`` ~ ``config``,
    ``validators`` ~ ``validator``); below a tenth counts as none."""
    if not words:
        return 0.0
    parts = path.split("/")
    names = set(_split(parts[-1].split(".", 1)[0]))
    if len(parts) > 1:
        names.update(_split(parts[-2]))
    found = sum(1 for w in words if w in names or any(_prefixed(w, n) for n in names))
    share = found / len(words)
    return share if share >= 0.1 else 0.0


def _prefixed(a: str, b: str) -> bool:
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= _MIN_PREFIX and long.startswith(short)


_STEM = 5  # letters two words share at least to be one stem when neither is a prefix
_ENDING = 3  # ... and at most this many letters of the shorter left over (-ize, -ion, -ing)


def same_stem(a: str, b: str) -> bool:
    """``a`` and ``b`` are one word in two forms: equal, one a prefix of the other
    (``valid`` ~ ``validators``), or the same but for their endings (``serialize`` ~
    ``serialization``, ``validate`` ~ ``validation``)."""
    if a == b or _prefixed(a, b):
        return True
    shorter = min(len(a), len(b))
    common = next((i for i in range(shorter) if a[i] != b[i]), shorter)
    return common >= _STEM and common >= shorter - _ENDING


def looks_like_path(token: str) -> bool:
    """``token`` names a file: it has a directory, or ends in an extension some room indexes."""
    if "/" in token:
        return True
    dot = token.rfind(".")
    return dot >= 0 and token[dot:].lower() in _EXTENSIONS
