"""Secrets never leave the file: a seeded repository, everything astrag stores and emits.

    python3 bench/secret_leaks.py [--seed 7] [--postgres] [--speed DIR] [--repeat 3] [--json FILE]

1. **Detection** on the fixture (``bench/secret_fixture.py``: 43 credential values of 24
   kinds in Python, TypeScript, JavaScript, JSON, YAML and .env-style strings, and 42
   look-alikes): recall over the secrets, false redactions over the look-alikes, for astrag's
   rules and, when the ``detect-secrets`` package is importable, for its default plugins.
2. **End to end**: the fixture is indexed with the OpenAI-compatible embedder pointed at a
   loopback server that records every request; then every file under ``.astrag/``, the
   recorded requests, ``show`` of every symbol, ``context`` and ``search`` for questions about
   the secrets, ``export`` in all three formats, ``stats``, and the answers of a real MCP client
   (stdio) to ``get_symbol`` of every symbol, ``get_context``, ``search_symbols`` and
   ``index_status`` are searched, in any case, for any run of 10+ letters and digits of any
   secret and any 6+ letter word astrag's identifier splitting makes of it (the full-text
   index holds code as split words, lowercased). ``--postgres`` also indexes into a real
   PostgreSQL (the ``pgserver`` wheel) and searches a ``pg_dump`` of it. The look-alikes must
   come back verbatim from ``show``.
3. **Speed** (``--speed DIR``): a copy of DIR is indexed cold (``--rebuild --no-embed``) with
   and without redaction, interleaved ``--repeat`` times: whole-process wall time and CPU
   time (user + system of the process and its workers; on a loaded machine the CPU ratio is
   the one to read); plus the redactor's own throughput over DIR's source, and
   detect-secrets' on a 1 MB sample, per CPU second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.json_server

from secret_fixture import Plant, write
from typer.testing import CliRunner

from astrag import api
from astrag.cli import app
from astrag.redact import KINDS, find, redact_text
from astrag.search.text import code_words
from tests.json_server import json_server

CODE_SUFFIXES = (".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs")
QUESTIONS = (
    "database password",
    "api keys and tokens",
    "private key for signing",
    "AWS_SECRET_ACCESS_KEY",
    "clone with a github token",
    "stripe and slack configuration",
    "refresh token",
    "SECRET_KEY",
)


# ------------------------------------------------------------------------------- scoring


def fragments(value: str) -> list[bytes]:
    """What must never appear, lowercased: each run of 10+ letters and digits of the value,
    and each 6+ letter word the index's identifier splitting makes of it (the full-text
    index and the embedded texts hold code as split words)."""
    runs = re.findall(r"[A-Za-z0-9]{10,}", value) or [value]
    words = [w for w in code_words(value, keep_joined=False) if len(w) >= 6]
    # a vendor's prefix (github_pat_) is a word of the placeholder too: not the secret
    return sorted({w.lower().encode() for w in (*runs, *words) if w not in _PLACEHOLDER_WORDS})


_PLACEHOLDER_WORDS = frozenset(code_words(" ".join(KINDS) + " redacted", keep_joined=False))


def leaked(plants: Iterable[Plant], blob: bytes) -> list[Plant]:
    lowered = blob.lower()
    return [p for p in plants if p.secret and any(f in lowered for f in fragments(p.value))]


def detection(plants: list[Plant], files: Mapping[str, str]) -> dict[str, object]:
    """astrag's rules on the fixture's files: secrets missed and look-alikes redacted."""
    masked = {path: redact_text(text) for path, text in files.items()}
    missed = [p for p in plants if p.secret and leaked([p], masked[p.path].encode())]
    false = [p for p in plants if not p.secret and p.value not in masked[p.path]]
    return _scores(plants, missed, false)


def _scores(plants: list[Plant], missed: list[Plant], false: list[Plant]) -> dict[str, object]:
    secrets = [p for p in plants if p.secret]
    looks = [p for p in plants if not p.secret]
    return {
        "secrets": len(secrets),
        "kinds": len({p.kind for p in secrets}),
        "lookalikes": len(looks),
        "recall": round(1 - len(missed) / len(secrets), 4),
        "false_redaction_rate": round(len(false) / len(looks), 4),
        "missed": [f"{p.kind} in {p.path}" for p in missed],
        "falsely_redacted": [f"{p.kind} in {p.path}" for p in false],
    }


def detect_secrets_detection(plants: list[Plant], root: Path) -> dict[str, object] | None:
    """detect-secrets' default plugins and filters on the same files, when installed."""
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None
    found: dict[str, list[str]] = {}
    with default_settings():
        collection = SecretsCollection()
        for path in {p.path for p in plants}:
            collection.scan_file(str(root / path))
        for filename, secrets in collection.data.items():
            rel = Path(filename).resolve().relative_to(root.resolve()).as_posix()
            found[rel] = [s.secret_value or "" for s in secrets]

    def hit(p: Plant) -> bool:
        return any(len(v) >= 8 and (v in p.value or p.value in v) for v in found.get(p.path, []))

    missed = [p for p in plants if p.secret and not hit(p)]
    false = [p for p in plants if not p.secret and hit(p)]
    return _scores(plants, missed, false)


