"""Hostile input: fuzzed trees, mutated diffs, odd queries and hostile MCP arguments.

    python3 bench/hostile.py [--files 2000] [--diffs 500] [--queries 1000] [--mcp]
        [--corpus bench/data/py-acc/rich] [--seed 0] [--timeout 60] [--json FILE]

Every input gets one of five outcomes, counted per section with examples:

* ``ok``: an answer; ``refused``: a clear refusal (an ``AstragError`` with its hint, a file
  skipped for a named reason, an MCP error result that is not an internal error);
* ``internal``: anything else raised (a traceback for a user), an MCP "internal error", a
  file dropped as ``parse_failed``; ``hang``: no answer within ``--timeout`` seconds;
  ``outside``: an answer holding the text of a file outside the repository (a canary).

Sections:

1. **trees**: ``--files`` files in Python, TypeScript, TSX and JavaScript: a tenth random
   bytes, the rest real files from ``bench/data`` corpora mutated (bytes flipped, inserted,
   deleted, duplicated; truncation; two files spliced; NUL, invalid UTF-8, BOMs, UTF-16;
   CR-only and CRLF line ends; form feeds, U+2028, U+0085; deep nesting; a 200k-character
   line). Each is extracted alone (its outcome), then the tree is indexed by ``astrag index``
   (exit status, tracebacks, ``parse_failed`` files), then ``show`` of every symbol and
   ``context`` questions run on it after some files were swapped for links out of the root.
2. **diffs**: ``--diffs`` unified diffs against a copy of ``--corpus``: real edits, then
   mutated (hunk counts and starts off, headers missing or garbled, one file patched twice,
   paths with ``..``, absolute, NUL or 5,000 characters, CRLF, truncation, binary patches,
   adds of existing files, a FIFO or a directory as the target, 1 MB diffs), each through
   ``api.check``; how many of those ``git apply --check`` rejects astrag still checks.
3. **queries**: ``--queries`` odd queries (empty, blank, 10k and 100k characters, NUL,
   control characters, invalid UTF-8 as the command line gives it, FTS5 and regex syntax,
   SQL, emoji, RTL, paths) through search (every mode), context and the CLI.
4. **mcp** (``--mcp``): hostile arguments (``..``, absolute paths, links out, a FIFO, NUL,
   huge strings, wrong types, out-of-range numbers) to every tool through the SDK's real
   client over stdio.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from astrag import api
from astrag.discover import decode_source
from astrag.errors import AstragError
from astrag.lang import extract_facts
from astrag.redact import redact

DATA = Path(__file__).resolve().parent / "data"
# corpora to take real files from, where present (bench/get_data.sh fetches the first ones)
LANGUAGES = {
    ".py": ("py-acc/rich", "py-speed/django"),
    ".ts": ("ts-speed/typeorm", "ts-classes/rxjs", "ts-di/nestjs-graphql"),
    ".tsx": ("acc/headlessui", "acc/lexical", "speed/medusa", "ts-speed/typeorm"),
    ".js": ("speed/eslint", "questions/fastify", "py-speed/django", "ts-speed/typeorm"),
}
CANARY = "CANARY-OUTSIDE-THE-ROOT-7f3a"


# ------------------------------------------------------------------------------ outcomes


class Hang(Exception):
    pass


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, outcome: str, example: str = "") -> None:
        self.counts[outcome] += 1
        if outcome not in ("ok", "refused") and example:
            shown = self.examples.setdefault(outcome, [])
            if len(shown) < 8:
                shown.append(example[:300])

    def to_json(self) -> dict[str, object]:
        return {"counts": dict(sorted(self.counts.items())), "examples": self.examples}


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in this (main) thread after ``seconds``; a blocking system call
    (opening a FIFO) is interrupted too."""

    def expire(signum: int, frame: object) -> None:
        raise Hang(f"no answer in {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def attempt(
    tally: Tally, label: str, call: Callable[[], object], timeout: float
) -> tuple[str, object]:
    """Run ``call`` and count its outcome; returns the outcome and the value (or None)."""
    outcome, value, detail = "ok", None, label
    try:
        with deadline(timeout):
            value = call()
    except Hang:
        outcome = "hang"
    except AstragError:
        outcome = "refused"
    except Exception as exc:
        outcome, detail = "internal", f"{label}: {type(exc).__name__}: {exc}"
    if outcome == "ok" and CANARY in repr(value):
        outcome = "outside"
    tally.add(outcome, detail)
    return outcome, value


