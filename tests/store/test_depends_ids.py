"""Dependency sets as ids (store/depends.py) and the SQLite index's paths table
(store/sqlite_depends.py)."""

from __future__ import annotations

import pytest

from astrag.store import IndexUpdate, SqliteStore
from astrag.store.depends import decode_ids, encode_ids, holds_any_id, number, numbering


@pytest.fixture
def store(empty_store: SqliteStore) -> SqliteStore:
    return empty_store


def _paths(store: SqliteStore) -> list[tuple[int, str]]:
    return store._db.execute("SELECT pid, path FROM paths ORDER BY pid").fetchall()


def _raw(store: SqliteStore) -> dict[str, bytes]:
    return dict(store._db.execute("SELECT file, deps FROM depends"))


def test_a_set_is_its_ids_sorted_four_little_endian_bytes_each() -> None:
    assert encode_ids([3, 1, 258]) == bytes([1, 0, 0, 0, 3, 0, 0, 0, 2, 1, 0, 0])
    assert list(decode_ids(encode_ids([3, 1, 258]))) == [1, 3, 258]
    assert encode_ids([]) == b""
    assert number(numbering(["b", "a", "b"])) == {"a": 1, "b": 2}


def test_an_id_counts_only_where_an_id_starts() -> None:
    blob = encode_ids([256, 65536])  # 00 01 00 00 | 00 00 01 00: id 1's bytes at offset 1
    assert not holds_any_id([1])(blob)
    assert holds_any_id([1, 65536])(blob)
    assert holds_any_id([256])(blob)
    assert not holds_any_id([])(blob)
    many = range(1000, 1040)  # past the ids searched for byte-wise: every set is decoded
    assert not holds_any_id([*many, 1])(blob)
    assert holds_any_id([*many, 256])(blob)


def test_sets_sent_as_ids_are_written_as_they_came_into_an_empty_index(
    store: SqliteStore,
) -> None:
    """A first index or a rebuild: the sender's ids become the store's, so the bytes are
    written as given; the numbering's paths are the paths table."""
    paths = numbering(["src/b.ts", "src/a.ts", "src/c.ts"])
    ids = number(paths)
    sent = {"src/a.ts": encode_ids([ids["src/b.ts"], ids["src/c.ts"]])}
    store.apply(IndexUpdate(depends=sent, depends_paths=paths))
    assert _raw(store) == sent
    assert _paths(store) == [(1, "src/a.ts"), (2, "src/b.ts"), (3, "src/c.ts")]
    with pytest.raises(ValueError, match="depends_paths"):
        store.apply(IndexUpdate(depends={"x.ts": encode_ids([1])}))


def test_a_path_stays_while_a_set_names_it_and_goes_with_the_last(store: SqliteStore) -> None:
    store.apply(
        IndexUpdate(depends={"a.py": frozenset({"b.py"}), "c.py": frozenset({"d.py", "b.py"})})
    )
    assert [p for _, p in _paths(store)] == ["b.py", "d.py"]
    store.apply(IndexUpdate(removed=("c.py",)))  # the only set naming d.py went with it
    assert [p for _, p in _paths(store)] == ["b.py"]
    store.apply(IndexUpdate(removed=("b.py",)))  # a.py still names it: how a.py is found
    assert store.dependents(["b.py"]) == {"a.py"}
    store.apply(IndexUpdate(depends={"e.py": frozenset({"f.py"})}))
    (b_id,) = [i for i, p in _paths(store) if p == "b.py"]
    assert store.dependents(["f.py"]) == {"e.py"}
    assert list(decode_ids(_raw(store)["a.py"])) == [b_id]  # its id was not given to f.py
    store.apply(IndexUpdate(depends={"a.py": frozenset()}, removed=("e.py",)))
    assert _paths(store) == []


def test_dependents_pass_over_an_id_whose_bytes_straddle_two_others(store: SqliteStore) -> None:
    """SQLite picks out the sets whose bytes hold an id's bytes anywhere; only a whole id
    counts: ids 256 and 512 are 00 01 00 00 00 02 00 00, which holds id 1's bytes at 1."""
    paths = numbering(f"m/{i:03}.py" for i in range(512))
    store.apply(IndexUpdate(depends={"x.py": encode_ids([256, 512])}, depends_paths=paths))
    assert store.dependents([paths[0]]) == set()  # id 1
    assert store.dependents([paths[255]]) == {"x.py"}  # id 256
    many = [paths[i] for i in range(20)]  # past the ids SQLite searches for: each set decoded
    assert store.dependents(many) == set()
    assert store.dependents([*many, paths[511]]) == {"x.py"}


def test_the_resolver_process_sends_a_set_outside_its_numbering_as_paths() -> None:
    """Every file a resolution consults is one the process was given; were one not, its set
    goes as sorted paths, which the indexer hands the store as a set."""
    from astrag.resolver_process import _encoded

    ids = number(numbering(["a.ts", "b.ts"]))
    assert _encoded(ids, {"b.ts", "a.ts"}) == encode_ids([1, 2])
    assert _encoded(ids, set()) == b""
    assert _encoded(ids, {"b.ts", "elsewhere.ts"}) == ["b.ts", "elsewhere.ts"]
