"""A process that searches often ranks from the postings held in memory (store/postings.py):
the same hits as FTS5's own bm25(), with bit-identical scores, in the same order; read at the
second search, and read again once another connection changed the index."""

from __future__ import annotations

import shutil
from pathlib import Path

from astrag.indexer import index_repository
from astrag.search.documents import SearchDoc
from astrag.search.engine import FIELD_WEIGHTS
from astrag.search.text import query_words, split_identifier
from astrag.store import IndexUpdate, lexical
from astrag.store.postings import build, rank
from astrag.store.sqlite import SqliteStore

QUESTIONS = (
    "who calls update_user",
    "where do we validate webhook signatures",
    "how are symbols resolved across imports and re-exports",
    "reciprocal rank fusion of lexical and dense rankers",
    "token budget assembly of the context",
    "store the index in one transaction",
    "resolver resolve resolved resolves",  # four words, one stem: four phrases of one term
    "zzzunknownword store",
    "self",
    "file files path paths",
    "edge kinds calls references imports inherits",
)


def memory_of(store: SqliteStore) -> object:
    store.search_text(["store"], FIELD_WEIGHTS, 1)
    store.search_text(["store"], FIELD_WEIGHTS, 1)
    assert store._postings.held is not None
    return store._postings.held[1]


def test_the_postings_rank_as_fts5_does_bit_for_bit(store: SqliteStore) -> None:
    postings = memory_of(store)
    questions = [*QUESTIONS, *(f"{w} {w}s" for w in ("symbol", "edge", "import", "call"))]
    compared = 0
    for question in questions:
        words = query_words(question)
        terms = [lexical.query_term(w) for w in words]
        for limit in (1, 7, 50, 400, 5000):
            expected = store._search_fts(words, FIELD_WEIGHTS, limit)
            assert rank(postings, terms, FIELD_WEIGHTS, limit) == expected, (question, limit)  # type: ignore[arg-type]
            compared += len(expected)
    assert compared > 5_000
    # and through the store's own entry point, from the second search on
    words = query_words(QUESTIONS[2])
    assert store.search_text(words, FIELD_WEIGHTS, 30) == store._search_fts(
        words, FIELD_WEIGHTS, 30
    )


def test_every_name_of_the_index_asked_for_ranks_the_same(store: SqliteStore) -> None:
    """Queries made from the index's own names (every third document's words, alone, with
    the next one's, and a kind word), at the engine's limit and at small ones, where ties
    at the cut are common."""
    postings = memory_of(store)
    names = [n for (n,) in store._db.execute("SELECT n.name FROM docs d JOIN names n USING (nid)")]
    assert len(names) > 1_000
    picked = sorted(names)[::3]
    questions: list[str] = []
    for i, name in enumerate(picked):
        words = " ".join(split_identifier(name.rpartition("::")[2]))
        other = " ".join(split_identifier(picked[i - 1].rpartition("/")[2]))
        questions += [words, f"{words} {other}", f"how is {words} method used"]
    compared = cut_in_a_tie = past_twice = 0
    for question in questions:
        words = query_words(question)
        if not words:
            continue
        terms = [lexical.query_term(w) for w in words]
        longer = store._search_fts(words, FIELD_WEIGHTS, 200)
        assert rank(postings, terms, FIELD_WEIGHTS, 200) == longer, question  # type: ignore[arg-type]
        for limit in (1, 3, 10):
            expected = store._search_fts(words, FIELD_WEIGHTS, limit)
            assert rank(postings, terms, FIELD_WEIGHTS, limit) == expected, (question, limit)  # type: ignore[arg-type]
            compared += 1
            # the first document left out scores as the last one kept
            cut_in_a_tie += len(longer) > limit and longer[limit][1] == expected[-1][1]
            # ... and so does the first past twice the limit (FTS5 chose by rowid)
            past_twice += len(longer) > 2 * limit and longer[2 * limit][1] == expected[-1][1]
    assert compared > 3_000
    # These guard that the questions reach ties at the cut often enough to test them. The
    # index is astrag's own source, so the counts move with every edit to it (164 of 3,621
    # when written): the guard is a share, not a count.
    assert cut_in_a_tie * 40 > compared
    assert past_twice > 0


