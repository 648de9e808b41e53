"""Whether code narrows a receiver's type before it uses a member, so that its declared type
no longer says what members it has: ``if (obj instanceof ComputedValue) obj.suspend_()``,
``if (isComputedValue(obj)) obj.get()``, ``isinstance(node, Leaf) and node.value``.

astrag does not follow control flow, so any test of the receiver between the start of the
enclosing function and the use counts as narrowing it, and the member is not judged: a miss
costs less than a false alarm. Pure functions over text.
"""

from __future__ import annotations

import re
from functools import lru_cache

# a discriminant compared (``obj.kind === ...``) narrows a union; the object a method runs
# on (``self``, ``this``) is never one, so for it such a comparison is only a comparison
DISCRIMINANT = r"{r}\.[\w$]+\s*(?:===|!==|==|!=)"
# the tests and casts of every language the checker reads; a language's rules may name its
# own (``LanguageRules.narrowing``): in Java only ``instanceof`` and a cast narrow a type
TESTS = (
    r"{r}\s*instanceof\b",  # TS/JS
    # a type guard: isComputedValue(obj), a namespace's own: CompoundMenuNode.is(node)
    r"\b(?:is|is[A-Z_]\w*)\s*\(\s*{r}\s*[,)]",
    r"""['"][\w$]+['"]\s+in\s+{r}\b""",  # 'key' in obj
    DISCRIMINANT,
    r"\bswitch\s*\(\s*{r}\.",
    r"\bisinstance\s*\(\s*{r}\s*,",  # Python
    r"\btype\s*\(\s*{r}\s*\)\s*(?:is|==)",
    r"\bhasattr\s*\(\s*{r}\s*,",
    r"\bcast\s*\(",  # typing.cast / a TS cast helper: the author overrode the type
    r"{r}\s+as\s+",  # TS ``obj as Other``
    r"<\w[\w.<>, ]*>\s*{r}\b",  # TS ``<Other>obj``
)


def narrowed(
    text: str,
    first_line: int,
    line: int,
    receiver: str,
    member: str = "",
    tests: tuple[str, ...] = TESTS,
) -> bool:
    """Whether lines ``first_line``..``line`` of ``text`` test or cast ``receiver`` (by one
    of ``tests``), or look ``member`` up on it by name (``getattr(cls, "hook", None)``)."""
    if not receiver or "(" in receiver:
        return False
    lines = "\n".join(text.split("\n")[max(first_line - 1, 0) : line])
    if _pattern(receiver, tests).search(lines) is not None:
        return True
    return bool(member) and _lookup(receiver, member).search(lines) is not None


@lru_cache(maxsize=512)
def _lookup(receiver: str, member: str) -> re.Pattern[str]:
    r = rf"(?<![\w$.]){re.escape(receiver)}(?![\w$])"
    return re.compile(rf"""\bgetattr\s*\(\s*{r}\s*,\s*['"]{re.escape(member)}['"]""")


@lru_cache(maxsize=512)
def _pattern(receiver: str, tests: tuple[str, ...]) -> re.Pattern[str]:
    r = rf"(?<![\w$.]){re.escape(receiver)}(?![\w$])"
    return re.compile("|".join(t.format(r=r) for t in tests))
