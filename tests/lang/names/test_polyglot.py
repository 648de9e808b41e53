"""A repository in four languages (Python and TypeScript resolved, Rust and Ruby by name):
search, outline, context and export see all of them, and say which links are name-matched."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from astrag import api
from astrag.export import to_jsonl

FILES = {
    "app/billing.py": """
        def charge(amount: int) -> int:
            \"\"\"Charge a customer.\"\"\"
            return amount
    """,
    "web/invoice.ts": """
        export function renderInvoice(total: number): string {
          return `total ${total}`;
        }
    """,
    "engine/src/ledger.rs": """
        /// Keeps the running balance of an account.
        pub struct Ledger {
            balance: i64,
        }

        impl Ledger {
            pub fn post(&mut self, amount: i64) {
                self.balance += round_cents(amount);
            }
        }

        fn round_cents(v: i64) -> i64 {
            v
        }
    """,
    "scripts/report.rb": """
        # Prints the monthly ledger report.
        class MonthlyReport
          def print_balance
            format_line("balance")
          end

          def format_line(text)
            text
          end
        end
    """,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("polyglot")
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    summary = api.index(root, embedder="none")
    assert summary.languages == {"python": 1, "typescript": 1, "rust": 1, "ruby": 1}
    return root


def test_search_finds_name_level_definitions(repo: Path) -> None:
    with api.open_index(repo) as idx:
        assert (
            idx.search("running balance of an account", limit=1)[0].symbol.id
            == "engine/src/ledger.rs::Ledger"
        )
        hit = idx.search("MonthlyReport", limit=1)[0].symbol
        assert (hit.id, hit.language, hit.docstring) == (
            "scripts/report.rb::MonthlyReport",
            "ruby",
            "Prints the monthly ledger report.",
        )


def test_outline_of_a_rust_file(repo: Path) -> None:
    with api.open_index(repo) as idx:
        o = idx.outline("engine/src/ledger.rs")
    assert o.module.language == "rust"
    assert [
        (e.depth, e.symbol.kind, e.symbol.qualname, e.symbol.start_line) for e in o.entries
    ] == [
        (0, "class", "Ledger", 2),
        (1, "field", "Ledger.balance", 3),
        (1, "method", "Ledger.post", 7),
        (0, "function", "round_cents", 12),
    ]


def test_context_says_a_link_is_name_matched(repo: Path) -> None:
    with api.open_index(repo) as idx:
        context = idx.context("who calls round_cents", budget=2000)
        reasons = {item.id: item.reason for item in context.items}
        assert reasons["engine/src/ledger.rs::Ledger.post"] == "calls round_cents (name-matched)"
        callers = idx.callers("engine/src/ledger.rs::round_cents")
    assert [(r.symbol.id, r.edge.resolution) for r in callers] == [
        ("engine/src/ledger.rs::Ledger.post", "name")
    ]


def test_export_marks_each_edge(repo: Path) -> None:
    with api.open_index(repo) as idx:
        symbols, edges = idx.graph()
    records = [json.loads(line) for line in to_jsonl(symbols, edges)]
    links = {
        (r["source"], r["kind"], r["target"], r["resolution"])
        for r in records
        if r["type"] == "edge" and r["kind"] != "contains"
    }
    assert links == {
        ("app/billing.py::charge", "references", "external::builtins.int", "resolved"),
        ("engine/src/ledger.rs::Ledger.post", "calls", "engine/src/ledger.rs::round_cents", "name"),
        (
            "scripts/report.rb::MonthlyReport.print_balance",
            "calls",
            "scripts/report.rb::MonthlyReport.format_line",
            "name",
        ),
    }
    contains = {r["resolution"] for r in records if r["type"] == "edge" and r["kind"] == "contains"}
    assert contains == {"resolved"}
