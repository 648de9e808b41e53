"""GraphML stays well-formed XML whatever a name or path holds: what XML 1.0 cannot carry at
all is written as ``\\uXXXX``, the same way wherever an id appears; everything else round-trips."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from astrag import api
from astrag.export import to_graphml
from astrag.graph.facts import Edge, EdgeKind, Symbol

NS = {"g": "http://graphml.graphdrawing.org/xmlns"}


def parse(symbols: list[Symbol], edges: list[Edge]) -> ET.Element:
    graph = ET.fromstring("\n".join(to_graphml(symbols, edges))).find("g:graph", NS)
    assert graph is not None
    return graph


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\x01b", "a\\u0001b"),
        ("form\x0cfeed", "form\\u000cfeed"),
        ("esc\x1b[31m", "esc\\u001b[31m"),
        ("nul\x00", "nul\\u0000"),
        ("bad\ufffe\uffff", "bad\\ufffe\\uffff"),
        ("tab\tline\nreturn\r", "tab\tline\nreturn\r"),  # XML holds these (escaped as &#9;...)
        ("é <&> \"'\u2028", "é <&> \"'\u2028"),
    ],
)
def test_names_and_paths_with_any_character_stay_valid(raw: str, shown: str) -> None:
    path = f"src/{raw}.py"
    module = Symbol(path, "module", raw, "", path, 1, 3)
    func = Symbol(f"{path}::{raw}", "function", raw, raw, path, 2, 3, parent=path)
    graph = parse([module, func], [Edge(module.id, func.id, EdgeKind.CONTAINS, path, 2)])
    nodes = graph.findall("g:node", NS)
    assert [n.get("id") for n in nodes] == [f"src/{shown}.py", f"src/{shown}.py::{shown}"]
    names = [d.text for n in nodes for d in n.findall("g:data", NS) if d.get("key") == "name"]
    assert names == [shown, shown]
    (edge,) = graph.findall("g:edge", NS)
    assert (edge.get("source"), edge.get("target")) == (nodes[0].get("id"), nodes[1].get("id"))


def test_a_real_file_named_with_control_characters_exports_valid_xml(tmp_path: Path) -> None:
    (tmp_path / "odd\x01na\x0cme.py").write_text("def f():\n    return 1\n")
    api.index(tmp_path, jobs=1, embedder="none")
    with api.open_index(tmp_path) as idx:
        graph = parse(*idx.graph())
    ids = {n.get("id") for n in graph.findall("g:node", NS)}
    assert ids == {"odd\\u0001na\\u000cme.py", "odd\\u0001na\\u000cme.py::f"}
