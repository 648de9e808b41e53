"""Fresh or honest: query commands bring the index up to date first, or (``--no-refresh``) say
on stderr what it does not reflect; ``show`` and ``context`` never put a file's new text under
the names and lines of the index's older symbols."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import astrag
from astrag import api
from astrag.config import load_config
from astrag.errors import ConfigError

SRC = str(Path(astrag.__file__).resolve().parent.parent)


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/a.py", "def helper():\n    return 1\n")
    write(tmp_path, "pkg/b.py", "from pkg.a import helper\n\ndef run():\n    return helper()\n")
    api.index(tmp_path, embedder="none")
    return tmp_path


def later(path: Path) -> None:
    """Move ``path``'s mtime clearly past the index's records (coarse clocks)."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


def test_an_edit_and_a_new_file_are_indexed_before_the_answer(repo: Path) -> None:
    write(repo, "pkg/a.py", "def helper():\n    return 1\n\ndef added():\n    return 2\n")
    later(repo / "pkg" / "a.py")
    write(repo, "pkg/c.py", "from pkg.a import added\n\ndef uses():\n    return added()\n")
    time.sleep(0.2)  # past the scan's margin for coarse clocks (else one more no-op update)
    idx, status = api.open_fresh(repo)
    with idx:
        assert status.fresh and set(status.updated) >= {"pkg/a.py", "pkg"}
        assert [r.symbol.id for r in idx.callers("pkg/a.py::added")] == ["pkg/c.py::uses"]
    idx, status = api.open_fresh(repo)  # nothing changed since: no update, no warning
    idx.close()
    assert status.fresh and status.updated == []


def test_without_refresh_the_answer_says_which_paths_are_stale(repo: Path) -> None:
    write(repo, "pkg/a.py", "def helper():\n    return 10\n")
    later(repo / "pkg" / "a.py")
    (repo / "pkg" / "b.py").unlink()
    idx, status = api.open_fresh(repo, refresh=False)
    with idx:
        assert idx.get("pkg/b.py::run") is not None  # answered from the index as it is
    assert status.stale == ["pkg", "pkg/a.py", "pkg/b.py"]  # not ".": .astrag appeared there
    assert "stale" in status.warning() and "pkg/a.py" in status.warning()


def test_the_cli_refreshes_by_default_and_warns_with_no_refresh(repo: Path) -> None:
    env = {**os.environ, "PYTHONPATH": SRC, "ASTRAG_STORE": "sqlite", "COLUMNS": "200"}
    write(repo, "pkg/c.py", "from pkg.a import helper\n\ndef more():\n    return helper()\n")
    later(repo / "pkg")
    stale = subprocess.run(
        [sys.executable, "-m", "astrag.cli", "--no-refresh", "callers", "helper",
         "--repo", str(repo), "--format", "json"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert stale.returncode == 0
    assert "warning: the index is stale" in stale.stderr and "pkg" in stale.stderr
    assert "pkg/c.py::more" not in stale.stdout
    fresh = subprocess.run(
        [sys.executable, "-m", "astrag.cli", "callers", "helper", "--repo", str(repo),
         "--format", "json"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert fresh.returncode == 0 and "stale" not in fresh.stderr
    assert "pkg/c.py::more" in fresh.stdout


def test_source_of_a_file_rewritten_since_indexing_is_not_shown_under_old_names(
    repo: Path,
) -> None:
    with api.open_index(repo) as idx:
        run = idx.resolve("run")
        assert idx.source(run) == "def run():\n    return helper()"
        write(repo, "pkg/b.py", "from pkg.a import helper\n\ndef gone():\n    return 0\n")
        later(repo / "pkg" / "b.py")
        text = idx.source(run)
        assert "changed on disk since it was indexed" in text and "gone" not in text
        context = idx.context("what does run do", budget=2000)
        assert "def gone" not in context.text
    api.index(repo, embedder="none")
    with api.open_index(repo) as idx:
        assert idx.source(idx.resolve("gone")) == "def gone():\n    return 0"


def test_lines_split_as_editors_count_them(tmp_path: Path) -> None:
    write(tmp_path, "m.py", "x = '\f\u2028'\n\ndef f():\n    return 1\n")
    api.index(tmp_path, embedder="none")
    with api.open_index(tmp_path) as idx:
        assert idx.source(idx.resolve("f")) == "def f():\n    return 1"


@pytest.mark.parametrize("value", ["../elsewhere", "/tmp/astrag-elsewhere", ".", "a/../.."])
def test_an_index_dir_outside_the_repository_is_refused(tmp_path: Path, value: str) -> None:
    (tmp_path / ".astrag.toml").write_text(f'[index]\nindex_dir = "{value}"\n')
    with pytest.raises(ConfigError, match="outside the repository") as err:
        load_config(tmp_path)
    assert ".astrag.toml:2" in str(err.value) and "inside the repository" in err.value.hint


def test_an_index_dir_inside_or_in_the_user_cache_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for value in (".cache/idx", str(tmp_path / "cache" / "astrag" / "proj")):
        (tmp_path / ".astrag.toml").write_text(f'[index]\nindex_dir = "{value}"\n')
        assert load_config(tmp_path).index_dir == value


def test_watchdog_ends_a_worker_forked_off_the_main_thread_when_its_parent_dies(
    tmp_path: Path,
) -> None:
    """PR_SET_PDEATHSIG follows the forking thread, so forks from other threads rely on the
    pipe watchdog: the worker must still exit when the parent is SIGKILLed."""
    script = textwrap.dedent(
        """
        import os, sys, threading, time
        import astrag.lifeline
        def fork():
            pid = os.fork()
            if pid == 0:
                time.sleep(600)
                os._exit(0)
            print(pid, flush=True)
        t = threading.Thread(target=fork)
        t.start(); t.join()
        time.sleep(600)
        """
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": SRC},
    )  # fmt: skip
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            break
        if state == "Z":
            break
        time.sleep(0.05)
    else:
        os.kill(child, 9)
        pytest.fail("the worker outlived its parent by 5 s")
