"""Query planning: intent rules, target extraction, the step table, the LLM hook."""

from __future__ import annotations

import pytest

from astrag.errors import AstragError
from astrag.graph.facts import EdgeKind
from astrag.retrieve.plan import (
    EdgeStep,
    Intent,
    Plan,
    PlanError,
    extract_targets,
    plan_from_mapping,
    plan_query,
    steps_for,
)

INTENTS = [
    # CALLERS
    ("who calls AuthService.login", Intent.CALLERS),
    ("Who calls updateUser?", Intent.CALLERS),
    ("what calls `flush`", Intent.CALLERS),
    ("which functions call update_user", Intent.CALLERS),
    ("callers of update_user", Intent.CALLERS),
    ("show me the call sites of parseConfig", Intent.CALLERS),
    ("how is updateUser called?", Intent.CALLERS),
    ("where is AuthService.login called from", Intent.CALLERS),
    ("where is UserService invoked", Intent.CALLERS),  # "invoked" always means calls
    ("where do we call send_email", Intent.CALLERS),
    ("how is updateUser used", Intent.CALLERS),  # a function: its uses are calls
    ("where is `login` used", Intent.CALLERS),
    ("who uses AuthService.login", Intent.CALLERS),
    # CALLEES
    ("what does UserService.update call", Intent.CALLEES),
    ("callees of foo_bar", Intent.CALLEES),
    ("what functions does handleRequest use", Intent.CALLEES),
    ("what does index_repo depend on", Intent.CALLEES),
    ("what is called by resolve_all", Intent.CALLEES),
    # IMPLEMENTATIONS
    ("implementations of TokenProvider", Intent.IMPLEMENTATIONS),
    ("who implements TokenProvider", Intent.IMPLEMENTATIONS),
    ("which classes implement `Repository`", Intent.IMPLEMENTATIONS),
    ("subclasses of BaseModel", Intent.IMPLEMENTATIONS),
    ("classes that extend Base", Intent.IMPLEMENTATIONS),
    ("what overrides Base.save", Intent.IMPLEMENTATIONS),
    ("is Store.get overridden anywhere", Intent.IMPLEMENTATIONS),
    # USAGES
    ("where is type User used", Intent.USAGES),
    ("how is the Config class used", Intent.USAGES),
    ("how is AuthService used", Intent.USAGES),  # Capitalised: a type
    ("what uses UserRepository", Intent.USAGES),
    ("usages of Config", Intent.USAGES),
    ("find all references to `settings`", Intent.USAGES),
    ("who imports src/astrag/errors.py", Intent.USAGES),
    ("where is parse_args imported", Intent.USAGES),
    ("where is src/auth/service.ts used", Intent.USAGES),  # a path: a module
    ("how do I use AuthService", Intent.USAGES),  # examples of use: its usages
    ("how should we use send_email", Intent.CALLERS),
    # DEFINITION
    ("where is AuthService defined", Intent.DEFINITION),
    ("where is handleError defined", Intent.DEFINITION),  # a name is never a bug word
    ("where is ValidationError declared", Intent.DEFINITION),
    ("definition of parse_args", Intent.DEFINITION),
    ("show AuthService", Intent.DEFINITION),
    ("Show me `login`", Intent.DEFINITION),
    ("what is JWTTokenProvider", Intent.DEFINITION),
    ("what's `Resolver`", Intent.DEFINITION),
    ("where does TokenProvider live", Intent.DEFINITION),
    # CHANGE
    ("refactor AuthService to use JWTTokenProvider and update all consumers", Intent.CHANGE),
    ("Rename updateUser to saveUser and update all references to it", Intent.CHANGE),
    ("Add error handling to UserService.save", Intent.CHANGE),  # "error", but a task
    ("please migrate auth/service.ts to the new API", Intent.CHANGE),
    ("I want to replace requests with httpx", Intent.CHANGE),
    ("how do I add a field to User", Intent.CHANGE),
    ("what do I need to change to use JWTTokenProvider", Intent.CHANGE),
    ("Implement rate limiting in ApiClient", Intent.CHANGE),
    ("extract the validation out of UserController.updateUser", Intent.CHANGE),
    ("remove the legacy session cookie", Intent.CHANGE),
    ("move parse_args into cli/args.py", Intent.CHANGE),
    ("The token cache needs to be refactored", Intent.CHANGE),
    ("We use SessionStore. Switch it to Redis.", Intent.CHANGE),
    # BUG
    ("fix the crash in updateUser", Intent.BUG),
    ("why does login fail for new users", Intent.BUG),
    ("user update fails with a 500", Intent.BUG),  # "update" is not in command position
    ("ValidationError raised in src/api/users.py", Intent.BUG),
    ("TypeError: cannot read property id of undefined", Intent.BUG),
    ("the export is broken since yesterday", Intent.BUG),
    ("regression in token refresh", Intent.BUG),
    ("password reset doesn't work", Intent.BUG),
    ("why is the index empty after a rebuild", Intent.BUG),
    ("wrong totals in the invoice report", Intent.BUG),
    ("who calls save when it fails", Intent.CALLERS),  # the relation outranks the symptom
    # EXPLAIN
    ("how does AuthService work", Intent.EXPLAIN),
    ("how do incremental updates work", Intent.EXPLAIN),
    ("explain the indexer", Intent.EXPLAIN),
    ("Explain `Resolver.walk`", Intent.EXPLAIN),
    ("what does resolve_all do", Intent.EXPLAIN),
    ("what is Resolver used for", Intent.EXPLAIN),
    ("how is authentication handled", Intent.EXPLAIN),
    ("walk me through the check pipeline", Intent.EXPLAIN),
    ("what happens when a file is deleted", Intent.EXPLAIN),
    # SEARCH
    ("where do we validate webhook signatures?", Intent.SEARCH),
    ("webhook signature validation", Intent.SEARCH),
    ("rate limiting", Intent.SEARCH),
    ("what is the retry policy", Intent.SEARCH),  # "what is" needs a named target
    ("show the places that talk to stripe", Intent.SEARCH),  # "show" likewise
    ("", Intent.SEARCH),
]


