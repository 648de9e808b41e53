"""bench/code_search: metrics, target matching, data loading, BM25 and the mapping of astrag hits
to the benchmark's (path, line span) unit, on tiny inputs written here (never bench/data)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from astrag import api

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from code_search.bm25 import BM25, enrich, split_identifier, tokenize
from code_search.data import (
    Item,
    RepoSpec,
    Target,
    Task,
    load_repo_specs,
    load_tasks,
    parse_target,
    path_matches,
    select_specs,
    target_matches,
)
from code_search.metrics import QueryScore, ndcg_at_k, score_query, target_rank
from code_search.run import RepoRun, astrag_rankers, groups, mean_row, n_relevant, published

L3 = math.log2(3)  # discount at rank 2
L4 = 2.0  # discount at rank 3


# ---------------------------------------------------------------- NDCG, recall, MRR


def test_ndcg_single_target_at_rank_1_and_2() -> None:
    assert ndcg_at_k([1], 1) == 1.0
    assert ndcg_at_k([2], 1) == pytest.approx(1 / L3)
    assert ndcg_at_k([], 1) == 0.0


def test_ndcg_two_targets_ideal_is_two_ones() -> None:
    assert ndcg_at_k([1, 3], 2) == pytest.approx((1 + 1 / L4) / (1 + 1 / L3))
    assert ndcg_at_k([2, 1], 2) == 1.0


def test_ndcg_shared_rank_counts_once_and_ranks_beyond_k_are_ignored() -> None:
    # one item covering two targets gives a single gain
    assert ndcg_at_k([1, 1], 2) == pytest.approx(1 / (1 + 1 / L3))
    assert ndcg_at_k([11], 1) == 0.0
    assert ndcg_at_k([3], 1, k=2) == 0.0


def test_ndcg_ideal_is_capped_at_k_and_zero_relevant_scores_zero() -> None:
    assert ndcg_at_k(list(range(1, 11)), 15) == 1.0
    assert ndcg_at_k([1], 0) == 0.0


def test_score_query_ranks_recall_mrr() -> None:
    items = [Item("a.py", 1, 50), Item("b.py", 10, 20), Item("c.py", 1, 9), Item("b.py", 1, 5)]
    targets = [Target("b.py"), Target("c.py", 5, 6), Target("d.py")]
    score = score_query(items, targets, n_relevant=3)
    assert score.ranks == (2, 3, None)
    assert score.recall == pytest.approx(2 / 3)
    assert score.mrr == 0.5
    assert score.ndcg == pytest.approx((1 / L3 + 1 / L4) / (1 + 1 / L3 + 1 / L4))


def test_score_query_cuts_at_k() -> None:
    items = [Item(f"x{i}.py", 1, 1) for i in range(10)] + [Item("t.py", 1, 1)]
    score = score_query(items, [Target("t.py")], n_relevant=1)
    assert score.ranks == (None,)
    assert (score.ndcg, score.recall, score.mrr) == (0.0, 0.0, 0.0)


def test_n_relevant_counts_targets_present_in_the_corpus_duplicates_included() -> None:
    task = Task("r", "q", "semantic", (Target("a.py"), Target("gone.py")), (Target("a.py"),))
    assert n_relevant(task, {"a.py", "b.py"}) == 2


# ---------------------------------------------------------------- matching


def test_path_match_is_exact_or_a_slash_suffix() -> None:
    assert path_matches("src/flask/app.py", "src/flask/app.py")
    assert path_matches("/abs/repo/src/flask/app.py", "src/flask/app.py")
    assert not path_matches("xsrc/flask/app.py", "src/flask/app.py")
    assert not path_matches("flask/app.py", "src/flask/app.py")


def test_span_targets_need_overlapping_lines_file_targets_any_line() -> None:
    span = Target("lib/core/Axios.js", 22, 61)
    assert target_matches(Item("lib/core/Axios.js", 61, 80), span)  # touching end counts
    assert target_matches(Item("lib/core/Axios.js", 1, 22), span)
    assert target_matches(Item("lib/core/Axios.js", 30, 31), span)
    assert not target_matches(Item("lib/core/Axios.js", 62, 90), span)
    assert not target_matches(Item("lib/core/Axios.js", 1, 21), span)
    assert target_matches(Item("lib/core/Axios.js", 200, 201), Target("lib/core/Axios.js"))
    assert not target_matches(Item("lib/axios.js", 22, 61), span)


def test_target_rank_is_the_first_covering_item() -> None:
    items = [Item("a.py", 1, 3), Item("a.py", 10, 12), Item("a.py", 11, 11)]
    assert target_rank(items, Target("a.py", 11, 11)) == 2
    assert target_rank(items, Target("a.py", 5, 6)) is None


# ---------------------------------------------------------------- data


def write_semble(tmp: Path) -> Path:
    semble = tmp / "semble"
    (semble / "annotations").mkdir(parents=True)
    (semble / "results").mkdir()
    repos = [
        {"name": "lib", "language": "python", "url": "https://github.com/o/lib.git",
         "revision": "abc", "benchmark_root": "src/lib"},
        {"name": "web", "language": "typescript", "url": "u", "revision": "def"},
        {"name": "gox", "language": "go", "url": "u", "revision": "123"},
        {"name": "rs", "language": "rust", "url": "u", "revision": "456"},
    ]  # fmt: skip
    (semble / "repos.json").write_text(json.dumps(repos))
    annotations = [
        {"query": "Parser", "relevant": [{"path": "src/lib/p.py", "start_line": "3",
                                           "end_line": 9}], "secondary": []},
        {"query": "how does parsing work", "relevant": ["src/lib/p.py"],
         "secondary": ["src/lib/q.py"]},
        {"query": "token stream", "relevant": ["src/lib/t.py"], "category": "architecture"},
        {"query": "elsewhere", "relevant": ["x.py"], "repo": "other"},
    ]  # fmt: skip
    (semble / "annotations" / "lib.json").write_text(json.dumps(annotations))
    results = {"repos": [{"repo": "lib", "mode": "bm25", "ndcg10": 0.5},
                         {"repo": "lib", "mode": "semantic", "ndcg10": 0.25}]}  # fmt: skip
    (semble / "results" / "semble-ablations-1ea77add4c1b.json").write_text(json.dumps(results))
    return semble


def test_load_tasks_parses_targets_and_infers_categories(tmp_path: Path) -> None:
    tasks = load_tasks("lib", write_semble(tmp_path))
    assert [t.query for t in tasks] == ["Parser", "how does parsing work", "token stream"]
    assert [t.category for t in tasks] == ["symbol", "architecture", "architecture"]
    assert tasks[0].targets == (Target("src/lib/p.py", 3, 9),)
    assert tasks[1].targets == (Target("src/lib/p.py"), Target("src/lib/q.py"))


def test_repo_specs_selection_and_paths(tmp_path: Path) -> None:
    specs = load_repo_specs(write_semble(tmp_path))
    # the resolved languages in report order; Rust is indexed at name level only
    assert [s.name for s in select_specs(specs)] == ["lib", "web", "gox"]
    assert [s.name for s in select_specs(specs, None, ("go", "python"))] == ["lib", "gox"]
    lib = specs["lib"]
    assert lib.root_prefix == "src/lib/"
    assert lib.index_root(tmp_path) == tmp_path / "lib" / "src" / "lib"
    assert lib.source == "git:abc"
    assert specs["web"].root_prefix == ""
    assert RepoSpec("axios", "javascript", "u", "c7a", "lib").source == "npm:axios@1.14.0"
    with pytest.raises(SystemExit):
        select_specs(specs, ["rs"])
    with pytest.raises(SystemExit):
        select_specs(specs, None, ("rust",))


def test_parse_target_forms() -> None:
    assert parse_target("a/b.py") == Target("a/b.py")
    assert parse_target({"path": "a.py", "start_line": 1, "end_line": "2"}) == Target("a.py", 1, 2)


def test_published_reads_per_repo_figures_by_mode(tmp_path: Path) -> None:
    table = published(write_semble(tmp_path))
    assert table == {
        "semble BM25 raw (chunks)": {"lib": 0.5},
        "semble potion-code-16M raw": {"lib": 0.25},
    }


def _run(repo: str, language: str, *ndcgs: float) -> RepoRun:
    run = RepoRun(repo, language, len(ndcgs), 1, 0)
    run.scores["astrag-hybrid"] = [QueryScore(n, 0.0, 0.0, ()) for n in ndcgs]
    return run


def test_report_means_per_language_per_family_and_over_all() -> None:
    runs = [_run("a", "python", 1.0, 0.5), _run("b", "python", 0.25), _run("t", "typescript", 0.5)]
    assert [(label, [r.repo for r in g]) for label, g in groups(runs)] == [
        ("python", ["a", "b"]),
        ("typescript", ["t"]),
        ("all", ["a", "b", "t"]),  # no Go or Java: one family, no family rows
    ]
    runs.append(_run("j", "java", 0.0))
    assert [(label, [r.repo for r in g]) for label, g in groups(runs)][-3:] == [
        ("python/javascript/typescript", ["a", "b", "t"]),
        ("go/java", ["j"]),
        ("all", ["a", "b", "t", "j"]),
    ]
    # a mean of repositories, not of queries; a published figure missing for one repository
    # leaves that mean out
    pub = {"semble": {"a": 0.5, "b": 0.7}, "other": {"a": 0.1}}
    assert mean_row("python", runs[:2], ["astrag-hybrid"], pub) == [
        "**mean of 2 repos (python)**", "", "3", "**0.500**", "**0.600**", "—",
    ]  # fmt: skip
    assert [label for label, _ in groups(runs[:1])] == ["all"]


# ---------------------------------------------------------------- BM25


def test_tokenize_splits_identifiers_like_semble() -> None:
    assert split_identifier("HandlerStack") == ["handlerstack", "handler", "stack"]
    assert split_identifier("getHTTPResponse") == ["gethttpresponse", "get", "http", "response"]
    assert split_identifier("my_func") == ["my_func", "my", "func"]
    assert split_identifier("simple") == ["simple"]
    assert tokenize("x = parse_url(9)") == ["x", "parse_url", "parse", "url"]
    assert enrich("a/b/c/d/mod.py", "T") == "T mod mod b c d"


def test_bm25_scores_and_ranks() -> None:
    index = BM25.build(
        [("a", ["cookie", "jar", "cookie"]), ("b", ["session", "cookie"]), ("c", ["other"])]
    )
    hits = index.search(["cookie", "jar"], 10)
    assert [h for h, _ in hits] == ["a", "b"]
    # hand-computed: N=3, avgdl=2, k1=1.2, b=0.75
    idf_cookie = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    idf_jar = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))
    norm_a = 1.2 * (1 - 0.75 + 0.75 * 3 / 2)
    expected_a = idf_cookie * 2 * 2.2 / (2 + norm_a) + idf_jar * 1 * 2.2 / (1 + norm_a)
    assert hits[0][1] == pytest.approx(expected_a)
    assert index.search(["nothing"], 10) == []


# ---------------------------------------------------------------- astrag hits -> items


def test_astrag_hits_map_to_repository_relative_symbol_spans(tmp_path: Path) -> None:
    root = tmp_path / "src" / "lib"
    root.mkdir(parents=True)
    (root / "cookies.py").write_text(
        "class CookieJar:\n"
        "    def set_cookie(self, name):\n"
        "        return name\n"
        "\n"
        "\n"
        "def parse_header(value):\n"
        "    return value.split(';')\n"
    )
    api.index(root)
    spec = RepoSpec("lib", "python", "u", "abc", "src/lib")
    with api.open_index(root) as idx:
        rank = astrag_rankers(spec, idx, ["hybrid"])["astrag-hybrid"]
        items = rank("CookieJar")
        symbols = {s.qualname: s for s in idx.lookup("CookieJar")}
    jar = symbols["CookieJar"]
    assert items, "the class should be found by its exact name"
    assert all(it.path == "src/lib/cookies.py" for it in items)
    assert items[0] == Item("src/lib/cookies.py", jar.start_line, jar.end_line)
    assert target_matches(items[0], Target("src/lib/cookies.py", 2, 2))
