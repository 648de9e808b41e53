"""A cold index on several cores (parsers, a resolver process fed while they parse, the writer)
writes exactly what one process writes, and fails whole when its resolver fails."""

from __future__ import annotations

import shutil
import sqlite3
import textwrap
from pathlib import Path

import pytest

from astrag.config import Config
from astrag.indexer import IndexSummary, index_repository
from astrag.lang import extract_facts
from astrag.resolver_process import ResolverFailed, ResolverProcess
from astrag.store.base import IndexUpdate
from astrag.store.codec import encode_facts
from astrag.store.open import make_store

VOLATILE_META = {"indexed_at", "scanned_at_ns", "root", "layout_inputs"}


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def _project(root: Path) -> Path:
    """65 Python modules in three packages that import and call each other and a shared base,
    a TypeScript barrel with its modules, a file with a syntax error, one too large to index."""
    _write(root, "core/__init__.py", "")
    _write(root, "core/base.py", "class Base:\n    def hook(self):\n        return 1\n")
    for p in range(3):
        _write(root, f"pkg{p}/__init__.py", "")
        for m in range(20):
            nxt = (m + 1) % 20
            _write(
                root,
                f"pkg{p}/m{m}.py",
                f'''
                """Module {m} of package {p}."""
                from core.base import Base
                from pkg{p}.m{nxt} import C{nxt}


                class C{m}(Base):
                    def run(self, depth: int) -> int:
                        self.hook()
                        return C{nxt}().run(depth - 1) if depth else 0
                ''',
            )
    _write(root, "web/index.ts", "export * from './a';\nexport * from './b';\n")
    _write(root, "web/a.ts", "export function alpha(): number { return 1; }\n")
    _write(root, "web/b.ts", "export class Beta { go() { return alpha(); } }\n")
    _write(
        root, "web/main.ts", "import { alpha, Beta } from './index';\nalpha();\nnew Beta().go();\n"
    )
    _write(root, "broken.py", "def ok():\n    return 1\n\ndef broken(:\n    pass\n")
    _write(root, "big.py", "X = 1\n" * 200)
    return root


def _contents(root: Path) -> tuple[object, ...]:
    with make_store(root, Config(max_file_bytes=1000), readonly=True) as store:  # type: ignore[attr-defined]
        meta = {k: v for k, v in store.meta().items() if k not in VOLATILE_META}
        return (
            store.file_records(),
            store.load_facts(),
            sorted(store.all_symbols(), key=lambda s: s.id),
            sorted(store.all_edges()),
            store.all_depends(),
            sorted(store.all_docs(), key=lambda d: d.id),
            store.counts(),
            meta,
        )


def _summary(s: IndexSummary) -> tuple[object, ...]:
    return (s.files, s.symbols, s.edges, s.calls, s.parsed, s.resolved_files, s.removed,
            s.error_files, sorted(s.skipped), s.parse_errors)  # fmt: skip


def _index(root: Path, jobs: int) -> IndexSummary:
    config = Config(max_file_bytes=1000)
    return index_repository(root, config=config, jobs=jobs, embedder="none")


def test_a_cold_index_on_two_cores_writes_what_one_process_writes(tmp_path: Path) -> None:
    one = _project(tmp_path / "one")
    two = tmp_path / "two"
    shutil.copytree(one, two)  # the same bytes and mtimes
    serial, parallel = _index(one, jobs=1), _index(two, jobs=2)
    assert _summary(parallel) == _summary(serial)
    assert parallel.resolved_files == parallel.parsed == 70
    assert [k.path for k in parallel.skipped] == ["big.py"]
    assert parallel.error_files == ["broken.py"]
    assert _contents(two) == _contents(one)
    # the edges came back from the resolver process
    assert ("pkg1/m3.py::C3.run", "core/base.py::Base.hook") in {
        (e.source, e.target)
        for e in _contents(two)[3]  # type: ignore[attr-defined]
    }


