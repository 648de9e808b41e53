"""Fault benchmark: `astrag index` killed at random points, on each store, while a second
repository is read and indexed on the same store.

For each store (SQLite; PostgreSQL when ``--pg`` names a server or ``--pgserver`` starts one
from the ``pgserver`` wheel) and each run kind — a first index, a ``--rebuild`` and an
incremental run — ``--kills`` times: the tree of repository A is switched between two versions
(so the run has work to do and its result differs from the index before it), the run is started
as a real process and sent SIGKILL, SIGTERM or SIGINT at a random point of its expected
duration. Then, counted:

* **stalls**: operations on repository B (searches, stats, an incremental index run every few
  reads, from a thread running all along) that took over 10 s;
* **survivors**: processes of the killed run alive 5 s after the kill (its workers), and, on
  PostgreSQL, server sessions it opened still there 5 s after;
* **busy**: the next `astrag index` of A refused as locked by the dead run;
* **integrity / logical**: ``PRAGMA integrity_check`` not ok, or a reader seeing anything but
  the index before the killed run or after it (an empty index included; after a killed first
  index "no index yet" with exit 2 is the right answer);
* **unclean**: the next run's graph differs from a from-scratch index of the same tree.

    python bench/faults.py --kills 30 [--pgserver] [--repo-a rich] [--repo-b rxjs]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import astrag
from astrag import api
from astrag.errors import AstragError

DATA = Path(__file__).resolve().parent / "data"
CORPORA = {"rich": DATA / "py-acc" / "rich", "rxjs": DATA / "ts-classes" / "rxjs"}
SRC = str(Path(astrag.__file__).resolve().parent.parent)
STALL_S = 10.0
KINDS = ("first", "rebuild", "incremental")
SIGNALS = (signal.SIGKILL, signal.SIGTERM, signal.SIGINT)


def env(store: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC, "ASTRAG_STORE": store or "sqlite"}


def start(repo: Path, store: str, *args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "astrag.cli", "index", str(repo), "--no-embed"]
    return subprocess.Popen(
        [*command, *args, "--format", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(store),
    )  # fmt: skip


def run_index(repo: Path, store: str, *args: str) -> tuple[int, dict[str, object]]:
    proc = start(repo, store, *args)
    out, _ = proc.communicate(timeout=900)
    try:
        return proc.returncode, json.loads(out)
    except ValueError:
        return proc.returncode, {}


def graph(repo: Path, store: str) -> tuple[object, ...] | None:
    try:
        with api.open_index(repo, store=store or None) as idx:
            symbols, edges = idx.graph()
    except AstragError:
        return None  # no index (yet)
    return (
        tuple(sorted((s.id, s.kind, s.start_line, s.end_line) for s in symbols)),
        tuple(sorted((e.source, e.target, str(e.kind), e.path, e.line, e.column) for e in edges)),
    )


def versions(source: Path) -> dict[str, dict[str, bytes | None]]:
    """Two versions of the tree: as shipped, and with a tenth of its files changed (a def
    renamed, so edges move), one deleted and one added."""
    files = sorted(p for p in source.rglob("*") if p.is_file() and p.suffix in (".py", ".ts"))
    v2: dict[str, bytes | None] = {}
    for i, path in enumerate(files[::10]):
        rel = path.relative_to(source).as_posix()
        text = path.read_bytes()
        v2[rel] = text.replace(b"def ", b"def v2_", 1).replace(b"function ", b"function v2", 1)
        if i == 3:
            v2[rel] = None  # deleted in v2
    v2["added_in_v2" + files[0].suffix] = files[0].read_bytes()
    v1 = {rel: ((source / rel).read_bytes() if (source / rel).exists() else None) for rel in v2}
    return {"v1": v1, "v2": v2}


def switch(repo: Path, version: dict[str, bytes | None]) -> None:
    for rel, data in version.items():
        path = repo / rel
        if data is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


def children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry))
    return found


def alive(pids: set[int]) -> set[int]:
    live = set()
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                live.add(pid)
        except OSError:
            continue
    return live


def pg_sessions(url: str, pid: int) -> int:
    if not url:
        return 0
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE %s",
            (f"astrag pid {pid} %",),
        ).fetchone()
    return int(row[0]) if row else 0


class Companion(threading.Thread):
    """Repository B, read and re-indexed all along on the same store; the slowest calls."""

    def __init__(self, repo: Path, store: str) -> None:
        super().__init__(daemon=True)
        self.repo, self.store = repo, store
        self.stop = threading.Event()
        self.stalls: list[tuple[str, float]] = []
        self.errors: list[str] = []
        self.ops = 0
        self.slowest = 0.0

    def timed(self, name: str, fn: object) -> None:
        started = time.monotonic()
        try:
            fn()  # type: ignore[operator]
        except Exception as exc:  # counted and reported, never fatal
            self.errors.append(f"{name}: {type(exc).__name__}: {exc}"[:200])
        took = time.monotonic() - started
        self.ops += 1
        self.slowest = max(self.slowest, took)
        if took > STALL_S:
            self.stalls.append((name, round(took, 1)))

    def read(self) -> None:
        with api.open_index(self.repo, store=self.store or None) as idx:
            idx.search("subscribe to an observable", 5, mode="lexical")
            idx.stats()

    def write(self) -> None:
        target = next(iter(sorted(self.repo.rglob("*.ts"))))
        target.write_text(target.read_text() + "\n")
        api.index(self.repo, store=self.store or None, embedder="none", jobs=1)

    def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            self.timed(
                "write B" if n % 5 == 4 else "read B", self.write if n % 5 == 4 else self.read
            )
            n += 1
            time.sleep(0.05)


def trial(
    kind: str, repo: Path, store: str, vers: dict[str, dict[str, bytes | None]],
    clean: dict[str, object], state: dict[str, str], rng: random.Random, duration: float,
) -> dict[str, object]:  # fmt: skip
    """One kill; returns what went wrong (empty lists and zeros when nothing did)."""
    url = store
    before_version = state["version"]
    target = "v2" if before_version == "v1" else "v1"
    if kind == "first":
        if url:
            from astrag.config import load_config
            from astrag.store.open import make_store

            s = make_store(repo, load_config(repo), readonly=False, url=url)
            s.drop_repository()  # type: ignore[attr-defined]
            s.close()
        else:
            shutil.rmtree(repo / ".astrag", ignore_errors=True)
        before = None
    else:
        before = clean[before_version]
    switch(repo, vers[target])
    sig = rng.choice(SIGNALS)
    proc = start(repo, store, *(("--rebuild",) if kind == "rebuild" else ()))
    deadline = time.monotonic() + duration * rng.uniform(0.05, 1.0)
    workers: set[int] = set()
    while time.monotonic() < deadline and proc.poll() is None:
        workers |= children(proc.pid)
        time.sleep(0.02)
    finished = proc.poll() is not None
    if not finished:
        workers |= children(proc.pid)
        proc.send_signal(sig)
    proc.communicate(timeout=120)
    waited = time.monotonic() + 5  # what is still there 5 s after the kill
    while time.monotonic() < waited and (alive(workers) or pg_sessions(url, proc.pid)):
        time.sleep(0.1)
    out: dict[str, object] = {
        "kind": kind, "signal": signal.Signals(sig).name, "finished_first": finished,
        "survivors": len(alive(workers)), "sessions": pg_sessions(url, proc.pid),
        "integrity": 0, "logical": 0, "busy": 0, "unclean": 0,
    }  # fmt: skip
    db = repo / ".astrag" / "index.db"
    if not url and db.exists():
        with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as conn:
            out["integrity"] = int(conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok")
    seen = graph(repo, store)
    allowed = [clean[target]] + ([before] if before is not None else [None])
    out["logical"] = int(seen not in allowed)
    code, summary = run_index(repo, store)
    out["busy"] = int(summary.get("error") == "IndexLocked")
    if code == 0:
        state["version"] = target
    out["unclean"] = int(code != 0 or graph(repo, store) != clean[target])
    return out


def bench_store(args: argparse.Namespace, store: str, label: str) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix=f"faults-{label}-"))
    repo_a, repo_b = work / "a", work / "b"
    shutil.copytree(CORPORA[args.repo_a], repo_a, ignore=shutil.ignore_patterns(".astrag"))
    shutil.copytree(CORPORA[args.repo_b], repo_b, ignore=shutil.ignore_patterns(".astrag"))
    vers = versions(repo_a)
    clean: dict[str, object] = {}
    durations = []
    for name in ("v2", "v1"):
        ref = work / f"clean-{name}"
        shutil.copytree(repo_a, ref)
        switch(ref, vers[name])
        started = time.monotonic()
        code, _ = run_index(ref, store)
        durations.append(time.monotonic() - started)
        assert code == 0, f"indexing the reference tree {name} failed"
        clean[name] = graph(ref, store)
    duration = max(durations)
    switch(repo_a, vers["v1"])
    run_index(repo_a, store)
    run_index(repo_b, store)
    state = {"version": "v1"}
    companion = Companion(repo_b, store)
    companion.start()
    rng = random.Random(args.seed)
    trials = []
    try:
        for i in range(args.kills):
            for kind in KINDS:
                trials.append(trial(kind, repo_a, store, vers, clean, state, rng, duration))
            print(f"{label}: {i + 1}/{args.kills} rounds", file=sys.stderr, flush=True)
    finally:
        companion.stop.set()
        companion.join(timeout=120)
    shutil.rmtree(work, ignore_errors=True)
    keys = ("survivors", "sessions", "busy", "integrity", "logical", "unclean")
    result: dict[str, object] = {"store": label, "expected_run_s": round(duration, 1)}
    for kind in KINDS:
        mine = [t for t in trials if t["kind"] == kind]
        result[kind] = {
            "kills": sum(1 for t in mine if not t["finished_first"]),
            "finished_before_the_kill": sum(1 for t in mine if t["finished_first"]),
            **{k: sum(int(t[k]) for t in mine) for k in keys},  # type: ignore[call-overload]
        }
    result["trials"] = trials
    result["companion"] = {
        "operations": companion.ops, "stalls_over_10s": len(companion.stalls),
        "slowest_s": round(companion.slowest, 2), "errors": companion.errors[:5],
    }  # fmt: skip
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=30, help="per run kind and store")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repo-a", default="rich", choices=sorted(CORPORA))
    parser.add_argument("--repo-b", default="rxjs", choices=sorted(CORPORA))
    parser.add_argument("--pg", default="", help="a postgresql:// URL to run against too")
    parser.add_argument("--pgserver", action="store_true", help="start one from pgserver")
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    stores = [] if args.no_sqlite else [("", "sqlite")]
    if args.pgserver:
        import pgserver

        server = pgserver.get_server(
            Path(tempfile.mkdtemp(prefix="faults-pg-")), cleanup_mode="delete"
        )
        args.pg = server.get_uri()
    if args.pg:
        stores.append((args.pg, "postgresql"))
    results = [bench_store(args, url, label) for url, label in stores]
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
