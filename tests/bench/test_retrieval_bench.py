"""The retrieval benchmark's pieces: metrics, chunking, task filters, gold and needed on a
throwaway git repository indexed by astrag."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from astrag import api
from astrag.lang import extract_facts
from bench.retrieval import gitlog, run, tasks
from bench.retrieval.baselines import BM25, code_terms, fill_budget, ranking
from bench.retrieval.chunks import chunk_text
from bench.retrieval.gold import BaseIndex, changed_definitions
from bench.retrieval.metrics import (
    Item,
    Target,
    file_recall,
    function_recall,
    macro,
    needed_coverage,
    reciprocal_rank,
    shown_rank,
)
from bench.retrieval.tokens import count

# ---------------------------------------------------------------------------- metrics

GOLD = [Target("a.py", 10, 19), Target("b.py", 1, 4)]


def test_file_recall_counts_gold_files_touched() -> None:
    items = [Item("a.py", 100, 120), Item("c.py", 1, 5)]
    assert file_recall(["a.py", "b.py"], items) == 0.5
    assert file_recall([], items) is None


def test_function_recall_needs_half_the_body_in_full_items() -> None:
    # a.py 10-19 is 10 lines: 5 lines inside full items is exactly half -> retrieved
    assert function_recall(GOLD, [Item("a.py", 1, 12), Item("a.py", 18, 30)]) == 0.5
    # 4 lines is not enough
    assert function_recall(GOLD, [Item("a.py", 1, 13)]) == 0.0
    # a signature-only item covering everything does not count as the body
    assert function_recall(GOLD, [Item("a.py", 10, 19, full=False)]) == 0.0
    # b.py's 4 lines, wholly inside one chunk, plus a.py's: both
    assert function_recall(GOLD, [Item("b.py", 1, 50), Item("a.py", 5, 25)]) == 1.0
    assert function_recall([], [Item("a.py", 1, 2)]) is None


def test_needed_coverage_is_the_header_line_full_or_not() -> None:
    needed = [Target("u.py", 7, 30), Target("v.py", 3, 9), Target("w.py", 1, 2)]
    items = [Item("u.py", 7, 7, full=False), Item("v.py", 4, 40)]
    assert needed_coverage(needed, items) == pytest.approx(1 / 3)
    assert needed_coverage([], items) is None


def test_mrr_is_the_first_item_holding_a_gold_header() -> None:
    items = [Item("c.py", 1, 50), Item("a.py", 11, 19), Item("b.py", 1, 1, full=False)]
    assert reciprocal_rank(GOLD, items) == pytest.approx(1 / 3)  # a.py item misses line 10
    assert reciprocal_rank(GOLD, items[:2]) == 0.0
    assert reciprocal_rank([], items) is None


def test_shown_mrr_needs_the_header_shown() -> None:
    # a class signature (a.py 1-40, not full) holds a.py:10 but does not show it
    items = [Item("a.py", 1, 40, full=False), Item("a.py", 10, 19, full=False)]
    assert reciprocal_rank(GOLD, items) == 1.0
    assert shown_rank(GOLD, items) == pytest.approx(1 / 2)  # the gold's own signature
    assert shown_rank(GOLD, [Item("a.py", 1, 40)]) == 1.0  # a full item shows it
    assert shown_rank(GOLD, items[:1]) == 0.0
    assert shown_rank([], items) is None


def test_macro_skips_undefined_values() -> None:
    assert macro([1.0, None, 0.0, 0.5]) == (0.5, 3)
    assert macro([None]) == (None, 0)


# ---------------------------------------------------------------------------- chunking


def test_chunks_stay_within_the_token_budget_and_keep_line_ranges() -> None:
    text = "".join(f"def function_{i}(alpha, beta):\n    return alpha * {i} + beta\n\n"
                   for i in range(300))  # fmt: skip
    chunks = chunk_text("m.py", text, max_tokens=500)
    lines = text.splitlines(keepends=True)
    assert len(chunks) > 3
    assert chunks[0].start_line == 1 and chunks[-1].end_line == len(lines)
    for prev, nxt in itertools.pairwise(chunks):
        assert nxt.start_line == prev.end_line + 1  # contiguous, no overlap
    for c in chunks:
        assert c.text == "".join(lines[c.start_line - 1 : c.end_line])
        assert c.tokens == count(c.text) <= 500
        assert c.tokens > 400 or c is chunks[-1]  # packed, not cut early


def test_a_line_longer_than_the_budget_is_cut_by_tokens() -> None:
    text = "x = 1\n" + "y = [" + ", ".join(str(i) for i in range(2000)) + "]\n" + "z = 2\n"
    chunks = chunk_text("m.py", text, max_tokens=500)
    long = [c for c in chunks if c.start_line == 2]
    assert len(long) > 1 and all(c.end_line == 2 and c.tokens <= 500 for c in long)
    assert "".join(c.text for c in long) == text.splitlines(keepends=True)[1]
    assert (chunks[0].start_line, chunks[0].end_line) == (1, 1)
    assert (chunks[-1].start_line, chunks[-1].end_line) == (3, 3)


# ---------------------------------------------------------------------------- baselines


def test_code_terms_split_identifiers_and_keep_them_whole() -> None:
    assert code_terms("getEntityValueMap(user_id) for HTTPServer2") == [
        "getentityvaluemap", "get", "entity", "value", "map", "user_id", "user", "id",
        "httpserver2", "http", "server",
    ]  # fmt: skip


def test_bm25_ranks_by_split_identifiers_and_fills_the_budget() -> None:
    docs = ["def load_user(): pass", "class EntityManager: pass", "entity manager entity"]
    scores = BM25(docs).scores("the entity manager")
    assert ranking(scores)[:2] == [2, 1] and scores[0] == 0.0
    chunks = chunk_text("a.py", "\n".join(f"line {i}" for i in range(10)), 3)
    picked = fill_budget(chunks, list(range(len(chunks))), 7)
    assert sum(c.tokens for c in picked) <= 7 < sum(c.tokens for c in chunks[: len(picked) + 1])


# ---------------------------------------------------------------------------- task filters


def _commit(subject: str, files: list[str], author: str = "dev") -> gitlog.Commit:
    return gitlog.Commit("s", "p", "2026-01-01", author, subject, "",
                         files=[("M", f, f) for f in files])  # fmt: skip


@pytest.mark.parametrize(
    ("subject", "files", "author", "reason"),
    [
        ("fix(query): handle empty where criteria (#123)", ["src/q.ts"], "dev", None),
        ("Add pager support to echo", ["src/click/termui.py", "tests/test_t.py"], "dev", None),
        ("fix: typo", ["src/q.ts"], "dev", "message not descriptive"),
        ("fix(q): rename thing (#9)", ["src/q.ts"], "dev", "message not descriptive"),
        ('Revert "fix: handle empty where"', ["src/q.ts"], "dev", "excluded"),
        ("chore(release): prepare v1.1.0", ["src/q.ts"], "dev", "excluded"),
        ("chore(deps): update dependency lerna to v10", ["src/q.ts"], "dev", "excluded"),
        ("update the dependency of core", ["src/q.ts"], "renovate[bot]", "bot author"),
        ("docs(menu): fix the doc string examples", ["src/menu.ts"], "dev", "excluded"),
        ("add tests for the parser", ["tests/test_p.py", "src/p.spec.ts"], "dev", "no non-test"),
        ("document the new option here", ["docs/conf.py", "README.md"], "dev", "no non-test"),
        ("refactor many files at once", [f"src/f{i}.ts" for i in range(9)], "dev", "more than"),
    ],
)
def test_rejection(subject: str, files: list[str], author: str, reason: str | None) -> None:
    got = gitlog.rejection(_commit(subject, files, author))
    assert (got is None) if reason is None else (got is not None and got.startswith(reason))


def test_test_paths() -> None:
    tests = ("tests/test_x.py", "src/a/__tests__/b.ts", "lib/x.spec.ts", "a/e2e/app.ts",
             "pkg/conftest.py", "src/x_test.py", "packages/graphql/tests/utils.ts")  # fmt: skip
    for path in tests:
        assert gitlog.is_test(path), path
    for path in ("src/cdk/testing/harness.ts", "src/attest.py", "lib/inspector.ts"):
        assert not gitlog.is_test(path), path


def test_parse_unified_diff_with_rename_insertion_and_change() -> None:
    text = """diff --git a/old.py b/new.py
