"""Helpers for resolution tests: write a fixture project, index it in memory, list its edges."""

from __future__ import annotations

import textwrap
from pathlib import Path

from astrag.graph.facts import Edge
from astrag.graph.run import resolve_all
from astrag.lang import extract_facts, language_of
from astrag.project_layout import read_layout

Triple = tuple[str, str, str]


def build(tmp_path: Path, files: dict[str, str]) -> list[Edge]:
    """Write ``files`` under ``tmp_path``, then parse and resolve them all."""
    facts = {}
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        source = textwrap.dedent(text).lstrip("\n")
        path.write_text(source, encoding="utf-8")
        if language_of(rel) is not None:  # configuration files (package.json, go.mod) too
            facts[rel] = extract_facts(rel, source.encode())
    resolved, _ = resolve_all(facts, read_layout(tmp_path, facts))
    return [e for r in resolved.values() for e in r.edges]


def triples(edges: list[Edge], kind: str, source: str | None = None) -> set[Triple]:
    return {
        (e.source, str(e.kind), e.target)
        for e in edges
        if str(e.kind) == kind and (source is None or e.source == source)
    }


def targets(edges: list[Edge], kind: str, source: str) -> set[str]:
    return {t for _, _, t in triples(edges, kind, source)}
