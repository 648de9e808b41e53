"""Index runs end to end on real files: incremental updates, dependency propagation, bad input,
interrupted runs and damaged indexes — on both stores (``store_url`` in tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from astrag import api
from astrag.graph.facts import Edge


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def calls_from(root: Path, source: str) -> set[str]:
    with api.open_index(root) as idx:
        return {e.target for e in idx.edges(source, incoming=False, kinds=["calls"])}


@pytest.fixture(autouse=True)
def _both_stores(use_store: str) -> str:
    return use_store


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/b.py", "def helper():\n    return 1\n")
    write(
        tmp_path,
        "pkg/a.py",
        """
        from pkg.b import helper

        def run():
            return helper()
        """,
    )
    write(tmp_path, "pkg/c.py", "def alone():\n    return 2\n")
    return tmp_path


def test_first_run_indexes_everything_and_second_run_parses_nothing(repo: Path) -> None:
    first = api.index(repo)
    assert (first.files, first.parsed, first.resolved_files) == (4, 4, 4)
    assert first.symbols == 4 + 3  # four modules, helper, run, alone
    assert calls_from(repo, "pkg/a.py::run") == {"pkg/b.py::helper"}

    second = api.index(repo)
    assert (second.files, second.parsed, second.resolved_files, second.removed) == (4, 0, 0, 0)
    assert second.symbols == first.symbols
    assert second.edges == first.edges


def test_touched_but_identical_file_is_not_parsed(repo: Path) -> None:
    api.index(repo)
    path = repo / "pkg/b.py"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))
    again = api.index(repo)
    assert (again.parsed, again.resolved_files) == (0, 0)
    assert api.index(repo).parsed == 0  # the new mtime was recorded


def test_changed_file_reparses_alone_and_re_resolves_its_dependents(repo: Path) -> None:
    api.index(repo)
    write(repo, "pkg/b.py", "def renamed():\n    return 1\n")
    update = api.index(repo)
    assert update.parsed == 1
    assert update.resolved_files == 2  # b itself and a, which consulted b; not c
    assert calls_from(repo, "pkg/a.py::run") == {"unresolved::helper"}
    with api.open_index(repo) as idx:
        assert idx.get("pkg/b.py::helper") is None
        assert idx.get("pkg/b.py::renamed") is not None


def test_body_only_edit_re_resolves_only_that_file(repo: Path) -> None:
    api.index(repo)
    write(repo, "pkg/b.py", "# moved down\n\ndef helper():\n    x = len([2])\n    return 1\n")
    update = api.index(repo)
    assert (update.parsed, update.resolved_files) == (1, 1)
    assert calls_from(repo, "pkg/a.py::run") == {"pkg/b.py::helper"}
    assert calls_from(repo, "pkg/b.py::helper") == {"external::builtins.len"}
    with api.open_index(repo) as idx:
        assert idx.resolve("helper").start_line == 3


def test_deleted_file_disappears_with_its_symbols_and_edges(repo: Path) -> None:
    api.index(repo)
    (repo / "pkg/b.py").unlink()
    update = api.index(repo)
    assert (update.files, update.removed) == (3, 1)
    with api.open_index(repo) as idx:
        assert idx.lookup("helper") == []
        symbols, edges = idx.graph()
        assert not [e for e in edges if e.path == "pkg/b.py"]
        assert not [s for s in symbols if s.path == "pkg/b.py"]
    assert calls_from(repo, "pkg/a.py::run") == {"unresolved::helper"}


def test_added_file_resolves_an_import_that_was_unresolved(tmp_path: Path) -> None:
    write(tmp_path, "main.py", "from tools import fix\n\ndef go():\n    fix()\n")
    api.index(tmp_path)
    assert calls_from(tmp_path, "main.py::go") == {"external::tools.fix"}
    write(tmp_path, "tools.py", "def fix():\n    pass\n")
    update = api.index(tmp_path)
    assert update.parsed == 1
    assert calls_from(tmp_path, "main.py::go") == {"tools.py::fix"}


def test_syntax_errors_are_counted_and_the_rest_is_indexed(tmp_path: Path) -> None:
    write(tmp_path, "ok.py", "def fine():\n    pass\n")
    write(tmp_path, "broken.py", "def good():\n    pass\n\ndef bad(:\n    pass\n")
    summary = api.index(tmp_path)
    assert summary.files == 2
    assert summary.files_with_errors == 1
    assert summary.parse_errors >= 1
    with api.open_index(tmp_path) as idx:
        assert [s.id for s in idx.lookup("good")] == ["broken.py::good"]


def test_a_nameless_recovered_definition_does_not_fail_the_run(tmp_path: Path) -> None:
    # the parser recovers ``:`` as an assignment to an empty name, whose id would be the
    # module's own: the run must index the file (and the others), not stop on a duplicate id
    write(tmp_path, "t/a.py", ":\n    f.clean(None)\n")
    write(tmp_path, "t/b.py", "def g():\n    pass\n")
    summary = api.index(tmp_path)
    assert summary.files == 2
    assert summary.files_with_errors == 1
    with api.open_index(tmp_path) as idx:
        assert [s.id for s in idx.lookup("g")] == ["t/b.py::g"]
        assert {e.target for e in idx.edges("t/a.py", incoming=False, kinds=["calls"])} == {
            "unresolved::?.clean"
        }


def test_binary_huge_non_utf8_and_secret_files(tmp_path: Path) -> None:
    write(tmp_path, ".astrag.toml", "[index]\nmax_file_bytes = 2000\n")
    (tmp_path / "blob.py").write_bytes(b"\x00\x01\x02binary" * 10)
    write(tmp_path, "huge.py", "x = 1\n" * 1000)
    (tmp_path / "latin.py").write_bytes("NAME = 'café'\n\ndef f():\n    pass\n".encode("latin-1"))
    write(tmp_path, ".env", "SECRET=1\n")
    write(tmp_path, "keys/server.key", "-----BEGIN PRIVATE KEY-----\n")
    summary = api.index(tmp_path)
    reasons = {k.path: k.reason for k in summary.skipped}
    assert reasons["blob.py"] == "binary"
    assert reasons["huge.py"] == "too_large"
    assert reasons[".env"] == "secret"
    assert reasons["keys/server.key"] == "secret"
    assert summary.files == 1
    with api.open_index(tmp_path) as idx:
        assert [s.id for s in idx.lookup("f")] == ["latin.py::f"]
        assert idx.stats()["files"] == 1


def test_symlink_loop_and_link_outside_root_do_not_hang_or_escape(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, "secret_code.py", "def leaked():\n    pass\n")
    root = tmp_path / "repo"
    write(root, "src/m.py", "def inside():\n    pass\n")
    (root / "src" / "loop").symlink_to(root / "src")
    (root / "escape").symlink_to(outside)
    summary = api.index(root)
    assert summary.files == 1
    with api.open_index(root) as idx:
        assert idx.lookup("leaked") == []
        assert [s.id for s in idx.lookup("inside")] == ["src/m.py::inside"]


def _run_killed(root: Path, stage: str) -> subprocess.CompletedProcess[str]:
    """Index ``root`` in a child process that SIGKILLs itself when ``stage`` begins."""
    script = textwrap.dedent(
        f"""
        import os, signal
        from pathlib import Path
        from astrag.indexer import index_repository

        def progress(stage, done, total):
            if stage == {stage!r}:
                os.kill(os.getpid(), signal.SIGKILL)

        index_repository(Path({str(root)!r}), progress=progress, jobs=1)
        """
    )
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)


@pytest.mark.parametrize("stage", ["parse", "resolve", "write"])
def test_a_killed_run_leaves_the_previous_index_and_a_rerun_completes(
    repo: Path, stage: str
) -> None:
    api.index(repo)
    write(repo, "pkg/b.py", "def renamed():\n    return 1\n")
    killed = _run_killed(repo, stage)
    assert killed.returncode == -9
    with api.open_index(repo) as idx:  # still the complete previous index
        assert idx.get("pkg/b.py::helper") is not None
        assert idx.get("pkg/b.py::renamed") is None
    assert calls_from(repo, "pkg/a.py::run") == {"pkg/b.py::helper"}
    rerun = api.index(repo)
    assert rerun.parsed == 1
    assert calls_from(repo, "pkg/a.py::run") == {"unresolved::helper"}


def test_corrupt_index_is_rebuilt_with_a_reason(repo: Path, use_store: str) -> None:
    if use_store:
        pytest.skip("a damaged file is SQLite's failure; see tests/store for the server's")
    api.index(repo)
    db = repo / ".astrag" / "index.db"
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    db.write_bytes(b"this is not a database" * 100)
    summary = api.index(repo)
    assert summary.rebuilt_because
    assert summary.parsed == 4
    assert calls_from(repo, "pkg/a.py::run") == {"pkg/b.py::helper"}


def test_querying_a_repo_without_index_is_a_clear_error(tmp_path: Path) -> None:
    from astrag.store.base import IndexMissing

    with pytest.raises(IndexMissing) as err:
        api.open_index(tmp_path)
    assert "astrag index" in err.value.hint


def test_edges_carry_their_call_site(repo: Path) -> None:
    api.index(repo)
    with api.open_index(repo) as idx:
        edges: list[Edge] = idx.edges("pkg/a.py::run", incoming=False, kinds=["calls"])
    assert [(e.path, e.line, e.column) for e in edges] == [("pkg/a.py", 4, 12)]


def test_deleting_a_module_named_with_dots_and_a_js_specifier_re_resolves_its_importers(
    tmp_path: Path,
) -> None:
    """`./input-type.decorator.js` names `input-type.decorator.ts` (found by bench/
    incremental_clean.py on nestjs-graphql: the importer kept its edge to the deleted file)."""
    write(tmp_path, "lib/input-type.decorator.ts", "export function InputType() { return 1; }\n")
    write(tmp_path, "lib/index.ts", "export * from './input-type.decorator.js';\n")
    api.index(tmp_path, embedder="none")

    def imports() -> set[str]:
        with api.open_index(tmp_path) as idx:
            return {e.target for e in idx.edges("lib/index.ts", incoming=False, kinds=["imports"])}

    assert imports() == {"lib/input-type.decorator.ts"}
    (tmp_path / "lib" / "input-type.decorator.ts").unlink()
    api.index(tmp_path, embedder="none")
    assert imports() == {"unresolved::./input-type.decorator.js"}
    write(tmp_path, "lib/input-type.decorator.ts", "export function InputType() { return 2; }\n")
    api.index(tmp_path, embedder="none")
    assert imports() == {"lib/input-type.decorator.ts"}


def test_a_module_restored_behind_a_re_export_resolves_again_for_files_importing_through_it(
    tmp_path: Path,
) -> None:
    """`from pkg import Field` resolves through pkg/__init__'s `from .fields import Field`:
    deleting fields.py and restoring it must give back the edge (found by bench/
    incremental_clean.py on pydantic)."""
    write(tmp_path, "pkg/__init__.py", "from .fields import Field\n")
    write(tmp_path, "pkg/fields.py", "def Field():\n    return 1\n")
    write(tmp_path, "pkg/types.py", "from pkg import Field\n\ndef make():\n    return Field()\n")
    api.index(tmp_path, embedder="none")
    assert calls_from(tmp_path, "pkg/types.py::make") == {"pkg/fields.py::Field"}
    saved = (tmp_path / "pkg" / "fields.py").read_text()
    (tmp_path / "pkg" / "fields.py").unlink()
    api.index(tmp_path, embedder="none")
    assert calls_from(tmp_path, "pkg/types.py::make") != {"pkg/fields.py::Field"}
    write(tmp_path, "pkg/fields.py", saved)
    api.index(tmp_path, embedder="none")
    assert calls_from(tmp_path, "pkg/types.py::make") == {"pkg/fields.py::Field"}
