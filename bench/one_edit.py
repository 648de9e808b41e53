"""One edited file re-indexed, two astrag installations alternating: how an A/B of the
incremental path is measured on a shared machine.

For each round and each kind of change (``noop``: nothing; ``body``: bench/speed.py's COMMENT
appended to its probe file; ``iface``: its FUNCTION appended), ``astrag index --format json
ROOT`` runs as a CLI process; the file is then restored and re-indexed (not timed). Each side
has its own copy of the corpus (an index written by one installation may look stale to the
other). Reported per run: the ``seconds`` astrag reports for its own work (in the process),
its phase timings, the wall from spawn to exit, the process tree's user + system CPU
(``os.wait4``) and the 1-minute load average before it; then medians per side and kind. The
sides alternate which goes first each round, so a burst of load hits both.

    python3 bench/one_edit.py --side main /path/to/main-venv/bin/astrag COPY_A \\
        --side branch .venv/bin/astrag COPY_B --rounds 6
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import floor  # noqa: E402  (bench/ is not a package)
import speed  # noqa: E402

KINDS = ("noop", "body", "iface")


def index_once(astrag: str, root: Path) -> dict[str, object]:
    """One ``astrag index --format json root``: its own seconds and phases, wall, CPU."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    load = os.getloadavg()[0]
    started = time.perf_counter()
    proc = subprocess.Popen(
        [astrag, "index", "--format", "json", str(root)], stdout=subprocess.PIPE, env=env
    )
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"one_edit: {astrag} index {root} failed ({status})")
    summary = json.loads(out)
    return {
        "seconds": summary["seconds"],
        "timings": summary.get("timings", {}),
        "wall": round(wall, 3),
        "cpu": round(usage.ru_utime + usage.ru_stime, 3),
        "load": round(load, 2),
    }


def measure(astrag: str, root: Path, kind: str) -> dict[str, object]:
    """The re-index after a change of ``kind``; the corpus is as before afterwards."""
    if kind == "noop":
        return index_once(astrag, root)
    probe = speed.pick_probe_file(floor.list_source_files(root), root)
    key = {**speed.PROBE_SUFFIXES, **speed.JS_PROBE_SUFFIXES}[probe.suffix]
    text = (speed.COMMENT if kind == "body" else speed.FUNCTION)[key]
    with speed.appended(probe, text):
        run = index_once(astrag, root)
    index_once(astrag, root)  # the restored file, so the next run starts from the same index
    return run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--side", nargs=3, action="append", required=True,
                        metavar=("NAME", "ASTRAG", "ROOT"))  # fmt: skip
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--json", type=Path, help="write every run here")
    args = parser.parse_args(argv)
    kinds = args.kinds.split(",")
    runs: dict[str, dict[str, list[dict[str, object]]]] = {
        name: {k: [] for k in kinds} for name, _, _ in args.side
    }
    for root in {Path(r) for _, _, r in args.side}:
        for path in floor.list_source_files(root):  # the page cache warm for every side
            path.read_bytes()
    for i in range(args.rounds):
        sides = args.side if i % 2 == 0 else args.side[::-1]
        for name, astrag, root in sides:
            for kind in kinds:
                run = measure(astrag, Path(root), kind)
                runs[name][kind].append(run)
                print(name, kind, json.dumps(run), flush=True)
    for name, by_kind in runs.items():
        for kind, done in by_kind.items():
            loads = [float(r["load"]) for r in done]  # type: ignore[arg-type]
            medians = {
                k: round(statistics.median(float(r[k]) for r in done), 3)  # type: ignore[arg-type]
                for k in ("seconds", "wall", "cpu")
            }
            print(f"median {name} {kind}: {medians}, load {min(loads)}-{max(loads)}")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
