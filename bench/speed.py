"""Index speed and memory against the parse floor, measured in one run so both see the same load.

For one corpus directory:

  floor         floor.py's tags phase (read + tree-sitter parse + tags queries), one process
  cold          ``astrag index --rebuild --format json DIR``: a full index from nothing
  unchanged     the same without --rebuild, nothing changed on disk
  body edit     a comment line appended to a mid-sized source file, re-index; then the file
                restored and re-indexed again
  interface     a new exported/top-level function appended to that file, re-index; restored
                and re-indexed

floor and cold alternate ``--repeat`` times (machine noise then hits both) and their medians
give the ratio. Every command runs in a fresh subprocess, timed from spawn to exit, so the
index's wall time includes interpreter start and imports, which a user waits for too; the
times astrag and floor.py report for their own work are kept beside it.

Peak RSS is ``ru_maxrss`` from ``os.wait4`` on the spawned process: Linux reports the larger
of the process's own peak and that of the largest descendant it reaped. astrag's parser and
resolver workers are forked and joined, so this is the peak of the biggest single process in
the tree, not a sum: forked workers share the parent's pages copy-on-write, and a sum would
count those pages once per worker. CPU seconds are the tree's user + system time.

astrag's modules are compiled to bytecode before anything is timed, as installing a package
does: a checkout run with ``PYTHONDONTWRITEBYTECODE`` set (as some machines set it) would
otherwise compile every module again in every timed run.

``--baseline-ts-oracle`` also times the TypeScript compiler oracle once (bench/oracles/
ts_calls.mjs), the "what a type checker costs" baseline.

The probe file is the median-sized non-test .py/.ts/.tsx/.java/.go file. The corpus is edited
in place
and restored in ``finally`` blocks (and on SIGTERM); the restored file keeps a new mtime, so
astrag's size+mtime check sees it changed.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import floor  # noqa: E402  (bench/ is not a package; floor.py sits beside this file)

# What the probe edits append: a comment changes no symbol; a function changes the interface.
COMMENT = {
    ".py": "# astrag speed probe\n",
    ".ts": "// astrag speed probe\n",
    ".js": "// astrag speed probe\n",
    ".rs": "// astrag speed probe\n",
    ".c": "// astrag speed probe\n",
    ".java": "// astrag speed probe\n",
    ".go": "// astrag speed probe\n",
}
FUNCTION = {
    ".py": "\n\ndef astrag_speed_probe() -> None:\n    return None\n",
    ".ts": "\nexport function astragSpeedProbe(): void {}\n",
    ".js": "\nfunction astragSpeedProbe() {}\n",  # a top-level function: CommonJS or ESM
    ".rs": "\npub fn astrag_speed_probe() {}\n",
    ".c": "\nvoid astrag_speed_probe(void) {}\n",
    ".java": "\nclass AstragSpeedProbe {}\n",  # a second top-level class (package-private)
    ".go": "\nfunc AstragSpeedProbe() {}\n",  # exported: part of the package's interface
}
# suffix -> key of the above (Rust and C: the name-level corpora)
PROBE_SUFFIXES = {
    ".py": ".py",
    ".ts": ".ts",
    ".tsx": ".ts",
    ".java": ".java",
    ".go": ".go",
    ".rs": ".rs",
    ".c": ".c",
}
# Only for a corpus with more of these than of the above (a JavaScript one).
JS_PROBE_SUFFIXES = {".js": ".js", ".mjs": ".js", ".cjs": ".js"}
TEST_PARTS = {"test", "tests", "__tests__", "spec", "fixtures", "testing"}


@dataclass
class Run:
    """One subprocess, measured from spawn to exit."""

    wall_seconds: float
    cpu_seconds: float
    peak_rss_mb: float
    output: dict = field(default_factory=dict)  # the command's JSON on stdout, if any


def measure(cmd: list[str]) -> Run:
    """Run cmd to completion; wall, tree CPU and tree peak RSS come from os.wait4."""
    # stderr goes to a file: two pipes read one after the other can deadlock on a chatty child.
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
        # communicate() would reap the child itself and lose its rusage: read, then wait4.
        assert proc.stdout is not None
        stdout = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        proc.stdout.close()
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{err.read()[-2000:]}")
    try:
        output = json.loads(stdout) if stdout.strip() else {}
    except json.JSONDecodeError:
        output = {}
    return Run(
        wall_seconds=round(wall, 3),
        cpu_seconds=round(usage.ru_utime + usage.ru_stime, 3),
        peak_rss_mb=round(usage.ru_maxrss / 1024, 1),  # KiB on Linux
        output=output,
    )


def run_floor(root: Path) -> Run:
    return measure([sys.executable, str(BENCH / "floor.py"), str(root), "--phase", "tags"])


def run_index(root: Path, rebuild: bool, jobs: int | None, embedder: str | None = None) -> Run:
    cmd = ["astrag", "index", "--format", "json", str(root)]
    if rebuild:
        cmd.insert(2, "--rebuild")
    if jobs:
        cmd[2:2] = ["--jobs", str(jobs)]
    if embedder:
        cmd[2:2] = ["--embedder", embedder]
    return measure(cmd)


def run_ts_oracle(root: Path) -> Run:
    oracle = BENCH / "oracles" / "ts_calls.mjs"
    return measure(["node", str(oracle), str(root), "--out", os.devnull])


def _is_test(path: Path) -> bool:
    name = path.name
    return bool(TEST_PARTS.intersection(path.parts)) or (
        name.startswith("test_")
        or ".spec." in name
        or ".test." in name
        or name.endswith("_test.go")
    )


def pick_probe_file(files: list[Path], root: Path) -> Path:
    """The median-sized non-test .py/.ts/.tsx/.go file (.js/.mjs/.cjs in a mostly-JavaScript
    corpus): a typical edit, neither a stub nor a giant.

    Tests and fixtures are passed over where possible: nothing imports them, so an interface
    edit there would never show how far invalidation spreads (typeorm's median file overall is
    a 672-byte codemod fixture)."""
    typed = [f for f in files if f.suffix in PROBE_SUFFIXES]
    plain = [f for f in files if f.suffix in JS_PROBE_SUFFIXES]
    sources = plain if len(plain) > len(typed) else typed
    candidates = sorted(
        [f for f in sources if not _is_test(f.relative_to(root))] or sources,
        key=lambda f: (f.stat().st_size, f),
    )
    if not candidates:
        raise SystemExit("speed: no .py/.ts/.tsx/.java/.go/.rs/.c (or .js) file to edit")
    return candidates[len(candidates) // 2]


@contextmanager
def appended(path: Path, text: str) -> Iterator[None]:
    """Append text to path for the duration of the block; always put the original back."""
    original = path.read_bytes()
    sep = b"" if original.endswith(b"\n") or not original else b"\n"
    try:
        path.write_bytes(original + sep + text.encode("utf-8"))
        yield
    finally:
        path.write_bytes(original)


def incremental(
    root: Path, probe: Path, jobs: int | None, embedder: str | None = None
) -> dict[str, Run]:
    """Re-index with nothing changed, after a body edit, after an interface edit; each edit is
    followed by a re-index of the restored file."""
    key = {**PROBE_SUFFIXES, **JS_PROBE_SUFFIXES}[probe.suffix]
    runs = {"unchanged": run_index(root, rebuild=False, jobs=jobs, embedder=embedder)}
    with appended(probe, COMMENT[key]):
        runs["body_edit"] = run_index(root, rebuild=False, jobs=jobs, embedder=embedder)
    runs["body_restore"] = run_index(root, rebuild=False, jobs=jobs, embedder=embedder)
    with appended(probe, FUNCTION[key]):
        runs["interface_edit"] = run_index(root, rebuild=False, jobs=jobs, embedder=embedder)
    runs["interface_restore"] = run_index(root, rebuild=False, jobs=jobs, embedder=embedder)
    return runs


def _median_run(runs: list[Run]) -> Run:
    """The run with the median wall time (lower median for an even count), whole, so its
    CPU, RSS and output belong together."""
    ordered = sorted(runs, key=lambda r: r.wall_seconds)
    return ordered[(len(ordered) - 1) // 2]


def benchmark(
    root: Path,
    repeat: int,
    jobs: int | None,
    ts_oracle: bool,
    embedder: str | None = None,
    cold_only: bool = False,
) -> dict:
    files = floor.list_source_files(root)
    if not files:
        raise SystemExit(f"speed: no source files under {root}")
    for path in files:  # warm the page cache so no run pays for the disk
        path.read_bytes()
    probe = pick_probe_file(files, root)

    floors: list[Run] = []
    colds: list[Run] = []
    for _ in range(repeat):  # interleaved: a burst of load hits both series
        floors.append(run_floor(root))
        colds.append(run_index(root, rebuild=True, jobs=jobs, embedder=embedder))
    result = {
        "root": str(root),
        "repeat": repeat,
        "jobs": jobs,
        "cpus": os.cpu_count(),
        "probe_file": str(probe.relative_to(root)),
        "probe_bytes": probe.stat().st_size,
        "floor_runs": [asdict(r) for r in floors],
        "cold_runs": [asdict(r) for r in colds],
        "floor": asdict(_median_run(floors)),
        "cold": asdict(_median_run(colds)),
        "embedder": embedder or "default",
        "incremental": {}
        if cold_only
        else {k: asdict(v) for k, v in incremental(root, probe, jobs, embedder).items()},
    }
    if ts_oracle:
        result["ts_oracle"] = asdict(run_ts_oracle(root))
    result["ratios"] = ratios(result)
    return result


def _ratio(num: float | None, den: float | None) -> float | None:
    return round(num / den, 2) if num is not None and den else None


def ratios(result: dict) -> dict[str, float | None]:
    """index / floor, as process walls (what a user waits for), as the in-process times each
    tool reports for its own work (no interpreter start, imports or grammar loading), and as
    CPU seconds (which load on the machine inflates less)."""
    fl, cold = result["floor"], result["cold"]
    out = {
        "wall": _ratio(cold["wall_seconds"], fl["wall_seconds"]),
        "in_process": _ratio(cold["output"].get("seconds"), fl["output"].get("seconds")),
        "cpu": _ratio(cold["cpu_seconds"], fl["cpu_seconds"]),
    }
    if "ts_oracle" in result:
        out["ts_oracle_wall"] = _ratio(result["ts_oracle"]["wall_seconds"], fl["wall_seconds"])
    return out


MARKDOWN_HEADER = (
    "| corpus | files | lines | floor s | index s | × floor (wall / in-proc / CPU) "
    "| peak RSS MB (floor / index) | unchanged s | body edit s (parsed, resolved) | restore s "
    "| interface edit s (resolved) | tsc oracle s (× floor) |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def markdown_row(result: dict, name: str) -> str:
    fl, cold, inc, r = result["floor"], result["cold"], result["incremental"], result["ratios"]
    out = cold["output"]

    def x(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.1f}×"

    def edit(run: dict, with_parsed: bool) -> str:
        o = run["output"]
        counts = f"{o.get('parsed')}, {o.get('resolved_files')}" if with_parsed else ""
        return f"{run['wall_seconds']:.2f} ({counts or o.get('resolved_files')})"

    tsc = "–"
    if "ts_oracle" in result:
        tsc = f"{result['ts_oracle']['wall_seconds']:.1f} ({x(r['ts_oracle_wall'])})"
    cells = [
        name,
        f"{out.get('files', 0):,}",
        f"{out.get('lines', 0):,}",
        f"{fl['wall_seconds']:.2f}",
        f"{cold['wall_seconds']:.2f}",
        f"{x(r['wall'])} / {x(r['in_process'])} / {x(r['cpu'])}",
        f"{fl['peak_rss_mb']:.0f} / {cold['peak_rss_mb']:.0f}",
        *(
            [
                f"{inc['unchanged']['wall_seconds']:.2f}",
                edit(inc["body_edit"], with_parsed=True),
                f"{inc['body_restore']['wall_seconds']:.2f}",
                edit(inc["interface_edit"], with_parsed=False),
            ]
            if inc
            else ["–"] * 4  # --cold-only
        ),
        tsc,
    ]
    return "| " + " | ".join(cells) + " |"


def format_details(result: dict) -> str:
    """The lines under the table row: what the medians came from and where the time went."""
    cold, fl = result["cold"], result["floor"]
    walls = ", ".join(f"{r['wall_seconds']:.2f}" for r in result["cold_runs"])
    floor_walls = ", ".join(f"{r['wall_seconds']:.2f}" for r in result["floor_runs"])
    timings = ", ".join(f"{k} {v:.2f}" for k, v in cold["output"].get("timings", {}).items())
    inc = result["incremental"]
    probe = f"probe file: {result['probe_file']} ({result['probe_bytes']:,} bytes); "
    if inc:
        probe += (
            f"interface restore {inc['interface_restore']['wall_seconds']:.2f} s "
            f"(resolved {inc['interface_restore']['output'].get('resolved_files')})"
        )
    else:
        probe += "re-index runs skipped (--cold-only)"
    return "\n".join(
        [
            f"cold index walls: {walls} (median {cold['wall_seconds']:.2f}); "
            f"astrag-reported {cold['output'].get('seconds')} s: {timings}",
            f"floor walls: {floor_walls} (median {fl['wall_seconds']:.2f}); "
            f"tags phase in-process {fl['output'].get('seconds')} s",
            probe,
            "peak RSS: os.wait4 ru_maxrss, the largest single process in the tree (astrag or "
            "one of its forked workers), not a sum",
        ]
    )


def compile_astrag() -> None:
    """Write the bytecode of the ``astrag`` package this interpreter imports (the one the
    ``astrag`` script on PATH runs, in a venv), as ``pip install`` does for an installed one."""
    spec = importlib.util.find_spec("astrag")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            compileall.compile_dir(location, quiet=1)


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds through appended(): the probe file is restored


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="corpus directory (edited and restored)")
    parser.add_argument("--repeat", type=int, default=3, help="floor/cold-index pairs (median)")
    parser.add_argument("--jobs", type=int, help="astrag index --jobs (default: astrag's)")
    parser.add_argument(
        "--embedder", help="astrag index --embedder (default: astrag's; 'none': graph only)"
    )
    parser.add_argument("--name", help="corpus name in the table row (default: DIR's last two)")
    parser.add_argument("--json", type=Path, help="write the full result as JSON here")
    parser.add_argument(
        "--baseline-ts-oracle", action="store_true", help="also time ts_calls.mjs once"
    )
    parser.add_argument("--no-header", action="store_true", help="print the table row only")
    parser.add_argument(
        "--cold-only", action="store_true", help="floor and cold index only, no re-index runs"
    )
    args = parser.parse_args(argv)

    root = args.root.resolve()
    if not root.is_dir():
        parser.error(f"{root} is not a directory")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    compile_astrag()
    result = benchmark(
        root, args.repeat, args.jobs, args.baseline_ts_oracle, args.embedder, args.cold_only
    )
    name = args.name or "/".join(root.parts[-2:])
    if not args.no_header:
        print(MARKDOWN_HEADER)
    print(markdown_row(result, name))
    print()
    print(format_details(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
