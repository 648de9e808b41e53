"""Context for a question on the shop fixture: each intent walks its own edges, the budget
is a hard limit, and the CLI speaks the documented JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from astrag import api
from astrag.errors import AstragError
from astrag.retrieve.tokens import count_tokens
from tests.search.conftest import write_project


def reasons(root: Path, query: str, budget: int = 8000) -> dict[str, str]:
    with api.open_index(root) as idx:
        ctx = idx.context(query, budget)
    return {i.id: i.reason for i in ctx.items}


def test_callers_two_hops_and_never_callees(shop: Path) -> None:
    got = reasons(shop, "who calls update_user")
    assert got["shop/users.py::update_user"] == "seed: named in the query (update_user)"
    assert got["shop/views.py::handle_profile_form"] == "calls update_user"
    assert got["shop/views.py::admin_edit"] == "calls handle_profile_form"  # second hop
    assert "shop/users.py::save_profile" not in got  # what update_user calls is not asked


def test_callees_and_never_callers(shop: Path) -> None:
    got = reasons(shop, "what does update_user call")
    assert got["shop/users.py::save_profile"] == "called by update_user"
    assert "shop/views.py::handle_profile_form" not in got
    assert "shop/views.py::admin_edit" not in got


def test_implementations_follow_inheritance_inwards(shop: Path) -> None:
    with api.open_index(shop) as idx:
        answer = idx.answer("implementations of TokenProvider", 8000)
    got = {i.id: i.reason for i in answer.context.items}
    reached = {r.symbol.id: r.reason for r in answer.reached}
    assert answer.plan.intent == "implementations"
    assert got["shop/auth.py::JWTTokenProvider"] == "extends TokenProvider"
    assert reached["shop/auth.py::JWTTokenProvider.issue"] == "overrides TokenProvider.issue"


def test_usages_of_a_type_reach_who_refers_to_it(shop: Path) -> None:
    with api.open_index(shop) as idx:
        answer = idx.answer("where is type TokenProvider used", 8000)
        reached = {r.symbol.id: r.reason for r in answer.reached}
    assert answer.plan.intent == "usages"
    assert reached["shop/auth.py::AuthService.__init__"] == "uses TokenProvider"


def test_change_task_seeds_every_named_symbol(shop: Path) -> None:
    with api.open_index(shop) as idx:
        answer = idx.answer("refactor AuthService to use JWTTokenProvider", 8000)
    assert answer.plan.intent == "change"
    got = {i.id: i.reason for i in answer.context.items}
    assert got["shop/auth.py::AuthService"] == "seed: named in the query (AuthService)"
    assert got["shop/auth.py::JWTTokenProvider"] == "seed: named in the query (JWTTokenProvider)"
    assert "shop/auth.py::TokenProvider" in got
    # the two named symbols rank first, whatever else shares their words
    assert [r.symbol.id for r in answer.reached[:2]] == [
        "shop/auth.py::AuthService",
        "shop/auth.py::JWTTokenProvider",
    ]


def test_a_question_in_words_is_explained(shop: Path) -> None:
    got = reasons(shop, "where do we validate webhook signatures?")
    assert got["shop/webhooks.py::check_hmac"] == "seed: matches 'webhook signatures'"


@pytest.mark.parametrize("budget", [1, 10, 40, 100, 250, 600, 2000, 8000])
def test_never_over_budget_never_empty(shop: Path, budget: int) -> None:
    with api.open_index(shop) as idx:
        ctx = idx.context("refactor AuthService to use JWTTokenProvider", budget)
    assert 0 < ctx.tokens == count_tokens(ctx.text) <= budget
    assert ctx.items


def test_same_index_same_query_same_context(shop: Path) -> None:
    with api.open_index(shop) as idx:
        first = idx.context("how is update_user called", 3000).to_json()
    with api.open_index(shop) as idx:
        second = idx.context("how is update_user called", 3000).to_json()
    assert first == second


def test_bad_budget_is_refused(shop: Path) -> None:
    with api.open_index(shop) as idx, pytest.raises(AstragError, match="budget"):
        idx.context("who calls update_user", 0)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "astrag.cli", *args], cwd=cwd, capture_output=True, text=True
    )


def test_cli_json_shapes(shop: Path) -> None:
    found = _cli("search", "webhook signature", "--format", "json", "-n", "3", cwd=shop)
    assert found.returncode == 0, found.stderr
    data = json.loads(found.stdout)
    assert list(data) == ["query", "results"]
    assert list(data["results"][0]) == [
        "id", "path", "start_line", "end_line", "symbol", "kind", "score", "signature", "snippet",
    ]  # fmt: skip
    assert data["results"][0]["id"] == "shop/webhooks.py::check_hmac"
    assert (data["results"][0]["start_line"], data["results"][0]["end_line"]) == (5, 8)

    ctx = _cli("context", "who calls update_user", "--format", "json", "-b", "900", cwd=shop)
    assert ctx.returncode == 0, ctx.stderr
    data = json.loads(ctx.stdout)
    assert list(data) == ["query", "intent", "budget", "tokens", "items", "text", "notes"]
    assert (data["intent"], data["budget"]) == ("callers", 900)
    assert data["tokens"] <= 900
    assert list(data["items"][0]) == [
        "id", "path", "start_line", "end_line", "symbol", "kind", "score", "reason", "content",
    ]  # fmt: skip

    explained = _cli("context", "who calls update_user", "-f", "json", "--explain", cwd=shop)
    plan = json.loads(explained.stdout)["plan"]
    assert plan["intent"] == "callers"
    assert {"kind": "calls", "direction": "in", "weight": 1.0} in plan["steps"]

    markdown = _cli("context", "who calls update_user", cwd=shop)
    assert markdown.returncode == 0
    assert markdown.stdout.startswith("Files:\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("search", ""), "the query is empty"),
        (("context", "   "), "the query is empty"),
        (("context", "who calls update_user", "--budget", "0"), "budget must be a positive"),
        (("search", "x", "--limit", "0"), "--limit"),
    ],
)
def test_cli_refuses_bad_input(shop: Path, args: tuple[str, ...], message: str) -> None:
    result = _cli(*args, cwd=shop)
    assert result.returncode == 2
    assert message in result.stderr


def test_cli_on_a_repository_without_an_index(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    result = _cli("context", "what is f", "--repo", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 2
    assert "astrag index" in result.stderr


CART = {
    "shop/cart.py": '''
def totals(items):
    """Add up the prices of the cart's items."""
    return sum(price(i) for i in items)