# --------------------------------------------------------------------------------- trees


def real_files(rng: random.Random, suffix: str, limit: int = 400) -> list[bytes]:
    files: list[Path] = []
    for corpus in LANGUAGES[suffix]:
        base = DATA / corpus
        if base.is_dir():
            found = (p for p in base.rglob(f"*{suffix}") if "node_modules" not in p.parts)
            files.extend(p for _, p in zip(range(4000), found, strict=False) if p.is_file())
    rng.shuffle(files)
    return [p.read_bytes() for p in files[:limit] if p.stat().st_size < 200_000]


def _span(rng: random.Random, data: bytes) -> tuple[int, int]:
    a = rng.randrange(len(data) + 1)
    return a, min(len(data), a + rng.randrange(1, 400))


MUTATIONS: dict[str, Callable[[random.Random, bytes, bytes], bytes]] = {
    "flip": lambda r, d, o: bytes(b ^ (1 << r.randrange(8)) if r.random() < 0.01 else b for b in d),
    "insert": lambda r, d, o: (lambda a: d[:a] + r.randbytes(r.randrange(1, 64)) + d[a:])(
        r.randrange(len(d) + 1)
    ),
    "delete": lambda r, d, o: (lambda a, b: d[:a] + d[b:])(*_span(r, d)),
    "duplicate": lambda r, d, o: (lambda a, b: d[:b] + d[a:b] * r.randrange(2, 20) + d[b:])(
        *_span(r, d)
    ),
    "truncate": lambda r, d, o: d[: r.randrange(len(d) + 1)],
    "splice": lambda r, d, o: d[: r.randrange(len(d) + 1)] + o[r.randrange(len(o) + 1) :],
    "nul": lambda r, d, o: (lambda a: d[:a] + b"\0" + d[a:])(r.randrange(len(d) + 1)),
    "bad-utf8": lambda r, d, o: (lambda a: d[:a] + b"\xff\xfe\xc3\x28\xed\xa0\x80" + d[a:])(
        r.randrange(len(d) + 1)
    ),
    "bom": lambda r, d, o: b"\xef\xbb\xbf" + d,
    "utf16": lambda r, d, o: d.decode("utf-8", "replace").encode("utf-16"),
    "cr-only": lambda r, d, o: d.replace(b"\r\n", b"\n").replace(b"\n", b"\r"),
    "crlf": lambda r, d, o: d.replace(b"\n", b"\r\n"),
    "separators": lambda r, d, o: d.replace(
        b"\n", r.choice([b"\f\n", b"\n\x0c", b"\xe2\x80\xa8\n", b"\xc2\x85\n"]), 40
    ),
    "nesting": lambda r, d, o: d + b"\nx = " + b"(" * 3000 + b"1" + b")" * 3000 + b"\n",
    "long-line": lambda r, d, o: d + b"\ny = '" + b"a" * 200_000 + b"'\n",
    "unicode": lambda r, d, o: d.replace(b"def ", "def ğ_é_ü".encode() + b"_", 3),
}


