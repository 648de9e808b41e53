"""After an index run, embedding looks only at the texts the run wrote when the index had a
vector for every other text; otherwise (a first index, a run killed before its embedding, one
without embeddings, another embedder) at every text."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path

import pytest

from astrag import api
from astrag.search import vectors
from astrag.search.vectors import VECTORS_COMPLETE
from astrag.store.base import GraphStore
from astrag.store.postgres import PostgresStore
from astrag.store.sqlite import SqliteStore
from tests.search.conftest import SHOP, write_project

STORES = (SqliteStore, PostgresStore)
REFUND = 'def issue_refund(order_id: str) -> None:\n    """Give the customer money back."""\n'


@pytest.fixture
def looked_at(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What each texts_without_vectors call was asked: None (every text) or the hashes."""
    calls: list[object] = []
    for cls in STORES:
        original = cls.texts_without_vectors

        def spy(
            self: GraphStore,
            hashes: Collection[str] | None = None,
            original: Callable[..., list[tuple[str, str]]] = original,
        ) -> list[tuple[str, str]]:
            calls.append(None if hashes is None else set(hashes))
            return original(self, hashes)

        monkeypatch.setattr(cls, "texts_without_vectors", spy)
    return calls


def meta(root: Path) -> dict[str, str]:
    with api.open_index(root) as idx:
        return idx.store.meta()


def test_an_edit_after_a_complete_index_looks_at_its_own_texts_only(
    tmp_path: Path, looked_at: list[object]
) -> None:
    root = write_project(tmp_path, SHOP)
    first = api.index(root)
    assert looked_at == [None] and meta(root)[VECTORS_COMPLETE] == first.embedder
    looked_at.clear()
    assert api.index(root).embedded == 0  # nothing changed: nothing looked at
    assert looked_at == [set()]
    looked_at.clear()
    (root / "shop/refunds.py").write_text(REFUND)
    second = api.index(root)
    assert second.embedded == 2  # the module and its function
    [hashes] = looked_at
    assert isinstance(hashes, set) and len(hashes) == 2
    assert meta(root)[VECTORS_COMPLETE] == first.embedder
    with api.open_index(root) as idx:
        assert idx.store.texts_without_vectors() == []


def test_a_run_killed_before_embedding_leaves_the_next_run_to_look_at_every_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, looked_at: list[object]
) -> None:
    root = write_project(tmp_path, SHOP)
    api.index(root)
    (root / "shop/refunds.py").write_text(REFUND)

    def killed(*args: object, **kwargs: object) -> tuple[str, int]:
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr("astrag.indexer.embed_missing", killed)
        with pytest.raises(KeyboardInterrupt):
            api.index(root)
    assert meta(root)[VECTORS_COMPLETE] == ""  # the graph and documents were committed
    looked_at.clear()
    again = api.index(root)  # no file changed since: only the unset mark tells
    assert again.embedded == 2 and looked_at == [None]
    assert meta(root)[VECTORS_COMPLETE] == again.embedder


def test_an_edit_indexed_without_embeddings_is_embedded_by_the_next_run(
    tmp_path: Path, looked_at: list[object]
) -> None:
    root = write_project(tmp_path, SHOP)
    api.index(root)
    (root / "shop/refunds.py").write_text(REFUND)
    assert api.index(root, embedder="none").embedded == 0
    assert meta(root)[VECTORS_COMPLETE] == ""
    looked_at.clear()
    assert api.index(root).embedded == 2 and looked_at == [None]


def test_a_kill_between_two_commits_of_vectors_leaves_the_mark_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_project(tmp_path, SHOP)
    monkeypatch.setattr(vectors, "_COMMIT_EVERY", 2)
    monkeypatch.setattr(vectors, "_BATCH", 2)
    marks: list[str | None] = []
    for cls in STORES:
        original = cls.put_vectors

        def spy(
            self: GraphStore,
            rows: object,
            *,
            clear: bool = False,
            meta: dict[str, str],
            original: Callable[..., None] = original,
        ) -> None:
            marks.append(meta.get(VECTORS_COMPLETE))
            original(self, rows, clear=clear, meta=meta)

        monkeypatch.setattr(cls, "put_vectors", spy)
    summary = api.index(root, jobs=1)  # no fork: the commits are the point here
    # every commit but the last leaves the mark as the index run set it ("")
    assert summary.embedded > 4
    assert marks[-1] == summary.embedder and set(marks[:-1]) == {None}
