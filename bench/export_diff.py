"""Graph exports before and after a change: save them, then check that nothing moved.

A restructuring of the resolver or the frontends must leave every graph exactly as it was.
This script indexes a list of repository roots with the astrag found on ``PYTHONPATH`` (each in
a fresh ``astrag index --rebuild --no-embed`` process), exports each graph as JSON Lines
(``astrag export --format jsonl``) and either saves the exports or compares them, byte for
byte, with saved ones:

  python bench/export_diff.py save    --out REFDIR  ROOT [ROOT ...]
  python bench/export_diff.py compare --ref REFDIR  ROOT [ROOT ...]   # exit 1 on any difference

``compare`` prints one line per root: identical, the same records in another order, or how
many nodes and edges only the saved export has, only the new one has, and (for nodes) which
share an id but differ — then a few examples; it exits 1 unless every export is identical.

Indexing runs with ``--jobs 1`` unless told otherwise: an export lists edges in the order they
were written, and parallel resolution writes each shard's edges when that shard finishes, in
whatever order the workers finish — so two parallel runs of the same code can list the same
edges in different orders. With ``--jobs N`` (N > 1) the same records in another order count as
a match. ``--copies DIR`` indexes a hard-linked copy of each root under DIR instead of the root
itself (no file data is duplicated when DIR is on the root's file system; elsewhere files are
copied), so a corpus others index too is never touched and the copies' own ``.astrag/`` stay
out of the shared tree; the copies are removed afterwards.

The resolution tests build their fixture projects in temporary directories; ``fixtures``
writes each of them out as a directory of its own (one per test, named after it), so they can
be saved and compared like any other root:

  python bench/export_diff.py fixtures --out DIR [pytest args, default tests/graph tests/lang]
  python bench/export_diff.py save --out REFDIR DIR/*

Each export file is named after its root's last two path components (``py-acc/rich`` ->
``py-acc__rich.jsonl``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = 5


def export_name(root: Path) -> str:
    parts = root.resolve().parts[-2:]
    return "__".join(parts) + ".jsonl"


def _astrag(*args: str) -> None:
    """One astrag command in its own process (the astrag of the caller's PYTHONPATH)."""
    command = [sys.executable, "-m", "astrag.cli", *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(command[2:])} exited {done.returncode}:\n{done.stderr}")


@contextmanager
def _indexed_root(root: Path, copies: Path | None) -> Iterator[Path]:
    """The root to index: the root itself, or a hard-linked copy of it under ``copies``."""
    if copies is None:
        yield root
        return
    copies.mkdir(parents=True, exist_ok=True)
    holder = Path(tempfile.mkdtemp(prefix="export-diff-", dir=copies))
    # the copy keeps the root's directory name: a module's id is its path, never the root's,
    # but a root-named package (Python) must still be what it was
    copy = holder / root.resolve().name
    try:
        ignore = shutil.ignore_patterns(".astrag")
        shutil.copytree(root, copy, copy_function=_link_or_copy, ignore=ignore)
        yield copy
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system: a real copy
        shutil.copy2(source, target)


def export_graph(root: Path, out: Path, copies: Path | None, jobs: int) -> None:
    with _indexed_root(root, copies) as target:
        _astrag("index", str(target), "--rebuild", "--no-embed", "--jobs", str(jobs), "-f", "json")
        _astrag("export", "--repo", str(target), "--format", "jsonl", "-o", str(out))


def _records(path: Path) -> tuple[dict[str, str], dict[str, int]]:
    """Nodes by id (their line), and edges as lines with a count (an edge may repeat)."""
    nodes: dict[str, str] = {}
    edges: dict[str, int] = {}
    for line in path.read_text("utf-8").splitlines():
        record = json.loads(line)
        if record["type"] == "node":
            nodes[record["id"]] = line
        else:
            edges[line] = edges.get(line, 0) + 1
    return nodes, edges


def summarise(ref: Path, new: Path) -> tuple[str, list[str]]:
    """The outcome ("identical", "reordered": the same records, or "different") and how."""
    if ref.read_bytes() == new.read_bytes():
        return "identical", []
    ref_nodes, ref_edges = _records(ref)
    new_nodes, new_edges = _records(new)
    only_ref = sorted(ref_nodes.keys() - new_nodes.keys())
    only_new = sorted(new_nodes.keys() - ref_nodes.keys())
    changed = sorted(k for k in ref_nodes.keys() & new_nodes.keys() if ref_nodes[k] != new_nodes[k])
    lost = sorted(e for e in ref_edges if ref_edges[e] > new_edges.get(e, 0))
    gained = sorted(e for e in new_edges if new_edges[e] > ref_edges.get(e, 0))
    lines = [
        f"  nodes: {len(only_ref)} only in the saved export, {len(only_new)} only in the new one, "
        f"{len(changed)} changed; edges: {len(lost)} lost, {len(gained)} gained"
    ]
    if not (only_ref or only_new or changed or lost or gained):
        return "reordered", ["  the same records, in a different order"]
    for label, items in (
        ("node only saved", only_ref),
        ("node only new", only_new),
        ("node changed", changed),
        ("edge lost", lost),
        ("edge gained", gained),
    ):
        lines.extend(f"    {label}: {item}" for item in items[:EXAMPLES])
    return "different", lines


def _save(args: argparse.Namespace) -> int:
    args.out.mkdir(parents=True, exist_ok=True)
    for root in args.roots:
        target = args.out / export_name(root)
        export_graph(root, target, args.copies, args.jobs)
        print(f"{root}: saved {target} ({target.stat().st_size} bytes)")
    return 0


def _compare(args: argparse.Namespace) -> int:
    failed = 0
    with tempfile.TemporaryDirectory(prefix="export-diff-") as scratch:
        for root in args.roots:
            saved = args.ref / export_name(root)
            if not saved.is_file():
                print(f"{root}: no saved export {saved}")
                failed += 1
                continue
            new = Path(scratch) / export_name(root)
            export_graph(root, new, args.copies, args.jobs)
            outcome, lines = summarise(saved, new)
            print(f"{root}: {outcome} ({new.stat().st_size} bytes)", *lines, sep="\n")
            failed += outcome == "different" or (outcome == "reordered" and args.jobs == 1)
    print(f"{len(args.roots) - failed} of {len(args.roots)} match")
    return 1 if failed else 0


# ----------------------------------------------------------------------------- fixtures

_PLUGIN = """
import os, re, textwrap
from pathlib import Path
import pytest

OUT = Path(os.environ["EXPORT_DIFF_FIXTURES"])


@pytest.fixture(autouse=True)
def _keep_fixture_project(monkeypatch):
    from tests.graph import graphs

    original = graphs.build

    def build(tmp_path, files):
        test = os.environ["PYTEST_CURRENT_TEST"].split(" ")[0]
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", test.split("::", 1)[-1])
        for rel, text in files.items():
            path = OUT / name / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text).lstrip("\\n"), encoding="utf-8")
        return original(tmp_path, files)

    monkeypatch.setattr(graphs, "build", build)
    for module in list(__import__("sys").modules.values()):
        if getattr(module, "build", None) is original and module is not graphs:
            monkeypatch.setattr(module, "build", build)
"""


def _fixtures(args: argparse.Namespace) -> int:
    """Run the resolution tests with a plugin that writes each fixture project out."""
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="export-diff-plugin-") as plugin_dir:
        Path(plugin_dir, "export_diff_fixtures.py").write_text(_PLUGIN, encoding="utf-8")
        env = {
            **os.environ,
            "EXPORT_DIFF_FIXTURES": str(args.out.resolve()),
            "PYTHONPATH": os.pathsep.join(
                p for p in (plugin_dir, os.environ.get("PYTHONPATH", "")) if p
            ),
        }
        tests = args.pytest_args or ["tests/graph", "tests/lang"]
        command = [sys.executable, "-m", "pytest", "-q", "-p", "export_diff_fixtures", *tests]
        done = subprocess.run(command, cwd=REPO, env=env)
    count = sum(1 for p in args.out.iterdir() if p.is_dir())
    print(f"{count} fixture projects in {args.out}")
    return done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    save = sub.add_parser("save", help="index and export each root into --out")
    save.add_argument("--out", type=Path, required=True)
    compare = sub.add_parser("compare", help="index, export, compare with --ref")
    compare.add_argument("--ref", type=Path, required=True)
    for p in (save, compare):
        p.add_argument("--copies", type=Path, help="index hard-linked copies under this dir")
        p.add_argument("--jobs", type=int, default=1, help="astrag index --jobs (default 1)")
        p.add_argument("roots", type=Path, nargs="+")
    fixtures = sub.add_parser("fixtures", help="write the resolution tests' fixture projects")
    fixtures.add_argument("--out", type=Path, required=True)
    fixtures.add_argument("pytest_args", nargs="*")
    args = parser.parse_args(argv)
    return {"save": _save, "compare": _compare, "fixtures": _fixtures}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