def fuzz_tree(root: Path, rng: random.Random, count: int) -> dict[str, str]:
    """Write ``count`` files under ``root``; returns path -> how it was made."""
    made: dict[str, str] = {}
    per_language = max(1, count // len(LANGUAGES))
    for suffix in LANGUAGES:
        sources = real_files(rng, suffix) or [b"x = 1\n"]
        for i in range(per_language):
            if i % 10 == 0:
                how, data = "random", rng.randbytes(rng.randrange(1, 4000))
            else:
                how = rng.choice(list(MUTATIONS))
                data = MUTATIONS[how](rng, rng.choice(sources), rng.choice(sources))
            rel = f"{suffix[1:]}/f{i:04d}_{how}{suffix}"
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
            made[rel] = how
    return made


def extract_one(root: Path, rel: str) -> object:
    result = decode_source(rel, (root / rel).read_bytes())
    if result.source is None:
        raise AstragError(f"skipped: {result.skipped.reason if result.skipped else '?'}")
    return extract_facts(rel, redact(result.source)[0])


def trees(work: Path, rng: random.Random, count: int, timeout: float) -> dict[str, object]:
    root = work / "fuzz"
    made = fuzz_tree(root, rng, count)
    extracted = Tally()
    for rel, how in made.items():
        attempt(extracted, f"{rel} ({how})", lambda rel=rel: extract_one(root, rel), timeout)
    indexed = Tally()
    command = [sys.executable, "-m", "astrag.cli", "index", str(root), "--no-embed", "-f", "json"]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout * 10)
    except subprocess.TimeoutExpired:
        indexed.add("hang", "astrag index of the fuzzed tree")
        return {"files": len(made), "extract": extracted.to_json(), "index": indexed.to_json()}
    summary = _index_outcome(indexed, done)
    seconds = round(time.perf_counter() - started, 1)
    queried = query_tree(root, work, rng, timeout)
    return {
        "files": len(made),
        "extract": extracted.to_json(),
        "index": indexed.to_json(),
        "index_seconds": seconds,
        "skipped": summary,
        "show_and_context": queried.to_json(),
    }


def _index_outcome(tally: Tally, done: subprocess.CompletedProcess[str]) -> dict[str, int]:
    if done.returncode != 0 or "Traceback" in done.stderr:
        tally.add("internal", f"exit {done.returncode}: {done.stderr[-500:]}")
        return {}
    summary = json.loads(done.stdout)
    reasons = Counter(s["reason"].split(":")[0] for s in summary["skipped"])
    for s in summary["skipped"]:
        if s["reason"].startswith("parse_failed"):
            tally.add("internal", f"{s['path']}: {s['reason']}")
    tally.add("ok")
    return dict(reasons)


def query_tree(root: Path, work: Path, rng: random.Random, timeout: float) -> Tally:
    """show of every symbol and some context questions, after a few indexed files were
    replaced by links to a file outside the root (which holds the canary)."""
    outside = work / "outside.py"
    outside.write_text(f"SECRET = '{CANARY}'\n" * 50)
    tally = Tally()
    with api.open_index(root) as idx:
        symbols = [s for s in idx.graph()[0] if s.path]
        for path in rng.sample(sorted({s.path for s in symbols}), min(20, len(symbols))):
            (root / path).unlink()
            (root / path).symlink_to(outside)
        for s in rng.sample(symbols, min(3000, len(symbols))):
            attempt(tally, f"show {s.id}", lambda s=s: idx.source(s), timeout)
        for q in ("what does this code do", "who calls main", "parse the config", "SECRET"):
            attempt(tally, f"context {q!r}", lambda q=q: idx.context(q, 3000).text, timeout)
    return tally


# --------------------------------------------------------------------------------- diffs


def corpus_copy(corpus: Path, work: Path) -> Path:
    """A copy of the corpus, indexed, with a FIFO, a directory named like a file, links
    out of the root and a file outside it holding the canary."""
    root = work / "repo"
    shutil.copytree(corpus, root, ignore=shutil.ignore_patterns(".astrag", "node_modules"))
    outside = work / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "leak.py").write_text(f"def leak():\n    return '{CANARY}'\n")
    (root / "leak.py").symlink_to(outside / "leak.py")
    (root / "outdir").symlink_to(outside, target_is_directory=True)
    api.index(root, jobs=2, embedder="none")
    os.mkfifo(root / "pipe.py")
    (root / "folder.py").mkdir()
    return root