@pytest.mark.parametrize(("query", "intent"), INTENTS)
def test_intent_rules(query: str, intent: Intent) -> None:
    assert plan_query(query).intent == intent


def test_rule_records_what_decided() -> None:
    assert plan_query("who calls AuthService.login").rule == "who calls X: 'who calls'"
    assert plan_query("how is updateUser used").rule == (
        "how is X used: 'how is x used', updateUser looks like a function"
    )
    assert plan_query("how is AuthService used").rule == (
        "how is X used: 'how is x used', AuthService looks like a type"
    )
    assert plan_query("where is type User used").rule == (
        "how is X used: 'where is type x used', the query names a type"
    )
    assert plan_query("rate limiting").rule == "no rule matched"


TARGETS = [
    ("refactor AuthService to use JWTTokenProvider and update all consumers",
     ("AuthService", "JWTTokenProvider")),
    ("how is updateUser called?", ("updateUser",)),
    ("who calls AuthService.login", ("AuthService.login",)),
    ("callers of update_user and _cache", ("update_user", "_cache")),
    ("look in auth/service.ts and src/x.py", ("auth/service.ts", "src/x.py")),
    ("open ./lib/util.js or src/astrag/retrieve/", ("./lib/util.js", "src/astrag/retrieve/")),
    ("what is in service.ts", ("service.ts",)),
    ("explain `login` and 'logout' and \"refresh\"", ("login", "logout", "refresh")),
    ("who calls `updateUser()`", ("updateUser",)),
    ("who calls updateUser()?", ("updateUser",)),
    ("where is type User used", ("User",)),
    ("User fails on save", ()),  # a Capitalised word that starts a sentence
    ("`login` User", ("login", "User")),  # a quoted span does not end a sentence
    ("User is slow. Then Config breaks! Store too", ("Config",)),
    ("the id src/auth/service.ts::AuthService.login", ("src/auth/service.ts::AuthService.login",)),
    ("updateUser then AuthService, then updateUser again", ("updateUser", "AuthService")),
    ("HTTPClient and $scope", ("HTTPClient", "$scope")),
    ("where do we validate webhook signatures?", ()),
    ("fix the 'webhook signature' check", ()),  # a quoted phrase is a search phrase
    ("e.g. and/or Node.js, TypeScript and JavaScript on GitHub", ()),
    ("see https://example.com/a/b.py", ()),
    ("what's the user's API key", ()),  # apostrophes and acronyms
    ("updateUser", ("updateUser",)),
    ("login", ("login",)),  # a query that is one identifier is its own target
]  # fmt: skip


@pytest.mark.parametrize(("query", "targets"), TARGETS)
def test_targets(query: str, targets: tuple[str, ...]) -> None:
    assert extract_targets(query) == targets
    assert plan_query(query).targets == targets


def test_terms_are_the_normalised_query() -> None:
    plan = plan_query("  who calls `updateUser()`\n  in the API? ")
    assert plan.terms == "who calls updateUser in the API?"


