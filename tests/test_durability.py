"""An index is never lost, never stuck, never half seen: real `astrag index` processes killed
with SIGINT and SIGKILL at random points of a first index, a rebuild and an incremental run,
readers running through a rebuild, and the workers a killed run leaves (none may survive).

The repository is generated (260 files, enough for the indexer to fork parser and resolver
processes); each kill is checked against the two states a reader may see — the index before
the run or after it, never a third — and the next run must give the graph a clean index of the
same tree gives. The fault benchmark (bench/faults.py) does the same 30 times per run kind, on
real corpora and both stores.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import astrag
from astrag import api

SRC = str(Path(astrag.__file__).resolve().parent.parent)
FILES = 260
Graph = tuple[list[tuple[object, ...]], list[tuple[object, ...]]]


def generate(root: Path, files: int = FILES, salt: str = "") -> None:
    """A package whose modules import, call and subclass each other."""
    (root / "pkg").mkdir(parents=True, exist_ok=True)
    (root / "pkg" / "__init__.py").write_text("")
    for i in range(files):
        j, k = (i * 7 + 3) % files, (i * 13 + 5) % files
        (root / "pkg" / f"m{i}.py").write_text(
            f"from pkg.m{j} import f{j}, C{j}\n"
            f"from pkg import m{k}\n\n\n"
            f"class C{i}(C{j} if {i} > {j} else object):\n"
            f"    def run{salt}(self, x: int) -> int:\n"
            f"        return f{j}(x) + m{k}.f{k}(x)\n\n\n"
            f"def f{i}(x: int) -> int:\n"
            f"    return C{i}().run{salt}(x) if x else {i}\n"
        )


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC, "ASTRAG_STORE": "sqlite"}


def start_index(repo: Path, *args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "astrag.cli", "index", str(repo), "--no-embed", "--jobs", "2"]
    return subprocess.Popen(
        [*command, *args, "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(),
    )


def index(repo: Path, *args: str) -> dict[str, object]:
    proc = start_index(repo, *args)
    out, errs = proc.communicate(timeout=300)
    assert proc.returncode == 0, errs
    return json.loads(out)


def graph(repo: Path) -> Graph:
    """The whole graph, order-free: what a reader sees."""
    with api.open_index(repo) as idx:
        symbols, edges = idx.graph()
    return (
        sorted((s.id, s.kind, s.start_line, s.end_line) for s in symbols),
        sorted((e.source, e.target, str(e.kind), e.path, e.line, e.column) for e in edges),
    )


def integrity(repo: Path) -> str:
    db = (repo / ".astrag" / "index.db").resolve()
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def children(pid: int) -> set[int]:
    """Live processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry))
    return found


def alive(pids: set[int]) -> set[int]:
    live = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            live.add(pid)
    return live


def kill_midway(proc: subprocess.Popen[str], sig: int, delay: float) -> tuple[bool, set[int]]:
    """Send ``sig`` after ``delay`` s (or when the run ends); (finished first, its workers)."""
    workers: set[int] = set()
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline and proc.poll() is None:
        workers |= children(proc.pid)
        time.sleep(0.02)
    if proc.poll() is not None:
        proc.communicate()
        return True, workers
    workers |= children(proc.pid)
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    return False, workers


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[float, dict[str, Graph]]:
    """How long a first index of the generated repository takes here (kill points scale with
    it), and the graphs clean indexes of both versions of the tree give."""
    graphs: dict[str, Graph] = {}
    took = 0.0
    for salt in ("", "_v2"):
        repo = tmp_path_factory.mktemp("clean")
        generate(repo, salt=salt)
        started = time.monotonic()
        index(repo)
        took = time.monotonic() - started
        graphs[salt] = graph(repo)
    return took, graphs


# (signal, when as a share of a first index's time); SIGTERM and many more in bench/faults.py
KILLS = [(signal.SIGKILL, 0.4), (signal.SIGINT, 0.7)]


