"""Filling a token budget: real Symbols over real source text, no index needed."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from astrag.graph.facts import Symbol
from astrag.retrieve.assemble import Candidate, Context, assemble
from astrag.retrieve.tokens import count_tokens

SERVICE_PY = textwrap.dedent(
    '''
    """Authentication: sessions and tokens."""

    import hashlib
    import hmac

    from app.tokens import TokenProvider


    class AuthService:
        """Logs users in and out.

        Holds the token provider it was given; never stores passwords.
        """

        def __init__(self, provider: TokenProvider) -> None:
            self.provider = provider

        def login(self, user: str, password: str) -> str:
            """Check the password and issue a token."""
            if not password:
                raise ValueError("empty password")
            if not self._check(user, password):
                raise PermissionError(user)
            return self.provider.issue(user)

        def logout(self, token: str) -> None:
            """Revoke a token."""
            self.provider.revoke(token)

        def _check(self, user: str, password: str) -> bool:
            digest = hashlib.sha256(password.encode()).hexdigest()
            return hmac.compare_digest(digest, self.provider.digest_for(user))


    def verify_signature(payload: bytes, signature: str, secret: str) -> bool:
        """Validate a webhook signature with HMAC-SHA256.

        The signature is the hex digest the sender computed over the raw body.
        """
        expected = hmac.new(secret.encode(), payload, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, signature)
    '''
).lstrip()

CONTROLLER_TS = textwrap.dedent(
    """
    import { AuthService } from "../auth/service";

    /** HTTP handlers for users. */
    export class UserController {
      constructor(private readonly auth: AuthService) {}

      /** Update a user's profile after checking the session. */
      async updateUser(id: string, body: UserPatch): Promise<User> {
        const token = this.auth.login(body.email, body.password);
        if (!token) {
          throw new Error("not logged in");
        }
        return this.users.save({ ...body, id });
      }
    }
    """
).lstrip()

FILES = {"src/auth/service.py": SERVICE_PY, "src/users/controller.ts": CONTROLLER_TS}


def _span(path: str, first: str, last: str | None = None) -> tuple[int, int]:
    """1-based inclusive lines from the line starting with ``first`` (after indentation) to
    the next line starting with ``last``, or the end of the file."""
    lines = FILES[path].splitlines()
    start = next(i for i, ln in enumerate(lines, 1) if ln.strip().startswith(first))
    if last is None:
        return start, len(lines)
    end = next(i for i, ln in enumerate(lines, 1) if i > start and ln.strip().startswith(last))
    return start, end


def _sym(
    path: str,
    qualname: str,
    kind: str,
    lines: tuple[int, int],
    signature: str = "",
    docstring: str = "",
) -> Symbol:
    return Symbol(
        id=f"{path}::{qualname}" if qualname else path,
        kind=kind,
        name=qualname.rsplit(".", 1)[-1] or path.rsplit("/", 1)[-1],
        qualname=qualname,
        path=path,
        start_line=lines[0],
        end_line=lines[1],
        language="python" if path.endswith(".py") else "typescript",
        signature=signature,
        docstring=docstring,
    )


PY = "src/auth/service.py"
TS = "src/users/controller.ts"
MODULE = _sym(
    PY, "", "module", (1, len(SERVICE_PY.splitlines())), "", "Authentication: sessions and tokens."
)
AUTH = _sym(
    PY,
    "AuthService",
    "class",
    _span(PY, "class AuthService", "return hmac"),
    "class AuthService:",
    "Logs users in and out.\n\nHolds the token provider it was given; never stores passwords.",
)
INIT = _sym(
    PY,
    "AuthService.__init__",
    "method",
    _span(PY, "def __init__", "self.provider ="),
    "def __init__(self, provider: TokenProvider) -> None:",
)
LOGIN = _sym(
    PY,
    "AuthService.login",
    "method",
    _span(PY, "def login", "return self.provider"),
    "def login(self, user: str, password: str) -> str:",
    "Check the password and issue a token.",
)
LOGOUT = _sym(
    PY,
    "AuthService.logout",
    "method",
    _span(PY, "def logout", "self.provider.revoke"),
    "def logout(self, token: str) -> None:",
    "Revoke a token.",
)
CHECK = _sym(
    PY,
    "AuthService._check",
    "method",
    _span(PY, "def _check", "return hmac"),
    "def _check(self, user: str, password: str) -> bool:",
)
VERIFY = _sym(
    PY,
    "verify_signature",
    "function",
    _span(PY, "def verify_signature"),
    "def verify_signature(payload: bytes, signature: str, secret: str) -> bool:",
    "Validate a webhook signature with HMAC-SHA256.\n\nThe signature is the hex "
    "digest the sender computed over the raw body.",
)
CONTROLLER = _sym(
    TS,
    "UserController",
    "class",
    (4, 15),
    "export class UserController",
    "HTTP handlers for users.",
)
UPDATE = _sym(
    TS,
    "UserController.updateUser",
    "method",
    (8, 14),
    "async updateUser(id: string, body: UserPatch): Promise<User>",
    "Update a user's profile after checking the session.",
)
EXTERNAL = Symbol(id="external::hmac.compare_digest", kind="external", name="compare_digest",
                  qualname="hmac.compare_digest", path="")  # fmt: skip


def source(symbol: Symbol) -> str:
    lines = FILES[symbol.path].splitlines()
    return "\n".join(lines[symbol.start_line - 1 : symbol.end_line])


CANDIDATES = (
    Candidate(LOGIN, 1.0, "seed: named in the query (AuthService.login)"),
    Candidate(UPDATE, 0.5, "calls AuthService.login"),
    Candidate(AUTH, 0.5, "class of AuthService.login"),
    Candidate(EXTERNAL, 0.45, "called by AuthService._check"),
    Candidate(CHECK, 0.25, "called by AuthService.login"),
    Candidate(CONTROLLER, 0.25, "class of UserController.updateUser"),
    Candidate(VERIFY, 0.2, "seed: matches 'signature'"),
    Candidate(MODULE, 0.1, "module of AuthService"),
    Candidate(LOGOUT, 0.1, "member of AuthService"),
    Candidate(INIT, 0.05, "member of AuthService"),
)


def _run(
    candidates: Sequence[Candidate] = CANDIDATES,
    budget: int = 4000,
    full_share: float = 0.6,
    count: Callable[[str], int] = count_tokens,
    lead: int = 0,
) -> Context:
    # most tests here are about what is shown and how it is grouped by file; the lead (the
    # most relevant answers first) has its own test below
    return assemble(
        "who calls AuthService.login",
        "callers",
        candidates,
        budget,
        source=source,
        count=count,
        full_share=full_share,
        lead=lead,
    )


def _shown(ctx: Context) -> list[tuple[str, bool]]:
    return [(item.id, item.full) for item in ctx.items]


def test_fixture_lines_are_right() -> None:
    assert source(LOGIN).splitlines()[0] == "    def login(self, user: str, password: str) -> str:"
    assert source(LOGIN).splitlines()[-1] == "        return self.provider.issue(user)"
    assert source(AUTH).splitlines()[-1].strip().startswith("return hmac.compare_digest(digest")
    assert source(UPDATE).splitlines()[-1] == "  }"
    assert source(CONTROLLER).splitlines()[-1] == "}"


# ------------------------------------------------------------------------------ the budget


BUDGETS = [*range(1, 40), *range(40, 600, 7), *range(600, 5001, 97)]


@pytest.mark.parametrize("full_share", [0.0, 0.6, 1.0])
def test_never_over_budget_and_never_empty(full_share: float) -> None:
    for budget in BUDGETS:
        ctx = _run(budget=budget, full_share=full_share)
        assert ctx.tokens == count_tokens(ctx.text), budget
        assert ctx.tokens <= budget, budget
        assert ctx.text, budget
        assert ctx.items, budget
        assert ctx.budget == budget


def test_never_over_budget_with_another_counter() -> None:
    # budgets are in the caller's unit: here characters
    for budget in range(1, 3000, 13):
        ctx = _run(budget=budget, count=len)
        assert ctx.tokens == len(ctx.text) <= budget, budget
        assert ctx.text and ctx.items, budget


def test_bigger_budgets_show_more() -> None:
    sizes = [len(_run(budget=b).items) for b in (60, 150, 250)]
    assert sizes == sorted(sizes)
    assert sum(len(item.content) for item in _run(budget=150).items) < sum(
        len(item.content) for item in _run(budget=600).items
    )


def test_a_bad_budget_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"^budget must be a positive number of tokens, got 0$"):
        _run(budget=0)
    with pytest.raises(ValueError, match=r"got -5$"):
        _run(budget=-5)
    with pytest.raises(ValueError, match=r"^full_share must be between 0 and 1, got 1.5$"):
        _run(full_share=1.5)


# ------------------------------------------------------------------------------- what is shown


def test_large_budget_context() -> None:
    ctx = _run(budget=4000)
    # the classes are whole, so their members are not repeated; the module has no body
    assert _shown(ctx) == [
        ("src/auth/service.py", False),
        ("src/auth/service.py::AuthService", True),
        ("src/auth/service.py::verify_signature", True),
        ("src/users/controller.ts::UserController", True),
    ]
    assert ctx.tokens == count_tokens(ctx.text) == 451
    assert [item.tokens for item in ctx.items] == [28, 197, 95, 108]


def test_exact_text() -> None:
    candidates = (
        Candidate(LOGIN, 1.0, "seed: named in the query"),
        Candidate(UPDATE, 0.5, "calls AuthService.login"),
        Candidate(VERIFY, 0.2, "seed: matches 'signature'"),
        Candidate(LOGOUT, 0.1, "member of AuthService"),
    )
    ctx = _run(candidates, budget=300)
    assert ctx.text == textwrap.dedent(
        '''\
        Files:
        - src/auth/service.py (3 items)
        - src/users/controller.ts (1 item)

        src/auth/service.py:18-24  method AuthService.login — seed: named in the query
        ```python
        def login(self, user: str, password: str) -> str:
            """Check the password and issue a token."""
            if not password:
                raise ValueError("empty password")
            if not self._check(user, password):
                raise PermissionError(user)
            return self.provider.issue(user)
        ```

        src/auth/service.py:35-41  function verify_signature — seed: matches 'signature'
        ```python
        def verify_signature(payload: bytes, signature: str, secret: str) -> bool:
            """Validate a webhook signature with HMAC-SHA256."""
        ```

        src/auth/service.py:26-28  method AuthService.logout — member of AuthService
        ```python
        def logout(self, token: str) -> None:
            """Revoke a token."""
        ```

        src/users/controller.ts:8-14  method UserController.updateUser — calls AuthService.login
        ```typescript
        async updateUser(id: string, body: UserPatch): Promise<User> {
          const token = this.auth.login(body.email, body.password);
          if (!token) {
            throw new Error("not logged in");
          }
          return this.users.save({ ...body, id });
        }
        ```'''
    )
    assert ctx.tokens == count_tokens(ctx.text) == 278


def test_the_most_relevant_get_full_source_within_full_share() -> None:
    # full items may take 60% of 300 tokens: login (87) and updateUser (79) fit, no more
    ctx = _run(budget=300)
    full = [item for item in ctx.items if item.full]
    assert [item.id for item in full] == [LOGIN.id, UPDATE.id]
    assert sum(item.tokens for item in full) <= 0.6 * 300
    assert all(not item.full for item in ctx.items if item.id not in {LOGIN.id, UPDATE.id})


def test_full_share_bounds() -> None:
    assert not any(item.full for item in _run(budget=4000, full_share=0.0).items)
    everything = _run(budget=4000, full_share=1.0)
    assert all(item.full for item in everything.items if item.kind != "module")


def test_a_body_that_does_not_fit_falls_back_to_its_signature() -> None:
    # AuthService whole (197 tokens) is over 60% of 250; verify_signature whole (95) is not
    candidates = (Candidate(AUTH, 1.0, "seed"), Candidate(VERIFY, 0.9, "seed"))
    ctx = _run(candidates, budget=250)
    assert _shown(ctx) == [(AUTH.id, False), (VERIFY.id, True)]
    assert ctx.items[0].content == 'class AuthService:\n    """Logs users in and out."""'
    assert ctx.items[1].content == source(VERIFY)


def test_a_member_of_a_full_class_is_skipped() -> None:
    candidates = (Candidate(AUTH, 1.0, "seed"), Candidate(LOGIN, 0.9, "member"))
    assert _shown(_run(candidates)) == [(AUTH.id, True)]


def test_a_full_class_replaces_members_already_shown() -> None:
    candidates = (
        Candidate(LOGIN, 1.0, "seed"),
        Candidate(VERIFY, 0.9, "seed"),
        Candidate(LOGOUT, 0.8, "member"),
        Candidate(AUTH, 0.7, "class of AuthService.login"),
    )
    ctx = _run(candidates, budget=4000, full_share=1.0)
    # two members of the file, shown whole: the more relevant first
    assert _shown(ctx) == [(VERIFY.id, True), (AUTH.id, True)]
    assert ctx.text.count("def login(") == 1


def test_a_class_in_signature_form_keeps_its_members() -> None:
    candidates = (Candidate(LOGIN, 1.0, "seed"), Candidate(AUTH, 0.7, "class"))
    ctx = _run(candidates, budget=300)  # AuthService whole would pass 60% of 300 with login
    assert _shown(ctx) == [(AUTH.id, False), (LOGIN.id, True)]


def test_a_full_item_of_another_file_does_not_hide_a_symbol() -> None:
    # lines 18-24 lie inside AuthService's 9-32, but in another file
    elsewhere = _sym(TS, "helper", "function", (18, 24), "function helper()")
    candidates = (Candidate(AUTH, 1.0, "seed"), Candidate(elsewhere, 0.5, "x"))
    ctx = _run(candidates, full_share=1.0)
    assert _shown(ctx) == [(AUTH.id, True), (elsewhere.id, False)]


def test_modules_never_get_full_source() -> None:
    ctx = _run((Candidate(MODULE, 1.0, "imports AuthService"),), budget=4000, full_share=1.0)
    assert _shown(ctx) == [(MODULE.id, False)]
    assert ctx.items[0].content == '"""Authentication: sessions and tokens."""'
    bare = _sym(TS, "", "module", (1, 15))
    ctx = _run((Candidate(bare, 1.0, "imports AuthService"),), budget=4000)
    assert ctx.items[0].content == ""
    assert ctx.text == (
        "Files:\n- src/users/controller.ts (1 item)\n\n"
        "src/users/controller.ts:1-15  module controller.ts — imports AuthService"
    )


def test_placeholders_are_skipped() -> None:
    ctx = _run((Candidate(EXTERNAL, 9.0, "called"), Candidate(VERIFY, 0.1, "seed")))
    assert [item.id for item in ctx.items] == [VERIFY.id]
    empty = _run((Candidate(EXTERNAL, 9.0, "called"),))
    assert (empty.items, empty.text, empty.tokens) == ((), "", 0)
    nothing = _run(())
    assert (nothing.items, nothing.text, nothing.tokens) == ((), "", 0)


def test_missing_source_gives_the_signature_form() -> None:
    ctx = assemble("q", "search", (Candidate(LOGIN, 1.0, "seed"),), 500, source=lambda s: "")
    assert _shown(ctx) == [(LOGIN.id, False)]
    assert ctx.items[0].content == (
        "def login(self, user: str, password: str) -> str:\n"
        '    """Check the password and issue a token."""'
    )


def test_a_symbol_without_signature_shows_its_first_line() -> None:
    lines = _span(PY, "self.provider = provider")
    field = _sym(PY, "AuthService.provider", "field", (lines[0], lines[0]))
    ctx = _run((Candidate(field, 1.0, "field"),), budget=500, full_share=0.0)
    assert ctx.items[0].content == "self.provider = provider"


def test_a_long_docstring_is_cut_to_its_first_paragraph_and_bounded() -> None:
    wordy = _sym(PY, "verify_signature", "function", (35, 41),
                 "def verify_signature(payload, signature, secret):",
                 "word " * 200 + "\n\nsecond paragraph")  # fmt: skip
    ctx = _run((Candidate(wordy, 1.0, "seed"),), budget=4000, full_share=0.0)
    doc = ctx.items[0].content.splitlines()[1]
    assert doc == '    """' + "word " * 79 + 'word …"""'
    assert "second paragraph" not in ctx.text


def test_duplicates_keep_their_best_score() -> None:
    candidates = (Candidate(VERIFY, 0.1, "low"), Candidate(VERIFY, 0.9, "high"))
    ctx = _run(candidates)
    assert [(item.id, item.score, item.reason) for item in ctx.items] == [(VERIFY.id, 0.9, "high")]


def test_deterministic_whatever_the_input_order() -> None:
    expected = _run(budget=700)
    shuffled = list(CANDIDATES)
    for seed in range(5):
        random.Random(seed).shuffle(shuffled)
        assert _run(tuple(shuffled), budget=700) == expected
    assert _run(budget=700) == expected


def test_files_by_best_score_their_headers_then_members_by_relevance() -> None:
    candidates = (
        Candidate(VERIFY, 0.9, "seed"),
        Candidate(UPDATE, 1.0, "seed"),
        Candidate(LOGIN, 0.3, "called"),
        Candidate(MODULE, 0.2, "module"),
        Candidate(AUTH, 0.1, "class of AuthService.login"),
    )
    ctx = _run(candidates, budget=4000, full_share=0.0)
    # service.py's frame (its module, AuthService by its header) in line order, then its
    # members most relevant first: verify_signature (0.9) before login (0.3), which comes
    # first in the file
    assert [item.id for item in ctx.items] == [
        UPDATE.id, MODULE.id, AUTH.id, VERIFY.id, LOGIN.id
    ]  # fmt: skip
    assert ctx.text.index("- src/users/controller.ts") < ctx.text.index("- src/auth/service.py")
    assert [ln for ln in ctx.text.splitlines() if ln.startswith("src/")] == [
        "src/users/controller.ts:8-14  method UserController.updateUser — seed",
        "src/auth/service.py:1-41  module service.py — module",
        "src/auth/service.py:9-32  class AuthService — class of AuthService.login",
        "src/auth/service.py:35-41  function verify_signature — seed",
        "src/auth/service.py:18-24  method AuthService.login — called",
    ]


def test_the_answers_lead_most_relevant_first_then_the_rest_by_file() -> None:
    candidates = (
        Candidate(AUTH, 1.0, "seed"),
        Candidate(VERIFY, 0.9, "seed"),
        Candidate(UPDATE, 0.8, "seed"),
        Candidate(LOGIN, 0.3, "called"),
        Candidate(MODULE, 0.2, "module"),
        Candidate(LOGOUT, 0.1, "member"),
    )
    # no room for AuthService whole: its header alone is a map of its members, not an answer,
    # so the two functions shown in full lead; the rest follows by file, in line order
    ctx = _run(candidates, budget=350, full_share=0.5, lead=2)
    assert [(item.id, item.full) for item in ctx.items] == [
        (VERIFY.id, True),
        (UPDATE.id, True),
        (MODULE.id, False),
        (AUTH.id, False),
        (LOGIN.id, False),
        (LOGOUT.id, False),
    ]
    assert ctx.text.splitlines()[1:3] == [
        "- src/auth/service.py (5 items)",
        "- src/users/controller.ts (1 item)",
    ]
    assert ctx.tokens == count_tokens(ctx.text) <= 350
    # the default lead is three: a method's signature is an answer too
    default = assemble("q", "search", candidates, 350, source=source, full_share=0.5)
    assert [item.id for item in default.items] == [
        VERIFY.id, UPDATE.id, LOGIN.id, MODULE.id, AUTH.id, LOGOUT.id
    ]  # fmt: skip


_PROVIDER_LINE = _span(PY, "self.provider =")[0]
PROVIDER = _sym(PY, "AuthService.provider", "field", (_PROVIDER_LINE, _PROVIDER_LINE))
TOKEN = _sym(TS, "UserController.updateUser.token", "variable", (9, 9))  # const token = ...


def test_a_variable_or_field_does_not_lead() -> None:
    # the most relevant items are one line of value each: they keep their place in their
    # file, and the functions shown lead
    candidates = (
        Candidate(PROVIDER, 1.0, "seed"),
        Candidate(TOKEN, 0.95, "seed"),
        Candidate(VERIFY, 0.9, "seed"),
    )
    ctx = _run(candidates, budget=4000, full_share=0.6, lead=3)
    assert [item.id for item in ctx.items] == [VERIFY.id, PROVIDER.id, TOKEN.id]
    assert all(item.full for item in ctx.items)


def test_a_lead_boost_reorders_the_lead_and_nothing_else() -> None:
    candidates = (
        Candidate(VERIFY, 0.9, "seed"),
        Candidate(UPDATE, 0.8, "seed"),
        Candidate(LOGIN, 0.6, "seed"),
    )
    plain = assemble("q", "search", candidates, 4000, source=source, lead=2)
    # updateUser at 0.8 x 1.5 = 1.2 leads verify at 0.9; login, third, stays out of the lead
    boosted = assemble(
        "q", "search", candidates, 4000, source=source, lead=2,
        lead_boost=lambda s: 1.5 if s.id == UPDATE.id else 1.0,
    )  # fmt: skip
    assert [item.id for item in plain.items][:2] == [VERIFY.id, UPDATE.id]
    assert [item.id for item in boosted.items] == [UPDATE.id, VERIFY.id, LOGIN.id]
    # the same items in the same forms, each still carrying its own relevance
    assert sorted(_shown(boosted)) == sorted(_shown(plain))
    assert {i.id: i.score for i in boosted.items} == {i.id: i.score for i in plain.items}


def _whole(candidates: tuple[Candidate, ...], lead: int = 1, **options: Any) -> Context:
    """A context of ``candidates`` with room for all of them in full, ``lead`` items first."""
    return assemble(
        "q", "search", candidates, 4000, source=source, full_share=1.0, lead=lead, **options
    )


def test_a_class_shown_whole_leads_as_the_member_it_replaced() -> None:
    # login is the best answer; AuthService whole replaces it (its lines are in the class), so
    # the class leads as login would have, not at its own 0.3 behind verify and updateUser
    candidates = (
        Candidate(LOGIN, 1.0, "seed"),
        Candidate(VERIFY, 0.9, "seed"),
        Candidate(UPDATE, 0.8, "seed"),
        Candidate(AUTH, 0.3, "class of AuthService.login"),
    )
    ctx = _whole(candidates, lead=2)
    assert _shown(ctx) == [(AUTH.id, True), (VERIFY.id, True), (UPDATE.id, True)]
    # each item still carries its own relevance
    assert [item.score for item in ctx.items] == [0.3, 0.9, 0.8]


def test_a_class_shown_whole_leads_as_a_member_it_holds_would() -> None:
    # the class is shown first and login, inside it, is skipped: the lead boost of login's
    # name (1.5 x 0.9) puts the class (0.85 of its own) before verify (0.95)
    candidates = (
        Candidate(VERIFY, 0.95, "seed"),
        Candidate(AUTH, 0.85, "seed"),
        Candidate(LOGIN, 0.9, "seed"),
    )
    plain = _whole(candidates)
    boosted = _whole(candidates, lead_boost=lambda s: 1.5 if s.id == LOGIN.id else 1.0)
    assert _shown(plain) == [(VERIFY.id, True), (AUTH.id, True)]
    assert _shown(boosted) == [(AUTH.id, True), (VERIFY.id, True)]


def test_a_variable_inside_a_class_shown_whole_does_not_make_it_lead() -> None:
    # a field is one line of value: it leads nothing, as itself or through its class
    candidates = (
        Candidate(VERIFY, 0.9, "seed"),
        Candidate(PROVIDER, 1.0, "seed"),
        Candidate(AUTH, 0.5, "class of AuthService.provider"),
    )
    ctx = _whole(candidates)
    assert _shown(ctx) == [(VERIFY.id, True), (AUTH.id, True)]


_EXPECTED_LINE = _span(PY, "expected = hmac")[0]
# a function nested in verify_signature, as a closure would be
INNER = _sym(PY, "verify_signature.digest", "function", (_EXPECTED_LINE, _EXPECTED_LINE))


def test_a_function_shown_whole_does_not_lead_as_a_function_inside_it() -> None:
    # the inner function's lines are in verify_signature, but a function is not where a
    # nested function's answer is read as a class is for its methods: verify keeps its own
    # relevance
    candidates = (
        Candidate(INNER, 1.0, "seed"),
        Candidate(UPDATE, 0.8, "seed"),
        Candidate(VERIFY, 0.5, "seed"),
    )
    ctx = _whole(candidates)
    assert _shown(ctx) == [(UPDATE.id, True), (VERIFY.id, True)]


def test_ties_are_broken_by_id() -> None:
    candidates = (Candidate(VERIFY, 0.5, "a"), Candidate(UPDATE, 0.5, "b"))
    ctx = _run(candidates, budget=100, full_share=0.0)
    # room for one signature: the smaller id wins the tie
    assert [item.id for item in ctx.items] == [VERIFY.id]
    assert [item.id for item in _run(candidates[::-1], budget=100, full_share=0.0).items] == [
        VERIFY.id
    ]


def test_tiny_budgets_cut_the_top_candidate() -> None:
    ctx = _run(budget=30)
    assert ctx.text == (
        "src/auth/service.py:18-24  method AuthService.login — seed: named in the query "
        "(AuthService.login)\n```python\ndef login(\n```"
    )
    assert ctx.tokens == 30
    assert [(item.id, item.content, item.full) for item in ctx.items] == [
        (LOGIN.id, "def login(", False)
    ]
    one = _run(budget=1)
    assert (one.text, one.tokens) == ("src", 1)
    assert one.items[0].tokens == 1


def test_markdown_fences_are_longer_than_backticks_inside() -> None:
    doc = _sym(PY, "render", "function", (35, 41), "def render():", "Returns ```code```.")
    ctx = _run((Candidate(doc, 1.0, "seed"),), budget=500, full_share=0.0)
    assert ctx.text.endswith('````python\ndef render():\n    """Returns ```code```."""\n````')


def test_json_schema() -> None:
    data = _run(budget=300).to_json()
    assert list(data) == ["query", "intent", "budget", "tokens", "items", "text"]
    assert data["query"] == "who calls AuthService.login"
    assert data["intent"] == "callers"
    assert data["budget"] == 300
    items = data["items"]
    assert isinstance(items, list)
    for item in items:
        assert list(item) == [
            "id", "path", "start_line", "end_line", "symbol", "kind", "score", "reason",
            "content",
        ]  # fmt: skip
    login = next(item for item in items if item["id"] == LOGIN.id)
    assert login == {
        "id": LOGIN.id,
        "path": PY,
        "start_line": 18,
        "end_line": 24,
        "symbol": "AuthService.login",
        "kind": "method",
        "score": 1.0,
        "reason": "seed: named in the query (AuthService.login)",
        "content": source(LOGIN).replace("\n    ", "\n")[4:],
    }
