"""An index of real code that the in-memory readers (postings, edges) are compared against."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import astrag
from astrag.indexer import index_repository
from astrag.store.sqlite import SqliteStore

SRC = Path(astrag.__file__).resolve().parent


@pytest.fixture(scope="session")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A slice of astrag's own source: real code, its names, docstrings and call graph.
    Indexed in two runs: the second run's names get the larger ids whatever their order, so
    name ids, edge rowids and names order documents and edges differently (ties at a cut are
    kept by id). Read only: a test that writes works on a copy."""
    root = tmp_path_factory.mktemp("two-runs")
    for subs in (("store", "search"), ("graph", "retrieve")):
        for sub in subs:
            shutil.copytree(SRC / sub, root / sub, ignore=shutil.ignore_patterns("__py*"))
        index_repository(root, jobs=1, embedder="none")
    return root


@pytest.fixture
def store(indexed: Path) -> Iterator[SqliteStore]:
    s = SqliteStore(indexed / ".astrag", readonly=True)
    s.open()
    yield s
    s.close()