# --------------------------------------------------------------------------- end to end


@contextmanager
def recording_embedder() -> Iterator[list[Any]]:
    """An OpenAI-compatible embeddings endpoint on loopback; yields the request bodies."""
    requests: list[Any] = []

    def respond(path: str, headers: Mapping[str, str], body: Any) -> tuple[int, Any, Any]:
        requests.append(body)
        data = [
            {"object": "embedding", "index": i, "embedding": [float(len(t) % 7), 1.0, 2.0, 3.0]}
            for i, t in enumerate(body.get("input", []))
        ]
        return 200, {}, {"object": "list", "data": data, "model": body.get("model")}

    with json_server(respond) as url, environment():
        os.environ.update(ASTRAG_EMBED_BASE_URL=f"{url}/v1", ASTRAG_EMBEDDER="openai:recorder")
        yield requests


@contextmanager
def environment() -> Iterator[None]:
    """Restore the environment afterwards (the CLI's --store sets ASTRAG_STORE)."""
    saved = dict(os.environ)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def cli_outputs(
    root: Path, store: str | None = None, *, modules_only: bool = False
) -> dict[str, bytes]:
    """What the CLI prints: show of every symbol (or of every file), context, search, export
    and stats."""
    runner = CliRunner()
    prefix = ["--store", store] if store else []

    def run(*args: str) -> bytes:
        with environment():
            result = runner.invoke(app, [*prefix, *args])
        assert result.exit_code == 0, (args, result.output)
        return result.stdout_bytes

    with api.open_index(root, store=store) as idx:
        symbols = [s for s in idx.graph()[0] if s.path and (s.kind == "module" or not modules_only)]
    repo = ["--repo", str(root)]
    out = {
        "show": b"".join(run("show", s.id, *repo, "--format", "json") for s in symbols),
        "context": b"".join(run("context", q, *repo, "--format", "json") for q in QUESTIONS),
        "search": b"".join(run("search", q, *repo, "--format", "json") for q in QUESTIONS),
        "stats": run("stats", *repo, "--format", "json"),
    }
    for fmt in ("jsonl", "graphml", "cypher"):
        out[f"export {fmt}"] = run("export", *repo, "--format", fmt)
    return out


