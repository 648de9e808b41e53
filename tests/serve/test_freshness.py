"""The freshness check under the MCP server and ``astrag watch``, without a transport: what it
notices (edits, additions in new directories, deletions, a git branch switch, another process's
index run) and that a check with nothing changed changes nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from astrag import api
from astrag.serve.freshness import scan, take_baseline, tracked_dirs
from astrag.serve.state import RepoState
from tests.serve.conftest import write


def callers(state: RepoState, name: str) -> list[str]:
    index = state.index
    return [r.symbol.id for r in index.callers(index.resolve(name).id)]


def test_nothing_changed_is_a_no_op(repo: Path) -> None:
    state = RepoState(repo)
    state.open()
    stamp = state.index.store.meta()["indexed_at"]
    for _ in range(3):
        status = state.ensure_fresh()
        assert status.fresh and status.updated_files == [] and status.update_ms is None
    assert state.index.store.meta()["indexed_at"] == stamp
    assert status.indexed_at.endswith("Z")
    state.close()


def test_tracked_dirs_cover_code_free_directories_but_not_skipped_ones(repo: Path) -> None:
    (repo / "docs" / "guide").mkdir(parents=True)
    (repo / "node_modules" / "lib").mkdir(parents=True)
    (repo / "build").mkdir()
    dirs = tracked_dirs(repo, ["pkg/report.py"])
    assert dirs == ["", "docs", "docs/guide", "pkg"]  # symlinked pkg/outdir is not followed


def test_new_code_in_a_code_free_directory_is_seen(repo: Path) -> None:
    (repo / "docs" / "guide").mkdir(parents=True)
    state = RepoState(repo)
    state.open()
    write(repo, "docs/guide/example.py", "from pkg.report import describe\n\n\ndef demo():\n"
          "    return describe(None)\n")  # fmt: skip
    status = state.ensure_fresh()
    assert status.updated_files == ["docs/guide/example.py"]
    # a docs site's example is a support file: listed after the code's own caller
    assert callers(state, "describe") == ["pkg/report.py::main", "docs/guide/example.py::demo"]
    state.close()


def test_a_scan_sees_edits_deletions_and_directory_changes(repo: Path) -> None:
    with api.open_index(repo) as index:
        records = index.store.file_records()
    baseline = take_baseline(repo, records, "stamp")
    assert not scan(baseline)
    with (repo / "pkg/report.py").open("a") as fh:
        fh.write("# more\n")
    (repo / "pkg/shapes.py").unlink()
    write(repo, "new/mod.py", "x = 1\n")
    drift = scan(baseline)
    assert drift.modified == ("pkg/report.py",)
    assert drift.deleted == ("pkg/shapes.py",)
    assert set(drift.dirs) == {"", "pkg"}  # root: `new/` appeared; pkg: shapes.py went


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_branch_switch_and_back(repo: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
            cwd=repo, check=True, capture_output=True,
        )  # fmt: skip

    (repo / "pkg/leak.py").unlink()  # symlinks out of the repository have no place in git
    (repo / "pkg/outdir").unlink()
    (repo / ".gitignore").write_text(".astrag/\n")
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "base")
    git("checkout", "-qb", "feature")
    write(repo, "pkg/extra.py", "from pkg.report import describe\n\n\ndef feature():\n"
          "    return describe(None)\n")  # fmt: skip
    (repo / "pkg/shapes.py").write_text(
        (repo / "pkg/shapes.py").read_text().replace("class Circle", "class Round")
    )
    git("add", "-A")
    git("commit", "-qm", "feature")
    git("checkout", "-q", "main")

    state = RepoState(repo)
    state.open()
    assert callers(state, "describe") == ["pkg/report.py::main"]
    git("checkout", "-q", "feature")
    status = state.ensure_fresh()
    assert status.updated_files == ["pkg/extra.py", "pkg/shapes.py"]
    assert callers(state, "describe") == ["pkg/extra.py::feature", "pkg/report.py::main"]
    assert [s.id for s in state.index.lookup("Round")] == ["pkg/shapes.py::Round"]
    git("checkout", "-q", "main")
    status = state.ensure_fresh()
    assert status.updated_files == ["pkg/extra.py", "pkg/shapes.py"]
    assert callers(state, "describe") == ["pkg/report.py::main"]
    assert state.index.lookup("Round") == []
    state.close()


def test_an_index_run_by_another_process_is_adopted(repo: Path) -> None:
    state = RepoState(repo)
    state.open()
    with (repo / "pkg/report.py").open("a") as fh:
        fh.write("\n\ndef summary() -> str:\n    return describe(Square(3))\n")
    api.index(repo, jobs=1)  # `astrag watch` or another server got there first
    runs: list[int] = []
    state.updater = lambda root, n: runs.append(n)  # type: ignore[assignment,return-value]
    status = state.ensure_fresh()
    assert runs == []  # nothing left to index: this process only re-read the index
    assert status.updated_files == ["pkg/report.py"]
    assert callers(state, "describe") == ["pkg/report.py::main", "pkg/report.py::summary"]
    state.close()


def test_a_touched_file_costs_one_update_then_none(repo: Path) -> None:
    state = RepoState(repo)
    state.open()
    runs: list[int] = []
    real = state.updater

    def counting(root: Path, changes: int) -> object:
        runs.append(changes)
        return real(root, changes)

    state.updater = counting  # type: ignore[assignment]
    # same content, new mtime (a `touch`, a checkout of the same blob): the indexer hashes it,
    # refreshes the record, and later checks are quiet again
    os.utime(repo / "pkg/report.py", ns=(1, 1))
    os.utime(repo / "pkg/report.py", ns=(2, 2))
    state.ensure_fresh()
    state.ensure_fresh()
    state.ensure_fresh()
    assert len(runs) == 1
    state.close()
