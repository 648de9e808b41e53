"""Honesty: does `astrag callers` mention unknown-receiver calls of a method with no caller?

For one indexed corpus and its export (``astrag export``): every function or method with no
resolved caller (no in-repo ``calls`` edge points at it) whose name some call site calls on a
receiver astrag could not type (an edge to the placeholder ``unresolved::?.<name>``) is a
*question*: an agent asking who calls it should hear about those sites as unverified
candidates rather than "no callers". For each, ``astrag callers <id> --format json`` is run and
the question counts as *answered* when the JSON names at least one of those sites, i.e. some
object in it carries that site's path and line (``"path"``/``"line"``, ``"file"``/``"line"``,
or a ``"path:line"`` string), whatever field it sits in: the script does not depend on the
shape the candidates take. The share *not* mentioned is the metric (target 0).

The CLI runs in this process (its Typer app, the same code and JSON as the ``astrag`` command)
unless ``--subprocess`` is given; ``--sample N`` keeps every k-th question (sorted by id) for
a quick look.

    python3 bench/honesty.py CORPUS_DIR EXPORT.jsonl [--sample N] [--examples N] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

CALLABLE_KINDS = {"function", "method"}
UNKNOWN_RECEIVER = "unresolved::?."

Site = tuple[str, int]  # (path, line)


@dataclass
class Question:
    symbol: str
    name: str
    sites: list[Site]  # the unknown-receiver call sites of its name


@dataclass
class Outcome:
    questions: int = 0
    mentioned: int = 0
    unmentioned: list[Question] = field(default_factory=list)

    @property
    def share_not_mentioned(self) -> float | None:
        return round(1 - self.mentioned / self.questions, 4) if self.questions else None


def _records(lines: Iterable[str]) -> Iterator[dict]:
    for line in lines:
        if line.strip():
            yield json.loads(line)


def questions(export_lines: Iterable[str]) -> list[Question]:
    """Callables with zero resolved callers whose name has unknown-receiver call sites."""
    callables: dict[str, str] = {}  # id -> name
    called: set[str] = set()
    unknown: dict[str, set[Site]] = defaultdict(set)
    for rec in _records(export_lines):
        if rec.get("type") == "node":
            if rec.get("kind") in CALLABLE_KINDS and rec.get("path"):
                callables[rec["id"]] = rec.get("name", "")
        elif rec.get("type") == "edge" and rec.get("kind") == "calls":
            target = rec.get("target", "")
            if target.startswith(UNKNOWN_RECEIVER) and rec.get("path"):
                name = target[len(UNKNOWN_RECEIVER) :]
                unknown[name].add((rec["path"], rec.get("line") or 0))
            else:
                called.add(target)
    return [
        Question(symbol, name, sorted(unknown[name]))
        for symbol, name in sorted(callables.items())
        if symbol not in called and name in unknown
    ]


def sites_named(data: object) -> set[Site]:
    """Every (path, line) the JSON names anywhere: objects with a path/file and a line, and
    ``path:line`` strings."""
    found: set[Site] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            path = item.get("path", item.get("file"))
            line = item.get("line")
            if isinstance(path, str) and isinstance(line, int):
                found.add((path, line))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and ":" in item:
            head, _, tail = item.rpartition(":")
            if tail.isdigit():
                found.add((head, int(tail)))
    return found


def callers_json_in_process(root: Path, symbol: str) -> object:
    from typer.testing import CliRunner

    from astrag.cli import app

    result = CliRunner().invoke(
        app, ["callers", symbol, "--repo", str(root), "--format", "json"], catch_exceptions=False
    )
    return json.loads(result.stdout) if result.exit_code == 0 else {}


def callers_json_subprocess(root: Path, symbol: str) -> object:
    cmd = ["astrag", "callers", symbol, "--repo", str(root), "--format", "json"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    return json.loads(done.stdout) if done.returncode == 0 else {}


def evaluate(root: Path, asked: list[Question], use_subprocess: bool) -> Outcome:
    ask = callers_json_subprocess if use_subprocess else callers_json_in_process
    outcome = Outcome()
    for question in asked:
        outcome.questions += 1
        if sites_named(ask(root, question.symbol)) & set(question.sites):
            outcome.mentioned += 1
        else:
            outcome.unmentioned.append(question)
    return outcome


def sample(items: list[Question], n: int | None) -> list[Question]:
    if not n or n >= len(items):
        return items
    step = -(-len(items) // n)
    return items[::step]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the indexed corpus directory")
    parser.add_argument("export", type=Path, help="astrag export of that index (JSONL)")
    parser.add_argument("--sample", type=int, help="keep about N questions: every k-th")
    parser.add_argument("--examples", type=int, default=5, help="unmentioned ones to list")
    parser.add_argument("--json", type=Path, help="write the result as JSON here")
    parser.add_argument("--subprocess", action="store_true", help="run the astrag command")
    args = parser.parse_args(argv)
    try:
        with args.export.open(encoding="utf-8") as f:
            asked = sample(questions(f), args.sample)
    except (OSError, ValueError) as exc:
        print(f"honesty: cannot read {args.export}: {exc}", file=sys.stderr)
        print("honesty: pass the JSONL that `astrag export` wrote", file=sys.stderr)
        return 2
    outcome = evaluate(args.root, asked, args.subprocess)
    share = outcome.share_not_mentioned
    shown = "n/a" if share is None else f"{100 * share:.1f} %"
    print(
        f"{args.root.name}: {outcome.questions} methods/functions with no resolved caller and"
        f" unknown-receiver calls of their name; not mentioned by `callers`: {shown}"
        f" ({outcome.questions - outcome.mentioned})"
    )
    for q in outcome.unmentioned[: args.examples]:
        where = ", ".join(f"{p}:{n}" for p, n in q.sites[:3])
        print(f"  {q.symbol}: {len(q.sites)} sites call .{q.name}( on an unknown receiver: {where}")
    if args.json:
        result = {
            "corpus": str(args.root),
            "questions": outcome.questions,
            "mentioned": outcome.mentioned,
            "share_not_mentioned": share,
            "unmentioned": [q.__dict__ for q in outcome.unmentioned],
        }
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