def diff_cases(root: Path, rng: random.Random, count: int) -> Iterator[tuple[str, str]]:
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py") if p.is_file()
                   and not p.is_symlink())  # fmt: skip
    for i in range(count):
        rel = rng.choice(files)
        old = (root / rel).read_text("utf-8", "replace").splitlines(keepends=True)
        new = list(old)
        at = rng.randrange(len(new) + 1)
        new[at:at] = [f"    value_{i} = helper_{i}(1, 2)\n", "print(value)\n"][
            : rng.randrange(1, 3)
        ]
        text = "".join(difflib.unified_diff(old, new, f"a/{rel}", f"b/{rel}"))
        how = "valid" if i % 10 == 0 else rng.choice(list(DIFF_MUTATIONS))
        yield how, DIFF_MUTATIONS.get(how, lambda r, t: t)(rng, text)


def _headers(t: str, fn: Callable[[str], str]) -> str:
    return "".join(fn(line) if line.startswith(("--- ", "+++ ")) else line
                   for line in t.splitlines(keepends=True))  # fmt: skip


DIFF_MUTATIONS: dict[str, Callable[[random.Random, str], str]] = {
    "count-off": lambda r, t: t.replace(" @@", f",{r.randrange(1, 9)} @@", 1).replace(",1,", ","),
    "start-off": lambda r, t: t.replace("@@ -", f"@@ -{r.randrange(1, 900)}", 1),
    "garbled-hunk": lambda r, t: t.replace("@@ -", "@@ -a,b +", 1),
    "no-new-header": lambda r, t: "".join(
        x for x in t.splitlines(keepends=True) if not x.startswith("+++")
    ),
    "twice": lambda r, t: t + t,
    "dotdot": lambda r, t: _headers(t, lambda h: h[:4] + "a/../../etc/passwd\n"),
    "absolute": lambda r, t: _headers(t, lambda h: h[:4] + "/etc/passwd\n"),
    "nul-path": lambda r, t: _headers(t, lambda h: h[:-1] + "\0x.py\n"),
    "long-path": lambda r, t: _headers(t, lambda h: h[:4] + "b/" + "d/" * 2500 + "x.py\n"),
    "link-out": lambda r, t: _headers(t, lambda h: h[:4] + "b/outdir/leak.py\n"),
    "fifo": lambda r, t: _headers(t, lambda h: h[:4] + "b/pipe.py\n"),
    "directory": lambda r, t: _headers(t, lambda h: h[:4] + "b/folder.py\n"),
    "crlf": lambda r, t: t.replace("\n", "\r\n"),
    "truncated": lambda r, t: t[: r.randrange(len(t) + 1)],
    "byte-flip": lambda r, t: "".join(
        c if r.random() > 0.02 else chr(r.randrange(1, 0x3000)) for c in t
    ),
    "binary": lambda r, t: "diff --git a/x.png b/x.png\nGIT binary patch\nliteral 5\nMcmZ?wbY-\n",
    "add-existing": lambda r, t: t.replace("--- a/", "--- /dev/null\n--- a/", 1).replace(
        "--- a/", "", 1
    ),
    "no-newline-mark": lambda r, t: t.replace("\n+", "\n\\ No newline at end of file\n+", 1),
    "huge": lambda r, t: t + "".join(f"+x{i} = {i}\n" for i in range(60_000)),
    "empty-hunk": lambda r, t: t.split("@@")[0] + "@@ -1,0 +1,0 @@\n",
}


def git_rejects(root: Path, text: str) -> bool:
    done = subprocess.run(["git", "apply", "--check", "-"], cwd=root, input=text.encode(
        "utf-8", "surrogateescape"), capture_output=True, timeout=60)  # fmt: skip
    return done.returncode != 0


def diffs(root: Path, rng: random.Random, count: int, timeout: float) -> dict[str, object]:
    tally, by_mutation = Tally(), Counter()
    rejected_but_checked: Counter[str] = Counter()
    session = api.open_check_session(root)
    try:
        for how, text in diff_cases(root, rng, count):
            outcome, _ = attempt(
                tally,
                f"{how}: {text[:120]!r}",
                lambda text=text: api.check(root, text, diff=True, session=session),
                timeout,
            )
            by_mutation[f"{how}: {outcome}"] += 1
            if outcome == "ok" and how != "valid" and git_rejects(root, text):
                rejected_but_checked[how] += 1
    finally:
        session.store.close()
    return {
        **tally.to_json(),
        "by_mutation": dict(sorted(by_mutation.items())),
        "git_apply_rejects_but_checked": dict(sorted(rejected_but_checked.items())),
    }


