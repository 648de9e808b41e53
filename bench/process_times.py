"""Where each process of a command's tree spent its life: on a CPU, waiting for one, or blocked.

    python3 bench/process_times.py -- astrag index DIR --rebuild --no-embed

Linux only. Every 20 ms the tree under the command is listed (``/proc/<pid>/task/*/children``)
and each process's ``/proc/<pid>/task/*/schedstat`` read: nanoseconds on a CPU and nanoseconds
runnable but waiting for one. What is left of a process's life is time it was blocked — on a
pipe, a lock, a child — which is the pipeline's doing, not the machine's: on a shared machine
other jobs inflate the waiting, not the blocking. So a parser process that is never blocked was
never starved of work, however loaded the machine, and the blocked time of the others says
which waits on which. A process that lives less than a sample is missed; its parent's life
covers it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

_TICK = 0.02


@dataclass
class ProcessTime:
    pid: int
    first: float  # seconds after the command started when the process was first seen
    last: float
    cpu: float  # seconds on a CPU (all its threads)
    runnable: float  # seconds ready to run but waiting for a CPU
    main: bool = False

    @property
    def blocked(self) -> float:
        return max(0.0, self.last - self.first - self.cpu - self.runnable)


def schedstat(pid: int) -> tuple[float, float] | None:
    """(on-CPU, runnable-waiting) seconds of every thread of ``pid``; None once it is gone,
    or has ended and waits to be reaped (a zombie: its parent may reap it much later)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        if stat[stat.rindex(")") + 2 :].startswith("Z"):
            return None
        cpu = wait = 0
        for task in os.listdir(f"/proc/{pid}/task"):
            on, waiting, _ = Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()
            cpu += int(on)
            wait += int(waiting)
    except (OSError, ValueError):
        return None
    return cpu / 1e9, wait / 1e9


def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            found += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    except (OSError, ValueError):
        pass
    return found


def watch(command: list[str]) -> tuple[float, list[ProcessTime]]:
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    seen: dict[int, ProcessTime] = {}
    while proc.poll() is None:
        todo = [proc.pid]
        while todo:
            pid = todo.pop()
            todo += children(pid)
            stat = schedstat(pid)
            if stat is None:
                continue
            now = time.perf_counter() - start
            record = seen.setdefault(pid, ProcessTime(pid, now, now, 0, 0, pid == proc.pid))
            record.last, (record.cpu, record.runnable) = now, stat
        time.sleep(_TICK)
    return time.perf_counter() - start, sorted(seen.values(), key=lambda r: (r.first, r.pid))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give a command after --")
    wall, rows = watch(command)
    for r in rows:
        print(
            f"pid {r.pid}{' (the command)' if r.main else ''}: {r.first:6.2f}-{r.last:6.2f} s, "
            f"on a CPU {r.cpu:6.2f} s, waiting for one {r.runnable:6.2f} s, "
            f"blocked {r.blocked:6.2f} s"
        )
    cpu = sum(r.cpu for r in rows)
    print(f"wall {wall:.2f} s, CPU {cpu:.2f} s ({cpu / wall:.2f} cores busy), "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    if args.json:
        figures = [{**asdict(r), "blocked": r.blocked} for r in rows]
        args.json.write_text(json.dumps({"wall": wall, "processes": figures}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
