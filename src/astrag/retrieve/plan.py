"""Query planning without an LLM: what a question asks for, about which names, along which edges.

A :class:`Plan` tells the rest of retrieval three things: the **targets** to look up in the
index (identifiers, qualified names, paths the question names), the **terms** to give lexical
and dense search, and the **steps** for graph expansion — which edge kinds to follow from each
seed, in which direction, with what weight — derived from the question's :class:`Intent`.

The intent comes from keyword rules on the lowercased query, tried in a fixed precedence (see
:data:`_RULES`); an optional ``llm`` hook may propose a plan instead, and is validated by
:func:`plan_from_mapping` exactly as strictly as any other untrusted input.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from astrag.errors import AstragError
from astrag.graph.facts import EdgeKind

IN = "in"  # follow an edge from its target to its source: who points at the current symbol
OUT = "out"  # follow an edge from its source to its target: what the current symbol points at
DIRECTIONS = (IN, OUT)
MAX_DEPTH = 5  # beyond a few hops a graph walk reaches most of a repository


class Intent(StrEnum):
    DEFINITION = "definition"
    CALLERS = "callers"
    CALLEES = "callees"
    IMPLEMENTATIONS = "implementations"
    USAGES = "usages"
    CHANGE = "change"
    BUG = "bug"
    EXPLAIN = "explain"
    SEARCH = "search"  # generic, or no rule matched


class PlanError(AstragError):
    """A proposed plan (from an LLM hook or a caller) is not a valid :class:`Plan`."""


@dataclass(frozen=True, slots=True)
class EdgeStep:
    kind: str  # an EdgeKind value
    direction: str  # IN or OUT
    weight: float  # 0 < weight <= 1; a neighbour's score is its origin's score times this

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "direction": self.direction, "weight": self.weight}


@dataclass(frozen=True, slots=True)
class Plan:
    query: str
    intent: Intent
    targets: tuple[str, ...]  # names and paths the query mentions, in query order
    terms: str  # text for lexical/dense search: the whole query, normalised (see _terms)
    steps: tuple[EdgeStep, ...]  # highest weight first
    depth: int = 2  # hops of expansion
    decay: float = 0.5  # multiplier per hop, on top of the step weights
    rule: str = ""  # what decided the intent, for --explain

    def to_json(self) -> dict[str, object]:
        return {
            "query": self.query,
            "intent": self.intent.value,
            "targets": list(self.targets),
            "terms": self.terms,
            "steps": [s.to_json() for s in self.steps],
            "depth": self.depth,
            "decay": self.decay,
            "rule": self.rule,
        }

    def explain(self) -> str:
        steps = ", ".join(f"{s.kind} {s.direction} {s.weight:g}" for s in self.steps)
        return "\n".join(
            (
                f"intent: {self.intent.value} ({self.rule})",
                f"targets: {', '.join(self.targets) if self.targets else '(none)'}",
                f"search terms: {self.terms}",
                f"expand {self.depth} hop(s), x{self.decay:g} per hop: {steps or '(no steps)'}",
            )
        )


# ------------------------------------------------------------------------------ step weights
#
# One row per intent, one column per (edge kind, direction); 0 means "do not follow". Read a
# column as a question: `calls in` = "who calls it", `contains in` = "what class/module holds
# it", `contains out` = "its members", `overrides out` = "the base method it overrides",
# `implements in` = "classes implementing it", `references out` = "types it names",
# `imports in` = "files importing it". (refs = references, impls = implements.)
#
# Every intent keeps the surroundings of a symbol in view (its class, what it implements or
# overrides, the types in its signature) at a low weight; the columns the question is about
# weigh 1. Callers never follow calls out and callees never follow calls in: a caller's own
# callees are not an answer to "who calls X", and ranking them beside real callers is noise.
# CHANGE weighs every kind of consumer high (calls/references/imports in, implementers and
# overriders), because each one is a place the change may have to touch.
_COLUMNS: tuple[tuple[EdgeKind, str], ...] = tuple(
    (kind, direction)
    for kind in (
        EdgeKind.CONTAINS,
        EdgeKind.IMPORTS,
        EdgeKind.CALLS,
        EdgeKind.REFERENCES,
        EdgeKind.INHERITS,
        EdgeKind.IMPLEMENTS,
        EdgeKind.OVERRIDES,
    )
    for direction in DIRECTIONS
)
# fmt: off
_WEIGHTS: dict[Intent, tuple[float, ...]] = {
    #                        contains  imports   calls     refs      inherits  impls     overrides
    #                        in   out  in   out  in   out  in   out  in   out  in   out  in   out
    Intent.DEFINITION:      (0.8, 0.6, 0.0, 0.0, 0.3, 0.3, 0.0, 0.6, 0.0, 0.5, 0.0, 0.5, 0.0, 0.5),
    Intent.CALLERS:         (0.5, 0.0, 0.3, 0.0, 1.0, 0.0, 0.5, 0.3, 0.0, 0.3, 0.0, 0.3, 0.0, 0.5),
    Intent.CALLEES:         (0.4, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.5, 0.0, 0.3, 0.0, 0.3, 0.5, 0.3),
    Intent.IMPLEMENTATIONS: (0.4, 0.5, 0.0, 0.0, 0.2, 0.2, 0.0, 0.2, 1.0, 0.3, 1.0, 0.3, 1.0, 0.3),
    Intent.USAGES:          (0.4, 0.3, 0.8, 0.0, 0.9, 0.2, 1.0, 0.3, 0.6, 0.3, 0.6, 0.3, 0.0, 0.3),
    Intent.CHANGE:          (0.6, 0.7, 0.9, 0.3, 1.0, 0.4, 1.0, 0.6, 0.9, 0.6, 0.9, 0.7, 0.9, 0.7),
    Intent.BUG:             (0.6, 0.4, 0.0, 0.2, 0.7, 0.9, 0.3, 0.6, 0.0, 0.5, 0.0, 0.5, 0.4, 0.5),
    Intent.EXPLAIN:         (0.6, 0.8, 0.0, 0.4, 0.5, 0.9, 0.0, 0.6, 0.3, 0.6, 0.3, 0.6, 0.3, 0.5),
    Intent.SEARCH:          (0.5, 0.3, 0.0, 0.2, 0.5, 0.5, 0.3, 0.4, 0.0, 0.4, 0.0, 0.4, 0.0, 0.4),
}
# fmt: on
# "where is X defined" wants X and what is right around it, not a neighbourhood
_DEPTHS: dict[Intent, int] = {Intent.DEFINITION: 1}
DEFAULT_DEPTH = 2
DEFAULT_DECAY = 0.5


def steps_for(intent: Intent) -> tuple[EdgeStep, ...]:
    """The expansion steps of an intent: its row of the table, highest weight first."""
    row = _WEIGHTS[intent]
    steps = [
        EdgeStep(kind.value, direction, weight)
        for (kind, direction), weight in zip(_COLUMNS, row, strict=True)
        if weight > 0
    ]
    # stable sort: equal weights keep the table's column order, so plans are reproducible
    return tuple(sorted(steps, key=lambda s: -s.weight))


# ------------------------------------------------------------------------------------ targets
#
# A target is a word of the query that is shaped like code, because plain English words
# ("user", "token") are for search, and looking them up as symbols would seed the graph walk
# with every `user` variable in the repository. Code-shaped means: an astrag id (`a.py::X`),
# a path (`auth/service.ts`, `src/x.py`: a slash with a file extension, several slashes, a
# leading `./`, or a bare file name with a source extension), a dotted name (`AuthService.login`),
# snake_case (`update_user`, `_cache`), camelCase or PascalCase with an inner capital
# (`updateUser`, `JWTTokenProvider`), `$` names, or a Capitalised word that does not start a
# sentence (`User` in "where is type User used" — a class by convention; "Refactor" at the
# start of a query is not). Backticked and quoted spans count whole whatever their shape
# (`login`, 'login'), unless they contain spaces: a quoted phrase is a search phrase. A
# trailing `()` is dropped. A query that is one identifier is its own target.

_CODE_EXTENSIONS = (
    "py", "pyi", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "json", "toml", "yaml",
    "yml", "md",
)  # fmt: skip
_EXT = "|".join(_CODE_EXTENSIONS)
_FILE_NAME = re.compile(rf"[\w.\-]+\.(?:{_EXT})", re.IGNORECASE)
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_CALL = re.compile(r"(?<![\w$.`'\"])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\)")
_SPAN = re.compile(r"`([^`\n]+)`|(?<![\w`])(['\"])([^'\"\n]+?)\2(?![\w`])")
_MASK = "\x00"
_WORD = re.compile(r"[^\s,;!?()\[\]{}<>`'\"\x00]+")
_LEADING = "(\"'"
_TRAILING = ".,;:!?)\"'"
# product and language names shaped like code; never symbols a user means
_NOT_TARGETS = frozenset(
    {
        "e.g", "i.e", "a.k.a", "etc", "vs", "node.js", "next.js", "vue.js", "nuxt.js",
        "typescript", "javascript", "github", "gitlab", "pypi", "sqlite", "postgresql",
        "mysql", "mongodb", "graphql", "openai", "ios", "macos", "numpy", "pytorch",
        "fastapi", "nestjs", "python", "java", "rust", "ruby", "node", "react", "django",
        "flask", "linux", "windows", "docker", "git", "english", "json", "ok",
    }
)  # fmt: skip


def _is_code_word(word: str, sentence_start: bool) -> bool:
    if word.lower() in _NOT_TARGETS or "://" in word:
        return False
    if "::" in word:
        return True  # an astrag symbol id
    if "/" in word:
        last = word.rstrip("/").rsplit("/", 1)[-1]
        return bool(
            _FILE_NAME.fullmatch(last)
            or word.startswith(("./", "../"))
            or word.count("/") >= 2
            or word.endswith("/")
        )  # "and/or" is not a path
    if _FILE_NAME.fullmatch(word):
        return True  # "service.ts", "auth-service.ts"
    if not _IDENTIFIER.fullmatch(word):
        return False
    if "." in word or "$" in word or "_" in word:
        return True  # dotted names, `$scope`, snake_case and `_private`
    if any(c.isupper() for c in word[1:]) and any(c.islower() for c in word):
        return True  # camelCase, PascalCase with an inner capital
    # a lone Capitalised word: a class name, unless it merely starts a sentence
    return not sentence_start and len(word) > 1 and word[0].isupper() and word[1:].islower()


def _clean(word: str) -> str:
    word = word.lstrip(_LEADING).rstrip(_TRAILING.replace(")", ""))
    return word.removesuffix("()").rstrip(_TRAILING)


def extract_targets(query: str) -> tuple[str, ...]:
    """The code-shaped names and paths in ``query``, in query order, without duplicates."""
    alone = query.strip().strip("`'\"").removesuffix("()")
    if _IDENTIFIER.fullmatch(alone) and alone.lower() not in _NOT_TARGETS:
        return (alone,)
    found: list[tuple[int, str]] = []
    masked = list(query)
    for m in _CALL.finditer(query):
        # `parse()` is written as code whatever its shape
        found.append((m.start(), m.group(1)))
        masked[m.start() : m.end()] = _MASK * (m.end() - m.start())
    for m in _SPAN.finditer("".join(masked)):
        text = (m.group(1) if m.group(1) is not None else m.group(3)).strip()
        if text and not any(c.isspace() for c in text):
            found.append((m.start(), _clean(text) or text))
            # mask with a character that is neither a word nor a sentence end, so the word
            # after a quoted span is not taken to start a sentence
            masked[m.start() : m.end()] = _MASK * (m.end() - m.start())
    rest = "".join(masked).replace("()", "  ")
    previous: re.Match[str] | None = None
    for m in _WORD.finditer(rest):
        gap = rest[previous.end() if previous else 0 : m.start()]
        if previous is None:
            sentence_start = not gap.strip()  # first word, unless a quoted span came before
        else:
            sentence_start = previous.group(0)[-1] in ".:!?" or any(c in "!?" for c in gap)
        previous = m
        word = _clean(m.group(0))
        if word and _is_code_word(word, sentence_start):
            found.append((m.start(), word))
    out: list[str] = []
    for _, word in sorted(found):
        if word not in out:
            out.append(word)
    return tuple(out)


_PLAIN_WORD = re.compile(r"[A-Za-z][a-z]*")


def plain_words(query: str, targets: tuple[str, ...]) -> frozenset[str]:
    """The targets ``query`` writes as plain words: one word, lower case or Capitalised, not in
    backticks or quotes and not called (``schema``, ``Meta``; not `schema`, 'Meta' or
    ``parse()``). Such a word is a name only when few definitions share it (search/engine.py)."""
    code = {
        (m.group(1) if m.group(1) is not None else m.group(3)).strip()
        for m in _SPAN.finditer(query)
    } | {m.group(1) for m in _CALL.finditer(query)}
    return frozenset(t for t in targets if _PLAIN_WORD.fullmatch(t) and t not in code)


def _terms(query: str) -> str:
    # The whole query, with code quoting removed and whitespace collapsed. Intent phrasing is
    # kept on purpose: BM25 gives "who"/"calls" little weight through their document
    # frequency, dense models read the phrasing as meaning, and stripping it would also strip
    # content words that double as intent words ("update all consumers").
    return " ".join(query.replace("`", " ").replace("()", " ").split())


# -------------------------------------------------------------------------------- intent rules
#
# Rules run on the lowercased query with its targets replaced by "x", so that names never
# trigger rules ("where is handleError defined" is no bug report, "updateUser" is no "update")
# — except error class names ("ValidationError"), which are what a bug report mentions.
#
# Precedence, first match wins:
#   1. CHANGE — an edit verb in command position (start of the query or of a sentence, after
#      "please", "can you", "I want to", "how do I", ...) or "X needs to be renamed": a task
#      outranks the relations it mentions ("Rename X and update all references to it");
#   2. the graph questions, most specific phrasing first: IMPLEMENTATIONS, CALLEES, CALLERS,
#      USAGES, then "where is X defined" — they name the relation outright;
#   3. BUG — failure words anywhere ("fails", "crash", "TypeError", "fix"), so "Add error
#      handling to X" (1) is a change but "user update fails" is a bug;
#   4. EXPLAIN — "how does X work", "what does X do", "explain";
#   5. DEFINITION's weak forms "show X" / "what is X", which need a target; after EXPLAIN, so
#      "what is X used for" is an explanation;
#   6. SEARCH.
#
# Callers or usages: "how/where is X used", "who/what uses X" ask for callers when X is a
# function or method, and for usages when X is a type. Without the index the rule decides by
# shape: usages when the query says "type/class/interface/..." or X (the first target) is
# Capitalised in its last dotted part (classes and types by convention in Python and TS) or is
# a path; callers otherwise. "called"/"calls"/"invoked" always mean callers; "references"/
# "usages"/"imports" always mean usages.

_LEAD = (
    r"(?:^|[.;!?]\s*)(?:(?:please|pls|can you|could you|would you|help me|let's|lets|"
    r"i want to|i'd like to|i need to|we need to|we should|need to|how (?:do|can|should|would) "
    r"(?:i|we|you)|how to|what (?:do|does|would|should) (?:i|we) (?:need|have) to)\s+)*"
)
_CHANGE_VERBS = (
    r"refactor|rename|change|add|update|migrate|replace|implement|remove|delete|extract|move|"
    r"split|merge|convert|rewrite|introduce|inline|deprecate|modify|switch|upgrade|make|"
    r"create|swap|drop|wire|hook up|clean up|reorgani[sz]e|restructure|simplify|generali[sz]e"
)
_PAST = (
    r"refactored|renamed|changed|updated|migrated|replaced|removed|extracted|moved|split|"
    r"rewritten|converted|deleted"
)
_TYPE_WORDS = r"types?|class(?:es)?|interfaces?|enums?|structs?|models?|constants?|modules?|files?"
_SUBJECT = r"(?:we|you|i|it|they|anyone|anything|someone|something)"
_USED = r"(?:used|referenced|consumed|instantiated)"
_USES = r"(?:uses|use|consumes|instantiates|depends on|depend on)"
_HOW_USED = "how is X used"


@dataclass(frozen=True, slots=True)
class _Rule:
    intent: Intent
    label: str  # the phrasing it stands for, shown in Plan.rule
    pattern: re.Pattern[str]
    needs_target: bool = False


def _r(intent: Intent, label: str, pattern: str, needs_target: bool = False) -> _Rule:
    return _Rule(intent, label, re.compile(pattern), needs_target)


_RULES: tuple[_Rule, ...] = (
    # 1. CHANGE
    _r(Intent.CHANGE, "refactor/rename/add/... X", rf"{_LEAD}(?:{_CHANGE_VERBS})\b"),
    _r(Intent.CHANGE, "X needs to be changed",
       rf"\b(?:needs? to|has to|have to|should|must|will) be (?:{_PAST})\b"),
    # 2. graph questions
    _r(Intent.IMPLEMENTATIONS, "implementations of X",
       r"\b(?:implementations?|implementers?|implementors?|subclass(?:es)?|subtypes?|"
       r"overrides|overriders|derived classes|child classes|descendants) (?:of|for)\b"),
    _r(Intent.IMPLEMENTATIONS, "who implements X",
       r"\b(?:who|what|which)(?: \w+)? (?:implements?|extends?|overrides?|subclass(?:es)?|"
       r"inherits? from|derives? from)\b"),
    _r(Intent.IMPLEMENTATIONS, "classes that extend X",
       r"\b(?:class(?:es)?|types?|methods?|components?|services?|interfaces?) (?:that|which) "
       r"(?:implements?|extends?|overrides?|inherits? from|derives? from|subclass(?:es)?)\b"),
    _r(Intent.IMPLEMENTATIONS, "is X implemented/overridden anywhere",
       r"\b(?:implemented|overridden|subclassed|extended) (?:by|anywhere|where)\b"),
    _r(Intent.CALLEES, "callees of X",
       r"\b(?:callees|calls made|outgoing calls|functions called) (?:of|by|from|in)\b"),
    _r(Intent.CALLEES, "what does X call",
       rf"\bwhat(?: \w+)? (?:does|do|did) (?!{_SUBJECT} )(?:\S+ ){{1,4}}?"
       r"(?:call|invoke|use|depend on)\b(?! for)"),
    _r(Intent.CALLEES, "what is called by X",
       r"\bwhat (?:is|gets|are|get) (?:called|invoked) (?:by|from|in|inside)\b"),
    _r(Intent.CALLERS, "who calls X",
       r"\b(?:who|what|which(?: \w+)?) (?:calls|invokes|call|invoke|triggers)\b"),
    _r(Intent.CALLERS, "callers of X",
       r"\b(?:callers|call sites|call-sites|callsites|invocations|incoming calls) (?:of|for|to)\b"),
    _r(Intent.CALLERS, "where is X called",
       r"\b(?:where|how|when)(?: \w+)? (?:is|are|was|does|do|gets?) .*?\b(?:called|invoked)\b"),
    _r(Intent.CALLERS, "where do we call X",
       rf"\bwhere (?:do|does|did) {_SUBJECT} (?:call|invoke)\b"),
    _r(Intent.USAGES, "usages of X",
       r"\b(?:usages?|uses|references?|importers|imports) (?:of|to|for)\b"),
    _r(Intent.USAGES, "who imports X",
       r"\b(?:who|what|which(?: \w+)?) (?:imports|references|refers to)\b|"
       r"\bwhere (?:is|are) .*?\b(?:imported|referenced)\b"),
    # CALLERS or USAGES, decided by _callers_or_usages
    _r(Intent.USAGES, _HOW_USED,
       rf"\b(?:where|how)(?: \w+)? (?:is|are|was|does|do|gets?) .*?\b{_USED}\b(?! for)|"
       rf"\b(?:who|what|which(?: \w+)?) {_USES}\b|"
       rf"\bwhere (?:do|does|did) {_SUBJECT} {_USES}\b|"
       r"\bhow (?:do|can|should|would) (?:i|we|you) use\b"),
    _r(Intent.DEFINITION, "where is X defined",
       r"\bwhere (?:is|are|was) .+? (?:defined|declared|located|implemented)\b|"
       r"\bwhere (?:does|do) .+? live\b|"
       r"\b(?:definition|declaration|signature|source code|source) of\b|\b(?:go|jump) to\b"),
    # 3. BUG
    _r(Intent.BUG, "why does X fail",
       r"\bwhy (?:does|do|did|is|are|was|would|doesn't|isn't|won't)\b.*?"
       r"\b(?:fail|break|crash|throw|raise|hang|leak|error|return (?:none|null|undefined)|"
       r"wrong|broken|empty|slow|missing)"),
    _r(Intent.BUG, "fix / bug / crash / error",
       r"\b(?:fix(?:es|ed|ing)?|bugs?|buggy|crash(?:es|ed|ing)?|\w*errors?|\w*exceptions?|"
       r"fail(?:s|ed|ing|ure|ures)?|broken|breaks|wrong|regressions?|traceback|stack ?trace|"
       r"throws|panics?|segfaults?|incorrect(?:ly)?|flaky|"
       r"(?:doesn't|does not|don't|do not|isn't|is not|not) work(?:ing)?)\b"),
    # 4. EXPLAIN
    _r(Intent.EXPLAIN, "how does X work",
       r"\bhow (?:does|do|did|is|are) .*?\b(?:work|works|working|implemented|handled|done|"
       r"happen|computed|built|structured|organi[sz]ed)\b|\bhow .+ works\b"),
    _r(Intent.EXPLAIN, "explain X",
       r"\b(?:explain|describe|walk me through|overview of|summari[sz]e|understand|"
       r"purpose of|what happens when|responsible for|in charge of)\b"),
    _r(Intent.EXPLAIN, "what does X do",
       r"\bwhat (?:does|do|did) .+? do\b|\bwhat(?: is| are|'s) .+? (?:used )?for\b"),
    # 5. DEFINITION, weak forms
    _r(Intent.DEFINITION, "show X",
       r"^(?:please )?(?:show|display|print|open|find|locate)\b", needs_target=True),
    _r(Intent.DEFINITION, "what is X", r"^(?:what|who)(?:'s| is| are)\b", needs_target=True),
)  # fmt: skip

_ERROR_NAME = re.compile(r"[A-Z]\w*(?:Error|Exception)")


def _mask_targets(lowered: str, targets: tuple[str, ...]) -> str:
    for target in sorted(targets, key=len, reverse=True):
        if _ERROR_NAME.fullmatch(target.rsplit(".", 1)[-1]):
            continue
        name = re.escape(target.lower())
        lowered = re.sub(rf"(?<![\w$]){name}(?![\w$])", "x", lowered)
    return lowered


def _looks_like_type(target: str) -> bool:
    if "/" in target or _FILE_NAME.fullmatch(target):
        return True
    last = target.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
    return last[:1].isupper()


def _callers_or_usages(lowered: str, targets: tuple[str, ...]) -> tuple[Intent, str]:
    if re.search(rf"\b(?:{_TYPE_WORDS})\b", lowered):
        return Intent.USAGES, "the query names a type"
    if targets and _looks_like_type(targets[0]):
        return Intent.USAGES, f"{targets[0]} looks like a type"
    return Intent.CALLERS, (f"{targets[0]} looks like a function" if targets else "no type named")


def classify(query: str, targets: tuple[str, ...]) -> tuple[Intent, str]:
    """The intent of ``query`` and the rule that decided it (for ``Plan.rule``)."""
    lowered = " ".join(query.lower().replace("`", " ").split())
    lowered = _mask_targets(lowered, targets)
    for rule in _RULES:
        if rule.needs_target and not targets:
            continue
        m = rule.pattern.search(lowered)
        if m is None:
            continue
        why = f"{rule.label}: {m.group(0).strip(' .;!?')!r}"
        if rule.label == _HOW_USED:
            intent, because = _callers_or_usages(lowered, targets)
            return intent, f"{why}, {because}"
        return rule.intent, why
    return Intent.SEARCH, "no rule matched"


def _rule_plan(query: str, rule_note: str = "") -> Plan:
    targets = extract_targets(query)
    intent, rule = classify(query, targets)
    return Plan(
        query=query,
        intent=intent,
        targets=targets,
        terms=_terms(query),
        steps=steps_for(intent),
        depth=_DEPTHS.get(intent, DEFAULT_DEPTH),
        decay=DEFAULT_DECAY,
        rule=rule + rule_note,
    )


def plan_query(query: str, *, llm: Callable[[str], Mapping[str, object]] | None = None) -> Plan:
    """Plan retrieval for ``query``: by the rules, or by ``llm`` when it gives a valid plan.

    ``llm`` receives the query and returns a mapping in the shape :func:`plan_from_mapping`
    accepts. If it raises or its answer is invalid, the rule plan is used and ``rule`` says so:
    a planner is an optimisation and must never make retrieval fail.
    """
    if llm is None:
        return _rule_plan(query)
    try:
        return plan_from_mapping(query, llm(query))
    except Exception as err:  # any failure of foreign code means "use the rules"
        return _rule_plan(query, f" (llm plan rejected: {type(err).__name__}: {err})")


# ------------------------------------------------------------------------- validating a mapping

_KEYS = ("intent", "targets", "terms", "steps", "depth", "decay")
_HINT = (
    "A plan is an object with 'intent' (one of: "
    + ", ".join(i.value for i in Intent)
    + "), optional 'targets' (list of names), 'terms' (string), 'steps' (list of "
    "{kind, direction, weight}), 'depth' (0-5) and 'decay' (0-1]."
)


def _fail(message: str) -> PlanError:
    return PlanError(f"invalid plan: {message}", _HINT)


def _number(value: object) -> bool:
    # bool is an int subclass; "depth": true is a mistake, not 1
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _parse_step(i: int, raw: object) -> EdgeStep:
    if not isinstance(raw, Mapping):
        raise _fail(f"steps[{i}] is {type(raw).__name__}, expected an object")
    unknown = sorted(set(raw) - {"kind", "direction", "weight"})
    if unknown:
        raise _fail(f"steps[{i}] has unknown keys {unknown}")
    kind, direction, weight = raw.get("kind"), raw.get("direction"), raw.get("weight")
    kinds = [k.value for k in EdgeKind]
    if kind not in kinds:
        raise _fail(f"steps[{i}].kind is {kind!r}, expected one of {kinds}")
    if direction not in DIRECTIONS:
        raise _fail(f"steps[{i}].direction is {direction!r}, expected 'in' or 'out'")
    if not _number(weight) or not 0 < weight <= 1:  # type: ignore[operator]
        raise _fail(f"steps[{i}].weight is {weight!r}, expected a number in (0, 1]")
    return EdgeStep(str(kind), str(direction), float(weight))  # type: ignore[arg-type]


def plan_from_mapping(query: str, data: Mapping[str, object]) -> Plan:
    """Validate a plan proposed as plain data (an LLM's JSON answer) and build it.

    ``intent`` is required. ``targets`` defaults to the names the rules find in the query,
    ``terms`` to the normalised query, ``steps`` to the intent's row of the weight table,
    ``depth``/``decay`` to the intent's defaults. Unknown keys are rejected rather than ignored
    so that a misspelt key ("step") cannot silently fall back to defaults.
    """
    if not isinstance(data, Mapping):
        raise _fail(f"expected an object, got {type(data).__name__}")
    unknown = sorted(str(k) for k in set(data) - set(_KEYS))
    if unknown:
        raise _fail(f"unknown keys {unknown}")

    raw_intent = data.get("intent")
    if not isinstance(raw_intent, str) or raw_intent.strip().lower() not in set(Intent):
        raise _fail(f"intent is {raw_intent!r}, expected one of {[i.value for i in Intent]}")
    intent = Intent(raw_intent.strip().lower())

    raw_targets = data.get("targets")
    if raw_targets is None:
        targets = extract_targets(query)
    elif isinstance(raw_targets, list | tuple) and all(
        isinstance(t, str) and t.strip() for t in raw_targets
    ):
        targets = tuple(dict.fromkeys(t.strip() for t in raw_targets))
    else:
        raise _fail(f"targets is {raw_targets!r}, expected a list of non-empty strings")

    raw_terms = data.get("terms")
    if raw_terms is None:
        terms = _terms(query)
    elif isinstance(raw_terms, str) and raw_terms.strip():
        terms = " ".join(raw_terms.split())
    else:
        raise _fail(f"terms is {raw_terms!r}, expected a non-empty string")

    raw_steps = data.get("steps")
    if raw_steps is None:
        steps = steps_for(intent)
    elif isinstance(raw_steps, list | tuple):
        parsed = [_parse_step(i, s) for i, s in enumerate(raw_steps)]
        seen: set[tuple[str, str]] = set()
        for s in parsed:
            if (s.kind, s.direction) in seen:
                raise _fail(f"step {s.kind} {s.direction} appears twice")
            seen.add((s.kind, s.direction))
        steps = tuple(sorted(parsed, key=lambda s: -s.weight))
    else:
        raise _fail(f"steps is {type(raw_steps).__name__}, expected a list")

    depth = data.get("depth", _DEPTHS.get(intent, DEFAULT_DEPTH))
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
        raise _fail(f"depth is {depth!r}, expected an integer from 0 to {MAX_DEPTH}")

    decay = data.get("decay", DEFAULT_DECAY)
    if not _number(decay) or not 0 < decay <= 1:  # type: ignore[operator]
        raise _fail(f"decay is {decay!r}, expected a number in (0, 1]")

    return Plan(
        query=query,
        intent=intent,
        targets=targets,
        terms=terms,
        steps=steps,
        depth=depth,
        decay=float(decay),  # type: ignore[arg-type]
        rule="llm",
    )