# ------------------------------------------------------------------------------- queries

_ODD = [
    "", " ", "\t\n", "\0", "a\0b", "\x1b[31m", "\ud800", os.fsdecode(b"\xff\xfe"),
    os.fsdecode(b"caf\xe9"), '"', '""', "'", "*", "**", "NEAR(", "NEAR(a b, 3)", "AND", "OR",
    "NOT", "a AND", "OR b", "(", ")", "{", "}", "^", "col:word", "name:x", "-x", "+x", "a -b",
    "[", "]", "\\", "$", "a|b", ".*", "(?i)x", "%", "_", "'; DROP TABLE symbols; --",
    "../../etc/passwd", "/etc/passwd", "C:\\Windows", "🙂", "مرحبا", "ab\u0301c", "\u2028",
    "x" * 10_001, "word " * 2_000, "a" * 100_000, "::", "path::", "::Name", "__init__",
    "0", "-1", "1e308", "NaN", "None", "null", "true", "SELECT * FROM docs",
]  # fmt: skip


def odd_queries(rng: random.Random, count: int) -> list[str]:
    words = ["who", "calls", "render", "Console", "print", "table", "style", "segment", "*", '"']
    out = list(_ODD)
    while len(out) < count:
        parts = [rng.choice(words + _ODD[:60]) for _ in range(rng.randrange(1, 6))]
        out.append(" ".join(parts) if rng.random() < 0.8 else "".join(parts))
    return out[:count]


def queries(root: Path, rng: random.Random, count: int, timeout: float) -> dict[str, object]:
    from typer.testing import CliRunner

    from astrag.cli import app

    tally, cli = Tally(), Tally()
    runner = CliRunner()
    with api.open_index(root) as idx:
        for i, q in enumerate(odd_queries(rng, count)):
            mode = ("hybrid", "lexical", "dense", "exact")[i % 4]
            attempt(
                tally,
                f"search {mode} {q[:80]!r}",
                lambda q=q, m=mode: idx.search(q, 10, mode=m),
                timeout,
            )
            attempt(tally, f"context {q[:80]!r}", lambda q=q: idx.context(q, 2000).text, timeout)
            if i % 10 == 0:
                result = runner.invoke(app, ["search", q, "--repo", str(root), "-f", "json"])
                failed = result.exception is not None and not isinstance(
                    result.exception, SystemExit
                )
                cli.add("internal" if failed else "ok" if result.exit_code == 0 else "refused",
                        f"astrag search {q[:80]!r}: {result.exception!r}")  # fmt: skip
    return {"api": tally.to_json(), "cli": cli.to_json(), "cli_bytes": cli_bytes(root).to_json()}


def cli_bytes(root: Path) -> Tally:
    """What only a real command line can pass: argv and stdin that are not UTF-8."""
    tally = Tally()
    cases: list[tuple[list[bytes], bytes]] = [
        ([b"search", b"\xff\xfe"], b""),
        ([b"context", b"caf\xe9 \xc3\x28"], b""),
        ([b"show", b"\xed\xa0\x80"], b""),
        ([b"check", b"-", b"--lang", b"python"], b"x = '\xff\xfe'\n"),
        ([b"check", b"-"], b"--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-\xff\n+\xfe\n"),
    ]
    for argv, stdin in cases:
        command = [sys.executable.encode(), b"-m", b"astrag.cli", *argv, b"--repo", bytes(root)]
        done = subprocess.run(command, input=stdin, capture_output=True, timeout=120)
        label = f"astrag {b' '.join(argv)!r}: exit {done.returncode}: {done.stderr[-300:]!r}"
        traceback = b"Traceback" in done.stderr
        tally.add(
            "internal" if traceback else "ok" if done.returncode in (0, 1) else "refused", label
        )
    return tally