def _pairs(intent: Intent) -> set[tuple[str, str]]:
    return {(s.kind, s.direction) for s in steps_for(intent)}


def test_callers_follow_calls_in_never_out() -> None:
    plan = plan_query("who calls X")
    assert plan.intent == Intent.CALLERS
    assert ("calls", "in") in {(s.kind, s.direction) for s in plan.steps}
    assert ("calls", "out") not in {(s.kind, s.direction) for s in plan.steps}
    assert plan.steps[0] == EdgeStep("calls", "in", 1.0)


def test_callees_follow_calls_out_never_in() -> None:
    assert ("calls", "out") in _pairs(Intent.CALLEES)
    assert ("calls", "in") not in _pairs(Intent.CALLEES)
    assert steps_for(Intent.CALLEES)[0] == EdgeStep("calls", "out", 1.0)
    assert _pairs(Intent.CALLERS) != _pairs(Intent.CALLEES)


def test_implementations_and_usages_steps() -> None:
    top = {(s.kind, s.direction) for s in steps_for(Intent.IMPLEMENTATIONS) if s.weight == 1.0}
    assert top == {("inherits", "in"), ("implements", "in"), ("overrides", "in")}
    usages = {(s.kind, s.direction): s.weight for s in steps_for(Intent.USAGES)}
    assert usages[("references", "in")] == 1.0
    assert usages[("calls", "in")] == 0.9
    assert usages[("imports", "in")] == 0.8


def test_change_weighs_every_consumer_high() -> None:
    weights = {(s.kind, s.direction): s.weight for s in steps_for(Intent.CHANGE)}
    for consumer in ("calls", "references", "imports", "implements", "overrides", "inherits"):
        assert weights[(consumer, "in")] >= 0.9
    # the consumers outrank what the changed symbol itself calls
    assert weights[("calls", "out")] < weights[("calls", "in")]


def test_every_intent_keeps_a_symbols_surroundings() -> None:
    for intent in Intent:
        pairs = _pairs(intent)
        assert ("contains", "in") in pairs, intent  # the class of a method
        assert ("references", "out") in pairs, intent  # types in its signature
        for kind in ("implements", "overrides", "inherits"):
            assert (kind, "out") in pairs, (intent, kind)  # what it implements/overrides
        if intent != Intent.CALLEES:
            assert ("calls", "in") in pairs, intent
        if intent != Intent.CALLERS:
            assert ("calls", "out") in pairs, intent


def test_step_table_is_well_formed() -> None:
    kinds = {k.value for k in EdgeKind}
    for intent in Intent:
        steps = steps_for(intent)
        assert steps, intent
        assert all(s.kind in kinds and s.direction in ("in", "out") for s in steps)
        assert all(0 < s.weight <= 1 for s in steps)
        assert len(_pairs(intent)) == len(steps)  # each (kind, direction) once
        assert [s.weight for s in steps] == sorted((s.weight for s in steps), reverse=True)


def test_depths() -> None:
    assert plan_query("where is AuthService defined").depth == 1
    assert plan_query("who calls AuthService.login").depth == 2
    assert plan_query("who calls AuthService.login").decay == 0.5


def test_to_json_and_explain() -> None:
    plan = plan_query("what does `parse` call")
    data = plan.to_json()
    assert list(data) == ["query", "intent", "targets", "terms", "steps", "depth", "decay", "rule"]
    assert data["intent"] == "callees"
    assert data["targets"] == ["parse"]
    assert data["terms"] == "what does parse call"
    assert data["steps"][0] == {"kind": "calls", "direction": "out", "weight": 1.0}  # type: ignore[index]
    assert plan.explain().splitlines() == [
        "intent: callees (what does X call: 'what does x call')",
        "targets: parse",
        "search terms: what does parse call",
        "expand 2 hop(s), x0.5 per hop: calls out 1, references out 0.5, overrides in 0.5, "
        "contains in 0.4, inherits out 0.3, implements out 0.3, overrides out 0.3",
    ]


# ------------------------------------------------------------------------------ the LLM hook


def test_llm_plan_is_used_when_valid() -> None:
    seen: list[str] = []

    def llm(query: str) -> dict[str, object]:
        seen.append(query)
        return {
            "intent": "Callers",
            "targets": ["AuthService.login", "AuthService.login", "login"],
            "steps": [
                {"kind": "calls", "direction": "in", "weight": 0.5},
                {"kind": "references", "direction": "in", "weight": 1},
            ],
            "depth": 3,
        }

    plan = plan_query("sessions?", llm=llm)
    assert seen == ["sessions?"]
    assert plan == Plan(
        query="sessions?",
        intent=Intent.CALLERS,
        targets=("AuthService.login", "login"),
        terms="sessions?",
        steps=(EdgeStep("references", "in", 1.0), EdgeStep("calls", "in", 0.5)),
        depth=3,
        decay=0.5,
        rule="llm",
    )