def test_ties_at_the_cut_are_ordered_by_id(tmp_path: Path) -> None:
    """Documents alike score alike: which of them make the cut is decided by id, as FTS5's
    query orders them."""
    store = SqliteStore(tmp_path / ".astrag")
    store.open()
    same = tuple(
        SearchDoc(f"m{i % 7}.py::f{i}", f"m{i % 7}.py", "run", "run", "", "", "", "")
        for i in range(60)
    )
    other = SearchDoc("z.py::g", "z.py", "run run", "run", "", "", "", "")
    written = (*same, other)
    store.apply(IndexUpdate(docs_for=tuple(sorted({d.path for d in written})), docs=written))
    postings = memory_of(store)
    for limit in (1, 2, 5, 13, 61, 100):
        expected = store._search_fts(["run"], FIELD_WEIGHTS, limit)
        assert rank(postings, ["run"], FIELD_WEIGHTS, limit) == expected  # type: ignore[arg-type]
    assert [sid for sid, _ in expected][:3] == ["z.py::g", "m0.py::f0", "m0.py::f14"]
    store.close()


def test_ties_past_twice_the_limit_are_kept_as_fts5_keeps_them(tmp_path: Path) -> None:
    """FTS5 keeps twice the limit by score, and of those tied at that cut the lowest ids;
    only those are ordered by score and name. Names written later have the larger ids, so
    the two orders differ: here the first run's z-names fill the cut, not the a-names."""
    store = SqliteStore(tmp_path / ".astrag")
    store.open()
    vocabulary = ("run", "stop", "run stop", "run run")
    for run, prefix in enumerate(("z", "a", "m")):
        docs = tuple(
            SearchDoc(
                f"{prefix}{i % 5}.py::f{i}",
                f"{prefix}{i % 5}.py",
                vocabulary[(i + run) % 4],
                "run",
                "",
                "",
                "stop" if i % 3 else "",
                "",
            )
            for i in range(40)
        )
        store.apply(IndexUpdate(docs_for=tuple(sorted({d.path for d in docs})), docs=docs))
    postings = memory_of(store)
    for words in (["run"], ["stop"], ["run", "stop"], ["stop", "run", "stop"]):
        for limit in (1, 2, 3, 5, 9, 13, 20, 29, 30, 31, 59, 60, 61, 119, 120, 200):
            expected = store._search_fts(words, FIELD_WEIGHTS, limit)
            assert rank(postings, words, FIELD_WEIGHTS, limit) == expected, (words, limit)
    # "run run" alone in its name and nothing in its body: ten names tie at the top; limit 1
    # keeps two of them by id (z-names, written first), limit 3 six (the four z-names, then
    # the a-names of the lower ids), and only these are ordered by name
    best = store._search_fts(["run"], FIELD_WEIGHTS, 10)
    assert [sid for sid, _ in best] == [
        *("a0.py::f30", "a1.py::f6", "a3.py::f18"),
        *("m1.py::f21", "m3.py::f33", "m4.py::f9"),
        *("z0.py::f15", "z2.py::f27", "z3.py::f3", "z4.py::f39"),
    ]
    assert len({score for _, score in best}) == 1
    assert [sid for sid, _ in store._search_fts(["run"], FIELD_WEIGHTS, 1)] == ["z0.py::f15"]
    assert [sid for sid, _ in store._search_fts(["run"], FIELD_WEIGHTS, 3)] == [
        "a0.py::f30",
        "a1.py::f6",
        "z0.py::f15",
    ]
    store.close()


