"""One edited file re-indexed by a process that is already running, as ``astrag watch`` and the
MCP server re-index as files change: what the issue's "inside the process" means beside a
fresh CLI process (bench/one_edit.py).

In one interpreter, bench/speed.py's probe edits (``body``: its COMMENT appended to its probe
file; ``iface``: its FUNCTION appended) are re-indexed with ``astrag.api.index`` and restored
(the restore re-indexed, not timed), ``--rounds`` times after one warm-up pair that compiles
the queries and loads the embedder (a fresh process pays that once). Reported: each edit's
``seconds`` (astrag's own figure, as a CLI run reports it) and phases, then the median and
range per kind, and the 1-minute load average.

    python3 bench/edit_in_process.py COPY --rounds 6 [--kinds body,iface] [--json F]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import floor  # noqa: E402  (bench/ is not a package)
import speed  # noqa: E402

from astrag import api  # noqa: E402

KINDS = {"body": speed.COMMENT, "iface": speed.FUNCTION}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="an indexed copy of the corpus (edited, restored)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--kinds", default="body,iface")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    root = args.root.resolve()
    probe = speed.pick_probe_file(floor.list_source_files(root), root)
    key = {**speed.PROBE_SUFFIXES, **speed.JS_PROBE_SUFFIXES}[probe.suffix]
    kinds = [k for k in args.kinds.split(",") if k]
    runs: dict[str, list[dict[str, object]]] = {k: [] for k in kinds}
    for round_ in range(args.rounds + 1):
        for kind in kinds:
            load = os.getloadavg()[0]
            with speed.appended(probe, KINDS[kind][key]):
                summary = api.index(root)
            api.index(root)  # the restore, not timed
            if round_:  # the first round is the warm-up
                run = {"seconds": summary.seconds, "timings": summary.timings, "load": load}
                runs[kind].append(run)
                print(kind, json.dumps(run), flush=True)
    print(f"probe {probe.relative_to(root)}")
    for kind, kept in runs.items():
        seconds = [float(r["seconds"]) for r in kept]  # type: ignore[arg-type]
        print(
            f"median {kind}: {statistics.median(seconds):.3f} s "
            f"({min(seconds):.3f}-{max(seconds):.3f}), {len(seconds)} edits"
        )
    if args.json:
        args.json.write_text(json.dumps(runs, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