def test_llm_plan_defaults_from_the_intent() -> None:
    plan = plan_from_mapping("where is `Foo` defined", {"intent": "definition"})
    assert plan.targets == ("Foo",)
    assert plan.steps == steps_for(Intent.DEFINITION)
    assert plan.depth == 1
    assert plan.rule == "llm"


def test_llm_raising_falls_back_to_the_rules() -> None:
    def llm(query: str) -> dict[str, object]:
        raise TimeoutError("model took too long")

    plan = plan_query("who calls updateUser", llm=llm)
    assert plan.intent == Intent.CALLERS
    assert plan.targets == ("updateUser",)
    assert plan.rule == (
        "who calls X: 'who calls' (llm plan rejected: TimeoutError: model took too long)"
    )


def test_llm_bad_data_falls_back_to_the_rules() -> None:
    plan = plan_query("who calls updateUser", llm=lambda q: {"intent": "gossip"})
    assert plan.intent == Intent.CALLERS
    assert plan.rule.startswith("who calls X: 'who calls' (llm plan rejected: PlanError: ")
    assert "intent is 'gossip'" in plan.rule


BAD_PLANS = [
    ({}, "invalid plan: intent is None, expected one of"),
    ({"intent": 3}, "invalid plan: intent is 3"),
    ({"intent": "callers", "step": []}, "invalid plan: unknown keys ['step']"),
    ({"intent": "callers", "targets": "login"}, "invalid plan: targets is 'login'"),
    ({"intent": "callers", "targets": ["", "x"]}, "invalid plan: targets is ['', 'x']"),
    ({"intent": "callers", "terms": "  "}, "invalid plan: terms is '  '"),
    ({"intent": "callers", "steps": {}}, "invalid plan: steps is dict, expected a list"),
    ({"intent": "callers", "steps": ["calls"]}, "invalid plan: steps[0] is str"),
    ({"intent": "callers", "steps": [{"kind": "eats", "direction": "in", "weight": 1}]},
     "invalid plan: steps[0].kind is 'eats'"),
    ({"intent": "callers", "steps": [{"kind": "calls", "direction": "up", "weight": 1}]},
     "invalid plan: steps[0].direction is 'up'"),
    ({"intent": "callers", "steps": [{"kind": "calls", "direction": "in", "weight": 2}]},
     "invalid plan: steps[0].weight is 2, expected a number in (0, 1]"),
    ({"intent": "callers", "steps": [{"kind": "calls", "direction": "in", "weight": True}]},
     "invalid plan: steps[0].weight is True"),
    ({"intent": "callers", "steps": [{"kind": "calls", "direction": "in"}]},
     "invalid plan: steps[0].weight is None"),
    ({"intent": "callers", "steps": [{"kind": "calls", "direction": "in", "weight": 1,
                                      "why": "x"}]},
     "invalid plan: steps[0] has unknown keys ['why']"),
    ({"intent": "callers", "steps": [{"kind": "calls", "direction": "in", "weight": 1}] * 2},
     "invalid plan: step calls in appears twice"),
    ({"intent": "callers", "depth": 9},
     "invalid plan: depth is 9, expected an integer from 0 to 5"),
    ({"intent": "callers", "depth": 1.5}, "invalid plan: depth is 1.5"),
    ({"intent": "callers", "depth": True}, "invalid plan: depth is True"),
    ({"intent": "callers", "decay": 0}, "invalid plan: decay is 0, expected a number in (0, 1]"),
    ({"intent": "callers", "decay": float("nan")}, "invalid plan: decay is nan"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), BAD_PLANS)
def test_bad_plans_are_rejected_clearly(data: dict[str, object], message: str) -> None:
    with pytest.raises(PlanError) as caught:
        plan_from_mapping("q", data)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, AstragError)
    assert caught.value.hint.startswith("A plan is an object with 'intent' (one of: definition,")


def test_a_plan_that_is_not_a_mapping_is_rejected() -> None:
    with pytest.raises(PlanError, match=r"^invalid plan: expected an object, got list$"):
        plan_from_mapping("q", ["callers"])  # type: ignore[arg-type]
