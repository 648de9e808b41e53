"""Credential values in source text, found and masked in place.

Everything astrag stores or emits about a file is made from its text: facts and signatures,
docstrings, search documents and the texts sent to an embedder (at index time), the source
shown by ``show``, ``context`` and the MCP tools (at query time). Both sides pass the text
through :func:`redact` first, so a credential written in a file never leaves it.

**Masked in place, at the same length.** A secret's bytes are replaced by a typed placeholder
(``<redacted:github-token>``) padded with ``*`` to the secret's length; a secret shorter than
its placeholder becomes ``<redacted>`` or ``*``s. Lines, columns and byte offsets of
everything else stay exactly those of the file on disk, so the parser sees the same code
(a masked string literal is still a string literal), every edge keeps its true site, and the
source shown at query time lines up with what an editor shows. The cost: a masked value's
length is visible; its characters are not.

**Two kinds of rule.**

* *Formats*: a value whose shape alone says what it is: an AWS access key id (``AKIA...``),
  GitHub, GitLab, Slack, npm, PyPI and Hugging Face tokens, OpenAI, Anthropic, Stripe, Google
  and SendGrid keys, a private-key block, a JWT, a Slack webhook, the password in a URL, a
  bearer token. Each format is looked for only when its fixed prefix occurs in the text
  (a plain substring test), so most files cost one pass of ``bytes.find`` per rule.
* *Named values*: a literal assigned to (passed as, compared with, or keyed by) a name whose
  words say credential (``password``, ``*_SECRET``, ``api_key``, ``authToken``,
  ``AWS_SECRET_ACCESS_KEY``), written in Python, TypeScript, JavaScript, JSON, YAML or env
  style, whose characters look random: a Shannon entropy floor, letters mixed with digits or
  cases, and not an identifier, a dotted path, a URL, a template or a placeholder. Names
  that say the value is not the credential itself (``public_key``, ``cache_key``,
  ``token_url``, ``password_hash``) are left alone.

Rules match ASCII only, so a masked span has as many characters as bytes and
:func:`redact_text` keeps columns in characters too.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

PLACEHOLDER = "<redacted:{kind}>"


@dataclass(frozen=True, slots=True)
class Secret:
    """One credential value: its kind and the byte spans that hold it (a private-key block
    has one span per run of key material; every other secret has one)."""

    kind: str
    spans: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class _Format:
    kind: str
    needle: bytes  # every match holds this literal, ``back`` bytes after the match starts
    pattern: re.Pattern[bytes]  # matched where the needle was found, less ``back``
    back: int = 0
    group: int = 0  # the part of the match that is the secret
    random: bool = False  # the value must also look random (entropy, mixed characters)
    bounded: bool = True  # a token: the byte before it is not a letter, digit, "_" or "-"


def _rule(kind: str, needle: bytes, pattern: bytes, **options: int | bool) -> _Format:
    return _Format(kind, needle, re.compile(pattern), **options)  # type: ignore[arg-type]


_END = rb"(?![A-Za-z0-9_])"
# Each rule is tried only where its needle occurs: one bytes.find pass per needle (about a
# GB/s) instead of a regular expression tried at every position (a few MB/s).
_FORMATS = (
    _rule("aws-access-key-id", b"AKIA", rb"AKIA[A-Z0-9]{16}" + _END, random=True),
    _rule("aws-access-key-id", b"ASIA", rb"ASIA[A-Z0-9]{16}" + _END, random=True),
    _rule("github-token", b"gh", rb"gh[pousr]_[A-Za-z0-9]{36,251}" + _END),
    _rule("github-token", b"github_pat_", rb"github_pat_[A-Za-z0-9_]{60,255}" + _END),
    _rule("gitlab-token", b"gl", rb"gl(?:pat|dt|rt|ptt|soat|cbt|ft)-[A-Za-z0-9_\-]{20,255}"),
    _rule("slack-token", b"xox", rb"xox[abposre]-[A-Za-z0-9\-]{10,250}", random=True),
    _rule("slack-token", b"xapp-", rb"xapp-[A-Za-z0-9\-]{10,250}", random=True),
    _rule(
        "slack-webhook",
        b"hooks.slack.com/",
        rb"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/+\-]{16,200})",
        group=1,
        bounded=False,
    ),
    _rule("anthropic-key", b"sk-ant-", rb"sk-ant-[A-Za-z0-9_\-]{32,250}"),
    _rule(
        "openai-key",
        b"sk-",
        rb"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,250}",
        random=True,
    ),
    _rule("stripe-key", b"k_live_", rb"[sr]k_live_[A-Za-z0-9]{16,247}", back=1),
    _rule("stripe-key", b"k_test_", rb"[sr]k_test_[A-Za-z0-9]{16,247}", back=1),
    _rule("stripe-key", b"whsec_", rb"whsec_[A-Za-z0-9]{24,250}"),
    _rule("google-api-key", b"AIza", rb"AIza[A-Za-z0-9_\-]{35}(?![A-Za-z0-9_\-])"),
    _rule("sendgrid-key", b"SG.", rb"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}" + _END),
    _rule("npm-token", b"npm_", rb"npm_[A-Za-z0-9]{36}" + _END),
    _rule("pypi-token", b"pypi-AgE", rb"pypi-AgE[A-Za-z0-9_\-]{50,}"),
    _rule("huggingface-token", b"hf_", rb"hf_[A-Za-z]{34}" + _END, random=True),
    _rule("jwt", b"eyJ", rb"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*"),
    _rule(
        "azure-storage-key",
        b"AccountKey=",
        rb"AccountKey=([A-Za-z0-9+/]{40,}={0,2})",
        group=1,
        bounded=False,
    ),
    _rule(
        "url-password",
        b"://",
        rb"://[^\s:/@'\"`<>{}$%]{1,64}:([^\s:/@'\"`<>{}$%]{3,128})@",
        group=1,
        bounded=False,
    ),
    _rule(
        "bearer-token",
        b"earer ",
        rb"[Bb]earer +([A-Za-z0-9._~+/\-]{20,500}=*)",
        back=1,
        group=1,
        random=True,
    ),
)
# every kind a secret can be reported as (formats, the private key, named values)
KINDS = tuple(
    sorted(
        {r.kind for r in _FORMATS}
        | {"private-key", "aws-secret-key", "password", "secret", "token", "api-key", "key"}
    )
)
_TOKEN_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

_KEY_BEGIN = re.compile(rb"-----BEGIN[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = re.compile(rb"-----END[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----")
# an unterminated block: as many lines (or "\n"-escaped lines) of key material as follow
_KEY_BODY = re.compile(rb"(?:(?:\r?\n|\\r?\\n)[ \t]*[A-Za-z0-9+/=]{4,}[ \t]*)*")
_KEY_RUN = re.compile(rb"(?<!\\)[A-Za-z0-9+/=]+")  # key material; "\n" escapes stay as they are
_KEY_SPAN = 16_384

# Named values: where a credential word occurs (in the lowercased text), the name around it,
# then what gives the name a value: an operator ("," only after a quoted upper-case name, as
# in getenv("API_KEY", "default")), and a quoted literal of printable ASCII or a bare word as
# YAML, .env files and shell write it.
_KEYWORDS = (b"pass", b"pwd", b"secret", b"token", b"credential", b"key")
_VALUE_CHARS = rb"[\x21\x23-\x26\x28-\x5b\x5d-\x5f\x61-\x7e]"  # printable, no quote or "\"
_TAIL = re.compile(
    rb"""(?P<quote>\\?['"])?+\]?+                  # the end of a quoted key, a subscript
    (?:[ \t]*:[ \t]*[A-Za-z_][A-Za-z0-9_.\[\]|, ]{0,60}?(?=[ \t]*=[^=>]))?  # a type annotation
    [ \t]*+(?P<op>:=|=>|===?|!==?|\?\?=?|\|\|=?|=|:|(?(quote),|(?!)))[ \t]*+
    (?:[rRbBuU]{0,2}\\?(?P<q>['"`])(?P<quoted>"""
    + _VALUE_CHARS
    + rb"""{8,512})\\?(?P=q)
      |(?P<bare>[A-Za-z0-9+/=_\-]{12,512})(?=[\s,;\\'"`]|$))""",
    re.VERBOSE,
)
_NAME_REST = re.compile(rb"[A-Za-z0-9_$\-]*")
_NAME_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$-")
_NAME_PARTS = re.compile(rb"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

_PASSWORD_WORDS = frozenset({"password", "passwd", "passphrase", "pwd", "pass"})
_CREDENTIAL_WORDS = frozenset(
    {"secret", "secrets", "token", "tokens", "key", "keys", "credential", "credentials"}
    | _PASSWORD_WORDS
)
_COMPOUND_ENDS = ("key", "secret", "token", "password", "passwd")
# what may stand before one of those in a single word (APIKEY, authToken written as one word)
_QUALIFIERS = frozenset(
    """api secret access auth private client master signing encryption session refresh
    bearer app admin root service account license webhook deploy bot oauth pass""".split()
)
# words that say the value is about a credential, not the credential: a name with one of
# them is not a secret's name (public_key, cache_key, token_url, password_hash, key_field)
_NOT_A_SECRET = frozenset(
    """public pub cache sort primary foreign lookup idempotency partition routing hot short
    shortcut keyboard storage query translation i18n map dict unique composite row column
    index hash hashed digest type types kind name names field fields header headers url uri
    urls endpoint path file filename dir env var vars prefix suffix pattern regex re format
    fmt label placeholder len length size count max min num id ids attr param policy
    strength expiry expires ttl timeout validator help hint message msg error text
    description title widget form mode method scheme algorithm alg class cls model
    serializer backend handler provider version versions limit limits ref refs""".split()
)
# templates and placeholders: ${VAR}, {{ var }}, %(name)s, <your-key>, ****, xxxx, ...
_PLACEHOLDER = re.compile(rb"\$\{|\{\{|%\(\w+\)[sdr]|<[\w\- ]+>|\*{3}|[xX]{4}|\.\.\.")
_PLACEHOLDER_WORDS = frozenset(
    (b"password", b"passwd", b"secret", b"changeme", b"pass", b"pwd", b"token", b"none", b"null")
)
_WORDS_ONLY = re.compile(
    rb"(?:[A-Z]?[a-z]+|[A-Z]+)(?:[_.:\-]?(?:[A-Z]?[a-z]+|[A-Z]+))*"  # camel/snake/kebab/dotted
)
# a file name or path (matched whole): random key material holds "/" too, but in mixed case
_PATH_LIKE = re.compile(
    rb"(?:~|\.{1,2})?/?(?:[\w.\-]+/)*[\w\-]+\.[a-z]{1,5}"  # ends in a file name: x/y.pem
    rb"|(?:~|\.{1,2})?/[a-z0-9_\-./]+"  # an absolute path in lower case: /var/lib/app
    rb"|[A-Za-z]:\\[\w\\. \-]+"  # C:\\keys\\server.key
)


# ----------------------------------------------------------------------------------- finding


def find(data: bytes) -> list[Secret]:
    """The credential values in ``data``, in order, none overlapping another."""
    found: list[Secret] = []
    taken: list[tuple[int, int]] = []
    for secret in _candidates(data):
        if not any(s < e2 and s2 < e for s, e in secret.spans for s2, e2 in taken):
            found.append(secret)
            taken.extend(secret.spans)
    found.sort(key=lambda s: s.spans[0])
    return found


def _candidates(data: bytes) -> Iterator[Secret]:
    """Private keys first, then formats, then named values: the more specific rule wins
    where two overlap (a ``ghp_`` token assigned to ``GITHUB_TOKEN`` is a github-token)."""
    if b"PRIVATE KEY" in data:
        yield from _private_keys(data)
    for rule in _FORMATS:
        for at in _occurrences(data, rule.needle):
            start = at - rule.back
            if start < 0 or (rule.bounded and start and data[start - 1] in _TOKEN_CHARS):
                continue
            m = rule.pattern.match(data, start)
            if m is None:
                continue
            value = m.group(rule.group)
            if rule.random and not _looks_random(value):
                continue
            if rule.kind == "url-password" and _is_placeholder(value):
                continue
            yield Secret(rule.kind, (m.span(rule.group),))
    yield from _named_values(data)


def _occurrences(data: bytes, needle: bytes) -> Iterator[int]:
    at = data.find(needle)
    while at >= 0:
        yield at
        at = data.find(needle, at + 1)


def _private_keys(data: bytes) -> Iterator[Secret]:
    for begin in _KEY_BEGIN.finditer(data):
        start = begin.end()
        end_marker = _KEY_END.search(data, start, start + _KEY_SPAN)
        stop = end_marker.start() if end_marker else _KEY_BODY.match(data, start).end()
        runs = _KEY_RUN.finditer(data, start, min(stop, start + _KEY_SPAN))
        spans = tuple(m.span() for m in runs)
        if spans:
            yield Secret("private-key", spans)


def _named_values(data: bytes) -> Iterator[Secret]:
    lowered = data.lower()
    seen: set[int] = set()  # names already looked at (SECRET_KEY holds two keywords)
    for keyword in _KEYWORDS:
        for at in _occurrences(lowered, keyword):
            name_end = _NAME_REST.match(data, at).end()
            if name_end in seen:
                continue
            seen.add(name_end)
            m = _TAIL.match(data, name_end)
            if m is None:
                continue
            start = at
            while start > 0 and data[start - 1] in _NAME_CHARS and at - start < 64:
                start -= 1
            if m.group("op") == b"," and not _env_lookup(data, start, name_end):
                continue  # a list of names or arguments, not a variable looked up with a default
            kind = _credential_kind(data[start:name_end])
            if kind is None:
                continue
            group = "quoted" if m.group("quoted") is not None else "bare"
            if _value_is_secret(m.group(group), kind, bare=group == "bare"):
                yield Secret(kind, (m.span(group),))


def _env_lookup(data: bytes, start: int, end: int) -> bool:
    """``getenv("API_KEY", ...``: an upper-case name, quoted, first argument of a call."""
    return data[max(start - 2, 0) : start] in (b'("', b"('") and data[start:end].isupper()


def _credential_kind(name: bytes) -> str | None:
    """What kind of credential a name says its value is, or None when it does not say so."""
    words = [w.lower().decode() for w in _NAME_PARTS.findall(name)]
    if not words or any(w in _NOT_A_SECRET for w in words):
        return None
    joined = "".join(words)
    if "aws" in words and ("secret" in joined or "access" in words):
        return "aws-secret-key"
    if any(w in _PASSWORD_WORDS or (_is_compound(w) and "pass" in w) for w in words):
        return "password"
    for w in words:
        if w in _CREDENTIAL_WORDS or _is_compound(w):
            if "secret" in joined:
                return "secret"
            if "token" in joined:
                return "token"
            return "api-key" if "api" in joined else "key"
    return None


def _is_compound(word: str) -> bool:
    return any(word.endswith(end) and word[: -len(end)] in _QUALIFIERS for end in _COMPOUND_ENDS)


def _value_is_secret(value: bytes, kind: str, *, bare: bool) -> bool:
    if _is_placeholder(value) or b"://" in value or _PATH_LIKE.fullmatch(value):
        return False
    if _WORDS_ONLY.fullmatch(value):
        return False  # an identifier, a dotted name, words: written, not a credential
    if kind == "password" and not bare:
        # a password is chosen, not generated: varied characters suffice, not randomness
        return len(value) >= 8 and len(_classes(value)) >= 2 and _entropy(value) >= 3.0
    if len(value) < 16 and not (bare and len(value) >= 12):
        return False
    return _looks_random(value)


def _looks_random(value: bytes) -> bool:
    """Generated, not written: high entropy, digits among letters (or both cases), and not
    one repeated placeholder character."""
    classes = _classes(value)
    if len(set(value)) < 6:
        return False
    entropy = _entropy(value)
    if "digit" in classes and ("lower" in classes or "upper" in classes):
        return entropy >= 3.0
    return entropy >= 3.5 and {"lower", "upper"} <= classes


def _classes(value: bytes) -> set[str]:
    out = set()
    for c in value:
        if 48 <= c <= 57:
            out.add("digit")
        elif 97 <= c <= 122:
            out.add("lower")
        elif 65 <= c <= 90:
            out.add("upper")
        else:
            out.add("symbol")
    return out


def _entropy(value: bytes) -> float:
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _is_placeholder(value: bytes) -> bool:
    if value.lower() in _PLACEHOLDER_WORDS or value[:1] in (b"$", b"{"):
        return True
    return _PLACEHOLDER.search(value) is not None


# ----------------------------------------------------------------------------------- masking

# kinds whose secrets are shorter than their placeholder (an AWS key id has 20 characters)
_SHORT_LABELS = {"aws-access-key-id": "aws-id"}


def mask(kind: str, length: int) -> bytes:
    """``length`` bytes that say a secret of ``kind`` was here."""
    labels = (kind, _SHORT_LABELS.get(kind, kind))
    for text in (*(PLACEHOLDER.format(kind=label) for label in labels), "<redacted>"):
        if len(text) <= length:
            return (text + "*" * (length - len(text))).encode()
    return b"*" * length


def redact(data: bytes) -> tuple[bytes, list[Secret]]:
    """``data`` with every credential value masked in place (same length, same lines), and
    the secrets found. Returns ``data`` itself when there is none."""
    secrets = find(data)
    if not secrets:
        return data, secrets
    out = bytearray(data)
    for secret in secrets:
        for start, end in secret.spans:
            out[start:end] = mask(secret.kind, end - start)
    return bytes(out), secrets


def redact_text(text: str) -> str:
    """:func:`redact` for text: the same spans, masked in characters (rules match ASCII)."""
    data = text.encode("utf-8", errors="surrogateescape")
    clean, secrets = redact(data)
    return text if not secrets else clean.decode("utf-8", errors="surrogateescape")


# ----------------------------------------------------------------------------------- counting

_NOTE = re.compile(r"redacted (\d+) secret value\(s\) \(([a-z0-9\-, ]+)\)")


def note(secrets: list[Secret]) -> str:
    """What a file record says about its redactions (read back by :func:`counts`)."""
    if not secrets:
        return ""
    kinds = Counter(s.kind for s in secrets)
    listed = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    return f"redacted {len(secrets)} secret value(s) ({listed})"


def counts(notes: Iterable[str]) -> dict[str, int]:
    """Redactions by kind over the file records' notes."""
    total: Counter[str] = Counter()
    for text in notes:
        m = _NOTE.search(text)
        if m:
            for part in m.group(2).split(", "):
                kind, _, n = part.rpartition(" ")
                total[kind] += int(n)
    return dict(sorted(total.items()))
