"""Contexts for "who calls X" / "what does X call" carry the dispatch and candidate links of
``astrag callers``/``callees`` and say at their top what was not found; a question about the
whole repository is answered by its map."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag.query.overview import asks_for_overview
from astrag.retrieve.assemble import Context
from astrag.retrieve.plan import plan_query
from astrag.retrieve.tokens import count_tokens
from tests.query.conftest import open_index

R = "app/routing.py::"


def reasons(context: Context) -> dict[str, str]:
    return {item.id: item.reason for item in context.items}


def test_who_calls_lists_dispatch_and_unverified_callers_under_a_note(
    routing: Path, store_url: str
) -> None:
    with open_index(routing, store_url) as idx:
        answer = idx.answer("who calls Route.matches", 2000)
    note = (
        "2 more call sites with an unknown receiver call `.matches(` (unverified): "
        "app/routing.py:43, tests/test_routing.py:5"
    )
    assert answer.notes == (note,)
    context = answer.context
    assert context.text.startswith(f"Note: {note}\n\nFiles:\n")
    assert context.tokens == count_tokens(context.text) <= 2000
    assert context.budget == 2000  # the budget asked for, not what the notes left of it
    found = reasons(context)
    assert found[R + "Router.app"] == "calls BaseRoute.matches, which may dispatch to Route.matches"
    assert found[R + "Router.first"] == "unverified: calls `.matches(` at line 43"
    assert found["tests/test_routing.py::test_route"] == "unverified: calls `.matches(` at line 5"


def test_who_calls_with_no_caller_says_so_at_the_top_within_a_small_budget(
    routing: Path, store_url: str
) -> None:
    note = (
        "no callers of Settings.setup in the index, and no unresolved call of `setup` that "
        "could be one"
    )
    with open_index(routing, store_url) as idx:
        for budget in (60, 2000):
            answer = idx.answer("who calls Settings.setup", budget)
            assert answer.notes == (note,)
            assert answer.context.text.startswith(f"Note: {note}")
            assert answer.context.tokens == count_tokens(answer.context.text) <= budget
            assert answer.context.to_json()["text"] == answer.context.text
        # a budget too small for both: the context alone, cut to fit; the notes still returned
        tiny = idx.answer("who calls Settings.setup", 3)
        assert tiny.notes == (note,)
        assert not tiny.context.text.startswith("Note")
        assert tiny.context.tokens <= 3


def test_express_who_calls_names_the_unverified_callers(response: Path, store_url: str) -> None:
    with open_index(response, store_url) as idx:
        answer = idx.answer("who calls res.send", 3000)
    assert answer.notes[0] == (
        "1 more call site with an unknown receiver calls `.send(` (unverified): examples/hello.js:4"
    )
    found = reasons(answer.context)
    assert found["lib/response.js::res.json"] == "calls res.send"
    assert found["lib/response.js::res.sendStatus"] == "calls res.send"
    assert found["examples/hello.js::hello"] == "unverified: calls `.send(` at line 4"


def test_what_does_it_call_lists_what_its_calls_may_dispatch_to(
    routing: Path, store_url: str
) -> None:
    with open_index(routing, store_url) as idx:
        answer = idx.answer("what does Router.app call", 3000)
    found = reasons(answer.context)
    assert found[R + "Route.matches"] == (
        "may run where Router.app calls BaseRoute.matches (overrides it)"
    )
    assert found[R + "Mount.matches"] == found[R + "Route.matches"]
    assert found[R + "Route.handle"] == (
        "may run where Router.app calls BaseRoute.handle (overrides it)"
    )
    assert answer.notes == ()


def test_other_questions_get_no_call_notes(routing: Path, store_url: str) -> None:
    with open_index(routing, store_url) as idx:
        answer = idx.answer("change Route.matches to accept a path", 2000)
    assert answer.notes == ()
    assert answer.context.text.startswith("Files:\n")


@pytest.mark.parametrize(
    ("query", "overview"),
    [
        ("give me an overview of the architecture", True),
        ("explain the architecture of this project", True),
        ("how is the codebase organized?", True),
        ("high-level tour of the repository", True),
        ("architecture overview", True),
        ("overview of the request lifecycle", False),  # a subject: search for it
        ("explain the architecture of Router", False),  # names a symbol
        ("what is the layout of the config file", False),
        ("who calls Route.matches", False),
    ],
)
def test_which_questions_ask_for_an_overview(query: str, overview: bool) -> None:
    assert asks_for_overview(plan_query(query)) is overview


def test_an_overview_question_is_answered_by_the_repository_map(
    routing: Path, store_url: str
) -> None:
    with open_index(routing, store_url) as idx:
        answer = idx.answer("give me an overview of the architecture", 300)
        expected = idx.repo_map(300)
    context = answer.context
    assert (context.intent, context.text, context.tokens) == (
        "overview",
        expected.text,
        expected.tokens,
    )
    assert [item.id for item in context.items] == [
        e.symbol.id for f in expected.files for e in f.entries
    ]
    assert context.items[0].reason == "central in the repository"
