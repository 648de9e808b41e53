"""The same repository indexed into SQLite and into PostgreSQL answers every question the same:
the same search hits with the same scores in the same order, the same context items in the
same order with the same text, the same callers and callees. And an index copied between the
stores (``astrag migrate``) answers like the one it was copied from."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from search.conftest import SHOP, write_project

import astrag
from astrag import api

SRC = Path(astrag.__file__).resolve().parent
QUERIES = (
    "who calls update_user",
    "where do we validate webhook signatures",
    "refactor AuthService to use JWTTokenProvider and update all consumers",
    "how are symbols resolved across imports",
    "Resolver.walk",
    "reciprocal rank fusion of lexical and dense rankers",
    "token budget assembly of the context",
    "store the index in one transaction",
)
SYMBOLS = ("update_user", "AuthService.login", "Searcher.search", "answer", "TokenProvider")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shop fixture plus a slice of astrag's own source: real code, real names."""
    root = write_project(tmp_path_factory.mktemp("both"), SHOP)
    for sub in ("graph", "search", "retrieve", "store"):
        shutil.copytree(SRC / sub, root / "astrag" / sub, ignore=shutil.ignore_patterns("__py*"))
    return root


def answers(root: Path, store: str) -> dict[str, Any]:
    """Everything a user can ask, in comparable form."""
    out: dict[str, Any] = {}
    with api.open_index(root, store=store) as idx:
        symbols, edges = idx.graph()
        out["graph"] = (symbols, edges)
        out["counts"] = idx.store.counts()
        out["calls by file"] = idx.store.calls_by_file()
        for q in QUERIES:
            for mode in ("hybrid", "lexical", "dense", "exact"):
                out[f"search {mode} {q}"] = [
                    (h.symbol.id, h.score, h.rankers) for h in idx.search(q, 15, mode=mode)
                ]
            result = idx.answer(q, 3000)
            out[f"context {q}"] = (
                result.plan.explain(),
                [(h.symbol.id, h.score) for h in result.seeds],
                [(i.id, i.reason, i.score, i.content) for i in result.context.items],
                result.context.text,
            )
        for name in SYMBOLS:
            for s in idx.lookup(name):
                out[f"callers {s.id}"] = [
                    (r.symbol.id, r.depth, r.edge) for r in idx.callers(s.id, depth=3)
                ]
                out[f"callees {s.id}"] = [
                    (r.symbol.id, r.depth, r.edge) for r in idx.callees(s.id, depth=3)
                ]
                out[f"impl {s.id}"] = [(r.symbol.id, r.edge) for r in idx.implementations(s.id)]
                out[f"in {s.id}"] = idx.edges(s.id, incoming=True)
                out[f"neighbourhood {s.id}"] = idx.neighbourhood(s.id, depth=2)
    return out


def assert_same(left: dict[str, Any], right: dict[str, Any]) -> None:
    assert left.keys() == right.keys()
    for key in left:
        assert left[key] == right[key], key


def test_both_stores_answer_identically(project: Path, pg_url: str) -> None:
    lite = api.index(project, store="sqlite", jobs=1)
    pg = api.index(project, store=pg_url, jobs=1)
    assert (lite.files, lite.symbols, lite.edges, lite.calls) == (
        pg.files, pg.symbols, pg.edges, pg.calls,
    )  # fmt: skip
    assert lite.embedded == pg.embedded > 0
    sqlite_answers = answers(project, "sqlite")
    assert len(sqlite_answers["graph"][1]) > 1000
    assert any(sqlite_answers[f"search lexical {q}"] for q in QUERIES)
    assert_same(sqlite_answers, answers(project, pg_url))


def test_an_edit_updates_both_stores_alike(project: Path, pg_url: str) -> None:
    views = project / "shop" / "views.py"
    views.write_text(views.read_text() + "\n\ndef bulk_edit(rows):\n    for r in rows:\n"
                     "        handle_profile_form(r)\n")  # fmt: skip
    (project / "shop" / "webhooks.py").unlink()
    for store in ("sqlite", pg_url):
        summary = api.index(project, store=store, jobs=1)
        assert (summary.parsed, summary.removed) == (1, 1)
    assert_same(answers(project, "sqlite"), answers(project, pg_url))


def _migrate(source: str, target: str, repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "astrag.cli", "migrate", "--from", source, "--to", target,
         "--repo", str(repo)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_migrate_sqlite_to_postgresql_and_back(
    project: Path, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    api.index(project, store="sqlite", jobs=1)
    expected = answers(project, "sqlite")
    # to the server, under another repository's key, then back into a fresh checkout
    there = tmp_path / "there"
    shutil.copytree(project, there, ignore=shutil.ignore_patterns(".astrag"))
    done = _migrate(str(project / ".astrag"), pg_url, there)
    assert done.returncode == 0, done.stderr
    assert "copied" in done.stdout and "symbols" in done.stdout
    assert_same(expected, answers(there, pg_url))
    back = tmp_path / "back"
    shutil.copytree(project, back, ignore=shutil.ignore_patterns(".astrag"))
    done = _migrate(pg_url, str(back / ".astrag"), there)
    assert done.returncode == 0, done.stderr
    assert_same(expected, answers(back, "sqlite"))
    assert api.index(back, store="sqlite").parsed == 0  # the copy is a working index
    missing = _migrate(str(tmp_path / "nowhere"), pg_url, there)
    assert missing.returncode == 2 and "no astrag index" in missing.stderr