@pytest.mark.parametrize("batch_ready", [False, True])
def test_the_writer_pauses_for_the_last_batches_only_when_none_is_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch_ready: bool
) -> None:
    """Once two thirds of the files' edges are written and the resolver has no batch ready, the
    indexer tells the store it will wait (IndexUpdate.pause: SQLite builds the edge indexes
    then); with a batch ready it goes on writing. The index is the same either way."""
    from astrag.store.sqlite import SqliteStore

    one = _project(tmp_path / "one")
    two = tmp_path / "two"
    shutil.copytree(one, two)
    written: list[tuple[int, bool]] = []  # per part: files of its edges, whether it pauses
    apply_parts = SqliteStore._apply_parts

    def spy(
        self: SqliteStore, conn: object, update: IndexUpdate, *args: object, **kw: object
    ) -> None:
        written.append((len(update.edges_for), update.pause))
        apply_parts(self, conn, update, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(SqliteStore, "_apply_parts", spy)
    monkeypatch.setattr(ResolverProcess, "waiting", lambda self: batch_ready)
    _index(two, jobs=2)
    monkeypatch.undo()
    _index(one, jobs=1)
    assert _contents(two) == _contents(one)
    pauses = [i for i, (_, pause) in enumerate(written) if pause]
    if batch_ready:
        assert pauses == []
    else:
        assert len(pauses) == 1
        before = sum(n for n, _ in written[: pauses[0]])
        assert before >= 70 * 2 / 3 and before - written[pauses[0] - 1][0] < 70 * 2 / 3


def test_new_parsers_re_index_everything_and_drop_what_went(tmp_path: Path) -> None:
    """Facts from other parsers are all parsed again (the cold pipeline over an existing index):
    a deleted file and one that grew past the size limit leave the index."""
    one = _project(tmp_path / "one")
    _index(one, jobs=2)
    (one / "pkg2/m19.py").unlink()
    _write(one, "pkg0/m5.py", "X = 1\n" * 200)
    with make_store(one, Config(), readonly=False) as store:  # type: ignore[attr-defined]
        store.set_meta({"extractor": "an older astrag"})
    two = tmp_path / "two"
    shutil.copytree(one, two)
    shutil.rmtree(two / ".astrag")
    again = _index(one, jobs=2)
    _index(two, jobs=1)
    assert again.rebuilt_because == "the parsers changed"
    assert (again.parsed, again.removed) == (68, 2)
    assert _contents(one) == _contents(two)


def test_a_failing_resolver_process_fails_the_run_and_ends(tmp_path: Path) -> None:
    resolver = ResolverProcess(1)
    try:
        resolver.add("a.py", encode_facts(extract_facts("a.py", b"def f():\n    pass\n")))
        resolver.add("b.py", b"not facts")
        with pytest.raises(ResolverFailed, match=r"b\.py|marshal|bad"):
            list(resolver.shards())
    finally:
        resolver.close()
    assert not resolver._process.is_alive()


def test_the_resolver_process_ends_on_its_own_once_its_last_batch_is_sent() -> None:
    """It exits without freeing its heap object by object, and nothing needs to kill it."""
    source = b"def f():\n    pass\n\ndef g():\n    f()\n"
    resolver = ResolverProcess(1)
    try:
        for i in range(3):
            resolver.add(f"m{i}.py", encode_facts(extract_facts(f"m{i}.py", source)))
        assert not resolver.waiting()  # no batch before all are added
        shards = list(resolver.shards())
        resolver._process.join(timeout=60)
        assert resolver._process.exitcode == 0  # ended by itself, not killed by close()
    finally:
        resolver.close()
    assert sorted(path for shard in shards for path, _, _ in shard) == ["m0.py", "m1.py", "m2.py"]


def test_the_resolver_process_hands_over_every_batch_before_any_is_taken(tmp_path: Path) -> None:
    """The indexer writes the parsed files before it takes the first batch of edges: the
    batches (here far more than a pipe holds) are read as they come, so the resolver process
    finishes meanwhile instead of waiting for its pipe to be emptied."""
    source = "def f():\n    pass\n\ndef g():\n" + "    f()\n" * 400
    resolver = ResolverProcess(1)
    try:
        for i in range(40):
            resolver.add(f"m{i:02}.py", encode_facts(extract_facts(f"m{i:02}.py", source.encode())))
        resolver.all_added()
        resolver._process.join(timeout=120)
        assert not resolver._process.is_alive()
        shards = list(resolver.shards())
    finally:
        resolver.close()
    rows = {path: edges for shard in shards for path, edges, _ in shard}
    assert sorted(rows) == [f"m{i:02}.py" for i in range(40)]
    calls = [e for e in rows["m07.py"] if e[2] == "calls"]
    assert len(calls) == 400
    assert {(e[0], e[1]) for e in calls} == {("m07.py::g", "m07.py::f")}


def test_a_cold_index_reports_its_stages_as_one_process_does(tmp_path: Path) -> None:
    one = _project(tmp_path / "one")
    two = tmp_path / "two"
    shutil.copytree(one, two)
    seen: dict[int, list[tuple[str, int, int]]] = {1: [], 2: []}
    for jobs, root in ((1, one), (2, two)):
        index_repository(
            root,
            config=Config(max_file_bytes=1000),
            jobs=jobs,
            embedder="none",
            progress=lambda stage, done, total, jobs=jobs: seen[jobs].append((stage, done, total)),
        )
    for jobs in (1, 2):
        stages = list(dict.fromkeys(stage for stage, _, _ in seen[jobs]))
        assert stages == ["parse", "resolve", "write"], jobs
        ends = {stage: (done, total) for stage, done, total in seen[jobs]}
        assert ends == {"parse": (70, 70), "resolve": (70, 70), "write": (1, 1)}, jobs


def test_importing_the_indexer_does_not_import_numpy() -> None:
    """An index run without embeddings never needs numpy: importing it cost a cold run 0.1 s
    before its parsers could start."""
    import subprocess
    import sys

    code = "import sys, astrag.indexer; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _resolved_calls(files: dict[str, bytes], layout: object) -> set[tuple[str, str]]:
    resolver = ResolverProcess(1)
    try:
        for path, source in files.items():
            resolver.add(path, encode_facts(extract_facts(path, source)))
        resolver.all_added(layout)  # type: ignore[arg-type]
        shards = list(resolver.shards())
    finally:
        resolver.close()
    return {
        (e[0], e[1]) for shard in shards for _, edges, _ in shard for e in edges if e[2] == "calls"
    }


def test_the_resolver_process_resolves_under_the_layout_sent_with_the_last_file(
    tmp_path: Path,
) -> None:
    """The indexer reads the layout while the parsers work and sends it once all files are in:
    a `paths` alias resolves with it, and without it does not."""
    from astrag.project_layout import read_layout

    _write(
        tmp_path,
        "tsconfig.json",
        '{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["lib/*"]}}}',
    )
    files = {
        "lib/a.ts": b"export function alpha(): number { return 1; }\n",
        "main.ts": b"import { alpha } from '@lib/a';\nexport function go() { return alpha(); }\n",
    }
    layout = read_layout(tmp_path, sorted(files))
    assert ("main.ts::go", "lib/a.ts::alpha") in _resolved_calls(files, layout)
    assert ("main.ts::go", "lib/a.ts::alpha") not in _resolved_calls(files, None)


def _calls_by_file(resolver: ResolverProcess) -> dict[str, list[tuple]]:
    try:
        shards = list(resolver.shards())
    finally:
        resolver.close()
    return {path: edges for shard in shards for path, edges, _ in shard}


def test_a_chunk_of_files_sent_in_one_message_resolves_as_files_sent_one_by_one() -> None:
    """The indexer forwards each parser chunk's facts to the resolver process in one message;
    the edges are the ones of files added one at a time, across the chunks' boundary."""
    sources = {
        "a.py": b"def f():\n    pass\n",
        "b.py": b"from a import f\n\ndef g():\n    f()\n",
        "c.py": b"from b import g\n\ndef h():\n    g()\n",
    }
    blobs = {path: encode_facts(extract_facts(path, src)) for path, src in sources.items()}
    one_by_one = ResolverProcess(1)
    for path, blob in blobs.items():
        one_by_one.add(path, blob)
    chunked = ResolverProcess(1)
    chunked.add_all([("a.py", blobs["a.py"]), ("b.py", blobs["b.py"])])
    chunked.add_all([("c.py", blobs["c.py"])])
    assert chunked.files == one_by_one.files == 3
    expected = _calls_by_file(one_by_one)
    assert _calls_by_file(chunked) == expected
    assert ("c.py::h", "b.py::g") in {(e[0], e[1]) for e in expected["c.py"]}


def test_an_empty_chunk_sends_nothing_to_the_resolver_process() -> None:
    """A chunk whose files were all skipped adds no file (and no message that could be read as
    the end of the files)."""
    resolver = ResolverProcess(1)
    resolver.add_all([])
    resolver.add("a.py", encode_facts(extract_facts("a.py", b"def f():\n    f()\n")))
    assert resolver.files == 1
    assert sorted(_calls_by_file(resolver)) == ["a.py"]


def test_an_edit_finds_the_same_dependents_after_a_cold_index_a_rebuild_a_deletion_a_rename(
    tmp_path: Path,
) -> None:
    """The dependency sets are ids of the index's paths table (the cold run's resolver
    process numbers them itself): which files an edit re-resolves is what it was when they
    were paths (the counts and sets below are what main's code gave on this project)."""
    root = _project(tmp_path / "p")
    pkg = {f"pkg{p}/m{m}.py" for p in range(3) for m in range(20)}

    def index(rebuild: bool = False) -> int:
        config = Config(max_file_bytes=1000)
        run = index_repository(root, config=config, jobs=2, embedder="none", rebuild=rebuild)
        return run.resolved_files

    def dependents(*paths: str) -> list[set[str]]:
        with make_store(root, Config(), readonly=True) as store:  # type: ignore[attr-defined]
            return [store.dependents([p]) for p in paths]

    def paths_table() -> set[str]:
        with sqlite3.connect(root / ".astrag" / "index.db") as db:
            return {p for (p,) in db.execute("SELECT path FROM paths")}

    asked = ("core/base.py", "web/a.ts", "web/b.ts", "web/bee.ts", "pkg0/m3.py")
    main = {"web/main.ts"}
    assert index() == 70
    assert dependents(*asked) == [pkg, main, main, set(), {"pkg0/m2.py"}]
    assert index(rebuild=True) == 70
    assert dependents(*asked) == [pkg, main, main, set(), {"pkg0/m2.py"}]
    base = root / "core/base.py"
    base.write_text(base.read_text() + "    def more(self):\n        return 2\n")
    assert index() == 61  # an interface edit: the file and its 60 dependents
    (root / "web/a.ts").unlink()
    assert index() == 2  # web/main.ts, which consulted it, and web/index.ts, which names it
    assert dependents(*asked) == [pkg, set(), main, set(), {"pkg0/m2.py"}]
    assert "web/a.ts" not in paths_table()  # no set names it any more
    (root / "web/b.ts").rename(root / "web/bee.ts")
    (root / "web/index.ts").write_text("export * from './bee';\n")
    assert index() == 3
    assert dependents(*asked) == [pkg, set(), set(), main, {"pkg0/m2.py"}]
    assert {"web/bee.ts", "core/base.py"} <= paths_table()
    assert not {"web/a.ts", "web/b.ts"} & paths_table()
    (root / "web/bee.ts").write_text("export class Beta { go() { return 1; } stop() {} }\n")
    assert index() == 2  # web/bee.ts and web/main.ts


def test_each_store_keeps_the_sets_and_edges_the_resolver_process_sends(
    tmp_path: Path, store_url: str
) -> None:
    """The resolver process sends each set as ids of its numbering: SQLite takes them as its
    ids, PostgreSQL turns them back into paths; either reads back what one process wrote, and
    the edges it sends as rows likewise."""
    one = _project(tmp_path / "one")
    two = tmp_path / "two"
    shutil.copytree(one, two)
    config = Config(max_file_bytes=1000)
    for root, jobs in ((one, 1), (two, 2)):
        index_repository(root, config=config, jobs=jobs, embedder="none", store_url=store_url)
    sets = []
    for root in (one, two):
        with make_store(root, config, readonly=True, url=store_url or None) as store:  # type: ignore[attr-defined]
            # and the edges, which come from the resolver process as rows (IndexUpdate.edge_rows)
            sets.append(
                (
                    store.all_depends(),
                    store.dependents(["core/base.py"]),
                    sorted(store.all_edges()),
                    store.counts(),
                )
            )
    assert sets[1] == sets[0]
    assert len(sets[0][0]) == 70 and len(sets[0][1]) == 60
    assert ("pkg1/m3.py::C3.run", "core/base.py::Base.hook") in {
        (e.source, e.target) for e in sets[1][2]
    }
