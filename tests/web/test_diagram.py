"""Mermaid and DOT diagrams: exact output for a small neighbourhood, names that would break out
of a label escaped, and ``astrag export --around`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from astrag import diagram
from astrag.cli import app
from astrag.graph.facts import Symbol
from astrag.query.neighbourhood import Link, Node

RUN = Symbol("a.py::Job.run", "method", "run", "Job.run", "a.py", 3, 9)
BASE = Symbol("a.py::Base.run", "method", "run", "Base.run", "a.py", 1, 2)
MAIN = Symbol("b.py::main", "function", "main", "main", "b.py", 5, 8)
EXT = Symbol("external::os.getenv", "external", "getenv", "os.getenv", "")
NODES = [Node(RUN, 0), Node(BASE, 1), Node(MAIN, 1), Node(EXT, 1)]
LINKS = [
    Link(RUN.id, BASE.id, "overrides", "direct", 1, "a.py", 3),
    Link(MAIN.id, RUN.id, "calls", "dispatch", 1, "b.py", 6, through=BASE.id),
    Link(RUN.id, EXT.id, "calls", "direct", 2, "a.py", 4),
]


def test_mermaid() -> None:
    text = "\n".join(diagram.to_mermaid(NODES, LINKS, center=RUN.id, note="4 symbols"))
    assert text == "\n".join(
        [
            "flowchart LR",
            "  %% 4 symbols",
            '  n0["Job.run<br/>method a.py:3"]',
            '  n1["Base.run<br/>method a.py:1"]',
            '  n2["main<br/>function b.py:5"]',
            '  n3["external::os.getenv<br/>external"]',
            "  n0 -->|overrides| n1",
            "  n2 -.->|calls via Base.run| n0",
            "  n0 -->|calls ×2| n3",
            "  linkStyle 0 stroke:#c026d3",
            "  linkStyle 1 stroke:#2563eb",
            "  linkStyle 2 stroke:#2563eb",
            "  classDef external fill:#ffffff,stroke:#374151",
            "  class n3 external",
            "  classDef function fill:#dbeafe,stroke:#374151",
            "  class n2 function",
            "  classDef method fill:#e0e7ff,stroke:#374151",
            "  class n0,n1 method",
            "  style n0 stroke-width:3px",
        ]
    )


def test_dot() -> None:
    assert list(diagram.to_dot(NODES, LINKS, center=RUN.id)) == [
        "digraph astrag {",
        '  graph [rankdir=LR, fontname="Helvetica"];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=9];',
        '  n0 [label="Job.run\\nmethod a.py:3", tooltip="a.py::Job.run", fillcolor="#e0e7ff", '
        "penwidth=3];",
        '  n1 [label="Base.run\\nmethod a.py:1", tooltip="a.py::Base.run", fillcolor="#e0e7ff"];',
        '  n2 [label="main\\nfunction b.py:5", tooltip="b.py::main", fillcolor="#dbeafe"];',
        '  n3 [label="external::os.getenv\\nexternal", tooltip="external::os.getenv", '
        'fillcolor="#ffffff"];',
        '  n0 -> n1 [label="overrides", color="#c026d3"];',
        '  n2 -> n0 [label="calls via Base.run", color="#2563eb", style=dashed];',
        '  n0 -> n3 [label="calls ×2", color="#2563eb"];',
        "}",
    ]


def test_names_cannot_break_out_of_a_label() -> None:
    odd = Symbol("x.py::f", "function", "f", 'f"] --> evil["<b>|#x', 'd"ir\\n/x.py', 1, 1)
    mermaid = "\n".join(diagram.to_mermaid([Node(odd, 0)], []))
    assert '"] --> evil' not in mermaid and "<b>" not in mermaid
    assert (
        'n0["f#quot;] --#gt; evil[#quot;#lt;b#gt;#124;#35;x<br/>function d#quot;ir\\n/x.py:1"]'
        in (mermaid)
    )
    dot = "\n".join(diagram.to_dot([Node(odd, 0)], []))
    assert 'label="f\\"] --> evil[\\"<b>|#x\\nfunction d\\"ir\\\\n/x.py:1"' in dot


def test_export_around_a_symbol(shop: Path) -> None:
    runner = CliRunner()
    args = ["export", "--repo", str(shop), "--around", "Item.price", "--depth", "1"]
    mermaid = runner.invoke(app, [*args, "--format", "mermaid"])
    assert mermaid.exit_code == 0, mermaid.output
    lines = mermaid.stdout.splitlines()
    assert lines[:2] == [
        "flowchart LR",
        "  %% 7 symbols within 1 hops of shop/models.py::Item.price",
    ]
    assert sum(1 for line in lines if line.startswith("  n") and '["' in line) == 7
    assert sum(1 for line in lines if line.endswith("-->|calls| n0")) == 1  # Cart.total
    assert sum(1 for line in lines if "-.->|calls unverified| n0" in line) == 2
    dot = runner.invoke(app, [*args, "--format", "dot"])
    assert dot.exit_code == 0 and dot.stdout.startswith("digraph astrag {")
    jsonl = runner.invoke(app, [*args, "--format", "jsonl"])
    records = [json.loads(line) for line in jsonl.stdout.splitlines()]
    assert sum(1 for r in records if r["type"] == "node") == 7
    assert all(r["type"] == "edge" for r in records[7:])  # nodes, then the edges among them


def test_export_around_an_unknown_symbol_is_a_clear_error(shop: Path) -> None:
    result = CliRunner().invoke(
        app, ["export", "--repo", str(shop), "--around", "Nope.nothing", "--format", "dot"]
    )
    assert result.exit_code == 2
    assert "no symbol matches 'Nope.nothing'" in result.output