def test_the_first_search_asks_fts5_and_a_change_is_seen(indexed: Path, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    shutil.copytree(indexed, root)
    reader = SqliteStore(root / ".astrag", readonly=True)
    reader.open()
    try:
        assert reader.search_text(["zebracorn"], FIELD_WEIGHTS, 5) == []
        assert reader._postings.held is None  # a process that asks once never reads them
        assert reader.search_text(["zebracorn"], FIELD_WEIGHTS, 5) == []
        assert reader._postings.held is not None
        (root / "zoo.py").write_text('def feed_zebracorn():\n    """Feed the zebracorn."""\n')
        index_repository(root, jobs=1, embedder="none")  # another connection commits
        hits = reader.search_text(["zebracorn"], FIELD_WEIGHTS, 5)
        assert [sid for sid, _ in hits] == ["zoo.py::feed_zebracorn", "zoo.py"]
        # the new state's first search asks FTS5: it has cost nothing yet
        assert reader._postings.held is None
        assert hits == reader._search_fts(["zebracorn"], FIELD_WEIGHTS, 5)
        reader._postings.read_seconds = 0.0  # as if reading them had been free: read at once
        assert reader.search_text(["zebracorn"], FIELD_WEIGHTS, 5) == hits
        assert reader._postings.held is not None

        # a rebuild publishes a new generation: this store reads the old one, whole, until
        # it follows the new one; its postings are those of the file it reads
        (root / "zoo.py").write_text('def feed_zebracorns():\n    """Zebracorn zebracorn."""\n')
        index_repository(root, jobs=1, embedder="none", rebuild=True)
        assert reader.search_text(["zebracorn"], FIELD_WEIGHTS, 5) == hits
        assert reader.reopen_if_replaced()
        assert reader._postings.held is None
        reader._postings.read_seconds = 0.0
        moved = reader.search_text(["zebracorn"], FIELD_WEIGHTS, 5)
        assert [sid for sid, _ in moved] == ["zoo.py::feed_zebracorns", "zoo.py"]
        assert moved == reader._search_fts(["zebracorn"], FIELD_WEIGHTS, 5)
        assert reader._postings.held is not None
    finally:
        reader.close()


def test_this_stores_own_writes_are_seen(tmp_path: Path) -> None:
    """A write through this connection leaves data_version as it is; the store counts it."""
    store = SqliteStore(tmp_path / ".astrag")
    store.open()
    try:
        first = SearchDoc("a.py::run", "a.py", "run", "run", "", "", "", "")
        store.apply(IndexUpdate(docs_for=("a.py",), docs=(first,)))
        memory_of(store)
        second = SearchDoc("b.py::run_run", "b.py", "run run", "run_run", "", "", "", "")
        store.apply(IndexUpdate(docs_for=("b.py",), docs=(second,)))
        assert store._postings.held is None
        hits = store.search_text(["run"], FIELD_WEIGHTS, 5)
        assert [sid for sid, _ in hits] == ["b.py::run_run", "a.py::run"]
        store._postings.read_seconds = 0.0
        assert store.search_text(["run"], FIELD_WEIGHTS, 5) == hits
        assert store._postings.held is not None
    finally:
        store.close()


def test_no_documents_no_hits() -> None:
    empty = build(0, [], [])
    assert rank(empty, ["store"], FIELD_WEIGHTS, 10) == []
    one = build(1, [("store", "4", "0")], [(4, "a.py::store")])
    assert rank(one, ["nothing"], FIELD_WEIGHTS, 10) == []
    assert [sid for sid, _ in rank(one, ["store"], FIELD_WEIGHTS, 10)] == ["a.py::store"]


def test_occurrences_out_of_order_make_the_same_postings() -> None:
    """fts5vocab lists a term's occurrences by rowid; rows in another order are sorted."""
    ordered = build(3, [("run", "2,2,5,9", "0410"), ("stop", "5", "3")], [(2, "a"), (5, "b")])
    shuffled = build(3, [("run", "9,2,5,2", "0014"), ("stop", "5", "3")], [(2, "a"), (5, "b")])
    for p in (ordered, shuffled):
        assert p.spans == {"run": (0, 3), "stop": (3, 4)}
        assert p.docs.tolist() == [2, 5, 9, 5]
        assert p.counts.tolist() == [
            [1, 0, 0, 0, 1],
            [0, 1, 0, 0, 0],
            [1, 0, 0, 0, 0],
            [0, 0, 0, 1, 0],
        ]
        assert p.doc_tokens.tolist() == [0, 0, 2, 0, 0, 2, 0, 0, 0, 1]
        assert (p.rows, p.tokens) == (3, 5)