similarity index 90%
rename from old.py
rename to new.py
--- a/old.py
+++ b/new.py
@@ -3 +3 @@ def f():
-    return 1
+    return 2
@@ -7,0 +8,2 @@ def g():
+    x = 1
+    y = 2
diff --git a/gone.py b/gone.py
deleted file mode 100644
--- a/gone.py
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
"""
    renamed, gone = gitlog.parse_unified_diff(text)
    assert (renamed.old_path, renamed.new_path) == ("old.py", "new.py")
    assert renamed.removed == {3} and renamed.insertions == {7} and renamed.added == {3, 8, 9}
    assert (gone.old_path, gone.new_path, gone.removed, gone.added) == (
        "gone.py",
        "",
        {1, 2},
        set(),
    )


def test_changed_definitions_innermost_function_else_class() -> None:
    source = b"""class Box:
    size = 1

    def grow(self):
        def step():
            return 1
        return step()

    def shrink(self):
        return 0
"""
    facts = extract_facts("box.py", source)
    names = lambda removed, inserted: [  # noqa: E731
        d.qualname for d in changed_definitions(facts, removed, inserted)
    ]
    assert names({6}, set()) == ["Box.grow.step"]
    assert names({7, 10}, set()) == ["Box.grow", "Box.shrink"]
    assert names({2}, set()) == ["Box"]  # a class-level line: the class
    assert names(set(), {8}) == ["Box"]  # a method inserted between two methods
    assert names(set(), {4}) == ["Box.grow"]  # inserted after grow's header line


# ---------------------------------------------------------------------------- gold + needed

_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
}  # fmt: skip

UTIL = "def helper(x):\n    return x + 1\n\n\ndef unused():\n    return 0\n"
CORE = "def alpha():\n    return 1\n\n\ndef beta():\n    return 2\n"
CORE_NEW = (
    "from pkg.util import helper\n\n\ndef alpha():\n    return 1\n\n\n"
    "def beta():\n    return helper(2)\n"
)


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, check=True, env=_ENV, capture_output=True,
                          text=True)  # fmt: skip
    return done.stdout.strip()


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_gold_and_needed_from_a_real_commit(tmp_path: Path) -> None:
    repo, base_dir = tmp_path / "repo", tmp_path / "base"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    first = {"pkg/__init__.py": "", "pkg/util.py": UTIL, "pkg/core.py": CORE,
             "tests/test_core.py": "from pkg.core import beta\n"}  # fmt: skip
    _write(repo, first)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "initial layout")
    base_sha = _git(repo, "rev-parse", "HEAD")
    _write(base_dir, first)
    api.index(base_dir, embedder="none")  # gold and needed need the graph only

    _write(
        repo,
        {
            "pkg/core.py": CORE_NEW,
            "tests/test_core.py": "from pkg.core import beta\nassert beta() == 3\n",
        },
    )
    _git(repo, "commit", "-qam", "fix(core): make beta use the helper (#12)")
    sha = _git(repo, "rev-parse", "HEAD")

    gdir = repo / ".git"
    (commit,) = gitlog.first_parent_commits(gdir, sha, 1)
    assert commit.parent == base_sha and gitlog.rejection(commit) is None
    assert commit.source_files == ["pkg/core.py", "tests/test_core.py"]
    base = BaseIndex(base_dir)
    try:
        task = tasks.derive(gdir, sha, base)
    finally:
        base.close()
    assert task["query"] == "fix(core): make beta use the helper"
    assert task["gold_files"] == ["pkg/core.py"]
    assert [(g["path"], g["qualname"], g["start_line"], g["end_line"])
            for g in task["gold_functions"]] == [("pkg/core.py", "beta", 5, 6)]  # fmt: skip
    assert [(n["path"], n["qualname"], n["start_line"]) for n in task["needed"]] == [
        ("pkg/util.py", "helper", 1)
    ]
    assert "rejected" not in task and task["unreachable"] == {"files": [], "functions": []}


def test_a_merged_pull_request_is_one_first_parent_commit(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _write(repo, {"a.py": "def f():\n    return 1\n"})
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "start")
    _git(repo, "checkout", "-q", "-b", "topic")
    _write(repo, {"a.py": "def f():\n    return 2\n"})
    _git(repo, "commit", "-qam", "wip")
    _git(repo, "checkout", "-q", "main")
    _git(repo, "merge", "-q", "--no-ff", "topic", "-m",
         "Merge pull request #5 from someone/topic\n\nMake f return two instead")  # fmt: skip
    commits = gitlog.first_parent_commits(repo / ".git", "HEAD", 10)
    assert [c.subject for c in commits] == ["Make f return two instead", "start"]
    merge = commits[0]
    assert merge.merge and merge.files == [("M", "a.py", "a.py")]


# ---------------------------------------------------------------------------- selection, splits


def test_select_keeps_commits_inside_the_subdir(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _write(repo, {"lib/a.py": "def f():\n    return 1\n", "app/b.py": "def g():\n    return 1\n"})
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "initial layout of both packages")
    steps = [
        ({"lib/a.py": "def f():\n    return 2\n"}, "make f return two"),
        ({"app/b.py": "def g():\n    return 2\n"}, "make g return two"),
        ({"lib/a.py": "def f():\n    return 3\n", "app/b.py": "def g():\n    return 3\n"},
         "make both return three"),
        ({"lib/a.py": "def f():\n    return 4\n"}, "make f return four"),
    ]  # fmt: skip
    shas = []
    for files, message in steps:
        _write(repo, files)
        _git(repo, "commit", "-qam", message)
        shas.append(_git(repo, "rev-parse", "HEAD"))
    spec = tasks.RepoSpec("lib", "https://example.com/lib.git", "python", "heldout",
                          subdir="lib", count=5)  # fmt: skip
    entry = tasks.select(spec, repo / ".git")
    assert entry["tasks"] == [shas[0], shas[3]]  # oldest first; app/ and mixed ones left out
    assert entry["base"] == _git(repo, "rev-parse", f"{shas[0]}^")
    assert (entry["split"], entry["subdir"]) == ("heldout", "lib")
    assert "subdir" not in tasks.select(tasks.RepoSpec("all", "u", "python"), repo / ".git")


def test_manifest_marks_every_repository_with_a_split() -> None:
    entries = tasks.load_manifest()
    splits = {e["name"]: e["split"] for e in entries}
    assert {splits[n] for n in ("click", "nestjs-graphql", "typeorm")} == {"tune"}
    assert "heldout" in splits.values()
    assert {s.name for s in tasks.REPOS} == set(splits)


def _row(repo: str, split: str, system: str, recall: float, needed: float | None) -> dict:
    commit = f"{repo}-{needed is None}"  # h1 has two tasks: one without needed definitions
    return {"repo": repo, "split": split, "commit": commit, "system": system, "budget": "4000",
            "file_recall": recall, "function_recall": recall, "needed_coverage": needed,
            "mrr": recall, "shown_mrr": recall, "tokens": 100.0}  # fmt: skip


def test_aggregates_and_targets_per_split() -> None:
    rows = [
        _row("t1", "tune", "astrag", 0.6, 0.5), _row("t1", "tune", "bm25", 0.4, 0.2),
        _row("t1", "tune", "vector", 0.2, 0.1),
        _row("h1", "heldout", "astrag", 0.5, None), _row("h1", "heldout", "bm25", 0.5, None),
        _row("h1", "heldout", "vector", 0.1, None),
        _row("h1", "heldout", "astrag", 0.1, 0.3), _row("h1", "heldout", "bm25", 0.3, 0.3),
        _row("h1", "heldout", "vector", 0.1, 0.1),
    ]  # fmt: skip
    aggs = run.aggregate(rows)
    assert list(dict.fromkeys(a["repo"] for a in aggs)) == ["all", "tune", "heldout", "t1", "h1"]
    at = {(a["repo"], a["system"]): a for a in aggs}
    assert at[("all", "astrag")]["tasks"] == 3
    assert at[("heldout", "astrag")]["function_recall"] == pytest.approx(0.3)
    assert at[("heldout", "astrag")]["needed_coverage_n"] == 1
    table = run.targets(aggs)
    # tune: needed 0.5 / 0.1 and 0.5 / 0.2 met, recall 0.6 / 0.4 = 1.5 met;
    # heldout: needed 0.3 / 0.1 met, 0.3 / 0.3 missed, recall 0.3 / 0.4 missed
    assert "| needed coverage ≥ 2.5× vector | 4.00× met | 5.00× met | 3.00× met |" in table
    assert "| function recall ≥ 1.3× BM25 | 1.00× missed | 1.50× met | 0.75× missed |" in table
    with_ci = run.targets(aggs, rows)
    assert "| needed coverage ≥ 1.5× BM25 | 1.60× [" in with_ci
    # every tune task has the same ratio, so its interval is that ratio
    assert run.ratio_interval(rows, "tune", "function_recall", "bm25") == pytest.approx((1.5, 1.5))
    assert run.ratio_interval(rows, "nope", "function_recall", "bm25") is None
