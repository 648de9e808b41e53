"""Server time of every page of ``astrag web``.

    python3 bench/web_speed.py [DIR] [--requests 40] [--json FILE]

DIR (default bench/data/ts-speed/typeorm, 300k lines) is copied to a temporary directory with
its mtimes and indexed there (the original is never written to), then ``astrag web --port 0``
serves the copy. Each page is requested once to warm the server (vectors, embedder, the
ranked map and the index report are loaded on first use, as in a long-running server), then
``--requests`` times, sequentially, over HTTP on loopback:

- search (``/search?q=NAME``) and search as you type (``/api/search``), NAME the last part of
  the symbols below;
- a symbol (``/symbol/ID``) for a seeded sample of all functions and methods ("typical") and
  for the ones with the most callers ("hub");
- a file (``/file/PATH``, a seeded sample), the index (``/index``), a context
  (``/context?q=...``, task-like questions, 8,000 tokens), the map (``/map``);
- the floor: ``/api/status``, the freshness check and a small JSON answer that every page
  pays for before its own work.

The server reports each answer's time in ``Server-Timing`` (``total``: the freshness check plus
the page's API calls and rendering; ``fresh``: the check alone), which is what is reported;
the wall time at the client is shown beside it. p50 / p95, and the p50 as a multiple of the
floor's p50 in the same run (the machines are shared: ratios travel, absolute figures don't).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mcp_speed import CONTEXT_QUERIES, pick_symbols
from percentiles import percentile

from astrag import api

DEFAULT = Path(__file__).parent / "data" / "ts-speed" / "typeorm"
URL = re.compile(r"astrag web: serving .* on (http://[^/\s]+)")
TIMING = re.compile(r"(\w+);dur=([0-9.]+)")


def start(root: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    command = [sys.executable, "-m", "astrag.cli", "web", "--repo", str(root), "--port", "0"]
    with log.open("w") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ))
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        found = URL.search(log.read_text())
        if found:
            return proc, found.group(1)
        if proc.poll() is not None:
            raise SystemExit(f"astrag web exited: {log.read_text()}")
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("astrag web printed no address")


def fetch(conn: http.client.HTTPConnection, path: str) -> tuple[float, float, float]:
    """(server total ms, server freshness ms, client wall ms) of one GET."""
    started = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    wall = (time.perf_counter() - started) * 1000
    if response.status != 200:
        raise SystemExit(f"GET {path}: HTTP {response.status}")
    timing = dict(TIMING.findall(response.getheader("server-timing", "")))
    return float(timing["total"]), float(timing["fresh"]), wall


def summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(values), 1),
        "p95_ms": round(percentile(values, 0.95), 1),
    }


def plans(root: Path, n: int) -> list[tuple[str, list[str]]]:
    hubs, typical, files = pick_symbols(root, n)
    names = [s.rpartition("::")[2].rpartition(".")[2] for s in typical]
    symbol = "/symbol/{}".format
    return [
        ("floor: /api/status", ["/api/status"] * n),
        ("search page", [f"/search?q={quote(q)}" for q in names]),
        ("search as you type (/api/search)", [f"/api/search?q={quote(q)}" for q in names]),
        ("symbol (typical)", [symbol(quote(s, safe="")) for s in typical]),
        ("symbol (hub)", [symbol(quote(s, safe="")) for s in hubs]),
        ("file", [f"/file/{quote(p)}" for p in files]),
        ("index", ["/index"] * n),
        (
            "context (8,000 tokens)",
            [f"/context?q={quote(CONTEXT_QUERIES[i % len(CONTEXT_QUERIES)])}" for i in range(n)],
        ),
        ("map (4,000 tokens)", ["/map"] * n),
    ]


def measure(base: str, work: list[tuple[str, list[str]]]) -> dict[str, Any]:
    host, _, port = base.removeprefix("http://").rpartition(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=600)
    first: dict[str, float] = {}
    for name, paths in work:  # warm-up: first use loads vectors, the map, the report
        first[name] = round(fetch(conn, paths[0])[0], 1)
    report: dict[str, Any] = {"first_request_ms": first, "pages": {}}
    for name, paths in work:
        server, fresh, wall = [], [], []
        for path in paths:
            total, checked, client = fetch(conn, path)
            server.append(total)
            fresh.append(checked)
            wall.append(client)
        report["pages"][name] = {
            "server": summary(server),
            "freshness": summary(fresh),
            "client": summary(wall),
        }
    conn.close()
    return report


def markdown(report: dict[str, Any]) -> str:
    floor = report["pages"]["floor: /api/status"]["server"]["p50_ms"] or 1.0
    out = [
        "| page | n | server p50 ms | server p95 ms | p50 / floor | of which freshness p50 | "
        "client p50 ms | first request ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, page in report["pages"].items():
        s = page["server"]
        out.append(
            f"| {name} | {s['n']} | {s['p50_ms']} | {s['p95_ms']} | "
            f"{s['p50_ms'] / floor:.2f} | {page['freshness']['p50_ms']} | "
            f"{page['client']['p50_ms']} | {report['first_request_ms'][name]} |"
        )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    source = args.dir.resolve()
    with tempfile.TemporaryDirectory(prefix="astrag-web-bench-") as tmp:
        root = Path(tmp) / source.name
        shutil.copytree(source, root, symlinks=True)  # copy2: mtimes kept
        t = time.perf_counter()
        indexed = api.index(root)
        print(f"index {time.perf_counter() - t:.1f} s", file=sys.stderr)
        work = plans(root, args.requests)
        proc, base = start(root, Path(tmp) / "web.log")
        try:
            report = measure(base, work)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    report["repository"] = {"path": str(args.dir), "files": indexed.files, "lines": indexed.lines}
    print(
        f"Repository: `{args.dir}` copy, {indexed.files:,} files, {indexed.lines:,} lines.\n\n"
        + markdown(report)
    )
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