# ----------------------------------------------------------------------------------- mcp

_PATHS = ["../../etc/passwd", "/etc/passwd", "leak.py", "outdir/leak.py", "pipe.py",
          "folder.py", "a\0b.py", "x/" * 3000 + "y.py", "", " ", "..", "./../repo/x.py",
          "C:\\x.py", "\\\\server\\share", "\ufffd.py"]  # fmt: skip
_WRONG = [None, 0, -1, 10**12, 1.5, "3", [], {}, True, "x" * 200_000]


def mcp_calls(rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    calls: list[tuple[str, dict[str, Any]]] = []
    for p in _PATHS:
        calls += [
            ("get_symbol", {"symbol": p}), ("get_symbol", {"symbol": f"{p}::leak"}),
            ("find_callers", {"symbol": p}), ("find_implementations", {"symbol": p}),
            ("check_code", {"code": "x = 1\n", "path": p}),
            ("check_code", {"diff": f"--- a/{p}\n+++ b/{p}\n@@ -1 +1 @@\n-a\n+b\n"}),
        ]  # fmt: skip
    for value in _WRONG:
        calls += [
            ("search_symbols", {"query": value}),
            ("search_symbols", {"query": "x", "limit": value}),
            ("get_context", {"query": "x", "budget": value}),
            ("get_symbol", {"symbol": value}),
            ("find_callees", {"symbol": "Console", "depth": value}),
            ("check_code", {"code": value, "lang": "python"}),
            ("check_code", {"code": "x", "lang": value}),
        ]
    calls += [("check_code", {}), ("check_code", {"code": "x", "diff": "y"}),
              ("index_status", {"extra": 1}), ("no_such_tool", {}),
              ("check_code", {"code": "\0" * 1000, "lang": "python"}),
              ("check_code", {"code": "x = (" * 5000, "lang": "python"})]  # fmt: skip
    rng.shuffle(calls)
    return calls


def mcp(root: Path, rng: random.Random, timeout: float) -> dict[str, object]:
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    tally = Tally()
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "astrag.cli", "mcp", "--repo", str(root)],
        env=dict(os.environ),
    )  # fmt: skip
    calls = mcp_calls(rng)

    async def run_all() -> None:
        pending = list(calls)
        while pending:
            with contextlib.suppress(Exception):  # a stuck server is closed: the next starts
                async with Client(params) as client:
                    while pending:
                        tool, args = pending.pop()
                        if not await call(client, tool, args):
                            break

    async def call(client: Client, tool: str, args: dict[str, Any]) -> bool:
        """One call and its outcome; False when the server stopped answering."""
        label = f"{tool}({json.dumps(args)[:160]})"
        try:
            with anyio.fail_after(timeout):
                result = await client.call_tool(tool, args)
        except TimeoutError:
            tally.add("hang", label)
            return False
        except Exception as exc:
            tally.add("internal", f"{label}: {type(exc).__name__}: {exc}")
            return True
        text = " ".join(getattr(c, "text", "") for c in result.content)
        if CANARY in text or CANARY in json.dumps(result.structured_content):
            tally.add("outside", label)
        elif "internal error" in text:
            tally.add("internal", f"{label}: {text[:200]}")
        else:
            tally.add("refused" if result.is_error else "ok")
        return True

    anyio.run(run_all)
    return {"calls": len(calls), **tally.to_json()}


# ---------------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--diffs", type=int, default=500)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--mcp", action="store_true")
    parser.add_argument("--corpus", type=Path, default=DATA / "py-acc" / "rich")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="astrag-hostile-"))
    report: dict[str, object] = {}
    try:
        if args.files:
            report["trees"] = trees(work, rng, args.files, args.timeout)
        root = corpus_copy(args.corpus, work)
        if args.diffs:
            report["diffs"] = diffs(root, rng, args.diffs, args.timeout)
        if args.queries:
            report["queries"] = queries(root, rng, args.queries, args.timeout)
        if args.mcp:
            report["mcp"] = mcp(root, rng, args.timeout)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = json.dumps(report, indent=2, ensure_ascii=True)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