def price(item):
    """The price of one item."""
    return item["price"]
''',
    "tests/test_cart.py": '''
from shop.cart import totals


def test_totals_add_up_prices():
    """Cart totals add up the prices."""
    assert totals([{"price": 2}]) == 2
''',
    "examples/checkout.py": '''
from shop.cart import totals


def checkout_example():
    """Example: add up the cart totals at checkout."""
    return totals([])
''',
}


def context_paths(root: Path, query: str) -> list[str]:
    with api.open_index(root) as idx:
        return [item.path for item in idx.context(query, 4000).items]


def test_a_context_keeps_tests_and_examples_out_unless_asked(tmp_path: Path) -> None:
    root = write_project(tmp_path, CART)
    api.index(root)
    explained = context_paths(root, "how are the cart totals added up")
    assert explained and set(explained) == {"shop/cart.py"}
    assert "tests/test_cart.py" in context_paths(root, "tests of the cart totals")
    assert "examples/checkout.py" in context_paths(root, "example of adding up cart totals")
    # who calls something: every caller counts, tests and examples too
    assert {"tests/test_cart.py", "examples/checkout.py"} <= set(
        context_paths(root, "who calls totals")
    )


def test_a_context_leads_with_what_answers_the_question(tmp_path: Path) -> None:
    root = write_project(tmp_path, CART)
    api.index(root)
    with api.open_index(root) as idx:
        answer = idx.answer("how are the cart totals added up", 4000)
    # the best seed is the first item, whatever file the other items come from
    assert answer.context.items[0].id == answer.seeds[0].symbol.id == "shop/cart.py::totals"