def mcp_answers(root: Path) -> bytes:
    """Every answer a real MCP client gets over stdio, as JSON text."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    with api.open_index(root) as idx:
        ids = [s.id for s in idx.graph()[0] if s.path]
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "astrag.cli", "mcp", "--repo", str(root)],
        env=dict(os.environ),
    )
    chunks: list[str] = []

    async def scenario() -> None:
        async with Client(params) as client:
            calls = [("get_symbol", {"symbol": i}) for i in ids]
            calls += [("get_context", {"query": q, "budget": 4000}) for q in QUESTIONS]
            calls += [("search_symbols", {"query": q}) for q in QUESTIONS]
            calls.append(("index_status", {}))
            for tool, args in calls:
                result = await client.call_tool(tool, args)
                assert not result.is_error, (tool, args, result.content)
                chunks.append(json.dumps(result.structured_content))
                chunks.extend(c.text for c in result.content if hasattr(c, "text"))

    asyncio.run(scenario())
    return "\n".join(chunks).encode()


def index_dir_bytes(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted((root / ".astrag").rglob("*")) if p.is_file())


def lookalikes_kept(plants: list[Plant], root: Path) -> list[Plant]:
    """Look-alikes missing from ``show`` of their file (the module symbol shows it whole)."""
    with api.open_index(root) as idx:
        shown = {p: idx.source(idx.resolve(p)) for p in {p.path for p in plants}}
    return [p for p in plants if not p.secret and p.value not in shown[p.path]]


def end_to_end(root: Path, plants: list[Plant], postgres: bool) -> dict[str, object]:
    with recording_embedder() as requests:
        summary = api.index(root, jobs=1)
        surfaces: dict[str, bytes] = {".astrag/ files": index_dir_bytes(root)}
        surfaces["embedding requests"] = json.dumps(requests).encode()
        surfaces.update(cli_outputs(root))
        surfaces["MCP answers (stdio)"] = mcp_answers(root)
        if postgres:
            surfaces.update(postgres_surfaces(root))
        with api.open_index(root) as idx:
            counted = sum(idx.stats()["redacted"].values())  # type: ignore[union-attr]
    false = lookalikes_kept(plants, root)
    return {
        "embedded_texts": summary.embedded,
        "embedding_requests": len(requests),
        "redactions_counted": counted,
        "leaks": {name: [p.kind for p in leaked(plants, blob)] for name, blob in surfaces.items()},
        "surface_bytes": {name: len(blob) for name, blob in surfaces.items()},
        "lookalikes_not_shown_verbatim": [f"{p.kind} in {p.path}" for p in false],
    }


def postgres_surfaces(root: Path) -> dict[str, bytes]:
    """Index into a real PostgreSQL (pgserver) and dump it; also ask it for context."""
    import pgserver

    data = Path(tempfile.mkdtemp(prefix="astrag-pg-"))
    server = pgserver.get_server(data, cleanup_mode="delete")
    url = server.get_uri()
    copy = Path(tempfile.mkdtemp(prefix="astrag-secrets-pg-")) / "repo"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".astrag"))
    try:
        api.index(copy, store=url, jobs=1)
        dump_bin = Path(pgserver.__file__).parent / "pginstall" / "bin" / "pg_dump"
        dump = subprocess.run([str(dump_bin), url], capture_output=True, check=True).stdout
        context = cli_outputs(copy, store=url)["context"]
        return {"PostgreSQL dump": dump, "context (PostgreSQL)": context}
    finally:
        shutil.rmtree(copy.parent, ignore_errors=True)


# -------------------------------------------------------------------------------- speed

_NO_REDACTION = (
    "import astrag.indexer as i; i.redact = lambda data: (data, []); "
    "from astrag.cli import main; main()"
)


def index_seconds(root: Path, redaction: bool) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the index process and its workers) of one cold
    index run. CPU time is what redaction adds to; wall time also carries the machine's load."""
    code = "from astrag.cli import main; main()" if redaction else _NO_REDACTION
    command = [sys.executable, "-c", code, "index", str(root), "--rebuild", "--no-embed"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def speed(corpus: Path, repeat: int) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix="astrag-secrets-speed-"))
    copy = work / corpus.name
    try:
        shutil.copytree(corpus, copy, ignore=shutil.ignore_patterns(".astrag", "node_modules"))
        index_seconds(copy, True)  # warm the page cache and the grammars' .so files
        runs: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for i in range(repeat):
            for redaction in (True, False) if i % 2 == 0 else (False, True):
                runs[redaction].append(index_seconds(copy, redaction))
        rate, found = redaction_rate(copy)
        out: dict[str, object] = {"corpus": str(corpus), "repeat": repeat}
        for n, name in enumerate(("wall", "cpu")):
            on = [r[n] for r in runs[True]]
            off = [r[n] for r in runs[False]]
            out[f"{name}_seconds_with"] = [round(x, 2) for x in on]
            out[f"{name}_seconds_without"] = [round(x, 2) for x in off]
            out[f"{name}_ratio_of_medians"] = round(
                statistics.median(on) / statistics.median(off), 4
            )
        out["redactor_mb_per_cpu_s"] = rate
        out["redactions_in_corpus"] = found
        out["detect_secrets_mb_per_cpu_s"] = detect_secrets_rate(copy)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _sources(root: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted(root.rglob("*")) if p.suffix in CODE_SUFFIXES]


def redaction_rate(root: Path) -> tuple[float, int]:
    datas = _sources(root)
    started = time.process_time()
    found = sum(len(find(d)) for d in datas)
    seconds = time.process_time() - started
    return round(sum(map(len, datas)) / 1e6 / seconds, 1), found


def detect_secrets_rate(root: Path, sample_bytes: int = 1_000_000) -> float | None:
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None
    files, size = [], 0
    for p in sorted(root.rglob("*")):
        if p.suffix in CODE_SUFFIXES and size < sample_bytes:
            files.append(p)
            size += p.stat().st_size
    with default_settings():
        started = time.process_time()
        collection = SecretsCollection()
        for p in files:
            collection.scan_file(str(p))
        seconds = time.process_time() - started
    return round(size / 1e6 / seconds, 3)


# --------------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--postgres", action="store_true", help="also index into pgserver")
    parser.add_argument("--speed", type=Path, help="a real corpus for the index-time ratio")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="astrag-secrets-"))
    try:
        root = work / "repo"
        plants = write(root, args.seed)
        files = {p: (root / p).read_text("utf-8") for p in {p.path for p in plants}}
        report: dict[str, object] = {
            "astrag": detection(plants, files),
            "detect_secrets": detect_secrets_detection(plants, root),
            "end_to_end": end_to_end(root, plants, args.postgres),
        }
        if args.speed:
            report["speed"] = speed(args.speed, args.repeat)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