@pytest.mark.parametrize(("sig", "at"), KILLS)
@pytest.mark.parametrize("kind", ["first", "rebuild", "incremental"])
def test_a_killed_run_leaves_the_previous_index_whole_and_no_worker_behind(
    tmp_path: Path, clean: tuple[float, dict[str, Graph]], kind: str, sig: int, at: float
) -> None:
    took, graphs = clean
    repo = tmp_path / "repo"
    generate(repo)
    before = None
    if kind != "first":
        index(repo)
        before = graph(repo)
        generate(repo, salt="_v2")  # every method renamed: the new index differs everywhere
    args = ("--rebuild",) if kind == "rebuild" else ()
    rng = random.Random(f"{kind}{sig}{at}")
    finished, workers = kill_midway(
        start_index(repo, *args), sig, took * at * rng.uniform(0.8, 1.2)
    )

    deadline = time.monotonic() + 5
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(workers), f"workers outlived their killed parent: {alive(workers)}"

    if kind == "first" and not finished and not (repo / ".astrag" / "index.db").exists():
        result = subprocess.run(
            [sys.executable, "-m", "astrag.cli", "stats", "--repo", str(repo)],
            capture_output=True, text=True, env=env(), check=False,
        )  # fmt: skip
        assert result.returncode == 2 and "Traceback" not in result.stderr
        index_dir = repo / ".astrag"
        started = index_dir.is_dir() and any(n.endswith(".db") for n in os.listdir(index_dir))
        if started:  # killed while writing: said so, never an empty answer
            assert "first index run was interrupted" in result.stderr, result.stderr
        else:  # killed before it wrote anything
            assert "no astrag index in" in result.stderr, result.stderr
    else:
        assert integrity(repo) == "ok"
        seen = graph(repo)
        assert seen[0], "an empty index after a killed run"
        if not finished and kind != "first":
            # killed: the old index, or (killed after the commit) the new one — nothing else
            assert seen in (before, graphs["_v2"])
    summary = index(repo)  # the next run takes the lock over at once and finishes the work
    assert summary["files"] == FILES + 1
    assert graph(repo) == graphs["" if kind == "first" else "_v2"]


def test_a_reader_during_a_rebuild_sees_the_old_index_or_the_new_one_whole(
    tmp_path: Path, clean: tuple[float, dict[str, Graph]]
) -> None:
    repo = tmp_path / "repo"
    generate(repo)
    index(repo)
    old, new = clean[1][""], clean[1]["_v2"]
    generate(repo, salt="_v2")
    held = api.open_index(repo)  # a reader holding its connection across the swap
    proc = start_index(repo, "--rebuild")
    reads = 0
    try:
        while proc.poll() is None or reads < 3:
            seen = graph(repo)
            assert seen in (old, new), "a reader saw a partial or empty index"
            with held.store.snapshot():
                counts = held.store.counts()
            assert counts["files"] == FILES + 1
            reads += 1
    finally:
        proc.communicate(timeout=120)
    assert proc.returncode == 0
    assert graph(repo) == new
    assert held.store.reopen_if_replaced() is True  # and then it moves to the new one
    held.refresh()
    assert sorted(s.id for s in held.store.all_symbols()) == [s[0] for s in new[0]]
    held.close()


def test_a_dead_runs_lock_is_taken_over_with_a_note(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    generate(repo, files=60)
    index(repo)
    (repo / "pkg" / "m1.py").write_text("def changed():\n    return 1\n")
    proc = start_index(repo, "--rebuild")
    while not children(proc.pid) and proc.poll() is None:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    summary = api.index(repo, embedder="none")
    assert any("took over the index lock" in note for note in summary.notes), summary.notes
    leftovers = [n for n in os.listdir(repo / ".astrag") if n.startswith("index.") and "-" in n]
    assert len([n for n in os.listdir(repo / ".astrag") if n.endswith(".db")]) <= 3, leftovers


def test_the_index_directory_ignores_itself_and_is_marked(tmp_path: Path) -> None:
    generate(tmp_path, files=3)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    api.index(tmp_path, embedder="none")
    assert (tmp_path / ".astrag" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert "astrag" in (tmp_path / ".astrag" / "CACHEDIR.TAG").read_text()
    status = subprocess.run(
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert ".astrag" not in status.stdout and "pkg/m0.py" in status.stdout


def test_an_index_dir_holding_other_files_is_refused_and_left_alone(tmp_path: Path) -> None:
    generate(tmp_path, files=3)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "index.db").write_bytes(b"someone else's database")
    (tmp_path / ".astrag.toml").write_text('[index]\nindex_dir = "data"\n')
    result = subprocess.run(
        [sys.executable, "-m", "astrag.cli", "index", str(tmp_path), "--no-embed"],
        capture_output=True, text=True, env=env(), check=False,
    )  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "refusing to write an astrag index" in result.stderr
    assert (tmp_path / "data" / "index.db").read_bytes() == b"someone else's database"
    assert sorted(os.listdir(tmp_path / "data")) == ["index.db"]
