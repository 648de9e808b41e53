"""The natural-question benchmark's scoring and data (bench/questions/): exact gains, the
precision@3 denominator, and checks on the committed questions."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from astrag import api
from tests.search.conftest import write_project

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from questions.data import CATEGORIES, SPLITS, load_questions, load_repos
from questions.metrics import Span, gains, score, support_kind
from questions.systems import AstragRankers, bm25_symbols

CLASS = Span("a.py", 10, 50)
METHOD = Span("a.py", 20, 30)
OTHER = Span("b.py", 1, 9)
LABELS = {"a.py::C": (CLASS, 1), "a.py::C.m": (METHOD, 2), "b.py::f": (OTHER, 2)}


def test_one_item_is_one_answer() -> None:
    whole_file = Span("a.py", 1, 100)
    # the file covers both labels of a.py but is credited with one, the best graded
    assert gains([whole_file, METHOD, CLASS], LABELS) == [2, 1, 0]
    # a method hit is credited with the method it is, not the class around it
    assert gains([Span("a.py", 21, 29), Span("a.py", 10, 12)], LABELS) == [2, 1]
    assert gains([Span("c.py", 1, 5), OTHER, OTHER], LABELS) == [0, 2, 0]


def test_precision_is_over_what_can_be_right() -> None:
    one = {"b.py::f": (OTHER, 2)}
    assert score([OTHER, CLASS, METHOD], one).precision == 1.0
    assert score([CLASS, OTHER], LABELS).precision == pytest.approx(2 / 3)
    s = score([OTHER, METHOD], LABELS)
    ideal = 2 + 2 / math.log2(3) + 1 / 2
    assert s.ndcg == pytest.approx((2 + 2 / math.log2(3)) / ideal)
    assert s.mrr == 1.0
    assert score([CLASS], LABELS).mrr == 1.0  # the class covers the relevant method
    with pytest.raises(ValueError):
        score([OTHER], {})


def test_support_kinds_of_the_bench_do_not_follow_astrag() -> None:
    assert support_kind("tests/test_a.py") == "test"
    assert support_kind("library/src/x/x.test-d.ts") == "test"
    assert support_kind("examples/shortly/shortly.py") == "example"
    assert support_kind("falcon/bench/bench.py") == "bench"
    assert support_kind("website/src/routes/index.tsx") == "docs"
    assert support_kind("zapcore/sampler_test.go") == "test"
    assert support_kind("__performance_tests__/add-data.mjs") == "bench"
    assert support_kind("src/werkzeug/routing/map.py") == ""


def test_the_committed_questions_are_well_formed() -> None:
    specs = load_repos()
    assert {s.split for s in specs} == set(SPLITS)
    assert len(specs) >= 6
    total = 0
    for spec in specs:
        questions = load_questions(spec.name)
        total += len(questions)
        assert len({q.query for q in questions}) == len(questions)
        for q in questions:
            assert q.category in CATEGORIES and q.source
            assert 2 in q.grades.values()
            assert all("::" in sid or "." in sid.rsplit("/", 1)[-1] for sid in q.grades)
    assert total >= 150


def test_a_label_in_both_grades_is_refused(tmp_path: Path) -> None:
    bad = [{"query": "q", "source": "README", "category": "how", "relevant": ["a.py::f"],
            "secondary": ["a.py::f"]}]  # fmt: skip
    (tmp_path / "x.json").write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="both relevant and secondary"):
        load_questions("x", tmp_path)


_LINES = "\n".join(f"        x{i} = prices[{i}] if len(prices) > {i} else 0" for i in range(40))
SHOP = {
    "shop/cart.py": f'''
class Cart:
    """A shopping cart."""

    def total(self, prices):
        """The sum of the prices in the cart."""
{_LINES}
        return sum(prices)

    def add(self, item):
        self.items.append(item)
''',
    "shop/checkout.py": '''
from shop.cart import Cart

def checkout(prices):
    """Pay for the cart."""
    return Cart().total(prices)
''',
}


def test_a_context_item_counts_for_the_lines_it_shows(tmp_path: Path) -> None:
    root = write_project(tmp_path, SHOP)
    api.index(root, store="sqlite")
    query = "cart total of the prices"
    with api.open_index(root) as idx:
        items = idx.answer(query, 300).context.items
        spans = AstragRankers(idx, 300).context(query)
        symbols = idx.store.all_symbols()
        by_symbol = bm25_symbols(root, symbols)("sum of the prices")
    # at this budget the long method is shown by its signature, the short ones in full
    assert {i.full for i in items} == {True, False}
    for item, span in zip(items, spans, strict=True):
        # a signature form shows its header line, not the lines of the body or members
        shown = item.end_line if item.full else item.start_line
        assert span == Span(item.path, item.start_line, shown)
    total = next(s for s in symbols if s.qualname == "Cart.total")
    assert by_symbol[0] == Span("shop/cart.py", total.start_line, total.end_line)
