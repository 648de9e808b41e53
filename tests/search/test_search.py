"""Hybrid search on the shop fixture: exact names first, words and meaning after."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrag import api
from astrag.errors import AstragError
from astrag.search.text import (
    code_words,
    path_match,
    path_query_words,
    query_words,
    split_identifier,
)
from tests.search.conftest import SHOP, write_project


def ids(hits: list[api.Hit]) -> list[str]:
    return [h.symbol.id for h in hits]


def test_identifiers_split_like_people_read_them() -> None:
    assert split_identifier("getHTTPResponse") == ["get", "http", "response"]
    assert split_identifier("_update_user2") == ["update", "user", "2"]
    assert split_identifier("JWTTokenProvider") == ["jwt", "token", "provider"]
    assert code_words("updateUser(x)") == ["update", "user", "updateuser", "x"]
    assert query_words("How is `updateUser` called by the API?") == [
        "update",
        "user",
        "updateuser",
        "called",
        "api",
    ]


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("AuthService", "shop/auth.py::AuthService"),
        ("AuthService.login", "shop/auth.py::AuthService.login"),
        ("what does shop/webhooks.py do", "shop/webhooks.py"),
        ("update_user", "shop/users.py::update_user"),
        ("refactor JWTTokenProvider", "shop/auth.py::JWTTokenProvider"),
    ],
)
def test_a_name_in_the_query_ranks_first(shop: Path, query: str, first: str) -> None:
    with api.open_index(shop) as idx:
        hits = idx.search(query, 5)
    assert hits[0].symbol.id == first
    assert hits[0].rankers[0] == "exact"


def test_words_find_a_symbol_that_is_not_named(shop: Path) -> None:
    with api.open_index(shop) as idx:
        hits = idx.search("where do we validate webhook signatures?", 3)
        profile = idx.search("change the stored profile of a user", 3)
    assert ids(hits)[0] == "shop/webhooks.py::check_hmac"
    assert "shop/users.py::update_user" in ids(profile)


def test_each_ranker_alone(shop: Path) -> None:
    with api.open_index(shop) as idx:
        lexical = idx.search("webhook signature", 3, mode="lexical")
        dense = idx.search("webhook signature", 3, mode="dense")
        exact = idx.search("AuthService", 3, mode="exact")
        with pytest.raises(ValueError, match="unknown search mode"):
            idx.search("x", 3, mode="fuzzy")
    assert ids(lexical)[0] == "shop/webhooks.py::check_hmac"
    assert all(h.rankers == ("lexical",) for h in lexical)
    assert dense and all(h.rankers == ("dense",) for h in dense)
    assert ids(exact) == ["shop/auth.py::AuthService"]


def test_search_is_deterministic(shop: Path) -> None:
    with api.open_index(shop) as idx:
        first = [(h.symbol.id, h.score) for h in idx.search("user token", 10)]
    with api.open_index(shop) as idx:
        second = [(h.symbol.id, h.score) for h in idx.search("user token", 10)]
    assert first == second


def test_fts_syntax_in_a_query_is_just_words(shop: Path) -> None:
    with api.open_index(shop) as idx:
        hits = idx.search('user* AND "profile" OR NEAR(x) -', 10, mode="lexical")
    # no syntax error: the words user and profile were searched for
    assert {"shop/users.py::update_user", "shop/views.py::handle_profile_form"} <= set(ids(hits))


@pytest.mark.parametrize("query", ["", "   "])
def test_empty_query_is_refused(shop: Path, query: str) -> None:
    with api.open_index(shop) as idx, pytest.raises(AstragError, match="empty"):
        idx.search(query)


def test_documents_follow_edits_and_only_new_texts_are_embedded(tmp_path: Path) -> None:
    root = write_project(tmp_path, SHOP)
    first = api.index(root)
    assert first.embedded > 0
    (root / "shop/refunds.py").write_text(
        'def issue_refund(order_id: str) -> None:\n    """Give the customer money back."""\n'
    )
    (root / "shop/webhooks.py").unlink()
    second = api.index(root)
    # the new module and its function: two texts, nothing else re-embedded
    assert second.embedded == 2
    with api.open_index(root) as idx:
        assert ids(idx.search("give money back to the customer", 1)) == [
            "shop/refunds.py::issue_refund"
        ]
        assert "shop/webhooks.py::check_hmac" not in ids(idx.search("webhook signature", 10))
        assert idx.store.texts_without_vectors() == []


def test_no_embed_then_embed_catches_up(tmp_path: Path) -> None:
    root = write_project(tmp_path, SHOP)
    summary = api.index(root, embedder="none")
    assert (summary.embedder, summary.embedded) == ("none", 0)
    with api.open_index(root) as idx:
        assert idx.search("webhook signature", 3, mode="dense") == []
        assert ids(idx.search("webhook signature", 1))[0] == "shop/webhooks.py::check_hmac"
    again = api.index(root)
    assert again.embedded > 0
    with api.open_index(root) as idx:
        assert idx.store.texts_without_vectors() == []
        assert len(idx.search("webhook signature", 3, mode="dense")) == 3


def test_an_older_version_tree_beside_a_newer_one_ranks_below_it(tmp_path: Path) -> None:
    root = write_project(
        tmp_path,
        {
            "lib/v1/parse.py": 'def parse_config(text):\n    """Parse the config file."""\n',
            "lib/v2/parse.py": 'def parse_config(text):\n    """Parse the config file."""\n',
            "api/v1/routes.py": 'def list_users():\n    """List users."""\n',
        },
    )
    api.index(root)
    with api.open_index(root) as idx:
        hits = ids(idx.search("parse the config file", 2))
        alone = ids(idx.search("list users", 1))
    assert hits == ["lib/v2/parse.py::parse_config", "lib/v1/parse.py::parse_config"]
    # a version directory with no newer sibling is the current code
    assert alone == ["api/v1/routes.py::list_users"]


def test_a_lone_version_tree_that_copies_the_code_around_it_ranks_below_it(
    tmp_path: Path,
) -> None:
    # the old copy matches the question better, as an old copy often does
    current = 'def parse_config(text):\n    """Parse the config file into settings."""\n'
    old = 'def parse_config(text):\n    """Parse the config file."""\n'
    names = ("fields", "main", "types")
    root = write_project(
        tmp_path,
        {
            **{f"lib/{name}.py": current for name in names},
            **{f"lib/v1/{name}.py": old for name in names},
            # a lone v2/ beside unversioned code is the newer one (Go modules do this)
            **{f"pkg/{name}.py": current for name in names},
            **{f"pkg/v2/{name}.py": old for name in names},
        },
    )
    api.index(root)
    with api.open_index(root) as idx:
        paths = [h.symbol.path for h in idx.search("parse the config file", 12)]
        named = [h.symbol.path for h in idx.search("v1 parse the config file", 12)]
    lib = [p for p in paths if p.startswith("lib/")]
    assert [p.startswith("lib/v1/") for p in lib] == [False] * 3 + [True] * 3
    assert all(p.startswith("pkg/v2/") for p in paths[:3])
    # a question that names the old version gets it on equal terms
    assert [p.startswith("lib/v1/") for p in named if p.startswith("lib/")] == [True] * 3 + [
        False
    ] * 3


def test_file_names_are_matched_by_whole_words_and_prefixes() -> None:
    words = path_query_words("How is the configuration of validators loaded?")
    assert words == {"configuration", "validators", "loaded"}
    assert path_match(words, "pkg/config.py") == pytest.approx(1 / 3)
    assert path_match(words, "pkg/validators/functional_validator.py") == pytest.approx(1 / 3)
    assert path_match(words, "pkg/load/config.ts") == pytest.approx(2 / 3)
    assert path_match(words, "pkg/loader.ts") == 0.0  # loaded and loader: neither is a prefix
    assert path_match(words, "pkg/main.py") == 0.0
    # two letters of a word are not evidence (``co`` is not ``configuration``)
    assert path_match({"configuration"}, "co.py") == 0.0


def first_files(root: Path, files: dict[str, str], *queries: str) -> list[str]:
    """Index ``files`` under ``root`` and give the file of each query's best hit."""
    api.index(write_project(root, files))
    with api.open_index(root) as idx:
        return [idx.search(q, 1)[0].symbol.path for q in queries]


def test_a_file_filed_under_the_question_s_words_ranks_first(tmp_path: Path) -> None:
    files = {
        "app/hooks/registry.py": 'def on_response(r):\n    """Run what is kept."""\n',
        "app/sessions.py": 'def run_event_hooks(r):\n    """The event hooks system."""\n',
    }
    assert first_files(tmp_path, files, "event hooks system") == ["app/hooks/registry.py"]


def test_tests_rank_below_the_code_unless_the_question_is_about_tests(tmp_path: Path) -> None:
    files = {
        "tests/test_cart.py": 'def test_cart_totals():\n    """Cart totals add prices."""\n',
        "shop/cart.py": 'def totals(items):\n    """Add the prices of the items."""\n',
    }
    assert first_files(tmp_path, files, "add up cart totals", "tests of cart totals") == [
        "shop/cart.py",
        "tests/test_cart.py",
    ]
