"""Speed of ``astrag mcp`` through a real MCP client: tool-call latency, freshness, edits.

    python3 bench/mcp_speed.py [DIR] [--calls 40] [--edits 5] [--json FILE]

DIR (default bench/data/ts-speed/typeorm, 300k lines) is copied to a temporary directory with
its mtimes, so its index stays valid and the edits below never touch the original; the copy is
indexed (incrementally) and deleted at the end. Then, with the MCP SDK's client:

- the server is spawned over stdio (``astrag mcp --repo COPY``) and warmed with one call of
  each tool (loads vectors, embedder, check tables, as a long-running server would have);
- latency: ``--calls`` calls each of find_callers / find_references / get_symbol /
  search_symbols (over the symbols with the most callers), get_outline (a seeded sample of
  files), get_repo_map (4,000 tokens) and get_context (over task-like queries), timed at the
  client from request to decoded result; p50/p95 of wall time; the first get_repo_map, which
  loads and ranks the whole graph, is reported apart;
- freshness: the ``checked_ms`` the server reports in every answer (its stat scan with nothing
  changed), and the same check timed in-process (``RepoState.ensure_fresh``);
- edits: a body edit of a leaf function and a new exported function in a file other files
  import, each timed from the write to the first answer that shows it (``get_symbol`` source;
  ``find_callers`` of the function the new one calls).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from percentiles import percentile

from astrag import api
from astrag.serve.state import RepoState

DEFAULT = Path(__file__).parent / "data" / "ts-speed" / "typeorm"
CONTEXT_QUERIES = [
    "how does the query builder build joins",
    "who calls EntityManager.save",
    "add soft delete support to the repository",
    "where are migrations executed",
    "how are relations loaded eagerly",
    "refactor DataSource initialization to validate options first",
    "fix connection pool leak in the postgres driver",
    "explain how entity metadata is built from decorators",
]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(values), 1),
        "p95_ms": round(percentile(values, 0.95), 1),
        "max_ms": round(max(values), 1),
    }


def pick_symbols(root: Path, n: int) -> tuple[list[str], list[str], list[str]]:
    """Ids of the functions and methods with the most callers (the heaviest answers), a
    seeded sample of all functions and methods (the typical ones), and one of files."""
    with api.open_index(root) as idx:
        symbols, edges = idx.graph()
    kinds = {s.id: s for s in symbols if s.path and s.kind in ("function", "method")}
    counts = Counter(e.target for e in edges if e.kind == "calls" and e.target in kinds)
    hubs = [sid for sid, _ in counts.most_common(n)]
    files = sorted(s.path for s in symbols if s.kind == "module")
    rng = random.Random(5)
    return hubs, rng.sample(sorted(kinds), n), rng.sample(files, min(n, len(files)))


async def timed(client: Client, tool: str, args: dict[str, Any]) -> tuple[float, dict]:
    started = time.perf_counter()
    result = await client.call_tool(tool, args)
    ms = (time.perf_counter() - started) * 1000
    if result.is_error:
        raise RuntimeError(f"{tool}({args}) failed: {result.content[0].text}")  # type: ignore[union-attr]
    assert result.structured_content is not None
    return ms, result.structured_content


async def run(root: Path, calls: int, edits: int) -> dict[str, Any]:
    symbols, typical, files = pick_symbols(root, calls)
    # the whole environment: the SDK passes only a few variables, and without PYTHONPATH the
    # server would run whichever astrag is installed rather than the one being measured
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "astrag.cli", "mcp", "--repo", str(root)],
        env=dict(os.environ),
    )
    report: dict[str, Any] = {}
    started = time.perf_counter()
    async with Client(params) as client:
        await client.list_tools()
        report["connect_ms"] = round((time.perf_counter() - started) * 1000)
        first, _ = await timed(client, "index_status", {})
        report["first_call_ms"] = round(first)
        for tool, args in (
            ("search_symbols", {"query": "save entity", "limit": 10}),
            ("get_context", {"query": CONTEXT_QUERIES[0], "budget": 8000}),
            ("check_code", {"code": "const x: number = 1\n", "lang": "typescript"}),
            ("find_callers", {"symbol": symbols[0]}),
            ("get_symbol", {"symbol": symbols[0]}),
            ("find_references", {"symbol": symbols[0]}),
            ("get_outline", {"path": files[0]}),
        ):
            await timed(client, tool, args)  # warm-up, untimed
        first_map, _ = await timed(client, "get_repo_map", {"budget": 4000})
        report["first_repo_map_ms"] = round(first_map)

        checked: list[float] = []
        latency: dict[str, list[float]] = {}
        own: dict[str, list[float]] = {}  # the same minus the freshness check in it
        plans = [
            ("find_callers", [{"symbol": s, "depth": 1} for s in typical]),
            ("get_symbol", [{"symbol": s} for s in typical]),
            ("find_callers (hub symbols)", [{"symbol": s, "depth": 1} for s in symbols]),
            ("get_symbol (hub symbols)", [{"symbol": s} for s in symbols]),
            ("find_references", [{"symbol": s} for s in typical]),
            ("find_references (hub symbols)", [{"symbol": s} for s in symbols]),
            ("get_outline", [{"path": f} for f in files]),
            ("get_repo_map", [{"budget": 4000}] * calls),
            ("search_symbols", [{"query": s.split("::")[-1], "limit": 10} for s in symbols]),
            (
                "get_context",
                [
                    {"query": CONTEXT_QUERIES[i % len(CONTEXT_QUERIES)], "budget": 8000}
                    for i in range(calls)
                ],
            ),
        ]
        for name, arg_list in plans:
            tool = name.split(" ")[0]
            for args in arg_list[:calls]:
                ms, data = await timed(client, tool, args)
                fresh_ms = float(data["index"]["checked_ms"])
                latency.setdefault(name, []).append(ms)
                own.setdefault(name, []).append(ms - fresh_ms)
                checked.append(fresh_ms)
        report["latency"] = {name: summary(v) for name, v in latency.items()}
        report["latency_without_freshness"] = {name: summary(v) for name, v in own.items()}
        report["freshness_in_answers"] = summary(checked)

        report["edits"] = await edit_rounds(client, root, edits)
    state = RepoState(root)
    state.open()
    in_process = []
    for _ in range(calls):
        t = time.perf_counter()
        state.ensure_fresh()
        in_process.append((time.perf_counter() - t) * 1000)
    state.close()
    report["freshness_in_process"] = summary(in_process)
    return report


async def edit_rounds(client: Client, root: Path, edits: int) -> dict[str, Any]:
    """Time from a write to the first answer that reflects it."""
    # typeorm's string helpers, whether DIR is the repository or its src/ folder
    candidates = ("src/util/StringUtils.ts", "util/StringUtils.ts")
    rel = next(r for r in candidates if (root / r).is_file())
    util = root / rel
    original = util.read_text()
    body_ms: list[float] = []
    added_ms: list[float] = []
    updates: list[float] = []
    try:
        target = f"{rel}::camelCase"
        _, shown = await timed(client, "get_symbol", {"symbol": target})
        before = shown["source"]
        for i in range(edits):
            # a body edit: the function's source (and nothing else) changes
            text = util.read_text()
            marker = f"    // bench edit {i}\n"
            lines = before.splitlines(keepends=False)
            edited = "\n".join([lines[0], marker.rstrip("\n"), *lines[1:]])
            started = time.perf_counter()
            util.write_text(text.replace(before, edited, 1))
            _, shown = await timed(client, "get_symbol", {"symbol": target})
            body_ms.append((time.perf_counter() - started) * 1000)
            assert f"bench edit {i}" in shown["source"], "edit not reflected"
            updates.append(float(shown["index"].get("update_ms", 0)))
            before = shown["source"]

            # a new exported function that calls an existing one
            name = f"benchProbe{i}"
            started = time.perf_counter()
            with util.open("a") as fh:
                fh.write(f"\nexport function {name}(s: string): string {{\n")
                fh.write("    return camelCase(s)\n}\n")
            _, callers = await timed(client, "find_callers", {"symbol": target})
            added_ms.append((time.perf_counter() - started) * 1000)
            assert any(r["name"] == name for r in callers["results"]), "caller not reflected"
            updates.append(float(callers["index"].get("update_ms", 0)))
    finally:
        util.write_text(original)
    return {
        "body_edit_reflected": summary(body_ms),
        "new_function_reflected": summary(added_ms),
        "server_update_ms": summary(updates),
    }


def markdown(report: dict[str, Any], source: Path, lines: int, files: int) -> str:
    out = [
        f"Repository: `{source}` copy — {files:,} files, {lines:,} lines. "
        f"Connect (spawn + handshake): {report['connect_ms']:,} ms; first call "
        f"{report['first_call_ms']:,} ms; first `get_repo_map` (loads and ranks the graph) "
        f"{report['first_repo_map_ms']:,} ms.",
        "",
        "| measure | n | p50 ms | p95 ms | max ms | p50 ms without the freshness check |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]

    def row(name: str, s: dict[str, float], own: str = "") -> None:
        out.append(f"| {name} | {s['n']} | {s['p50_ms']} | {s['p95_ms']} | {s['max_ms']} | {own} |")

    for name, s in report["latency"].items():
        tool, _, rest = name.partition(" ")
        own = report["latency_without_freshness"][name]["p50_ms"]
        row(f"`{tool}` {rest}".rstrip(), s, str(own))
    row("freshness check, nothing changed (in answers)", report["freshness_in_answers"])
    row("freshness check, nothing changed (in-process)", report["freshness_in_process"])
    for name, s in report["edits"].items():
        row(name.replace("_", " "), s)
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    source = args.dir.resolve()
    with tempfile.TemporaryDirectory(prefix="astrag-mcp-bench-") as tmp:
        root = Path(tmp) / source.name
        shutil.copytree(source, root, symlinks=True)  # copy2: mtimes kept, the index stays valid
        t = time.perf_counter()
        summary_ = api.index(root)
        print(f"index (incremental) {time.perf_counter() - t:.1f} s", file=sys.stderr)
        report = anyio.run(run, root, args.calls, args.edits)
    report["repository"] = {"files": summary_.files, "lines": summary_.lines}
    print(markdown(report, args.dir, summary_.lines, summary_.files))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
